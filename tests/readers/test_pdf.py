"""The born-digital PDF reader on real files from tests/data/pdfs and on broken inputs."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from types import SimpleNamespace

import pytest

import seamcut
from seamcut.errors import InputError
from seamcut.readers.pdf import garble_score, is_garbled, join_lines, read_pdf
from seamcut.readers.pdf.hyphenation import vocabulary

from tests.helpers.badfiles import pdf_file as _pdf_file
from tests.helpers.badfiles import stream as _stream
from tests.helpers.data import DATA, filing_page

PDFS = DATA / "pdfs"


def pdf(rel: str) -> Path:
    p = PDFS / rel
    if not p.exists():
        pytest.skip(f"test PDF not found: {p}")
    return p


def norm(s: str) -> str:
    return " ".join(re.findall(r"\w+", s.lower()))


def check_spans(doc) -> None:
    prev = 0
    for e in doc.elements:
        assert doc.text[e.start:e.end].strip(), e
        assert e.start >= prev and e.end > e.start
        prev = e.end
    assert len(doc.page_starts) == doc.metadata["pages"]
    assert doc.page_starts[0] == 0
    assert list(doc.page_starts) == sorted(doc.page_starts)
    for e in doc.elements:  # every element lies on the page it says
        assert e.page in doc.pages_of(e.start, e.end), e


def texts(doc, kind):
    return [doc.text[e.start:e.end] for e in doc.elements if e.kind == kind]


@pytest.fixture(scope="module")
def multi_page():
    return read_pdf(pdf("docling/multi_page.pdf"))


def test_headings_and_lists_match_reference(multi_page):
    doc = multi_page
    check_spans(doc)
    assert doc.metadata["format"] == "pdf" and doc.metadata["pages"] == 5
    # a page without rules is read from pypdfium2's text page (pdfplumber only where a ruled table may be)
    assert doc.metadata["extractor"] == "pdfium"
    assert all(e.metadata["extractor"] == "pdfium" for e in doc.elements)
    heads = {norm(t) for t in texts(doc, "heading") + texts(doc, "title")}
    for h in ["The Evolution of the Word Processor", "Pre-Digital Era (19th - Early 20th Century)",
              "The Rise of Personal Computers (1980s)", "Key Features That Changed Word Processing"]:
        assert norm(h) in heads
    assert all(e.level and 1 <= e.level <= 6 for e in doc.elements if e.kind == "heading")
    assert not doc.metadata.get("furniture")
    items = [norm(t) for t in texts(doc, "list_item")]
    assert any(t.startswith("wordstar 1978 developed for the cp m") for t in items)
    assert any(t.startswith("1 undo redo") for t in items)
    assert len(items) >= 20
    # a list item's bullet glyph is not in the text, it is in the metadata
    assert not any(t.lstrip().startswith("•") for t in texts(doc, "list_item"))


def test_two_column_handbook_reads_columns_and_italic_headings():
    doc = read_pdf(pdf("docling/amt_handbook_sample.pdf"))
    check_spans(doc)
    assert {"Boots Self-Locking Nut", "Stainless Steel Self-Locking Nut", "Elastic Stop Nut"} <= set(
        texts(doc, "heading"))
    # a sentence running down the left column is not interleaved with the right column
    assert "clamped to the supporting structure by the nut and bolt" in doc.text
    assert "two nuts in one: a locking nut and a load-carrying nut" in doc.text
    # the page number at the foot is furniture
    assert "7-45" not in doc.text.split()
    assert any(f["text"] == "7-45" for f in doc.metadata.get("furniture", []))


def test_ruled_table_rows():
    doc = read_pdf(pdf("docling/redp5110_sampled.pdf"))
    check_spans(doc)
    tables = [e for e in doc.elements if e.kind == "table"]
    rows = [tuple(r) for t in tables for r in t.metadata["rows"]]
    assert ("Column name", "Data type", "Description") in rows
    assert any(r[:2] == ("FUNCTION_ID", "VARCHAR(30)") for r in rows)
    t = next(t for t in tables if t.metadata["rows"][0][0] == "Column name")
    assert t.metadata["header_rows"] == 1
    # each row's span is its line in the text, cells joined by " | "
    for (a, b), row in zip(t.metadata["row_spans"], t.metadata["rows"]):
        assert doc.text[a:b] == " | ".join(row)
    # the table's words are not repeated as a paragraph
    assert not any("FUNCTION_ID" in p and "VARCHAR(30)" in p for p in texts(doc, "paragraph"))


def test_tagged_pdf_uses_structure_tree():
    doc = read_pdf(pdf("pdfplumber/word365_structure.pdf"))
    check_spans(doc)
    assert [(e.kind, e.level) for e in doc.elements][0] == ("heading", 1)
    assert texts(doc, "heading")[0] == "Titre"
    assert "Liste 2" in texts(doc, "list_item")
    table = next(e for e in doc.elements if e.kind == "table")
    assert table.metadata["rows"][1] == ["Ligne 1", "Alouette", "Farfadet"]


def test_three_column_reading_order():
    doc = read_pdf(pdf("pdfplumber/federal-register-2020-17221.pdf"))
    check_spans(doc)
    flat = " ".join(doc.text.split())
    # page 2, first column: this sentence runs down the column over several lines
    assert ("Investigation of the accident has been completed by the Indonesian authorities "
            "(Komite Nasional Keselamatan Transportasi (KNKT))") in flat
    # middle column of the same page
    assert "On November 7, 2018, the FAA issued Emergency AD 2018–23–51 as an interim corrective action." in flat


def _box(name: str, x0: float, top: float, x1: float, bottom: float) -> SimpleNamespace:
    return SimpleNamespace(name=name, x0=x0, top=top, x1=x1, bottom=bottom)


def _read_in_order(*boxes: SimpleNamespace) -> list[str]:
    from seamcut.readers.pdf.layout import reading_order

    return [boxes[i].name for i in reading_order(list(boxes))]


def test_a_centred_heading_above_left_aligned_text_is_read_first():
    # Microsoft's notes: "NOTE 6 — INVENTORIES" centred over its first line, a table right above
    # both and another below: the heading is no column beside the text, it comes first
    assert _read_in_order(_box("table above", 16, 82, 578, 362), _box("text", 16, 393, 206, 402),
                          _box("heading", 244, 375, 351, 384), _box("table below", 16, 423, 578, 497)
                          ) == ["table above", "heading", "text", "table below"]


def test_microsofts_note_headings_come_before_their_text():
    from tests.helpers.pdf_page import page_blocks

    blocks = page_blocks(*filing_page("2023 Q1 MSFT", 16))
    lines = [" ".join(b.lines) for b in blocks if not b.rows]
    assert lines.index("NOTE 6 — INVENTORIES") + 1 == lines.index("The components of inventories were as follows:")
    assert lines.index("NOTE 7 — BUSINESS COMBINATIONS") + 1 == lines.index("Nuance Communications, Inc.")


@pytest.mark.parametrize("right", [
    [("b1", 100, 380), ("b2", 400, 700)],  # two full columns
    [("b1", 100, 300)],  # a short right column, wholly above the left column's second block
])
def test_columns_are_still_read_one_after_the_other(right):
    left = [_box("a1", 50, 100, 290, 380), _box("a2", 50, 400, 290, 700)]
    got = _read_in_order(*left, *[_box(n, 310, t, 550, b) for n, t, b in right])
    assert got == ["a1", "a2"] + [n for n, _, _ in right]


def test_running_header_and_page_numbers_are_furniture():
    doc = read_pdf(pdf("pdfplumber/federal-register-2020-17221.pdf"))
    furn = doc.metadata["furniture"]
    assert sum("Federal Register" in f["text"] for f in furn) >= 8
    assert "Federal Register/Vol. 85, No. 152" not in doc.text
    assert {f["page"] for f in furn} >= set(range(2, 15))


@pytest.fixture(scope="module")
def apple_q3():
    """Apple's whole 2023 Q3 10-Q, read once for the tests that look at it."""
    return read_pdf(DATA / "docugami-10q" / "docs" / "2023 Q3 AAPL.pdf")


def test_a_footer_set_right_under_a_short_page_is_furniture_where_it_repeats(apple_q3):
    # Apple's 10-Qs set "Apple Inc. | Q3 2023 Form 10-Q | 5" in three parts right under the page's
    # text, often half-way down the page: outside the bottom band, it was read as body text
    doc = apple_q3
    footers = [f for f in doc.metadata["furniture"] if "Q3 2023 Form 10-Q" in f["text"]]
    assert len(footers) >= 20
    assert {f["kind"] for f in footers} <= {"page_footer", "page_header"}
    assert len(re.findall(r"Apple Inc\. \| Q3 2023 Form 10-Q \| \d+$", doc.text, re.M)) == 0
    assert "Total net sales" in doc.text  # the statements are still there


def test_a_statements_title_is_a_heading_though_labels_stand_between_it_and_its_table(apple_q3):
    # Apple's 10-Q sets "(In millions)" and "Three Months Ended" / "Nine Months Ended" between a
    # statement's title and its table: the title was read as a paragraph, and the cash flow
    # statement's chunks went under the heading before it, the shareholders' equity statement
    doc = apple_q3
    heads = [h for h in texts(doc, "heading") if h.startswith("CONDENSED CONSOLIDATED")]
    assert heads == [f"CONDENSED CONSOLIDATED {s} (Unaudited)" for s in (
        "STATEMENTS OF OPERATIONS", "STATEMENTS OF COMPREHENSIVE INCOME", "BALANCE SHEETS",
        "STATEMENTS OF SHAREHOLDERS’ EQUITY", "STATEMENTS OF CASH FLOWS")]
    chunks = seamcut.chunk(doc, strategy="structure")
    flows = [c for c in chunks if "Cash generated by operating activities" in c.text]
    assert flows and all(c.heading_path[-1].endswith("STATEMENTS OF CASH FLOWS (Unaudited)") for c in flows)


def test_a_statements_units_line_and_its_bold_figures_are_no_headings():
    # Intel's cash flow statement: its table's top is read as blocks, the bold ones were headings
    # ("(In Millions; Unaudited) Cash and cash equivalents, beginning of period", "Oct 1, 2022
    # 4,827"), and the chunks below went under them; their text stays, as paragraphs
    path, page = filing_page("2023 Q3 INTC", 8)
    doc = read_pdf(path)
    check_spans(doc)
    assert texts(doc, "title") == ["Consolidated Condensed Statements of Cash Flows"] and texts(doc, "heading") == []
    assert "(In Millions; Unaudited) Cash and cash equivalents, beginning of period" in texts(doc, "paragraph")
    assert "Oct 1, 2022 4,827" in texts(doc, "paragraph")


@pytest.mark.parametrize("text, heading", [
    ("(In Millions)", False), ("($ in thousands, except per share data)", False), ("(in", False),
    ("Oct 1, 2022 4,827", False), ("Restructuring (985)", False), ("Gross margin 42.5 %", False),
    ("Note 4 – Condensed Consolidated Financial Statement Details", True), ("Q3 2023 Gross Margin", True),
    ("Item 1A. Risk Factors", True), ("(a) Scope of the scheme", True), ("Fiscal 2024", True),
    ("Nine Months Ended", False), ("Three Months Ended Sep 30, 2023", False), ("Year Ended June 30", False),
    ("October 30, 2022", False), ("Sept. 24, 2022", False), ("1 July 2023", False),
    ("Quarters Ended and Outlook", True), ("July 2023 Rainfall", True), ("Kharif 2025", True),
])
def test_units_lines_figures_and_column_labels_are_no_headings(text: str, heading: bool) -> None:
    from seamcut.readers.pdf.classify import _COLUMN_LABEL, _FIGURE_END, _UNITS
    assert (not (_UNITS.match(text) or _FIGURE_END.search(text) or _COLUMN_LABEL.fullmatch(text))) == heading


def test_a_running_header_in_many_parts_is_furniture():
    # the Hindi manual's header: one line, but Devanagari words set apart read as several parts
    doc = read_pdf(Path(__file__).resolve().parents[2] / "examples" / "helpline" / "soybean-manual-hi.pdf")
    furn = {(f["page"], f["kind"]) for f in doc.metadata["furniture"]}
    assert {(2, "page_header"), (2, "page_footer"), (4, "page_header"), (4, "page_footer")} <= furn
    assert "MADE UP (काल्पनिक) पृष्ठ 2 / 4" not in doc.text


def test_hyphenation_join():
    assert join_lines(["the fertil-", "izer was"]) == "the fertilizer was"
    assert join_lines(["a self-", "locking nut"]) == "a self-locking nut"
    assert join_lines(["the Indo-", "European"]) == "the Indo-European"
    # a compound's second half keeps its hyphen: "droughtprone" is no word (found where
    # LangChain's PyPDFLoader kept "drought-prone" and seamcut's reading did not, issue 53)
    assert join_lines(["in the drought-", "prone talukas"]) == "in the drought-prone talukas"
    assert join_lines(["pest-", "resistant seed"]) == "pest-resistant seed"
    assert join_lines(["a prone-", "ness"]) == "a proneness"
    # the document's own words: two that stand alone elsewhere and never joined are a compound
    # (Apple's 10-Q: "These credit-" / "financing arrangements", read as "creditfinancing")
    words = vocabulary(["credit risk and financing", "These credit-", "financing arrangements"])
    assert join_lines(["These credit-", "financing arrangements"], words) == "These credit-financing arrangements"
    assert join_lines(["These credit-", "financing arrangements"]) == "These creditfinancing arrangements"
    seen = vocabulary(["the fertilizer", "apply fertil-", "izer and fertil soil", "izer"])
    assert join_lines(["apply fertil-", "izer now"], seen) == "apply fertilizer now"  # joined elsewhere
    once = vocabulary(["the man-", "agement of the farm"])
    assert join_lines(["the man-", "agement of the farm"], once) == "the management of the farm"
    assert join_lines(["one", "two"]) == "one two"


def test_garble_detector():
    clean = "भारत एक विशाल देश है। किसान खेत में उर्वरक डालते हैं।"
    assert not is_garbled(clean)
    assert garble_score(clean)[0] == 0
    assert is_garbled("भारत एक \ufffd\ufffdशाल देश है \ufffdकसान")
    assert is_garbled("ि कसान खेत में िफर से")  # vowel sign i at a word start
    assert garble_score("ि कसान")[0] >= 1
    assert garble_score("काे")[0] >= 1  # two dependent vowel signs in a row
    assert not is_garbled("Plain English text with numbers 1, 2, 3.")
    assert is_garbled("abc \ue001\ue002\ue003 def")  # private use


# ---------------------------------------------------------------------------------------------
# bad input


def test_bad_inputs_raise_input_error(tmp_path):
    real = pdf("docling/multi_page.pdf").read_bytes()
    cases = {"empty.pdf": b"", "truncated.pdf": real[: len(real) // 2],
             "garbage.pdf": b"%PDF-1.4 garbage\n%%EOF\n", "notpdf.pdf": b"hello, world\n" * 20}
    for name, data in cases.items():
        p = tmp_path / name
        p.write_bytes(data)
        with pytest.raises(InputError) as ei:
            read_pdf(p)
        assert name in str(ei.value)
    with pytest.raises(InputError, match="no such file"):
        read_pdf(tmp_path / "missing.pdf")


def test_encrypted_pdf(tmp_path):
    qpdf = shutil.which("qpdf")
    if not qpdf:
        pytest.skip("qpdf not installed (needed to make an encrypted fixture)")
    src = pdf("docling/multi_page.pdf")
    enc = tmp_path / "locked.pdf"
    r = subprocess.run([qpdf, "--encrypt", "secret", "owner", "256", "--", str(src), str(enc)],
                       capture_output=True)
    assert r.returncode in (0, 3) and enc.exists(), r.stderr  # 3: succeeded with warnings
    with pytest.raises(InputError, match="encrypted; pass --password") as ei:
        read_pdf(enc)
    assert "locked.pdf" in str(ei.value)
    with pytest.raises(InputError, match="wrong password"):
        read_pdf(enc, password="nope")
    doc = read_pdf(enc, password="secret")
    assert "The Evolution of the Word Processor" in doc.text


def test_ocr_never_leaves_scan_empty_with_note():
    doc = read_pdf(pdf("docling/ocr/ocr_test.pdf"), ocr="never")
    assert doc.text == ""
    assert doc.metadata["page_notes"][1]


def test_bad_ocr_mode():
    with pytest.raises(ValueError):
        read_pdf(pdf("docling/multi_page.pdf"), ocr="sometimes")


_DEEP = 100_000  # levels of nesting of one array or dictionary
_LONG = 10_000  # links of a chain of references, levels of a page tree
_TEXT = b"BT /F1 12 Tf 72 700 Td (Hello deep world) Tj ET"
# a font whose "a" is the vowel sign U+093F: text that starts words with it reads as garbled,
# so the page also goes through the fallbacks (pdfminer, pdftotext, OCR)
_GARBLE_CMAP = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /G def "
                b"1 begincodespacerange <00> <FF> endcodespacerange 1 beginbfchar <61> <093F> "
                b"endbfchar endcmap CMapName currentdict /CMap defineresource pop end end")


def _one_page(resources: bytes = b"<< /Font << /F1 4 0 R >> >>", content: bytes = _TEXT,
              garble: bool = False, extra: tuple[bytes, ...] = ()) -> bytes:
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica%s >>" % (
        b" /ToUnicode 6 0 R" if garble else b"")
    return _pdf_file([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                      b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources %s "
                      b"/Contents 5 0 R >>" % resources, font, _stream(content),
                      _stream(_GARBLE_CMAP) if garble else b"null", *extra])


def _deep_page_tree() -> bytes:
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>"]
    for k in range(_LONG):  # objects 2 .. _LONG + 1, each the only kid of the one before
        parent = b" /Parent %d 0 R" % (k + 1) if k else b""
        objs.append(b"<< /Type /Pages /Kids [%d 0 R] /Count 1%s >>" % (k + 3, parent))
    page = _LONG + 2
    objs.append(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << /Font "
                b"<< /F1 %d 0 R >> >> /Contents %d 0 R >>" % (page - 1, page + 1, page + 2))
    objs += [b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>", _stream(_TEXT)]
    return _pdf_file(objs)


def _deeply_nested_pdfs() -> dict[str, bytes]:
    array = b"[" * _DEEP + b"]" * _DEEP
    dictionary = b"<< /A " * _DEEP + b">> " * _DEEP
    fonts = b"<< /Font << /F1 4 0 R >> /Deep %s >>"
    garbled = b"BT /F1 12 Tf 72 700 Td (aaaa aaaa aaaa) Tj ET"
    return {
        "array-in-resources": _one_page(resources=fonts % array),
        "dictionary-in-resources": _one_page(resources=fonts % dictionary),
        "array-in-content": _one_page(content=_TEXT + b"\nBT /F1 12 Tf 72 600 Td %s TJ ET"
                                      % (b"[" * _DEEP + b"(x)" + b"]" * _DEEP)),
        "dictionary-in-content": _one_page(content=b"/Span %sBDC %s EMC" % (dictionary, _TEXT)),
        # /Resources 7 0 R, which is 8 0 R, ..., the last one the dictionary
        "reference-chain": _one_page(resources=b"7 0 R", extra=tuple(
            b"%d 0 R" % (n + 1) for n in range(7, 7 + _LONG)) + (b"<< /Font << /F1 4 0 R >> >>",)),
        "page-tree": _deep_page_tree(),
        "garbled-array-in-resources": _one_page(resources=fonts % array, content=garbled, garble=True),
        "garbled-array-in-content": _one_page(garble=True, content=garbled + b"\nBT /F1 12 Tf 72 600 "
                                              b"Td %s TJ ET" % (b"[" * _DEEP + b"(a)" + b"]" * _DEEP)),
    }


_READ_IN_CHILD = """
import json, resource, sys, time
import seamcut
t = time.process_time()
try:
    out = {"text": seamcut.read(sys.argv[1]).text}
except seamcut.errors.InputError as exc:
    out = {"error": str(exc)}
out["cpu_seconds"] = time.process_time() - t
# the peak of this process's own memory (VmHWM): ru_maxrss carries over the high-water mark of the
# pytest process this child was forked from (1,040 MB once the suite had loaded its models)
hwm = [ln for ln in open("/proc/self/status") if ln.startswith("VmHWM:")]
out["max_rss_mb"] = (int(hwm[0].split()[1]) if hwm
                     else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss) / 1024
print(json.dumps(out))
"""


@pytest.mark.parametrize("name", list(_deeply_nested_pdfs()))
def test_deeply_nested_pdf_is_an_error_naming_the_file_or_read_in_bounded_time(tmp_path, name):
    """Arrays and dictionaries nested 100,000 deep, 10,000 references to follow, a page tree
    10,000 deep (pdfium, pdfminer and pdftotext are all given the file): ``read`` raises an
    ``InputError`` naming the file or returns, within 20 CPU seconds and 1 GiB, and the process
    lives (it runs in a child process, so that a crash in C shows as a signal, not a lost test
    run). CPU seconds, not wall-clock ones: a loaded machine must not fail the test (120 s of
    wall-clock time is only the guard against a hang)."""
    import json
    import os
    import sys

    path = tmp_path / f"{name}.pdf"
    path.write_bytes(_deeply_nested_pdfs()[name])
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    try:
        r = subprocess.run([sys.executable, "-c", _READ_IN_CHILD, str(path)], capture_output=True,
                           text=True, timeout=120, env=env)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{name}: read for over 120 s")
    assert r.returncode == 0, f"{name}: child exited with {r.returncode}: {r.stderr[-2000:]}"
    got = json.loads(r.stdout.strip().splitlines()[-1])
    if name == "garbled-array-in-content":  # pdfminer's recursion limit: the next extractor reads it
        assert "error" not in got and "aaaa" in got["text"]
    if "error" in got:
        assert path.name in got["error"]
    else:
        assert isinstance(got["text"], str)
    assert got["cpu_seconds"] < 20
    assert got["max_rss_mb"] < 1024


def test_heading_levels_bounded_and_numbered_headings():
    doc = read_pdf(pdf("docling/redp5110_sampled.pdf"))
    heads = texts(doc, "heading")
    assert "1.1 Security fundamentals" in heads and "2.2 Separation of duties" in heads
    assert all(1 <= e.level <= 6 for e in doc.elements if e.kind == "heading")


def test_right_to_left_page_uses_pdftotext():
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) not installed")
    doc = read_pdf(pdf("docling/right_to_left_01.pdf"))
    check_spans(doc)
    assert doc.metadata["page_extractors"] == ["pdftotext"]
    assert all(e.metadata["extractor"] == "pdftotext" for e in doc.elements)


# ---------------------------------------------------------------------------------------------
# tables, headings and the pdfium text layer


def rows_of(doc):
    return [tuple(r) for e in doc.elements if e.kind == "table" for r in e.metadata["rows"]]


def test_table_of_contents_is_a_table():
    doc = read_pdf(pdf("docling/redp5110_sampled.pdf"))
    toc = next(e for e in doc.elements if e.kind == "table" and e.page == 2)
    rows = [tuple(r) for r in toc.metadata["rows"]]
    assert ("Notices", "vii") in rows
    assert ("1.1 Security fundamentals", "2") in rows
    assert ("3.6.8 Demonstrating data access with a view and RCAC", "32") in rows
    assert toc.metadata["header_rows"] == 0
    for (a, b), row in zip(toc.metadata["row_spans"], toc.metadata["rows"]):
        assert doc.text[a:b] == " | ".join(row)
    # the dot leaders are not left in the text
    assert ". . . . ." not in doc.text


def test_vertical_header_cells_read_bottom_to_top():
    doc = read_pdf(pdf("docling/redp5110_sampled.pdf"))
    assert ("User action", "*JOBCTL", "QIBM_DB_SECADM", "QIBM_DB_SQLADM", "QIBM_DB_SYSMON",
            "No Authority") in rows_of(doc)


def test_table_ruled_only_between_inner_columns_and_two_row_header():
    doc = read_pdf(pdf("docling/2305.03393v1-pg9.pdf"))
    check_spans(doc)
    t = next(e for e in doc.elements if e.kind == "table")
    rows = [tuple(r) for r in t.metadata["rows"]]
    # the outer columns (no vertical rules) are part of the table
    assert rows[0] == ("# enc-layers", "# dec-layers", "Language", "TEDs", "", "", "mAP (0.75)",
                       "Inference time (secs)")
    # the second header row repeats the cells spanning both header rows
    assert rows[1] == ("# enc-layers", "# dec-layers", "Language", "simple", "complex", "all",
                       "mAP (0.75)", "Inference time (secs)")
    assert rows[2] == ("6", "6", "OTSL HTML", "0.965 0.969", "0.934 0.927", "0.955 0.955",
                       "0.88 0.857", "2.73 5.39")
    assert t.metadata["header_rows"] == 2
    # pdfium sees the word gaps of tightly set text that pdfplumber's fixed tolerance merges
    assert "includes a highly diverse set of tables" in doc.text


def test_table_without_outer_rules_keeps_first_column():
    doc = read_pdf(pdf("docling/normal_4pages.pdf"))
    rows = rows_of(doc)
    assert ("구분", "개정전", "개정후") in rows
    # text where a rule between two rows is missing in one column is kept as that cell
    assert ("분류", "1군 감염병", "1급 감염병") in rows
    assert any(r[0] == "분류 기준" and r[1].startswith("◦ 마시는 물") for r in rows)


def test_cover_and_diagram_text_are_not_headings():
    doc = read_pdf(pdf("docling/redp5110_sampled.pdf"))
    heads = {doc.text[e.start:e.end] for e in doc.elements if e.kind in ("heading", "title")}
    for display in ["Front cover", "Back cover", "Implement roles and separation of duties",
                    "ON < table name >", "FOR ROWS", "For more information:"]:
        assert display not in heads
    # real headings with body text after them stay
    assert {"Contents", "Preface", "Authors", "Column mask", "2.2 Separation of duties"} <= heads
    # the title is the largest text of several words on the cover (not the one-word logo), and a
    # small "Chapter 1." label on a chapter title's line is not part of the heading; the chapter
    # number set large above the title is (not a page number, though it is at the top)
    assert doc.metadata["title"] == "Row and Column Access Control Support in IBM DB2 for i"
    assert "1 Securing and protecting IBM DB2 data" in heads
    assert "Expert help to achieve your business requirements" not in heads  # a subtitle
    assert "Protect columns by defining column masks" not in heads  # the last of three taglines


def test_fill_header_spans_and_toc_helpers():
    from seamcut.readers.pdf import Word, fill_header_spans, toc_tables

    rows, header = fill_header_spans([["A", "Group", None, "Z"], [None, "p", "q", None],
                                      ["1", "2", "3", "4"], ["5", "6", "7", "8"]])
    assert header == 2
    assert rows[1] == ["A", "p", "q", "Z"]
    rows, header = fill_header_spans([["A", "B"], [None, "1"], ["2", "3"]])
    assert header == 1 and rows[1] == [None, "1"]  # row 0 has no merged cell: one header row

    def line(text, top):
        return [Word(t, x0=10.0 * k, x1=10.0 * k + 8, top=top, bottom=top + 9)
                for k, t in enumerate(text.split())]

    lines = [line("Intro . . . . . 1", 0), line("Body text here", 12), line("1.1 Scope . . . . 3", 24),
             line("Annex ...... xii", 36)]
    tables, rest = toc_tables(lines)
    assert tables[0].rows == [["Intro", "1"], ["1.1 Scope", "3"], ["Annex", "xii"]]
    assert [" ".join(w.text for w in ln) for ln in rest] == ["Body text here"]
    assert toc_tables(lines[:2])[0] == []  # one leader line is not a table of contents


def test_rotated_page_reads_upright_text():
    doc = read_pdf(pdf("pdfplumber/senate-expenditures.pdf"))
    check_spans(doc)
    assert doc.metadata["page_extractors"] == ["pdfium"]
    assert "LEGISLATIVE CORRESPONDENT" in doc.text
    assert "DISTRICT DIRECTOR" in doc.text


def test_tagged_pdf_without_heading_tags_uses_layout_headings():
    # amt_handbook is tagged, but every block is "P": the layout finds its headings
    doc = read_pdf(pdf("docling/amt_handbook_sample.pdf"))
    assert "Elastic Stop Nut" in texts(doc, "heading")


def test_unruled_table_keeps_to_its_column_and_takes_two_line_header():
    doc = read_pdf(pdf("docling/table_mislabeled_as_picture.pdf"))
    check_spans(doc)
    rows = rows_of(doc)
    # the list items of the neighbouring page of the spread are not a column of the table
    assert not any("Yes, at the national" in c for r in rows for c in r)
    assert ("", "", "State funded legal aid", "CSOs") in rows
    assert ("y", "Persons with disabilities", "*", "*") in rows
    # three columns of prose side by side are not a table
    fed = read_pdf(pdf("pdfplumber/federal-register-2020-17221.pdf"))
    assert not any(r[0] == "Issued on August 3, 2020." for r in rows_of(fed))


def test_margin_line_numbers_are_furniture():
    doc = read_pdf(pdf("pdfplumber/scotus-transcript-p1.pdf"))
    check_spans(doc)
    # the transcript's running header, in small type in the top margin, is furniture on its one page
    assert doc.text.startswith("IN THE SUPREME COURT OF THE UNITED STATES")
    assert {"kind": "page_header", "text": "Official - Subject to Final Review", "page": 1} in doc.metadata["furniture"]
    nums = [f["text"] for f in doc.metadata["furniture"] if f["kind"] == "line_number"]
    assert nums == [str(k) for k in range(1, 26)]


# ---------------------------------------------------------------------------------------------
# section numbers, footers beside page numbers, check-box bullets, right-to-left headings


def test_section_number_in_a_box_beside_its_heading_is_part_of_it():
    doc = read_pdf(pdf("docling/normal_4pages.pdf"))
    check_spans(doc)
    heads = texts(doc, "heading")
    assert {"1 들어가며", "2 코로나-19 관련 보험 현황", "3 문제점", "4 개선과제", "5 맺으며"} <= set(heads)
    assert "1" not in texts(doc, "paragraph")


def _body_lines(n: int = 6) -> bytes:
    line = b"(Body text of the section that runs across the page and says what was done here.) Tj"
    return b"BT /F1 10 Tf 72 560 Td " + b" 0 -13 Td ".join([line] * n) + b" ET"


def test_large_chapter_number_joins_its_heading_and_footer_beside_page_number_is_furniture(tmp_path):
    content = b"\n".join([
        b"BT /F1 40 Tf 72 680 Td (2) Tj ET",  # a chapter number set large above the title
        b"BT /F1 24 Tf 72 620 Td (Methods and data) Tj ET",
        _body_lines(),
        b"BT /F1 9 Tf 72 40 Td (Annual Report of the Station) Tj ET",  # the footer line ...
        b"BT /F1 9 Tf 530 40 Td (7) Tj ET",  # ... of the page number
    ])
    f = tmp_path / "chapter.pdf"
    f.write_bytes(_one_page(content=content))
    doc = read_pdf(f)
    check_spans(doc)
    assert texts(doc, "heading") + texts(doc, "title") == ["2 Methods and data"]
    furn = {x["text"]: x["kind"] for x in doc.metadata["furniture"]}
    assert furn.get("7") == "page_number" and "Annual Report of the Station" in furn
    assert "2" not in furn and "Annual Report" not in doc.text


def test_check_box_glyphs_and_hanging_numbers_make_list_items():
    doc = read_pdf(pdf("docling/table_mislabeled_as_picture.pdf"))
    check_spans(doc)
    items = {doc.text[e.start:e.end]: e for e in doc.elements if e.kind == "list_item"}
    # a Wingdings check box (U+0084 in the text layer) is the item's marker, not its text
    item = items["They supervise, coach or mentor private practitioners who take legal aid cases"]
    assert item.metadata["marker"] == "\x84"
    assert "Yes, at regional (district) level" in items  # one item per box, not one paragraph
    # a question number set apart from its text ("26.    If your country ...") stays with it
    assert any(t.startswith("26. If your country allows legal aid services") for t in items)
    # the running footer on the page number's line ("Annex  209") is not a heading
    assert "Annex" not in texts(doc, "heading")
    assert {"Annex", "208", "209"} <= {x["text"] for x in doc.metadata["furniture"]}


def test_right_to_left_heading_found_from_pdfium_layout():
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) not installed")
    doc = read_pdf(pdf("docling/right_to_left_01.pdf"))
    heads = texts(doc, "heading")
    assert len(heads) == 1 and heads[0].startswith("تحسين") and heads[0].endswith("R و Python")
    assert len(texts(doc, "paragraph")) >= 4


def test_display_labels_and_subtitles_are_not_headings():
    doc = read_pdf(pdf("docling/redp5110_sampled.pdf"))
    heads = texts(doc, "heading")
    # a bold one-line label is not body text: the small label over it is no heading; the large
    # heading of the same words stays
    assert heads.count("DB2 for i Center of Excellence") == 1
    assert "Expert help to achieve your business requirements" not in heads


def _bench():
    import importlib.util

    path = Path(__file__).resolve().parents[2] / "benchmarks" / "parse" / "parse.py"
    spec = importlib.util.spec_from_file_location("parse_bench", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_benchmark_reference_conventions():
    b = _bench()
    ref = b.parse_reference("## 1\n\n## Securing data\n\n## 들어가며 2\n\n- SM590000 First item\n"
                            "- SM590000 Second item\n- SM590000 Third item\n\n"
                            "| USAGE | Setting: SM590000 ALLOWED |\n| - | - |\n| r | x |\n")
    assert ref["headings"] == ["1 Securing data", "들어가며 2"]
    hit, found, n = b.prf(["1 Securing data", "2 들어가며"], ref["headings"])
    assert (hit, found, n) == (2, 2, 2)
    assert b.prf(["Securing data"], ref["headings"])[0] == 0  # the number is part of the heading
    assert ref["items"] == ["First item", "Second item", "Third item"]
    assert ref["rows"][0] == ["USAGE", "Setting: ALLOWED"] and ref["rows"][1] == ["r", "x"]
    errata = [{"doc": "d", "row": ["a b", "1"], "fix": [["a", "1"], ["b", "2"]]},
              {"doc": "d", "cell": "y y", "fix": "y"}]
    assert b.corrected_rows("d", [["a  b", "1"], ["y y", "z"]], errata) == [["a", "1"], ["b", "2"], ["y", "z"]]
    assert b.corrected_rows("other", [["y y", "z"]], errata) == [["y y", "z"]]


def test_parse_cache_key_covers_every_file_of_the_pdf_package(monkeypatch):
    """A cached parse is keyed by a digest of the reader code: a change to any module of
    ``readers/pdf/`` must change it, or a stale parse would be served."""
    import seamcut.readers.pdf as package
    from seamcut.pipeline import corpus

    read: list[Path] = []
    real = Path.read_bytes

    def logged(self):
        read.append(self.resolve())
        return real(self)

    monkeypatch.setattr(Path, "read_bytes", logged)
    corpus._reader_version.cache_clear()  # computed once per process: an earlier test may have
    corpus._reader_version()
    modules = sorted(Path(package.__file__).resolve().parent.glob("*.py"))
    assert len(modules) > 10
    assert [m for m in modules if m not in read] == []


def test_a_character_outside_the_bmp_is_one_code_point_not_two_surrogates():
    # pdfium gives U+F0854 (a private-use bracket in this Korean report) as a UTF-16 surrogate
    # pair, two characters; read as two, the text held lone surrogates that no tokenizer takes,
    # and every strategy failed on the file (found by the 9,000-page run)
    import seamcut

    doc = read_pdf(PDFS / "docling" / "normal_4pages.pdf")
    doc.text.encode("utf-8")  # strict: no lone surrogate
    # the brackets touch the words they enclose, as set on the page (words.words_text)
    assert "\U000f0854이슈와 논점\U000f0855" in doc.text
    assert seamcut.chunk(doc, "structure")


def test_a_statement_of_two_rows_is_read_as_a_table_with_its_labels():
    """Apple's 10-Q, share-based compensation: two rows of a label and its figures, no rules
    (fewer than three rows, one label longer than a short cell). Read before as the labels,
    then the figures ("... expense Income tax benefit ... $ $ 2,243 (1,231) $"), each row now
    keeps its label and its figures together (issue 53: what made a miss where LangChain's
    pipeline, keeping pypdf's lines, hit)."""
    from tests.helpers.data import filing_page
    path, _ = filing_page("2022 Q3 AAPL", 14)
    doc = read_pdf(path)
    tables = [doc.text[e.start:e.end] for e in doc.elements if e.kind == "table"]
    row = next(line for t in tables for line in t.splitlines() if line.startswith("Income tax benefit related"))
    assert "(1,231)" in row and "(3,518)" in row
    assert "Share-based compensation expense | $ | 2,243" in "\n".join(tables)
