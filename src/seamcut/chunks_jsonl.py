"""``seamcut chunk``'s JSONL: each document's line, then one line per chunk of it.

A document line holds what every chunk of the document would otherwise repeat, once::

    {"type": "document", "doc_id": ..., "source": ..., "language": ..., "metadata": {...}}

``metadata`` is the document's (its format, extractor, page count, page extractors, title,
furniture, catalog fields, ...; without ``DOCUMENT_ONLY``, which no chunk carries). A chunk line
follows its document's and holds every ``Chunk`` field, ``doc_id`` naming its document, its
``metadata`` only what is the chunk's own (``config``, ``boxes``, ``role``, ``held_by_model``, ...,
and any key whose value differs from the document's). A chunk's whole metadata is its document's
with its own over it (``with_document``); ``read_chunks`` puts it back. On the helpline example
the furniture and page extractors repeated on every chunk were most of the file.

Files written before (chunk lines alone, each with its document's metadata) read as they are.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any, Iterable, Iterator, Mapping

from .errors import InputError
from .model import Chunk, Document
from .strategies.chunks import DOCUMENT_ONLY

#: the ``type`` of a document line (chunk lines have no ``type``)
DOCUMENT = "document"


def is_document_line(row: Mapping[str, Any]) -> bool:
    """Whether a parsed line is a document's, not a chunk's."""
    return row.get("type") == DOCUMENT


def shared_metadata(doc: Document) -> dict[str, Any]:
    """The metadata of ``doc`` that every chunk of it carries (``DOCUMENT_ONLY`` left out)."""
    return {k: v for k, v in doc.metadata.items() if k not in DOCUMENT_ONLY}


def own_metadata(chunk: Mapping[str, Any], document: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a chunk's metadata that is not its ``document``'s: keys the document lacks,
    or holds with another value."""
    return {k: v for k, v in chunk.items() if k not in document or document[k] != v}


def with_document(own: Mapping[str, Any], document: Mapping[str, Any]) -> dict[str, Any]:
    """A chunk's whole metadata: its ``document``'s (``DOCUMENT_ONLY`` left out) with its
    ``own`` over it; ``own_metadata``'s inverse."""
    return {**{k: v for k, v in document.items() if k not in DOCUMENT_ONLY}, **own}


def document_line(doc: Document) -> dict[str, Any]:
    """The line that opens a document's chunks."""
    return {"type": DOCUMENT, "doc_id": doc.id, "source": doc.source, "language": doc.language,
            "metadata": shared_metadata(doc)}


def chunk_line(chunk: Chunk, shared: Mapping[str, Any]) -> dict[str, Any]:
    """A chunk's line: every field, its metadata less its document's ``shared`` metadata."""
    d = chunk.to_dict()
    d["metadata"] = own_metadata(chunk.metadata, shared)
    return d


def write_document(sink: IO[str], doc: Document, chunks: Iterable[Chunk]) -> None:
    """``doc``'s line, then its ``chunks``' lines, to ``sink`` (one JSON object a line)."""
    shared = shared_metadata(doc)
    sink.write(json.dumps(document_line(doc), ensure_ascii=False) + "\n")
    for c in chunks:
        sink.write(json.dumps(chunk_line(c, shared), ensure_ascii=False) + "\n")


def read_chunks(path: str | Path) -> Iterator[Chunk]:
    """The chunks of a ``seamcut chunk`` JSONL file, in order, each with its whole metadata (its
    document's put back). A file of chunk lines alone (written before documents had lines of
    their own) reads too. A line that is not JSON raises ``InputError`` naming the file and line."""
    p = Path(path)
    documents: dict[str, Mapping[str, Any]] = {}
    with p.open(encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(p, f"line {number}: not JSON ({exc.msg})") from None
            if is_document_line(row):
                documents[row["doc_id"]] = row.get("metadata") or {}
                continue
            shared = documents.get(row.get("doc_id", ""), {})
            yield Chunk.from_dict({**row, "metadata": with_document(row.get("metadata") or {}, shared)})
