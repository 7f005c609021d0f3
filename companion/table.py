"""The game at the table: the lobby or the match in play, each seat's draft, and what a press does to them.

A press (a :class:`~companion.inputs.Gesture`) becomes a lobby choice, a draft change, a committed
decision, a take-back or an undo; each answer is journaled by the keeper before it counts (a
journal that refuses: not saved, and forgotten in memory too). The host's actions (from the
dashboard) are the table's too, by name (:data:`HOST_ACTIONS`). The computer players answer when
it is their turn. Moments the whole table shares (a reveal, the end, virtual dice rolled) are left
in :attr:`Table.moments` for the box to sound and show. What every display and lamp should show
now is the table's :meth:`~Table.scene`; what anyone may see, its :meth:`~Table.public` view.
"""
from __future__ import annotations

import logging
from typing import Callable

from rules.match import Header, Match
from rules.model import IllegalMove
from rules.settings import resolve

from . import screens
from .alerts import Alerts, where
from .entry import Changed, Entry, Refuse, Saving, ShowPin, Submit
from .inputs import Gesture
from .journal import short as fault_words
from .journal.keeper import Keeper, NotResumed
from .journal.writer import Ticket
from .lobby import Lobby, Start
from .notices import Notices
from .phones import PhoneSeats
from .players import Computers
from .journal.card import JournalError

log = logging.getLogger("molebox.session")

UNDO_REVEAL_S = 5.0     # a second hold within this long undoes a reveal
STALL_S = 3.0           # a commit point the card has not taken in this long is a fault: play pauses until it is
SAVING_S = 0.3          # a decision not on disk after this long says so on its seat's screen (docs/persistence.md)
SAVING = "saving..."
HOST_UNDO = "undo is the host's: ask the host (dashboard Undo)"    # seat 1 on a phone that is not the host's


class Table:
    def __init__(self, phones: PhoneSeats, keeper: Keeper, alerts: Alerts, clock: Callable[[], float], *,
                 start: Start | None = None, seed: int = 0, table_display: bool = True, pin_on_request: bool = False,
                 panels: tuple = ()):
        """``phones``: the box's seats, which of them are phones and who holds those; ``start``: the game the
        command line fixed (played again and again), else the lobby; ``table_display``: whether the box has
        one (else seat 1's OLED offers the phone seats); ``pin_on_request``: seat 1 holding OK in the lobby
        shows the host PIN on its OLED; ``panels``: each display's glass (:func:`companion.screens.panels`)."""
        self.phones, self.keeper, self.alerts, self.clock = phones, keeper, alerts, clock
        self.fixed, self.seed = start, seed
        self.table_display, self.pin_on_request, self.panels = table_display, pin_on_request, panels
        self.seats = phones.seats
        self.lobby: Lobby | None = self._new_lobby()
        self.match: Match | None = None
        self.computers: Computers | None = None
        self.entries = {s: Entry(s) for s in range(1, self.seats + 1)}
        self.notices = Notices(clock)        # a seat's own notice (a refusal's reason), on its OLED only; the table's news
        self.names: dict[int, str] = {}      # players' names, from the dashboard; kept for the next game
        self.fresh: set[int] = set()         # seats yet to press since the last reveal
        self.moments: list[str] = []         # "reveal", "over", "roll": for the box to sound and show
        self.rolled_at = float("-inf")       # when the box last rolled virtual dice (the table shows them tumble)
        self.hardware_fault: str | None = None   # while set (or the journal's fault), play is paused
        # decisions on their way to the disk: each with its press and its seat's draft as it was before OK
        self.saving: list[tuple[Ticket, Gesture, tuple]] = []
        self._ticket: Ticket | None = None       # the commit point the action being run made
        self._draft: tuple = (None, None)        # the draft the press being run committed
        self.ended: int | None = None        # the game the host just ended, which may be taken up again
        self._confirm_undo_until = float("-inf")
        self._made = screens.Made()            # what the scenes' screens and lamps were last made of

    # ---- presses ----------------------------------------------------------------------------

    @property
    def storage_fault(self) -> str | None:
        """What is wrong with the journal, in a few words: its fault, or a card that has stopped answering."""
        if self.keeper.fault is not None:
            return fault_words(self.keeper.fault)
        return "storage not answering" if self.keeper.stalled_s > STALL_S else None

    @property
    def paused(self) -> str | None:
        """Why play is paused, in a few words (the journal's fault first, then the hardware's), or None."""
        return self.storage_fault or self.hardware_fault

    def press(self, g: Gesture):
        """What the press does (Changed, Saving until its decision is on disk, ShowPin, or a Refuse with its
        reason, which the seat's OLED says); nothing but a refusal while play is paused."""
        self._ticket = None
        if self.paused:
            outcome = Refuse(f"paused: {self.paused}")
        else:
            outcome = self.guarded(lambda: self._lobby(g) if self.lobby is not None else self._play(g),
                                   f"a press at seat {g.seat}")
        if self._ticket is not None and not isinstance(outcome, Refuse):
            self.saving.append((self._ticket, g, self._draft))
            outcome = Saving()
        if isinstance(outcome, Refuse):
            log.info("seat %d: a %s was refused", g.seat, g.kind)      # the reason may tell a secret
            self.notices[g.seat] = outcome.reason
        else:
            self.notices.pop(g.seat, None)
        return outcome

    def guarded(self, action: Callable, what: str):
        """Run a table action: a journal that refuses is a refusal (``not saved``; the keeper holds its fault),
        a bug is logged by where, never by its words (they may name a secret pick); either way the game is
        as the journal has it."""
        try:
            return action()
        except JournalError:
            self.forget_unsaved()
            return Refuse(f"not saved: {self.paused}")
        except Exception as exc:
            log.error("%s hit a bug:\n%s", what, where(exc))
            self.forget_unsaved()
            self.alerts.add(f"{what.capitalize()} hit a bug ({type(exc).__name__}); it was not taken and the game "
                            f"is as the journal has it. The log has where.")
            return Refuse("not taken: a bug")

    def _lobby(self, g: Gesture):
        if self.pin_on_request and (g.seat, g.control, g.kind) == (1, "ok", "hold"):
            return ShowPin()
        if self.alerts.unread():
            if (g.seat, g.control, g.kind) == (1, "ok", "tap"):
                self.dismiss(self.alerts.unread()[0]["id"])
                return Changed()
            return Refuse("seat 1: OK to read on")
        outcome = self.lobby.tap(g.seat, g.control) if g.kind == "tap" else Refuse("tap, don't hold")
        if isinstance(outcome, Start):
            self.start(outcome)
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
                if seat in self.phones and not self.phones.by_host(seat):      # a phone: the host's device only
                    return Refuse(HOST_UNDO)
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
            self._draft = (entry.key, entry.draft)      # kept, should the card refuse the decision
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
        self.undo(by=self.who(1))
        return Changed()

    def _last_person_record(self) -> int | None:
        """The index in the match records of the last answer a person gave (bots' answers follow it)."""
        people = [i for i, r in enumerate(self.match.records) if r["seat"] is not None and r["seat"] not in self.computers]
        return people[-1] if people else None

    def computers_answer(self) -> None:
        """The computer players answer whatever is theirs to answer now (not while play is paused; a journal
        that refuses their answer is forgotten, and they answer again once it takes writes)."""
        if not self.paused:
            self.guarded(self._computers_play, "a computer player")

    def _computers_play(self) -> bool:
        """Let the computer players answer whatever is theirs to answer now; True if one did.

        They think on the loop: at the moments they answer, nobody else is choosing (their secret
        picks wait for every person's lock-in), and the bench keeps their think time in bounds.
        A refused answer is a bug in a bot: it is logged and shown on the bot's OLED, and the
        game waits (seat 1 can undo or end it) rather than the service failing.
        """
        answered = False
        while self.match is not None and self.keeper.fault is None \
                and (move := self.computers.next_move(self.match)) is not None:
            try:
                events = self.match.submit(*move)
            except IllegalMove as exc:
                log.error("computer player at seat %d: %s", move[0], exc)
                self.notices.lasting(move[0], "stuck: a bot error")
                return True
            self._events(events)
            answered = True
        return answered

    def _events(self, events) -> None:
        """A decision was applied: its commit point on its way to the disk, then the table's moments."""
        self._ticket = self.keeper.commit(self.match) or self._ticket
        public = self.match.events_for(None, events)
        kinds = {e["kind"] for e in public}
        if "reveal" in kinds:
            self.fresh = set(range(1, self.match.header.seats + 1))
        if self.match.over or "reveal" in kinds:
            self.moments.append("over" if self.match.over else "reveal")
        if self.match.header.dice == "virtual" and "roll" in kinds and screens.rolls(self.match.header.game):
            self.rolled_at = self.clock()
            self.moments.append("roll")
        for event in public:
            log.info("event %s", event)

    def forget_unsaved(self) -> None:
        """Bring the match back to what the journal holds (an answer it did not take, or a half-applied one)."""
        if self.match is not None:
            saved = self.keeper.as_saved(self.match)
            if saved is not self.match:
                self.match, self.computers = saved, Computers(saved)

    def landed(self) -> list[tuple[Gesture, object]]:
        """The journal's writer has news: each press whose decision is on disk now answered (Changed), and, if the
        card refused one, every press still waiting refused (its seat says why) and the game as the journal has it."""
        error = self.keeper.landed()
        if error is not None:
            self.forget_unsaved()
        answers = []
        while self.saving and (self.saving[0][0].done or self.saving[0][0].error or error):
            ticket, g, (key, draft) = self.saving.pop(0)
            if ticket.done:
                answers.append((g, Changed()))
            else:                                   # the draft comes back: OK again once the card takes writes
                self.entries[g.seat].key, self.entries[g.seat].draft = key, draft
                self.notices[g.seat] = reason = f"not saved: {self.paused}"
                answers.append((g, Refuse(reason)))
        return answers

    def slow_saves(self) -> frozenset[int]:
        """The seats whose decision has been on its way to the disk longer than SAVING_S: their screens say so."""
        return frozenset(g.seat for ticket, g, _ in self.saving if ticket.waited_s() > SAVING_S)

    def settle(self) -> list[str]:
        """After a press or an action has been answered on the lamps: the journal's WAL emptied if a turn ended,
        and the moments the table shares since the last settle, for the box to sound and show."""
        self.keeper.settle()
        moments, self.moments = self.moments, []
        return moments

    # ---- the game's life ----------------------------------------------------------------------

    def open(self) -> None:
        """At start, or once the journal opens at last: its notes for the host, then its game resumed."""
        for text, words in self.keeper.notes():
            self.alerts.add(text, words)
        if self.keeper.fault is None:
            self.guarded(self.restore, "resuming the journal's game")

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
        if resumed is not None and self.fixed and not self._asked_for(resumed[0].header):
            self._set_aside_for_fixed(resumed[0].header)
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
        for seat in range(1, self.match.header.seats + 1):
            self.notices[seat] = "Resumed: your lock-in is kept" if self.match.held.get(seat) else "Resumed after a restart"
        self.notices.tell_table("Resumed", f"Game #{self.keeper.game_id} goes on after a restart")
        self._play_on()

    def _asked_for(self, header: Header) -> bool:
        """Whether the unfinished game is the one the command line asks for (then it goes on, as after a cut)."""
        asked = self.fixed
        return (header.game, header.seats, header.dice, header.cards, header.bots) == \
            (asked.game, asked.seats, asked.dice, asked.cards, asked.bots) and \
            header.settings == resolve(asked.game, asked.settings)

    def _set_aside_for_fixed(self, header: Header) -> None:
        """The box was started for another game than the unfinished one: that one is kept, set aside, and the host
        told (the asked game starts once seat 1 has read it)."""
        asked = self.fixed
        game_id = self.keeper.set_aside(f"molebox was started for {asked.game} ({asked.seats} seats)")
        log.warning("the unfinished game %s (game %d) is set aside: this start asks for %s with %d seats",
                    header.game, game_id, asked.game, asked.seats)
        self.alerts.add(f"The unfinished game #{game_id} ({header.game}, {header.seats} seats) was set aside: molebox "
                        f"was started with --game {asked.game} --seats {asked.seats}. It is kept in the journal: "
                        f"`molebox history` lists it. To go on with it, start molebox without --game.",
                        f"game #{game_id} set aside: this start asks for another game")

    def _lobby_or_fixed(self) -> None:
        """The lobby, or the game fixed by the command line once the host has read every note."""
        self.match = None
        if self.fixed and not self.alerts.unread():
            self.start(self.fixed)
        else:
            self.lobby = self.lobby or self._new_lobby()

    def _new_lobby(self, *args) -> Lobby:
        return Lobby(self.seats, *args, phones=self.phones)

    def _play_on(self) -> None:
        """The match (new, resumed or undone) is the one in play: its computer players, no lobby."""
        self.computers = Computers(self.match)
        self.lobby = None
        self._computers_play()

    def start(self, start: Start) -> None:
        """Deal a new game; it is journaled (header, first chance, names) before anyone sees it."""
        match = Match(Header(game=start.game, seats=start.seats, settings=start.settings, seed=self.seed,
                             dice=start.dice, cards=start.cards, bots=dict(start.bots)))
        names = {s: n for s, n in self.names.items() if s <= start.seats}
        self.keeper.begin(match, names)
        self.ended = None
        self.match, self.names, self.fresh = match, names, set()
        self.notices.clear()
        log.info("started %s for %d seats (seed %d, computer players %s)", start.game, start.seats, self.seed,
                 start.bots or "none")
        self._play_on()

    def new_game(self) -> None:
        """After a game: the same game again (fixed by the command line) or back to the lobby."""
        ended = self.keeper.abandon(self.match)
        self.seed += 1
        if self.fixed:
            self.start(self.fixed)
        else:
            previous, self.match = self.match.header, None
            self.lobby = self._new_lobby(previous.game, previous.seats, previous.bots)
        self.ended = ended

    # ---- the host's actions (the dashboard's): each a refusal in words, or None when done ------------

    def act(self, action: str, **args) -> str | None:
        """Run the host action named ``action`` (:data:`HOST_ACTIONS`) with its ``args``."""
        return HOST_ACTIONS[action](self, **args)

    def next_game(self) -> str | None:
        """After the end: the next game (the fixed one again, or the lobby)."""
        if self.match is None or not self.match.over:
            return "the game is not over: end it first"
        self.new_game()
        return None

    def undo_last(self) -> str | None:
        return None if self.undo() else "nothing to undo"

    def undo(self, by: str = "The host") -> bool:
        """Take back the last decision a person made (a held pick, or the pick that completed a reveal),
        and the computer players' answers after it (they answer again when it is their turn); its seat and the
        table display say who did it."""
        last = None if self.match is None else self._last_person_record()
        if last is None:
            return False
        seat, secret = self.match.records[last]["seat"], last in self.match.secret_records
        what = "reveal" if secret and not self.match.held else "lock-in" if secret else "move"
        upto = sum(1 for r in self.match.records[:last] if r["seat"] is not None)
        self.match = self.keeper.undone(self.match, upto)
        self.fresh = set()
        self.notices.clear()
        for entry in self.entries.values():
            entry.follow(None)
        own = by == self.who(seat)
        if not own:
            self.notices[seat] = f"{by} undid your {'lock-in' if secret else 'move'}"
        whose = "their own" if own else f"{self.who(seat)}'s"
        self.notices.tell_table("Undone", f"{by} undid {whose} {what}")
        log.info("undo: back to %d decisions", self.match.seat_records())
        self._play_on()
        return True

    def who(self, seat: int) -> str:
        """A seat as the screens name it to the table: its player's name, else Seat and its number."""
        return self.names.get(seat) or f"Seat {seat}"

    def freed(self, seat: int) -> None:
        """The host freed a phone seat (a lost phone): the seat and the table display say so."""
        self.notices[seat] = "The host freed this seat: a phone joins it again"
        self.notices.tell_table("Seat freed", f"The host freed {self.who(seat)}'s phone seat: join it again")

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

    # ---- what the table sees --------------------------------------------------------------------

    def scene(self) -> screens.Scene:
        """What is true now, for every display and lamp (each draft following its seat's decision first)."""
        match, lobby = self.match, self.lobby
        if match is not None and lobby is None:
            for seat, entry in self.entries.items():
                if seat <= match.header.seats and seat not in self.computers:
                    entry.follow(next(iter(match.decisions_for(seat)), None))
        waiting = {seat: SAVING for seat in self.slow_saves()}
        return screens.Scene(
            seats=tuple(self.entries), lobby=lobby, match=match, computers=self.computers, entries=self.entries,
            notices={**self.notices.live(), **waiting}, fresh=frozenset(self.fresh), news=self.notices.table_news(),
            unread=tuple(self.alerts.unread()) if lobby is not None else (),
            storage_fault=self.storage_fault,
            hardware_fault=self.hardware_fault, since_roll=self.clock() - self.rolled_at,
            pin_hint=self.pin_on_request, names=tuple(sorted(self.names.items())), joins=self.phones.joins(),
            table=self.table_display, phones=self.phones.playing,
            saving=frozenset(g.seat for _, g, _ in self.saving), panels=self.panels, made=self._made)

    def public(self) -> dict:
        """What anyone may see: the lobby or the match's public view (names, computer seats, the public log),
        and what the host must know (the notes, a fault)."""
        fault, words = self.keeper.fault, self.storage_fault
        text = str(fault) if fault is not None else (
            f"the journal's card has not taken a commit point for {self.keeper.stalled_s:.0f} s (an SD card that "
            f"stalls, or is failing): play goes on by itself once it does") if words else self.hardware_fault
        box = {"alerts": self.alerts.public(),
               "fault": {"words": words or self.hardware_fault, "text": text} if self.paused else None}
        if self.lobby is not None:
            return {"mode": "lobby", "lobby": self.lobby.view(), "ended": self.can_take_up, **box}
        return {"mode": "play", "view": self.match.view(None), "names": self.names, "bots": self.match.header.bots,
                "ended": self.can_take_up, "log": self.match.public_log(),
                "finished": self.match.over and not self.keeper.on_the_way, **box}     # over, and in the history


HOST_ACTIONS: dict[str, Callable[..., str | None]] = {
    "new-game": Table.next_game, "undo": Table.undo_last, "end-game": Table.end_game,
    "take-up": Table.take_up_ended, "dismiss": Table.dismiss, "name": Table.set_name,
}
