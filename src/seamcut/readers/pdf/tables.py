"""Ruled tables: pdfplumber's table finder run on a page's ruling lines and characters (from
pypdfium2 through ``PdfiumTablePage``, or a pdfplumber page), its cells cleaned into table blocks;
the words inside a table leave the text flow. Units: points, ``top`` growing downwards."""
from __future__ import annotations

import re
from typing import Any

from .blocks import Block
from .words import Word


class PdfiumTablePage:
    """What pdfplumber's ``TableFinder`` and ``Table.extract`` read of a page (``bbox``,
    ``edges``, ``chars``), from pypdfium2: ruled tables without pdfplumber's slow page parse."""

    def __init__(self, width: float, height: float, edges: list[dict[str, Any]],
                 chars: list[dict[str, Any]]) -> None:
        self.width, self.height = width, height
        self.bbox = (0.0, 0.0, width, height)
        self.edges = self.lines = edges
        self.rects = self.curves = []
        self.chars = chars

    def find_tables(self, settings=None):
        from pdfplumber.table import TableFinder, TableSettings

        return TableFinder(self, TableSettings.resolve(settings)).tables


def ruled_tables(page, words: list[Word]) -> tuple[list[Block], list[Word]]:
    """Ruled tables (``find_tables``) as table blocks; returns them and the words outside them."""
    if not (page.rects or page.lines or page.curves):
        return [], words
    try:
        found = page.find_tables({"explicit_vertical_lines": _outer_verticals(page)})
    except Exception:  # a malformed drawing should not lose the page
        return [], words
    blocks = [b for b in (_table_block(page, t, words) for t in found) if b is not None]
    blocks = [b for b in blocks if not _figures_beside_labels(b, words)]
    if not blocks:
        return [], words
    return blocks, [w for w in words if not any(b.x0 <= (w.x0 + w.x1) / 2 <= b.x1
                                                 and b.top <= (w.top + w.bottom) / 2 <= b.bottom
                                                 for b in blocks)]


#: a cell of figures: digits, signs, currency, dashes, brackets (no words)
FIGURES = re.compile(r"^[\s\d.,:;%()+\-\u2013\u2014\u2212/$€£*]*$")
#: the fewest lines of labels beside a ruled column of figures that make it part of a wider table
LABEL_LINES = 3


def _figures_beside_labels(block: Block, words: list[Word]) -> bool:
    """Whether a ruled "table" is only a column or two of figures whose row labels stand left of
    its rules, outside it: Intel's statements rule each figure column on its own (a line under
    each subtotal) and leave the labels unruled, so the table finder gave four narrow tables and
    the labels came apart from their figures ("Net revenue", "Cost of sales", ... then "15,338
    8,803 ..."). Such a block is left to the layout, which finds the whole statement as one
    unruled table. ``LABEL_LINES`` lines or more with a word of letters must stand beside it."""
    rows = block.rows or []
    if not rows or sum(1 for j in range(max(len(r) for r in rows))
                       if any(j < len(r) and r[j] and r[j] != "$" for r in rows)) > 2:
        return False
    if not all(FIGURES.match(c) for r in rows[1:] for c in r if c):
        return False
    tops = {round(w.top) for w in words if w.x1 <= block.x0 and block.top <= (w.top + w.bottom) / 2 <= block.bottom
            and sum(ch.isalpha() for ch in w.text) >= 2}
    return len(tops) >= LABEL_LINES


def _table_block(page, table, words: list[Word]) -> Block | None:
    """One table found by pdfplumber as a table block: cells repaired, blank rows and columns
    dropped; None where it is not a table (fewer than two rows or columns, mostly empty, or a
    text frame drawn as a box)."""
    try:
        rows = table.extract()
    except Exception:
        return None
    rows = _fix_vertical_cells(page, table, rows)
    rows = _fill_stray_cells(page, table, rows)
    rows = _join_words_across_rules(page, table, rows, words)
    rows = _split_tall_labels(page, table, rows)
    rows, header = fill_header_spans(rows)
    n = len(rows)
    rows = [[" ".join((c or "").split()) for c in r] for r in rows]
    kept = [i for i, r in enumerate(rows) if any(r)]
    rows = [rows[i] for i in kept]
    if not rows:
        return None
    keep = [j for j in range(max(len(r) for r in rows)) if any(j < len(r) and r[j] for r in rows)]
    rows = [[r[j] if j < len(r) else "" for j in keep] for r in rows]
    cells = [c for r in rows for c in r]
    filled = sum(1 for c in cells if c)
    if len(rows) < 2 or len(keep) < 2 or filled / len(cells) < 0.3:
        return None
    if max(len(c) for c in cells) > 400:
        return None  # a text frame drawn as a box, not a table
    x0, top, x1, bottom = table.bbox
    boxes = _row_boxes(table, n)
    return Block(x0, top, x1, bottom, kind="table", rows=rows, header_rows=header,
                 row_boxes=[boxes[i] for i in kept] if boxes is not None else None)


def _row_boxes(table, n: int) -> list[tuple[float, float, float, float]] | None:
    """The box of each of the ``n`` rows ``table.extract()`` gave (pdfplumber's ``Row.bbox``, one
    row of cells each); None where the table does not give one per row."""
    try:
        got = [tuple(float(v) for v in r.bbox) for r in table.rows]
    except Exception:
        return None
    return got if len(got) == n and all(len(b) == 4 for b in got) else None  # type: ignore[misc]


def _center(c: dict[str, Any]) -> tuple[float, float]:
    """The middle of a character's (or word's) box."""
    return (c["x0"] + c["x1"]) / 2, (c["top"] + c["bottom"]) / 2


def _fill_stray_cells(page, table, rows: list[list[str | None]]) -> list[list[str | None]]:
    """Text in a table position that the rules leave without a cell of its own (a rule missing
    between two rows in one column): pdfplumber drops it; it becomes that position's cell."""
    if not any(c is None for r in rows for c in r):
        return rows
    from pdfplumber.utils import extract_text

    real = [c for r in table.rows for c in r.cells if c is not None]
    try:
        cols = [c.bbox for c in table.columns]
    except Exception:
        return rows
    x0, top, x1, bottom = table.bbox
    inside = [c for c in page.chars if x0 <= _center(c)[0] <= x1 and top <= _center(c)[1] <= bottom]
    out = [list(r) for r in rows]
    for i, row in enumerate(table.rows):
        if i >= len(out) or None not in row.cells:
            continue
        t, u = row.bbox[1], row.bbox[3]
        band = [c for c in inside if t <= _center(c)[1] < u]
        for j, cell in enumerate(row.cells):
            if cell is not None or j >= len(out[i]) or j >= len(cols):
                continue
            a, b = cols[j][0], cols[j][2]
            mine = []
            for c in band:
                cx, cy = _center(c)
                if a <= cx < b and not any(r[0] <= cx < r[2] and r[1] <= cy < r[3] for r in real):
                    mine.append(c)
            text = extract_text(mine).strip() if mine else ""
            if text:
                out[i][j] = text
    return out


def _join_words_across_rules(page, table, rows: list[list[str | None]],
                              words: list[Word]) -> list[list[str | None]]:
    """A word that a column rule crosses (Nvidia's letter-spaced "(In millions)" set across three
    columns' cells): pdfplumber cuts it between the cells by where each letter stands ("(In m",
    "illio", "ns)"). The cells such a word overlaps (a cell spanning rows included) become one:
    their text, read together, goes to the leftmost of them (of two there, the one of the word's
    own row: the lower); the others are left blank."""
    from pdfplumber.utils import extract_text

    cells = [(i, j, c) for i, row in enumerate(table.rows) if i < len(rows)
             for j, c in enumerate(row.cells) if c is not None and j < len(rows[i])]
    groups: list[set[int]] = []  # positions in ``cells``
    owners: list[int] = []  # for each group, the position whose cell gets the text
    for w in words:
        mid = (w.top + w.bottom) / 2
        over = [k for k, (_, _, c) in enumerate(cells) if c[1] <= mid < c[3]
                and min(w.x1, c[2]) - max(w.x0, c[0]) > 0.25 * (w.size or 4.0)]
        if len(over) < 2 or not w.upright:
            continue
        owner = min(over, key=lambda k: (cells[k][2][0], cells[k][2][3] - cells[k][2][1]))
        joined = next((g for g in groups if g & set(over)), None)
        if joined is None:
            groups.append(set(over))
            owners.append(owner)
        else:
            joined.update(over)
    if not groups:
        return rows
    out = [list(r) for r in rows]
    for group, owner in zip(groups, owners):
        boxes = [cells[k][2] for k in group]
        mine = [ch for ch in page.chars if any(b[0] <= _center(ch)[0] < b[2] and b[1] <= _center(ch)[1] < b[3]
                                               for b in boxes)]
        for k in group:
            out[cells[k][0]][cells[k][1]] = ""
        out[cells[owner][0]][cells[owner][1]] = extract_text(mine).strip() if mine else ""
    return out


def _split_tall_labels(page, table, rows: list[list[str | None]]) -> list[list[str | None]]:
    """A row label whose cell runs down past its row, over the rows below it in the other columns
    (Microsoft's segment tables rule a total's figures off with a double line but leave the label
    column unruled, so "Total" and the next heading, "Operating Income", are one cell beside
    "56,517"): where the row has a figure, the label's lines go to the rows they stand in. A line
    a row's edge cuts through leaves the cell as it is."""
    from pdfplumber.utils import extract_text

    out = [list(r) for r in rows]
    starts = [r.bbox[1] for r in table.rows]
    for i, row in enumerate(table.rows):
        cell = row.cells[0] if row.cells else None
        if cell is None or i >= len(out) or not out[i] or not out[i][0]:
            continue
        below = [r for r in range(i + 1, len(table.rows)) if starts[r] < cell[3] - 0.5
                 and r < len(out) and table.rows[r].cells and table.rows[r].cells[0] is None]
        if not below or not any(c and _NUMERIC.match(c) for c in out[i][1:]):
            continue
        edges = [starts[r] for r in below] + [cell[3]]
        mine = [c for c in page.chars if cell[0] <= _center(c)[0] < cell[2] and cell[1] <= _center(c)[1] < cell[3]]
        if any(c["top"] < e - 0.5 and c["bottom"] > e + 0.5 for c in mine for e in edges[:-1]):
            continue
        bands = [[c for c in mine if lo <= _center(c)[1] < hi] for lo, hi in zip([cell[1]] + edges[:-1], edges)]
        if not bands[0] or not any(bands[1:]):
            continue
        for r, band in zip([i] + below, bands):
            out[r][0] = extract_text(band).strip() if band else ""
    return out


def _fix_vertical_cells(page, table, rows: list[list[str | None]]) -> list[list[str | None]]:
    """Cells written in rotated (vertical) text: pdfplumber sorts their characters top to bottom,
    which reverses bottom-to-top text; take them in content-stream order instead."""
    x0, top, x1, bottom = table.bbox
    rot = [c for c in page.chars if not c.get("upright", True)
           and x0 <= c["x0"] <= x1 and top <= c["top"] <= bottom]
    if not rot:
        return rows
    out = [list(r) for r in rows]
    for i, row in enumerate(table.rows):
        for j, cell in enumerate(row.cells):
            if cell is None or i >= len(out) or j >= len(out[i]):
                continue
            a, t, b, u = cell
            mine = [c for c in rot if a <= _center(c)[0] <= b and t <= _center(c)[1] <= u]
            if mine and len(mine) >= 0.8 * len((out[i][j] or "").replace(" ", "").replace("\n", "")):
                out[i][j] = "".join(c["text"] for c in mine)
    return out


def _outer_verticals(page) -> list[dict[str, Any]]:
    """Vertical edges at both ends of stacks of equally long horizontal rules: tables ruled only
    between some columns (or only horizontally at the outer columns) get their outer columns."""
    groups: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for e in page.edges:
        if e["orientation"] == "h" and e["x1"] - e["x0"] > 20:
            groups.setdefault((round(e["x0"]), round(e["x1"])), []).append(e)
    out = []
    for es in groups.values():
        if len(es) < 2:
            continue
        top, bottom = min(e["top"] for e in es), max(e["top"] for e in es)
        if bottom - top < 5:
            continue
        for x in (min(e["x0"] for e in es), max(e["x1"] for e in es)):
            out.append({"x0": x, "x1": x, "top": top, "bottom": bottom, "width": 0,
                        "height": bottom - top, "orientation": "v", "object_type": "line"})
    return out


_NUMERIC = re.compile(r"^[\s\d.,:;%()+\-\u2013\u2212/$€£*xX]*$")


def fill_header_spans(rows: list[list[str | None]]) -> tuple[list[list[str | None]], int]:
    """Multi-row table headers (``None`` marks a position covered by a merged cell): the header
    is row 0 plus, where row 0 has merged cells, the following rows that also have merged cells
    and no numbers (at most 3 rows, never all rows). In the header a merged position under a
    cell is filled with that cell's text (the cell spans the rows), so each header row names
    every column, as in docling's output. Returns the rows and the header row count."""
    rows = [list(r) for r in rows]
    if len(rows) < 3 or None not in rows[0]:
        return rows, 1
    header = 1
    while (header < min(3, len(rows) - 1) and None in rows[header]
           and not any(c and _NUMERIC.match(c) for c in rows[header])):
        header += 1
    for k in range(1, header):
        for j, c in enumerate(rows[k]):
            if c is None and j < len(rows[k - 1]) and rows[k - 1][j]:
                rows[k][j] = rows[k - 1][j]
    return rows, header

