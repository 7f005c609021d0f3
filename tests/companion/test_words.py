"""The catalogue of words: every sentence in it, a translation read from a file, and the pseudo-locale."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from companion import words
from companion.words import pseudo, say, says

ROOT = Path(__file__).parents[2]


def messages(path: Path) -> set:
    with path.open("rb") as pot:
        return {message.id if isinstance(message.id, str) else tuple(message.id) for message in read_po(pot) if message.id}


def test_the_committed_catalogue_holds_every_sentence_the_code_says(tmp_path):
    """A sentence added, changed or dropped in the code and not in companion/locale/molebox.pot would reach
    no translator: the fix is `make catalogue`."""
    fresh = tmp_path / "molebox.pot"
    subprocess.run(["make", "-s", "-C", str(ROOT), "catalogue", f"POT={fresh}"], check=True, capture_output=True)
    committed = messages(words.TEMPLATE)
    assert messages(fresh) == committed, "companion/locale/molebox.pot is stale: run `make catalogue`"
    assert len(committed) > 300


def test_the_pseudo_locale_keeps_the_fields_and_is_about_40_percent_longer():
    every = [m for m in messages(words.TEMPLATE) if isinstance(m, str)]
    for message in every:
        assert re.findall(r"\{[^{}]*\}", pseudo(message)) == re.findall(r"\{[^{}]*\}", message), message
    text = [re.sub(r"\{[^{}]*\}", "", m) for m in every]
    growth = sum(len(pseudo(t)) for t in text) / sum(len(t) for t in text)
    assert 1.3 < growth < 1.6, growth


def test_a_sentence_is_said_in_the_box_language(monkeypatch):
    monkeypatch.setenv(words.ENV, "en")
    assert says("{n} seat", "{n} seats", 2) == "2 seats"
    monkeypatch.setenv(words.ENV, words.PSEUDO)
    assert say("Whack {target}: {hole}", target="Ada", hole=3) == "Whååçk Ada: 3"
    assert says("{n} seat", "{n} seats", 1) == "1 šééååt"
    assert say("a sentence nobody put in the catalogue") == "a sentence nobody put in the catalogue"   # shows plain


@pytest.fixture
def speaking(monkeypatch, tmp_path):
    """``speaking(language, plural_forms, entries)``: the box says ``language``, from a .po of ``entries`` (its
    own lines) under the header's Plural-Forms rule; English again afterwards."""
    def use(language: str, plural_forms: str, entries: str) -> None:
        (tmp_path / f"{language}.po").write_text(
            f'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Plural-Forms: {plural_forms};\\n"\n\n'
            + entries, encoding="utf-8")
        monkeypatch.setattr(words, "LOCALES", tmp_path)
        words._translations.cache_clear()
        monkeypatch.setenv(words.ENV, "en")
        words.use(language)

    yield use
    words._translations.cache_clear()


def test_a_translation_is_a_file(speaking):
    speaking("de", "nplurals=2; plural=(n != 1)",
             'msgid "Whack {target}: {hole}"\nmsgstr "{target} hauen: Loch {hole}"\n\n'
             'msgid "{n} token"\nmsgid_plural "{n} tokens"\nmsgstr[0] "{n} Marke"\nmsgstr[1] "{n} Marken"\n')
    assert say("Whack {target}: {hole}", target="Ada", hole=3) == "Ada hauen: Loch 3"
    assert says("{n} token", "{n} tokens", 3) == "3 Marken"
    assert say("Locked in") == "Locked in"          # not translated yet: said in English, never blank


def test_a_language_with_three_plural_forms_gives_the_pages_all_three_and_which_each_number_takes(speaking):
    from companion.web import words as page_words
    speaking("pl", "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)",
             'msgid "{count} win"\nmsgid_plural "{count} wins"\n'
             'msgstr[0] "{count} wygrana"\nmsgstr[1] "{count} wygrane"\nmsgstr[2] "{count} wygranych"\n')
    assert page_words.catalogue()["{count} win"] == ["{count} wygrana", "{count} wygrane", "{count} wygranych"]
    table = page_words.plurals()
    taken = {n: table[n if n < len(table) else 100 + n % 100] for n in (1, 2, 5, 12, 22, 25, 112, 1022, 1012)}
    assert taken == {1: 0, 2: 1, 5: 2, 12: 2, 22: 1, 25: 2, 112: 2, 1022: 1, 1012: 2}    # as Polish says them
    assert [says("{count} win", "{count} wins", n, count=n) for n in (1, 22, 25)] == \
        ["1 wygrana", "22 wygrane", "25 wygranych"]


def test_a_language_without_its_file_is_refused_at_start_naming_the_fix(monkeypatch):
    monkeypatch.setenv(words.ENV, "en")
    with pytest.raises(ValueError, match=r"no translation .*xx\.po: copy .*molebox\.pot there"):
        words.use("xx")
