"""What one press did to a seat's draft or to the lobby, before the table turns it into effects."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Submit:
    """OK on a draft the decision takes: answer ``key`` with ``value``."""

    key: str
    value: Any


@dataclass(frozen=True)
class Refusal:
    """The press is refused; ``reason`` says why, in a few words for the seat's own screen (or wordings of it,
    longest first, for a small glass)."""

    reason: str | tuple[str, ...]


@dataclass(frozen=True)
class Changed:
    """The draft or the lobby changed; nothing was committed."""


@dataclass(frozen=True)
class Hinted(Changed):
    """The draft is the strong computer player's pick, its notice on the seat's screen (a taught game's hint)."""
