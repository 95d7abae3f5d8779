"""Plain text and Markdown: the decoded file content, unchanged, is the document text."""
from __future__ import annotations

import codecs
from pathlib import Path

from ..errors import InputError
from ..model import Document

_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
         (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"))


def decode(data: bytes, path: object, encoding: str | None = None) -> str:
    """Bytes to text: ``encoding`` if given, else UTF-16/32 by their byte-order mark, else UTF-8.

    A UTF-8 byte-order mark is kept as the character U+FEFF so offsets stay file offsets. Bytes that
    do not decode raise ``InputError`` with the byte offset, a NUL character (binary data) with its
    character offset; nothing is replaced or dropped silently.
    """
    if encoding is None:
        encoding = next((enc for bom, enc in _BOMS if data.startswith(bom)), "utf-8")
        if encoding == "utf-8" and b"\x00" in data[:8192]:
            raise InputError(path, "binary file (NUL bytes), not text")
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise InputError(path, f"not valid {exc.encoding} text: byte {exc.start} "
                               f"(0x{data[exc.start]:02x}) cannot be decoded; pass the file's "
                               "encoding (--encoding) or convert it") from None
    except LookupError:
        raise InputError(path, f"unknown text encoding {encoding!r}") from None
    nul = text.find("\x00")
    if nul >= 0:  # past the first 8 KB, or in UTF-16/32: binary data inside the text
        raise InputError(path, f"a NUL character at character {nul}: binary data in a text file")
    return text


def read_text(path: str | Path, encoding: str | None = None, **fields: object) -> Document:
    """Read a ``.txt`` or ``.md`` file into a ``Document`` whose text is the file's content."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise InputError(p, "no such file") from None
    except IsADirectoryError:
        raise InputError(p, "is a directory") from None
    except PermissionError:
        raise InputError(p, "permission denied") from None
    except OSError as exc:
        raise InputError(p, exc.strerror or str(exc)) from None
    text = decode(data, p, encoding)
    del data  # the text is all that is kept: a 100 MB file is not held twice
    if not text or text.isspace() or text == "\ufeff" or (text[0] == "\ufeff" and text[1:].isspace()):
        # (not text.strip(), which copies the whole text)
        raise InputError(p, "empty file (no text)" if len(text) <= 1 and not text.isspace()
                         else "holds only whitespace")
    fmt = "markdown" if p.suffix.lower() in (".md", ".markdown") else "text"
    return Document(text=text, source=str(p), metadata={"format": fmt, **fields})
