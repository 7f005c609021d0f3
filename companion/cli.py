"""The ``molebox`` command."""
from __future__ import annotations

import argparse
import json
import logging
import sys
import time
from pathlib import Path

from companion import players
from companion.store import StoreError, default_path as default_db
from rules import registry
from rules.match import Header, Match
from rules.settings import SettingError, load_specs
from wiring.profile import ProfileError, load as load_profile


DEFAULT_WIRING = {"sim": "sim-8", "gpio": "gpio-2", "ioboard": "ioboard-8"}


def _settings(pairs: list[str]) -> dict:
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SettingError(f"--set {pair!r}: write NAME=VALUE, e.g. --set target=30")
        out[name.strip()] = value.strip()
    return out


def _game_args(p: argparse.ArgumentParser, required: bool) -> None:
    p.add_argument("--game", choices=list(registry.GAMES), required=required, help="game id")
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


def _session(args, backend: str, clock=time.monotonic, host_pin: str | None = None, frames: str | None = None):
    from companion.hardware import open_backend
    from companion.session import Session
    from companion.store import Store
    from companion.web.pin import PinDisplay

    profile = load_profile(args.wiring or DEFAULT_WIRING[backend])
    settings = _settings(args.set)
    seats = args.seats
    if args.game:
        seats = seats or registry.game_class(args.game).min_seats
        Match(Header(args.game, seats, settings))          # fail early on bad seats or settings
        if seats > len(profile.seats):
            raise ValueError(f"--seats {seats}: the wiring profile {profile.name} has {len(profile.seats)} panels")
        computers = players.parse(args.bots, seats, args.game)
    elif args.bots:
        raise ValueError("--bots needs --game; without it seat 1 chooses the players in the lobby")
    else:
        computers = {}
    if frames and backend != "sim":
        raise ValueError(f"--frames {frames}: only the sim backend writes its frames to files")
    hardware = open_backend(backend, profile, clock)
    if frames:
        hardware.record_frames(Path(frames))
    if host_pin and hardware.table is not None:
        hardware.table = PinDisplay(hardware.table, host_pin)
    store = Store(args.db) if args.db else None
    session = Session(hardware, clock, game=args.game, seats=seats, seed=args.seed, settings=settings,
                      dice=args.dice, cards=args.cards, store=store, bots=computers)
    return hardware, session


def cmd_sim(args) -> int:
    from companion import script

    text = Path(args.script).read_text() if args.script else ""
    clock = script.FakeClock()
    hardware, session = _session(args, "sim", clock)
    try:
        steps = script.parse(text, args.script or "<none>", panels=len(hardware.seats))
        script.run(session, hardware, clock, steps)
        script.write_outputs(session, Path(args.out))
    finally:
        session.close()
    result = session.match.result() if session.match else None
    scores = list(result.scores) if result else session.public().get("view", {}).get("state", {}).get("scores", [])
    print(json.dumps(scores))
    return 0


def cmd_run(args) -> int:
    from companion.web import server
    from companion.web.auth import is_loopback
    from companion.web.pin import new_pin

    pin = None if is_loopback(args.listen) else new_pin()
    hardware, session = _session(args, args.backend, host_pin=pin, frames=args.frames)
    return server.serve(session, hardware, args.listen, args.port, pin=pin, lan_sim=args.lan_sim)


def cmd_replay(args) -> int:
    transcript = json.loads(Path(args.transcript).read_text())
    match = Match.replay(transcript)
    if args.view is not None and not 1 <= args.view <= match.header.seats:
        raise ValueError(f"--view {args.view}: seats are 1 to {match.header.seats}")
    print(json.dumps(match.view(args.view), indent=1, sort_keys=True))
    return 0


def cmd_history(args) -> int:
    from companion.history import history_table
    from companion.store import Store

    print(history_table(Store(args.db).finished_games(args.limit)))
    return 0


def cmd_stats(args) -> int:
    from companion.history import stats_table
    from companion.store import Store

    print(stats_table(Store(args.db).finished_games()))
    return 0


def cmd_variants(args) -> int:
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
                              settings=_settings(args.set))
    print(report.table())
    return 0


def cmd_wiring(args) -> int:
    from wiring import check, diagram

    profile = load_profile(args.profile)
    if args.action == "check":
        problems = check.check(profile)
        print(check.report(profile, problems))
        return 1 if problems else 0
    if args.svg:
        Path(args.svg).write_text(diagram.svg(profile))
    print(diagram.pin_table(profile), end="")
    return 0


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
    sub = p.add_subparsers(dest="command", required=True)

    run = sub.add_parser("run", help="run the companion and its web panel")
    run.add_argument("--backend", choices=list(DEFAULT_WIRING), default="sim")
    run.add_argument("--listen", default="127.0.0.1",
                     help="address of the web panel (0.0.0.0: LAN mode, host actions need the PIN)")
    run.add_argument("--port", type=int, default=8080, help="port of the web panel (0: any free port)")
    run.add_argument("--lan-sim", action="store_true", help="in LAN mode, open the simulator to the LAN too")
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
    sim.set_defaults(func=cmd_sim)

    replay = sub.add_parser("replay", help="replay a transcript and print the final view as JSON")
    replay.add_argument("transcript")
    replay.add_argument("--view", type=int, help="print this seat's view instead of the public one")
    replay.set_defaults(func=cmd_replay)

    history = sub.add_parser("history", help="the finished games in the journal")
    history.add_argument("--db", default=str(default_db()))
    history.add_argument("--limit", type=int, default=20)
    history.set_defaults(func=cmd_history)

    stats = sub.add_parser("stats", help="wins per player and per game from the journal")
    stats.add_argument("--db", default=str(default_db()))
    stats.set_defaults(func=cmd_stats)

    variants = sub.add_parser("variants", help="list a game's variant settings")
    variants.add_argument("game", choices=list(registry.GAMES))
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

    arena = sub.add_parser("arena", help="computer players against each other: win rates with 95% intervals")
    arena.add_argument("game", help="game id")
    arena.add_argument("--bots", default="casual,strong", help="bot levels, comma-separated; they take the seats in turn")
    arena.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    arena.add_argument("--seats", type=int, help="seats per game (default: one per level, at least the game's minimum)")
    arena.add_argument("--seed", type=int, default=0, help="seed of the first game; game i uses seed + i")
    arena.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="a variant setting")
    arena.set_defaults(func=cmd_arena)

    wiring = sub.add_parser("wiring", help="check a wiring profile against the Pi's header, or draw it")
    wiring.add_argument("action", choices=["check", "diagram"])
    wiring.add_argument("profile", help="a built-in profile name (gpio-2, ioboard-8, ...) or a TOML file")
    wiring.add_argument("--svg", help="diagram: also write the drawing to this SVG file")
    wiring.set_defaults(func=cmd_wiring)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING,
                        format="%(asctime)s %(name)s %(message)s")
    try:
        return args.func(args)
    except (ProfileError, SettingError, StoreError, ValueError, OSError) as exc:
        print(f"molebox: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
