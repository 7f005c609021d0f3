"""The pages' own words, from the one catalogue (:mod:`companion.words`): what the static pages say themselves.

A script says a sentence as ``t("English {field}", {field: value})``, or ``ts("{count} win", "{count} wins", count)``
where a number picks the form (as many forms as the language has: :func:`plurals` says which a number takes); a
page's markup marks an element ``data-t``: its
words (an element of text alone) and its ``aria-label``, ``alt`` and ``title`` are sentences too. Babel finds them
as ``make catalogue`` does (:func:`extract_js` for the scripts, :func:`extract_html` for the pages),
and each page is given :func:`catalogue`: every one of them in the box's language.
"""
from __future__ import annotations

from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from string import Formatter

from companion.words import locale, plural, say, says

STATIC = Path(__file__).parent / "static"
PLURALS = 200           # numbers the page is told the form of; a larger one takes 100 + its last two digits' form
KEYWORDS = {"t": None, "ts": (1, 2)}
ATTRIBUTES = ("aria-label", "alt", "title")


class _Marked(HTMLParser):
    """The sentences of a page's elements marked ``data-t``, with their lines."""

    def __init__(self):
        super().__init__()
        self.found: list[tuple[int, str]] = []
        self._open: list[tuple[int, list[str]] | None] = []     # each open element: a marked one's words so far

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        line = self.getpos()[0]
        if self._open and self._open[-1] is not None:
            self._open[-1] = None                                   # a marked element with elements in: no words
        if "data-t" in attrs:
            self.found += [(line, attrs[name]) for name in ATTRIBUTES if attrs.get(name)]
        if tag not in ("meta", "link", "input", "img", "br"):        # the void elements the pages use
            self._open.append((line, []) if "data-t" in attrs else None)

    def handle_data(self, data):
        if self._open and self._open[-1] is not None:
            self._open[-1][1].append(data)

    def handle_endtag(self, tag):
        marked = self._open.pop()
        words = marked and " ".join("".join(marked[1]).split())
        if words:
            self.found.append((marked[0], words))


def extract_js(fileobj, keywords, comment_tags, options):
    """Babel's extractor for the scripts (``companion.web.words:extract_js``): ``t`` and ``ts`` calls only, whatever
    the Python side's keywords (a script's own ``say`` shows a connection's state, not a sentence to translate)."""
    from babel.messages.extract import extract_javascript      # Babel's only on the first page served
    return extract_javascript(fileobj, KEYWORDS, comment_tags, options)


def extract_html(fileobj, keywords, comment_tags, options):
    """Babel's extractor for the pages (``companion.web.words:extract_html``): the sentences marked ``data-t``."""
    parser = _Marked()
    parser.feed(fileobj.read().decode(options.get("encoding", "utf-8")))
    parser.close()
    for line, message in parser.found:
        yield line, None, message, []


def messages() -> list[str | tuple[str, str]]:
    """Every sentence of the static pages: a plural one as its (singular, plural)."""
    from babel.messages.extract import extract
    found = []
    for path in sorted(STATIC.iterdir()):
        with path.open("rb") as source:
            if path.suffix == ".js":
                found += [message for _, message, _, _ in extract(extract_js, source, keywords=KEYWORDS)]
            elif path.suffix == ".html":
                found += [message for _, _, message, _ in extract_html(source, KEYWORDS, (), {})]
    return found


def _fields(*texts: str) -> dict[str, str]:
    """Each field of ``texts`` as itself: said with these, a sentence keeps its fields for the page to fill."""
    return {field: f"{{{field}}}" for text in texts for _, field, _, _ in Formatter().parse(text) if field}


@cache
def _catalogue(language: str) -> dict[str, str | list[str]]:
    """:func:`catalogue` in ``language``, the box's now (the key it is kept under)."""
    found, forms = messages(), _plurals(language)
    first = [forms.index(form) for form in range(max(forms) + 1)]     # a number that takes each form
    return {message: say(message, **_fields(message)) for message in found if isinstance(message, str)} | {
        message[0]: [says(*message, count, **_fields(*message)) for count in first]
        for message in found if not isinstance(message, str)}


@cache
def _plurals(language: str) -> list[int]:
    return [plural(n) for n in range(PLURALS)]


def catalogue() -> dict[str, str | list[str]]:
    """The pages' sentences in the box's language, by their English: a plural one's forms, in the order of its
    catalogue's Plural-Forms (English: for one, for more), by its singular."""
    return _catalogue(locale())


def plurals() -> list[int]:
    """Which form of a plural sentence each number below :data:`PLURALS` takes in the box's language; a larger
    number takes the form of 100 + its last two digits (every language's rule reads only n, n % 10, n % 100 and
    numbers below 100)."""
    return _plurals(locale())
