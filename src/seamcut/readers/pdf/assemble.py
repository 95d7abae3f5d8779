"""The pages of a PDF put together into one ``Document``: furniture set aside, headings ranked
and classified across the document, each block added as its element."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...model import Document
from ..builder import DocumentBuilder
from .blocks import Block
from .classify import NUMBERED, Kind, classify_all, number_labels, numbered_level, run_in_heading
from .furniture import furniture, is_page_number, line_number_blocks
from .headings import HeadingScale, body_size, heading_scale
from .hyphenation import join_lines
from .markers import strip_glyph_bullet
from .page import Key, Page
from .tags import drop_paragraph_only_tags


@dataclass(frozen=True)
class _Roles:
    """What the document-wide passes found each block to be."""
    furniture: set[Key]
    line_numbers: set[Key]
    kinds: dict[Key, Kind]
    #: heading -> the block holding its section number, set apart from it
    labels: dict[Key, Key]
    #: the blocks in ``labels``' values: written in front of their heading, not on their own
    numbers: set[Key]
    scale: HeadingScale


def assemble(path: Path, pages: list[Page]) -> Document:
    """The document of ``pages`` (read from ``path``), with its fields: format, extractor (the
    one most pages used), pages, page_extractors, body_font_size (pt), title and page_notes."""
    roles = _roles(pages)
    builder = DocumentBuilder(str(path))
    title = None
    for pi, pg in enumerate(pages):
        builder.new_page(pg.number)
        meta = {"extractor": pg.extractor}
        for kind, text, m in pg.plain:
            builder.add(kind, text, page=pg.number, metadata={**meta, **m})
        for bi, b in enumerate(pg.blocks):
            got = _add_block(builder, pg, (pi, bi), b, roles, meta)
            if title is None:
                title = got
    return builder.build(**_fields(pages, roles.scale.body, title))


def _roles(pages: list[Page]) -> _Roles:
    drop_paragraph_only_tags([b for pg in pages for b in pg.blocks])
    body = body_size(pages)
    line_numbers = {(pi, bi) for pi, pg in enumerate(pages) for bi in line_number_blocks(pg.blocks)}
    furn = furniture(pages, body) | line_numbers
    scale = heading_scale(pages, furn, body)
    kinds = classify_all(pages, furn, scale)
    labels = number_labels(pages, furn, kinds)
    return _Roles(furn, line_numbers, kinds, labels, set(labels.values()), scale)


def _add_block(builder: DocumentBuilder, pg: Page, key: Key, b: Block, roles: _Roles,
               meta: dict[str, Any]) -> str | None:
    """Add one block as furniture or its element(s); returns its text where it is the title."""
    if key in roles.furniture:
        text = " ".join(b.lines)
        kind = "line_number" if key in roles.line_numbers else "page_number" if is_page_number(
            text) else ("page_header" if b.top < pg.height / 2 else "page_footer")
        builder.add_furniture(kind, text, pg.number)
        return None
    if b.kind == "table":
        builder.add_table(b.rows or [], header_rows=b.header_rows, page=pg.number, metadata=meta)
        return None
    if key in roles.numbers:
        return None  # a section number, written in front of its heading
    runin = run_in_heading(b)
    if runin:
        head, rest = runin
        num = NUMBERED.match(head)
        bold_level = roles.scale.bold_level
        lvl = numbered_level(num.group(1), bold_level) if num else min(6, bold_level)
        builder.add("heading", head, level=lvl, page=pg.number, metadata={**meta, "run_in": True})
        builder.add("paragraph", join_lines(rest), page=pg.number, metadata=meta)
        return None
    kind, level = roles.kinds[key]
    if level is not None:
        level = max(1, min(6, level))
    m = dict(meta)
    if kind == "list_item":
        text, marker = strip_glyph_bullet(join_lines(b.lines))
        if marker:
            m["marker"] = marker
        builder.add("list_item", text, page=pg.number, metadata=m)
        return None
    text = join_lines(b.lines)
    if key in roles.labels:
        text = " ".join(pg.blocks[roles.labels[key][1]].lines) + " " + text
    el = builder.add(kind, text, level=level, page=pg.number, metadata=m)
    return text if kind == "title" and el is not None else None


def _fields(pages: list[Page], body: float, title: str | None) -> dict[str, Any]:
    extractors = [pg.extractor for pg in pages]
    used = [e for e in extractors if e != "none"]
    fields: dict[str, Any] = {"format": "pdf", "extractor": Counter(used).most_common(1)[0][0] if used else "none",
                              "pages": len(pages), "page_extractors": extractors, "body_font_size": body}
    if title:
        fields["title"] = title
    notes = {pg.number: pg.notes for pg in pages if pg.notes}
    if notes:
        fields["page_notes"] = notes
    return fields
