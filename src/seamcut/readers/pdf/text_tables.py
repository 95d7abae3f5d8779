"""Tables without ruling lines: columns of short segments aligned over several lines (with the
header lines right above them), and tables of contents (entries with dot leaders and a page
number). Units: points, ``top`` growing downwards."""
from __future__ import annotations

import re

from .blocks import Block, Segment, enclosing
from .tables import FIGURES
from .words import Word, words_text


def text_tables(lines: list[list[Segment]], min_rows: int = 3, min_cols: int = 3
                ) -> tuple[list[Block], set[int]]:
    """Tables without ruling lines: runs of at least ``min_rows`` consecutive lines made of short
    segments that fall into the same ``min_cols``+ column intervals. Returns the table blocks and
    the ids of the segments they took."""

    def tabular(segs: list[Segment]) -> bool:
        if len(segs) < 2:
            return False
        if figure_row(segs):
            return True
        lens = [len(s.text) for s in segs]
        return sum(lens) / len(lens) <= 30 and max(lens) <= 60

    out: list[Block] = []
    used: set[int] = set()
    i = 0
    while i < len(lines):
        if not tabular(lines[i]):
            i += 1
            continue
        j = i + 1
        while j < len(lines) and tabular(lines[j]):
            prev, cur = lines[j - 1], lines[j]
            size = max(s.size for s in prev + cur) or 10.0
            if min(s.top for s in cur) - max(s.bottom for s in prev) > 2.5 * size:
                break
            j += 1
        run = lines[i:j]
        # a statement's rows (a label, then its figures) make a table from two rows on
        if len(run) >= min_rows or (len(run) >= 2 and all(figure_row(line) for line in run)):
            cols = _columns(run)
            rows = [_cells(line, cols) for line in run]
            if len(cols) >= min_cols and sum(1 for r in rows for c in r if c) >= 0.6 * len(rows) * len(cols):
                head, head_boxes, head_lines = _header_lines(lines, i, cols, used)
                rows = head + rows
                row_boxes = head_boxes + [enclosing(line) for line in run]
                run = head_lines + run
                segs = [s for line in run for s in line]
                b = Block(*enclosing(segs), kind="table", rows=rows, row_boxes=row_boxes)
                out.append(b)
                used.update(id(s) for s in segs)
        i = j
    return out, used


#: the longest row label (characters) a row of figures may carry in front of them
LABEL_CHARS = 120


def figure_row(segs: list[Segment]) -> bool:
    """Whether a line is a statement's row: a label of words (at most ``LABEL_CHARS``), then two
    or more cells of figures and nothing else ("Income tax benefit related to share-based
    compensation expense  $ (1,231)  $ (1,319)"); "$" alone counts with its figure."""
    cells = [s.text.strip() for s in segs[1:] if s.text.strip() not in ("$", "€", "£", "₹")]
    return (len(cells) >= 2 and all(FIGURES.match(c.replace("₹", "")) and any(ch.isdigit() for ch in c)
                                    for c in cells)
            and any(ch.isalpha() for ch in segs[0].text) and len(segs[0].text) <= LABEL_CHARS)


def _columns(run: list[list[Segment]]) -> list[list[float]]:
    """Column intervals (x0, x1 in points): the union of overlapping segment x-ranges over the
    lines of ``run``."""
    cols: list[list[float]] = []
    for a, b in sorted((s.x0, s.x1) for line in run for s in line):
        if cols and a <= cols[-1][1] + 1:
            cols[-1][1] = max(cols[-1][1], b)
        else:
            cols.append([a, b])
    return cols


def _cells(line: list[Segment], cols: list[list[float]]) -> list[str]:
    """The text of one line in each column, a segment going to the column it starts in."""
    cells = [""] * len(cols)
    for s in line:
        k = next(k for k, (a, b) in enumerate(cols) if a - 1 <= s.x0 <= b + 1)
        cells[k] = (cells[k] + " " + s.text).strip()
    return cells


def _union(a: tuple[float, float, float, float], b: tuple[float, float, float, float]
           ) -> tuple[float, float, float, float]:
    return min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3])


def _header_lines(lines: list[list[Segment]], i: int, cols: list[list[float]], used: set[int],
                  most: int = 3) -> tuple[list[list[str]], list[tuple[float, float, float, float]],
                                          list[list[Segment]]]:
    """The header of an unruled table starting at line ``i``: up to ``most`` lines right above it
    whose short segments each fall under exactly one column (header cells the data rows do not
    make tabular: one cell, or a cell set on two lines). Lines set closer than the rows are one
    header row ("State funded" over "legal aid"). Returns the header rows, their boxes and their
    lines."""

    def under(s: Segment) -> int | None:
        hit = [k for k, (a, b) in enumerate(cols) if min(b, s.x1) - max(a, s.x0) > 0]
        return hit[0] if len(hit) == 1 else None

    got: list[list[Segment]] = []
    below = lines[i]
    for k in range(i - 1, max(-1, i - 1 - most), -1):
        line = lines[k]
        size = max(s.size for s in line + below) or 10.0
        if (min(s.top for s in below) - max(s.bottom for s in line) > 1.0 * size
                or any(id(s) in used or len(s.text) > 40 or under(s) is None for s in line)):
            break
        got.insert(0, line)
        below = line
    rows: list[list[str]] = []
    boxes: list[tuple[float, float, float, float]] = []
    prev_bottom = None
    for line in got:
        cells = [""] * len(cols)
        for s in line:
            c = under(s)
            cells[c] = (cells[c] + " " + s.text).strip()
        size = max(s.size for s in line) or 10.0
        if rows and prev_bottom is not None and min(s.top for s in line) - prev_bottom < 0.5 * size:
            rows[-1] = [(a + " " + b).strip() for a, b in zip(rows[-1], cells)]
            boxes[-1] = _union(boxes[-1], enclosing(line))
        else:
            rows.append(cells)
            boxes.append(enclosing(line))
        prev_bottom = max(s.bottom for s in line)
    return rows, boxes, got


_TOC_LINE = re.compile(r"^(?P<entry>.*?\S)\s*(?:\.\s*){3,}(?P<page>\d{1,4}|[ivxlcdm]{1,7})$", re.I)


def toc_tables(lines: list[list[Word]], min_rows: int = 3
               ) -> tuple[list[Block], list[list[Word]]]:
    """A table of contents (entries with dot leaders and a page number) as a two-column table
    [entry, page]; returns the table blocks and the lines left over. Needs ``min_rows`` such
    lines on the page."""
    hits = []
    for i, line in enumerate(lines):
        m = _TOC_LINE.match(words_text(line))
        if m:
            hits.append((i, m))
    if len(hits) < min_rows:
        return [], lines
    taken = {i for i, _ in hits}
    rows = [[m.group("entry").rstrip(" ."), m.group("page")] for _, m in hits]
    ws = [w for i, _ in hits for w in lines[i]]
    b = Block(*enclosing(ws), kind="table", rows=rows, header_rows=0,
              row_boxes=[enclosing(lines[i]) for i, _ in hits])
    return [b], [line for i, line in enumerate(lines) if i not in taken]
