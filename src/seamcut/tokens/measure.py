"""Offsets as a capability: a ``Measure`` says where each unit of one text ends, so the size of
any span of a document is two binary searches instead of a new tokenization.

A sizer that can measure a text is ``Measurable`` (it has ``measure(text) -> Measure``); a
count-only sizer (one that can only count whole texts, e.g. a model's own tokenizer behind an
API) is not, and code that needs offsets asks ``require_offsets(sizer)`` first. Where an
estimate could differ from a real count (a cut inside a word, a tokenizer whose pieces are not
bounded by whitespace, characters the estimator normalises differently from the model), the
chunker confirms it with ``count``.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from dataclasses import dataclass
from typing import Any, Callable, Protocol, Sequence, runtime_checkable

import numpy as np

from ..errors import ConfigError
from ..text.space import SPACE_SET
from .sizer import Sizer

Fine = Callable[[int], list[int]]


@dataclass(frozen=True)
class Trust:
    """Where a span estimate of a ``Measure`` is unreliable beyond its ``margin``.

    ``exact_midword``: an estimate whose cut falls inside a word is exact (False: it is to be
    counted). ``exact_trailing_space``: one whose span ends in whitespace is exact (False for a
    Unigram tokenizer, which turns that whitespace into a ``▁`` of its own). ``unreliable``:
    ``unreliable(text, start, end)`` (offsets in code points) says a span is not to be trusted.
    ``checkpoints``: offsets (code points, increasing) that a trusted span may not hold.
    ``spaces``: the characters the tokenizer takes for whitespace at the two checks above."""

    exact_midword: bool = True
    exact_trailing_space: bool = True
    unreliable: Callable[[str, int, int], bool] | None = None
    checkpoints: tuple[int, ...] = ()
    spaces: frozenset[str] = SPACE_SET


class Measure:
    """Where each unit of one text ends, for counting spans without re-tokenizing.

    Units are counted by where they end (an offset, exclusive, in code points): a unit belongs to
    the span that holds its last character. ``ends`` lists them in increasing order. A measure
    may instead come in pieces (``Measure.pieces``): the text cut at whitespace-run starts, the
    number of units in each piece known up front and their ends (``fine(k)``) worked out only for
    the pieces a query looks inside, so a span whose ends are piece starts costs no offsets.

    ``overhead`` is the units the model adds to any non-empty text. A span estimate is exact
    where both cuts fall at whitespace, except that it may fall short of the real count by up to
    ``margin`` units, and it is unreliable where ``trust`` (a ``Trust``) says so:
    where ``unreliable(text, start, end)`` says so, where
    the span holds one of ``checkpoints``, where a cut falls inside a word and ``exact_midword`` is
    False, or where the span ends in whitespace (which a Unigram tokenizer turns into a ``▁`` of
    its own) and ``exact_trailing_space`` is False. ``spaces`` are the characters the tokenizer
    takes for whitespace at those two checks: seamcut's whitespace, and more where the model maps
    other characters to a space (e5: zero-width and format characters). ``needs_check`` says when.
    """

    def __init__(self, text: str, ends: Sequence[int] | np.ndarray = (), *, overhead: int = 0,
                 margin: int = 0, trust: Trust = Trust()) -> None:
        self.text = text
        all_ends = ends.tolist() if isinstance(ends, np.ndarray) else list(ends)
        self._starts = [0]
        self._cum = [0, len(all_ends)]
        self._fine: dict[int, list[int]] = {0: all_ends}
        self._fine_of: Fine = lambda k: all_ends
        self._memo: dict[int, int] = {}
        self.overhead = overhead
        self.margin = margin
        self.exact_midword = trust.exact_midword
        self.exact_trailing_space = trust.exact_trailing_space
        self.unreliable = trust.unreliable
        self.checkpoints = tuple(trust.checkpoints)
        self.spaces = trust.spaces

    @classmethod
    def pieces(cls, text: str, starts: list[int], counts: Sequence[int], fine: Fine,
               **options: Any) -> "Measure":
        """A measure in pieces: ``starts`` (the first is 0), units per piece, and ``fine(k)``
        giving piece ``k``'s unit ends in document offsets."""
        m = cls(text, **options)
        m._starts = list(starts)
        m._cum = [0, *np.cumsum(np.asarray(counts, dtype=np.int64)).tolist()]
        m._fine = {}
        m._fine_of = fine
        return m

    @classmethod
    def packed(cls, text: str, starts: list[int], ends: Sequence[np.ndarray],
               **options: Any) -> "Measure":
        """A measure in pieces from each piece's unit ends (``ends[k]``, document offsets), kept
        in one array of 8 bytes a unit; a piece's ends become a list only where a query looks
        inside it."""
        counts = [len(e) for e in ends]
        flat = np.concatenate(ends) if ends else np.zeros(0, dtype=np.int64)
        cum = np.concatenate(([0], np.cumsum(counts, dtype=np.int64))).tolist()
        return cls.pieces(text, starts, counts, lambda k: flat[cum[k]:cum[k + 1]].tolist(),
                          **options)

    def _piece(self, k: int) -> list[int]:
        got = self._fine.get(k)
        if got is None:
            got = self._fine[k] = self._fine_of(k)
        return got

    def _upto(self, p: int) -> int:
        """The number of units that end at or before ``p`` (remembered: the packer asks for the
        same cut points many times)."""
        got = self._memo.get(p)
        if got is None:
            k = bisect_right(self._starts, p) - 1
            if k > 0 and p == self._starts[k]:
                got = self._cum[k]
            else:
                k = max(k, 0)
                got = self._cum[k] + self._count_in(k, p)
            self._memo[p] = got
        return got

    def _count_in(self, k: int, p: int) -> int:
        """Units of piece ``k`` that end at or before ``p`` (a point inside the piece)."""
        return bisect_right(self._fine.get(k) or self._piece(k), p)

    def _end_in(self, k: int, i: int) -> int:
        """Where unit ``i`` of piece ``k`` ends."""
        return self._piece(k)[i]

    @property
    def ends(self) -> np.ndarray:
        """Every unit's end, in order."""
        return np.asarray([e for k in range(len(self._starts)) for e in self._piece(k)],
                          dtype=np.int64)

    def unit_end(self, j: int) -> int:
        """Where unit ``j`` (0-based) ends; ``len(text)`` past the last."""
        if j >= self._cum[-1]:
            return len(self.text)
        k = bisect_right(self._cum, j) - 1
        return self._end_in(k, j - self._cum[k])

    def count(self, start: int, end: int) -> int:
        """Estimated units in ``text[start:end]`` counted on its own, overhead included."""
        return self._upto(end) - self._upto(start) + self.overhead

    def max_end(self, start: int, limit: int) -> int:
        """The farthest end of a unit at which ``text[start:end]`` holds at most ``limit`` units
        by estimate (``start`` where not even one fits)."""
        room = limit - self.overhead
        if room <= 0:
            return start
        return self.unit_end(self._upto(start) + room - 1)

    def back(self, pos: int, n: int) -> int:
        """Where the ``n`` units before ``pos`` begin (the end of the unit before them)."""
        j = self._upto(pos) - n
        return 0 if j <= 0 else self.unit_end(j - 1)

    def unit_bounds(self, start: int, end: int) -> list[int]:
        """Offsets inside ``(start, end)`` where one unit ends (candidate cut points)."""
        if end <= start:
            return []
        i, j = self._upto(start), self._upto(end - 1)
        return [self.unit_end(x) for x in range(i, j)]

    def needs_check(self, start: int, end: int, estimate: int, limit: int) -> bool:
        """Whether ``estimate`` of the span must be confirmed with a real count."""
        if estimate + self.margin > limit or estimate == self.overhead:
            return True  # near the limit, or no unit at all (a model prefix may then count extra)
        if self.checkpoints and (bisect_right(self.checkpoints, start)
                                 < bisect_left(self.checkpoints, end)):
            return True
        if self.unreliable is not None and self.unreliable(self.text, start, end):
            return True
        t, spaces = self.text, self.spaces
        if not self.exact_midword:
            if 0 < start < len(t) and t[start - 1] not in spaces and t[start] not in spaces:
                return True
            if 0 < end < len(t) and t[end - 1] not in spaces and t[end] not in spaces:
                return True
        if not self.exact_trailing_space and 0 < end < len(t) and t[end - 1] in spaces:
            return True
        return False


@runtime_checkable
class Measurable(Protocol):
    """A sizer that can also measure a text: where each of its units ends."""

    name: str

    def measure(self, text: str) -> Measure:
        """Unit end offsets of ``text``, for span estimates."""
        ...


def measurable(sizer: Sizer) -> bool:
    """Whether ``sizer`` can measure a text (give unit offsets), not only count it."""
    return isinstance(sizer, Measurable)


def require_offsets(sizer: Sizer) -> Measurable:
    """``sizer`` itself where it can measure a text; else a ``ValueError`` naming it."""
    if not measurable(sizer):
        raise ConfigError(f"{sizer.name or type(sizer).__name__} counts whole texts only; "
                          "chunking needs a tokenizer that gives offsets: the default model, "
                          "a tokenizer.json (file or folder) or tiktoken:NAME")
    return sizer  # type: ignore[return-value]
