"""Readers: one per format, each turning a file into a ``Document``.

``read`` chooses the reader by content (magic bytes), not by the file name alone: a PDF called
``notes.txt`` is read as a PDF. Names only tell apart formats that are all plain text (Markdown,
HTML, text). A file whose content is not what its name says is read by its content, with a
warning saying so in the document's ``metadata["warnings"]`` (``mismatch``). Every document gets
language labels (``seamcut.text.language``).

Content is told by seamcut's own magic bytes, not a general detection library: the formats read
here need more than a file's first bytes (a PDF may have junk before ``%PDF-``, which libraries
that match at offset 0 miss; a .docx is a ZIP told from other ZIPs by its ``word/document.xml``;
HTML, Markdown and text have no magic at all), and the binary formats refused are few and named.
"""
from __future__ import annotations

import logging
import zipfile
from pathlib import Path
from typing import Iterator, Mapping, Any

from ..errors import InputError
from ..text.language import label
from ..model import Document, Element
from ..text import paragraph_spans
from .found_fields import ALIASES, with_found_fields
from .markdown import read_markdown
from .text import decode, read_text

log = logging.getLogger(__name__)

#: file name endings a folder walk picks up
SUFFIXES = (".txt", ".text", ".md", ".markdown", ".html", ".htm", ".pdf", ".docx",
            ".png", ".jpg", ".jpeg", ".tif", ".tiff")

_IMAGES = ((b"\x89PNG\r\n\x1a\n", "PNG"), (b"\xff\xd8\xff", "JPEG"), (b"II*\x00", "TIFF"),
           (b"MM\x00*", "TIFF"))
_REFUSED = ((b"\xd0\xcf\x11\xe0", "a legacy Office (OLE) file such as .doc; save it as .docx"),
            (b"GIF8", "a GIF image; convert it to PNG for OCR"),
            (b"\x1f\x8b", "a gzip archive; unpack it first"),
            (b"7z\xbc\xaf", "a 7-Zip archive; unpack it first"),
            (b"Rar!", "a RAR archive; unpack it first"))


#: the format a file name ending promises
NAMED = {".pdf": "pdf", ".docx": "docx", ".html": "html", ".htm": "html", ".md": "markdown",
         ".markdown": "markdown", ".txt": "text", ".text": "text", **{
             s: "image" for s in (".png", ".jpg", ".jpeg", ".tif", ".tiff")}}
FORMATS = {"pdf": "PDF", "docx": "Word (.docx)", "image": "image", "html": "HTML",
           "markdown": "Markdown", "text": "plain text"}


def mismatch(path: Path, kind: str) -> str | None:
    """The warning for a file named as one format (by its ending) whose content (``kind``, from
    ``sniff``) is another; None where they agree or the name promises nothing."""
    named = NAMED.get(path.suffix.lower())
    if named is None or named == kind or {named, kind} <= {"markdown", "text"}:  # both plain text
        return None
    return (f"{path}: named {path.suffix} ({FORMATS[named]}) but its content is "
            f"{FORMATS[kind]}: read as {FORMATS[kind]}")


def with_warning(doc: Document, warning: str) -> Document:
    """``doc`` with ``warning`` added to its ``metadata["warnings"]``."""
    import dataclasses
    warnings = [*doc.metadata.get("warnings", ()), warning]
    return dataclasses.replace(doc, metadata={**doc.metadata, "warnings": warnings})


def sniff(path: Path, head: bytes) -> str:
    """The format of a file from its first bytes (and, for plain text, its name): one of
    ``pdf``, ``docx``, ``image``, ``html``, ``markdown``, ``text``."""
    if head.startswith(b"%PDF") or b"%PDF-" in head[:1024]:
        return "pdf"
    if head.startswith(b"PK\x03\x04"):
        try:
            with zipfile.ZipFile(path) as z:
                if "word/document.xml" in z.namelist():
                    return "docx"
        except zipfile.BadZipFile:
            raise InputError(path, "a damaged ZIP container (not a readable .docx)") from None
        raise InputError(path, "a ZIP archive, not a Word document; unpack it first")
    for magic, _ in _IMAGES:
        if head.startswith(magic):
            return "image"
    for magic, why in _REFUSED:
        if head.startswith(magic):
            raise InputError(path, f"is {why}")
    lowered = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    suffix = path.suffix.lower()
    if lowered.startswith((b"<!doctype html", b"<html")) or (suffix in (".html", ".htm")
                                                              and lowered.startswith(b"<")):
        return "html"
    if suffix in (".md", ".markdown"):
        return "markdown"
    return "text"


def read(path: str | Path, *, encoding: str | None = None, ocr: str = "auto",
         languages: list[str] | None = None, password: str | None = None,
         fields: Mapping[str, Any] | None = None, found: bool = True) -> Document:
    """Read one file into a ``Document`` with elements and language labels.

    ``ocr`` (PDF): ``auto`` OCRs pages without a usable text layer, ``always`` every page,
    ``never`` none. ``languages``: OCR languages (en, hi, mr; None: detected). ``password``:
    for an encrypted PDF. ``fields`` (e.g. from a catalog) go on the document's metadata, their
    names listed under ``catalog_fields`` (what a strategy's ``context=fields`` puts in front of
    each chunk); a ``language`` field there is taken as the document's language; an ``aliases``
    entry (``{field: [alias, ...]}``, a catalog's alternatives) goes on the metadata as it is,
    not listed as a field. ``found``: also the fields found in the text (title, date, period,
    year, folder: ``seamcut.readers.found_fields``), those ``fields`` give left out; the parse
    cache reads with ``found=False`` and finds them after, so a changed rule needs no new parse.
    """
    p = Path(path)
    if p.is_dir():
        raise InputError(p, "is a directory holding no files seamcut reads")
    try:
        with p.open("rb") as fh:
            head = fh.read(8192)
    except FileNotFoundError:
        raise InputError(p, "no such file") from None
    except OSError as exc:
        raise InputError(p, exc.strerror or str(exc)) from None
    if not head:
        raise InputError(p, "empty file (no text)")
    kind = sniff(p, head)
    if kind == "pdf":
        from .pdf import read_pdf
        doc = read_pdf(p, ocr=ocr, languages=languages, password=password)
    elif kind == "docx":
        from .docx import read_docx
        doc = read_docx(p)
    elif kind == "image":
        from .ocr import read_image
        doc = read_image(p, languages=languages)
    elif kind == "html":
        from .html import read_html
        doc = read_html(p, encoding)
    elif kind == "markdown":
        doc = read_markdown(p, encoding)
    else:
        doc = read_text(p, encoding)
        doc = Document(text=doc.text, source=doc.source, metadata=doc.metadata, elements=tuple(
            Element("paragraph", a, b) for a, b in paragraph_spans(doc.text)))
    if not doc.text.strip():
        pages = len(doc.page_starts) or doc.metadata.get("pages")
        where = f" in {pages} page(s)" if pages else ""
        how = " (OCR found none)" if kind == "image" or doc.metadata.get("extractor") == "ocr" else ""
        raise InputError(p, f"no text found{where}{how}")
    warning = mismatch(p, kind)
    if warning:
        doc = with_warning(doc, warning)
    if fields:
        import dataclasses
        named = {k: v for k, v in fields.items() if k != ALIASES}
        meta = {**doc.metadata, **named, "catalog_fields": list(named)}
        if fields.get(ALIASES):
            meta[ALIASES] = fields[ALIASES]
        doc = dataclasses.replace(doc, metadata=meta, language=named.get("language") or doc.language)
    doc = label(doc)
    return with_found_fields(doc) if found else doc


def expand(paths: list[str | Path], refused: dict[str, str] | None = None) -> Iterator[Path]:
    """The files named by ``paths``: a folder gives the files in it that seamcut reads
    (recursively, sorted, hidden ones left out; a linked folder inside it is walked once, however
    many links reach it); other paths are passed on as they are (reading reports a missing file).

    A link found in a folder (to a file or a folder) whose target lies outside that folder is not
    followed: a corpus folder reads what is in it, not ``/etc`` through a link. Each goes to
    ``refused`` (its path: the reason), for the caller to report with the batch's failures, or
    is logged as a warning where no ``refused`` is given; a file named by its own path is read
    wherever it is."""
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            out: dict[str, str] = {}
            found = sorted(_walk(p, out))
            for link, why in out.items():
                if refused is None:
                    log.warning("%s: %s", link, why)
                else:
                    refused[link] = why
            if not found and not out:
                yield p  # reading it reports a folder with nothing to read
            yield from found
        else:
            yield p


def _walk(top: Path, refused: dict[str, str]) -> Iterator[Path]:
    """The readable files under ``top``, links to folders inside it followed once each; links
    out of it go to ``refused``."""
    import os
    inside = os.path.realpath(top)
    seen: set[str] = set()

    def out_of_top(path: str) -> bool:
        if not os.path.islink(path):
            return False
        target = os.path.realpath(path)
        if target == inside or target.startswith(inside.rstrip(os.sep) + os.sep):
            return False
        refused[path] = (f"a link to {target}, outside the folder {top}: not followed (name it by "
                         f"its own path to read it)")
        return True

    for folder, dirs, files in os.walk(top, followlinks=True):
        real = os.path.realpath(folder)
        if real in seen:
            dirs[:] = []
            continue
        seen.add(real)
        # the first name of a folder wins
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and not out_of_top(os.path.join(folder, d)))
        for name in files:
            f = Path(folder, name)
            if name.startswith(".") or f.suffix.lower() not in SUFFIXES or out_of_top(str(f)):
                continue
            if f.is_file() or f.is_symlink():
                yield f  # a broken link inside the folder too: reading it reports the file missing


__all__ = ["read", "read_text", "read_markdown", "expand", "sniff", "mismatch", "with_warning",
           "SUFFIXES", "decode"]
