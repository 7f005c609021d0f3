"""``make bench``: speed and memory figures, each next to the raw library measured in the same run.

Figures: press-to-lamp latency through the whole companion (mock pin edge ->
session loop -> lamp pin change, with every display rendering on change),
alone and with the web panel's pages open and streaming, beside gpiozero's
own ``Button.when_pressed -> LED.on`` chain; phone seats: a press over HTTP from a client process to
the lamps on that seat's stream, beside bare aiohttp answering the same requests, and panel presses
with phones and dashboards connected; panel presses with the TV view open in chromium, and that
page's CPU and memory at rest and during a game; time from
process start to ready; CPU used while idle; peak RSS. Run with ``--help``
for the knobs; the figures in docs/benchmarks.md come from ``make bench``.
"""
from __future__ import annotations

import argparse
import sys
from dataclasses import replace

from .common import FULL, QUICK, Sizes


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m companion.bench", description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true",
                   help=f"every row, the same code, a few samples each ({QUICK.samples} presses, "
                        f"{QUICK.idle_s:g} s idle, {QUICK.bot_games} game per game, {QUICK.tv_s:g} s of TV, an OLED "
                        f"game to {QUICK.oled_target} point): the figures mean little, but a bench that crashes "
                        f"fails make test")
    p.add_argument("--samples", type=int, help=f"presses to time (default {FULL.samples})")
    p.add_argument("--idle", type=float, help=f"seconds of idle to measure CPU over (default {FULL.idle_s:g})")
    p.add_argument("--probe", choices=["ours", "raw"], help=argparse.SUPPRESS)
    p.add_argument("--probe-disk", metavar="PATH", help=argparse.SUPPRESS)
    p.add_argument("--read-streams", nargs="+", metavar="PORT PATH", help=argparse.SUPPRESS)
    p.add_argument("--read-history", nargs=2, type=int, metavar="PORT GUESTS", help=argparse.SUPPRESS)
    p.add_argument("--serve-phones", choices=["molebox", "raw", "history"], help=argparse.SUPPRESS)
    p.add_argument("--press-phones", nargs="+", metavar="PORT CODE", help=argparse.SUPPRESS)
    p.add_argument("--bot-games", type=int,
                   help=f"games per game to time the computer players over (default {FULL.bot_games})")
    p.add_argument("--bots-only", action="store_true", help="print only the computer players' think times")
    p.add_argument("--oled-only", action="store_true", help="print only the OLED figures on the timed I2C wire")
    p.add_argument("--tv-seconds", type=float,
                   help=f"seconds the TV page is measured in chromium at rest, and again during a game "
                        f"(default {FULL.tv_s:g})")
    p.add_argument("--tv-only", action="store_true", help="print only the TV rows: its press-to-lamp and its page")
    p.add_argument("--press-only", action="store_true",
                   help="print only the press-to-lamp rows beside the raw chain's: the quick check of another machine")
    return p


def sizes(args: argparse.Namespace) -> Sizes:
    """The full run's sizes, or ``--quick``'s, with those given on the command line instead."""
    given = {"samples": args.samples, "idle_s": args.idle, "bot_games": args.bot_games, "tv_s": args.tv_seconds}
    return replace(QUICK if args.quick else FULL, **{knob: value for knob, value in given.items() if value is not None})


def main(argv: list[str] | None = None) -> int:
    """Print the table, or some of its rows; the hidden flags are the bench's own child processes.

    Each mode imports its module when it is chosen, so that a child process loads
    only what it measures: the raw probe gpiozero and luma, the raw phone server aiohttp.
    """
    args = parser().parse_args(argv)
    size = sizes(args)
    if args.bots_only:
        from .bots import print_bot_rows
        print_bot_rows(size.bot_games)
    elif args.oled_only:
        from .oled import print_rows
        print_rows(size)
    elif args.tv_only:
        from .report import print_tv_only
        print_tv_only(size)
    elif args.probe:
        from .probe import probe
        probe(args.probe, size.idle_s)
    elif args.probe_disk:
        from .disk import probe_disk
        probe_disk(args.probe_disk)
    elif args.read_streams:
        from .streams import read_streams
        read_streams(int(args.read_streams[0]), args.read_streams[1:])
    elif args.read_history:
        from .streams import read_history
        read_history(*args.read_history)
    elif args.serve_phones == "raw":
        from .raw import serve_phones
        serve_phones()
    elif args.serve_phones:
        from .phones import serve_phones
        serve_phones(history=args.serve_phones == "history")
    elif args.press_phones:
        from .phone_client import press_phones
        port, *codes = args.press_phones
        press_phones(int(port), codes, 0)
    else:
        from .report import print_table
        print_table(size, args.press_only)
    return 0


if __name__ == "__main__":
    sys.exit(main())
