"""Load a wiring profile: which pins and displays make up each seat's panel.

A profile is TOML data (see ``wiring/profiles/``). Errors name the file, the
line of the offending key and the fix, because the person reading them is
holding a soldering iron, not a debugger.
"""
from __future__ import annotations

import difflib
import re
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from firmware.protocol import LAMP_TYPES, MAX_SEATS as IOBOARD_SEATS

from .hardware import LAMP_KINDS, LEDS, PANELS

BACKENDS = ("gpio", "ioboard", "sim")
PIN_FACTORIES = ("lgpio", "rpigpio", "mock")
DRIVERS = ("ssd1306", "sh1106", "ssd1309")
HOLES_PER_SEAT = 5
PIN_KEYS = ("holes", "lamps", "ok")
TOP_KEYS = ("title", "backend", "pin_factory", "interfaces", "buzzer", "status_led", "display", "table", "mux",
            "ioboard", "lamp", "connector", "hub", "seats")
CONNECTOR_KEYS = ("logic", "lamp")  # each panel's plugs, pin 1 first (wiring/connector.py)
HUB_KEYS = ("strips",)   # the hub's strips, top to bottom (wiring/guard.py)
SEAT_KEYS = ("header", "holes", "lamps", "ok", "display")
DISPLAY_KEYS = ("panel", "driver", "bus", "address", "width", "height", "rotate")
MUX_KEYS = ("address", "parent", "buses")
LAMP_KEYS = ("kind", "colour", "ma")
PLAIN_LAMP_SEATS = 2                # the IO board's ten plain-lamp pins (LAMP_PINS in firmware/main.py)
INTERFACES = ("i2c", "spi", "uart")     # the Pi's own buses a profile may switch on besides I2C1 for displays
PICO_USB_ID = "2E8A"                # Raspberry Pi's USB vendor id: any Pico
USB_ID = re.compile(r"[0-9A-Fa-f]{4}(:[0-9A-Fa-f]{4})?")
COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")
# A seat colour's brightest channel must reach this (of 255): on the WS2812 chain, capped at 64/255, ON then
# lights at 9/255 or more, well apart from DIM and the idle pattern, which the board rounds up to 1/255 or more.
DARKEST = 32


class ProfileError(ValueError):
    """A wiring profile that cannot be used; the message says where and how to fix it."""


@dataclass(frozen=True)
class DisplaySpec:
    driver: str = "ssd1306"
    bus: int = 1
    address: int = 0x3C
    width: int = 128
    height: int = 64
    rotate: int = 0


@dataclass(frozen=True)
class SeatSpec:
    holes: tuple[int, ...]          # empty, like lamps, and ok None: the IO board serves the seat
    lamps: tuple[int, ...]
    ok: int | None
    display: DisplaySpec | None
    header: str = "main"


@dataclass(frozen=True)
class MuxSpec:
    """A TCA9548A on I2C ``parent`` at ``address``; ``dtoverlay=i2c-mux`` makes channel i the bus ``buses[i]``."""

    address: int = 0x70
    parent: int = 1
    buses: tuple[int, ...] = ()


@dataclass(frozen=True)
class LampSpec:
    """What every hole lamp is (a kind of wiring/hardware.py's LAMP_KINDS), its LED colour and current."""

    kind: str = "led"
    colour: str = "red"             # a plain LED's colour, for its resistor
    ma: float = LAMP_KINDS["led"].ma


@dataclass(frozen=True)
class Profile:
    name: str
    title: str
    backend: str
    pin_factory: str
    seats: tuple[SeatSpec, ...]
    table: DisplaySpec | None
    path: str
    text: str
    ioboard: IOBoardSpec | None = None
    muxes: tuple[MuxSpec, ...] = ()
    buzzer: int | None = None           # BCM GPIO of an active buzzer
    status_led: int | None = None       # BCM GPIO of the box's status LED
    interfaces: tuple[str, ...] = ()    # "spi", "uart", "i2c" switched on in config.txt for other uses
    lamp: LampSpec = LampSpec()
    connector: dict[str, tuple[str, ...]] = field(default_factory=dict)    # plug -> its pins' lines; {}: defaults
    strips: tuple[str, ...] = ()        # the hub's strips top to bottom; (): the safe order (wiring/guard.py)

    def displays(self) -> dict[str, DisplaySpec]:
        """Every display by name: ``seat1``..``seatN`` and ``table``."""
        out = {f"seat{i}": s.display for i, s in enumerate(self.seats, 1) if s.display is not None}
        if self.table is not None:
            out["table"] = self.table
        return out

    def mux_of(self, bus: int) -> MuxSpec | None:
        """The mux whose channel ``bus`` is; None for one of the Pi's own buses."""
        return next((mux for mux in self.muxes if bus in mux.buses), None)

    def controller(self, bus: int) -> int:
        """The Pi's own I2C bus whose two wires carry ``bus``: a mux channel's parent, else ``bus`` itself.
        Frames on different controllers travel at the same time; on one, one after another."""
        mux = self.mux_of(bus)
        return bus if mux is None else mux.parent


@dataclass(frozen=True)
class IOBoardSpec:
    """Where the serial IO board is: a port, or else the first USB serial device with this VID[:PID]."""

    port: str | None = None
    usb_id: str = PICO_USB_ID
    baud: int = 115200
    colours: tuple[tuple[int, int, int], ...] = ()     # per seat; empty: the board's palette
    lamps: str = LAMP_TYPES[0]      # the lamps the board's firmware drives: "ws2812" or "plain"


def builtin(name: str) -> Path:
    return Path(str(resources.files("wiring.profiles").joinpath(f"{name}.toml")))


def builtin_names() -> list[str]:
    return sorted(p.name[:-5] for p in resources.files("wiring.profiles").iterdir() if p.name.endswith(".toml"))


def load(name_or_path: str) -> Profile:
    """Load a profile by built-in name (``sim-8``) or by file path."""
    path = Path(name_or_path)
    if not path.suffix:
        path = builtin(name_or_path)
        if not path.exists():
            raise ProfileError(f"no built-in wiring profile {name_or_path!r}; built-in: {', '.join(builtin_names())}")
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ProfileError(f"{path}: cannot read the wiring profile: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise ProfileError(f"{path}: the wiring profile is not UTF-8 text (byte {exc.start}); a profile is a TOML "
                           f"file like those in wiring/profiles/") from None
    return parse(text, str(path))


def parse(text: str, path: str = "<profile>") -> Profile:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        line = re.search(r"\(at line (\d+), column \d+\)$", str(exc))
        where = f"{path}:{line.group(1)}" if line else path
        raise ProfileError(f"{where}: {exc}; fix the TOML syntax there") from None
    where = Locator(text, path)
    _known(data, TOP_KEYS, where, "the profile")
    backend = data.get("backend", "gpio")
    if backend not in BACKENDS:
        raise where.error("backend", f"unknown backend {backend!r}", f"use one of {', '.join(BACKENDS)}")
    factory = data.get("pin_factory", "lgpio")
    if factory not in PIN_FACTORIES:
        raise where.error("pin_factory", f"unknown pin factory {factory!r}",
                          f"use one of {', '.join(PIN_FACTORIES)}")
    defaults = data.get("display", {})
    _known(defaults, DISPLAY_KEYS, where, "[display]", "display")
    seats_raw = data.get("seats", [])
    if not seats_raw:
        raise where.error("seats", "the profile has no [[seats]]", "add one [[seats]] table per panel")
    seats = tuple(_seat(raw, i, defaults, where, backend) for i, raw in enumerate(seats_raw))
    table = _display(data["table"], defaults, where, "table", "table") if "table" in data else None
    return Profile(
        name=Path(path).stem,
        title=data.get("title", Path(path).stem),
        backend=backend,
        pin_factory=factory,
        seats=seats,
        table=table,
        path=path,
        text=text,
        ioboard=_ioboard(data.get("ioboard", {}), len(seats), where) if backend == "ioboard" else None,
        muxes=_muxes(data.get("mux", []), where),
        buzzer=_pin(data, "buzzer", where),
        status_led=_pin(data, "status_led", where),
        interfaces=_interfaces(data.get("interfaces", []), where),
        lamp=_lamp(data.get("lamp", {}), backend, len(seats), where),
        connector=_connector(data.get("connector", {}), where),
        strips=_strips(data.get("hub", {}), where),
    )


def _strips(raw, where: "Locator") -> tuple[str, ...]:
    """``[hub] strips``: the hub's strips by the line each carries, top to bottom; ``molebox wiring check`` says
    which may sit beside which."""
    if not isinstance(raw, dict):
        raise where.error("hub", f"hub must be a table, got {raw!r}", 'write [hub] and strips = ["SDA", ...] below it')
    _known(raw, HUB_KEYS, where, "[hub]", "hub")
    strips = raw.get("strips", [])
    if not (isinstance(strips, list) and all(isinstance(line, str) for line in strips)):
        raise where.error("strips", f"hub.strips must list the line of each strip, top first, got {strips!r}",
                          'write e.g. strips = ["SDA", "SCL", "3V3", "GND", "12V"]', section="hub")
    return tuple(strips)


def _connector(raw, where: "Locator") -> dict[str, tuple[str, ...]]:
    """``[connector]``: each plug's pins by the line they carry; what may go where, ``molebox wiring check`` says."""
    if not isinstance(raw, dict):
        raise where.error("connector", f"connector must be a table, got {raw!r}",
                          'write [connector] and logic = ["GND", "hole1", ...] below it')
    _known(raw, CONNECTOR_KEYS, where, "[connector]", "connector")
    for name, pins in raw.items():
        if not (isinstance(pins, list) and pins and all(isinstance(line, str) for line in pins)):
            raise where.error(name, f"connector.{name} must list the line on each pin, pin 1 first, got {pins!r}",
                              f'write e.g. {name} = ["GND", "hole1", "hole2"]', section="connector")
    return {name: tuple(pins) for name, pins in raw.items()}


def _known(raw: dict, allowed: tuple[str, ...], where: "Locator", table: str, section: str | None = None,
           index: int = 0) -> None:
    """Refuse a key the profile format does not have, suggesting the nearest one (a typo, most likely)."""
    for key in raw:
        if key not in allowed:
            near = difflib.get_close_matches(key, allowed, n=1)
            hint = f"did you mean {near[0]!r}? " if near else ""
            raise where.error(key, f"{table}: unknown key {key!r}",
                              f"{hint}the keys here are {', '.join(allowed)}", index, section)


def _pin(data: dict, key: str, where: "Locator") -> int | None:
    value = data.get(key)
    if value is not None and not (isinstance(value, int) and not isinstance(value, bool)):
        raise where.error(key, f"{key} must be one GPIO number, got {value!r}", f"write e.g. {key} = 26")
    return value


def _interfaces(value, where: "Locator") -> tuple[str, ...]:
    if not (isinstance(value, list) and all(v in INTERFACES for v in value)):
        raise where.error("interfaces", f"interfaces must list some of {', '.join(INTERFACES)}, got {value!r}",
                          'write e.g. interfaces = ["spi"] for what config.txt switches on besides displays')
    return tuple(value)


def _lamp(raw: dict, backend: str, seats: int, where: "Locator") -> LampSpec:
    """The ``[lamp]`` table: defaults to plain LEDs on GPIO and a WS2812 chain on the IO board."""
    if not isinstance(raw, dict):
        raise where.error("lamp", f"lamp must be a table, got {raw!r}", 'write [lamp] and kind = "led" below it')
    _known(raw, LAMP_KEYS, where, "[lamp]", "lamp")
    kind = raw.get("kind", "ws2812" if backend == "ioboard" else "led")
    if kind not in LAMP_KINDS:
        raise where.error("kind", f"lamp.kind must be one of {', '.join(LAMP_KINDS)}, got {kind!r}",
                          'write e.g. kind = "led" (a plain LED on each pin) or kind = "12v" (arcade lamps through '
                          'a driver)', section="lamp")
    if kind == "ws2812" and backend != "ioboard":
        raise where.error("kind", "lamp.kind = \"ws2812\" needs the IO board, which drives the pixel chain",
                          'use kind = "led", "5v" or "12v" on GPIO', section="lamp")
    if kind != "ws2812" and backend == "ioboard" and seats > PLAIN_LAMP_SEATS:
        raise where.error("kind", f"the IO board drives plain lamps for {PLAIN_LAMP_SEATS} seats, the profile has "
                          f"{seats}", 'use kind = "ws2812" (its chain serves eight seats)', section="lamp")
    colour = raw.get("colour", "red")
    if colour not in LEDS:
        raise where.error("colour", f"lamp.colour must be one of {', '.join(LEDS)}, got {colour!r}",
                          'write e.g. colour = "red"', section="lamp")
    ma = raw.get("ma", LAMP_KINDS[kind].ma)
    if isinstance(ma, bool) or not isinstance(ma, (int, float)) or not 0 < ma <= 100:
        raise where.error("ma", f"lamp.ma must be the current of one lit lamp in mA (above 0, at most 100), "
                          f"got {ma!r}", "write e.g. ma = 3", section="lamp")
    return LampSpec(kind=kind, colour=colour, ma=float(ma))


def _muxes(raw, where: "Locator") -> tuple[MuxSpec, ...]:
    """``[mux]`` (one) or ``[[mux]]`` (one per I2C controller that has one)."""
    tables = [raw] if isinstance(raw, dict) else raw
    if not (isinstance(tables, list) and all(isinstance(t, dict) for t in tables)):
        raise where.error("mux", f"mux must be a table or tables, got {raw!r}",
                          "write [mux] (or [[mux]] once per mux) and its keys below it")
    muxes = tuple(_mux(table, where, index) for index, table in enumerate(tables))
    for index, mux in enumerate(muxes):
        if (mux.parent, mux.address) in {(m.parent, m.address) for m in muxes[:index]}:
            raise where.error("address", f"two muxes at 0x{mux.address:02x} on I2C{mux.parent}",
                              "give one its own address (its A0-A2 jumpers) or its own parent bus", index, "mux")
    return muxes


def _mux(raw: dict, where: "Locator", index: int) -> MuxSpec:
    _known(raw, MUX_KEYS, where, "[mux]", "mux", index)
    address, parent, buses = raw.get("address", 0x70), raw.get("parent", 1), raw.get("buses")
    if address not in range(0x70, 0x78):
        raise where.error("address", f"mux.address must be 0x70..0x77 (the A0-A2 jumpers), got {address!r}",
                          "write e.g. address = 0x70", index=index, section="mux")
    if not isinstance(parent, int) or isinstance(parent, bool):
        raise where.error("parent", f"mux.parent must be an I2C bus number, got {parent!r}",
                          "write parent = 1 (dtoverlay=i2c-mux sits on I2C1)", index=index, section="mux")
    if not (isinstance(buses, list) and 1 <= len(buses) <= 8 and all(isinstance(b, int) for b in buses)):
        raise where.error("buses" if "buses" in raw else "mux", f"mux.buses must list the /dev/i2c-N of each channel "
                          f"(1 to 8), got {buses!r}",
                          "write e.g. buses = [11, 12, 13, 14, 15, 16, 17, 18], as `molebox doctor` lists them",
                          index=index, section="mux")
    return MuxSpec(address=address, parent=parent, buses=tuple(buses))


def _seat(raw: dict, index: int, defaults: dict, where: "Locator", backend: str) -> SeatSpec:
    table = f"seats[{index + 1}]"
    _known(raw, SEAT_KEYS, where, table, "seats", index)
    display = _display(raw["display"], defaults, where, "display", table, index) if "display" in raw else None
    if backend == "ioboard" and not set(PIN_KEYS) & raw.keys():      # the IO board scans and lights it
        return SeatSpec(holes=(), lamps=(), ok=None, display=display, header=str(raw.get("header", "main")))
    pins = {}
    for key, count in (("holes", HOLES_PER_SEAT), ("lamps", HOLES_PER_SEAT)):
        value = raw.get(key)
        if not (isinstance(value, list) and len(value) == count and all(isinstance(p, int) for p in value)):
            raise where.error(key, f"{table}.{key} must list {count} GPIO numbers, got {value!r}",
                              f"write e.g. {key} = [4, 17, 27, 22, 5]", index, "seats")
        pins[key] = tuple(value)
    ok = raw.get("ok")
    if not isinstance(ok, int):
        raise where.error("ok", f"{table}.ok must be one GPIO number, got {ok!r}", "write e.g. ok = 16",
                          index, "seats")
    return SeatSpec(holes=pins["holes"], lamps=pins["lamps"], ok=ok, display=display,
                    header=str(raw.get("header", "main")))


def _ioboard(raw: dict, seats: int, where: "Locator") -> IOBoardSpec:
    unknown = set(raw) - {"port", "usb_id", "baud", "colours", "lamps"}
    if unknown:
        raise where.error(sorted(unknown)[0], f"ioboard: unknown key {sorted(unknown)[0]!r}",
                          "use port, usb_id, baud, colours, lamps")
    if seats > IOBOARD_SEATS:
        raise where.error("seats", f"the IO board scans {IOBOARD_SEATS} seats, the profile has {seats}",
                          f"keep at most {IOBOARD_SEATS} [[seats]] tables")
    port = raw.get("port")
    if port is not None and not (isinstance(port, str) and port):
        raise where.error("port", f"ioboard.port must be a device path, got {port!r}",
                          'write e.g. port = "/dev/ttyACM0", or leave it out to find the board by usb_id')
    usb_id = raw.get("usb_id", PICO_USB_ID)
    if not (isinstance(usb_id, str) and USB_ID.fullmatch(usb_id)):
        raise where.error("usb_id", f"ioboard.usb_id must be a hex VID or VID:PID, got {usb_id!r}",
                          'write e.g. usb_id = "2E8A" or "2E8A:0005"')
    baud = raw.get("baud", 115200)
    if not (isinstance(baud, int) and baud > 0):
        raise where.error("baud", f"ioboard.baud must be a positive whole number, got {baud!r}",
                          "write e.g. baud = 115200")
    colours = raw.get("colours", [])
    if not (isinstance(colours, list) and all(isinstance(c, str) and COLOUR.fullmatch(c) for c in colours)
            and len(colours) in (0, seats)):
        raise where.error("colours", f"ioboard.colours must list one #rrggbb per seat ({seats}), got {colours!r}",
                          'write e.g. colours = ["#ff0000", "#00ff00"], or leave it out')
    rgbs = tuple(tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in colours)
    for colour, rgb in zip(colours, rgbs):
        if max(rgb) < DARKEST:
            brighter = "#" + "".join(f"{v * 255 // max(max(rgb), 1):02x}" for v in rgb) if max(rgb) else "#ffffff"
            raise where.error("colours", f"ioboard.colours: {colour} is too dark to tell ON from DIM on the lamps "
                              f"(its brightest channel is {max(rgb)}, under {DARKEST})",
                              f"use a brighter shade, e.g. {brighter}")
    lamps = raw.get("lamps", LAMP_TYPES[0])
    if lamps not in LAMP_TYPES:
        raise where.error("lamps", f"ioboard.lamps must be one of {', '.join(LAMP_TYPES)}, got {lamps!r}",
                          'write lamps = "ws2812" for the WS2812 chain or "plain" for LEDs on PWM pins')
    if lamps == "plain" and seats > PLAIN_LAMP_SEATS:
        raise where.error("lamps", f"plain lamps take five of the board's ten PWM pins a seat: "
                          f"{PLAIN_LAMP_SEATS} seats, the profile has {seats}",
                          f'keep {PLAIN_LAMP_SEATS} [[seats]], or use the WS2812 chain (lamps = "ws2812")')
    return IOBoardSpec(port=port, usb_id=usb_id.upper(), baud=baud, colours=rgbs, lamps=lamps)


def _display(raw: dict, defaults: dict, where: "Locator", key: str, table: str, occurrence: int = 0) -> DisplaySpec:
    section = "seats" if key == "display" else key
    if not isinstance(raw, dict):
        raise where.error(key, f"{table}: the display must be a table, got {raw!r}",
                          "write e.g. display = { bus = 1, address = 0x3C }", occurrence, section)
    _known(raw, DISPLAY_KEYS, where, f"{table} display", section, occurrence)
    merged = {**defaults, **raw}
    if "panel" in merged:                      # the panel by its size names its controller
        panel = merged.pop("panel")
        if panel not in PANELS:
            raise where.error("panel", f"{table}: unknown panel {panel!r}",
                              f"use one of {', '.join(repr(p) for p in PANELS)} (the glass's diagonal in inches)",
                              occurrence, section)
        if merged.setdefault("driver", PANELS[panel]) != PANELS[panel]:
            raise where.error("driver", f"{table}: a {panel} panel has an {PANELS[panel]}, not {merged['driver']!r}",
                              "leave driver out: the panel names it", occurrence, section)
    driver = merged.get("driver", "ssd1306")
    if driver not in DRIVERS:
        raise where.error(key, f"{table}: unknown display driver {driver!r}", f"use one of {', '.join(DRIVERS)}",
                          occurrence, section)
    for name in ("bus", "address", "width", "height", "rotate"):
        if name in merged and not (isinstance(merged[name], int) and not isinstance(merged[name], bool)):
            raise where.error(name, f"{table}: display {name} must be a whole number, got {merged[name]!r}",
                              f"write e.g. {name} = {getattr(DisplaySpec, name):#x}" if name == "address"
                              else f"write e.g. {name} = {getattr(DisplaySpec, name)}", occurrence, section)
    return DisplaySpec(**merged)


class Locator:
    """Finds the line of a key in the profile text, for error messages."""

    HEADER = re.compile(r"^\s*\[\[?\s*([\w.-]+)\s*\]")

    def __init__(self, text: str, path: str):
        self.lines, self.path = text.splitlines(), path

    def line_of(self, key: str, occurrence: int = 0) -> int | None:
        pattern = re.compile(rf"^\s*(\[\[?)?\s*{re.escape(key)}\b")
        hits = [n for n, line in enumerate(self.lines, 1) if pattern.match(line)]
        if not hits:
            return None
        return hits[min(occurrence, len(hits) - 1)]

    def line_in(self, key: str, section: str | None, index: int = 0) -> int | None:
        """The line of ``key`` in the ``index``-th ``[section]`` (None: the top level), else of the section."""
        headers = [(n, m.group(1)) for n, line in enumerate(self.lines) if (m := self.HEADER.match(line))]
        starts = [n for n, name in headers if name == section]
        if section is None:
            start, end = 0, headers[0][0] if headers else len(self.lines)
        elif index < len(starts):
            start = starts[index]
            end = next((n for n, _ in headers if n > start), len(self.lines))
        else:
            return self.line_of(section)
        pattern = re.compile(rf"(^\s*|[{{,]\s*){re.escape(key)}\s*=")
        hit = next((n for n in range(start, end) if pattern.search(self.lines[n])), None)
        if hit is not None:
            return hit + 1
        return start + 1 if section is not None else self.line_of(key, index)

    def error(self, key: str, problem: str, fix: str, index: int = 0, section: str | None = None) -> ProfileError:
        """An error at ``key`` of the ``index``-th ``[section]`` (or the first line starting with ``key``)."""
        return ProfileError(f"{self.at(self.line_in(key, section, index))}: {problem}; {fix}")

    def at(self, line: int | None) -> str:
        return f"{self.path}:{line}" if line else self.path
