"""Born-digital PDF reader: text layer to ``Document`` with headings, lists, tables, reading order.

Per page (pdfplumber, one ``extract_words`` call): ruled tables (``find_tables``), then the
remaining words grouped into lines, split at column gutters, grouped into blocks and put in
reading order (columns followed). Document-wide: running headers/footers and page numbers become
furniture; headings come from the font size (levels rank the distinct larger-than-body sizes),
bold weight and numbering, or from a tagged PDF's structure tree where it has one. A page whose
text layer is garbled falls back to ``pdftotext``, then OCR; a page with no text layer goes to OCR.
"""
from __future__ import annotations

import logging
import re
import shutil
import subprocess
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..model import Document
from .builder import DocumentBuilder
from .pdf_layout import (Block, Segment, find_gutters, text_tables, furniture_key, is_bold_font, is_garbled, is_page_number,
                         join_lines, list_marker, make_blocks, make_lines, reading_order,
                         split_segments, strip_glyph_bullet)

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
        found = page.find_tables()
    except Exception:  # a malformed drawing should not lose the page
        return [], words
    blocks: list[Block] = []
    boxes = []
    for t in found:
        try:
            rows = t.extract()
        except Exception:
            continue
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
        b = Block(x0, top, x1, bottom, kind="table", rows=rows)
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
    res = _Page(n, float(page.width), float(page.height))
    attrs = ["fontname", "size"] + (["mcid"] if tagged else [])
    words = page.extract_words(extra_attrs=attrs, keep_blank_chars=False)
    # rotated text (margin stamps, vertical labels) stays out of the flow; tables keep theirs
    words = [w for w in words if w["text"].strip()]
    upright = [w for w in words if w.get("upright", True)]
    tag_of = _struct_map(page) if tagged else {}
    tables, rest = _tables(page, upright)
    segments: list[Segment] = []
    lines = make_lines(rest)
    gutters = find_gutters(lines, float(page.width))
    seg_lines = [split_segments(line, gutters=gutters) for line in lines]
    aligned, taken = text_tables(seg_lines)
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
    try:
        pdf = _open_plumber(p, password)
        try:
            tagged = False
            try:
                tagged = bool(pdf.doc.catalog.get("StructTreeRoot"))
            except Exception:
                pass
            n_pages = len(pdf.pages)
            for i in range(n_pages):
                n = i + 1
                try:
                    page = pdf.pages[i]
                except Exception as exc:
                    raise InputError(p, f"corrupt PDF: page {n}: {type(exc).__name__}: {exc}") from None
                try:
                    pages.append(_read_page(p, pdoc, page, i, ocr, languages, password, tagged))
                except InputError:
                    raise
                except Exception as exc:
                    raise InputError(p, f"corrupt PDF: page {n}: {type(exc).__name__}: {exc}") from None
                finally:
                    try:
                        page.close()
                    except Exception:
                        pass
        finally:
            pdf.close()
    finally:
        pdoc.close()
    return _assemble(p, pages)


def _read_page(p: Path, pdoc, page, i: int, ocr: str, languages, password, tagged) -> _Page:
    n = i + 1
    has_chars = bool(page.chars)
    res: _Page
    if has_chars:
        res = _layout_page(page, n, tagged)
        invisible = bool(page.images) and _invisible_text(pdoc, i)
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
            # pdfminer gives right-to-left scripts in visual order; pdftotext applies the bidi rules
            text = _pdftotext(p, n, password, layout=False)
            if text and text.strip():
                return _Page(n, res.width, res.height, "pdftotext", plain=_plain_paragraphs(text),
                             notes=res.notes + ["right-to-left script: used pdftotext"])
        if not is_garbled(ptext):
            return res
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
    res = _Page(n, float(page.width), float(page.height), extractor="none")
    if ocr == "never":
        res.notes.append("no text layer; OCR off (ocr='never')")
        return res
    got = _ocr(pdoc, i, languages)
    if got is None:
        res.notes.append("no text layer; OCR unavailable")
        return res
    res.extractor, res.plain = "ocr", got
    return res


def _body_size(pages: list[_Page]) -> float:
    c: Counter[float] = Counter()
    for pg in pages:
        for b in pg.blocks:
            for s in b.segments:
                c[s.size] += len(s.text)
    return c.most_common(1)[0][0] if c else 10.0


def _furniture(pages: list[_Page]) -> set[tuple[int, int]]:
    """(page index, block index) pairs that are running headers/footers or page numbers."""
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
        if is_page_number(text) or (n >= 2 and c >= 2 and c >= 0.4 * n):
            out.add((pi, bi))
    return out


def _assemble(p: Path, pages: list[_Page]) -> Document:
    body = _body_size(pages)
    furn = _furniture(pages)
    # heading sizes: distinct sizes clearly above body size used by short blocks
    def short(b: Block) -> bool:
        t = " ".join(b.lines)
        return len(b.segments) <= 3 and 1 < len(t) <= 200

    title_key = None
    if pages and pages[0].blocks:
        big = [(b.size, -bi) for bi, b in enumerate(pages[0].blocks)
               if b.kind != "table" and short(b) and (0, bi) not in furn and b.size >= body + 1.5]
        if big:
            tsize, tbi = max(big)
            # the title is the largest text on the first page, and no heading elsewhere is as large
            rivals = sum(1 for pi, pg in enumerate(pages) for bi, b in enumerate(pg.blocks)
                         if b.kind != "table" and short(b) and b.size >= tsize - 0.25)
            if rivals == 1:
                title_key = (0, -tbi)
    sizes = sorted({b.size for pi, pg in enumerate(pages) for bi, b in enumerate(pg.blocks)
                    if b.kind != "table" and short(b) and b.size >= body + 1.0
                    and (pi, bi) != title_key}, reverse=True)
    size_level = {s: i + 1 for i, s in enumerate(sizes)}
    bold_level = len(sizes) + 1

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
                kind = "page_number" if is_page_number(text) else (
                    "page_header" if b.top < pg.height / 2 else "page_footer")
                builder.add_furniture(kind, text, pg.number)
                continue
            if b.kind == "table":
                builder.add_table(b.rows or [], header_rows=1, page=pg.number, metadata=meta)
                continue
            runin = _run_in_heading(b)
            if runin:
                head, rest = runin
                num = _NUMBERED.match(head)
                lvl = min(6, num.group(1).rstrip(".").count(".") + bold_level) if num else min(6, bold_level)
                builder.add("heading", head, level=lvl, page=pg.number, metadata={**meta, "run_in": True})
                builder.add("paragraph", join_lines(rest), page=pg.number, metadata=meta)
                continue
            kind, level = _classify(b, body, size_level, bold_level, (pi, bi) == title_key)
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
