"""Markdown, HTML, Word and plain text readers; choosing a reader by content; catalogs; language."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import seamcut
from seamcut.pipeline.catalog import load_catalog
from seamcut.errors import InputError
from seamcut.readers import read, sniff

ROOT = Path(__file__).resolve().parents[2]
DOSE_ROWS = [["Pest", "Dose", "Repeat"], ["Whitefly", "2 ml per litre", "7 days"],
             ["Aphid", "3 ml per litre", "10 days"]]

MARKDOWN = """# Cotton manual (made up)

## Pests

Sucking pests attack cotton.

| Pest | Dose | Repeat |
|------|------|--------|
| Whitefly | 2 ml per litre | 7 days |
| Aphid | 3 ml per litre | 10 days |

1. Aadhaar card
2. Bank passbook

```
code block
```
"""

HTML = """<!doctype html><html><head><title>Cotton manual</title><style>p{color:red}</style></head>
<body><nav>Home | Manuals</nav><h1>Cotton crop-care manual</h1><h2>Pests</h2>
<p>Sucking pests attack <b>cotton</b>.</p>
<table><thead><tr><th>Pest</th><th>Dose</th><th>Repeat</th></tr></thead><tbody>
<tr><td>Whitefly</td><td>2 ml per litre</td><td>7 days</td></tr>
<tr><td>Aphid</td><td>3 ml per litre</td><td>10 days</td></tr></tbody></table>
<ol><li>Aadhaar card</li><li>Bank passbook</li></ol><div>Loose text <i>in a div</i></div>
<footer>Page 1</footer><script>var x = "never in the text";</script></body></html>"""


def rows_of(doc):
    return [e for e in doc.elements if e.kind == "table"][0].metadata


def test_markdown_keeps_the_file_text_and_finds_structure(tmp_path):
    f = tmp_path / "manual.md"
    f.write_text(MARKDOWN, encoding="utf-8")
    doc = read(f)
    assert doc.text == MARKDOWN
    kinds = [(e.kind, e.level) for e in doc.elements]
    assert kinds == [("title", 1), ("heading", 2), ("paragraph", None), ("table", None),
                     ("list_item", None), ("list_item", None), ("code", None)]
    assert doc.elements[1].metadata["text"] == "Pests"
    table = rows_of(doc)
    assert table["rows"] == DOSE_ROWS and table["header_rows"] == 1
    assert [doc.text[a:b] for a, b in table["row_spans"]][1] == "| Whitefly | 2 ml per litre | 7 days |"
    assert doc.language == "en"


def test_html_blocks_tables_and_furniture(tmp_path):
    f = tmp_path / "page.html"
    f.write_text(HTML, encoding="utf-8")
    doc = read(f)
    assert "Whitefly | 2 ml per litre | 7 days" in doc.text
    assert "Sucking pests attack cotton." in doc.text
    assert "Loose text in a div" in doc.text
    assert "never in the text" not in doc.text and "color:red" not in doc.text
    assert "Home | Manuals" not in doc.text
    assert {x["text"] for x in doc.metadata["furniture"]} == {"Home | Manuals", "Page 1"}
    assert rows_of(doc)["rows"] == DOSE_ROWS
    assert [(e.kind, e.level) for e in doc.elements][:3] == [("title", None), ("heading", 1), ("heading", 2)]
    for e in doc.elements:
        assert doc.text[e.start:e.end].strip()


def test_docx_paragraph_styles_tables_and_headers(tmp_path):
    docx = pytest.importorskip("docx")
    d = docx.Document()
    d.add_heading("Cotton manual", 0)
    d.add_heading("Pests", 1)
    d.add_paragraph("Sucking pests attack cotton.")
    t = d.add_table(rows=3, cols=3)
    for r, row in enumerate(DOSE_ROWS):
        for c, v in enumerate(row):
            t.cell(r, c).text = v
    d.add_paragraph("Aadhaar card", style="List Number")
    d.sections[0].header.paragraphs[0].text = "Cotton manual (made up)"
    f = tmp_path / "manual.docx"
    d.save(str(f))
    doc = read(f)
    assert [(e.kind, e.level) for e in doc.elements] == [
        ("title", None), ("heading", 1), ("paragraph", None), ("table", None), ("list_item", None)]
    assert rows_of(doc)["rows"] == DOSE_ROWS
    assert doc.metadata["furniture"][0]["text"] == "Cotton manual (made up)"
    assert "Cotton manual (made up)" not in doc.text


def test_reader_is_chosen_by_content_not_name(tmp_path):
    f = tmp_path / "really-html.txt"
    f.write_text(HTML, encoding="utf-8")
    assert read(f).metadata["format"] == "html"
    zipped = tmp_path / "archive.docx"
    import zipfile
    with zipfile.ZipFile(zipped, "w") as z:
        z.writestr("a.txt", "not word")
    with pytest.raises(InputError, match="ZIP archive, not a Word document"):
        read(zipped)
    ole = tmp_path / "old.doc"
    ole.write_bytes(b"\xd0\xcf\x11\xe0" + b"\x00" * 100)
    with pytest.raises(InputError, match="legacy Office"):
        read(ole)
    assert sniff(Path("x.png"), b"\x89PNG\r\n\x1a\n....") == "image"
    assert sniff(Path("x.bin"), b"%PDF-1.7") == "pdf"
    with pytest.raises(InputError, match="empty file"):
        (tmp_path / "e.md").write_bytes(b"")
        read(tmp_path / "e.md")


def test_plain_text_paragraphs_get_language_labels(tmp_path):
    f = tmp_path / "mixed.txt"
    text = ("Spray in the evening, when bees are not foraging, and wait seven days.\n\n"
            "सोयाबीन की बुवाई जून के आखिरी हफ्ते से जुलाई के पहले हफ्ते तक करें। छिड़काव शाम को करें।\n\n"
            "संत्र्याच्या झाडांना उन्हाळ्यात आठवड्यातून दोन वेळा पाणी द्या. फवारणी संध्याकाळी करा.")
    f.write_text(text, encoding="utf-8")
    doc = read(f)
    assert doc.text == text
    assert [e.language for e in doc.elements] == ["en", "hi", "mr"]


def test_catalog_fields_reach_every_chunk(tmp_path):
    (tmp_path / "cotton.md").write_text(MARKDOWN, encoding="utf-8")
    cat = tmp_path / "catalog.csv"
    cat.write_text("file,doc_type,crop,year,language\ncotton.md,manual,cotton,2026,en\n", encoding="utf-8")
    fields = load_catalog(cat).fields_for(tmp_path / "cotton.md")
    assert fields == {"doc_type": "manual", "crop": "cotton", "year": 2026, "language": "en"}
    doc = read(tmp_path / "cotton.md", fields=fields)
    chunks = seamcut.chunk(doc, size=40, overlap=0)
    assert all(c.metadata["crop"] == "cotton" and c.metadata["year"] == 2026 for c in chunks)
    ycat = tmp_path / "catalog.yaml"
    ycat.write_text("- file: cotton.md\n  crop: cotton\n  doc_type: manual\n", encoding="utf-8")
    assert load_catalog(ycat).fields_for("elsewhere/cotton.md")["crop"] == "cotton"
    bad = tmp_path / "bad.csv"
    bad.write_text("name,crop\nx,y\n", encoding="utf-8")
    with pytest.raises(InputError, match="no 'file'"):
        load_catalog(bad)


def test_read_command_prints_elements(tmp_path):
    f = tmp_path / "manual.md"
    f.write_text(MARKDOWN, encoding="utf-8")
    env = {**os.environ, "COLUMNS": "200"}
    r = subprocess.run([sys.executable, "-m", "seamcut.cli", "read", str(f), "--format", "json"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert [e["kind"] for e in data["elements"]][:2] == ["title", "heading"]
    assert data["elements"][3]["metadata"]["rows"] == DOSE_ROWS
    r = subprocess.run([sys.executable, "-m", "seamcut.cli", "read", str(f)],
                       capture_output=True, text=True, env=env, timeout=120)
    assert "| Whitefly | 2 ml per litre | 7 days |" in r.stdout and "## Pests" in r.stdout


def test_chunks_carry_heading_path_and_language_of_their_elements(tmp_path):
    f = tmp_path / "manual.md"
    f.write_text(MARKDOWN + "\n## सलाह\n\nछिड़काव शाम के समय करें और दस दिन बाद फिर से खेत देखें। "
                 "कृषि विभाग से सलाह लें।\n", encoding="utf-8")
    chunks = seamcut.chunk(read(f), size=24, overlap=0)
    by_text = {c.body.strip().splitlines()[0]: c for c in chunks}
    dose = next(c for c in chunks if "Whitefly" in c.body)
    assert dose.heading_path[:2] == ("Cotton manual (made up)", "Pests")
    hindi = next(c for c in chunks if "छिड़काव" in c.body)
    assert hindi.language == "hi" and hindi.heading_path[-1] == "सलाह"
    assert by_text  # every chunk has a first line


def test_documents_with_no_text_are_named_not_dropped(tmp_path):
    import pypdfium2 as pdfium
    from PIL import Image

    from seamcut.readers.pdf import read_pdf

    pdf = pdfium.PdfDocument.new()
    for _ in range(2000):
        pdf.new_page(595, 842)
    blank = tmp_path / "blank.pdf"
    pdf.save(str(blank))
    notes = read_pdf(blank).metadata["page_notes"]
    assert all(n == ["blank page"] for n in notes.values())  # not sent to OCR, page after page
    with pytest.raises(InputError, match="no text found in 2000 page"):
        read(blank)
    img = tmp_path / "white.png"
    Image.new("L", (800, 600), 255).save(img)
    with pytest.raises(InputError, match="no text found"):
        read(img)


def test_a_folder_is_read_with_its_linked_folders_once_each_and_broken_links_named(tmp_path):
    from seamcut.readers import expand
    top = tmp_path / "docs"
    (top / ".hidden").mkdir(parents=True)
    (top / "inner" / "deep").mkdir(parents=True)
    (top / "inner" / "deep" / "b.md").write_text("# B\n", encoding="utf-8")
    (top / "a.txt").write_text("a", encoding="utf-8")
    (top / ".hidden" / "h.txt").write_text("h", encoding="utf-8")
    (top / "notes.bin").write_bytes(b"\0")
    (top / "linked").symlink_to(top / "inner")     # a linked folder inside is read
    (top / "zagain").symlink_to(top / "inner")     # reached again: walked once
    (top / "inner" / "loop").symlink_to(top)       # a loop of links ends
    (top / "gone.txt").symlink_to(top / "nothing.txt")
    got = [p.relative_to(top).as_posix() for p in expand([top])]
    assert got == ["a.txt", "gone.txt", "inner/deep/b.md"]
    with pytest.raises(InputError, match="gone.txt: no such file"):
        read(top / "gone.txt")


def test_a_link_out_of_the_folder_is_not_followed_and_is_named(tmp_path, caplog):
    """A corpus folder reads what is in it: a link to a file or a folder outside it is not
    followed, and the batch names it with its failures (``expand`` alone logs it)."""
    from seamcut.pipeline.corpus import read_corpus
    from seamcut.readers import expand
    top, elsewhere = tmp_path / "docs", tmp_path / "elsewhere"
    top.mkdir()
    elsewhere.mkdir()
    (elsewhere / "secret.txt").write_text("the key is 1234", encoding="utf-8")
    (top / "a.txt").write_text("a field guide", encoding="utf-8")
    (top / "out.txt").symlink_to(elsewhere / "secret.txt")
    (top / "out-dir").symlink_to(elsewhere)
    refused: dict[str, str] = {}
    assert [p.name for p in expand([top], refused)] == ["a.txt"]
    assert set(refused) == {str(top / "out.txt"), str(top / "out-dir")}
    assert f"a link to {elsewhere / 'secret.txt'}, outside the folder {top}: not followed" in refused[str(top / "out.txt")]
    list(expand([top]))
    assert sum("outside the folder" in r.getMessage() for r in caplog.records) == 2
    corpus = read_corpus([top], cache=False, progress=False, workers=1)
    assert [d.text for d in corpus.documents] == ["a field guide"]
    assert sorted(f.path for f in corpus.failures) == sorted(refused)
    assert all("outside the folder" in str(f) for f in corpus.failures)
    assert [p.name for p in expand([top / "out.txt"])] == ["out.txt"]  # named by its own path: read
