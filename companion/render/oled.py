"""A :class:`~companion.render.screen.Screen` drawn on a 128 x 64 one-bit OLED, its type sized for the panel.

Every word is drawn at the cap height its role needs on the panel (:mod:`companion.render.reading`):
the prompt at 20 minutes of arc, everything else at 16. What a glass has no room for goes, least
important first (``docs/screens.md``): the prompt stays, then the notice, the options, the first
line, the title, the status and the other lines, each first in its smallest form (a text on one
line, the options in one row), then grown where room is left (the options may push out the title and
the later lines to be named in full). The kept rows stand in the order a player reads: the title bar,
the prompt, then from the bottom up the notice, the lines and the options, so the rows a screen keeps
stay put from one frame to the next.

With :func:`recording` on (the layout test, the browser tests), every text placed is kept: its role,
its box, the text asked for and the lines drawn, its ink, the cap height of each of its fonts and
whether it was drawn whole (else it was cut, with an ellipsis).
"""
from __future__ import annotations

import contextlib
import contextvars
import itertools
from dataclasses import dataclass, replace

from PIL import Image, ImageDraw

from companion.words import say

from . import naming
from .fonts import Face, cap_height
from .reading import SMALLEST, Panel
from .screen import Option, Screen, Words, wordings

ON, OFF = 255, 0
WIDTH, HEIGHT = 128, 64
MARGIN = 2                  # columns between the glass's edge (or a bar's) and its words
ELLIPSIS = "…"
#: what a glass keeps first, when it cannot keep everything (docs/screens.md)
PROMPT, NOTICE, OPTIONS, FIRST_LINE, TITLE, STATUS = range(6)
_records: contextvars.ContextVar[list | None] = contextvars.ContextVar("records", default=None)


@contextlib.contextmanager
def recording():
    """Keep every text placed inside the ``with``, on this thread (a display's worker draws on its own): yields the
    list they go into."""
    placed: list = []
    token = _records.set(placed)
    try:
        yield placed
    finally:
        _records.reset(token)


def record(text_: dict) -> None:
    """Keep a text placed on the glass (its role, box, the words asked, the lines drawn, ink, whether whole, capitals'
    heights), while this thread is :func:`recording`."""
    placed = _records.get()
    if placed is not None:
        placed.append(text_)


def canvas(width: int = WIDTH, height: int = HEIGHT) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    image = Image.new("1", (width, height), OFF)
    return image, ImageDraw.Draw(image)


def face(panel: Panel, role: str) -> Face:
    return Face(panel.cap_px(role))


def _wrapped(face_: Face, text: str, width: int) -> list[str]:
    lines: list[str] = []
    for word in text.split(" "):              # at spaces, not a name's no-break spaces (render/naming.py)
        if not word:
            continue
        if lines and face_.width(f"{lines[-1]} {word}") <= width:
            lines[-1] += f" {word}"
        else:
            lines.append(word)
    return lines


def _cut(face_: Face, text: str, width: int) -> str:
    """The longest start of ``text`` that fits ``width`` with an ellipsis, found by halving (a letter at a time
    measured every start of a long line, and the measures' caches kept them all: megabytes on a busy box)."""
    fits, over = 0, len(text) + 1
    while over - fits > 1:
        middle = (fits + over) // 2
        if face_.width(text[:middle] + ELLIPSIS) <= width:
            fits = middle
        else:
            over = middle
    return text[:fits].rstrip() + ELLIPSIS


def fitted(face_: Face, words: Words, width: int, lines: int = 1) -> tuple[list[str], bool]:
    """The lines ``words`` take ``width`` pixels wide: the longest wording that fits on one line or, wrapped, on
    at most ``lines``, with its players' names whole, else in their short forms (:func:`naming.shortened`); else
    the shortest cut with an ellipsis (and False: not whole)."""
    options = wordings(words)
    short = (text_ for text_ in map(naming.shortened, options) if text_ not in options)
    for text_ in itertools.chain(options, short):       # with the names whole, else short (made only then)
        if face_.width(text_) <= width:
            return [text_], True
        wrapped = _wrapped(face_, text_, width) if lines > 1 else []
        if wrapped and len(wrapped) <= lines and all(face_.width(line) <= width for line in wrapped):
            return wrapped, True
    return [_cut(face_, naming.shortened(options[-1]), width)], False


def _margin(role: str) -> int:
    """Columns kept clear at a line's ends: one for the prompt, whose large letters keep their own clear."""
    return 1 if role == "prompt" else MARGIN


def text(draw, box: tuple[int, int, int, int], words: Words, face_: Face, role: str, align: str = "left",
         fill: int = ON, lines: int = 1) -> None:
    """``words`` in ``box`` (left, top, right, bottom, inclusive), each line on the baseline its face puts it."""
    drawn, whole = fitted(face_, words, box[2] - box[0] + 1 - 2 * _margin(role), lines)
    ink = None
    for i, line in enumerate(drawn):
        width = face_.width(line)
        left = {"left": box[0] + _margin(role), "right": box[2] + 1 - _margin(role) - width,
                "centre": box[0] + (box[2] - box[0] + 1 - width) // 2}[align]
        ink_ = face_.box(line)
        if ink_:                                    # a letter reaching past its advance (J, f) stays in the box
            left = min(max(left, box[0] - ink_[0]), box[2] - ink_[2])
        got = face_.draw(draw, left, box[1] + i * face_.height + face_.above + face_.cap, line, fill)
        if got:
            ink = got if ink is None else (min(ink[0], got[0]), min(ink[1], got[1]), max(ink[2], got[2]),
                                           max(ink[3], got[3]))
    if _records.get() is not None:
        caps = [cap_height(font) for line in drawn for font, run, _ in face_.runs(line) if run.strip()]
        record({"role": role, "box": box, "asked": words, "lines": drawn, "ink": ink, "whole": whole, "caps": caps})


@dataclass
class _Row:
    kind: str                   # title, prompt, options, line, notice
    height: int
    draw: object                # (draw, top) -> None


def lay(draw, screen: Screen, panel: Panel = SMALLEST,
        box: tuple[int, int, int, int] = (0, 0, WIDTH - 1, HEIGHT - 1)) -> int:
    """Draw ``screen``'s words in ``box`` of the glass, as much as fits at the sizes the panel needs, its players'
    names in their short forms where whole ones leave a text no room; answer how many of its rows (its title,
    status, prompt, notice, options and each line) had no room."""
    with naming.shortening(screen.shorts):
        return _lay(draw, screen, panel, box)


def _lay(draw, screen: Screen, panel: Panel, box: tuple[int, int, int, int]) -> int:
    body, big, option = face(panel, "body"), face(panel, "prompt"), face(panel, "option")
    left, top, right, bottom = box
    width = right - left + 1
    room = bottom - top + 1
    if screen.news:
        screen = _told(screen, big, option.height, width - 2, room)
    units: list[tuple[int, int, list[_Row]]] = []   # (priority, display order, the row's forms, largest first)

    def add(priority: int, order: int, kind: str, *forms) -> None:
        units.append((priority, order, [_Row(kind, height, paint) for height, paint in forms]))

    def wrapping(words: Words, face_: Face, margins: int, paint, whole_only: bool = False) -> list[tuple[int, object]]:
        """The forms of a text that may take two lines, each whole: two where a wording needs them, one where a
        wording fits it; where none is whole, one line cut to fit (none at all where ``whole_only``: a line of
        what else there is to read is left out rather than cut)."""
        two, whole = fitted(face_, words, width - margins, 2)
        counts = [2] if len(two) == 2 and whole else []
        if fitted(face_, words, width - margins)[1] or not counts and not whole_only:
            counts.append(1)
        return [(n * face_.height, lambda d, y, n=n: paint(d, y, n)) for n in counts]

    if screen.prompt:
        add(PROMPT, 20, "prompt", *wrapping(screen.prompt, big, 2, lambda d, y, n: text(
            d, (left, y, right, y + n * big.height - 1), screen.prompt, big, "prompt", lines=n)))
    if screen.notice:                   # a refusal's reason, whole: before the prompt where both will not fit
        forms = wrapping(screen.notice, body, 2 * MARGIN, lambda d, y, n: _bar(
            d, (left, y, right, y + n * body.height - 1), screen.notice, body, n))
        first = PROMPT - 1 if units and units[0][2][-1].height + forms[-1][0] > room else NOTICE
        add(first, 90, "notice", *forms)
    if screen.options:                  # in rows in their words, in fewer rows in their shortest, or in one row
        shortest = tuple(Option(o.button, wordings(o.words)[-1], o.chosen) for o in screen.options)
        blocks = [_option_rows(option, screen.options, width), _option_rows(option, shortest, width)]
        blocks = [rows for i, rows in enumerate(blocks) if len(rows) > 1 and (i == 0 or len(rows) < len(blocks[0]))]
        blocks.append([_one_row(option, screen.options, width)])
        add(OPTIONS, 60, "options", *((len(rows) * option.height, lambda d, y, rows=rows: _option_block(
            d, (left, y, right), rows, option)) for rows in blocks))
    title_status = _title_row(body, screen, width)
    if title_status:
        add(TITLE, 0, "title", (body.height, lambda d, y: _title(d, (left, y, right, y + body.height - 1), screen, body,
                                                              title_status)))
    if screen.status and title_status != "both":
        add(STATUS, 10, "line", (body.height, lambda d, y: text(d, (left, y, right, y + body.height - 1), screen.status,
                                                           body, "body")))
    unplaced = 0
    for i, line in enumerate(screen.lines):
        forms = wrapping(line, body, 2 * MARGIN, lambda d, y, n, line=line: text(
            d, (left, y, right, y + n * body.height - 1), line, body, "body", lines=n), whole_only=True)
        if forms:
            add(FIRST_LINE if i == 0 else STATUS + 1 + i, 70 + i, "line", *forms)
        else:
            unplaced += 1
    kept: dict[int, tuple[int, list[_Row], int]] = {}      # unit -> (display order, its forms, the form drawn)
    used = 0
    for unit, (priority, order, forms) in sorted(enumerate(units), key=lambda u: (u[1][0], u[1][1])):
        smallest = len(forms) - 1
        if used + forms[smallest].height <= room:     # first every unit that fits, in its smallest form
            kept[unit] = (order, forms, smallest)
            used += forms[smallest].height
    for unit in sorted(kept, key=lambda u: (units[u][0], units[u][1])):     # then the larger forms, by priority
        if unit not in kept:
            continue
        order, forms, now = kept[unit]
        later = sorted((u for u in kept if units[u][0] > FIRST_LINE), key=lambda u: units[u][:2])
        freed = sum(kept[u][1][kept[u][2]].height for u in later) if forms[0].kind == "options" else 0
        better = next((i for i in range(now) if used - freed - forms[now].height + forms[i].height <= room), now)
        while used - forms[now].height + forms[better].height > room:    # the options named before the title
            _, gone, form = kept.pop(later.pop())
            used -= gone[form].height
        used += forms[better].height - forms[now].height
        kept[unit] = (order, forms, better)
    kept = sorted((order, forms[form]) for order, forms, form in kept.values())
    y = top
    upper = [row for order, row in kept if order < 60]
    lower = [row for order, row in kept if order >= 60]
    for row in upper:
        row.draw(draw, y)
        y += row.height
    y = bottom + 1 - sum(row.height for row in lower)
    for row in lower:
        row.draw(draw, y)
        y += row.height
    return unplaced + len(units) - len(kept)


def _told(screen: Screen, big: Face, option_height: int, width: int, room: int) -> Screen:
    """The seat's news in the prompt's place, the prompt going first among the lines: on one line beside the
    buttons, or on two with the buttons left to the seat's next press where both will not fit. Where no wording is
    whole even so, the prompt stays (the phone tells the news in full)."""
    if not fitted(big, screen.news, width, 2)[1]:
        return replace(screen, news="")
    keep = not screen.options or fitted(big, screen.news, width)[1] or 2 * big.height + option_height <= room
    return replace(screen, prompt=screen.news, news="", lines=(screen.prompt, *screen.lines),
                   options=screen.options if keep else ())


def _bar(draw, box, words: Words, face_: Face, lines: int = 1) -> None:
    """``words`` cut out of a lit bar: a notice, a chosen option, the title."""
    draw.rectangle(box, fill=ON)
    text(draw, box, words, face_, "body", fill=OFF, lines=lines)


def _title_row(body: Face, screen: Screen, width: int) -> str:
    """What the title bar holds: both title and status, the title alone, or nothing (a title no wording of which
    fits whole is left out, never cut)."""
    if not screen.title:
        return ""
    title = min(body.width(w) for w in wordings(screen.title))
    if screen.status:
        status = min(body.width(w) for w in wordings(screen.status))
        if title + status + 2 * body.cap + 2 * MARGIN <= width:
            return "both"
    return "title" if fitted(body, screen.title, width - 2 * MARGIN)[1] else ""


def _title(draw, box, screen: Screen, body: Face, holds: str) -> None:
    draw.rectangle(box, fill=ON)
    left, top, right, bottom = box
    if holds == "both":
        room = right - left + 1 - 2 * MARGIN - body.cap - min(body.width(w) for w in wordings(screen.title))
        status = next((w for w in wordings(screen.status) if body.width(w) <= room), wordings(screen.status)[-1])
        split = right - body.width(status) - 2 * MARGIN - body.cap // 2
        text(draw, (left, top, split, bottom), screen.title, body, "body", fill=OFF)
        text(draw, (split + 1, top, right, bottom), status, body, "body", align="right", fill=OFF)
    else:
        text(draw, box, screen.title, body, "body", fill=OFF)


def _option_rows(face_: Face, options: tuple[Option, ...], width: int) -> list[list[Option]]:
    """The options packed into rows, in order, as many to a row as fit."""
    gap = face_.cap
    rows: list[list[Option]] = []
    used = 0
    for option in options:
        need = _option_width(face_, option, width)
        if rows and used + gap + need <= width:
            rows[-1].append(option)
            used += gap + need
        else:
            rows.append([option])
            used = need
    return rows


def _one_row(face_: Face, options: tuple[Option, ...], width: int) -> list[Option]:
    """Every option in one row, where all rows will not fit: the draft (before one, the range of holes that
    answer, as ``1-4 choose``, or ``1,2,4 choose`` where hole 3 would be refused) and OK, in their shortest
    words; where they do not fit, the first option's words, but for a range of holes what OK does
    (``1-5 OK start``)."""
    holes = [o for o in options if o.button[0].isdigit()]
    rest = [o for o in options if not o.button[0].isdigit()]
    picked = [o for o in holes if o.chosen] or holes[:1]
    ranged = len(holes) > 1 and not any(o.chosen for o in holes)
    if ranged:
        picked = [Option(_buttons(holes), say("choose"))]
    shortest = [Option(o.button, wordings(o.words)[-1], o.chosen) for o in picked + rest]
    bare = [Option(o.button, "", o.chosen) for o in shortest]
    draft_first, ok_first = shortest[:1] + bare[1:], bare[:1] + shortest[1:2] + bare[2:]
    rows = (ok_first, draft_first, shortest[:1]) if ranged else (draft_first, shortest[:1], ok_first)
    for row in (shortest, *rows, bare):     # the first option's words before OK's, but a range's
        if sum(_option_width(face_, o, width) for o in row) + face_.cap * (len(row) - 1) <= width:
            return row
    return bare[:1]


def _buttons(holes: list[Option]) -> str:
    """The hole buttons that answer, as few characters as say exactly which: 1-4 for a run, 1,2,4 with a gap."""
    digits = sorted({d for o in holes for d in range(int(o.button.split("-")[0]), int(o.button.split("-")[-1]) + 1)})
    if digits == list(range(digits[0], digits[-1] + 1)):
        return f"{digits[0]}-{digits[-1]}"
    return ",".join(map(str, digits))


def _option_block(draw, box, rows: list[list[Option]], face_: Face) -> None:
    left, top, right = box
    for i, row in enumerate(rows):
        _options(draw, (left, top + i * face_.height, right, top + (i + 1) * face_.height - 1), row, face_)


def _option_width(face_: Face, option: Option, width: int) -> int:
    fits = [face_.width(option.text(w)) for w in wordings(option.words)]
    return 2 * MARGIN + next((w for w in fits if w <= width - 2 * MARGIN), fits[-1])


def _options(draw, box, row: list[Option], face_: Face) -> None:
    """A row of options, each its button and its words; the draft's lit."""
    left, top, right, bottom = box
    spare = (right - left + 1 - sum(_option_width(face_, o, right - left + 1) for o in row)) // max(1, len(row))
    x = left
    for option in row:
        need = _option_width(face_, option, right - left + 1)
        cell = (x, top, min(right, x + need + spare - 1 if len(row) > 1 else right), bottom)
        words = tuple(option.text(w) for w in wordings(option.words))
        if option.chosen:
            draw.rectangle((cell[0], top, cell[0] + min(need, cell[2] - cell[0] + 1) - 1, bottom), fill=ON)
        text(draw, cell, words, face_, "option", fill=OFF if option.chosen else ON)
        x = cell[2] + 1


def left_out(screen: Screen, panel: Panel = SMALLEST) -> int:
    """How many of ``screen``'s rows a glass of ``panel`` has no room for (a trial: nothing of it is recorded)."""
    with recording():
        return lay(canvas()[1], screen, panel)


def frame(screen: Screen, panel: Panel = SMALLEST) -> Image.Image:
    """A screen with no board: its words alone."""
    image, draw = canvas()
    lay(draw, screen, panel)
    return image
