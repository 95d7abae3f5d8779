"""Where two chunkings of the same documents cut differently.

A chunking's cuts in a document are the offsets where its returned chunks (those without a
parent: a parent-child strategy's parents, every chunk of the others) start and end, inside the
document (not its first or last character). A cut is moved forward past whitespace, so a chunk
ending before a blank line and the next one starting after it make one cut, the same as a
chunking that cuts after the blank line. Offsets are code points of ``Document.text``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from ...model import Chunk, Document


@dataclass(frozen=True)
class CutDiff:
    """One document's cuts under chunkings A and B: those only A has, those only B has (each
    sorted, code-point offsets into the document's text), and how many both have."""
    doc_id: str
    only_a: tuple[int, ...]
    only_b: tuple[int, ...]
    shared: int

    def to_dict(self) -> dict[str, object]:
        return {"doc_id": self.doc_id, "only_a": list(self.only_a), "only_b": list(self.only_b),
                "shared": self.shared}


def returned(chunks: Iterable[Chunk]) -> list[Chunk]:
    """The chunks a search returns: those without a parent."""
    return [c for c in chunks if c.parent_id is None]


def settle(text: str, offset: int) -> int:
    """``offset`` moved forward past whitespace in ``text`` (at most to ``len(text)``)."""
    n = len(text)
    while offset < n and text[offset].isspace():
        offset += 1
    return offset


def cuts(document: Document, chunks: Iterable[Chunk]) -> list[int]:
    """The sorted offsets where ``chunks`` (of ``document``; others are ignored) cut it: every
    start and end of a returned chunk, past whitespace, inside the text's non-blank part."""
    text = document.text
    first, last = settle(text, 0), len(text.rstrip())
    found = {settle(text, at) for c in returned(chunks) if c.doc_id == document.id
             for at in (c.start, c.end)}
    return sorted(at for at in found if first < at < last)


def diff_cuts(document: Document, a: Iterable[Chunk], b: Iterable[Chunk]) -> CutDiff:
    """Where chunkings ``a`` and ``b`` cut ``document`` differently."""
    ca, cb = set(cuts(document, a)), set(cuts(document, b))
    return CutDiff(document.id, tuple(sorted(ca - cb)), tuple(sorted(cb - ca)), len(ca & cb))


def diff_chunkings(documents: Sequence[Document], a: Sequence[Chunk], b: Sequence[Chunk]) -> list[CutDiff]:
    """Per document (in the order given), where chunkings ``a`` and ``b`` cut differently."""
    by_a, by_b = _by_doc(a), _by_doc(b)
    return [diff_cuts(d, by_a.get(d.id, ()), by_b.get(d.id, ())) for d in documents]


def _by_doc(chunks: Sequence[Chunk]) -> Mapping[str, list[Chunk]]:
    out: dict[str, list[Chunk]] = {}
    for c in chunks:
        out.setdefault(c.doc_id, []).append(c)
    return out
