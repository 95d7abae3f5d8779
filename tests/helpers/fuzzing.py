"""What the fuzzers share (``fuzz/`` with atheris, ``tests/robustness/test_fuzz.py`` with
hypothesis): seed files of each format, the reader check ("an ``InputError`` naming the file, or
a ``Document`` with text; never another exception") and random Documents for the strategies.

A fuzz input for the readers is one format byte (``FORMATS[b % 5]``) and then the file's bytes.
"""
from __future__ import annotations

import os
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any

from .badfiles import TEXT, good_docx, many_pages, one_page

FORMATS = (".pdf", ".docx", ".html", ".md", ".txt")
#: element kinds a random document is given (``seamcut.model.Element``)
KINDS = ("title", "heading", "paragraph", "list_item", "table", "caption", "code", "page_header",
         "page_footer")


@lru_cache(maxsize=None)
def seeds() -> dict[str, list[bytes]]:
    """Small good files of each format, by suffix: what the mutators start from."""
    html = ("<!doctype html><html><head><title>Seeds</title></head><body><nav>Home | News</nav><h1>Cotton"
            "</h1><p>Sow <b>cotton</b> in June, <a href='x'>after</a> rain.</p><ul><li>Whitefly: 2 ml"
            "</li><li>Aphid<ul><li>3 ml</li></ul></li></ul><table><thead><tr><th>Pest</th><th>Dose</th>"
            "</tr></thead><tr><td>Whitefly</td><td>2 ml</td></tr></table><pre>code</pre><footer>(c)"
            "</footer></body></html>").encode()
    md = ("# Cotton manual\n\nSow cotton in June.\n\n## Pests\n\n- whitefly\n  - 2 ml per litre\n- aphid\n\n"
          "> Spray in the evening.\n\n| Pest | Dose |\n|---|---|\n| Whitefly | 2 ml |\n\n```\ncode\n```\n"
          "[link](http://x) *em* **strong** `code`\n").encode()
    text = "Cotton: sow in June.\n\nकपास की बुआई जून में करें।\n\nWhitefly: 2 ml per litre.\n".encode()
    return {".pdf": [one_page(), many_pages(3, text=True), one_page(TEXT + b"\nBT /F1 18 Tf 72 740 Td (Heading) Tj ET")],
            ".docx": [good_docx(2)], ".html": [html], ".md": [md], ".txt": [text]}


def seed_inputs() -> list[bytes]:
    """Every seed as a fuzz input: its format byte, then its bytes."""
    return [bytes([FORMATS.index(suffix)]) + data for suffix, files in seeds().items() for data in files]


def split_input(data: bytes) -> tuple[str, bytes]:
    """A fuzz input's suffix and file bytes."""
    if not data:
        return ".txt", b""
    return FORMATS[data[0] % len(FORMATS)], data[1:]


def read_bytes(data: bytes, suffix: str, folder: str | None = None, ocr: str = "never") -> Any:
    """``data`` written to a file ending in ``suffix`` and read by ``seamcut.read``: the Document,
    or the ``InputError`` (checked to name the file); any other exception propagates."""
    from seamcut.errors import InputError
    from seamcut.readers import read

    fd, name = tempfile.mkstemp(suffix=suffix, dir=folder)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        try:
            doc = read(name, ocr=ocr)
        except InputError as exc:
            assert str(exc).startswith(f"{name}: ") and exc.reason, f"error not naming the file: {exc}"
            return exc
        assert doc.text.strip(), "a document without text"
        for e in doc.elements:
            assert 0 <= e.start <= e.end <= len(doc.text), f"element out of the text: {e}"
        return doc
    finally:
        os.unlink(name)


def mutate(data: bytes, ops: list[tuple[int, int, int]]) -> bytes:
    """``data`` changed by ``ops`` = (what, where, value): 0 flip a byte, 1 insert one, 2 delete a
    run, 3 cut the rest, 4 repeat a run, 5 overwrite with an interesting value."""
    buf = bytearray(data)
    interesting = (b"\x00", b"\xff", b"<", b">", b"[", b"]", b"(", b")", b"obj", b"endobj", b"stream",
                   b"9999999999", b"-1", b"<<", b">>", b"</", b"<div>", b"\n", b"%%EOF", b"PK\x03\x04")
    for what, where, value in ops:
        if not buf:
            buf = bytearray(bytes([value % 256]))
        at = where % len(buf)
        kind = what % 6
        if kind == 0:
            buf[at] ^= 1 << (value % 8)
        elif kind == 1:
            buf[at:at] = bytes([value % 256])
        elif kind == 2:
            del buf[at:at + 1 + value % 64]
        elif kind == 3:
            del buf[at:]
        elif kind == 4:
            run = bytes(buf[at:at + 1 + value % 32])
            buf[at:at] = run * (1 + value % 50)
        else:
            token = interesting[value % len(interesting)]
            buf[at:at + len(token)] = token
    return bytes(buf)


def random_document(text: str, picks: list[tuple[int, int, int, int]], pages: list[int]) -> Any:
    """A ``Document`` of ``text`` with random elements laid out as a reader lays them out: the
    text cut at the picks' positions into pieces, each piece (its surrounding whitespace left
    out, blank ones dropped) an element of a random kind, so the elements cover every
    non-whitespace character in order without overlapping; headings get a level and their text,
    tables rows and row spans made up from their lines; page starts from ``pages``."""
    from seamcut.model import Document, Element
    from seamcut.text.space import SPACE_CHARS

    n = len(text)
    cuts = sorted({0, n, *(start % (n + 1) for _, start, _, _ in picks)})
    kinds = [KINDS[k % len(KINDS)] for k, _, _, _ in picks] or ["paragraph"]
    levels = [level for _, _, _, level in picks] or [0]
    elements = []
    for i, (a, b) in enumerate(zip(cuts, cuts[1:])):
        piece = text[a:b]
        lead = len(piece) - len(piece.lstrip(SPACE_CHARS))
        a, b = a + lead, a + len(piece.rstrip(SPACE_CHARS))
        if b <= a:
            continue
        kind, level = kinds[i % len(kinds)], levels[i % len(levels)]
        if kind in ("page_header", "page_footer"):  # furniture is kept out of a reader's text
            kind = "paragraph"
        meta: dict[str, Any] = {}
        if kind in ("heading", "title"):
            meta = {"text": text[a:b].strip(SPACE_CHARS)}
        elif kind == "table":
            rows, spans, pos = [], [], a
            for line in text[a:b].split("\n"):
                rows.append(line.split("|"))
                spans.append((pos, pos + len(line)))
                pos += len(line) + 1
            meta = {"rows": rows, "header_rows": level % 2, "row_spans": spans}
        elements.append(Element(kind, a, b, level=1 + level % 6 if kind == "heading" else None,
                                metadata=meta))
    starts = sorted({0, *(p % (n + 1) for p in pages)}) if pages else []
    return Document(text=text, source="fuzz", elements=tuple(elements), page_starts=tuple(starts))


def regression_files() -> list[Path]:
    """The inputs fuzzing found crashes with, kept as regression files."""
    folder = Path(__file__).resolve().parents[1] / "robustness" / "regressions"
    return sorted(p for p in folder.iterdir() if p.is_file() and p.name != "README.md") if folder.is_dir() else []
