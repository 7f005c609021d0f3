"""Whether an object offers a ``typing.Protocol``, name for name and parameter for parameter: the problems, in words."""
from __future__ import annotations

import inspect
from typing import get_type_hints


def members(protocol: type) -> dict[str, object]:
    """The protocol's own methods and properties (by name), and its attributes (by name, their hint)."""
    own = {name: value for klass in reversed(protocol.__mro__) if klass not in (object,) and klass.__module__ != "typing"
           for name, value in vars(klass).items() if not name.startswith("_")}
    hints = {name: hint for name, hint in get_type_hints(protocol).items() if not name.startswith("_")}
    return {**hints, **own}


def problems(obj, protocol: type) -> list[str]:
    """What ``obj`` lacks of ``protocol``: a missing name, or a method whose parameters differ."""
    out = []
    for name, wanted in members(protocol).items():
        if not hasattr(obj, name):
            out.append(f"no {name}")
            continue
        if inspect.isfunction(wanted):
            given = getattr(obj, name)
            if not callable(given):
                out.append(f"{name} is not callable")
                continue
            expected = [p for p in inspect.signature(wanted).parameters if p != "self"]
            actual = list(inspect.signature(given).parameters)
            if actual != expected:
                out.append(f"{name}{tuple(actual)}, not {name}{tuple(expected)}")
    return out
