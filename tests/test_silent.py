"""Nothing silent (issue 13, point 4): a file read as another format than its name says, a size the
model's maximum input overrides, furniture on a single page: each said out loud."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import seamcut
from seamcut.readers import mismatch
from seamcut.tokens import load_sizer

ROOT = Path(__file__).resolve().parents[1]
PROSE = "Whitefly eggs hatch in about a week on the underside of cotton leaves. " * 6


def run(*args: str, cache: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "250", "SEAMCUT_CACHE": str(cache)}
    return subprocess.run([sys.executable, "-m", "seamcut.cli", *args], capture_output=True,
                          text=True, timeout=300, env=env)


def _docx(path: Path, paragraphs: list[str]) -> Path:
    import docx
    d = docx.Document()
    for p in paragraphs:
        d.add_paragraph(p)
    d.save(str(path))
    return path


# -- 4a: content against name ---------------------------------------------------------------------

def test_text_named_pdf_is_read_as_text_with_a_warning(tmp_path):
    f = tmp_path / "x.pdf"
    f.write_text(PROSE, encoding="utf-8")
    doc = seamcut.read(f)
    assert doc.text == PROSE  # read by its content: the text unchanged
    (w,) = doc.metadata["warnings"]
    assert str(f) in w and ".pdf (PDF)" in w and "content is plain text" in w


def test_pdf_named_txt_reads_as_the_pdf_does(tmp_path, data_dir):
    src = data_dir / "pdfs" / "pdfplumber" / "issue-33-lorem-ipsum.pdf"
    f = tmp_path / "lorem.txt"
    shutil.copy(src, f)
    doc, right = seamcut.read(f), seamcut.read(src)
    assert doc.text == right.text and doc.elements == right.elements
    (w,) = doc.metadata["warnings"]
    assert str(f) in w and ".txt (plain text)" in w and "content is PDF" in w
    assert "warnings" not in right.metadata


def test_docx_named_html_and_html_named_md(tmp_path):
    f = _docx(tmp_path / "report.html", ["Sowing", "Sow cotton after the first good rain."])
    doc = seamcut.read(f)
    assert "Sow cotton after the first good rain." in doc.text
    assert "named .html (HTML) but its content is Word (.docx)" in doc.metadata["warnings"][0]
    page = tmp_path / "page.md"
    page.write_text("<!DOCTYPE html><html><body><h1>Pests</h1><p>Whitefly on cotton.</p></body></html>",
                    encoding="utf-8")
    doc = seamcut.read(page)
    assert "<h1>" not in doc.text and "Whitefly on cotton." in doc.text  # parsed as HTML
    assert "named .md (Markdown) but its content is HTML" in doc.metadata["warnings"][0]


@pytest.mark.parametrize("name, kind, warned", [
    ("a.pdf", "pdf", False), ("a.txt", "pdf", True), ("a.md", "text", False), ("a.md", "markdown", False),
    ("a.htm", "html", False), ("a.docx", "html", True), ("a.png", "image", False), ("a.JPG", "pdf", True),
    ("notes", "pdf", False), ("a.csv", "text", False)])
def test_mismatch_only_where_the_name_promises_another_format(name, kind, warned):
    assert (mismatch(Path(name), kind) is not None) is warned


def test_warning_reaches_read_and_chunk_output(tmp_path):
    f = tmp_path / "x.pdf"
    f.write_text(PROSE, encoding="utf-8")
    r = run("read", str(f), cache=tmp_path / "cache")
    assert r.returncode == 0, r.stderr
    assert re.search(r"warning: .*x\.pdf: named \.pdf \(PDF\) but its content is plain text", r.stderr)
    r = run("chunk", str(f), "-o", str(tmp_path / "c.jsonl"), cache=tmp_path / "cache")
    assert r.returncode == 0, r.stderr
    assert "named .pdf (PDF)" in r.stderr
    row = json.loads((tmp_path / "c.jsonl").read_text(encoding="utf-8").splitlines()[0])
    # once, on the document's line (every chunk's, read back with seamcut.chunks_jsonl.read_chunks)
    assert row["type"] == "document" and "named .pdf (PDF)" in row["metadata"]["warnings"][0]


# -- 4b: a size the model's input overrides ---------------------------------------------------------

@pytest.fixture(scope="module")
def marathi(data_dir) -> str:
    """About 4,000 words of Marathi: 300 words of it are well over e5's 512 tokens."""
    lines = (data_dir / "flores200" / "mar_Deva.dev").read_text(encoding="utf-8").splitlines()
    return "\n".join(lines[:200])


def _words_end(text: str, start: int, n: int) -> int:
    """Where the ``n``-th run of non-whitespace from ``start`` ends."""
    ends = [m.end() for m in re.finditer(r"\S+", text[start:])]
    return start + ends[min(n, len(ends)) - 1]


@pytest.mark.parametrize("strategy", ["fixed", "recursive", "structure"])
def test_size_in_words_over_the_model_input_is_reported(marathi, strategy):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chunks = seamcut.chunk(marathi, strategy=strategy, size=300, overlap=0, unit="words")
    reports = [str(w.message) for w in caught if issubclass(w.category, seamcut.ModelInputWarning)]
    held = [c for c in chunks if "held_by_model" in c.metadata]
    assert len(reports) == 1 and held
    m = re.search(r"size 300 words is over multilingual-e5-small's 512-token input for (\d+) of (\d+) "
                  r"chunk\(s\): they were cut at 512 tokens \(~(\d+) words", reports[0])
    assert m, reports[0]
    assert (int(m[1]), int(m[2])) == (len(held), len(chunks))
    sizer = load_sizer(None)
    for c in held:
        fit = c.metadata["held_by_model"]
        assert fit < 300 and len(c.body.split()) <= fit + 1
        assert c.tokens <= 512
        # checked for real: the 300 words from the chunk's start are over the model's input
        assert sizer.count(marathi[c.start:_words_end(marathi, c.start, 300)]) > 512
    assert 100 < int(m[3]) < 300


def test_no_report_where_the_size_fits(marathi):
    with warnings.catch_warnings():
        warnings.simplefilter("error", seamcut.ModelInputWarning)
        chunks = seamcut.chunk(PROSE * 20, strategy="recursive", size=300, unit="words")  # English: ~1.5 tokens a word
        assert not any("held_by_model" in c.metadata for c in chunks)
        seamcut.chunk(marathi, strategy="recursive", size=500, unit="tokens")
        seamcut.chunk(marathi, strategy="recursive", size=100, overlap=0, unit="words")


def test_report_reaches_chunk_output(tmp_path, marathi):
    f = tmp_path / "mar.txt"
    f.write_text(marathi[:12000], encoding="utf-8")
    r = run("chunk", str(f), "--size", "300", "--unit", "words", "--overlap", "0",
            "-o", str(tmp_path / "c.jsonl"), cache=tmp_path / "cache")
    assert r.returncode == 0, r.stderr
    assert re.search(r"warning: .*mar\.txt: size 300 words is over multilingual-e5-small's 512-token "
                     r"input for \d+ of \d+ chunk\(s\)", r.stderr), r.stderr


# -- 4c: furniture on a single page ---------------------------------------------------------------

BODY = "".join(f"<p>Paragraph {i}: whitefly eggs hatch in about a week on the underside of cotton "
               f"leaves; spray neem oil in the evening.</p>" for i in range(5))


def _one_page(path: Path, margin_box: str, size: str = "8pt") -> Path:
    """A one-page PDF made by WeasyPrint: a heading and five paragraphs in 11 pt, and one line in
    a page margin box (``@bottom-center``, ``@top-center``) in ``size``."""
    from weasyprint import HTML
    css = (f"@page {{ size: A4; margin: 2.5cm 2cm; {margin_box} {{ content: 'I Am A Footer'; "
           f"font-size: {size} }} }} body {{ font-size: 11pt }}")
    HTML(string=f"<html><head><style>{css}</style></head><body><h1>Cotton pests</h1>{BODY}"
                "</body></html>").write_pdf(str(path))
    return path


@pytest.mark.parametrize("box, kind", [("@bottom-center", "page_footer"), ("@top-center", "page_header"),
                                       ("@bottom-right", "page_footer")])
def test_one_page_footer_is_furniture_by_position_and_size(tmp_path, box, kind):
    doc = seamcut.read(_one_page(tmp_path / "one.pdf", box))
    assert "I Am A Footer" not in doc.text
    assert "Paragraph 4: whitefly eggs hatch" in doc.text and "Cotton pests" in doc.text
    assert {"kind": kind, "text": "I Am A Footer", "page": 1} in doc.metadata["furniture"]  # kept, findable


@pytest.mark.parametrize("box, kind", [("@bottom-center", "page_footer"), ("@top-center", "page_header")])
def test_a_margin_line_in_body_type_outside_the_body_is_furniture_too(tmp_path, box, kind):
    """One page, the footer in the body's own 11 pt: alone in the margin band, outside the body's
    text block, it is furniture whatever its size (it was read as body text, issue 38)."""
    doc = seamcut.read(_one_page(tmp_path / "one.pdf", box, size="11pt"))
    assert "I Am A Footer" not in doc.text
    assert {"kind": kind, "text": "I Am A Footer", "page": 1} in doc.metadata["furniture"]
    assert "Paragraph 4: whitefly eggs hatch" in doc.text and "Cotton pests" in doc.text


def test_a_title_in_the_margin_band_is_not_furniture(tmp_path):
    """A line in the band set larger than the body (a title, a heading) stays in the text."""
    doc = seamcut.read(_one_page(tmp_path / "one.pdf", "@top-center", size="18pt"))
    assert "I Am A Footer" in doc.text


def test_single_page_footer_of_a_real_pdf_matches_the_reference(data_dir):
    """normal_4pages.pdf: page 1 alone has an affiliation line in the bottom margin, which
    docling's reference labels page_footer; repetition cannot find it (it is on one page)."""
    folder = data_dir / "pdfs" / "docling"
    ref = json.loads((folder / "groundtruth" / "normal_4pages.json").read_text(encoding="utf-8"))
    footers = [t["text"] for t in ref["texts"] if t.get("label") == "page_footer" and "@" in t["text"]]
    assert footers
    doc = seamcut.read(folder / "normal_4pages.pdf")
    found = [f for f in doc.metadata["furniture"] if f["page"] == 1]
    assert found and " ".join(found[0]["text"].split()) == " ".join(footers[0].split())
    assert "ja0512@assembly.go.kr" not in doc.text


@pytest.mark.slow
def test_warnings_reach_index_and_compare_output(tmp_path, marathi):
    docs = tmp_path / "docs"
    docs.mkdir()
    # about 550 words: three chunks, two of them held at the model's 512 tokens, in each strategy
    # (12,000 characters made nine, each embedded in the index and in both of compare's builds)
    (docs / "mar.txt").write_text(marathi[:4000], encoding="utf-8")
    (docs / "notes.pdf").write_text(PROSE, encoding="utf-8")
    size = ["--strategy", "fixed", "--size", "300", "--unit", "words"]
    r = run("index", str(docs), "--db", str(tmp_path / "db"), *size, "--stats", str(tmp_path / "s.json"),
            cache=tmp_path / "cache")
    assert r.returncode == 0, r.stderr
    assert re.search(r"warning: .*notes\.pdf: named \.pdf \(PDF\) but its content is plain text", r.stderr)
    assert re.search(r"warning: .*mar\.txt: size 300 words is over multilingual-e5-small's 512-token", r.stderr)
    stats = json.loads((tmp_path / "s.json").read_text(encoding="utf-8"))
    assert len(stats["warnings"]) == 1 and len(stats["held"]) == 1
    questions = tmp_path / "q.yaml"
    questions.write_text("- id: w\n  question: Whitefly eggs?\n  must_contain: Whitefly eggs hatch\n",
                         encoding="utf-8")
    r = run("compare", str(docs), "--questions", str(questions), "--strategies", "fixed,recursive",
            "--size", "300", "--unit", "words", "--out", str(tmp_path / "out"), "--json",
            str(tmp_path / "r.json"), cache=tmp_path / "cache")
    assert r.returncode == 0, r.stderr
    assert len(re.findall(r"named \.pdf \(PDF\)", r.stderr)) == 1  # once, not once per strategy
    for name in ("fixed", "recursive"):
        assert re.search(rf"warning: {name}: .*mar\.txt: size 300 words is over", r.stderr), r.stderr
    assert len(json.loads((tmp_path / "r.json").read_text(encoding="utf-8"))["warnings"]) == 3


def test_a_word_longer_than_the_model_input_is_said_plainly():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        chunks = seamcut.chunk("x" * 3000 + " tail words here", strategy="fixed", size=50, overlap=0,
                               unit="words")
    (w,) = [str(w.message) for w in caught if issubclass(w.category, seamcut.ModelInputWarning)]
    assert "inside one word longer than that" in w and all(c.tokens <= 512 for c in chunks)
    assert caught[0].filename == __file__  # pointed at the caller of chunk()
