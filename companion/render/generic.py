"""A plain text screen for any game: the decision, the draft and the scores if there are any."""
from __future__ import annotations

from companion.lamps import Lamp

from .common import canvas, rows, seats_text, title


def seat(view: dict, entry: dict, notice: str = ""):
    image, draw = canvas()
    title(draw, view["title"], f"S{view['you']}")
    lines = []
    if view["over"]:
        lines.append(f"Winner: {seats_text(view['winners'])}")
    elif entry.get("key"):
        lines.append(entry["prompt"] or entry["key"])
        if entry["draft"] is not None:
            lines.append(f"> {entry['label'] or entry['draft']}")
    else:
        lines.append(f"Waiting: {seats_text(view['waiting'])}")
    scores = view["state"].get("scores")
    if scores:
        lines.append("Score " + " ".join(str(s) for s in scores))
    if notice:
        lines.append(f"! {notice}")
    rows(draw, lines)
    return image


def table(view: dict):
    image, draw = canvas()
    title(draw, view["title"])
    lines = [f"Winner: {seats_text(view['winners'])}" if view["over"]
             else f"Waiting: {seats_text(view['waiting'])}"]
    scores = view["state"].get("scores")
    if scores:
        lines.append("Score " + " ".join(str(s) for s in scores))
    rows(draw, lines)
    return image


def lamps(view: dict, seat: int, fresh: bool):
    return (Lamp.DIM if seat in view["waiting"] else Lamp.OFF,) * 5
