"""What every display and every lamp shows: a pure function of the scene the session is in.

The session describes what is true now in a :class:`Scene` (the lobby or the match, each seat's
draft and notice, the host's unread notes, a fault, how long ago the box rolled); :func:`screens`
answers each display's render function and its arguments, :func:`lamps` each seat's own lamps
(what the overlays of :mod:`companion.overlays` flash over). No threads, no hardware, no clock.

The box asks for every display and every lamp at each redraw, and most presses change one seat's draft
and nothing else: what a display's screen is made of is kept in the scene's :class:`Made` (the table
keeps one across its scenes), and a display whose inputs are the very same objects as last time is
handed the very same arguments, so the outputs see it unchanged at once.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, TypeVar

from rules import bots
from rules.match import Match
from wiring.hardware import DISPLAYS

from . import render
from .lamps import Lamp
from .table.lobby import Lobby
from .table.state import GOAL_S, TableState
from .render import bot as bot_screen, fault as fault_screen, how, join as join_screen, lobby as lobby_screens, reveal
from .render.reading import SMALLEST, Panel

ROLL_S = 0.8            # the table shows virtual dice tumbling this long before they land
PICKS_S = 1.6           # a reveal's picks show alone this long (the table display, the TV, a phone's room; the
                        # seats keep their screens) before what they did (the pages are told it: web/site.py)
ROLL_FRAMES = 4
SAVING = "saving..."    # a seat's notice while its decision is slow to reach the disk (docs/persistence.md)
T = TypeVar("T")


class Made:
    """The last thing made under each name, beside what it was made of: made again only when that changed
    (compared item by item, the same object first). One entry a name, so it never grows."""

    def __init__(self):
        self._made: dict[str, tuple[tuple, object]] = {}

    def get(self, name: str, of: tuple, make: Callable[[], T]) -> T:
        made = self._made.get(name)
        if made is not None and made[0] == of:
            return made[1]
        out = make()
        self._made[name] = (of, out)
        return out


@dataclass(frozen=True)
class Scene:
    """What is true now for the screens and the lamps: the table's state, and what the box adds to it."""

    table: TableState
    now: float = 0.0
    saving: frozenset[int] = frozenset()    # seats whose decision is on its way to the disk: their own lamps
                                            # and screens stay as they were until it is there (the outputs hold
                                            # the lamps, ``held`` the screens)
    slow: frozenset[int] = frozenset()      # seats whose decision has been on its way a while: their screens say so
    joins: tuple[tuple[int, str, str], ...] = ()    # free phone seats: (seat, join code, join address)
    panels: tuple[tuple[str, Panel], ...] = ()  # rendering only: each display's glass (unsaid: the smallest)
    held: tuple[tuple[int, tuple], ...] = ()    # each saving seat's screen before its decision (:func:`kept`)
    made: Made = field(default_factory=Made, compare=False)     # what the screens and lamps were last made of

    @property
    def lobby(self) -> Lobby | None:
        return self.table.lobby

    @property
    def match(self) -> Match | None:
        return self.table.match

    @property
    def notices(self) -> dict[int, str]:
        """Each seat's one-line notice still showing: a refusal's reason, what changed its game; "saving..." while
        its decision is slow to reach the disk."""
        live = {seat: n.words for seat, n in self.table.notices.items() if n.live(self.now)}
        return {**live, **{seat: SAVING for seat in self.slow}}

    @property
    def table_notice(self) -> tuple[str, str] | None:
        """What changed the game from elsewhere (headline, words), on the table display while it shows."""
        notice = self.table.table_notice
        return (notice.headline, notice.words) if notice is not None and notice.live(self.now) else None

    @property
    def unread(self) -> tuple:
        """The host's notes seat 1 reads in the lobby before the menu."""
        return self.table.unread() if self.lobby is not None else ()


def _named(scene: Scene, display: str, view: dict, **more) -> dict:
    """A view as the ``display``'s screen draws it: with the players' names (and whatever ``more`` the screen
    needs); the same dict as last time while the view, the names and ``more`` are."""
    return scene.made.get(display, (view, scene.table.names, more),
                          lambda: {**view, "names": {str(seat): name for seat, name in scene.table.names.items()},
                                   **more})


def rolls(game_id: str) -> bool:
    """Whether the game's table shows virtual dice tumbling before they land."""
    return hasattr(render.for_game(game_id), "rolling")


def screens(scene: Scene) -> dict[str, tuple | None]:
    """Each display's ``(render function, *arguments)``: ``seat1``.. and ``table``; the last argument is always
    the display's :class:`~companion.render.reading.Panel`, which sizes its type. None: the display keeps what it
    shows (a seat's, while a reveal's picks are the moment)."""
    if scene.table.storage_fault:
        paused = (fault_screen.storage, scene.table.storage_fault)
    elif scene.table.hardware_fault:
        paused = (fault_screen.paused, scene.table.hardware_fault)
    else:
        paused = None
    seats = range(1, scene.table.seats_in_all + 1)
    names = [f"seat{seat}" for seat in seats] + ["table"]
    glass = dict(scene.panels)
    if paused:
        return {name: (*paused, glass.get(name, SMALLEST)) for name in names}
    out = {f"seat{seat}": _seat(scene, seat) for seat in seats}
    out["table"] = _table(scene)
    return {name: None if shown is None else (*shown, glass.get(name, SMALLEST)) for name, shown in out.items()}


def panels(profile) -> tuple[tuple[str, Panel], ...]:
    """:attr:`Scene.panels` for a wiring profile's displays (the table is told them as the session starts); a phone's
    OLED, and every display of a box with no profile, is drawn as the smallest glass."""
    displays = profile.displays() if profile is not None else {}
    return tuple((name, panel_of(spec.driver)) for name, spec in sorted(displays.items()))


def panel_of(driver: str) -> Panel:
    """The glass of a display with ``driver``, as wiring/hardware.py's table has it."""
    display = DISPLAYS[driver]
    return Panel(display.size, display.glass_mm[0] / 128)


def _seat(scene: Scene, seat: int) -> tuple | None:
    notice = scene.notices.get(seat, "")
    if scene.lobby is not None:
        if seat != 1:
            return (lobby_screens.waiting, seat, scene.table.names.get(seat, ""))
        if scene.unread:
            return (fault_screen.note, scene.unread[0].screen, len(scene.unread), "OK: got it")
        cursor = scene.lobby.cursor if scene.lobby.stage == "players" else None
        free = next((join for join in scene.joins if join[0] == cursor and _needs_a_phone(scene, cursor)), None)
        if free is not None and not scene.table.table_display:   # the players stage, a free phone seat: how to join
            return (join_screen.screen, *free, "1 < seat > 2, OK start")
        return (lobby_screens.menu, scene.lobby.view(), notice, scene.table.host_pin_on_request)
    match = scene.match
    held = dict(scene.held).get(seat)
    if held is not None:
        return (*held, notice)
    if seat > match.header.seats:
        return (lobby_screens.waiting, seat, "")
    moment = revealing(scene)
    if moment is not None and scene.table.heard.get(seat, 0) <= moment[0]:    # until the seat's next press
        return None
    if seat in scene.table.computers:
        return (bot_screen.seat, _named(scene, f"seat{seat}", match.view(None)), seat, match.header.bots[seat],
                computer_status(match, seat), notice)
    if _goal_shows(scene, seat):
        return (how.goal_card, _named(scene, f"seat{seat}", match.view(seat)), notice)
    decision = next(iter(match.decisions_for(seat)), None)
    draft = scene.table.drafts[seat]
    game = render.for_game(match.header.game)
    goal = how.goal(match.header.game, match.header.settings) if how.first_turn(game, match.public_log()) else ()
    return (game.seat, _named(scene, f"seat{seat}", match.view(seat), news=news(scene, seat), goal=goal,
                              teach=_taught(scene, seat, decision)),
            scene.made.get(f"draft{seat}", (decision, draft), lambda: draft.summary(decision)), notice)


def _goal_shows(scene: Scene, seat: int) -> bool:
    """Whether a new game's goal is still the seat's screen: for :data:`GOAL_S` after the deal, until the seat's
    first press or anyone's first decision (what it did is the seat's news)."""
    return (scene.now - scene.table.started_at < GOAL_S and seat not in scene.table.heard
            and not scene.match.seat_records())


def _taught(scene: Scene, seat: int, decision) -> dict | None:
    """What a taught game tells the seat (docs/teaching.md): why what happened since its last press happened, where
    a rule fired for the first time in the match; what its decision means, until it has answered one like it; and
    that the strong computer player's pick is one hold away, in a game with computer players. None: not taught."""
    if not scene.table.teaching:
        return None
    match = scene.match
    game_id, settings, events = match.header.game, match.header.settings, match.events
    fired = scene.made.get("fired", (match, len(events)), lambda: how.firsts(event.kind for event in events))
    start = scene.table.heard.get(seat, 0)
    because = (how.because(game_id, event.kind, settings) for i, event in enumerate(events[start:], start)
               if fired[event.kind] == i and event.to in (None, seat))
    asked = decision and decision.key.split("-")[0]
    answered = scene.made.get("answered", (match, len(match.records)),
                              lambda: {(r["seat"], r["key"].split("-")[0]) for r in match.records})
    return {"because": tuple(filter(None, because))[-2:],
            "means": how.means(game_id, asked, settings) if asked and (seat, asked) not in answered else (),
            "hint": bool(decision) and bots.hints(game_id)}


def kept(scene: Scene, seat: int) -> tuple | None:
    """The seat's game screen but its notice: what it keeps while its decision is on its way to the disk, so that it
    never says what the disk has not kept (the notice then says *saving...* if it is slow); None for a computer's,
    and while the seat keeps what it shows anyway."""
    if seat in scene.table.computers or seat > scene.match.header.seats:
        return None
    shown = _seat(scene, seat)
    return None if shown is None else shown[:-1]


def wanted_phones(scene: Scene) -> tuple[tuple[int, str, str], ...]:
    """The free phone seats the game waits for: (seat, join code, join address) each."""
    return tuple(join for join in scene.joins if _needs_a_phone(scene, join[0]))


def _needs_a_phone(scene: Scene, seat: int) -> bool:
    """Whether a free phone seat is one the game waits for: in play, and a person's."""
    if scene.lobby is not None:
        return seat <= scene.lobby.seats and seat not in scene.lobby.bots
    return seat <= scene.match.header.seats and seat not in scene.table.computers


def _table(scene: Scene) -> tuple:
    if scene.lobby is not None and scene.unread:
        return (fault_screen.note, scene.unread[0].screen, len(scene.unread), "seat 1 OK: got it")
    if scene.table_notice:
        return (fault_screen.table_notice, *scene.table_notice)

    free = next(iter(wanted_phones(scene)), None)
    if free is not None:                    # the game cannot go on without that seat: a phone joins it first
        return (join_screen.screen, *free, "")
    if scene.lobby is not None:
        return (lobby_screens.menu, scene.lobby.view(), "", False)
    match = scene.match
    screens_of, view = render.for_game(match.header.game), _named(scene, "table", match.view(None),
                                                                   revealed=_reveal_is_read(match))
    moment = revealing(scene)
    if moment is not None:
        return (reveal.picks, view, moment[1])
    since_roll = scene.now - rolled(scene.table)
    if 0 <= since_roll < ROLL_S and hasattr(screens_of, "rolling"):
        return (screens_of.rolling, view, int(since_roll * ROLL_FRAMES / ROLL_S))
    return (screens_of.table, view)


def revealing(scene: Scene, lasting: float = PICKS_S) -> tuple[int, dict] | None:
    """While a reveal is the moment (``lasting`` after it): where it is in the match's events, and its picks."""
    match = scene.match
    if match is None or not 0 <= scene.now - scene.table.revealed_at < lasting:
        return None
    events = match.events
    index = next((i for i in range(len(events) - 1, -1, -1) if events[i].kind == "reveal"), None)
    return None if index is None else (index, events[index].data["picks"])


def rolled(table: TableState) -> float:
    """When the table display's dice start to tumble: as the box rolls them, or after the picks of the reveal
    that rolled them."""
    return table.rolled_at + (PICKS_S if table.rolled_at == table.revealed_at else 0)


def _since(scene: Scene, seat: int) -> list:
    """The match's events since the seat's last press."""
    return scene.match.events[scene.table.heard.get(seat, 0):]


def news(scene: Scene, seat: int) -> tuple[dict, ...]:
    """What the seat may be told of the game since its last press: the events since, as it may see them (its own
    private ones too), in order."""
    return tuple(scene.match.events_for(seat, _since(scene, seat)))


def _reveal_is_read(match: Match) -> bool:
    """Whether the last reveal is still what the table is reading: no seat has locked in, or taken a lock-in back,
    since (then the table display says who the turn waits for)."""
    for event in reversed(match.events):
        if event.kind == "reveal":
            return True
        if event.kind in ("locked", "unlocked"):
            return False
    return False


def lamps(scene: Scene, seat: int) -> tuple[Lamp, ...]:
    """The seat's own hole lamps, from the public view only: its pick while a reveal's picks are the moment (and
    while the dice they rolled tumble), until its next press."""
    if scene.lobby is not None:
        return lobby_screens.lamps(scene.lobby.view(), seat)
    if seat > scene.match.header.seats:
        return (Lamp.OFF,) * 5
    game, view = scene.match.header.game, scene.match.view(None)
    fresh = any(event.kind == "reveal" for event in _since(scene, seat))
    table = scene.table
    moment = fresh and revealing(scene, PICKS_S + (ROLL_S if table.rolled_at == table.revealed_at else 0))
    pick = moment and (moment[1].get(seat) or moment[1].get(str(seat)))
    if pick:            # the picks are the moment, then the dice they rolled tumble: no outcome yet, until a press
        return scene.made.get(f"lamps{seat}", (game, pick), lambda: render.for_game(game).pick_lamps(pick))
    return scene.made.get(f"lamps{seat}", (game, view, fresh), lambda: render.for_game(game).lamps(view, seat, fresh))


def computer_status(match: Match, seat: int) -> str:
    """What a bot seat's OLED says it is doing; only what the table may know."""
    mine = match.decisions_for(seat)
    if match.locked(seat):
        return "locked in"
    if any(d.secret for d in mine):
        return "picks last, secretly"
    return "thinking" if mine else "waiting"
