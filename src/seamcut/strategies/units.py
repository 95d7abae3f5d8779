"""The structure pass: a document as sections of units, each unit with its packing rule as data.

A unit is what the packer keeps whole where it can: a heading, a paragraph, a whole table, a whole
list. Its rule says what happens to it:

- ``ATTACH`` (titles and headings): opens the chunk of what follows; never a chunk of its own.
- ``ROWS`` (a table with header rows and at least two body rows): where too long, split between
  rows, the header rows repeated as context on every piece after the first.
- ``ITEMS`` (a list): where too long, split between items, its lead-in line as context.
- ``PROSE`` (anything else): where too long, split by the recursive levels.

A section is a run of units from a heading (or the document's start) to the next heading that
follows text; a document without elements (plain text) is one section of paragraphs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..model import Document, Element
from ..outline import Outline
from ..text import paragraph_spans
from ..text.space import strip_space

ATTACH, ROWS, ITEMS, PROSE = "attach", "rows", "items", "prose"

HEADING_KINDS = ("title", "heading")


@dataclass(frozen=True, slots=True)
class Unit:
    """``[start, end)`` of the document (code points) packed by ``rule``. ``parts``: for ``ROWS``
    the end of each body row, for ``ITEMS`` the end of each item (where a piece may end).
    ``head``: the context each piece repeats (``ROWS``: the header rows as written; ``ITEMS``: the
    lead-in line), with its line break, or empty."""

    kind: str
    start: int
    end: int
    rule: str
    parts: tuple[int, ...] = ()
    head: str = ""


@dataclass(frozen=True, slots=True)
class Section:
    """``path``: the heading path of the section's text; ``parent``: the path it sits under
    (``path`` without the section's own heading where it opens with one)."""

    start: int
    end: int
    path: tuple[str, ...]
    parent: tuple[str, ...]
    units: tuple[Unit, ...]


def sections(doc: Document, outline: Outline) -> list[Section]:
    """The document's sections, in order."""
    els = list(doc.elements) or [
        Element("paragraph", a, b) for a, b in paragraph_spans(doc.text)]
    out: list[Section] = []
    current: list[Element] = []

    def close() -> None:
        if not current:
            return
        # the path of the section's own text: under the last of the headings that open it
        body = next((e for e in current if e.kind not in HEADING_KINDS), current[-1])
        path = outline.path_at(body.start)
        head = current[0].kind in HEADING_KINDS
        out.append(Section(current[0].start, current[-1].end, path, path[:-1] if head else path,
                           tuple(units(doc, current))))
        current.clear()

    for el in els:
        if el.kind in HEADING_KINDS and any(e.kind not in HEADING_KINDS for e in current):
            close()
        current.append(el)  # a heading with nothing under it yet joins the next one's section
    close()
    return out


def units(doc: Document, els: list[Element]) -> list[Unit]:
    """Elements as units: neighbouring list items become one list (with the line before it as
    lead-in where that is one line ending in a colon), a table with header rows keeps its rows."""
    out: list[Unit] = []
    for el in els:
        prev = out[-1] if out else None
        if el.kind == "list_item" and prev is not None and prev.kind == "list":
            out[-1] = Unit("list", prev.start, el.end, ITEMS, (*prev.parts, el.end), prev.head)
        elif el.kind == "list_item":
            lead = ""
            if prev is not None and prev.kind == "paragraph":
                line = strip_space(doc.text[prev.start:prev.end])
                if line.endswith(":") and "\n" not in line:
                    lead = line + "\n"
            out.append(Unit("list", el.start, el.end, ITEMS, (el.end,), lead))
        elif el.kind == "table":
            out.append(_table(doc, el))
        else:
            out.append(Unit(el.kind, el.start, el.end, ATTACH if el.kind in HEADING_KINDS else PROSE))
    return out


def _table(doc: Document, el: Element) -> Unit:
    rows = el.metadata.get("row_spans") or []
    header_rows = int(el.metadata.get("header_rows", 0) or 0)
    if len(rows) <= header_rows + 1 or header_rows == 0:
        return Unit("table", el.start, el.end, PROSE)
    head = "\n".join(doc.text[a:b] for a, b in rows[:header_rows]) + "\n"
    return Unit("table", el.start, el.end, ROWS, tuple(b for _, b in rows[header_rows:]), head)


def merge_siblings(secs: list[Section], fits: Callable[[int, int, tuple[str, ...]], bool]
                   ) -> list[Section]:
    """Join neighbouring sections under the same parent heading while ``fits(start, end,
    parent)`` says the joined text fits under that parent's path."""
    out: list[Section] = []
    for sec in secs:
        prev = out[-1] if out else None
        if (prev is not None and prev.parent == sec.parent and prev.parent
                and fits(prev.start, sec.end, prev.parent)):
            out[-1] = Section(prev.start, sec.end, prev.parent, prev.parent, prev.units + sec.units)
            continue
        out.append(sec)
    return out
