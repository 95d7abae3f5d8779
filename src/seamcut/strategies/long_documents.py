"""A long document chunked a window at a time, so memory is bounded by the window, not by the
document's length.

A document longer than ``WINDOW_CHARS`` code points is cut into windows of at most that many
code points, each cut at the strongest boundary in the second half of its window: before a
heading, else between two elements (paragraphs, tables, lists), else at a blank line, a line
break, a sentence end, clause punctuation or whitespace (``RECURSIVE_LEVELS``), and only where a
window holds none of these (half a million characters without a space) at a character. Each
window is chunked on its own as a ``Window`` (a ``Document`` holding the window's text, its
elements and pages shifted, and the whole document's outline, so heading paths and languages are
those of the whole document); its chunks' offsets are then shifted back to the document's, and
their ids computed for those offsets, so they are the ids the same spans get in a whole run.

No chunk crosses a window border: what the strategy would have joined across it is two chunks,
the first chunk after a border has no overlap with the chunk before it, and fixed-size counting,
semantic thresholds (percentiles of the window's distances) and sibling merging start again in
every window. Where a border falls where the strategy cuts anyway (a heading for ``structure``,
a paragraph break between chunks), windowed and whole runs give the same chunks.
"""
from __future__ import annotations

import dataclasses
from bisect import bisect_left, bisect_right
from itertools import accumulate
from typing import Callable, Iterator, Sequence

from ..model import Chunk, Document, Element
from ..outline import Outline
from .chunks import chunk_id
from .levels import RECURSIVE_LEVELS, space_start
from .units import HEADING_KINDS
from .window_outline import Window

#: a document longer than this many code points (characters) is chunked in windows of at most
#: this many: a window's text (1 to 4 bytes a code point) and its token measure (e5: about 40 MB
#: for a million characters of prose) are what a window holds beside the document
WINDOW_CHARS = 1_000_000


def borders(doc: Document, width: int = WINDOW_CHARS) -> list[int]:
    """Where the windows of ``doc`` start after the first (code points): each within ``width``
    of the one before, at the strongest boundary in the second half of that reach."""
    text, n = doc.text, len(doc.text)
    els = doc.elements
    # sections open at a heading after text (a run of headings opens one section)
    heads = sorted(e.start for i, e in enumerate(els) if e.kind in HEADING_KINDS
                   and (i == 0 or els[i - 1].kind not in HEADING_KINDS))
    blocks = sorted(e.start for e in els)
    out: list[int] = []
    a = 0
    while n - a > width:
        lo, hi = a + width // 2, a + width
        cut = (_last_before(text, heads, lo, hi) or _last_before(text, blocks, lo, hi)
               or _last_level_cut(text, lo, hi, doc.language) or hi)
        out.append(cut)
        a = cut
    return out


def _last_before(text: str, starts: Sequence[int], lo: int, hi: int) -> int | None:
    """The cut before the last of ``starts`` in ``(lo, hi]``: where the whitespace before it
    starts (None where there is none, or the cut would not be past ``lo``)."""
    for i in range(bisect_right(starts, hi) - 1, bisect_left(starts, lo) - 1, -1):
        cut = space_start(text, starts[i], lo)
        if cut > lo:
            return cut
    return None


def _last_level_cut(text: str, lo: int, hi: int, language: str | None) -> int | None:
    """The last cut in ``(lo, hi)`` at the biggest break of ``RECURSIVE_LEVELS`` found there."""
    for level in RECURSIVE_LEVELS:
        cuts = level.cuts(text, lo, hi, language)
        if cuts:
            return cuts[-1]
    return None


def windows(doc: Document, width: int = WINDOW_CHARS) -> Iterator[Window]:
    """``doc`` as ``Window``s of at most ``width`` code points, cut at ``borders``, made one at
    a time (only the current window's text is held beside the document's)."""
    outline = Outline(doc)
    bounds = [0, *borders(doc, width), len(doc.text)]
    els = doc.elements
    reach = list(accumulate((e.end for e in els), max))  # elements come in order of start
    for a, b in zip(bounds, bounds[1:]):
        inside = []
        for e in els[bisect_right(reach, a):]:
            if e.start >= b:
                break
            if e.end > a:
                inside.append(_shift(e, a, b))
        yield Window(text=doc.text[a:b], source=doc.source, id=doc.id, elements=tuple(inside),
                     page_starts=tuple(p - a for p in doc.page_starts), language=doc.language,
                     metadata=doc.metadata, offset=a, outline=outline)


def _shift(el: Element, a: int, b: int) -> Element:
    """``el`` in a window ``[a, b)``'s offsets; one that crosses a border is cut there, without
    its metadata (a table's row offsets, a heading's own text), so it is packed as prose, but
    with its boxes (``bbox``, and ``lines`` in the whole document's offsets: what
    ``seamcut.boxes.LineIndex`` reads)."""
    if a <= el.start and el.end <= b:
        meta = el.metadata
        if "row_spans" in meta:
            meta = {**meta, "row_spans": [(s - a, e - a) for s, e in meta["row_spans"]]}
        return dataclasses.replace(el, start=el.start - a, end=el.end - a, metadata=meta)
    kind = "paragraph" if el.kind in HEADING_KINDS else el.kind
    return dataclasses.replace(el, kind=kind, start=max(el.start, a) - a, end=min(el.end, b) - a,
                               level=None, metadata={k: v for k, v in el.metadata.items()
                                                     if k in ("bbox", "lines")})


def shifted(chunks: list[Chunk], window: Window) -> list[Chunk]:
    """A window's chunks in the whole document's offsets, with the ids those spans have there
    (``parent_id``s follow their parents)."""
    off = window.offset
    if not off:
        return chunks
    ids: dict[str, str] = {}
    out = []
    for c in chunks:
        a, b = c.start + off, c.end + off
        ids[c.id] = new = chunk_id(c.doc_id, a, b, c.metadata["config"], c.text)
        out.append(dataclasses.replace(c, id=new, start=a, end=b,
                                       parent_id=ids.get(c.parent_id, c.parent_id)
                                       if c.parent_id else None))
    return out


def chunk_windows(doc: Document, strategy: Callable[[Document, object], list[Chunk]],
                  config: object, width: int = WINDOW_CHARS) -> Iterator[Chunk]:
    """``strategy``'s chunks of ``doc``: of the whole document where it holds at most ``width``
    code points, else of each window in turn (offsets and ids of the whole document)."""
    if len(doc.text) <= width:
        yield from strategy(doc, config)
        return
    for window in windows(doc, width):
        yield from shifted(strategy(window, config), window)
