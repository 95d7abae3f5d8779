"""The one chunk factory: every strategy describes its chunks as ``Draft``s (a span, the context
put in front of it, its heading path) and turns them into ``Chunk``s here, with one id recipe."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from ..boxes import LineIndex
from ..model import Chunk, Document, stable_hash
from ..outline import Outline
from ..text.space import SPACE_CHARS
from .size_limit import SizeLimit
from .window_outline import outline_of


@dataclass(frozen=True, slots=True)
class Draft:
    """A chunk before it is made: ``document.text[start:end]`` (offsets in code points) with
    ``context`` in front of it. ``path``: the heading path to record, or None for the path where
    the chunk's first word stands."""

    start: int
    end: int
    context: str = ""
    path: tuple[str, ...] | None = None


def as_document(document: Document | str) -> Document:
    """A document as given, or a plain text as a document."""
    return Document.from_text(document) if isinstance(document, str) else document


def chunk_id(doc_id: str, start: int, end: int, fingerprint: str, text: str) -> str:
    """A chunk's stable id: its document, span, strategy configuration and embedded text."""
    return stable_hash(doc_id, start, end, fingerprint, text)


def first_word(text: str, start: int, end: int) -> int:
    """Where the first non-whitespace character of ``text[start:end]`` stands (``end`` if none)."""
    return end - len(text[start:end].lstrip(SPACE_CHARS))


#: document metadata that stays with the document: per page, not per chunk (a 600-page PDF's
#: page sizes in each of its thousands of chunks would be most of its index rows); the index's
#: note of where the file was (``seamcut.index.rows.document_row``); the names of the catalog's
#: fields and of those found in its text, with their rules (the fields themselves are on every chunk)
DOCUMENT_ONLY = ("page_sizes", "indexed_path", "catalog_fields", "found_fields")


def make_chunks(doc: Document, drafts: Sequence[Draft], limit: SizeLimit, strategy: str,
                fingerprint: str, outline: Outline | None = None) -> list[Chunk]:
    """Chunks for drafts of ``doc``: ``text`` is context + body, ``tokens`` the model's count of
    it (``limit.tokens``), the language that of most of the span; every chunk's metadata is the
    document's plus ``config`` (the fingerprint), and ``held_by_model`` where the model's maximum
    input, not the size, bounded the chunk: the units of the size that fit in that input from the
    chunk's start (``seamcut.strategies.held`` reports them); and ``boxes`` where the document
    has boxes (``seamcut.boxes.span_boxes`` of the chunk's span, as ``[page, x0, top, x1,
    bottom]`` lists). ``DOCUMENT_ONLY`` keys of the document's metadata are left out."""
    text = doc.text
    outline = outline or outline_of(doc)
    meta = {**{k: v for k, v in doc.metadata.items() if k not in DOCUMENT_ONLY}, "config": fingerprint}
    lines = LineIndex(doc)
    # a window's elements keep their lines' offsets in the whole document's text
    off = getattr(doc, "offset", 0)
    out = []
    for d in drafts:
        a, b = d.start, d.end
        full = d.context + text[a:b]
        path = d.path if d.path is not None else outline.path_at(first_word(text, a, b))
        held = limit.held_by_model(a)
        extra = {} if held is None else {"held_by_model": held}
        if lines:
            extra["boxes"] = [box.to_list() for box in lines.boxes(a + off, b + off)]
        out.append(Chunk(
            id=chunk_id(doc.id, a, b, fingerprint, full), doc_id=doc.id, source=doc.source,
            start=a, end=b, context=d.context, text=full, tokens=limit.tokens(a, b, d.context),
            pages=doc.pages_of(a, b), heading_path=path, language=outline.language_of(a, b),
            strategy=strategy, metadata={**meta, **extra} if extra else meta))
    return out
