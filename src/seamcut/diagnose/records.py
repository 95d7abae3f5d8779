"""Chunk records: chunks made by any tool (seamcut's, LangChain, LlamaIndex, Haystack, Chonkie,
Unstructured, plain dicts or strings) read into one shape, ``ChunkRecord``, from objects or
JSON/JSONL files."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

from ..chunks_jsonl import is_document_line
from ..errors import ConfigError, ConfigTypeError, InputError


@dataclass(frozen=True)
class ChunkRecord:
    """One chunk as read from any tool.

    ``text`` is what is embedded; ``body`` the part that should be a span of the source
    (``text`` without seamcut's ``context``; the whole text for other tools). ``source`` names the
    document (a path or id; empty if unknown). ``start``/``end`` are the body's offsets in the
    source, in code points, where the tool recorded them.
    """

    text: str
    body: str
    source: str = ""
    start: int | None = None
    end: int | None = None
    doc_id: str = ""
    strategy: str = ""
    config: str = ""


def record_from_dict(d: Mapping[str, Any]) -> ChunkRecord:
    """A ``ChunkRecord`` from one JSON object in any of the known shapes: seamcut's ``Chunk``,
    a LangChain ``Document`` (plain or ``dumpd``), a LlamaIndex node, a Haystack document, a
    Chonkie or Unstructured chunk, or any object with a ``text``/``page_content``/``content``."""
    if "kwargs" in d and isinstance(d["kwargs"], Mapping):  # LangChain's dumpd()
        d = d["kwargs"]
    meta: Mapping[str, Any] = d.get("metadata") or d.get("meta") or {}
    if not isinstance(meta, Mapping):
        meta = {}
    text = None
    for key in ("text", "page_content", "content"):
        if isinstance(d.get(key), str):
            text = d[key]
            break
    if text is None and isinstance(d.get("text_resource"), Mapping):  # newer LlamaIndex nodes
        text = d["text_resource"].get("text")
    if not isinstance(text, str):
        raise ConfigError("no text field (text, page_content, content) in a chunk record: "
                          f"keys {sorted(d)[:12]}")
    context = d.get("context") if isinstance(d.get("context"), str) else ""
    body = text[len(context):] if context and text.startswith(context) else text
    start, end = _offsets(d, meta, len(body))
    source = ""
    for v in (d.get("source"), meta.get("source"), meta.get("file_path"), meta.get("filename"),
              meta.get("file_name"), _llama_source(d), meta.get("source_id"), d.get("doc_id")):
        if isinstance(v, str) and v:
            source = v
            break
    doc_id = d.get("doc_id") if isinstance(d.get("doc_id"), str) else ""
    strategy = d.get("strategy") if isinstance(d.get("strategy"), str) else ""
    config = meta.get("config") if isinstance(meta.get("config"), str) else ""
    return ChunkRecord(text=text, body=body, source=source, start=start, end=end, doc_id=doc_id,
                       strategy=strategy, config=config)


def _offsets(d: Mapping[str, Any], meta: Mapping[str, Any], n: int) -> tuple[int | None, int | None]:
    for a, b, where in (("start", "end", d), ("start_char_idx", "end_char_idx", d),
                        ("start_index", "end_index", d), ("start_index", "end_index", meta),
                        ("split_idx_start", None, meta)):
        s = where.get(a)
        if isinstance(s, int) and not isinstance(s, bool) and s >= 0:
            e = where.get(b) if b else None
            return s, e if isinstance(e, int) and e >= s else s + n
    return None, None


def _llama_source(d: Mapping[str, Any]) -> str | None:
    rel = d.get("relationships")
    if isinstance(rel, Mapping):
        src = rel.get("1") or rel.get("SOURCE") or rel.get("NodeRelationship.SOURCE")
        if isinstance(src, Mapping) and isinstance(src.get("node_id"), str):
            return src["node_id"]
    ref = d.get("ref_doc_id")
    return ref if isinstance(ref, str) else None


def load_chunks(path: str | Path) -> list[ChunkRecord]:
    """Chunks from a JSONL file (one object per line; seamcut's document lines skipped) or a JSON
    list (or an object holding one under ``chunks``, ``nodes`` or ``documents``), in document
    order. A file that is not UTF-8,
    not JSON or JSON lines, or holds a chunk without text raises ``InputError`` naming it."""
    p = Path(path)
    try:
        raw = p.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(p, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    stripped = raw.lstrip()
    items: Any
    try:
        if stripped.startswith("["):
            items = json.loads(raw)
        else:
            try:
                items = json.loads(raw)
            except json.JSONDecodeError:
                items = [json.loads(line) for line in raw.splitlines() if line.strip()]
            else:
                if isinstance(items, Mapping):
                    for key in ("chunks", "nodes", "documents"):
                        if isinstance(items.get(key), list):
                            items = items[key]
                            break
                    else:
                        items = [items]
    except json.JSONDecodeError as exc:
        raise InputError(p, f"not JSON or JSON lines ({exc.msg}, line {exc.lineno})") from None
    if not isinstance(items, list):
        raise InputError(p, "expected JSON lines or a JSON list of chunks")
    bad = next((n for n, x in enumerate(items, 1) if not isinstance(x, Mapping)), None)
    if bad is not None:
        raise InputError(p, f"chunk {bad} is not a JSON object with a text field")
    try:  # seamcut's document lines (``seamcut.chunks_jsonl``) hold no chunk
        return [record_from_dict(x) for x in items if not is_document_line(x)]
    except ConfigError as exc:
        raise InputError(p, str(exc)) from None


def as_records(chunks: Iterable[Any]) -> list[ChunkRecord]:
    """Records from seamcut ``Chunk``s, LangChain ``Document``s, LlamaIndex nodes, dicts or
    strings."""
    out = []
    for c in chunks:
        if isinstance(c, ChunkRecord):
            out.append(c)
        elif isinstance(c, str):
            out.append(ChunkRecord(text=c, body=c))
        elif isinstance(c, Mapping):
            out.append(record_from_dict(c))
        elif hasattr(c, "to_dict") and hasattr(c, "context"):  # seamcut Chunk
            out.append(record_from_dict(c.to_dict()))
        elif hasattr(c, "page_content"):  # LangChain Document
            out.append(record_from_dict({"page_content": c.page_content,
                                         "metadata": dict(c.metadata or {})}))
        elif hasattr(c, "get_content") and hasattr(c, "start_char_idx"):  # LlamaIndex node
            out.append(record_from_dict({"text": c.get_content(), "metadata": dict(c.metadata),
                                         "start_char_idx": c.start_char_idx,
                                         "end_char_idx": c.end_char_idx,
                                         "ref_doc_id": c.ref_doc_id}))
        else:
            raise ConfigTypeError(f"cannot read a chunk from {type(c).__name__}")
    return out
