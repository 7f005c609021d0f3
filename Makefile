# molebox: every target sets up its own virtual environment on first use.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
ARGS   ?=
POT    ?= companion/locale/molebox.pot
CATALOGUE = -F companion/locale/babel.cfg --no-default-keywords -k say -k says:1,2 -k N_ -k t -k ts:1,2 \
	    --no-location --sort-output --project molebox --copyright-holder "the molebox team"
SHELL  := /bin/bash
.SHELLFLAGS := -o pipefail -c

.PHONY: run test test-system bench screenshots catalogue how-to-play clean install uninstall

# The first run installs for minutes: it says so, and names each package as pip takes it.
$(STAMP): pyproject.toml
	@echo "molebox: setting up $(VENV) (first run, or pyproject.toml changed): a few minutes, then it starts at once"
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --disable-pip-version-check --progress-bar off -e '.[test]' \
	  | sed -un -e 's/^Collecting \([^ ]*\).*/  getting \1/p' -e 's/^Successfully installed/  installed:/p'
	@rm -f $(VENV)/.installed-* && touch $@
	@echo "molebox: $(VENV) ready"

run: $(STAMP)  ## the companion on simulated hardware
	$(BIN)/molebox run --backend sim $(ARGS)

# A worker per core (at most four), each taking whole files, so that a file's module fixtures are made once.
test: $(STAMP)  ## every test
	$(BIN)/python -m pytest -q -n auto --maxprocesses 4 --dist loadfile $(ARGS)

test-system: $(STAMP)  ## as root: the service's whole life in VMs of Debian trixie and bookworm (docs/pi.md)
	$(BIN)/python -m tests.system $(ARGS)

how-to-play: $(STAMP)  ## docs/rules/*.md: each game's "How to play" section, from rules/how_to_play.py
	$(BIN)/python -m companion.render.how

screenshots: $(STAMP)  ## docs/screenshots/ from the browser tests: every game's TV view at 1080p and 720p, the phones, the pages
	MOLEBOX_SCREENSHOTS=docs/screenshots $(BIN)/python -m pytest -q tests/web/test_tv.py tests/web/test_browser.py \
	  tests/web/test_phone_seats.py tests/web/test_teaching.py $(ARGS)

bench: $(STAMP)  ## speed and memory figures, printed as a table
	$(BIN)/python -m companion.bench $(ARGS)

catalogue: $(STAMP)  ## companion/locale/molebox.pot: every sentence the box says, for translators (docs/words.md)
	$(BIN)/pybabel extract $(CATALOGUE) -o $(POT) .

install:  ## on a Raspberry Pi, as root: the service, its user, I2C at 400 kHz (docs/pi.md)
	systemd/install.sh

uninstall:  ## undo `make install` (the game journal and the molebox user stay)
	systemd/install.sh --uninstall

clean:
	rm -rf $(VENV) out .pytest_cache .hypothesis
