"""The shared vocabulary: documents, their elements, and chunks as spans.

Every offset in seamcut is a code-point index into ``Document.text`` (Python ``str`` indexing).
"""
from __future__ import annotations

import hashlib
from bisect import bisect_right
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any, Mapping, Sequence

_EMPTY: Mapping[str, Any] = MappingProxyType({})


def stable_hash(*parts: object, length: int = 16) -> str:
    """A short hex digest of ``parts``, stable across runs and machines."""
    joined = "\x1f".join(map(str, parts))
    return hashlib.blake2b(joined.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()[:length]


def pages_touched(page_starts: Sequence[int], start: int, end: int) -> tuple[int, ...]:
    """The 1-based pages that the span ``[start, end)`` (characters) touches, given where each
    page starts (``page_starts``, ascending character offsets); empty where there are none."""
    if not page_starts:
        return ()
    first = max(1, bisect_right(page_starts, start))
    last = max(first, bisect_right(page_starts, max(start, end - 1)))
    return tuple(range(first, last + 1))


@dataclass(frozen=True, slots=True)
class Element:
    """One structural element of a document: a span of ``Document.text`` with a kind.

    ``kind`` is one of: title, heading, paragraph, list_item, table, caption, code, page_header,
    page_footer. ``level`` is the heading level (1 = top) for headings, else None. ``page`` is
    1-based, or None where the format has no pages.
    """

    kind: str
    start: int
    end: int
    level: int | None = None
    page: int | None = None
    language: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Document:
    """A document as text plus structure.

    ``text`` is what chunks point into; for ``.txt`` and ``.md`` input it is the file's decoded
    content unchanged, so chunk offsets are file offsets (in code points). ``page_starts[i]`` is the
    offset where page ``i + 1`` begins (empty where the format has no pages).
    """

    text: str
    source: str = ""
    id: str = ""
    elements: tuple[Element, ...] = ()
    page_starts: tuple[int, ...] = ()
    language: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.id:
            object.__setattr__(self, "id", stable_hash("doc", self.source or stable_hash(self.text)))

    @classmethod
    def from_text(cls, text: str, source: str = "", **kwargs: Any) -> "Document":
        return cls(text=text, source=source, **kwargs)

    def pages_of(self, start: int, end: int) -> tuple[int, ...]:
        """The 1-based pages that the span ``[start, end)`` touches (empty without pages)."""
        return pages_touched(self.page_starts, start, end)


@dataclass(frozen=True, slots=True)
class Chunk:
    """One retrieval unit: a span of a document plus the context put in front of it.

    Invariants: ``body == document.text[start:end]`` and ``text == context + body``; ``text`` is
    what is embedded and sent to the model. ``tokens`` is the length of ``text`` in the embedding
    model's tokens, special tokens and prefixes included.
    """

    id: str
    doc_id: str
    source: str
    start: int
    end: int
    context: str
    text: str
    tokens: int
    pages: tuple[int, ...] = ()
    heading_path: tuple[str, ...] = ()
    language: str | None = None
    strategy: str = ""
    parent_id: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)

    @property
    def body(self) -> str:
        """The document text this chunk covers: ``text`` without ``context``."""
        return self.text[len(self.context):]

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready plain data."""
        d = {f.name: getattr(self, f.name) for f in fields(self)}  # asdict would deep-copy
        d["pages"] = list(self.pages)
        d["heading_path"] = list(self.heading_path)
        d["metadata"] = dict(self.metadata)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> "Chunk":
        return cls(**{**d, "pages": tuple(d.get("pages", ())),
                      "heading_path": tuple(d.get("heading_path", ())),
                      "metadata": MappingProxyType(dict(d.get("metadata", {})))})
