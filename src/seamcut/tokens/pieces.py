"""Tokenizing a document in pieces, and turning tokens' offsets into unit ends.

A document is tokenized in pieces of at most ``SEGMENT_CHARS`` characters, cut at the start of a
whitespace run, so each piece tokenizes as it does inside the whole text for whitespace-bounded
tokenizers; a cut that has to fall inside a word is a seam, and a span across a seam is counted
for real. Offsets and lengths are in code points.
"""
from __future__ import annotations

from typing import Callable, Iterator, Sequence, TypeVar

import numpy as np

from ..text.segment import paragraph_gaps
from ..text.space import SPACE_SET, solid_prefix

T = TypeVar("T")

#: documents are tokenized in pieces of at most this many characters (cut at whitespace)
SEGMENT_CHARS = 16384


def segment_starts(text: str, max_chars: int = SEGMENT_CHARS) -> tuple[list[int], list[int]]:
    """Where to cut ``text`` for tokenizing it in pieces, and which of those cuts fall inside a
    word (no whitespace within reach; spans across them need a real count).

    Cuts go at the start of a whitespace run: at blank lines first, else at any whitespace, so
    each piece tokenizes as it does inside the whole text for whitespace-bounded tokenizers.
    """
    starts, seams = [0], []

    def cut_long(upto: int) -> None:
        while upto - starts[-1] > max_chars:
            lo, hi = starts[-1] + max_chars // 2, starts[-1] + max_chars
            q = max(text.rfind(" ", lo, hi), text.rfind("\n", lo, hi))
            if q > lo:
                while q > lo and text[q - 1] in SPACE_SET:
                    q -= 1
                starts.append(q)
            else:
                starts.append(hi)
                seams.append(hi)

    for p, _ in paragraph_gaps(text):
        if p > starts[-1]:
            cut_long(p)
            if p > starts[-1]:
                starts.append(p)
    cut_long(len(text))
    return starts, seams


def split_pieces(text: str) -> tuple[list[int], list[int], list[str]]:
    """``text`` cut for tokenizing: the pieces' starts, the seams (``segment_starts``) and the
    pieces' text."""
    starts, seams = segment_starts(text)
    bounds = starts + [len(text)]
    return starts, seams, [text[a:b] for a, b in zip(bounds, bounds[1:])]


#: pieces tokenized per call in ``encoded_pieces``: at most this many pieces' encodings (about
#: 100 bytes a token in ``tokenizers``) are held at once
PIECES_PER_BATCH = 16


def encoded_pieces(text: str, starts: list[int], encode_batch: Callable[[list[str]], Sequence[T]]
                   ) -> Iterator[tuple[int, str, T]]:
    """``(start, piece, encoding)`` for each piece of ``text`` cut at ``starts``, in order,
    encoded ``PIECES_PER_BATCH`` pieces at a time, so only one batch's pieces and encodings are
    held (not a copy of the whole text in pieces, nor every token's encoding)."""
    bounds = [*starts, len(text)]
    for lo in range(0, len(starts), PIECES_PER_BATCH):
        pieces = [text[a:b] for a, b in zip(bounds[lo:lo + PIECES_PER_BATCH],
                                            bounds[lo + 1:lo + PIECES_PER_BATCH + 1])]
        yield from zip(starts[lo:lo + PIECES_PER_BATCH], pieces, encode_batch(pieces))


def token_ends(text: str, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Sorted unit ends for the tokens at ``[starts, ends)`` of ``text``, one per token.

    A token of only whitespace (a lone ``▁``, a newline token) or of no characters at all counts
    with the token after it, as it does in a chunk that opens with that whitespace."""
    if not len(ends):
        return ends
    ends = np.maximum(ends, 1)
    content = solid_prefix(text)
    blank = content[np.minimum(ends, len(text))] == content[np.minimum(starts, len(text))]
    if blank.any():
        solid = np.flatnonzero(~blank)
        blank_idx = np.flatnonzero(blank)
        nxt = solid.searchsorted(blank_idx)
        has_next = nxt < len(solid)
        ends = ends.copy()
        ends[blank_idx[has_next]] = ends[solid[nxt[has_next]]]
    return np.maximum.accumulate(ends)


def piece_ends(piece: str, shift: int, offsets: Sequence[tuple[int, int]]) -> np.ndarray:
    """Unit ends, in document offsets, of one piece's tokens (see ``token_ends``); ``shift`` is
    where the piece starts in the document."""
    if not offsets:
        return np.zeros(0, dtype=np.int64)
    st, en = np.asarray(offsets, dtype=np.int64).reshape(-1, 2).T
    return token_ends(piece, st, en) + shift
