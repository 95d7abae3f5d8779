"""Sizers without a model: characters (code points) and words (runs of non-whitespace, by the
one whitespace of ``seamcut.text.space``). Both count and measure; neither adds any overhead."""
from __future__ import annotations

import numpy as np

from ..text.space import WORD, count_words
from .measure import Measure
from .sizer import Sizer


class CharSizer(Sizer):
    """Counts Unicode code points. Its measure stores nothing: unit ``j`` of a text ends at
    ``j + 1``."""

    name = unit = "chars"

    def count(self, text: str) -> int:
        return len(text)

    def measure(self, text: str) -> Measure:
        return _CharMeasure(text)


class _CharMeasure(Measure):
    """Every character is a unit: unit ``j`` ends at ``j + 1``; nothing is stored."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self._cum = [0, len(text)]

    def _count_in(self, k: int, p: int) -> int:
        return min(max(p, 0), len(self.text))

    def _end_in(self, k: int, i: int) -> int:
        return i + 1

    def _piece(self, k: int) -> list[int]:
        return list(range(1, len(self.text) + 1))


class WordSizer(Sizer):
    """Counts words: maximal runs of non-whitespace characters."""

    name = unit = "words"

    def count(self, text: str) -> int:
        return count_words(text)

    def measure(self, text: str) -> Measure:
        ends = np.fromiter((m.end() for m in WORD.finditer(text)), dtype=np.int64)
        return Measure(text, ends)
