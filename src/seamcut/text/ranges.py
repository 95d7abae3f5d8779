"""Character ranges of a text: the one ``Span`` (a range of a named document's text) and the
arithmetic on half-open ranges ``[start, end)``: union, intersection, subtraction, lengths.

Every offset and length is in code points of the document's text, the units of
``Chunk.start``/``Chunk.end``.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from ..errors import ConfigError

Range = tuple[int, int]
"""A half-open character range ``[start, end)``."""


@dataclass(frozen=True)
class Span:
    """A half-open range ``[start, end)`` of characters in the text of document ``source``."""

    source: str
    start: int
    end: int

    def __post_init__(self) -> None:
        if not 0 <= self.start <= self.end:
            raise ConfigError(f"span of {self.source!r} needs 0 <= start <= end, "
                              f"got [{self.start}, {self.end})")

    def __len__(self) -> int:
        """Length in characters."""
        return self.end - self.start


def union_ranges(ranges: Iterable[Range]) -> list[Range]:
    """Sorted, disjoint ranges covering the same characters; touching ranges are merged and empty
    ones dropped."""
    merged: list[Range] = []
    for start, end in sorted(r for r in ranges if r[1] > r[0]):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def intersect_ranges(a: Range, b: Range) -> Range | None:
    """The characters in both ``a`` and ``b``, or None where they share none."""
    start, end = max(a[0], b[0]), min(a[1], b[1])
    return (start, end) if start < end else None


def total_length(ranges: Iterable[Range]) -> int:
    """Sum of the ranges' lengths in characters; a character in two ranges counts twice."""
    return sum(end - start for start, end in ranges)


def covered_length(ranges: Iterable[Range]) -> int:
    """Characters covered by at least one of the ranges (each counted once)."""
    return total_length(union_ranges(ranges))


def subtract_ranges(base: Range, cuts: Sequence[Range]) -> list[Range]:
    """The parts of ``base`` outside every range in ``cuts``."""
    rest: list[Range] = []
    position = base[0]
    for start, end in union_ranges(cuts):
        if end <= position or start >= base[1]:
            continue
        if start > position:
            rest.append((position, start))
        position = max(position, end)
    if position < base[1]:
        rest.append((position, base[1]))
    return rest


__all__ = ["Range", "Span", "union_ranges", "intersect_ranges", "total_length", "covered_length",
           "subtract_ranges"]
