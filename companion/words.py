"""One catalogue of words: every sentence the box shows a player is said through here.

The code says its sentences in English with :func:`say` (named ``{fields}``, filled in after the sentence is
translated, so a translation may move them) and :func:`says` where a number picks the form ("1 token",
"2 tokens"), and :func:`N_` where a sentence is data to be said later; ``make catalogue`` has Babel gather them into ``companion/locale/molebox.pot``. A translation
is a file: ``companion/locale/<language>.po``, chosen with ``MOLEBOX_LOCALE`` (or ``use``), read with
Babel at start-up. No code changes for a language.

``qps`` is the pseudo-locale of the layout tests: every sentence accented and about 40% longer, so a
screen that cuts a longer language, or a sentence that never went through the catalogue (it stays plain),
shows before any translator sees it.
"""
from __future__ import annotations

import gettext
import os
import re
from functools import cache
from pathlib import Path

LOCALES = Path(__file__).parent / "locale"
TEMPLATE = LOCALES / "molebox.pot"
PSEUDO = "qps"
ENV = "MOLEBOX_LOCALE"

_FIELD = re.compile(r"(\{[^{}]*\})")            # a str.format field: never translated, never accented
_ACCENTS = str.maketrans("AEIOUYCNSZaeiouycnsz", "ÅÉÎÖÜÝÇÑŠŽåéîöüýçñšž")
_LONGER = re.compile(r"([åéîöüýÅÉÎÖÜÝlrLR])")      # doubled: about 40% longer, as German or French run


class Pseudo(gettext.NullTranslations):
    """The pseudo-locale: each sentence of the catalogue with its letters accented, its vowels, l and r doubled
    (about 40% longer). A sentence that is not in the catalogue stays as it is, plain, as a translation would
    leave it: the layout test finds it."""

    def __init__(self, catalogue: set[str]):
        super().__init__()
        self.catalogue = catalogue

    def gettext(self, message: str) -> str:
        return pseudo(message) if message in self.catalogue else message

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.gettext(singular if n == 1 else plural)


def pseudo(message: str) -> str:
    """``message`` as the pseudo-locale says it: its fields kept, the rest accented and lengthened."""
    return "".join(part if _FIELD.fullmatch(part) else _LONGER.sub(r"\1\1", part.translate(_ACCENTS))
                   for part in _FIELD.split(message))


@cache
def _translations(locale: str) -> gettext.NullTranslations:
    if locale in ("", "en"):
        return gettext.NullTranslations()
    from babel.messages.pofile import read_po        # only a box that says another language reads a catalogue
    if locale == PSEUDO:
        with TEMPLATE.open("rb") as pot:
            return Pseudo({m for message in read_po(pot) if message.id
                           for m in ((message.id,) if isinstance(message.id, str) else message.id)})
    from babel.messages.mofile import write_mo
    import io
    path = LOCALES / f"{locale}.po"
    if not path.exists():
        raise ValueError(f"no translation {path}: copy {TEMPLATE} there and translate it "
                          f"(or choose --language en)")
    with path.open("rb") as po:
        catalog = read_po(po, locale=locale)
    mo = io.BytesIO()
    write_mo(mo, catalog)
    mo.seek(0)
    return gettext.GNUTranslations(mo)


def use(locale: str) -> None:
    """Say everything from now on in ``locale`` (en, qps, or a language with a .po file); the processes the
    box starts say it too."""
    _translations(locale)                           # a missing file fails here, at start-up
    os.environ[ENV] = locale


def locale() -> str:
    return os.environ.get(ENV, "en")


def N_(message: str) -> str:
    """Marks a sentence for the catalogue where it is data (a table of names), said later with say()."""
    return message


def translate(message: str) -> str:
    """``message`` in the box's language, its fields left for the caller (the rules fill in their own)."""
    return _translations(locale()).gettext(message)


def keyed(table: dict, said: str):
    """The value ``table`` (keyed by English sentences) holds for ``said``, a key as the box's language says it
    (a label the table translated on its way to the screen); None where no key says it."""
    return next((value for key, value in table.items() if translate(key) == said), None)


def say(message: str, **fields) -> str:
    """``message`` in the box's language, its ``{fields}`` filled in."""
    return _translations(locale()).gettext(message).format(**fields)


def plural(n: int) -> int:
    """Which of a plural sentence's forms the box's language gives the number ``n`` (its catalogue's Plural-Forms;
    English's: 0 for one, 1 for more)."""
    return getattr(_translations(locale()), "plural", lambda n: int(n != 1))(n)


def says(singular: str, plural: str, n: int, **fields) -> str:
    """The form of a sentence a number ``n`` takes ("{n} token", "{n} tokens"), in the box's language."""
    return _translations(locale()).ngettext(singular, plural, n).format(n=n, **fields)
