"""The web panel uses the box through one port (:class:`companion.web.box.Box`), and nothing else of the session.

Read from the web's own code: every attribute it asks of the box is one the port declares, and it names no
part of the session (its table, keeper, lamps, screens, hardware). The session's port offers the whole
:class:`~companion.web.box.Box`, name for name and parameter for parameter.
"""
from __future__ import annotations

import ast
from pathlib import Path

from companion.port import WebPort
from companion.web.box import Box
from tests.conforms import members, problems

WEB = Path(__file__).parents[2] / "companion" / "web"


def _ends_in_box(node: ast.AST) -> bool:
    return isinstance(node, ast.Name) and node.id == "box" or isinstance(node, ast.Attribute) and node.attr == "box"


def uses(path: Path) -> tuple[set[str], set[str]]:
    """What the module asks of the box, and every name it spells that is a part of the session."""
    asked, parts = set(), set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Attribute) and _ends_in_box(node.value):
            asked.add(node.attr)
        if isinstance(node, ast.Attribute) and node.attr == "session" or isinstance(node, ast.Name) and node.id == "session":
            parts.add("session")
    return asked, parts


def test_the_web_asks_the_box_only_what_its_port_declares_and_names_no_part_of_the_session():
    declared = set(members(Box))
    found = {path.name: uses(path) for path in sorted(WEB.glob("*.py"))}
    assert any(asked for asked, _ in found.values()), "no use of the box found: a test that cannot fail"
    undeclared = {name: sorted(asked - declared) for name, (asked, _) in found.items() if asked - declared}
    assert not undeclared, f"the web asks the box for what its port does not declare: {undeclared}"
    assert not {name: parts for name, (_, parts) in found.items() if parts}


def test_the_session_s_port_offers_the_whole_box(box):
    port = WebPort(box.session)
    assert problems(port, Box) == []
    assert port.seats == 8 and "table" in port.displays and port.simulator is box.hw
