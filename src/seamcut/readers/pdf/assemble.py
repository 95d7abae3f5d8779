"""The pages of a PDF put together into one ``Document``: furniture set aside, headings ranked
and classified across the document, each block added as its element."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from ...model import Document
from ..builder import DocumentBuilder, LineBox, Rect
from .blocks import Block, Segment, enclosing
from .classify import NUMBERED, Kind, classify_all, number_labels, numbered_level, run_in_heading
from .furniture import furniture, is_page_number, line_number_blocks
from .headings import HeadingScale, body_size, heading_scale
from .hyphenation import join_line_spans, vocabulary
from .markers import strip_glyph_bullet
from .page import Key, Page
from .tags import drop_paragraph_only_tags
from .words import Word


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
    #: every word of the document's text blocks, counted (``hyphenation.vocabulary``)
    words: Mapping[str, int]


def assemble(path: Path, pages: list[Page]) -> Document:
    """The document of ``pages`` (read from ``path``), with its fields: format, extractor (the
    one most pages used), pages, page_extractors, body_font_size (pt), title, page_notes and
    page_sizes; each element's box and its lines' boxes where the page's extractor gives them."""
    roles = _roles(pages)
    builder = DocumentBuilder(str(path))
    title = None
    for pi, pg in enumerate(pages):
        builder.new_page(pg.number)
        meta = {"extractor": pg.extractor}
        for kind, text, m in pg.plain:
            m = dict(m)
            lines = m.pop("lines", None)  # OCR's word boxes: (start, end, box) in ``text``
            builder.add(kind, text, page=pg.number, metadata={**meta, **m},
                        lines=_clipped(pg, lines) if lines else None)
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
    words = vocabulary(line for pg in pages for b in pg.blocks for line in b.lines)
    return _Roles(furn, line_numbers, kinds, labels, set(labels.values()), scale, words)


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
        rows = b.rows or []
        row_boxes = ([_clip(pg, *r) for r in b.row_boxes]
                     if b.row_boxes is not None and len(b.row_boxes) == len(rows) else None)
        builder.add_table(rows, header_rows=b.header_rows, page=pg.number, metadata=meta,
                          row_boxes=row_boxes, bbox=_block_box(pg, b))
        return None
    if key in roles.numbers:
        return None  # a section number, written in front of its heading
    runin = run_in_heading(b)
    if runin:
        head, rest, k = runin
        num = NUMBERED.match(head)
        bold_level = roles.scale.bold_level
        lvl = numbered_level(num.group(1), bold_level) if num else min(6, bold_level)
        first = b.segments[0].words
        builder.add("heading", head, level=lvl, page=pg.number, metadata={**meta, "run_in": True},
                    lines=[(0, len(head), *_words_box(pg, first[:k]))] if k else None)
        boxes = [_words_box(pg, first[k:])] + [_seg_box(pg, s) for s in b.segments[1:]]
        text, lines = _joined(rest, boxes, roles.words)
        builder.add("paragraph", text, page=pg.number, metadata=meta, lines=lines)
        return None
    kind, level = roles.kinds[key]
    if level is not None:
        level = max(1, min(6, level))
    m = dict(meta)
    text, lines = _joined(b.lines, [_seg_box(pg, s) for s in b.segments], roles.words)
    if kind == "list_item":
        bare, marker = strip_glyph_bullet(text)
        if marker:
            m["marker"] = marker
        builder.add("list_item", bare, page=pg.number, metadata=m,
                    lines=_moved(lines, len(bare) - len(text)))
        return None
    if key in roles.labels:
        label_block = pg.blocks[roles.labels[key][1]]
        label = " ".join(label_block.lines)
        lines = [(0, len(label), *_block_box(pg, label_block))] + _moved(lines, len(label) + 1)
        text = label + " " + text
    el = builder.add(kind, text, level=level, page=pg.number, metadata=m, lines=lines)
    return text if kind == "title" and el is not None else None


def _seg_box(pg: Page, s: Segment) -> Rect:
    return _clip(pg, s.x0, s.top, s.x1, s.bottom)


def _block_box(pg: Page, b: Block) -> Rect:
    return _clip(pg, b.x0, b.top, b.x1, b.bottom)


def _words_box(pg: Page, words: list[Word]) -> Rect | None:
    return _clip(pg, *enclosing(words)) if words else None


def _joined(texts: list[str], boxes: list[Rect | None], words: Mapping[str, int]) -> tuple[str, list[LineBox]]:
    """The lines ``texts`` joined (``join_line_spans``, the document's ``words`` telling
    compounds from hyphenated words), each line's span with its box (a line that adds no text
    has none)."""
    text, spans = join_line_spans(texts, words)
    return text, [(span[0], span[1], *box) for span, box in zip(spans, boxes) if span and box]


def _moved(lines: list[LineBox], by: int) -> list[LineBox]:
    """``lines`` with their spans moved by ``by`` code points (text cut or put in front)."""
    return [(a + by, b + by, *box) for a, b, *box in lines]


def _clip(pg: Page, x0: float, top: float, x1: float, bottom: float) -> Rect:
    """A box cut to the page (text drawn past its edge is not on the rendered page)."""
    w, h = pg.width, pg.height
    return (min(max(x0, 0.0), w), min(max(top, 0.0), h), min(max(x1, 0.0), w),
            min(max(bottom, 0.0), h))


def _clipped(pg: Page, lines: list[LineBox]) -> list[LineBox]:
    return [(a, b, *_clip(pg, *box)) for a, b, *box in lines]


def _fields(pages: list[Page], body: float, title: str | None) -> dict[str, Any]:
    extractors = [pg.extractor for pg in pages]
    used = [e for e in extractors if e != "none"]
    fields: dict[str, Any] = {"format": "pdf", "extractor": Counter(used).most_common(1)[0][0] if used else "none",
                              "pages": len(pages), "page_extractors": extractors, "body_font_size": body}
    if title:
        fields["title"] = title
    fields["page_sizes"] = [[round(pg.width, 1), round(pg.height, 1)] for pg in pages]
    notes = {pg.number: pg.notes for pg in pages if pg.notes}
    if notes:
        fields["page_notes"] = notes
    return fields
