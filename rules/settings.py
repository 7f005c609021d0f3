"""Variant settings: the rule facts a seed leaves out, as data a host can change.

Each game ships ``variants/<game-id>.toml``. Every setting there names its
default, its type and bounds, where the value comes from (``rules``: the seed
text; ``assumption``: this project's decision) and one line of documentation.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from importlib import resources
from typing import Any, Mapping

SOURCES = ("rules", "assumption", "reconstruction")


class SettingError(ValueError):
    """A setting that does not exist or a value it cannot take."""


@dataclass(frozen=True)
class Setting:
    name: str
    default: Any
    source: str
    doc: str
    min: int | None = None
    max: int | None = None
    choices: tuple | None = None

    def parse(self, raw: Any) -> Any:
        """Coerce ``raw`` (a TOML value or a command-line string) to this setting's type."""
        kind = type(self.default)
        if isinstance(raw, str) and kind is not str:
            text = raw.strip().lower()
            try:
                if kind is bool:
                    if text not in ("true", "false", "yes", "no", "on", "off", "1", "0"):
                        raise ValueError
                    raw = text in ("true", "yes", "on", "1")
                else:
                    raw = kind(text)
            except ValueError:
                raise SettingError(f"{self.name}: {raw!r} is not a {kind.__name__}") from None
        if type(raw) is not kind:
            raise SettingError(f"{self.name}: expected a {kind.__name__}, got {raw!r}")
        if self.choices is not None and raw not in self.choices:
            raise SettingError(f"{self.name}: {raw!r} is not one of {', '.join(map(str, self.choices))}")
        if self.min is not None and raw < self.min:
            raise SettingError(f"{self.name}: {raw} is below the minimum {self.min}")
        if self.max is not None and raw > self.max:
            raise SettingError(f"{self.name}: {raw} is above the maximum {self.max}")
        return raw


def load_specs(game_id: str) -> dict[str, Setting]:
    """Read a game's variant file from the package."""
    text = resources.files("rules.variants").joinpath(f"{game_id}.toml").read_text()
    specs = {}
    for name, raw in tomllib.loads(text).items():
        if raw.get("source") not in SOURCES:
            raise SettingError(f"{game_id}.toml: {name}: source must be one of {SOURCES}")
        choices = raw.get("choices")
        specs[name] = Setting(
            name=name,
            default=raw["default"],
            source=raw["source"],
            doc=raw["doc"],
            min=raw.get("min"),
            max=raw.get("max"),
            choices=tuple(choices) if choices is not None else None,
        )
    return specs


def resolve(game_id: str, overrides: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The game's settings: defaults with ``overrides`` applied and checked."""
    specs = load_specs(game_id)
    settings = {name: spec.default for name, spec in specs.items()}
    for name, raw in (overrides or {}).items():
        if name not in specs:
            raise SettingError(f"{game_id} has no setting {name!r}; it has: {', '.join(specs)}")
        settings[name] = specs[name].parse(raw)
    return settings


def from_pairs(pairs: list[str]) -> dict[str, str]:
    """``--set NAME=VALUE`` pairs as ``{name: value}`` (checked against a game's settings later)."""
    out = {}
    for pair in pairs:
        name, sep, value = pair.partition("=")
        if not sep:
            raise SettingError(f"--set {pair!r}: write NAME=VALUE, e.g. --set target=30")
        out[name.strip()] = value.strip()
    return out
