"""Players as the screens name them: by the names they gave, else by seat; who the table waits for."""
from __future__ import annotations


def who(view: dict, seat: int) -> str:
    """A seat's player as a line names them: the first word of their name, else Seat and its number."""
    name = view.get("names", {}).get(str(seat))
    return name.split()[0] if name else f"Seat {seat}"


def title(view: dict, seat: int) -> tuple[str, ...]:
    """A seat's player for a title, longest first: the whole name, its first word, the seat."""
    name = view.get("names", {}).get(str(seat))
    return (name, name.split()[0], f"Seat {seat}") if name else (f"Seat {seat}",)


def listed(view: dict, seats) -> str:
    """Seats' players in a row: Ada, Bob, Seat 3."""
    return ", ".join(who(view, seat) for seat in seats)


def waiting(view: dict) -> tuple[str, ...]:
    """Who the game waits for, longest first: by name, by count."""
    seats = view["waiting"]
    if not seats:
        return ("",)
    return (f"Waiting for {listed(view, seats)}", f"Wait: {listed(view, seats)}", f"{len(seats)} still choosing",
            f"{len(seats)} to go")


def joined(words) -> str:
    """Words in a row as a sentence has them: 1, 2 and 4."""
    words = list(words)
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


def count(n: int, thing: str) -> str:
    """1 token, 2 tokens."""
    return f"{n} {thing}" if n == 1 else f"{n} {thing}s"
