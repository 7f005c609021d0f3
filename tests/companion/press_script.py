"""Writing a press script: a match played to its end, each answer as the presses a player makes, with comments.

The writers of tests/companion/scripts/ (mole_scripts.py, mole_hill_scripts.py, mole_park_scripts.py)
each choose their answers and words for their game; :func:`write` is what they share.
"""
from __future__ import annotations

from pathlib import Path
from typing import Callable

from rules.match import Match
from rules.model import Decision
from tests.presses import presses_for

SCRIPTS = Path(__file__).parent / "scripts"


def _said(d: Decision, value, events: list[dict]) -> tuple[str, int]:
    return f"S{d.seat} {d.key}: {d.label(value)}", 0


def write(name: str, match: Match, title: list[str], answer: Callable[[Match], tuple[Decision, object]],
          describe: Callable[[dict], str | None], say=_said,
          heading: Callable[[Match], list[str]] = lambda match: [],
          after: Callable[[Match, list[dict]], list[str]] = lambda match, events: []) -> Match:
    """Play ``match`` to its end and write it as scripts/NAME.txt, under the comment lines ``title``.

    Each step, ``heading(match)``'s lines, then the answer ``answer(match)`` gives (a decision and its
    value): a comment saying it, ``say(decision, value, events)`` (its words and how many of the events
    the answer made they tell; by default ``S1 key: label`` and none), then the presses a player makes
    for it. Every event not told so is a comment by ``describe`` (None: none) once the presses that made
    it are written, followed by ``after(match, events)``'s lines.
    """
    lines = [f"# {line}" for line in title]
    seen = 0

    def tell() -> list[str]:
        nonlocal seen
        events = [e.as_dict() for e in match.events[seen:]]
        seen = len(match.events)
        return [f"# {words}" for words in map(describe, events) if words] + after(match, events)

    while not match.over:
        lines += tell()
        lines += heading(match)
        d, value = answer(match)
        presses = presses_for(d, value)
        made = [e.as_dict() for e in match.submit(d.seat, d.key, value)]
        words, told = say(d, value, made)
        seen += told
        lines.append(f"# {words}")
        lines += [f"{d.seat} {control}" for control in presses]
    lines += tell()
    (SCRIPTS / f"{name}.txt").write_text("\n".join(lines) + "\n")
    return match
