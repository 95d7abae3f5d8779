"""Layout helpers for the PDF reader: lines, blocks, reading order, text quality, hyphenation.

Pure functions on plain dicts/dataclasses (no pdfplumber import), so they are cheap to test.
Coordinates are PDF points with ``top`` growing downwards (pdfplumber's convention).
"""
from __future__ import annotations

import bisect
import heapq
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

# ----------------------------------------------------------------------------------------------
# text quality

_DEV_SIGNS = set(range(0x093E, 0x094D)) | {0x0962, 0x0963}  # dependent vowel signs
_DEV_VIRAMA = 0x094D
_DEV_MARKS = {0x0900, 0x0901, 0x0902, 0x0903, 0x093C}  # candrabindu, anusvara, visarga, nukta
_CID = re.compile(r"\(cid:\d+\)")


def _is_dev(ch: str) -> bool:
    return 0x0900 <= ord(ch) <= 0x097F


def garble_score(text: str) -> tuple[int, int]:
    """``(bad, letters)``: how many suspicious code points/sequences ``text`` has, and how many
    letters. Suspicious: U+FFFD, private-use characters, pdfminer's ``(cid:N)``, and impossible
    Devanagari (a dependent vowel sign, virama or nukta at a word start; two dependent vowel signs
    in a row; a virama straight after a vowel sign)."""
    bad = 0
    letters = 0
    prev = ""
    for ch in text:
        o = ord(ch)
        if o == 0xFFFD or 0xE000 <= o <= 0xF8FF or 0xF0000 <= o:
            bad += 1
        elif _is_dev(ch):
            if o in _DEV_SIGNS or o == _DEV_VIRAMA or o == 0x093C:
                if not prev or not _is_dev(prev):
                    bad += 1  # sign with no consonant in front of it
                elif o in _DEV_SIGNS and ord(prev) in _DEV_SIGNS:
                    bad += 1  # two dependent vowel signs in a row
                elif o == _DEV_VIRAMA and ord(prev) in _DEV_SIGNS:
                    bad += 1
            else:
                letters += 1
        elif ch.isalpha():
            letters += 1
        prev = ch
    return bad, letters


def is_garbled(text: str) -> bool:
    """Whether an extracted text layer looks broken (see ``garble_score``), or is mostly
    non-letters (a font without a usable ToUnicode map)."""
    bad, letters = garble_score(text)
    cids = len(_CID.findall(text))
    if cids and cids / max(letters, 1) > 0.02:
        return True  # glyphs with no Unicode mapping (a few bullets are fine)
    if bad >= 3 or (bad and bad / max(letters, 1) > 0.005):
        return True
    visible = sum(1 for ch in text if not ch.isspace())
    if visible >= 80 and letters / visible < 0.25:
        # digits and punctuation are legitimate (tables of numbers); control characters are not
        ctrl = sum(1 for ch in text if unicodedata.category(ch) in ("Cc", "Co", "Cn") and not ch.isspace())
        return ctrl / visible > 0.05
    return False


# ----------------------------------------------------------------------------------------------
# hyphenation and joining lines

#: first halves of hyphenated compounds whose hyphen stays when a line breaks after it
COMPOUND_PREFIXES = frozenset("""
self well non co multi anti ex pre post semi cross high low long short full half all one two
three four five six ten first second third built user high-level so quasi mid part right left
state time cost data real""".split())

_HYPHENS = "-\u2010\u2011"


def join_lines(lines: Sequence[str]) -> str:
    """Join the lines of one block into a paragraph; words hyphenated across a line break are
    joined ("fertil-" + "izer" -> "fertilizer") unless the next line starts with an uppercase
    letter or digit, or the first half is a known compound prefix ("self-" + "locking")."""
    out = ""
    for raw in lines:
        line = " ".join(raw.replace("\u00ad\n", "").split())
        if not line:
            continue
        if not out:
            out = line
            continue
        if out.endswith("\u00ad"):
            out = out[:-1] + line
            continue
        if out[-1] in _HYPHENS and len(out) >= 3 and out[-2].isalpha():
            m = re.search(r"(\w+)[-\u2010\u2011]$", out)
            first = m.group(1).lower() if m else ""
            nxt = line[0]
            if nxt.islower() and first not in COMPOUND_PREFIXES and len(first) >= 2:
                out = out[:-1] + line
            else:
                out = out + line
            continue
        out = out + " " + line
    return out


# ----------------------------------------------------------------------------------------------
# geometry

@dataclass
class Segment:
    """Words on one baseline that belong together (a line of one column)."""
    x0: float
    top: float
    x1: float
    bottom: float
    words: list[dict[str, Any]]
    size: float = 0.0
    bold: float = 0.0  # share of characters in a bold font
    italic: float = 0.0  # share of characters in an italic font

    @property
    def text(self) -> str:
        return " ".join(w["text"] for w in self.words)


@dataclass
class Block:
    """Consecutive segments of one column: a paragraph, heading, list item or table."""
    x0: float
    top: float
    x1: float
    bottom: float
    segments: list[Segment] = field(default_factory=list)
    kind: str = ""  # "" (text) or "table"
    rows: list[list[str]] | None = None
    size: float = 0.0
    bold: float = 0.0
    italic: float = 0.0
    tag: str | None = None  # structure tag from a tagged PDF
    header_rows: int = 1  # tables: how many leading rows are the header

    @property
    def lines(self) -> list[str]:
        return [s.text for s in self.segments]

    def extend(self, s: Segment) -> None:
        self.segments.append(s)
        self.x0, self.top = min(self.x0, s.x0), min(self.top, s.top)
        self.x1, self.bottom = max(self.x1, s.x1), max(self.bottom, s.bottom)


_BOLD = re.compile(r"bold|black|heavy|semibold|demi|,B\b|-B\b|\.B\b|(?:CM|SF|LM)BX|Bd\b|-Bd|Bd$", re.I)


_ITALIC = re.compile(r"italic|oblique|,I\b|-I\b|\bIt\b|-It\b", re.I)


def is_bold_font(fontname: str) -> bool:
    return bool(_BOLD.search(fontname or ""))


def is_italic_font(fontname: str) -> bool:
    return bool(_ITALIC.search(fontname or ""))


def make_lines(words: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """Group words into lines by vertical overlap (each line sorted left to right)."""
    ws = sorted(words, key=lambda w: (w["top"], w["x0"]))
    lines: list[tuple[float, float, list]] = []  # (top, bottom, words) of open lines
    out: list[list[dict[str, Any]]] = []
    for w in ws:
        h = max(w["bottom"] - w["top"], 0.1)
        placed = False
        for i in range(len(lines) - 1, max(-1, len(lines) - 4), -1):
            t, b, lw = lines[i]
            ov = min(b, w["bottom"]) - max(t, w["top"])
            if ov > 0.5 * min(h, b - t):
                lw.append(w)
                lines[i] = (min(t, w["top"]), max(b, w["bottom"]), lw)
                placed = True
                break
        if not placed:
            lines.append((w["top"], w["bottom"], [w]))
    for _, _, lw in lines:
        lw.sort(key=lambda w: w["x0"])
        out.append(lw)
    return out


def find_gutters(lines: list[list[dict[str, Any]]], width: float) -> list[tuple[float, float]]:
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
            a, b = max(0, int(word["x0"])), min(w - 1, int(word["x1"]) + 1)
            for x in range(a, b):
                cover[x] += 1
            if i:
                prev = line[i - 1]
                size = max(prev.get("size") or 10.0, word.get("size") or 10.0)
                if word["x0"] - prev["x1"] > 0.35 * size:
                    for x in range(int(prev["x1"]) + 1, int(word["x0"])):
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


def split_segments(line: list[dict[str, Any]], gap_factor: float = 1.2,
                   gutters: Sequence[tuple[float, float]] = ()) -> list[Segment]:
    """Split one line at horizontal gaps wider than ``gap_factor`` times the font size (table
    columns), at gaps over a column gutter, and between a small label and large text set on
    the same baseline band ("Chapter 1." in front of a chapter title twice its size and more)."""
    segs: list[Segment] = []
    cur: list[dict[str, Any]] = []
    for w in line:
        if cur:
            a_size, b_size = cur[-1].get("size") or 10.0, w.get("size") or 10.0
            size = max(a_size, b_size)
            g0, g1 = cur[-1]["x1"], w["x0"]
            if len(cur) == 1 and _HANGING_NUMBER.fullmatch(cur[0]["text"]) and g1 - g0 <= 2.5 * size:
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


def _segment(words: list[dict[str, Any]]) -> Segment:
    n = sum(len(w["text"]) for w in words) or 1
    size = max(((w.get("size") or 0.0), len(w["text"])) for w in words)
    # the size most characters have
    by: dict[float, int] = {}
    for w in words:
        k = round(float(w.get("size") or 0.0) * 2) / 2
        by[k] = by.get(k, 0) + len(w["text"])
    size = max(by.items(), key=lambda kv: kv[1])[0]
    bold = sum(len(w["text"]) for w in words if is_bold_font(w.get("fontname", ""))) / n
    italic = sum(len(w["text"]) for w in words if is_italic_font(w.get("fontname", ""))) / n
    return Segment(min(w["x0"] for w in words), min(w["top"] for w in words),
                   max(w["x1"] for w in words), max(w["bottom"] for w in words), words, size, bold,
                   italic)


#: bullet glyphs: dots, squares, dashes; check boxes (☐ ☑ ☒ ❏ ❐ ❑ ❒ □); and the codes a
#: symbol font (Wingdings, Symbol) without a Unicode map gives its glyphs: C1 controls and
#: private-use code points (a Wingdings check box comes out as U+0084)
_BULLET_CHARS = ("\u2022\u25aa\u25a0\u25cf\u25e6\u2023\u2043\u2219\u00b7\u2013\u2014*>\\-"
                 "\u2610-\u2612\u274f-\u2752\u25a1\u0080-\u009f\ue000-\uf8ff")
_BULLET = re.compile(r"^\s*(?:\(cid:\d+\)|[" + _BULLET_CHARS + r"]"
                     r"|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|\(?[ivxIVX]{1,4}[.)])(?:\s+|$)")
_GLYPH_BULLET = re.compile(r"^\s*(?:\(cid:\d+\)|[" + _BULLET_CHARS + r"])\s*")


def list_marker(text: str) -> str | None:
    m = _BULLET.match(text)
    return m.group(0).strip() if m else None


def strip_glyph_bullet(text: str) -> tuple[str, str | None]:
    m = _GLYPH_BULLET.match(text)
    if not m:
        return text, None
    return text[m.end():], m.group(0).strip()


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
    and no block lying vertically between them overlaps both horizontally. Topologically sorted,
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
                edge = True
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


# ----------------------------------------------------------------------------------------------
# furniture

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


def iter_words(blocks: Iterable[Block]) -> Iterable[dict[str, Any]]:
    for b in blocks:
        for s in b.segments:
            yield from s.words


def text_tables(lines: list[list[Segment]], min_rows: int = 3, min_cols: int = 3
                ) -> tuple[list[Block], set[int]]:
    """Tables without ruling lines: runs of at least ``min_rows`` consecutive lines made of short
    segments that fall into the same ``min_cols``+ column intervals. Returns the table blocks and
    the ids of the segments they took."""

    def tabular(segs: list[Segment]) -> bool:
        if len(segs) < 2:
            return False
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
        if len(run) >= min_rows:
            # column intervals: the union of overlapping segment x-ranges over the run
            spans = sorted((s.x0, s.x1) for line in run for s in line)
            cols: list[list[float]] = []
            for a, b in spans:
                if cols and a <= cols[-1][1] + 1:
                    cols[-1][1] = max(cols[-1][1], b)
                else:
                    cols.append([a, b])
            ok = len(cols) >= min_cols
            rows: list[list[str]] = []
            for line in run:
                cells = [""] * len(cols)
                for s in line:
                    k = next(k for k, (a, b) in enumerate(cols) if a - 1 <= s.x0 <= b + 1)
                    cells[k] = (cells[k] + " " + s.text).strip()
                rows.append(cells)
            if ok and sum(1 for r in rows for c in r if c) >= 0.6 * len(rows) * len(cols):
                head, head_lines = _header_lines(lines, i, cols, used)
                rows = head + rows
                run = head_lines + run
                segs = [s for line in run for s in line]
                b = Block(min(s.x0 for s in segs), min(s.top for s in segs), max(s.x1 for s in segs),
                          max(s.bottom for s in segs), kind="table", rows=rows)
                out.append(b)
                used.update(id(s) for s in segs)
        i = j
    return out, used


def _header_lines(lines: list[list[Segment]], i: int, cols: list[list[float]], used: set[int],
                  most: int = 3) -> tuple[list[list[str]], list[list[Segment]]]:
    """The header of an unruled table starting at line ``i``: up to ``most`` lines right above it
    whose short segments each fall under exactly one column (header cells the data rows do not
    make tabular: one cell, or a cell set on two lines). Lines set closer than the rows are one
    header row ("State funded" over "legal aid"). Returns the header rows and their lines."""

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
    prev_bottom = None
    for line in got:
        cells = [""] * len(cols)
        for s in line:
            c = under(s)
            cells[c] = (cells[c] + " " + s.text).strip()
        size = max(s.size for s in line) or 10.0
        if rows and prev_bottom is not None and min(s.top for s in line) - prev_bottom < 0.5 * size:
            rows[-1] = [(a + " " + b).strip() for a, b in zip(rows[-1], cells)]
        else:
            rows.append(cells)
        prev_bottom = max(s.bottom for s in line)
    return rows, got


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


_TOC_LINE = re.compile(r"^(?P<entry>.*?\S)\s*(?:\.\s*){3,}(?P<page>\d{1,4}|[ivxlcdm]{1,7})$", re.I)


def toc_tables(lines: list[list[dict[str, Any]]], min_rows: int = 3
               ) -> tuple[list[Block], list[list[dict[str, Any]]]]:
    """A table of contents (entries with dot leaders and a page number) as a two-column table
    [entry, page]; returns the table blocks and the lines left over. Needs ``min_rows`` such
    lines on the page."""
    hits = []
    for i, line in enumerate(lines):
        m = _TOC_LINE.match(" ".join(w["text"] for w in line))
        if m:
            hits.append((i, m))
    if len(hits) < min_rows:
        return [], lines
    taken = {i for i, _ in hits}
    rows = [[m.group("entry").rstrip(" ."), m.group("page")] for _, m in hits]
    ws = [w for i, _ in hits for w in lines[i]]
    b = Block(min(w["x0"] for w in ws), min(w["top"] for w in ws), max(w["x1"] for w in ws),
              max(w["bottom"] for w in ws), kind="table", rows=rows, header_rows=0)
    return [b], [line for i, line in enumerate(lines) if i not in taken]
