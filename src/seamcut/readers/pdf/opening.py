"""Opening a PDF: the checks that name what is wrong with a file, pypdfium2's document, and
pdfplumber's, opened only for a page that needs it."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ...errors import InputError


def open_pdf(p: Path, password: str | None):
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
            raise _encrypted(p, password) from None
        raise InputError(p, f"corrupt or unreadable PDF ({msg})") from None
    if len(doc) == 0:
        doc.close()
        raise InputError(p, "corrupt or unreadable PDF (no pages)")
    return doc


def open_plumber(p: Path, password: str | None):
    """The file opened with pdfplumber; an ``InputError`` naming the file where it cannot be."""
    import pdfplumber
    from pdfminer.pdfdocument import PDFPasswordIncorrect

    try:
        return pdfplumber.open(str(p), password=password or "")
    except PDFPasswordIncorrect:
        raise _encrypted(p, password) from None
    except Exception as exc:  # pdfminer raises many kinds on broken files
        raise InputError(p, f"corrupt or unreadable PDF ({type(exc).__name__}: {exc})") from None


def _encrypted(p: Path, password: str | None) -> InputError:
    """The error for an encrypted file opened without its password, or with a wrong one."""
    return InputError(p, "encrypted; pass --password" if password is None else "encrypted; wrong password")


class LazyPlumber:
    """The file's pdfplumber document, opened on first use (pdfminer's parse is slow; most
    documents never need it)."""

    def __init__(self, path: Path, password: str | None) -> None:
        self.path, self.password = path, password
        self._pdf: Any = None

    def page(self, index: int):
        """Page ``index`` (0-based); close it after use."""
        if self._pdf is None:
            self._pdf = open_plumber(self.path, self.password)
        return self._pdf.pages[index]

    def close(self) -> None:
        if self._pdf is not None:
            self._pdf.close()
