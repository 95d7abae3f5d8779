"""Furniture: running headers and footers, page numbers and margin line numbers, found across
the document's pages and kept out of its text (kept in its metadata, ``furniture``).

A header or footer is found first from what the producer says: text drawn inside a pagination
artifact (``artifacts``; Word and LibreOffice mark running headers and footers so) is furniture on
any page, whatever its size or position. Then by repetition (the same line in the top or bottom
band of many pages), and, where repetition cannot tell (a one-page document, a footer on one page
only), by position: one line in the margin band, outside the body's text block (set apart from
it), in type no larger than the body's (a title in the band is larger).

Clip regions say nothing here: a producer could draw its headers and footers clipped to their own
region, but of the text objects of the shared test PDFs and the helpline example none has a clip
path within the band (WeasyPrint's margin boxes have an empty one), so the reader does not look.
"""
from __future__ import annotations

import re
from collections import Counter
from typing import Sequence

from .blocks import Block, same_line
from .page import Key, Page

#: share of the page height counted as the top/bottom band where running headers/footers sit
BAND = 0.09
#: a line set apart as furniture is set in type at most this share of the body size: a footer in
#: the body's own type is furniture too ("I Am A Footer" in 11 pt under 11 pt paragraphs); a
#: larger line in the band is a title or a heading
AT_MOST = 1.1
#: and stands at least this many of its own line heights from the nearest body text
APART = 2.0


def furniture(pages: list[Page], body: float = 10.0) -> set[Key]:
    """The blocks that are running headers/footers or page numbers. A block drawn in a pagination
    artifact is (``marked_pagination``); a number set at 1.5 times the body size (``body``, pt) or
    more is a chapter number, not a page number; a one-line block in the band on the page
    number's line is a footer (or header); so is one line in the band set apart from the body
    (``set_apart``), on any page. A one-line block that ends (or starts) a page outside the band
    is furniture only where it repeats (a footer set right under a short page's text, as Apple's
    10-Qs place "Apple Inc. | Q3 2023 Form 10-Q | 5"), on three pages at least."""
    cands = _band_blocks(pages)
    counts = _pages_repeating(cands)
    n = len(pages)
    out = {(pi, bi) for pi, pg in enumerate(pages) for bi, b in enumerate(pg.blocks) if marked_pagination(b)}
    for pi, bi, band, text, edge in cands:
        c = counts[(band, furniture_key(text))]
        repeats = n >= 2 and c >= (3 if edge else 2) and c >= 0.4 * n
        if edge:
            if repeats:
                out.add((pi, bi))
            continue
        number = is_page_number(text) and pages[pi].blocks[bi].size < 1.5 * body
        if number or repeats or set_apart(pages[pi], bi, body):
            out.add((pi, bi))
    for pi, bi, band, text, edge in cands:  # outside the band, a title beside the number stays
        b = pages[pi].blocks[bi]
        if not edge and (pi, bi) not in out and len(b.segments) == 1 and any(
                (pi, oi) in out and is_page_number(" ".join(o.lines)) and same_line(b, o)
                for oi, o in enumerate(pages[pi].blocks)):
            out.add((pi, bi))
    return out


def marked_pagination(b: Block) -> bool:
    """Whether every word of text block ``b`` is drawn inside a pagination artifact: a running
    header or footer as the PDF's producer marks it."""
    return b.kind != "table" and bool(b.segments) and all(w.pagination for s in b.segments for w in s.words)


def set_apart(pg: Page, bi: int, body: float) -> bool:
    """Whether block ``bi`` of ``pg`` is a header or footer by position alone: one line, in the
    top or bottom band (``BAND``), in type no larger than the body's (``AT_MOST`` of ``body``, pt),
    at least ``APART`` of its line heights from every other text block above it (a footer) or
    below it (a header), with body text on the page."""
    b = pg.blocks[bi]
    if b.kind == "table" or len(b.segments) != 1 or not 0 < b.size <= AT_MOST * body:
        return False
    footer, header = b.top >= pg.height * (1 - BAND), b.bottom <= pg.height * BAND
    if not (footer or header):
        return False
    others = [o for oi, o in enumerate(pg.blocks) if oi != bi and not same_line(b, o)]
    if not others:
        return False  # the page's only text is no furniture
    room = APART * (b.bottom - b.top)
    if footer:
        return all(b.top - o.bottom >= room for o in others if o.top < b.top)
    return all(o.top - b.bottom >= room for o in others if o.bottom > b.bottom)


def _band_blocks(pages: list[Page]) -> list[tuple[int, int, str, str, bool]]:
    """(page index, block index, "top" or "bottom", text, edge) of the short text blocks (up to
    two lines, or one line in any number of parts) in the top or bottom band of a page, or on its
    first or last line; ``edge``: a one-line block that is only the page's first or last line,
    outside the top or bottom fifth of the page."""
    cands: list[tuple[int, int, str, str, bool]] = []
    for pi, pg in enumerate(pages):
        text_blocks = [b for b in pg.blocks if b.kind != "table"]
        if not text_blocks:
            continue
        # the blocks on the first and last line of the page count even outside the band
        first_top = min(b.top for b in text_blocks)
        last_bottom = max(b.bottom for b in text_blocks)
        for bi, b in enumerate(pg.blocks):
            if b.kind == "table" or len(b.segments) > 2 and not _one_line(b):
                continue
            edge = False
            if b.bottom <= pg.height * BAND or (b.top <= first_top + 2 and b.bottom < pg.height * 0.2):
                band = "top"
            elif b.top >= pg.height * (1 - BAND) or (b.bottom >= last_bottom - 2 and b.top > pg.height * 0.8):
                band = "bottom"
            elif _one_line(b) and (b.top <= first_top + 2 or b.bottom >= last_bottom - 2):
                band, edge = ("top" if b.top <= first_top + 2 else "bottom"), True
            else:
                continue
            cands.append((pi, bi, band, " ".join(b.lines), edge))
    return cands


def _one_line(b: Block) -> bool:
    """Whether the segments of ``b`` stand on one line (a footer set in three parts, "Apple Inc. |
    Q3 2023 Form 10-Q | 5", left, centre and right)."""
    return all(same_line(s, b.segments[0]) for s in b.segments[1:])


def _pages_repeating(cands: list[tuple[int, int, str, str, bool]]) -> Counter[tuple[str, str]]:
    """(band, furniture key) -> on how many pages it stands."""
    counts: Counter[tuple[str, str]] = Counter()
    seen: set[tuple[int, str, str]] = set()
    for pi, _, band, text, _ in cands:
        k = (band, furniture_key(text))
        if (pi, *k) not in seen:
            seen.add((pi, *k))
            counts[k] += 1
    return counts


_PAGE_NO = re.compile(r"^\s*(?:page\s+|p\.\s*|-\s*)?((?:[A-Z]?\d{1,3}[-\u2013.])?\d{1,4}|[ivxlcdm]{1,6})(?:\s*(?:of|/)\s*\d{1,4})?\s*-?\s*$", re.I)


def furniture_key(text: str) -> str:
    """A line's text modulo digits, case and spacing (running headers carry page numbers)."""
    return re.sub(r"\d+", "#", " ".join(text.lower().split()))


def is_page_number(text: str) -> bool:
    return bool(_PAGE_NO.match(text))


def line_number_blocks(blocks: Sequence[Block]) -> set[int]:
    """Indices of the blocks that are a margin column of line numbers (transcripts, legal
    pleadings): at least five one-line blocks holding just a number, aligned on one edge, counting
    up by one from top to bottom, beside (never under or over) the text."""
    cands = [(i, b) for i, b in enumerate(blocks) if b.kind != "table" and len(b.segments) == 1
             and re.fullmatch(r"\d{1,3}", b.segments[0].text.strip())]
    if len(cands) < 5:
        return set()
    groups: dict[int, list[tuple[int, Block]]] = {}
    for i, b in cands:
        groups.setdefault(round(b.x1 / 4), []).append((i, b))
    col = max(groups.values(), key=len)
    if len(col) < 5:
        return set()
    col.sort(key=lambda ib: ib[1].top)
    vals = [int(b.segments[0].text) for _, b in col]
    steps = sum(1 for a, b in zip(vals, vals[1:]) if b == a + 1)
    if steps < 0.8 * (len(vals) - 1):
        return set()
    ids = {i for i, _ in col}
    x0, x1 = min(b.x0 for _, b in col), max(b.x1 for _, b in col)
    others = [b for i, b in enumerate(blocks) if i not in ids]
    if any(min(b.x1, x1) - max(b.x0, x0) > 0 for b in others):
        return set()  # text above or below the numbers: not a margin
    return ids

