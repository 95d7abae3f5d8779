"""Born-digital PDF reader: text layer to ``Document`` with headings, lists, tables, reading order.

Per page (pypdfium2: one pass over the text page's characters, ~4x faster than pdfplumber's page
parse): words with font, size and direction; ruled tables through pdfplumber's table finder run
on pdfium's path edges and characters (no pdfplumber parse); tables of contents (dot leaders) as
[entry, page] tables; the remaining words grouped into lines, split at column gutters, unruled
tables found column by column, the rest grouped into blocks and put in reading order (columns
followed). Document-wide: running headers/footers, page numbers and margin line numbers become
furniture; headings come from the font size (levels rank the distinct larger-than-body sizes),
bold weight and numbering, or from a tagged PDF's structure tree where it tags headings, and a
layout heading needs body text after it (cover, back-cover and diagram text is not a heading).
A page whose text is garbled is read with pdfplumber (pdfminer decodes some fonts pdfium cannot),
then ``pdftotext``, then OCR; right-to-left scripts go to ``pdftotext``; a page with no text
layer goes to OCR.
"""
from __future__ import annotations

import bisect
import ctypes
import logging
import math
import re
import shutil
import subprocess
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..model import Document
from .builder import DocumentBuilder
from .pdf_layout import (Block, Segment, fill_header_spans, find_gutters, text_tables, toc_tables, furniture_key, is_bold_font, is_garbled, is_page_number,
                         join_lines, line_number_blocks, list_marker, make_blocks, make_lines, reading_order,
                         split_segments, strip_glyph_bullet)
from .pdf_glyphs import page_word_breaks

log = logging.getLogger(__name__)

OCR_MODES = ("auto", "always", "never")
#: share of the page height counted as the top/bottom band where running headers/footers sit
BAND = 0.09

_CAPTION = re.compile(r"^(?:Figure|Fig\.|Table|Tab\.|Chart|Listing|Exhibit)\s*[\dIVX]+[-.:\d]*\s", re.I)
_NUMBERED = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,4})\.?\s+\S")
_TAG_KIND = {"H": ("heading", 1), "H1": ("heading", 1), "H2": ("heading", 2), "H3": ("heading", 3),
             "H4": ("heading", 4), "H5": ("heading", 5), "H6": ("heading", 6), "Title": ("title", None),
             "P": ("paragraph", None), "LI": ("list_item", None), "LBody": ("list_item", None),
             "Lbl": ("list_item", None), "L": ("list_item", None), "Caption": ("caption", None),
             "Code": ("code", None)}


@dataclass
class _Page:
    number: int
    width: float = 612.0
    height: float = 792.0
    extractor: str = "pdfplumber"
    blocks: list[Block] = field(default_factory=list)
    #: for pages that did not go through layout (pdftotext, OCR): (kind, text, metadata)
    plain: list[tuple[str, str, dict[str, Any]]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


# ----------------------------------------------------------------------------------------------
# opening and validating


def _validate(p: Path, password: str | None):
    """Check the file and open it with pypdfium2 (fast, strict about encryption); returns the
    pdfium document. Every problem is an ``InputError`` naming the file."""
    try:
        size = p.stat().st_size
    except FileNotFoundError:
        raise InputError(p, "no such file") from None
    except OSError as exc:
        raise InputError(p, exc.strerror or str(exc)) from None
    if p.is_dir():
        raise InputError(p, "is a directory, not a PDF")
    if size == 0:
        raise InputError(p, "empty file (0 bytes)")
    with p.open("rb") as fh:
        head = fh.read(1024)
        fh.seek(max(0, size - 4096))
        tail = fh.read()
    if b"%PDF-" not in head:
        raise InputError(p, "not a PDF (no %PDF- header)")
    if b"%%EOF" not in tail:
        raise InputError(p, "truncated or corrupt PDF (no %%EOF marker at the end)")
    import pypdfium2 as pdfium

    try:
        doc = pdfium.PdfDocument(str(p), password=password)
    except pdfium.PdfiumError as exc:
        msg = str(exc)
        if "password" in msg.lower():
            if password is None:
                raise InputError(p, "encrypted; pass --password") from None
            raise InputError(p, "encrypted; wrong password") from None
        raise InputError(p, f"corrupt or unreadable PDF ({msg})") from None
    if len(doc) == 0:
        doc.close()
        raise InputError(p, "corrupt or unreadable PDF (no pages)")
    return doc


def _open_plumber(p: Path, password: str | None):
    import pdfplumber
    from pdfminer.pdfdocument import PDFPasswordIncorrect

    try:
        return pdfplumber.open(str(p), password=password or "")
    except PDFPasswordIncorrect:
        raise InputError(p, "encrypted; pass --password" if password is None else
                         "encrypted; wrong password") from None
    except Exception as exc:  # pdfminer raises many kinds on broken files
        raise InputError(p, f"corrupt or unreadable PDF ({type(exc).__name__}: {exc})") from None


# ----------------------------------------------------------------------------------------------
# per-page extraction


def _tables(page, words: list[dict[str, Any]]) -> tuple[list[Block], list[dict[str, Any]]]:
    """Ruled tables (``find_tables``) as table blocks; returns them and the words outside them."""
    if not (page.rects or page.lines or page.curves):
        return [], words
    try:
        found = page.find_tables({"explicit_vertical_lines": _outer_verticals(page)})
    except Exception:  # a malformed drawing should not lose the page
        return [], words
    blocks: list[Block] = []
    boxes = []
    for t in found:
        try:
            rows = t.extract()
        except Exception:
            continue
        rows = _fix_vertical_cells(page, t, rows)
        rows = _fill_stray_cells(page, t, rows)
        rows, header = fill_header_spans(rows)
        rows = [[" ".join((c or "").split()) for c in r] for r in rows]
        rows = [r for r in rows if any(r)]
        if not rows:
            continue
        keep = [j for j in range(max(len(r) for r in rows)) if any(j < len(r) and r[j] for r in rows)]
        rows = [[r[j] if j < len(r) else "" for j in keep] for r in rows]
        cells = [c for r in rows for c in r]
        filled = sum(1 for c in cells if c)
        if len(rows) < 2 or len(keep) < 2 or filled / len(cells) < 0.3:
            continue
        if max(len(c) for c in cells) > 400:
            continue  # a text frame drawn as a box, not a table
        x0, top, x1, bottom = t.bbox
        b = Block(x0, top, x1, bottom, kind="table", rows=rows, header_rows=header)
        blocks.append(b)
        boxes.append(t.bbox)
    if not boxes:
        return [], words
    rest = []
    for w in words:
        cx, cy = (w["x0"] + w["x1"]) / 2, (w["top"] + w["bottom"]) / 2
        if not any(x0 <= cx <= x1 and top <= cy <= bottom for x0, top, x1, bottom in boxes):
            rest.append(w)
    return blocks, rest


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
    inside = [c for c in page.chars if x0 <= (c["x0"] + c["x1"]) / 2 <= x1
              and top <= (c["top"] + c["bottom"]) / 2 <= bottom]
    out = [list(r) for r in rows]
    for i, row in enumerate(table.rows):
        if i >= len(out) or None not in row.cells:
            continue
        t, u = row.bbox[1], row.bbox[3]
        band = [c for c in inside if t <= (c["top"] + c["bottom"]) / 2 < u]
        for j, cell in enumerate(row.cells):
            if cell is not None or j >= len(out[i]) or j >= len(cols):
                continue
            a, b = cols[j][0], cols[j][2]
            mine = []
            for c in band:
                cx, cy = (c["x0"] + c["x1"]) / 2, (c["top"] + c["bottom"]) / 2
                if a <= cx < b and not any(
                        r[0] <= cx < r[2] and r[1] <= cy < r[3] for r in real):
                    mine.append(c)
            text = extract_text(mine).strip() if mine else ""
            if text:
                out[i][j] = text
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
            mine = [c for c in rot if a <= (c["x0"] + c["x1"]) / 2 <= b and t <= (c["top"] + c["bottom"]) / 2 <= u]
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


def _struct_map(page) -> dict[int, str]:
    """MCID -> the nearest meaningful structure tag (H1, P, LI, ...) on this page."""
    try:
        tree = page.structure_tree
    except Exception:
        return {}
    out: dict[int, str] = {}

    def walk(node, tag):
        t = node.get("type")
        if t in _TAG_KIND or t in ("Table", "TR", "TD", "TH", "Figure"):
            tag = t
        for m in node.get("mcids") or ():
            if tag:
                out[m] = tag
        for ch in node.get("children") or ():
            walk(ch, tag)

    for n in tree or ():
        walk(n, None)
    return out


def _pdfium_struct_map(page) -> dict[int, str]:
    """MCID -> the nearest meaningful structure tag (H1, P, LI, ...) on this pypdfium2 page, from
    the tagged PDF's structure tree."""
    import pypdfium2.raw as raw

    tree = raw.FPDF_StructTree_GetForPage(page.raw)
    if not tree:
        return {}
    out: dict[int, str] = {}
    buf = ctypes.create_string_buffer(256)

    def walk(elem, tag, depth):
        if not elem or depth > 64:
            return
        k = raw.FPDF_StructElement_GetType(elem, buf, 256)
        t = buf.raw[:max(0, k - 2)].decode("utf-16-le", "replace") if k > 2 else ""
        if t in _TAG_KIND or t in ("Table", "TR", "TD", "TH", "Figure"):
            tag = t
        if tag:
            for j in range(max(0, raw.FPDF_StructElement_GetMarkedContentIdCount(elem))):
                m = raw.FPDF_StructElement_GetMarkedContentIdAtIndex(elem, j)
                if m >= 0:
                    out[m] = tag
        for j in range(max(0, raw.FPDF_StructElement_CountChildren(elem))):
            walk(raw.FPDF_StructElement_GetChildAtIndex(elem, j), tag, depth + 1)

    try:
        for j in range(max(0, raw.FPDF_StructTree_CountChildren(tree))):
            walk(raw.FPDF_StructTree_GetChildAtIndex(tree, j), None, 0)
    finally:
        raw.FPDF_StructTree_Close(tree)
    return out


def _rtl_share(text: str) -> float:
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return 0.0
    return sum(1 for ch in letters if 0x0590 <= ord(ch) <= 0x08FF or 0xFB1D <= ord(ch) <= 0xFEFF) / len(letters)


def _pdftotext(p: Path, n: int, password: str | None, layout: bool = True) -> str | None:
    exe = shutil.which("pdftotext")
    if not exe:
        return None
    cmd = [exe] + (["-layout"] if layout else []) + ["-enc", "UTF-8", "-f", str(n), "-l", str(n)]
    if password:
        cmd += ["-upw", password]
    try:
        r = subprocess.run(cmd + [str(p), "-"], capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    if r.returncode != 0:
        return None
    return r.stdout.decode("utf-8", "replace")


_BIDI_CONTROLS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _letters_key(text: str) -> str:
    """The letters and digits of ``text`` (NFKC: presentation forms become letters), sorted."""
    return "".join(sorted(ch for ch in unicodedata.normalize("NFKC", text) if ch.isalnum()))


def _logical_lines(blocks: list[Block], text: str) -> bool:
    """Right-to-left pages: pdfium gives the characters in visual order, ``pdftotext`` (``text``,
    not laid out) in logical order, line by line. Each line of the text blocks takes the
    pdftotext line with the same letters in any order, as one word (fonts and sizes stay, so
    headings are found as on any page). True when every line found its own; the blocks are left
    alone otherwise (and where the page has a table)."""
    segs = [s for b in blocks for s in b.segments]
    if not segs or any(b.kind == "table" for b in blocks):
        return False
    lines: dict[str, list[str]] = {}
    for raw in text.splitlines():
        # embedding controls stand where the direction changes, often in place of a space
        t = " ".join(_BIDI_CONTROLS.sub(" ", raw).split())
        if t:
            lines.setdefault(_letters_key(t), []).append(t)
    got = []
    for s in segs:
        found = lines.get(_letters_key(s.text))
        if not found:
            return False
        got.append(found.pop(0))
    for s, t in zip(segs, got):
        s.words = [{**s.words[0], "text": t, "x0": s.x0, "x1": s.x1}]
    return True


def _plain_paragraphs(text: str) -> list[tuple[str, str, dict[str, Any]]]:
    out = []
    for para in re.split(r"\n\s*\n", text.replace("\f", "\n")):
        t = join_lines(para.splitlines())
        if t:
            out.append(("paragraph", t, {}))
    return out


def _invisible_text(pdoc, index: int) -> bool:
    """Whether every text object on the page is drawn in render mode 3 (an OCR text layer)."""
    try:
        import pypdfium2.raw as raw

        page = pdoc[index]
        try:
            modes = [raw.FPDFTextObj_GetTextRenderMode(o.raw)
                     for o in page.get_objects(filter=[raw.FPDF_PAGEOBJ_TEXT], max_depth=2)]
        finally:
            page.close()
        return bool(modes) and all(m == raw.FPDF_TEXTRENDERMODE_INVISIBLE for m in modes)
    except Exception:
        return False


def _has_marks(pdoc, index: int) -> bool:
    """Whether a page draws anything (an image, a path, a form, a shading)."""
    import pypdfium2.raw as raw

    page = pdoc[index]
    try:
        kinds = (raw.FPDF_PAGEOBJ_IMAGE, raw.FPDF_PAGEOBJ_PATH, raw.FPDF_PAGEOBJ_FORM,
                 raw.FPDF_PAGEOBJ_SHADING)
        return any(True for _ in page.get_objects(filter=list(kinds), max_depth=1))
    except Exception:
        return True
    finally:
        page.close()


def _ocr(pdoc, index: int, languages: list[str] | None) -> list[tuple[str, str, dict[str, Any]]] | None:
    """OCR one page; None where the OCR module is not available."""
    try:
        from .ocr import ocr_pages  # type: ignore[import-not-found]
    except ImportError:
        return None
    page = pdoc[index]
    try:
        img = page.render(scale=300 / 72).to_pil()
    finally:
        page.close()
    try:
        res = ocr_pages([img], languages)[0]
    except Exception as exc:  # OCR failing should not lose the document
        log.warning("OCR failed on page %d: %s", index + 1, exc)
        return None
    return _ocr_elements(res)


def _ocr_elements(res: Any) -> list[tuple[str, str, dict[str, Any]]]:
    """An ``OcrPage`` as (kind, text, metadata) paragraphs."""
    out = []
    blocks = list(getattr(res, "blocks", None) or [])
    meta = {"rotation": getattr(res, "rotation", 0), "languages": list(getattr(res, "languages", []) or [])}
    if blocks:
        for text, conf in blocks:
            out.append(("paragraph", text, {**meta, "confidence": round(float(conf), 1)}))
    elif getattr(res, "text", ""):
        out.extend((k, t, {**meta, **m}) for k, t, m in _plain_paragraphs(res.text))
    return out


def _layout_page(page, n: int, tagged: bool) -> _Page:
    """Layout of one page read with pdfplumber (pages that may hold a ruled table, tagged PDFs)."""
    attrs = ["fontname", "size"] + (["mcid"] if tagged else [])
    words = page.extract_words(extra_attrs=attrs, keep_blank_chars=False)
    # rotated text (margin stamps, vertical labels) stays out of the flow; tables keep theirs
    words = [w for w in words if w["text"].strip()]
    upright = [w for w in words if w.get("upright", True)]
    tag_of = _struct_map(page) if tagged else {}
    tables, rest = _tables(page, upright)
    return _layout_words(rest, float(page.width), float(page.height), n, tables, tag_of)


def _layout_words(words: list[dict[str, Any]], width: float, height: float, n: int,
                  tables: list[Block] | None = None, tag_of: dict[int, str] | None = None) -> _Page:
    """Lines, tables of contents, unruled tables, blocks and reading order from the words."""
    res = _Page(n, width, height)
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
    if tag_of:
        for b in blocks:
            c = Counter(tag_of.get(w.get("mcid")) for s in b.segments for w in s.words)
            c.pop(None, None)
            if c:
                b.tag = c.most_common(1)[0][0]
    res.blocks = [blocks[i] for i in reading_order(blocks)]
    return res


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


_SPACES = frozenset(" \t\r\n\u00a0\u3000")


def _pdfium_words(page, textpage, chars: list[dict[str, Any]] | None = None,
                  mcid: bool = False) -> list[dict[str, Any]]:
    """The words of a pypdfium2 page in the shape of pdfplumber's ``extract_words(extra_attrs=
    ["fontname", "size"])`` (x0/x1/top/bottom with ``top`` from the page top, the box of a
    character being its font size tall above its descent, as pdfminer draws it), about four
    times faster. A word ends at a space (pdfium's generated spaces included: it sees word gaps
    in tightly set text that a fixed tolerance misses), a gap over 3 pt, a change of line, font,
    size or direction. ``chars``, where given, gets the characters (pdfplumber's char dicts, the
    keys its table extraction reads). ``mcid``: words also carry their marked-content id (tagged
    PDFs), and end where it changes."""
    import pypdfium2.raw as raw

    tp = textpage.raw
    to_display, rot = _display_map(page)
    rect, mat = raw.FS_RECTF(), raw.FS_MATRIX()
    buf = ctypes.create_string_buffer(256)
    flags = ctypes.c_int()
    fonts: dict[Any, tuple[str, int]] = {}
    words: list[dict[str, Any]] = []
    cur: list[tuple[str, float, float, float, float]] = []
    attrs: tuple[str, float, bool, int] | None = None
    space = False
    # Indic text: where words break, from the gaps between letter clusters (pdf_glyphs)
    breaks = page_word_breaks(textpage)

    def flush() -> None:
        if cur and any(c[0] < " " for c in cur):
            cur.clear()  # glyphs without a Unicode mapping come out as control characters
        if cur:
            words.append({"text": "".join(c[0] for c in cur), "x0": min(c[1] for c in cur),
                          "x1": max(c[3] for c in cur), "top": min(c[2] for c in cur),
                          "bottom": max(c[4] for c in cur), "fontname": attrs[0],
                          "size": attrs[1], "upright": attrs[2]})
            if mcid and attrs[3] >= 0:
                words[-1]["mcid"] = attrs[3]
            cur.clear()

    for i in range(raw.FPDFText_CountChars(tp)):
        u = raw.FPDFText_GetUnicode(tp, i)
        if u == 2:  # pdfium's mark for a hyphen at a line end
            u = 0x2D
        ch = chr(u) if 0 < u < 0x110000 else ""
        if not ch or ch in _SPACES or u == 0xFFFE or raw.FPDFText_IsGenerated(tp, i):
            if breaks.get(i) is not False:
                flush()
                space = True
            continue
        raw.FPDFText_GetLooseCharBox(tp, i, rect)
        raw.FPDFText_GetMatrix(tp, i, mat)
        size = round(raw.FPDFText_GetFontSize(tp, i) * math.hypot(mat.c, mat.d), 3)
        if rot:
            (ax, ay), (bx, by) = to_display(rect.left, rect.bottom), to_display(rect.right, rect.top)
            left, right, bottom = min(ax, bx), max(ax, bx), max(ay, by)
        else:
            left, right, bottom = rect.left, rect.right, to_display(0.0, rect.bottom)[1]
        top = bottom - size
        obj = ctypes.cast(raw.FPDFText_GetTextObject(tp, i), ctypes.c_void_p).value
        got = fonts.get(obj)
        if got is None:
            k = raw.FPDFText_GetFontInfo(tp, i, buf, 256, flags)
            mc = raw.FPDFPageObj_GetMarkedContentID(raw.FPDFText_GetTextObject(tp, i)) if mcid else -1
            got = fonts[obj] = (buf.raw[:max(0, k - 1)].decode("utf-8", "replace"), mc)
        font, mc = got
        angle = (raw.FPDFText_GetCharAngle(tp, i) + rot) % (2 * math.pi)
        a = (font, size, angle < 0.01 or angle > 2 * math.pi - 0.01, mc)
        brk = breaks.get(i)
        space = space or bool(brk)
        if cur and brk is not None:
            if brk or a[1:] != attrs[1:]:  # one word may mix fonts (a Latin colon after Devanagari)
                flush()
        elif cur:
            _, px0, ptop, px1, pbottom = cur[-1]
            h = max(bottom - top, 0.1)
            if (a != attrs or left - px1 > 3 or left < px0 - 1
                    or min(bottom, pbottom) - max(top, ptop) < 0.5 * min(h, pbottom - ptop)):
                flush()
        if not cur:
            attrs = a
        cur.append((ch, left, top, right, bottom))
        if chars is not None:
            if space and chars and (not a[2] or chars[-1]["x1"] < left
                                    and abs(chars[-1]["bottom"] - bottom) < 0.5 * size):
                x0 = chars[-1]["x1"] if a[2] else left  # rotated text: a zero-width space
                chars.append({"text": " ", "x0": x0, "x1": left if a[2] else left, "top": top,
                              "bottom": bottom, "doctop": top, "height": bottom - top,
                              "width": left - x0, "size": size, "upright": a[2],
                              "fontname": font})
            space = False
            chars.append({"text": ch, "x0": left, "x1": right, "top": top, "bottom": bottom,
                          "doctop": top, "height": bottom - top, "width": right - left,
                          "size": size, "upright": a[2], "fontname": font})
    flush()
    return words


def _pdfium_edges(page) -> list[dict[str, Any]]:
    """The horizontal and vertical edges of a pypdfium2 page's paths, as pdfplumber's
    ``page.edges`` has them: every axis-parallel straight segment of a painted path (rectangles
    give their four sides), in page coordinates with ``top`` from the page top."""
    import pypdfium2.raw as raw

    to_display, _ = _display_map(page)
    edges: list[dict[str, Any]] = []
    x, y = ctypes.c_float(), ctypes.c_float()
    m = raw.FS_MATRIX()

    def mul(a, b):  # a then b, as (a, b, c, d, e, f)
        return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4],
                a[4] * b[1] + a[5] * b[3] + b[5])

    def add(p0, p1):
        (x0, y0), (x1, y1) = to_display(*p0), to_display(*p1)
        y0, y1 = -y0, -y1  # display "top" grows downwards
        if abs(y0 - y1) < 0.01 and abs(x0 - x1) >= 0.01:
            o = "h"
        elif abs(x0 - x1) < 0.01 and abs(y0 - y1) >= 0.01:
            o = "v"
        else:
            return
        top, bottom = -max(y0, y1), -min(y0, y1)
        edges.append({"x0": min(x0, x1), "x1": max(x0, x1), "top": top, "bottom": bottom,
                      "width": abs(x1 - x0), "height": bottom - top, "orientation": o,
                      "object_type": "line"})

    def walk(obj, ctm):
        kind = raw.FPDFPageObj_GetType(obj)
        if kind == raw.FPDF_PAGEOBJ_FORM:
            raw.FPDFPageObj_GetMatrix(obj, m)
            inner = mul((m.a, m.b, m.c, m.d, m.e, m.f), ctm)
            for k in range(raw.FPDFFormObj_CountObjects(obj)):
                walk(raw.FPDFFormObj_GetObject(obj, k), inner)
            return
        if kind != raw.FPDF_PAGEOBJ_PATH:
            return
        raw.FPDFPageObj_GetMatrix(obj, m)
        a, b, c, d, e, f = mul((m.a, m.b, m.c, m.d, m.e, m.f), ctm)
        start = prev = None
        for k in range(raw.FPDFPath_CountSegments(obj)):
            seg = raw.FPDFPath_GetPathSegment(obj, k)
            raw.FPDFPathSegment_GetPoint(seg, x, y)
            pt = (a * x.value + c * y.value + e, b * x.value + d * y.value + f)
            t = raw.FPDFPathSegment_GetType(seg)
            if t == raw.FPDF_SEGMENT_MOVETO:
                start = prev = pt
                continue
            if t == raw.FPDF_SEGMENT_LINETO and prev is not None:
                add(prev, pt)
            prev = pt
            if raw.FPDFPathSegment_GetClose(seg) and start is not None:
                add(pt, start)
                prev = start

    for k in range(raw.FPDFPage_CountObjects(page.raw)):
        walk(raw.FPDFPage_GetObject(page.raw, k), (1.0, 0.0, 0.0, 1.0, 0.0, 0.0))
    return edges


def _display_map(page):
    """(map, rotation in radians): ``map(x, y)`` takes PDF user space (y up) to the displayed
    page's (x, top) with ``top`` growing downwards, applying the page's /Rotate as pdfminer does."""
    w, h = page.get_width(), page.get_height()  # of the displayed (rotated) page
    rot = page.get_rotation() % 360
    if rot == 90:
        return (lambda x, y: (y, x)), math.pi / 2
    if rot == 180:
        return (lambda x, y: (w - x, y)), math.pi
    if rot == 270:
        return (lambda x, y: (w - y, h - x)), 3 * math.pi / 2
    return (lambda x, y: (x, h - y)), 0.0


class _PdfiumTablePage:
    """What pdfplumber's ``TableFinder`` and ``Table.extract`` read of a page (``bbox``,
    ``edges``, ``chars``), from pypdfium2: ruled tables without pdfplumber's slow page parse."""

    def __init__(self, width: float, height: float, edges, chars) -> None:
        self.width, self.height = width, height
        self.bbox = (0.0, 0.0, width, height)
        self.edges = self.lines = edges
        self.rects = self.curves = []
        self.chars = chars

    def find_tables(self, settings=None):
        from pdfplumber.table import TableFinder, TableSettings

        return TableFinder(self, TableSettings.resolve(settings)).tables


def _has_images(page) -> bool:
    import pypdfium2.raw as raw

    return any(True for _ in page.get_objects(filter=[raw.FPDF_PAGEOBJ_IMAGE], max_depth=3))


def _page_text(words_blocks: list[Block]) -> str:
    return "\n".join(s.text for b in words_blocks for s in b.segments) + "\n".join(
        c for b in words_blocks if b.rows for r in b.rows for c in r)


# ----------------------------------------------------------------------------------------------
# the reader


def read_pdf(path: str | Path, *, ocr: str = "auto", languages: list[str] | None = None,
             password: str | None = None) -> Document:
    """Read a PDF into a ``Document`` (see the module docstring). ``ocr``: "auto" (pages without a
    usable text layer), "always" (every page) or "never"; ``languages`` go to OCR."""
    if ocr not in OCR_MODES:
        raise ValueError(f"ocr must be one of {', '.join(OCR_MODES)}, not {ocr!r}")
    p = Path(path)
    pdoc = _validate(p, password)
    pages: list[_Page] = []
    plumber: list[Any] = []  # pdfplumber, opened only for a page whose pdfium text is garbled
    try:
        import pypdfium2.raw as raw

        try:
            tagged = bool(raw.FPDFCatalog_IsTagged(pdoc.raw))
        except Exception:
            tagged = False
        for i in range(len(pdoc)):
            n = i + 1
            fpage = None
            try:
                fpage = pdoc[i]
                pages.append(_read_page(p, pdoc, fpage, plumber, i, ocr, languages, password, tagged))
            except InputError:
                raise
            except Exception as exc:
                raise InputError(p, f"corrupt PDF: page {n}: {type(exc).__name__}: {exc}") from None
            finally:
                if fpage is not None:
                    fpage.close()
        _ocr_pending(pdoc, pages, languages)
    finally:
        for pdf in plumber:
            pdf.close()
        pdoc.close()
    return _assemble(p, pages)


def _plumber_layout(p: Path, plumber: list[Any], password: str | None, i: int, tagged: bool) -> _Page:
    """The page read with pdfplumber (pdfminer decodes some fonts that pdfium cannot)."""
    if not plumber:
        plumber.append(_open_plumber(p, password))
    page = plumber[0].pages[i]
    try:
        return _layout_page(page, i + 1, tagged)
    finally:
        page.close()


def _read_page(p: Path, pdoc, fpage, plumber: list[Any], i: int, ocr: str, languages, password,
               tagged) -> _Page:
    """One page from pypdfium2: its words (and, where it draws rules, its ruled tables through
    pdfplumber's table finder on pdfium's edges and characters), then the fallbacks (right-to-left
    script, garbled text layer: pdfplumber, pdftotext, OCR; no text layer: OCR)."""
    n = i + 1
    width, height = float(fpage.get_width()), float(fpage.get_height())
    edges = _pdfium_edges(fpage)
    chars: list[dict[str, Any]] | None = [] if len(edges) >= 4 else None
    textpage = fpage.get_textpage()
    try:
        words = _pdfium_words(fpage, textpage, chars, mcid=tagged)
    finally:
        textpage.close()
    has_chars = bool(words)
    res: _Page
    if has_chars:
        tag_of = _pdfium_struct_map(fpage) if tagged else {}
        upright = [w for w in words if w["upright"]]
        tables: list[Block] = []
        if chars:
            tables, upright = _tables(_PdfiumTablePage(width, height, edges, chars), upright)
        res = _layout_words(upright, width, height, n, tables, tag_of)
        res.extractor = "pdfium"
        has_images = _has_images(fpage)
        invisible = has_images and _invisible_text(pdoc, i)
        if invisible:
            res.notes.append("text layer is invisible (OCR) text")
        if ocr == "always":
            got = _ocr(pdoc, i, languages)
            if got is not None:
                return _Page(n, res.width, res.height, "ocr", plain=got, notes=res.notes)
            res.notes.append("OCR unavailable; used the text layer")
            return res
        ptext = _page_text(res.blocks)
        if _rtl_share(ptext) > 0.3:
            # right-to-left scripts: pdftotext applies the bidi rules to the character order
            text = _pdftotext(p, n, password, layout=False)
            if text and text.strip() and _logical_lines(res.blocks, text):
                res.extractor = "pdftotext"
                res.notes.append("right-to-left script: text from pdftotext, layout from pdfium")
                return res
            if text and text.strip():
                return _Page(n, res.width, res.height, "pdftotext", plain=_plain_paragraphs(text),
                             notes=res.notes + ["right-to-left script: used pdftotext"])
        if not is_garbled(ptext):
            return res
        try:
            alt = _plumber_layout(p, plumber, password, i, tagged)
        except Exception as exc:  # pdfminer's parse errors, its recursion limit: try the next extractor
            alt = None
            res.notes.append(f"pdfplumber failed ({type(exc).__name__}: {str(exc)[:80]})")
        if alt is not None and alt.blocks and not is_garbled(_page_text(alt.blocks)):
            alt.notes = res.notes + ["pdfium text garbled: used pdfplumber"]
            return alt
        res.notes.append("text layer garbled")
        text = _pdftotext(p, n, password)
        if text is not None and text.strip() and not is_garbled(text):
            return _Page(n, res.width, res.height, "pdftotext", plain=_plain_paragraphs(text),
                         notes=res.notes)
        if ocr != "never":
            got = _ocr(pdoc, i, languages)
            if got is not None:
                return _Page(n, res.width, res.height, "ocr", plain=got, notes=res.notes)
            res.notes.append("OCR unavailable")
        if text is not None and text.strip():
            res.notes.append("pdftotext output also garbled")
            return _Page(n, res.width, res.height, "pdftotext", plain=_plain_paragraphs(text),
                         notes=res.notes)
        return res
    res = _Page(n, width, height, extractor="none")
    if ocr == "never":
        res.notes.append("no text layer; OCR off (ocr='never')")
        return res
    if not _has_marks(pdoc, i):  # nothing drawn at all: no text to find, no OCR time to spend
        res.notes.append("blank page")
        return res
    res.extractor = _OCR_PENDING  # OCR'd with the other scanned pages, in parallel
    return res


_OCR_PENDING = "ocr-pending"
#: scanned pages rendered and OCR'd together (each process takes one page; bounded memory)
OCR_BATCH = 8


def _ocr_pending(pdoc, pages: list[_Page], languages: list[str] | None) -> None:
    """OCR every page left pending, a batch of pages at a time across processes."""
    pending = [k for k, pg in enumerate(pages) if pg.extractor == _OCR_PENDING]
    if not pending:
        return
    try:
        from .ocr import ocr_pages  # type: ignore[import-not-found]
    except ImportError:
        ocr_pages = None
    for start in range(0, len(pending), OCR_BATCH):
        batch = pending[start:start + OCR_BATCH]
        results: list[Any] = [None] * len(batch)
        if ocr_pages is not None:
            images = []
            for k in batch:
                page = pdoc[k]
                try:
                    images.append(page.render(scale=300 / 72).to_pil())
                finally:
                    page.close()
            try:
                results = ocr_pages(images, languages, progress=len(pending) > 1)
            except Exception as exc:  # OCR failing should not lose the document
                log.warning("OCR failed on pages %s: %s", [k + 1 for k in batch], exc)
        for k, res in zip(batch, results):
            pg = pages[k]
            if res is None:
                pg.extractor = "none"
                pg.notes.append("no text layer; OCR unavailable")
            else:
                pg.extractor, pg.plain = "ocr", _ocr_elements(res)


def _body_size(pages: list[_Page]) -> float:
    c: Counter[float] = Counter()
    for pg in pages:
        for b in pg.blocks:
            for s in b.segments:
                c[s.size] += len(s.text)
    return c.most_common(1)[0][0] if c else 10.0


def _furniture(pages: list[_Page], body: float = 10.0) -> set[tuple[int, int]]:
    """(page index, block index) pairs that are running headers/footers or page numbers. A
    number set at 1.5 times the body size (``body``, pt) or more is a chapter number, not a page
    number; a one-line block in the band on the page number's line is a footer (or header)."""
    cands: list[tuple[int, int, str, str]] = []
    for pi, pg in enumerate(pages):
        text_blocks = [b for b in pg.blocks if b.kind != "table"]
        if not text_blocks:
            continue
        # the blocks on the first and last line of the page count even outside the band
        first_top = min(b.top for b in text_blocks)
        last_bottom = max(b.bottom for b in text_blocks)
        for bi, b in enumerate(pg.blocks):
            if b.kind == "table" or len(b.segments) > 2:
                continue
            if b.bottom <= pg.height * BAND or (b.top <= first_top + 2 and b.bottom < pg.height * 0.2):
                band = "top"
            elif b.top >= pg.height * (1 - BAND) or (b.bottom >= last_bottom - 2 and b.top > pg.height * 0.8):
                band = "bottom"
            else:
                continue
            cands.append((pi, bi, band, " ".join(b.lines)))
    counts: Counter[tuple[str, str]] = Counter()
    seen: set[tuple[int, str, str]] = set()
    for pi, _, band, text in cands:
        k = (band, furniture_key(text))
        if (pi, *k) not in seen:
            seen.add((pi, *k))
            counts[k] += 1
    n = len(pages)
    out = set()
    for pi, bi, band, text in cands:
        c = counts[(band, furniture_key(text))]
        number = is_page_number(text) and pages[pi].blocks[bi].size < 1.5 * body
        if number or (n >= 2 and c >= 2 and c >= 0.4 * n):
            out.add((pi, bi))
    for pi, bi, band, text in cands:
        b = pages[pi].blocks[bi]
        if (pi, bi) not in out and len(b.segments) == 1 and any(
                (pi, oi) in out and is_page_number(" ".join(o.lines)) and _same_line(b, o)
                for oi, o in enumerate(pages[pi].blocks)):
            out.add((pi, bi))
    return out


def _same_line(a: Block, b: Block) -> bool:
    """Whether two blocks overlap vertically by half the lower one's height or more."""
    return min(a.bottom, b.bottom) - max(a.top, b.top) >= 0.5 * min(a.bottom - a.top, b.bottom - b.top)


def _assemble(p: Path, pages: list[_Page]) -> Document:
    if not any(b.tag in ("H", "H1", "H2", "H3", "H4", "H5", "H6", "Title")
               for pg in pages for b in pg.blocks):
        # tagged without headings (everything "P", as some converters write it): the tags say
        # nothing about structure, the layout does
        for pg in pages:
            for b in pg.blocks:
                if b.tag == "P":
                    b.tag = None
    body = _body_size(pages)
    furn = _furniture(pages, body)
    line_numbers = {(pi, bi) for pi, pg in enumerate(pages) for bi in line_number_blocks(pg.blocks)}
    furn |= line_numbers
    # heading sizes: distinct sizes clearly above body size used by short blocks
    def short(b: Block) -> bool:
        t = " ".join(b.lines)
        return len(b.segments) <= 3 and 1 < len(t) <= 200

    title_key = None
    if pages and pages[0].blocks:
        # a title has words (a one-word logo such as a series name set huge is not the title)
        big = [(b.size, -bi) for bi, b in enumerate(pages[0].blocks)
               if b.kind != "table" and short(b) and (0, bi) not in furn and b.size >= body + 1.5
               and len(" ".join(b.lines).split()) >= 2]
        if big:
            tsize, tbi = max(big)
            # the title is the largest text on the first page, and no heading elsewhere is as large
            rivals = sum(1 for pi, pg in enumerate(pages) for bi, b in enumerate(pg.blocks)
                         if b.kind != "table" and short(b) and b.size >= tsize - 0.25
                         and len(" ".join(b.lines).split()) >= 2)
            if rivals == 1:
                title_key = (0, -tbi)
    sizes = sorted({b.size for pi, pg in enumerate(pages) for bi, b in enumerate(pg.blocks)
                    if b.kind != "table" and short(b) and b.size >= body + 1.0
                    and (pi, bi) != title_key}, reverse=True)
    size_level = {s: i + 1 for i, s in enumerate(sizes)}
    bold_level = len(sizes) + 1

    cls = _classify_all(pages, furn, body, size_level, bold_level, title_key)
    labels = _number_labels(pages, furn, cls)
    numbers = set(labels.values())

    builder = DocumentBuilder(str(p))
    title = None
    extractors = []
    notes = {}
    for pi, pg in enumerate(pages):
        builder.new_page(pg.number)
        extractors.append(pg.extractor)
        if pg.notes:
            notes[pg.number] = pg.notes
        meta = {"extractor": pg.extractor}
        for kind, text, m in pg.plain:
            builder.add(kind, text, page=pg.number, metadata={**meta, **m})
        for bi, b in enumerate(pg.blocks):
            text = " ".join(b.lines)
            if (pi, bi) in furn:
                kind = "line_number" if (pi, bi) in line_numbers else "page_number" if is_page_number(
                    text) else ("page_header" if b.top < pg.height / 2 else "page_footer")
                builder.add_furniture(kind, text, pg.number)
                continue
            if b.kind == "table":
                builder.add_table(b.rows or [], header_rows=b.header_rows, page=pg.number, metadata=meta)
                continue
            if (pi, bi) in numbers:
                continue  # a section number, written in front of its heading
            runin = _run_in_heading(b)
            if runin:
                head, rest = runin
                num = _NUMBERED.match(head)
                lvl = min(6, num.group(1).rstrip(".").count(".") + bold_level) if num else min(6, bold_level)
                builder.add("heading", head, level=lvl, page=pg.number, metadata={**meta, "run_in": True})
                builder.add("paragraph", join_lines(rest), page=pg.number, metadata=meta)
                continue
            kind, level = cls[(pi, bi)]
            if level is not None:
                level = max(1, min(6, level))
            m = dict(meta)
            if kind == "list_item":
                body_text = join_lines(b.lines)
                stripped, marker = strip_glyph_bullet(body_text)
                if marker:
                    m["marker"] = marker
                    body_text = stripped
                builder.add("list_item", body_text, page=pg.number, metadata=m)
                continue
            text = join_lines(b.lines)
            if (pi, bi) in labels:
                text = " ".join(pg.blocks[labels[(pi, bi)][1]].lines) + " " + text
            el = builder.add(kind, text, level=level, page=pg.number, metadata=m)
            if kind == "title" and el is not None and title is None:
                title = text
    used = [e for e in extractors if e != "none"]
    main = Counter(used).most_common(1)[0][0] if used else "none"
    fields: dict[str, Any] = {"format": "pdf", "extractor": main, "pages": len(pages),
                              "page_extractors": extractors, "body_font_size": body}
    if title:
        fields["title"] = title
    if notes:
        fields["page_notes"] = notes
    return builder.build(**fields)


_SECTION_NUMBER = re.compile(r"\d{1,2}(?:\.\d{1,2}){0,3}\.?")


def _number_labels(pages: list[_Page], furn: set[tuple[int, int]],
                   cls: dict[tuple[int, int], tuple[str, int | None]]
                   ) -> dict[tuple[int, int], tuple[int, int]]:
    """Section numbers set apart from their heading (in a box to its left, or a large chapter
    number above it): heading key -> number key. The number is a block of its own holding just
    the number, followed in reading order by the heading with only smaller text in between (a
    "Chapter 1." label), on the heading's line to its left or above it at its size or larger."""
    out: dict[tuple[int, int], tuple[int, int]] = {}
    for pi, pg in enumerate(pages):
        keys = [(pi, bi) for bi in range(len(pg.blocks)) if (pi, bi) not in furn]
        for k, key in enumerate(keys):
            num = pg.blocks[key[1]]
            if (num.kind == "table" or len(num.segments) != 1 or cls.get(key, ("",))[0] != "paragraph"
                    or not _SECTION_NUMBER.fullmatch(num.lines[0].strip())):
                continue
            for nk in keys[k + 1:k + 4]:
                b = pg.blocks[nk[1]]
                if cls.get(nk, ("",))[0] in ("heading", "title"):
                    beside = _same_line(num, b) and num.x1 <= b.x0
                    above = num.bottom <= b.top and num.size >= b.size - 0.25
                    if (beside or above) and nk not in out:
                        out[nk] = key
                    break
                if b.kind == "table" or b.size >= num.size:
                    break
    return out


def _classify_all(pages: list[_Page], furn: set[tuple[int, int]], body: float,
                  size_level: dict[float, int], bold_level: int, title_key
                  ) -> dict[tuple[int, int], tuple[str, int | None]]:
    """``_classify`` for every text block, then the layout headings that no body text follows
    are demoted to paragraphs: a heading must have, among the next two blocks in reading order
    (the second on the same page; not past another heading), body text (a body-size paragraph or list item, or a table) or a heading
    that itself passes. Cover pages, back covers and diagram labels (short bold lines followed
    by more display text or by nothing) are not headings. Tagged headings and the title stay."""
    out: dict[tuple[int, int], tuple[str, int | None]] = {}
    seq: list[tuple[int, int]] = []
    for pi, pg in enumerate(pages):
        for bi, b in enumerate(pg.blocks):
            if (pi, bi) in furn:
                continue
            seq.append((pi, bi))
            if b.kind == "table":
                out[(pi, bi)] = ("table", None)
            elif _run_in_heading(b):
                out[(pi, bi)] = ("paragraph", None)  # heading + body text
            else:
                out[(pi, bi)] = _classify(b, body, size_level, bold_level, (pi, bi) == title_key)
    subtitles = set()
    for key in seq:
        b = pages[key[0]].blocks[key[1]]
        if out[key][0] == "heading" and not b.tag and any(
                out.get((key[0], hi), ("",))[0] in ("heading", "title") and _subtitle(h, b)
                for hi, h in enumerate(pages[key[0]].blocks)):
            out[key] = ("paragraph", None)
            subtitles.add(key)
    seq = [k for k in seq if k not in subtitles]  # a heading's subtitle does not part it from its body

    # the size most text on each page has (a flyer may set all its body text smaller)
    page_body = []
    for pg in pages:
        c: Counter[float] = Counter()
        for b in pg.blocks:
            for sg in b.segments:
                c[sg.size] += len(sg.text)
        size, n = c.most_common(1)[0] if c else (body, 0)
        # only on a page with no text at the document's body size and a good deal at its own
        page_body.append(size if n >= 300 and not any(abs(k - body) <= 0.25 for k in c) else body)

    def body_like(key) -> bool:
        kind = out[key][0]
        b = pages[key[0]].blocks[key[1]]
        if kind == "table":
            return True
        if kind not in ("paragraph", "list_item"):
            return False
        text = " ".join(b.lines)
        if len(text) < 25 or (b.bold > 0.9 and len(b.segments) == 1):
            return False  # a bold line on its own is a label, not body text
        for size in {body, page_body[key[0]]}:
            if abs(b.size - size) <= 0.6 or (size - 0.6 <= b.size <= size + 1.5 and len(b.segments) >= 3):
                return True
        return False

    passes = [False] * len(seq)
    dropped: set[tuple[int, int]] = set()  # layout headings demoted for want of body text
    for i in range(len(seq) - 1, -1, -1):
        key = seq[i]
        kind, level = out[key]
        if kind != "heading" or pages[key[0]].blocks[key[1]].tag:
            continue
        ok = False
        for j in range(i + 1, min(i + 3, len(seq))):
            nk = seq[j]
            if j > i + 1 and nk[0] != key[0]:
                break
            # a heading over a subheading of the same page (a stack of headings) passes with it
            if body_like(nk) or (out[nk][0] == "heading" and passes[j] and nk[0] == key[0]
                                 and (out[nk][1] or 0) > (level or 0)):
                ok = True
                break
            if out[nk][0] == "heading":
                break  # another heading that does not carry this one: display text
            if pages[nk[0]].blocks[nk[1]].size > max(body, page_body[nk[0]]) + 0.6:
                break  # only small text (figure labels) may sit between a heading and its body
        passes[i] = ok
        if not ok:
            out[key] = ("paragraph", None)
            dropped.add(key)
    # a run of like-styled display lines (cover taglines) is not headings, the last one neither
    for i in range(1, len(seq)):
        key, prev = seq[i], seq[i - 1]
        if (out[key][0] == "heading" and not pages[key[0]].blocks[key[1]].tag and prev[0] == key[0]
                and prev in dropped and _same_style(pages[key[0]].blocks[prev[1]], pages[key[0]].blocks[key[1]])):
            out[key] = ("paragraph", None)
    return out


def _same_style(a: Block, b: Block) -> bool:
    """Same size (within 0.25 pt), weight and slant."""
    return (abs(a.size - b.size) <= 0.25 and (a.bold > 0.9) == (b.bold > 0.9)
            and (a.italic > 0.9) == (b.italic > 0.9))


def _subtitle(head: Block, b: Block) -> bool:
    """Whether ``b`` is the subtitle of the heading ``head`` right above it: one unnumbered
    italic line, not bold, smaller than the heading, under it within a line's height (pt), in
    the heading's column."""
    text = " ".join(b.lines)
    return (len(b.segments) == 1 and b.italic > 0.9 and b.bold < 0.5 and head.italic < 0.5
            and b.size < head.size - 0.5 and 0 <= b.top - head.bottom < b.size
            and min(head.x1, b.x1) - max(head.x0, b.x0) > 0 and not _NUMBERED.match(text))


def _run_in_heading(b: Block) -> tuple[str, list[str]] | None:
    """A numbered bold heading that runs into its paragraph ("5.1 Results We found ..."):
    (heading, remaining lines) or None."""
    if b.tag or b.bold > 0.9 or not b.segments:
        return None
    words = b.segments[0].words
    k = 0
    while k < len(words) and is_bold_font(words[k].get("fontname", "")):
        k += 1
    if k == 0 or k >= len(words) and len(b.segments) == 1 or k > 14:
        return None
    head = " ".join(w["text"] for w in words[:k])
    if not _NUMBERED.match(head) or sum(ch.isalpha() for ch in head) < 3:
        return None
    rest = [" ".join(w["text"] for w in words[k:])] + [s.text for s in b.segments[1:]]
    return head, rest


def _classify(b: Block, body: float, size_level: dict[float, int], bold_level: int,
              is_title: bool) -> tuple[str, int | None]:
    text = " ".join(b.lines).strip()
    if b.tag and b.tag in _TAG_KIND:
        kind, level = _TAG_KIND[b.tag]
        if kind == "list_item" or kind in ("heading", "title", "caption", "code"):
            return kind, level
        # "P": trust the tag unless the layout says list item
        if list_marker(text):
            return "list_item", None
        return "paragraph", None
    if is_title:
        return "title", None
    marker = list_marker(text)
    n_lines = len(b.segments)
    short = n_lines <= 3 and len(text) <= 200
    numbered = _NUMBERED.match(text)
    letters = sum(ch.isalpha() for ch in text)
    if short and letters >= 2 and not text.endswith((".", ",", ";")) or (short and numbered and letters >= 2):
        if b.size >= body + 1.0 and b.size in size_level:
            lvl = size_level[b.size]
            if numbered:
                lvl = max(lvl, numbered.group(1).count(".") + 1) if len(size_level) <= 1 else lvl
            return "heading", lvl
        if b.bold > 0.9 and b.size >= body - 0.6 and len(text.split()) <= 14:
            if numbered:
                return "heading", min(6, numbered.group(1).rstrip(".").count(".") + 1 + (bold_level - 1))
            return "heading", bold_level
        words = text.split()
        if (b.italic > 0.9 and n_lines == 1 and abs(b.size - body) <= 0.6 and len(words) <= 8
                and sum(w[:1].isupper() for w in words) >= 0.6 * len(words) and not _CAPTION.match(text)):
            return "heading", bold_level + 1
    if _CAPTION.match(text):
        return "caption", None
    if marker and not (numbered and "." in numbered.group(1) and b.bold > 0.5):
        return "list_item", None
    return "paragraph", None


__all__ = ["read_pdf", "is_garbled"]
