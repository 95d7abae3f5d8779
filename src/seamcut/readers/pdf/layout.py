"""Page layout: a page's words grouped into lines, split at column gutters and table gaps into
segments, unruled tables and tables of contents found, the rest grouped into blocks and put in
reading order (columns followed).

Pure functions on ``Word``, ``Segment`` and ``Block`` (no pdfplumber import), cheap to test.
Coordinates are PDF points with ``top`` growing downwards (pdfplumber's convention).
"""
from __future__ import annotations

import bisect
import heapq
import re
from typing import Any, Sequence

from .blocks import Block, Segment
from .markers import list_marker
from .text_tables import text_tables, toc_tables
from .words import Word


_BOLD = re.compile(r"bold|black|heavy|semibold|demi|,B\b|-B\b|\.B\b|(?:CM|SF|LM)BX|Bd\b|-Bd|Bd$", re.I)


_ITALIC = re.compile(r"italic|oblique|,I\b|-I\b|\bIt\b|-It\b", re.I)


def is_bold_font(fontname: str) -> bool:
    return bool(_BOLD.search(fontname or ""))


def is_italic_font(fontname: str) -> bool:
    return bool(_ITALIC.search(fontname or ""))


def make_lines(words: list[Word]) -> list[list[Word]]:
    """Group words into lines by vertical overlap (each line sorted left to right)."""
    ws = sorted(words, key=lambda w: (w.top, w.x0))
    lines: list[tuple[float, float, list]] = []  # (top, bottom, words) of open lines
    out: list[list[Word]] = []
    for w in ws:
        h = max(w.bottom - w.top, 0.1)
        placed = False
        for i in range(len(lines) - 1, max(-1, len(lines) - 4), -1):
            t, b, lw = lines[i]
            ov = min(b, w.bottom) - max(t, w.top)
            if ov > 0.5 * min(h, b - t):
                lw.append(w)
                lines[i] = (min(t, w.top), max(b, w.bottom), lw)
                placed = True
                break
        if not placed:
            lines.append((w.top, w.bottom, [w]))
    for _, _, lw in lines:
        lw.sort(key=lambda w: w.x0)
        out.append(lw)
    return out


def find_gutters(lines: list[list[Word]], width: float) -> list[tuple[float, float]]:
    """Vertical whitespace rivers: x ranges that many lines have a word gap over and (almost) no
    word crosses. Column gutters, even narrow ones, are such rivers; gaps in justified text are
    not aligned enough to make one."""
    w = int(width) + 2
    if w <= 2 or len(lines) < 4:
        return []
    gap = [0] * w
    cover = [0] * w
    for line in lines:
        for i, word in enumerate(line):
            a, b = max(0, int(word.x0)), min(w - 1, int(word.x1) + 1)
            for x in range(a, b):
                cover[x] += 1
            if i:
                prev = line[i - 1]
                size = max(prev.size or 10.0, word.size or 10.0)
                if word.x0 - prev.x1 > 0.35 * size:
                    for x in range(int(prev.x1) + 1, int(word.x0)):
                        if 0 <= x < w:
                            gap[x] += 1
    need = max(4, 0.15 * len(lines))
    out: list[tuple[float, float]] = []
    x = 0
    while x < w:
        if gap[x] >= need and cover[x] <= 0.12 * gap[x]:
            a = x
            while x < w and gap[x] >= need * 0.5 and cover[x] <= 0.12 * gap[x]:
                x += 1
            out.append((a, x))
        x += 1
    return out


_HANGING_NUMBER = re.compile(r"\(?\d{1,3}[.)]")


def split_segments(line: list[Word], gap_factor: float = 1.2,
                   gutters: Sequence[tuple[float, float]] = ()) -> list[Segment]:
    """Split one line at horizontal gaps wider than ``gap_factor`` times the font size (table
    columns), at gaps over a column gutter, and between a small label and large text set on
    the same baseline band ("Chapter 1." in front of a chapter title twice its size and more)."""
    segs: list[Segment] = []
    cur: list[Word] = []
    for w in line:
        if cur:
            a_size, b_size = cur[-1].size or 10.0, w.size or 10.0
            size = max(a_size, b_size)
            g0, g1 = cur[-1].x1, w.x0
            if len(cur) == 1 and _HANGING_NUMBER.fullmatch(cur[0].text) and g1 - g0 <= 2.5 * size:
                pass  # a hanging list number ("26.   If your ...") stays with its item
            elif g1 - g0 > gap_factor * size or (g1 - g0 > 0.35 * size and any(
                    min(g1, b) - max(g0, a) >= 0.5 * min(b - a, g1 - g0) for a, b in gutters)) or (
                    g1 - g0 > 0.2 * min(a_size, b_size) and size > 2.5 * min(a_size, b_size)):
                segs.append(_segment(cur))
                cur = []
        cur.append(w)
    if cur:
        segs.append(_segment(cur))
    return segs


def _segment(words: list[Word]) -> Segment:
    n = sum(len(w.text) for w in words) or 1
    # the size most characters have
    by: dict[float, int] = {}
    for w in words:
        k = round(float(w.size or 0.0) * 2) / 2
        by[k] = by.get(k, 0) + len(w.text)
    size = max(by.items(), key=lambda kv: kv[1])[0]
    bold = sum(len(w.text) for w in words if is_bold_font(w.fontname)) / n
    italic = sum(len(w.text) for w in words if is_italic_font(w.fontname)) / n
    return Segment(min(w.x0 for w in words), min(w.top for w in words),
                   max(w.x1 for w in words), max(w.bottom for w in words), words, size, bold,
                   italic)


def make_blocks(segments: list[Segment]) -> list[Block]:
    """Group segments into blocks: a segment continues a block whose last line is just above it,
    overlaps it horizontally and has the same size and weight; a list marker, a big vertical gap
    or a short last line ending a sentence starts a new block."""
    segs = sorted(segments, key=lambda s: (round(s.top, 1), s.x0))
    blocks: list[Block] = []
    open_: list[Block] = []
    for s in segs:
        best, best_gap = None, None
        marker = list_marker(s.text)
        for b in open_:
            last = b.segments[-1]
            gap = s.top - last.bottom
            size = max(s.size, last.size, 1.0)
            if gap < -0.3 * size or gap > 0.75 * size:
                continue
            ov = min(b.x1, s.x1) - max(b.x0, s.x0)
            if ov <= 0:
                continue
            if abs(s.size - b.size) > 0.6:
                continue
            if (b.bold > 0.9) != (s.bold > 0.9) or (b.italic > 0.9) != (s.italic > 0.9):
                continue
            if marker:
                continue
            # a short line ending a sentence ends its paragraph
            if (last.x1 < b.x1 - 4 * size and last.text.rstrip().endswith((".", ":", "!", "?"))
                    and len(b.segments) >= 1 and s.x0 >= b.x0 - 1):
                continue
            if best is None or gap < best_gap:
                best, best_gap = b, gap
        if best is not None:
            best.extend(s)
        else:
            b = Block(s.x0, s.top, s.x1, s.bottom, [s], size=s.size, bold=s.bold, italic=s.italic)
            blocks.append(b)
            open_.append(b)
        # drop blocks that nothing can continue any more
        open_ = [b for b in open_ if s.top - b.bottom <= 2 * max(b.size, 1.0)]
    for b in blocks:
        n = sum(len(x.text) for x in b.segments) or 1
        b.bold = sum(x.bold * len(x.text) for x in b.segments) / n
        b.italic = sum(x.italic * len(x.text) for x in b.segments) / n
    return blocks


def reading_order(blocks: Sequence[Any]) -> list[int]:
    """Order blocks (anything with x0, top, x1, bottom) for reading, after Breuel (2003): ``a``
    precedes ``b`` if they overlap horizontally and ``a`` is above, or if ``a`` is left of ``b``
    and no block lying vertically between them overlaps both horizontally (and, where ``b`` is
    wholly above ``a``, they stand in columns: ``_in_columns``). Topologically sorted,
    ties broken top-to-bottom, left-to-right."""
    n = len(blocks)
    if n <= 1:
        return list(range(n))
    succ: list[set[int]] = [set() for _ in range(n)]
    indeg = [0] * n
    x0 = [b.x0 for b in blocks]
    x1 = [b.x1 for b in blocks]
    top = [b.top for b in blocks]
    bottom = [b.bottom for b in blocks]
    by_top = sorted(range(n), key=lambda k: top[k])
    tops = [top[k] for k in by_top]

    for i in range(n):
        ax0, ax1 = x0[i], x1[i]
        for j in range(n):
            if i == j:
                continue
            bx0, bx1 = x0[j], x1[j]
            edge = False
            if min(ax1, bx1) - max(ax0, bx0) > 0.5:
                edge = (top[i] + bottom[i]) < (top[j] + bottom[j])
            elif ax1 <= bx0 + 0.5:
                lo, hi = min(bottom[i], bottom[j]), max(top[i], top[j])
                edge = bottom[j] > top[i] + 0.5 or _in_columns(i, j, x0, x1, top, bottom)
                if hi > lo:
                    # a block lying between them (in the vertical gap) and overlapping both
                    for pos in range(bisect.bisect_left(tops, lo - 1), n):
                        k = by_top[pos]
                        if top[k] > hi + 1:
                            break
                        if (k != i and k != j and bottom[k] <= hi + 1
                                and min(x1[k], ax1) - max(x0[k], ax0) > 0.5
                                and min(x1[k], bx1) - max(x0[k], bx0) > 0.5):
                            edge = False
                            break
            if edge and j not in succ[i]:
                succ[i].add(j)
                indeg[j] += 1
    heap = [((blocks[i].top, blocks[i].x0), i) for i in range(n) if indeg[i] == 0]
    heapq.heapify(heap)
    order: list[int] = []
    done = [False] * n
    while len(order) < n:
        if not heap:  # a cycle: take the top-most remaining block
            i = min((k for k in range(n) if not done[k]), key=lambda k: (blocks[k].top, blocks[k].x0))
            indeg[i] = 0
            heap.append(((blocks[i].top, blocks[i].x0), i))
        _, i = heapq.heappop(heap)
        if done[i]:
            continue
        done[i] = True
        order.append(i)
        for j in succ[i]:
            indeg[j] -= 1
            if indeg[j] == 0 and not done[j]:
                heapq.heappush(heap, ((blocks[j].top, blocks[j].x0), j))
    return order


def _in_columns(i: int, j: int, x0: list[float], x1: list[float], top: list[float],
                bottom: list[float]) -> bool:
    """Whether block ``i``, left of and wholly below block ``j``, stands in a column beside
    ``j``'s: unless a block above both spans them (a table across the page), and between it and
    ``i`` nothing in ``i``'s column (overlapping ``i`` horizontally, not ``j``) stands level with
    ``j``. Microsoft's centred "NOTE 6 — INVENTORIES" over the left-aligned "The components of
    inventories were as follows:", between two tables, is no column: it is read first."""
    def overlaps(k: int, m: int) -> bool:
        return min(x1[k], x1[m]) - max(x0[k], x0[m]) > 0.5

    ceiling = max((bottom[k] for k in range(len(x0)) if k != i and k != j and bottom[k] <= top[j] + 0.5
                   and overlaps(k, i) and overlaps(k, j)), default=None)
    if ceiling is None:
        return True
    return any(k != i and k != j and top[k] >= ceiling - 0.5 and bottom[k] <= top[i] + 0.5
               and overlaps(k, i) and not overlaps(k, j)
               and min(bottom[k], bottom[j]) - max(top[k], top[j]) > 0 for k in range(len(x0)))


def layout_page(words: list[Word], width: float, tables: list[Block] | None = None) -> list[Block]:
    """The blocks of a page in reading order: ``tables`` (ruled tables found before, their words
    left out of ``words``), tables of contents, unruled tables and the text blocks. ``width``:
    the page's, in points."""
    tables = list(tables or [])
    segments: list[Segment] = []
    lines = make_lines(words)
    toc, lines = toc_tables(lines)
    tables += toc
    gutters = find_gutters(lines, width)
    seg_lines = [split_segments(line, gutters=gutters) for line in lines]
    # unruled tables are looked for in each column between gutters on its own, so that the
    # text of a neighbouring column (or page of a spread) does not become a column of the table
    mids = sorted(m for m in ((a + b) / 2 for a, b in gutters) if _column_gutter(seg_lines, m))
    aligned, taken = [], set()
    for r in range(len(mids) + 1):
        region = [[s for s in line if bisect.bisect(mids, (s.x0 + s.x1) / 2) == r] for line in seg_lines]
        got, ids = text_tables([line for line in region if line])
        aligned += got
        taken |= ids
    for line in seg_lines:
        segments.extend(s for s in line if id(s) not in taken)
    blocks = make_blocks(segments) + tables + aligned
    return [blocks[i] for i in reading_order(blocks)]


def _column_gutter(seg_lines: list[list[Segment]], x: float) -> bool:
    """Whether the gutter at ``x`` separates columns of prose (at least three lines of 40+
    characters on each side), not the columns of a page-wide table."""
    left = right = 0
    for line in seg_lines:
        for s in line:
            if len(s.text) >= 40:
                if s.x1 <= x:
                    left += 1
                elif s.x0 >= x:
                    right += 1
    return left >= 3 and right >= 3
