"""Readers: one per format, each turning a file into a ``Document``."""
from __future__ import annotations

from pathlib import Path
from typing import Iterator

from ..errors import InputError
from ..model import Document
from .text import read_text

#: file name endings read as text (the document text is the file's content)
TEXT_SUFFIXES = (".txt", ".text", ".md", ".markdown")

_MAGIC = ((b"%PDF", "a PDF"), (b"PK\x03\x04", "a ZIP container (DOCX, XLSX, ...)"),
          (b"\x89PNG", "a PNG image"), (b"\xff\xd8\xff", "a JPEG image"), (b"GIF8", "a GIF image"))


def read(path: str | Path, encoding: str | None = None) -> Document:
    """Read one file into a ``Document``, choosing the reader by content, not by name alone."""
    p = Path(path)
    if p.is_dir():
        raise InputError(p, "is a directory holding no .txt or .md files to read")
    try:
        with p.open("rb") as fh:
            head = fh.read(8)
    except FileNotFoundError:
        raise InputError(p, "no such file") from None
    except OSError as exc:
        raise InputError(p, exc.strerror or str(exc)) from None
    for magic, what in _MAGIC:
        if head.startswith(magic):
            raise InputError(p, f"is {what}; this version of seamcut reads plain text and Markdown")
    return read_text(p, encoding)


def expand(paths: list[str | Path]) -> Iterator[Path]:
    """The files named by ``paths``: a folder gives its text and Markdown files, recursively and
    sorted; a path that does not exist is passed on (reading it reports the error)."""
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            found = sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in TEXT_SUFFIXES)
            if not found:
                yield p  # reading it reports "is a directory" with no files to take
            yield from found
        else:
            yield p


__all__ = ["read", "read_text", "expand", "TEXT_SUFFIXES"]
