"""The ``molebox`` command."""
from __future__ import annotations

import argparse
import json
import logging
import os
import shlex
import sys
import time
from pathlib import Path

from companion import words
from companion.journal.card import JournalError, default_path as default_db, reader_path
from rules import registry
from rules.match import Match
from rules.settings import SettingError, from_pairs, load_specs
from wiring.profile import ProfileError, load as load_profile


DEFAULT_WIRING = {"sim": "sim-8", "gpio": "gpio-2", "ioboard": "ioboard-8"}


def read_text(path: str, what: str) -> str:
    """A text file the user named; a ValueError that names the file says what is wrong with it."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ValueError(f"{path}: cannot read the {what}: {exc.strerror}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: the {what} is not UTF-8 text (byte {exc.start} is {data[exc.start]:#04x}); "
                         f"is it the right file?") from None
    if "\0" in text:
        raise ValueError(f"{path}: the {what} is a binary file, not text (a NUL byte at {text.index(chr(0))}); "
                         f"is it the right file?")
    return text


def _names(pairs: list[str], seats: int) -> dict[int, str]:
    """``--name SEAT=NAME`` pairs as {seat: name}; a ValueError says which one is wrong and why."""
    from companion.history import clean_name

    out = {}
    for pair in pairs:
        seat, sep, name = pair.partition("=")
        if not sep or not (seat := seat.strip()).isascii() or not seat.isdigit() or not 1 <= int(seat) <= seats:
            raise ValueError(f"--name {pair!r}: write SEAT=NAME with a seat from 1 to {seats}, e.g. --name 1=Ada")
        out[int(seat)] = clean_name(name)
    return out


def port_number(text: str) -> int:
    """``--port``: 0 (any free port) to 65535."""
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number: use 0 (any free port) to 65535") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{port} is not a port number: use 0 (any free port) to 65535")
    return port


def _game_args(p: argparse.ArgumentParser, required: bool) -> None:
    p.add_argument("--game", choices=registry.ids(), required=required, help="game id")
    p.add_argument("--seats", type=int, help="number of seats (default: the game's minimum)")
    p.add_argument("--seed", type=int, default=0, help="seed for virtual dice and decks")
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="a variant setting")
    p.add_argument("--dice", choices=["virtual", "physical"], default="virtual",
                   help="virtual: the box rolls; physical: each player enters what their die showed")
    p.add_argument("--cards", choices=["virtual", "physical"], default="virtual",
                   help="virtual: the box deals; physical: whoever looks at a card enters it")
    p.add_argument("--wiring", default=None,
                   help="wiring profile name or file (default: sim-8 / gpio-2 / ioboard-8 by backend)")
    p.add_argument("--bots", default="", metavar="SEAT=LEVEL,...",
                   help="computer players, e.g. --bots 2=strong,3=casual (levels: casual, strong)")


def cmd_sim(args) -> int:
    from companion import script, service
    from companion.journal import Journal

    args.wiring = args.wiring or DEFAULT_WIRING["sim"]
    plan = service.Plan(args, "sim")
    text = read_text(args.script, "press script") if args.script else ""
    steps = script.parse(text, args.script or "<none>", panels=plan.seats)
    journal = Journal(args.db) if args.db else None
    if journal is not None and journal.fault is not None:      # one shot: nothing to wait for
        journal.close()
        raise journal.fault
    names = _names(args.name, plan.seats)
    clock = script.FakeClock()
    hardware, session = service.build(args, plan, journal, clock)
    try:
        for seat, name in names.items():
            session.host("name", seat=seat, name=name)
        script.run(session, hardware, clock, steps)
        script.write_outputs(session, Path(args.out))
    finally:
        session.close()
    match = session.state.match
    result = match.result() if match else None
    scores = list(result.scores) if result else (match.view(None)["state"].get("scores", []) if match else [])
    print(json.dumps(scores))
    return 0


def cmd_run(args) -> int:
    from companion import service

    args.wiring = args.wiring or DEFAULT_WIRING[args.backend]
    return service.run(args)


def cmd_replay(args) -> int:
    try:
        transcript = json.loads(read_text(args.transcript, "transcript"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"{args.transcript}:{exc.lineno}: the transcript is not JSON ({exc.msg}); "
                         f"molebox sim writes one as transcript.json") from None
    try:
        match = Match.replay(transcript)
    except (KeyError, TypeError) as exc:
        raise ValueError(f"{args.transcript}: not a molebox transcript (no {exc}); molebox sim writes one as "
                         f"transcript.json") from None
    if args.view is not None and not 1 <= args.view <= match.header.seats:
        raise ValueError(f"--view {args.view}: seats are 1 to {match.header.seats}")
    print(json.dumps(match.view(args.view), indent=1, sort_keys=True))
    return 0


def _as_owner(path: Path) -> None:
    """Run as root (sudo) on the service's files, act as their owner from here on: nothing this command leaves
    there (SQLite's -shm, a new PIN file) is one the service cannot open."""
    try:
        owner = path.stat()
    except OSError:
        return
    if os.geteuid() == 0 and owner.st_uid != 0:
        os.setgid(owner.st_gid)
        os.setuid(owner.st_uid)


def _reader(args):
    """The journal, read-only: ``--db``, or the service's when this machine has one, else the user's.

    Run as root (sudo) on the service's journal, the command reads it as the journal's owner, so SQLite
    never leaves a file there that the service could not open.
    """
    from companion.journal import card
    from companion.journal.records import Reader

    path = Path(args.db) if args.db else reader_path()
    if not args.db and not path.exists():
        raise JournalError(f"no molebox journal here: looked for the service's at {card.SERVICE_JOURNAL} and for "
                         f"yours at {path}; --db names another")
    _as_owner(path)
    try:
        return Reader.open(path)
    except PermissionError:
        raise JournalError(f"{path}: permission denied; the service's journal is private to it: use sudo") from None


def cmd_pin(args) -> int:
    """The running box's host PIN, for the host on the Pi (it is never on the dashboard)."""
    from companion.web.host_pin import HostPin, pin_path

    journal = Path(args.db) if args.db else reader_path()
    path = pin_path(journal)
    _as_owner(path.parent)
    if args.new:
        print(f"new host PIN: {HostPin.renew(path).pin} (every phone must enter it again)")
        return 0
    if not path.exists():
        raise JournalError(f"no host PIN at {path}: molebox makes one when it serves the LAN (--listen 0.0.0.0); "
                         f"on 127.0.0.1 host actions need none")
    pin = HostPin(path)
    if pin.path is None:
        raise JournalError(f"{path} is not molebox's PIN file, and molebox leaves it as it is: the running box "
                           f"keeps its PIN for this run only (on its table display)")
    print(f"host PIN: {pin.pin}")
    return 0


def cmd_history(args) -> int:
    from companion.history import history_table
    from companion.resuming import aside_table

    reader = _reader(args)
    print(history_table(reader.finished_games(args.limit)))
    aside = reader.set_aside_games()
    if aside:
        print("\n" + aside_table(aside))
    return 0


def cmd_stats(args) -> int:
    from companion.history import stats_table

    print(stats_table(_reader(args).finished_games()))
    return 0


def cmd_variants(args) -> int:
    from companion.render import how

    print(f"{registry.get(args.game).title}\n")
    print("\n".join(how.lines(args.game)) + "\n")
    print(f"Every decision molebox took where the rules are silent, and the settings below, in "
          f"{registry.get(args.game).doc}\n")
    for name, spec in load_specs(args.game).items():
        bounds = f" [{spec.min}..{spec.max}]" if spec.min is not None else ""
        choices = f" {{{', '.join(map(str, spec.choices))}}}" if spec.choices else ""
        print(f"{name} = {spec.default!r}{bounds}{choices}  ({spec.source})\n    {spec.doc}")
    return 0


def cmd_arena(args) -> int:
    from rules import arena

    levels = [level.strip() for level in args.bots.split(",") if level.strip()]
    if args.games < 1:
        raise ValueError(f"--games {args.games}: play at least one game")
    report = arena.tournament(args.game, levels, args.games, seats=args.seats, seed=args.seed,
                              settings=from_pairs(args.set))
    print(report.table())
    return 0


def cmd_wiring(args) -> int:
    from wiring import check, diagram, parts

    profile = load_profile(args.profile)
    if args.action == "check":
        problems = check.check(profile)
        print(check.report(profile, problems))
        return 1 if problems else 0
    if args.action == "parts":
        print(parts.report(profile), end="")
        return 1 if parts.problems(profile) else 0
    if args.action == "pico":
        from wiring import pico
        drawing, table = pico.svg(profile), pico.pin_table(profile)
    elif args.action == "breadboard":
        from wiring import breadboard
        io = args.board == "io"
        drawing, table = breadboard.svg(profile, io), breadboard.table(profile, io)
    elif args.action == "stripboard":
        from wiring import boardsvg, drc
        io = args.board == "io"
        board = boardsvg.layout(profile, io)
        problems = drc.check(board)
        drawing = boardsvg.svg(profile, io)
        table = "".join(f"problem: {p}\n" for p in problems) or (
            f"{profile.name}: the {'IO board' if io else 'hub'} on a {board.width} x {board.height} stripboard, "
            f"{len(board.pieces)} pieces, "
            f"{len(board.cuts)} cuts: every net continuous, one net per strip segment, no supply above 3.3 V "
            "beside logic\n")
    else:
        drawing, table = diagram.svg(profile) if args.svg or args.png else None, diagram.pin_table(profile)
    if args.svg:
        Path(args.svg).write_text(drawing)
    if args.png:
        diagram.png(drawing, Path(args.png))
    print(table, end="")
    return 1 if table.startswith("problem:") else 0


def cmd_selftest(args) -> int:
    from companion import selftest
    from companion.hardware import open_backend

    profile = load_profile(args.wiring or DEFAULT_WIRING[args.backend])
    try:
        hardware = open_backend(args.backend, profile, time.monotonic)
    except Exception as exc:            # a pin held by the running service, a missing library...
        raise OSError(f"cannot open the {args.backend} backend: {exc} (if the service is running, stop it "
                      f"first: sudo systemctl stop molebox; `molebox doctor` checks the rest)") from None
    prompt = selftest.finger(hardware) if args.backend == "sim" else None   # the simulator has no fingers
    print(f"molebox selftest: {profile.name} on the {args.backend} backend")
    try:
        results = selftest.SelfTest(hardware, wait_s=args.wait, lamp_s=args.lamp_s, prompt=prompt).run()
    finally:
        hardware.close()
    print(selftest.report(results))
    return 0 if all(r.ok for r in results) else 1


def cmd_firmware(args) -> int:
    from companion import firmware
    from firmware.protocol import BUILD

    profile = load_profile(args.wiring or DEFAULT_WIRING["ioboard"])
    options = firmware.profile_options(profile)
    for setting in args.set:
        name, _, value = setting.partition("=")
        options[name.strip()] = value.strip()
    paths = firmware.write(Path(args.folder), options)
    print(f"molebox firmware: build {BUILD:06x} for {profile.name}: "
          + ", ".join(f"{name} = {value}" for name, value in options.items()))
    print(f"copy it onto the Pico (docs/ioboard.md, Flashing; the pixel supply off, seat 1's OK held while the "
          f"Pico's USB cable goes in):\n  {firmware.MPREMOTE} connect /dev/ttyACM0 cp "
          f"{' '.join(shlex.quote(str(path)) for path in paths)} : + reset")
    return 0


def cmd_doctor(args) -> int:
    from companion import doctor

    system = doctor.System()
    profile = load_profile(args.wiring or doctor.service_wiring(system) or DEFAULT_WIRING["gpio"])
    findings = doctor.examine(profile, system)
    print(doctor.report(profile, system.user(), findings))
    return 0 if all(f.ok for f in findings) else 1


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="molebox", description="the game-night companion box")
    p.add_argument("-v", "--verbose", action="store_true", help="log events to stderr")
    p.add_argument("--language", default=words.locale(), metavar="CODE",
                   help=f"say everything in this language: en, a translation companion/locale/CODE.po, or "
                        f"{words.PSEUDO} (every sentence accented and longer, for layout tests); default: "
                        f"${words.ENV}, else en (docs/words.md)")
    sub = p.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="run the companion and its web panel")
    run.add_argument("--backend", choices=list(DEFAULT_WIRING), default="sim")
    run.add_argument("--listen", default="127.0.0.1",
                     help="address of the web panel (0.0.0.0: LAN mode, host actions need the PIN)")
    run.add_argument("--port", type=port_number, default=8080, help="port of the web panel (0: any free port)")
    run.add_argument("--lan-sim", action="store_true", help="in LAN mode, open the simulator to the LAN too")
    run.add_argument("--panels", type=int, metavar="N",
                     help="use only the wiring profile's first N panels (0: none; every seat a phone)")
    run.add_argument("--phones", type=int, default=0, metavar="N",
                     help="N more seats after the panels, each played on a phone's seat page (docs/web.md)")
    run.add_argument("--frames", metavar="DIR",
                     help="sim backend: keep each display's latest frame as DIR/NAME.png (the system test reads them)")
    _game_args(run, required=False)
    run.add_argument("--db", default=str(default_db()),
                     help="the journal (default: the service's state directory, else the user's data directory)")
    run.set_defaults(func=cmd_run)

    sim = sub.add_parser("sim", help="play a press script headless on the simulated panels")
    _game_args(sim, required=True)
    sim.add_argument("--script", help="press script (see docs/scripts.md)")
    sim.add_argument("--out", required=True, help="directory for state.json, lamps.json and PNGs")
    sim.add_argument("--db", help="journal the game in this database (default: none)")
    sim.add_argument("--name", action="append", default=[], metavar="SEAT=NAME",
                     help="a player's name, as the dashboard would set it (repeatable)")
    sim.set_defaults(func=cmd_sim)

    replay = sub.add_parser("replay", help="replay a transcript and print the final view as JSON")
    replay.add_argument("transcript")
    replay.add_argument("--view", type=int, help="print this seat's view instead of the public one")
    replay.set_defaults(func=cmd_replay)

    journal_help = f"the journal (default: the service's, {reader_path()}, where there is one, else the user's)"
    history = sub.add_parser("history", help="the finished games in the journal, and any set aside")
    history.add_argument("--db", help=journal_help)
    history.add_argument("--limit", type=int, default=20)
    history.set_defaults(func=cmd_history)

    stats = sub.add_parser("stats", help="wins per player and per game from the journal")
    stats.add_argument("--db", help=journal_help)
    stats.set_defaults(func=cmd_stats)

    pin = sub.add_parser("pin", help="the host PIN of the box (for the dashboard's host actions in LAN mode)")
    pin.add_argument("--db", help=journal_help)
    pin.add_argument("--new", action="store_true", help="make a new PIN: every phone must enter it again")
    pin.set_defaults(func=cmd_pin)

    variants = sub.add_parser("variants", help="list a game's variant settings")
    variants.add_argument("game", choices=registry.ids())
    variants.set_defaults(func=cmd_variants)

    test = sub.add_parser("selftest", help="light each lamp, ask for each button, draw a test card on each "
                                            "display, and report what did not answer")
    test.add_argument("--backend", choices=list(DEFAULT_WIRING), default="gpio")
    test.add_argument("--wiring", default=None, help="wiring profile name or file (default: by backend)")
    test.add_argument("--wait", type=float, default=10.0, help="seconds to wait for each button")
    test.add_argument("--lamp-s", type=float, default=0.3, help="seconds each lamp stays lit")
    test.set_defaults(func=cmd_selftest)

    doctor = sub.add_parser("doctor", help="check this Pi for a wiring profile: groups, devices, I2C bus and "
                                             "addresses, pin factory, serial port; says what to fix")
    doctor.add_argument("--wiring", default=None,
                        help="wiring profile name or file (default: the service's, from /etc/default/molebox)")
    doctor.set_defaults(func=cmd_doctor)

    arena = sub.add_parser("arena", help="computer players against each other: win rates with 95%% intervals")
    arena.add_argument("game", help="game id")
    arena.add_argument("--bots", default="casual,strong", help="bot levels, comma-separated; they take the seats in turn")
    arena.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    arena.add_argument("--seats", type=int, help="seats per game (default: one per level, at least the game's minimum)")
    arena.add_argument("--seed", type=int, default=0, help="seed of the first game; game i uses seed + i")
    arena.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="a variant setting")
    arena.set_defaults(func=cmd_arena)

    flash = sub.add_parser("firmware", help="write the IO board's files for the Pico, main.py's build options "
                                            "set from the wiring profile (docs/ioboard.md, Flashing)")
    flash.add_argument("folder", help="where to write protocol.py, board.py and main.py (made if missing)")
    flash.add_argument("--wiring", default=None, help="the box's wiring profile (default: ioboard-8)")
    flash.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                       help="another build option at the top of main.py, as Python: --set SETTLE_US=300")
    flash.set_defaults(func=cmd_firmware)

    wiring = sub.add_parser("wiring", help="check a wiring profile against the Pi's header, draw it, or list its "
                                           "parts and current budget")
    wiring.add_argument("action", choices=["check", "diagram", "parts", "pico", "stripboard", "breadboard"],
                        help="pico: the IO board's own drawing (its pins, level shifter, matrix and plugs); "
                             "stripboard: the hub laid out hole by hole, with its design-rule check; "
                             "breadboard: every wire from the Pi's pin through the ribbon and hub to its part or a "
                             "panel's plug (with --board io, every wire from the IO board's pads to the plugs)")
    wiring.add_argument("profile", help="a built-in profile name (gpio-2, ioboard-8, ...) or a TOML file")
    wiring.add_argument("--board", choices=["hub", "io"], default="hub",
                        help="stripboard, breadboard: the hub and the Pi's side (default) or the IO board (a box "
                             "with backend = \"ioboard\")")
    wiring.add_argument("--svg", help="diagram, pico, stripboard, breadboard: also write the drawing to this SVG file")
    wiring.add_argument("--png", help="diagram, pico, stripboard, breadboard: and render it to this PNG file "
                                      "(rsvg-convert)")
    wiring.set_defaults(func=cmd_wiring)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(name)s %(message)s")
    try:
        words.use(args.language)
        return args.func(args)
    except (ProfileError, SettingError, JournalError, ValueError, OSError) as exc:
        print(f"molebox: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
