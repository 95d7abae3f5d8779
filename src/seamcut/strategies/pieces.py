"""The piece packer behind the text strategies: a text cut into pieces at its levels, packed.

A strategy only says where its boundaries are: an ordered tuple of ``Level``s (``levels.py``),
biggest break first. The packer cuts a document at the first level, cuts any piece that is still
over the limit at the next level, and so on down to single units; then joins small neighbours back
up to the limit (``merge``: the one greedy loop of ``packer.py``), keeping ``reserve`` units free
for what is added afterwards (overlap, a context). Sizes are estimated from one measure of the
document and confirmed with a real count wherever an estimate could be off (``Measure.needs_check``).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

from ..text import is_blank
from .size_limit import Reserve, SizeLimit, plus
from .levels import (CLAUSE, LINE, PARAGRAPH, RECURSIVE_LEVELS, RUN_START, SENTENCE,
                     SENTENCE_LEVELS, WORD, Level)
from .overlap import add_overlap
from .packer import greedy

__all__ = ["Piece", "unit_pieces", "split", "pieces_of", "Barrier", "no_barrier", "within_top",
           "keep_split_units_apart", "merge", "pack", "Level", "PARAGRAPH", "LINE", "SENTENCE", "CLAUSE",
           "WORD", "RECURSIVE_LEVELS", "SENTENCE_LEVELS"]


@dataclass(frozen=True, slots=True)
class Piece:
    start: int
    end: int
    top: int          # index of the top-level unit it came from
    split: bool       # whether that top-level unit had to be cut further


def unit_pieces(limit: SizeLimit, a: int, b: int, top: int, reserve: Reserve = 0) -> list[Piece]:
    """Cut ``[a, b)`` into runs of whole units, each as long as the limit allows."""
    out = []
    while a < b:
        e = min(limit.max_end(a, reserve), b)
        if e <= a:  # not even one unit fits beside the overhead: take one unit anyway
            nxt = limit.unit_measure.unit_bounds(a, b)
            e = int(nxt[0]) if len(nxt) else b
        out.append(Piece(a, e, top, True))
        a = e
    return out


def split(limit: SizeLimit, levels: Sequence[Level], a: int, b: int, top: int,
          language: str | None, depth: int = 0, reserve: Reserve = 0) -> list[Piece]:
    """Cut ``[a, b)`` at the biggest break that makes pieces fit (by estimate), ``reserve``
    units kept free."""
    if limit.fits(a, b, reserve):
        return [Piece(a, b, top, depth > 0)]
    for i in range(depth, len(levels)):
        cuts = levels[i].cuts(limit.text, a, b, language)
        if cuts:
            out: list[Piece] = []
            for s, e in zip([a, *cuts], [*cuts, b]):
                out.extend(split(limit, levels, s, e, top, language, i + 1, reserve))
            return out
    return unit_pieces(limit, a, b, top, reserve)


def pieces_of(limit: SizeLimit, levels: Sequence[Level], language: str | None,
              reserve: Reserve = 0) -> list[Piece]:
    """Cut the whole text into pieces: first-level units, split further where over the limit."""
    text = limit.text
    n = len(text)
    if is_blank(text):
        return []
    cuts = levels[0].cuts(text, 0, n, language) if levels else []
    out: list[Piece] = []
    for top, (s, e) in enumerate(zip([0, *cuts], [*cuts, n])):
        if limit.fits(s, e, reserve):
            out.append(Piece(s, e, top, False))
        else:
            out.extend(split(limit, levels, s, e, top, language, 1, reserve))
    return out


Barrier = Callable[[Piece, Piece], bool]


def no_barrier(p: Piece, q: Piece) -> bool:
    return False


def within_top(p: Piece, q: Piece) -> bool:
    """Join only pieces of the same top-level unit (e.g. the same paragraph)."""
    return p.top != q.top


def keep_split_units_apart(p: Piece, q: Piece) -> bool:
    """Join whole top-level units freely; pieces of a split unit only with each other."""
    return p.top != q.top and (p.split or q.split)


class _Merge:
    """``merge``'s packing: pieces join unless the barrier parts them, while the estimate
    fits; the real check gives pieces back; a piece over the limit alone is cut (``_shrink``)."""

    contiguous = False
    first_alone = False

    def __init__(self, limit: SizeLimit, barrier: Barrier, reserve: Reserve) -> None:
        self.limit, self.barrier, self.reserve = limit, barrier, reserve
        self.out: list[tuple[int, int]] = []

    def joins(self, a: int, last: Piece, item: Piece, opening: bool) -> bool:
        return not self.barrier(last, item) and self.limit.fits(a, item.end, self.reserve)

    def fits(self, a: int, b: int) -> bool:
        return self.limit.confirm(a, b, self.reserve)

    def attaches(self, item: Piece) -> bool:
        return False

    def emit(self, a: int, b: int) -> None:
        if not is_blank(self.limit.text, a, b):  # whitespace alone makes no chunk
            self.out.append((a, b))

    def too_long(self, a: int, p: Piece) -> tuple[int, list[Piece]]:
        """Cut the piece until its first part fits for real (one character over the limit has
        nothing smaller to give); that part is a chunk, the rest is packed next."""
        rest: list[Piece] = []
        while p.end - p.start >= 2:
            cut = _shrink(self.limit, p.start, p.end, self.reserve)
            rest.insert(0, Piece(cut, p.end, p.top, True))
            p = Piece(p.start, cut, p.top, True)
            if self.fits(a, cut):
                break
        self.emit(a, p.end)
        return p.end, rest


def merge(limit: SizeLimit, pieces: list[Piece], barrier: Barrier,
          reserve: Reserve = 0) -> list[tuple[int, int]]:
    """Join neighbouring pieces greedily up to the limit, ``reserve`` units kept free; confirm
    each chunk with a real count where needed, giving pieces back to the next chunk (or cutting a
    piece) when over."""
    packing = _Merge(limit, barrier, reserve)
    greedy(pieces, packing)
    return packing.out


def pack(limit: SizeLimit, pieces: list[Piece], barrier: Barrier, overlap: int,
         reserve: Reserve = 0) -> list[tuple[int, int]]:
    """Pieces joined up to the limit (``merge``), then ``overlap`` units of the text before put in
    front of every chunk but the first (``add_overlap``); ``reserve`` units are kept free for a
    context in front, and while joining the overlap's room too."""
    spans = merge(limit, pieces, barrier, reserve=plus(reserve, overlap))
    return add_overlap(limit, spans, overlap, reserve=reserve)


def _shrink(limit: SizeLimit, a: int, b: int, reserve: Reserve = 0) -> int:
    """The farthest cut in ``(a, b)`` at which ``[a, cut)`` fits for real: at a word boundary or
    a unit boundary where one fits, else at a character (``a + 1`` at the least)."""
    bounds = limit.unit_measure.unit_bounds(a, b)
    ws = [m.start() for m in RUN_START.finditer(limit.text, a, b)]
    for c in sorted({w for w in ws if a < w < b} | set(bounds), reverse=True):
        if limit.confirm(a, c, reserve):
            return c
    lo, hi = a + 1, b - 1  # the largest character cut that fits, by bisection
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if limit.confirm(a, mid, reserve):
            lo = mid
        else:
            hi = mid - 1
    return lo
