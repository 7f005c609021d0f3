"""The game at the table: the lobby or the match in play, each seat's draft, and what a press does to them.

A press (a :class:`~companion.inputs.Gesture`) becomes a lobby choice, a draft change, a committed
decision, a take-back or an undo; each answer is journaled by the keeper before it counts
(StoreError: not saved, nothing changed but in memory, which the session then forgets). The
computer players answer when it is their turn. Moments the whole table shares (a reveal, the end,
virtual dice rolled) are left in :attr:`Table.moments` for the session to sound and show.
"""
from __future__ import annotations

import logging
from typing import Callable

from rules.match import Header, Match
from rules.model import IllegalMove

from .alerts import Alerts
from .entry import Changed, Entry, Refuse, Submit
from .inputs import Gesture
from .keeper import Keeper, NotResumed
from .lobby import Lobby, Start
from .players import Computers

log = logging.getLogger("molebox.session")

UNDO_REVEAL_S = 5.0     # a second hold within this long undoes a reveal


class Table:
    def __init__(self, panels: int, keeper: Keeper, alerts: Alerts, clock: Callable[[], float], *,
                 fixed: tuple | None = None, seed: int = 0, settings: dict | None = None, wired: int | None = None):
        """``panels``: the seats; ``wired``: how many of them (the first) have a panel, the rest are phones."""
        self.panels, self.keeper, self.alerts, self.clock = panels, keeper, alerts, clock
        self.fixed, self.seed, self.settings = fixed, seed, dict(settings or {})
        self.wired = panels if wired is None else wired
        self.phones: set[int] = set(range(self.wired + 1, panels + 1))   # seats played on phones; the lobby may add
        self.lobby: Lobby | None = self._new_lobby()
        self.match: Match | None = None
        self.computers: Computers | None = None
        self.entries = {s: Entry(s) for s in range(1, panels + 1)}
        self.notices: dict[int, str] = {}     # a seat's own one-line notice (a refusal's reason), on its OLED only
        self.names: dict[int, str] = {}      # players' names, from the dashboard; kept for the next game
        self.fresh: set[int] = set()         # seats yet to press since the last reveal
        self.moments: list[str] = []         # "reveal", "over", "roll": for the session to sound and show
        self.ended: int | None = None        # the game the host just ended, which may be taken up again
        self._confirm_undo_until = float("-inf")

    # ---- presses ----------------------------------------------------------------------------

    def press(self, g: Gesture):
        """What the press does: Changed, a Refuse with its reason, or StoreError (not saved)."""
        return self._lobby(g) if self.lobby is not None else self._play(g)

    def _lobby(self, g: Gesture):
        if self.alerts.unread():
            if (g.seat, g.control, g.kind) == (1, "ok", "tap"):
                self.dismiss(self.alerts.unread()[0]["id"])
                return Changed()
            return Refuse("seat 1: OK to read on")
        outcome = self.lobby.tap(g.seat, g.control) if g.kind == "tap" else Refuse("tap, don't hold")
        if isinstance(outcome, Start):
            self.start(outcome.game, outcome.seats, outcome.dice, outcome.cards, outcome.bots)
            return Changed()
        return outcome

    def _play(self, g: Gesture):
        match, seat = self.match, g.seat
        if seat > match.header.seats:
            return Refuse("this seat is not playing")
        if seat in self.computers and not (seat == 1 and (g.kind == "hold" or match.over)):
            return Refuse("a computer player has this seat")
        self.fresh.discard(seat)
        if g.kind == "hold":
            if g.control == "ok" and match.held.get(seat):
                self._events(match.retract(seat))
                return Changed()
            if g.control == "ok" and seat == 1:
                return self._host_undo()
            return Refuse("nothing to take back")
        if match.over:
            if seat == 1 and g.control == "ok":
                self.new_game()
                return Changed()
            return Refuse("game over: seat 1 OK for a new game")
        decision = next(iter(match.decisions_for(seat)), None)
        entry = self.entries[seat]
        entry.follow(decision)
        outcome = entry.tap(g.control, decision, match.refusal)
        if isinstance(outcome, Submit):
            try:
                self._events(match.submit(seat, outcome.key, outcome.value))
            except IllegalMove as exc:
                return Refuse(str(exc))
            entry.follow(None)          # committed: the next decision starts a fresh draft, even if it looks the same
            return Changed()
        return outcome

    def _host_undo(self):
        """Seat 1 holding OK with nothing of its own to take back: undo the last decision.

        Undoing a reveal takes a second hold within five seconds, as the whole table saw it.
        """
        last = self._last_person_record()
        if last is None:
            return Refuse("nothing to undo")
        reveal = last in self.match.secret_records and not self.match.held
        if reveal and self.clock() > self._confirm_undo_until:
            self._confirm_undo_until = self.clock() + UNDO_REVEAL_S
            return Refuse("hold OK again to undo the reveal")
        self._confirm_undo_until = float("-inf")
        self.undo()
        return Changed()

    def _last_person_record(self) -> int | None:
        """The index in the match records of the last answer a person gave (bots' answers follow it)."""
        people = [i for i, r in enumerate(self.match.records) if r["seat"] is not None and r["seat"] not in self.computers]
        return people[-1] if people else None

    def computers_play(self) -> bool:
        """Let the computer players answer whatever is theirs to answer now; True if one did.

        They think on the loop: at the moments they answer, nobody else is choosing (their secret
        picks wait for every person's lock-in), and the bench keeps their think time in bounds.
        A refused answer is a bug in a bot: it is logged and shown on the bot's OLED, and the
        game waits (seat 1 can undo or end it) rather than the service failing. StoreError: the
        journal did not take the answer (the session forgets it; the bot answers again later).
        """
        answered = False
        while self.match is not None and self.keeper.fault is None \
                and (move := self.computers.next_move(self.match)) is not None:
            try:
                events = self.match.submit(*move)
            except IllegalMove as exc:
                log.error("computer player at seat %d: %s", move[0], exc)
                self.notices[move[0]] = "stuck: a bot error"
                return True
            self._events(events)
            answered = True
        return answered

    def _events(self, events) -> None:
        """A decision was applied: on disk first (StoreError: nothing to acknowledge), then the table's moments."""
        self.keeper.commit(self.match)
        public = self.match.events_for(None, events)
        kinds = {e["kind"] for e in public}
        if "reveal" in kinds:
            self.fresh = set(range(1, self.match.header.seats + 1))
        if self.match.over or "reveal" in kinds:
            self.moments.append("over" if self.match.over else "reveal")
        if self.match.header.dice == "virtual" and "roll" in kinds:
            self.moments.append("roll")
        for event in public:
            log.info("event %s", event)

    def forget_unsaved(self) -> None:
        """Bring the match back to what the journal holds (an answer it did not take, or a half-applied one)."""
        if self.match is not None:
            saved = self.keeper.as_saved(self.match)
            if saved is not self.match:
                self.match, self.computers = saved, Computers(saved)

    # ---- the game's life ----------------------------------------------------------------------

    def restore(self) -> None:
        """At start (or once the journal opens): resume the unfinished game, else the lobby or the fixed game."""
        try:
            resumed = self.keeper.resume()
        except NotResumed as exc:
            log.error("game %d cannot be resumed (%s)", exc.game_id, exc.why, exc_info=exc.__cause__)
            self.alerts.add(f"The unfinished game #{exc.game_id} could not be resumed: {exc.why}. It is kept in the "
                            f"journal ({self.keeper.journal.path}), set aside: `molebox history` lists it.",
                            f"game #{exc.game_id} set aside: {exc.words}; kept in the journal")
            resumed = None
        if resumed is None:
            self._lobby_or_fixed()
            return
        self.match, self.names = resumed
        self.seed = self.match.header.seed
        revealed = any(e.kind == "reveal" for e in self.match.events)
        self.fresh = {s for s in range(1, self.match.header.seats + 1) if revealed and not self.match.held.get(s)}
        log.warning("resumed %s (game %d) after %d decisions", self.match.header.game, self.keeper.game_id,
                    self.match.seat_records())
        self._play_on()

    def _lobby_or_fixed(self) -> None:
        """The lobby, or the game fixed by the command line once the host has read every note."""
        self.match = None
        if self.fixed and not self.alerts.unread():
            self.start(*self.fixed)
        else:
            self.lobby = self.lobby or self._new_lobby()

    def _new_lobby(self, *args) -> Lobby:
        return Lobby(self.panels, *args, phones=self.phones, wired=self.wired)

    def _play_on(self) -> None:
        """The match (new, resumed or undone) is the one in play: its computer players, no lobby."""
        self.computers = Computers(self.match)
        self.lobby = None
        self.computers_play()

    def start(self, game: str, seats: int, dice: str = "virtual", cards: str = "virtual",
              bots: dict[int, str] | None = None) -> None:
        """Deal a new game; it is journaled (header, first chance, names) before anyone sees it."""
        match = Match(Header(game=game, seats=seats, settings=self.settings if self.fixed else {},
                             seed=self.seed, dice=dice, cards=cards, bots=dict(bots or {})))
        names = {s: n for s, n in self.names.items() if s <= seats}
        self.keeper.begin(match, names)
        self.ended = None
        self.match, self.names, self.fresh = match, names, set()
        self.notices.clear()
        log.info("started %s for %d seats (seed %d, computer players %s)", game, seats, self.seed, bots or "none")
        self._play_on()

    def new_game(self) -> None:
        """After a game: the same game again (fixed by the command line) or back to the lobby."""
        ended = self.keeper.abandon(self.match)
        self.seed += 1
        if self.fixed:
            self.start(*self.fixed)
        else:
            previous, self.match = self.match.header, None
            self.lobby = self._new_lobby(previous.game, previous.seats, previous.bots)
        self.ended = ended

    def undo(self) -> bool:
        """Take back the last decision a person made (a held pick, or the pick that completed a reveal),
        and the computer players' answers after it (they answer again when it is their turn)."""
        last = None if self.match is None else self._last_person_record()
        if last is None:
            return False
        upto = sum(1 for r in self.match.records[:last] if r["seat"] is not None)
        self.match = self.keeper.undone(self.match, upto)
        self.fresh = set()
        self.notices.clear()
        for entry in self.entries.values():
            entry.follow(None)
        log.info("undo: back to %d decisions", self.match.seat_records())
        self._play_on()
        return True

    def set_name(self, seat: int, name: str | None) -> str | None:
        """Name the player at ``seat`` for this game and the next ones (None: no name); a refusal, or None."""
        if self.match is None:
            return "no game yet: names belong to a game, and seat 1 is choosing one"
        if not 1 <= seat <= self.match.header.seats:
            return f"seat {seat} is not playing; seats are 1 to {self.match.header.seats}"
        self.keeper.name(seat, name)
        if name:
            self.names[seat] = name
        else:
            self.names.pop(seat, None)
        return None

    def end_game(self) -> str | None:
        """Abandon the game in play: back to the lobby (or a fresh game when fixed); a refusal, or None."""
        if self.match is None:
            return "no game to end: seat 1 is choosing one"
        self.new_game()
        return None

    @property
    def can_take_up(self) -> bool:
        """The game the host just ended may go on: nobody has chosen a game or decided in a new one since."""
        return self.ended is not None and (self.lobby is not None or self._last_person_record() is None)

    def take_up_ended(self) -> str | None:
        """Undo an End game: the game the host ended goes on where it was (the fresh fixed game, if any, dropped)."""
        if not self.can_take_up:
            return "no ended game to take up again: a new game has started since"
        if self.match is not None:
            self.keeper.abandon(self.match)
        self.match, self.names = self.keeper.reopen(self.ended)
        self.ended = None
        self._play_on()
        return None

    def dismiss(self, alert_id: int | None = None) -> None:
        """The host has read a note (None: all of them); with none left to read, the lobby (or fixed game) goes on."""
        self.alerts.dismiss(alert_id)
        if self.lobby is not None and self.match is None and not self.alerts.unread():
            self._lobby_or_fixed()

    def public(self) -> dict:
        """The lobby or the match's public view, with the names and the computer seats."""
        if self.lobby is not None:
            return {"mode": "lobby", "lobby": self.lobby.view(), "ended": self.can_take_up}
        return {"mode": "play", "view": self.match.view(None), "names": self.names, "bots": self.match.header.bots,
                "ended": self.can_take_up}
