"""Chunks and documents as table rows, and back; rows as Arrow tables of an inferred schema.

A chunk row holds typed columns to filter on (``source``, ``file``, ``language``, ``page_start``,
``page_end``, ``heading``, and every scalar document field such as ``crop`` or ``year``), its
text for the full-text index, its vector, and the whole chunk as JSON less the document's fields
(kept once, on the document's row).
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from ..chunks_jsonl import own_metadata, with_document
from ..model import Chunk, Document

log = logging.getLogger(__name__)

_CORE = ("id", "doc_id", "source", "file", "start", "end", "page_start", "page_end", "heading",
         "language", "strategy", "parent_id", "role", "tokens", "text", "chunk", "vector")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def searchable(chunks: Iterable[Chunk]) -> list[Chunk]:
    """The chunks that are embedded and searched: all but parent-child parents, which are handed
    to the model in place of their children."""
    return [c for c in chunks if not is_parent(c)]


def is_parent(chunk: Chunk) -> bool:
    return chunk.metadata.get("role") == "parent"


def text_hash(text: str) -> str:
    """SHA-256 of the text (hex): a document's hash where its file's is not given."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def sql_str(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def sql_in(column: str, values: Sequence[str]) -> str:
    return f"{column} IN (" + ", ".join(sql_str(v) for v in values) + ")"


def _scalar(v: Any) -> bool:
    return isinstance(v, (str, int, float, bool)) and not (isinstance(v, float) and v != v)


def _fields(doc: Document) -> dict[str, Any]:
    """The document fields that become filter columns: scalar values under SQL-safe names."""
    return {k: v for k, v in doc.metadata.items()
            if _NAME.match(k) and k not in _CORE and _scalar(v)}


def filter_values(doc: Document) -> dict[str, Any]:
    """What a filter sees of a document, as its chunks' columns hold it: its source, file name,
    language and fields (``filters.holds`` checks a filter against these, as the SQL would)."""
    return {"source": doc.source, "file": _file_name(doc.source), "language": doc.language, **_fields(doc)}


def chunk_row(c: Chunk, doc: Document, vector: np.ndarray | None) -> dict[str, Any]:
    """A chunk's row (``vector`` None: a parent's, not searched by vector)."""
    d = c.to_dict()
    d["metadata"] = own_metadata(c.metadata, doc.metadata)
    row: dict[str, Any] = {
        "id": c.id, "doc_id": c.doc_id, "source": c.source, "file": _file_name(c.source),
        "start": c.start, "end": c.end,
        "page_start": c.pages[0] if c.pages else None, "page_end": c.pages[-1] if c.pages else None,
        "heading": " / ".join(c.heading_path), "language": c.language or doc.language,
        "strategy": c.strategy, "parent_id": c.parent_id, "role": c.metadata.get("role"),
        "tokens": c.tokens, "text": c.text, "chunk": json.dumps(d, ensure_ascii=False)}
    row.update(_fields(doc))
    if vector is not None:
        row["vector"] = np.asarray(vector, dtype=np.float32)  # to Arrow in one block: arrow_table
    return row


def chunk_from_row(row: Mapping[str, Any], doc_fields: Mapping[str, Any]) -> Chunk:
    """The chunk of a row, its document's fields put back under its own metadata (those a chunk
    never carries, ``DOCUMENT_ONLY``, left out), as it was cut."""
    d = json.loads(row["chunk"])
    return Chunk.from_dict({**d, "metadata": with_document(d.get("metadata", {}), doc_fields)})


@lru_cache(maxsize=4096)
def _file_name(source: str) -> str:
    return Path(source).name


def document_row(doc: Document, digest: str, chunks: int) -> dict[str, Any]:
    """A document's row: its file's ``digest``, how many ``chunks`` it was cut into (parents
    included), and its fields; for a file, also its absolute path (``indexed_path``), so that
    the same file named another way (``docs/a.pdf``, ``./a.pdf``, ``/srv/docs/a.pdf``) is
    known as the one indexed."""
    meta = dict(doc.metadata)
    if os.path.isfile(doc.source):
        meta["indexed_path"] = os.path.abspath(doc.source)
    return {"doc_id": doc.id, "source": doc.source, "file": _file_name(doc.source), "hash": digest,
            "chunks": chunks, "language": doc.language, "pages": len(doc.page_starts),
            "metadata": json.dumps(meta, ensure_ascii=False, default=str)}


def document_fields(row: Mapping[str, Any] | None) -> dict[str, Any]:
    """The document fields stored on a document row ({} for none)."""
    return json.loads(row["metadata"]) if row else {}


def arrow_table(rows: list[dict[str, Any]], schema: Any) -> Any:
    """``rows`` as an Arrow table of ``schema``; the vectors go in as one float32 block (a Python
    float per component, 384 per row, cost most of the build time and ~3 GB at 100k rows)."""
    import pyarrow as pa
    i = schema.get_field_index("vector")
    vectors = [r.get("vector") for r in rows] if i >= 0 else []
    if i < 0 or any(v is None for v in vectors):
        return pa.Table.from_pylist(rows, schema=schema)
    vfield = schema.field(i)
    rest = pa.schema([f for f in schema if f.name != "vector"])
    table = pa.Table.from_pylist([{k: v for k, v in r.items() if k != "vector"} for r in rows],
                                 schema=rest)
    flat = pa.array(np.stack([np.asarray(v, dtype=np.float32) for v in vectors]).reshape(-1),
                    type=pa.float32())
    return table.add_column(i, vfield, pa.FixedSizeListArray.from_arrays(flat, type=vfield.type))


def _arrow_type(values: list[Any]) -> Any:
    import pyarrow as pa
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, bool) for v in present):
        return pa.bool_()
    if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        return pa.int64()
    if present and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return pa.float64()
    return pa.string()


def schema(rows: list[dict[str, Any]], dim: int | None) -> Any:
    """The Arrow schema of ``rows``: every column any row has, typed by its values (a column of
    mixed values is a string column: its values are turned into strings in place); ``vector``
    a fixed-size list of ``dim`` float32."""
    import pyarrow as pa
    names: list[str] = []
    for r in rows:
        names.extend(k for k in r if k not in names)
    fields = []
    for name in names:
        if name == "vector":
            fields.append(pa.field("vector", pa.list_(pa.float32(), int(dim or 0))))
        else:
            values = [r.get(name) for r in rows]
            typ = _arrow_type(values)
            if typ == pa.string():
                for r in rows:
                    if r.get(name) is not None and not isinstance(r[name], str):
                        r[name] = str(r[name])
            fields.append(pa.field(name, typ))
    return pa.schema(fields)


def fit(row: dict[str, Any], schema: Any) -> dict[str, Any]:
    """A row shaped for an existing table: missing columns None, values cast to the column type
    (a value that cannot be cast is kept in the chunk JSON and left out of the column)."""
    import pyarrow as pa
    out: dict[str, Any] = {}
    for f in schema:
        v = row.get(f.name)
        if v is None or f.name == "vector":
            out[f.name] = v
        elif f.type == pa.string():
            out[f.name] = v if isinstance(v, str) else str(v)
        elif f.type == pa.bool_():
            out[f.name] = v if isinstance(v, bool) else None
        elif pa.types.is_integer(f.type):
            out[f.name] = v if isinstance(v, int) and not isinstance(v, bool) else None
        elif pa.types.is_floating(f.type):
            out[f.name] = float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None
        else:
            out[f.name] = v
        if v is not None and out[f.name] is None:
            log.warning("field %r: value %r does not fit the column's type %s; kept in the chunk's "
                        "metadata only", f.name, v, f.type)
    return out
