"""The rules at the table (``/rules/{game}``): each game's rules doc (docs/rules/, ``registry.get(game).doc``) as a
page, served by the box, offline, to anyone (it holds nothing secret). Each section has a stable anchor, its
heading's words (Markdown's ``toc``), and so has each rule a bold lead names (**Pop up.**: ``pop-up``) and each
**molebox decision**: ``decision-`` and the first words it decides (a decisions table's rows: their question's),
for a turn's sentence to open the clause behind it (:mod:`companion.render.clauses`).
"""
from __future__ import annotations

import functools
import html
import xml.etree.ElementTree as ET

import markdown
from aiohttp import web
from markdown.extensions import Extension
from markdown.extensions.toc import slugify, unique
from markdown.treeprocessors import Treeprocessor

from companion.render.how import ROOT
from rules import registry

from .auth import refuse
from .site import STATIC, Site

DECISION = "molebox decision"
WORDS = 5                   # a decision's anchor: this many of its first words


def _anchor(text: str, ids: set) -> str:
    """``decision-`` and the first words of ``text``, unique in the page."""
    words = text.lower().replace(DECISION, "", 1).split()[:WORDS]
    return unique("decision-" + slugify(" ".join(words), "-"), ids)


class _Clauses(Treeprocessor):
    """Gives each rule its anchor: a rule's bold lead (**Pop up.**: ``pop-up``), and each **molebox decision**, by the
    bold words that mark it or a decisions table's row; leaves out the docs' pictures."""

    def run(self, root: ET.Element) -> None:
        for parent in list(root.iter()):                # the docs' pictures are the maker's screens, not served
            for picture in parent.findall("img"):
                parent.remove(picture)
        ids = {el.get("id") for el in root.iter() if el.get("id")}
        blocks = list(root)
        first = next((i for i, block in enumerate(blocks) if block.tag == "h2"), len(blocks))
        for block in blocks[first:]:                    # the doc's opening only says what the mark means
            for parent in block.iter():
                for i, child in enumerate(parent):
                    if child.tag != "strong":
                        continue
                    said = "".join(child.itertext())
                    if said.lower().startswith(DECISION):
                        child.set("id", _anchor(said + (child.tail or "") + " ".join(
                            "".join(el.itertext()) + (el.tail or "") for el in list(parent)[i + 1:]), ids))
                    elif i == 0 and parent.tag in ("p", "li") and not (parent.text or "").strip():
                        child.set("id", unique(slugify(said, "-"), ids))
            for table in block.iter("table"):
                if DECISION in [" ".join(cell.itertext()).lower() for cell in table.iter("th")]:
                    for row in table.iterfind("tbody/tr"):
                        row.set("id", _anchor(" ".join(row[0].itertext()), ids))


class _ClausesExtension(Extension):
    def extendMarkdown(self, md):
        md.treeprocessors.register(_Clauses(md), "molebox-clauses", 4)     # after toc's (5): its ids are known


@functools.cache
def page(game: str) -> str:
    """The game's rules doc as a whole page (made once: the docs change with the box)."""
    text = (ROOT / registry.get(game).doc).read_text()
    body = markdown.markdown(text, extensions=["toc", "tables", "fenced_code", _ClausesExtension()])
    title = text.partition("\n")[0].lstrip("# ")
    return (STATIC / "rules.html").read_text().replace("{{title}}", html.escape(title)).replace("{{doc}}", body)


def routes(site: Site) -> list[web.RouteDef]:
    async def rules(request: web.Request) -> web.Response:
        game = request.match_info["game"]
        if game not in registry.ids():
            raise refuse(web.HTTPNotFound, f"no rules for {game[:30]!r}; games: {', '.join(registry.ids())}")
        return web.Response(text=page(game), content_type="text/html", headers={"Cache-Control": "no-cache"})

    return [web.get("/rules/{game}", rules)]
