"""Another library's texts as seamcut's ``Document`` and ``Chunk``: laid end to end.

A contestant's chunks are texts, not spans of seamcut's reading: a chunk of LangChain's is
whatever its splitter joined, overlap included, and Unstructured's chunk joins elements with
``\\n\\n``. No offset into another text is guessed for them (finding a chunk's text again with
``str.find`` gives wrong offsets on repeated text). Instead the chunks are laid end to end, one
blank line between two, into a document of their own: each chunk is the exact span of that
text it was laid at, so every invariant of a ``Chunk`` holds and every part of seamcut that
works on spans (the index, the judge, the view) works on them unchanged; what the spans do not
mean (overlap between neighbours, coverage of a reading) is not reported for them.

A library's reading (``reading``) is laid out the same way, one element a piece, so that the
parse cache keeps it and its chunker gets the same pieces back (``pieces_of``).

A chunk longer than the embedding model's input is embedded from its first
``max_input_tokens`` tokens, as sentence-transformers truncates for such a pipeline's users,
and sent whole; ``metadata["embedded"]`` holds the text embedded where it is not ``text``, and
the document's warnings say how many were cut so.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..model import Chunk, Document, Element, stable_hash
from ..tokens.load import load_sizer
from ..tokens.sizer import Sizer
from ..readers.found_fields import ALIASES, CATALOG_FIELDS
from .base import Piece

#: what lies between two laid-out texts
GAP = "\n\n"


def lay(texts: Sequence[str]) -> tuple[str, list[tuple[int, int]]]:
    """``texts`` joined by ``GAP``, and each one's span in the joined text."""
    spans, at = [], 0
    for t in texts:
        spans.append((at, at + len(t)))
        at += len(t) + len(GAP)
    return GAP.join(texts), spans


def reading(path: str, pieces: Sequence[Piece], reader: str, versions: Mapping[str, str],
            fields: Mapping[str, Any] | None = None) -> Document:
    """A library's reading of ``path`` as a ``Document``: its pieces laid end to end, one
    ``paragraph`` element each (page: the piece's first; ``metadata``: its pages and the
    library's metadata); ``reader`` and ``versions`` in the metadata, with ``fields`` (a
    catalog's) as seamcut's reading puts them."""
    text, spans = lay([p.text for p in pieces])
    firsts = [p.pages[0] if p.pages else None for p in pieces]
    elements = tuple(Element("paragraph", s, e, page=p.pages[0] if p.pages else None,
                             metadata={"pages": list(p.pages), "library": dict(p.metadata)})
                     for p, (s, e) in zip(pieces, spans))
    meta: dict[str, Any] = {"reader": reader, "versions": dict(versions), "laid_out": "reading"}
    if fields:
        meta.update(fields)  # a catalog's aliases too, under their own key, as seamcut's reading keeps them
        meta[CATALOG_FIELDS] = [k for k in fields if k != ALIASES]
    return Document(text, source=str(path), elements=elements, page_starts=_page_starts(firsts, spans),
                    metadata=meta, language=(fields or {}).get("language"))


def _page_starts(firsts: Sequence[int | None], spans: Sequence[tuple[int, int]]) -> tuple[int, ...]:
    """Where each page begins in a laid-out reading, where its pieces say so in order (each
    piece's first page, the pages 1, 2, ... in turn, a piece a page or several); none where a
    piece has no page or the pages come out of order."""
    starts: list[int] = []
    for page, (start, _) in zip(firsts, spans):
        if page is None or page > len(starts) + 1 or page < len(starts):
            return ()
        if page == len(starts) + 1:
            starts.append(start)
    return tuple(starts)


def pieces_of(document: Document) -> list[Piece]:
    """What a library's chunker is given: a library's reading as the pieces it gave; seamcut's
    reading a page at a time (as a loader gives a PDF), or whole where it has no pages."""
    if document.metadata.get("laid_out") == "reading":
        return [Piece(document.text[e.start:e.end], tuple(e.metadata.get("pages", ())),
                      e.metadata.get("library", {})) for e in document.elements]
    starts = list(document.page_starts)
    if len(starts) < 2:
        return [Piece(document.text, (1,) if starts else ())]
    bounds = zip(starts, starts[1:] + [len(document.text)])
    return [Piece(document.text[a:b], (i,)) for i, (a, b) in enumerate(bounds, 1)]


def laid_out(document: Document, pieces: Sequence[Piece], label: str,
             tokenizer: Any = None) -> tuple[Document, list[Chunk]]:
    """The chunks a contestant (``label``) made of ``document``, laid end to end into a
    document of their own (the same source and id, its metadata kept) and made ``Chunk``s of
    it: ``tokens`` counted by ``tokenizer`` (``load_sizer``'s spec: the embedding model's),
    ``pages`` and a ``headings`` path where the library gave them. Empty chunks are left out,
    and the document's ``warnings`` say how many; so do they for chunks over the model's input."""
    sizer = load_sizer(tokenizer)
    kept = [p for p in pieces if p.text.strip()]
    warnings = list(document.metadata.get("warnings", ()))
    if len(kept) < len(pieces):
        warnings.append(f"{document.source}: {label} made {len(pieces) - len(kept)} empty chunk(s); "
                        "not indexed")
    text, spans = lay([p.text for p in kept])
    counts = sizer.count_many([p.text for p in kept])
    limit = sizer.max_input_tokens
    cut = 0
    chunks = []
    for i, (p, (s, e), n) in enumerate(zip(kept, spans, counts)):
        meta: dict[str, Any] = {"contestant": label}
        fed, fed_tokens = p.text, n
        given = p.metadata.get("embedded")
        if given is not None and given != p.text:
            meta["embedded"] = fed = given
            fed_tokens = sizer.count(given)
        if limit and fed_tokens > limit:
            meta["embedded"], meta["embedded_from_tokens"] = _first_tokens(fed, sizer, limit), fed_tokens
            cut += 1
        chunks.append(Chunk(id=stable_hash("contestant", document.id, label, i, s, e), doc_id=document.id,
                            source=document.source, start=s, end=e, context="", text=p.text, tokens=n,
                            pages=tuple(p.pages), heading_path=tuple(p.metadata.get("headings", ())),
                            language=document.language, strategy=label, metadata=meta))
    if cut:
        warnings.append(f"{document.source}: {label}: {cut} of {len(kept)} chunks over the embedding model's "
                        f"input of {limit} tokens, embedded from their first {limit} tokens (as "
                        "sentence-transformers truncates) and sent whole")
    meta = {**document.metadata, "reader": document.metadata.get("reader") or "seamcut", "laid_out": "chunks",
            "contestant": label, "warnings": warnings}
    out = Document(text, source=document.source, id=document.id, language=document.language, metadata=meta)
    return out, chunks


def _first_tokens(text: str, sizer: Sizer, limit: int) -> str:
    """The longest start of ``text`` (cut at a character) that ``sizer`` counts within
    ``limit`` tokens, found by halving."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if sizer.count(text[:mid]) <= limit:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo]
