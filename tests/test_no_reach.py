"""Nothing reaches out (issue 13, point 5): links, scripts, embedded files and remote images in
PDF, HTML and DOCX are never fetched or run; a catalog cannot point outside the corpus folder;
caches hold no pickles."""
from __future__ import annotations

import json
import pickle
import threading
import zipfile
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Iterator

import pytest

import seamcut
from seamcut.pipeline.catalog import load_catalog
from seamcut.pipeline.corpus import ReadJob, ReadOptions, _cache_key, file_hash, read_file

SECRET = "LEAKED-FROM-THE-SERVER"
ROOT = Path(__file__).resolve().parents[1]


class _Recorder(BaseHTTPRequestHandler):
    requests: list[str] = []

    def do_GET(self) -> None:  # noqa: N802 (the http.server name)
        self.requests.append(self.path)
        body = f"{SECRET} root:x:0:0".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_POST = do_HEAD = do_GET

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def server() -> Iterator[tuple[str, list[str]]]:
    """A local HTTP server on 127.0.0.1 that records every request: its base URL and the list."""
    handler = type("Recorder", (_Recorder,), {"requests": []})
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    t = threading.Thread(target=httpd.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", handler.requests
    finally:
        httpd.shutdown()
        httpd.server_close()


def _assert_nothing_reached(doc_or_error: object, requests: list[str]) -> None:
    assert requests == []
    if isinstance(doc_or_error, seamcut.Document):
        assert SECRET not in doc_or_error.text and "root:x:0:0" not in doc_or_error.text
        assert "EMBEDDED-SECRET" not in doc_or_error.text


def _read(path: Path) -> object:
    """The document, or the clear error (a reader may refuse a hostile file; it may not leak)."""
    try:
        return seamcut.read(path)
    except seamcut.InputError as exc:
        return exc


def test_the_recorder_records(server):
    import urllib.request
    base, requests = server
    with urllib.request.urlopen(f"{base}/probe", timeout=5) as r:
        assert SECRET in r.read().decode()
    assert requests == ["/probe"]  # so an empty list below means no request, not a deaf server


def test_html_fetches_nothing(tmp_path, server):
    base, requests = server
    page = tmp_path / "page.html"
    page.write_text(f"""<!DOCTYPE html [<!ENTITY pw SYSTEM "file:///etc/passwd">
<!ENTITY net SYSTEM "{base}/entity">]>
<html><head>
<link rel="stylesheet" href="{base}/style.css"><link rel="preload" href="{base}/font.woff2">
<style>@import url("{base}/import.css"); body {{ background: url({base}/bg.png) }}</style>
<script src="{base}/script.js"></script>
<script>fetch("{base}/inline-fetch"); new Image().src = "{base}/beacon";</script>
<meta http-equiv="refresh" content="0; url={base}/refresh">
<base href="{base}/base/">
</head><body onload="location='{base}/onload'">
<h1>Cotton pests</h1><p>Whitefly sits under the leaves. &pw; &net;</p>
<img src="{base}/img.png" srcset="{base}/img2.png 2x" alt="whitefly">
<picture><source srcset="{base}/source.webp"></picture>
<iframe src="{base}/frame"></iframe><embed src="{base}/embed"><object data="{base}/object"></object>
<video poster="{base}/poster.png" src="{base}/video.mp4"></video>
<svg><image href="{base}/svg.png"/></svg>
<p style="background-image: url('{base}/inline-style.png')">Spray in the evening.</p>
<a href="{base}/link">the scheme's page</a>
</body></html>""", encoding="utf-8")
    doc = _read(page)
    assert isinstance(doc, seamcut.Document)
    assert "Whitefly sits under the leaves." in doc.text and "Spray in the evening." in doc.text
    _assert_nothing_reached(doc, requests)


def _docx(path: Path, base: str) -> Path:
    """A Word file that points outside in every way the format allows: an external image, an
    attached template, a hyperlink, and external entities in its XML (network and local file)."""
    import docx
    d = docx.Document()
    d.add_paragraph("Sow cotton after the first good rain.")
    d.add_paragraph("MARKER")
    plain = path.with_suffix(".plain.docx")
    d.save(str(plain))
    with zipfile.ZipFile(plain) as src, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as out:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename == "word/document.xml":
                text = data.decode("utf-8")
                head, rest = text.split("?>", 1)
                text = (head + "?>" + f'<!DOCTYPE w:document [<!ENTITY pw SYSTEM "file:///etc/passwd">'
                        f'<!ENTITY net SYSTEM "{base}/xxe">]>' + rest)
                text = text.replace(">MARKER<", ">Dose: &pw;&net;<")
                text = text.replace("</w:body>", '<w:p><w:r><w:pict><v:imagedata xmlns:v="urn:schemas-'
                                    'microsoft-com:vml" r:id="rIdRemote"/></w:pict></w:r></w:p></w:body>')
                data = text.encode("utf-8")
            elif item.filename == "word/_rels/document.xml.rels":
                data = data.replace(b"</Relationships>", (
                    '<Relationship Id="rIdRemote" Type="http://schemas.openxmlformats.org/officeDocument/'
                    f'2006/relationships/image" Target="{base}/remote.png" TargetMode="External"/>'
                    '<Relationship Id="rIdLink" Type="http://schemas.openxmlformats.org/officeDocument/'
                    f'2006/relationships/hyperlink" Target="{base}/link" TargetMode="External"/>'
                    '</Relationships>').encode())
            elif item.filename == "word/settings.xml":
                data = data.replace(b"<w:zoom", b'<w:attachedTemplate r:id="rIdTpl"/><w:zoom', 1)
            out.writestr(item, data)
        out.writestr("word/_rels/settings.xml.rels", (
            '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
            '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
            '<Relationship Id="rIdTpl" Type="http://schemas.openxmlformats.org/officeDocument/2006/'
            f'relationships/attachedTemplate" Target="{base}/template.dotx" TargetMode="External"/>'
            '</Relationships>'))
    plain.unlink()
    return path


def test_docx_fetches_nothing(tmp_path, server):
    base, requests = server
    doc = _read(_docx(tmp_path / "hostile.docx", base))
    if isinstance(doc, seamcut.Document):
        assert "Sow cotton after the first good rain." in doc.text
    _assert_nothing_reached(doc, requests)


def _pdf(path: Path, base: str) -> Path:
    """A one-page PDF with a web link, a launch action, JavaScript run on open and an embedded
    file, written object by object (no PDF library fetches anything while it is made)."""
    secret = b"EMBEDDED-SECRET text of an attached file"
    content = b"BT /F1 12 Tf 72 720 Td (Visible body text about cotton sowing.) Tj ET"
    objects = [
        f"<< /Type /Catalog /Pages 2 0 R /OpenAction 6 0 R /Names << /EmbeddedFiles << /Names "
        f"[(secret.txt) 7 0 R] >> /JavaScript << /Names [(run) 6 0 R] >> >> "
        f"/AA << /WC << /S /URI /URI ({base}/on-close) >> >> >>".encode(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> /Annots [9 0 R 10 0 R 11 0 R] >>",
        b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        f"<< /S /JavaScript /JS (app.launchURL\\(\"{base}/js\", true\\); "
        f"this.submitForm\\(\"{base}/submit\"\\);) >>".encode(),
        b"<< /Type /Filespec /F (secret.txt) /EF << /F 8 0 R >> >>",
        b"<< /Type /EmbeddedFile /Length %d >>\nstream\n" % len(secret) + secret + b"\nendstream",
        f"<< /Type /Annot /Subtype /Link /Rect [72 700 300 730] /A << /S /URI /URI ({base}/uri) >> >>".encode(),
        f"<< /Type /Annot /Subtype /Link /Rect [72 600 300 630] /A << /S /Launch /F ({base}/launch) >> >>".encode(),
        b"<< /Type /Annot /Subtype /FileAttachment /Rect [72 500 90 520] /FS 7 0 R >>",
    ]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for n, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % n + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    path.write_bytes(bytes(out))
    return path


def test_pdf_fetches_runs_and_extracts_nothing(tmp_path, server):
    base, requests = server
    pdf = _pdf(tmp_path / "hostile.pdf", base)
    doc = _read(pdf)
    assert isinstance(doc, seamcut.Document)
    assert "Visible body text about cotton sowing." in doc.text
    _assert_nothing_reached(doc, requests)
    _assert_nothing_reached(_read_ocr(pdf), requests)  # rendered for OCR: no action runs either


def _read_ocr(path: Path) -> object:
    try:
        return seamcut.read(path, ocr="always")
    except seamcut.InputError as exc:
        return exc


# -- the catalog stays in its folder ----------------------------------------------------------------

def _catalog(folder: Path, rows: list[str]) -> Path:
    p = folder / "catalog.csv"
    p.write_text("file,crop\n" + "".join(f"{r},cotton\n" for r in rows), encoding="utf-8")
    return p


@pytest.mark.parametrize("row", ["../../etc/passwd", "/etc/passwd", "sub/../../outside.txt",
                                 "link-out.txt", "linked-dir/hosts"])
def test_catalog_row_outside_the_corpus_is_an_error(tmp_path, row):
    corpus = tmp_path / "corpus"
    (corpus / "sub").mkdir(parents=True)
    (corpus / "a.txt").write_text("Cotton.", encoding="utf-8")
    (tmp_path / "outside.txt").write_text("secret", encoding="utf-8")
    (corpus / "link-out.txt").symlink_to(tmp_path / "outside.txt")
    (corpus / "linked-dir").symlink_to("/etc")
    cat = _catalog(corpus, ["a.txt", row])
    with pytest.raises(seamcut.InputError) as err:
        load_catalog(cat)
    msg = str(err.value)
    assert str(cat) in msg and "entry 2" in msg and repr(row) in msg and "outside" in msg


def test_catalog_rows_inside_the_corpus_are_fine(tmp_path):
    corpus = tmp_path / "corpus"
    (corpus / "sub").mkdir(parents=True)
    (corpus / "sub" / "b.txt").write_text("Cotton.", encoding="utf-8")
    (corpus / "link-in.txt").symlink_to(corpus / "sub" / "b.txt")
    cat = load_catalog(_catalog(corpus, ["sub/b.txt", str(corpus / "sub" / "b.txt"), "link-in.txt",
                                         "not-yet-there.pdf", "sub/../sub/b.txt"]))
    assert cat.fields_for(corpus / "sub" / "b.txt") == {"crop": "cotton"}
    load_catalog(ROOT / "examples" / "helpline" / "catalog.csv")


# -- caches hold no pickles --------------------------------------------------------------------------

def _real_files(data: Path) -> list[Path]:
    pdfs = sorted((data / "pdfs" / "docling").glob("*.pdf")) + sorted((data / "pdfs" / "pdfplumber").glob("*.pdf"))
    return pdfs + sorted((data / "chroma_eval" / "corpora").glob("*.md"))[:2] + [data / "flores200" / "hin_Deva.dev"]


def test_parse_cache_round_trips_real_documents_exactly(tmp_path, data_dir):
    files = _real_files(data_dir)
    assert len(files) >= 15
    cache = tmp_path / "cache"
    for f in files:
        job = ReadJob(str(f), ReadOptions(ocr="never"), {"crop": "cotton", "year": 2024}, str(cache))
        fresh = read_file(job)
        if fresh.document is None:  # a file seamcut refuses has nothing to cache
            continue
        cached = read_file(job)
        assert cached.document == fresh.document, f
        assert cached.document.text == fresh.document.text and cached.document.id == fresh.document.id
    stored = list(cache.iterdir())
    assert len(stored) >= 15 and all(p.suffix == ".json" for p in stored)
    for p in stored:
        json.loads(p.read_text(encoding="utf-8"))  # plain JSON: nothing in it runs on load


class _Planted:
    """What an attacker's pickle does on load: here, write a file."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return (Path.write_text, (self.marker, "pickle ran"))


def test_leftover_pickle_is_never_loaded(tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("Sow cotton after the first good rain.\n", encoding="utf-8")
    cache, marker = tmp_path / "cache", tmp_path / "pwned"
    cache.mkdir()
    options = ReadOptions()
    key = _cache_key(file_hash(f), options, {}, str(f))
    (cache / f"{key}.pickle").write_bytes(pickle.dumps(_Planted(marker)))
    (cache / f"{key}.json").write_text('{"seamcut_document": 1, "text": "tor', encoding="utf-8")  # torn
    got = read_file(ReadJob(str(f), options, {}, str(cache)))
    assert not marker.exists()
    assert got.document is not None and got.document == seamcut.read(f)
    assert read_file(ReadJob(str(f), options, {}, str(cache))).document == got.document


def test_no_pickle_anywhere_in_seamcut():
    src = ROOT / "src" / "seamcut"
    for f in src.rglob("*.py"):
        code = f.read_text(encoding="utf-8")
        assert "import pickle" not in code and "allow_pickle=True" not in code, f
