"""Adapters that put seamcut inside other frameworks. Each module imports its framework only
when used: install the extra (``pip install seamcut[langchain]`` or ``seamcut[llamaindex]``).

- ``seamcut.integrations.langchain``: ``SeamcutTextSplitter`` (a LangChain ``TextSplitter``)
  and ``SeamcutLoader`` (a LangChain document loader).
- ``seamcut.integrations.llamaindex``: ``SeamcutNodeParser`` (a LlamaIndex ``NodeParser``).

Every chunk keeps seamcut's offsets and metadata: ``start``/``end`` (the body's span of the
document text, in code points), ``chunk_id``, ``doc_id``, ``tokens``, ``context``,
``heading_path``, ``pages``, ``language``, ``strategy``, ``parent_id`` and the document's fields.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Mapping

from ..model import Chunk, Document

#: documents read by a loader, by id, so a splitter given their text keeps their structure
_READ: "OrderedDict[str, Document]" = OrderedDict()
_READ_KEEP = 64


def remember(doc: Document) -> None:
    """Keep ``doc`` (with its elements and pages) for a splitter that later gets its text."""
    _READ[doc.id] = doc
    _READ.move_to_end(doc.id)
    while len(_READ) > _READ_KEEP:
        _READ.popitem(last=False)


def document_for(text: str, metadata: Mapping[str, Any], id_key: str = "doc_id") -> Document:
    """The seamcut ``Document`` a framework document stands for: the one a loader read, where
    its id and text match, else a plain-text document with the framework's metadata as fields
    (``source`` from ``metadata["source"]`` or ``file_path``)."""
    doc = _READ.get(str(metadata.get(id_key, "")))
    if doc is not None and doc.text == text:
        return doc
    source = metadata.get("source") or metadata.get("file_path") or ""
    fields = {k: v for k, v in metadata.items() if k not in CHUNK_KEYS and _plain(v)}
    return Document(text=text, source=str(source), metadata=fields)


def _plain(v: Any) -> bool:
    return isinstance(v, (str, int, float, bool, type(None)))


#: the metadata keys the adapters write for every chunk
CHUNK_KEYS = ("chunk_id", "doc_id", "source", "start", "end", "start_index", "tokens", "context",
              "heading_path", "pages", "language", "strategy", "parent_id")


def chunk_metadata(c: Chunk, doc: Document) -> dict[str, Any]:
    """A chunk's seamcut fields as flat metadata: the document's fields, then the chunk's own
    (``start_index`` as LangChain names a start offset)."""
    meta = {k: v for k, v in doc.metadata.items() if _plain(v)}
    meta.update({k: v for k, v in c.metadata.items() if _plain(v) or (
        isinstance(v, (list, tuple)) and all(map(_plain, v)))})
    meta.update({"chunk_id": c.id, "doc_id": c.doc_id, "source": c.source, "start": c.start,
                 "end": c.end, "start_index": c.start, "tokens": c.tokens, "context": c.context,
                 "heading_path": list(c.heading_path), "pages": list(c.pages),
                 "language": c.language, "strategy": c.strategy, "parent_id": c.parent_id})
    return meta


__all__ = ["remember", "document_for", "chunk_metadata", "CHUNK_KEYS"]
