"""Shared fixtures: a simulated box on MockFactory pins and luma dummy displays, on a fake clock."""
from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import settings

from companion import scene, script
from companion.render.reading import SMALLEST
from companion.hardware.sim import SimHardware, open_sim
from companion.painter import draw
from companion.session import Session
from companion.journal import Journal
from companion.table import Start
from wiring.profile import load

# Hypothesis's 200 ms deadline per example is a timing test in disguise: on a busy CI machine it fails
# examples that are merely slow. Speed is make bench's business.
settings.register_profile("molebox", deadline=None)
settings.load_profile("molebox")


@dataclass
class Box:
    """A session on simulated hardware, driven by presses through the mock pins."""

    hw: SimHardware
    session: Session
    clock: script.FakeClock

    def play(self, text: str, settle: bool = True) -> None:
        script.run(self.session, self.hw, self.clock, script.parse(text, panels=len(self.hw.seats)), settle)

    def press(self, seat: int, control: str, hold: bool = False) -> None:
        self.play(f"{seat} {control}{' hold' if hold else ''}", settle=False)

    def lamps(self, seat: int) -> list[str]:
        return self.session.lamps.lit()[f"seat{seat}"]

    def drawn(self, name: str, render_fn, *args) -> bytes:
        """What ``render_fn(*args)`` draws for the display ``name``, on its own glass (its profile's panel)."""
        return render_fn(*args, dict(scene.panels(self.hw.profile)).get(name, SMALLEST)).tobytes()

    def pixels(self, name: str) -> bytes:
        self.session.screens.worker.flush()
        return self.hw.displays()[name].image.tobytes()

    @property
    def match(self):
        return self.session.state.match

    def name_players(self, names: dict[int, str]) -> None:
        """The host names the players on the dashboard."""
        for seat, name in names.items():
            assert self.session.host("name", seat=seat, name=name) is None
        self.session.refresh()

    def pull_plug(self) -> None:
        """The power goes: the box's hold on its journal goes with it, so another box may start on it."""
        if self.session.keeper.journal is not None:
            self.session.keeper.journal.close()


@pytest.fixture(autouse=True)
def private_data_dir(tmp_path, monkeypatch):
    """Keep every test away from the user's own journal: the default database lives in tmp_path."""
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.fixture
def box_factory():
    """Build boxes; every mock pin factory is reset and every display worker stopped afterwards."""
    made: list[Box] = []

    def build(game: str | None = "whakka-mole", seats: int | None = 3, seed: int = 0,
              settings: dict | None = None, profile: str = "sim-8", dice: str = "virtual",
              cards: str = "virtual", db=None, make_display=None, bots: dict | None = None, paint=draw) -> Box:
        clock = script.FakeClock()
        hw = open_sim(load(profile), clock, make_display)
        journal = Journal(db) if db is not None else None
        start = Start(game, seats, dice, cards, dict(bots or {}), dict(settings or {})) if game else None
        session = Session(hw, clock, start=start, seed=seed, journal=journal, paint=paint)
        session.pump()                      # up: what starting wrote (a computer player's first move) is on disk
        made.append(Box(hw, session, clock))
        return made[-1]

    yield build
    for box in made:
        box.session.close()


@pytest.fixture
def box(box_factory) -> Box:
    return box_factory()
