"""``chunks:PATH``: chunks a team already has, made by any tool, judged as they are.

The file is JSONL, one chunk a line, in each document's order::

    {"text": "...", "source": "manuals/cotton.pdf", "page": 12}
    {"text": "...", "source": "manuals/cotton.pdf", "pages": [12, 13], "embedded": "Cotton / Pests\\n..."}

``text`` (what is sent to the model) and ``source`` (the file it came from) are needed;
``page`` or ``pages`` (1-based) and ``embedded`` (the text that was embedded, where it is not
``text``) are kept where given; ``headings`` (a list) too. ``seamcut chunk --jsonl``'s own files
read as well (their document lines are skipped, their chunks' ``context`` + body is ``text``).
Any other key is an error naming the line, as a misspelt key would otherwise be dropped.

A chunk's ``source`` names a file compared by its path as written, its absolute path or, where
no other file has it, its name; a compared file no chunk names gets no chunks (and the judge
says so).
"""
from __future__ import annotations

import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..errors import ConfigError, InputError
from ..keys import unknown_key
from .base import Piece

#: keys a line of chunks may hold (a ``seamcut chunk --jsonl`` line holds more: it is read as such)
KEYS = ("text", "source", "page", "pages", "embedded", "headings")
#: keys of a ``seamcut chunk --jsonl`` chunk line
SEAMCUT_KEYS = {"id", "doc_id", "start", "end", "context", "tokens", "heading_path", "language", "strategy",
                "parent_id", "metadata"}


def check_file(path: str) -> None:
    """``ConfigError`` where ``path`` is not a readable file of chunks, naming the line at fault."""
    _load(*_stamp(path))


def chunks_for(path: str, source: str) -> list[Piece]:
    """The chunks of the file ``path`` that name the document ``source``, in the file's order."""
    by_source = _load(*_stamp(path))
    key = _match(source, by_source)
    return list(by_source.get(key, ())) if key is not None else []


def _stamp(path: str) -> tuple[str, float, int]:
    p = Path(path)
    try:
        st = p.stat()
    except OSError as exc:
        raise ConfigError(f"chunks:{path}: {exc.strerror or exc}") from None
    if not p.is_file():
        raise ConfigError(f"chunks:{path}: not a file")
    return str(p.resolve()), st.st_mtime, st.st_size


def _match(source: str, by_source: dict[str, list[Piece]]) -> str | None:
    if source in by_source:
        return source
    absolute = os.path.abspath(source)
    for s in by_source:
        if os.path.abspath(s) == absolute:
            return s
    named = [s for s in by_source if Path(s).name == Path(source).name]
    return named[0] if len(named) == 1 else None


@lru_cache(maxsize=4)
def _load(path: str, mtime: float, size: int) -> dict[str, list[Piece]]:
    """Every chunk of the file, by source (read once per process and version of the file)."""
    out: dict[str, list[Piece]] = {}
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except ValueError as exc:
                raise InputError(path, f"line {n}: not JSON ({exc})") from None
            if not isinstance(row, dict):
                raise InputError(path, f"line {n}: not an object")
            if row.get("type") == "document":
                continue
            piece = _piece(path, n, row)
            out.setdefault(str(row["source"]), []).append(piece)
    if not out:
        raise InputError(path, "no chunks in it")
    return out


def _piece(path: str, n: int, row: dict[str, Any]) -> Piece:
    seamcut_line = SEAMCUT_KEYS & set(row)
    for key in ("text", "source"):
        if not isinstance(row.get(key), str):
            raise InputError(path, f"line {n}: no {key!r} (a string); a line holds {', '.join(KEYS)}")
    if not seamcut_line:
        for key in row:
            if key not in KEYS:
                raise InputError(path, f"line {n}: {unknown_key(key, KEYS)}")
    pages = row.get("pages") or ([row["page"]] if row.get("page") is not None else [])
    if not isinstance(pages, list) or not all(isinstance(p, int) and p > 0 for p in pages):
        raise InputError(path, f"line {n}: page(s) must be whole numbers from 1, not {pages!r}")
    meta: dict[str, Any] = {}
    if row.get("embedded") is not None:
        meta["embedded"] = str(row["embedded"])
    headings = row.get("headings") or row.get("heading_path")
    if headings:
        meta["headings"] = [str(h) for h in headings]
    return Piece(row["text"], tuple(pages), meta)
