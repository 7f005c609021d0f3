"""What the stripboard, Pico and breadboard drawings share: the SVG root, its labels, and the finished document."""
from __future__ import annotations

import xml.etree.ElementTree as ET

from . import textwidth

FONT = 11


def root() -> ET.Element:
    """An empty drawing in the font the drawings name (its size set by ``finish``)."""
    return ET.Element("svg", xmlns="http://www.w3.org/2000/svg", **{"font-family": textwidth.FONT_FAMILY,
                                                                    "font-size": str(FONT)})


def finish(node: ET.Element, width: float, height: float) -> str:
    """The drawing sized ``width`` x ``height`` on a white ground, as an SVG document."""
    node.set("width", f"{width:g}")
    node.set("height", f"{height:g}")
    node.set("viewBox", f"0 0 {width:g} {height:g}")
    node.insert(0, ET.Element("rect", width="100%", height="100%", fill="#ffffff"))
    ET.indent(node)
    return ET.tostring(node, encoding="unicode", xml_declaration=True) + "\n"


def text(parent: ET.Element, x: float, y: float, text: str, size: float = FONT, anchor: str = "start",
         bold: bool = False, fill: str | None = None) -> ET.Element:
    node = ET.SubElement(parent, "text", x=f"{x:g}", y=f"{y:g}", **{"text-anchor": anchor, "font-size": f"{size:g}"})
    if bold:
        node.set("font-weight", "bold")
    if fill:
        node.set("fill", fill)
    node.text = text
    return node
