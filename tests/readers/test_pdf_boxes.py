"""The PDF reader's boxes on real files: page sizes, element boxes inside their pages, line spans
inside their elements and in order, and each line box holding that line's words as pdfium's own
text API finds them there."""
from __future__ import annotations

import ctypes
import re
from functools import lru_cache
from pathlib import Path

import pytest

from seamcut.readers.pdf import read_pdf
from seamcut.readers.pdf.hyphenation import join_line_spans, join_lines
from tests.helpers.data import DATA, HELPLINE

ROOT = Path(__file__).resolve().parents[2]
PDFS = DATA / "pdfs"
#: born-digital PDFs in Latin script (pdfium's text order is the reading order's, word by word);
#: senate-expenditures' pages are turned 90 degrees (/Rotate)
LATIN = [HELPLINE / "cotton-manual.pdf", HELPLINE / "crop-insurance-2026.pdf",
         PDFS / "docling" / "redp5110_sampled.pdf", PDFS / "docling" / "normal_4pages.pdf",
         PDFS / "pdfplumber" / "federal-register-2020-17221.pdf",
         PDFS / "pdfplumber" / "senate-expenditures.pdf"]
SCAN = HELPLINE / "seed-subsidy-circular-2019-scan.pdf"


def _need(p: Path) -> Path:
    if not p.exists():
        pytest.skip(f"test PDF not found: {p}")
    return p


@lru_cache(maxsize=None)
def _read(p: Path):
    return read_pdf(_need(p))


def check_boxes(doc) -> None:
    """Every element with a box lies inside its page; its lines' spans lie inside its span, in
    order, and their boxes inside its box."""
    sizes = doc.metadata["page_sizes"]
    assert len(sizes) == doc.metadata["pages"]
    for e in doc.elements:
        if "bbox" not in e.metadata:
            assert "lines" not in e.metadata
            continue
        w, h = sizes[e.page - 1]
        x0, top, x1, bottom = e.metadata["bbox"]
        assert 0 <= x0 <= x1 <= w and 0 <= top <= bottom <= h, (e, w, h)
        prev = e.start
        for a, b, lx0, ltop, lx1, lbottom in e.metadata.get("lines", []):
            assert prev <= a < b <= e.end, (e, a, b)
            prev = b
            assert x0 <= lx0 <= lx1 <= x1 and top <= ltop <= lbottom <= bottom, e


@pytest.mark.parametrize("path", [*LATIN, *sorted(HELPLINE.glob("*.pdf"))], ids=lambda p: p.name)
def test_boxes_lie_in_their_pages_and_lines_in_their_elements(path):
    doc = _read(path)
    check_boxes(doc)
    assert sum("bbox" in e.metadata for e in doc.elements) == len(doc.elements)


def _pdf_rect(page, box, scale: float = 16.0) -> tuple[float, float, float, float]:
    """A box on the displayed page (points, top-left origin) as PDF page coordinates (left,
    bottom, right, top), by pdfium's own device-to-page mapping (the page's /Rotate applied)."""
    import pypdfium2.raw as raw

    w, h = page.get_width(), page.get_height()
    sx, sy = round(w * scale), round(h * scale)
    xs, ys = [], []
    for dx, dy in ((box[0], box[1]), (box[2], box[3])):
        px, py = ctypes.c_double(), ctypes.c_double()
        raw.FPDF_DeviceToPage(page.raw, 0, 0, sx, sy, 0, round(dx * scale), round(dy * scale),
                              px, py)
        xs.append(px.value)
        ys.append(py.value)
    return min(xs), min(ys), max(xs), max(ys)


@pytest.mark.parametrize("path", LATIN, ids=lambda p: p.name)
def test_pdfium_finds_each_lines_words_inside_its_box(path):
    import pypdfium2 as pdfium

    doc = _read(path)
    pdf = pdfium.PdfDocument(path)
    checked = missed = 0
    try:
        pages: dict[int, tuple] = {}
        for e in doc.elements:
            if e.metadata.get("extractor") != "pdfium" or "lines" not in e.metadata:
                continue
            if e.page not in pages:
                page = pdf[e.page - 1]
                pages[e.page] = (page, page.get_textpage())
            page, tp = pages[e.page]
            for a, b, *box in e.metadata["lines"]:
                pad = 1.0  # points: the rounding to 0.1 pt, and glyphs set a hair outside
                left, bottom, right, top = _pdf_rect(page, [box[0] - pad, box[1] - pad,
                                                            box[2] + pad, box[3] + pad])
                found = "".join(tp.get_text_bounded(left=left, bottom=bottom, right=right,
                                                    top=top).split())
                words = re.findall(r"\w+", doc.text[a:b])
                checked += 1
                missed += not all(w in found for w in words)
        # and a box moved off its line (down by three line heights) does not hold its words
        # in order
        moved = hits = 0
        for e in doc.elements[:40]:
            for a, b, x0, top, x1, bottom in e.metadata.get("lines", [])[:1]:
                page, tp = pages.get(e.page, (None, None))
                words = re.findall(r"\w+", doc.text[a:b])
                # a line whose text stands once in the document (not a repeated table row)
                if page is None or len(words) < 3 or doc.text.count(doc.text[a:b]) > 1:
                    continue
                dy = 3 * (bottom - top)
                left, b2, right, t2 = _pdf_rect(page, [x0, top + dy, x1, bottom + dy])
                found = "".join(tp.get_text_bounded(left=left, bottom=b2, right=right, top=t2).split())
                moved += 1
                hits += "".join(words) in found
    finally:
        pdf.close()
    assert checked > 0 and missed <= 0.02 * checked, (missed, checked)
    assert moved > 0 and hits <= 0.2 * moved, (hits, moved)


def test_table_rows_have_their_own_boxes():
    doc = _read(PDFS / "docling" / "redp5110_sampled.pdf")
    tables = [e for e in doc.elements if e.kind == "table" and "lines" in e.metadata]
    assert tables
    for t in tables:
        assert [ln[:2] for ln in t.metadata["lines"]] == [list(s) for s in t.metadata["row_spans"]]
        tops = [ln[3] for ln in t.metadata["lines"]]
        assert tops == sorted(tops)


def test_ocr_pages_get_tesseracts_word_boxes():
    pytest.importorskip("pytesseract")
    import shutil

    if not shutil.which("tesseract"):
        pytest.skip("tesseract not installed")
    doc = _read(SCAN)
    assert set(doc.metadata["page_extractors"]) == {"ocr"}
    check_boxes(doc)
    boxed = [e for e in doc.elements if "lines" in e.metadata]
    assert boxed and len(boxed) == len(doc.elements)
    w, h = doc.metadata["page_sizes"][0]
    # the page is scanned turned a quarter: its lines run down the page, across most of it
    # (in points: at 300 dpi, pixels would be four times as far)
    tops = [e.metadata["bbox"][1] for e in boxed]
    bottoms = [e.metadata["bbox"][3] for e in boxed]
    assert 0.5 * h < max(bottoms) - min(tops) <= h
    assert all(ln[5] - ln[3] > 3 * (ln[4] - ln[2]) for e in boxed for ln in e.metadata["lines"]
               if len(doc.text[ln[0]:ln[1]]) > 20)


def test_right_to_left_lines_keep_pdfiums_boxes_and_pdftotext_paragraphs_have_none():
    import shutil

    from seamcut.readers.pdf.assemble import assemble
    from seamcut.readers.pdf.extractors import pdftotext
    from seamcut.readers.pdf.page import Page, plain_paragraphs

    path = _need(PDFS / "docling" / "right_to_left_01.pdf")
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext not installed")
    doc = _read(path)  # pdftotext's character order in pdfium's layout: pdfium's boxes
    assert doc.metadata["page_extractors"] == ["pdftotext"]
    check_boxes(doc)
    assert all("lines" in e.metadata for e in doc.elements)
    # a page read as pdftotext's paragraphs has no positions: no boxes
    text = pdftotext(path, 1, None)
    plain = assemble(path, [Page(1, 595.0, 842.0, "pdftotext", plain=plain_paragraphs(text))])
    assert plain.elements and plain.metadata["page_sizes"] == [[595.0, 842.0]]
    assert not any("bbox" in e.metadata or "lines" in e.metadata for e in plain.elements)


@pytest.mark.parametrize("lines", [
    ["fertil-", "izer is good", "for  the", "crop."], ["self-", "locking"], ["a\u00ad", "b", "", "c"],
    ["Before-", "Sowing"], ["  ", "x"], ["co-", "operate"], ["ab-", "cd-", "ef"]])
def test_join_line_spans_says_where_each_line_went(lines):
    text, spans = join_line_spans(lines)
    assert text == join_lines(lines)
    got = [s for s in spans if s]
    assert all(a < b for a, b in got)
    assert all(b1 <= a2 for (_, b1), (a2, _) in zip(got, got[1:]))
    for line, span in zip(lines, spans):
        if span:  # each line's text, less a hyphen taken out at a join
            a, b = span
            norm = " ".join(line.split()).replace("\u00ad", "")
            assert norm.startswith(text[a:b].replace("\u00ad", "")) and len(norm) - (b - a) <= 1
    covered = "".join(text[a:b] for a, b in got)
    assert covered == text.replace(" ", "")[:0] + covered  # spans only, and:
    assert len(text) - sum(b - a for a, b in got) == text.count(" ") - sum(
        text[a:b].count(" ") for a, b in got)


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_boxes_are_on_the_rendered_page_when_the_crop_box_is_not_at_the_origin(tmp_path, rotation):
    """The helpline's cotton manual with its media box moved off the origin, a crop box inside
    it (clear of the text) and the page turned: the boxes are still where pdfium draws the text."""
    import pypdfium2 as pdfium

    src = _need(HELPLINE / "cotton-manual.pdf")
    pdf = pdfium.PdfDocument(src)
    for i in range(len(pdf)):
        page = pdf[i]
        left, bottom, right, top = page.get_mediabox()
        page.set_mediabox(left - 30, bottom - 40, right + 20, top + 10)
        page.set_cropbox(left + 40, bottom + 50, right - 30, top - 20)
        page.set_rotation(rotation)
    moved = tmp_path / f"cotton-{rotation}.pdf"
    pdf.save(moved)
    pdf.close()
    doc = read_pdf(moved)
    if rotation == 0:  # turned, the text is set sideways and read as such
        assert doc.text == _read(src).text
    w, h = doc.metadata["page_sizes"][0]
    assert (w < h) == (rotation in (0, 180))
    check_boxes(doc)
    test_pdfium_finds_each_lines_words_inside_its_box(moved)


def test_pdfplumbers_layout_is_boxed_on_the_rendered_page_as_pdfiums_is(tmp_path):
    """pdfplumber (the extractor for a page pdfium cannot decode) measures from the media box's
    corner: moved to the rendered page, its blocks stand where pdfium's do."""
    import pypdfium2 as pdfium

    from seamcut.readers.pdf.extractors import PageSource
    from seamcut.readers.pdf.opening import LazyPlumber

    src = _need(HELPLINE / "cotton-manual.pdf")
    pdf = pdfium.PdfDocument(src)
    page = pdf[0]
    left, bottom, right, top = page.get_mediabox()
    page.set_mediabox(left - 30, bottom - 40, right + 20, top + 10)
    page.set_cropbox(left + 40, bottom + 50, right - 30, top - 20)
    moved = tmp_path / "cotton.pdf"
    pdf.save(moved)
    pdf.close()
    pdoc = pdfium.PdfDocument(moved)
    plumber = LazyPlumber(moved, None)
    try:
        fpage = pdoc[0]
        ps = PageSource(moved, pdoc, fpage, 0, "never", None, None, False, plumber)
        ours, theirs = ps.pdfium, ps.pdfplumber()
        assert (theirs.width, theirs.height) == (ours.width, ours.height)
        a = {tuple(s.text for s in b.segments): b for b in ours.blocks}
        b = {tuple(s.text for s in b.segments): b for b in theirs.blocks}
        same = [k for k in a if k in b]
        assert same and len(same) >= 0.5 * len(a)
        for k in same:
            for u, v in zip(a[k].segments, b[k].segments):
                assert abs(u.x0 - v.x0) < 2 and abs(u.x1 - v.x1) < 2, (k, u, v)
                assert abs(u.top - v.top) < 3 and abs(u.bottom - v.bottom) < 3, (k, u, v)
        fpage.close()
    finally:
        plumber.close()
        pdoc.close()


@pytest.mark.parametrize("rotation", [0, 90, 180, 270])
def test_a_box_found_on_a_turned_page_is_put_back_where_it_was(rotation):
    """OCR reads a page turned upright; a box found there goes back to the page as rendered."""
    from PIL import Image, ImageChops, ImageDraw

    from seamcut.readers.ocr import _turn, _unturn

    page = Image.new("L", (300, 200), 255)
    ImageDraw.Draw(page).rectangle([40, 120, 99, 149], fill=0)  # x 40..100, y 120..150
    turned = _turn(page, rotation)
    box = ImageChops.invert(turned).getbbox()
    assert _unturn(box, rotation, *page.size) == pytest.approx((40, 120, 100, 150), abs=1)
