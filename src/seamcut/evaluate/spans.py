"""Character-span retrieval metrics: recall, precision and IoU of retrieved spans against
reference spans, computed as in Chroma's "Evaluating Chunking Strategies for Retrieval" (Smith &
Troynikov, 2024; the `chunking_evaluation` repository's ``base_evaluation.py``).

Every offset and length here is in characters (code points) of the source document's text, the
same units as ``Chunk.start``/``Chunk.end``. For one question, with retrieved spans ``R`` and
reference spans ``E``:

- ``found``  = characters of ``E`` covered by ``R``, each counted once (a union);
- recall     = ``found / sum(len(e) for e in E)``;
- precision  = ``found / sum(len(r) for r in R)``;
- IoU        = ``found / (sum(len(r) for r in R) + missed)``, where ``missed`` is the characters of
  each reference that no retrieved span in its source covers.

As in the report's code, the denominators are sums, not unions: a character retrieved twice (two
overlapping chunks, or the same chunk twice) costs twice, which is how the report penalises
overlap; a retrieved span from another source counts in the denominators but never in ``found``.
A span that only touches a reference (``end == start``) covers nothing.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Sequence

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
            raise ValueError(f"span of {self.source!r} needs 0 <= start <= end, "
                             f"got [{self.start}, {self.end})")

    def __len__(self) -> int:
        """Length in characters."""
        return self.end - self.start


@dataclass(frozen=True)
class SpanScores:
    """One question's scores, each a fraction in [0, 1] of characters (not percent)."""

    recall: float
    precision: float
    iou: float


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


def _by_source(spans: Sequence[Span]) -> dict[str, list[Range]]:
    groups: dict[str, list[Range]] = defaultdict(list)
    for span in spans:
        groups[span.source].append((span.start, span.end))
    return groups


def found_length(retrieved: Sequence[Span], references: Sequence[Span]) -> int:
    """Characters of the references covered by retrieved spans of the same source, each once."""
    chunks = _by_source(retrieved)
    found = 0
    for source, refs in _by_source(references).items():
        hits = (intersect_ranges(c, r) for c in chunks.get(source, ()) for r in refs)
        found += covered_length(h for h in hits if h is not None)
    return found


def missed_length(retrieved: Sequence[Span], references: Sequence[Span]) -> int:
    """Characters of each reference that no retrieved span of its source covers, summed over the
    references (a character in two references counts twice, as in the report)."""
    chunks = _by_source(retrieved)
    return sum(total_length(subtract_ranges((r.start, r.end), chunks.get(r.source, [])))
               for r in references)


def _ratio(numerator: int, denominator: int) -> float:
    return numerator / denominator if denominator else 0.0


def span_scores(retrieved: Sequence[Span], references: Sequence[Span]) -> SpanScores:
    """Recall, precision and IoU (fractions of characters) of one question's retrieved spans
    against its reference spans, as the Chroma report computes them (see the module docstring).

    Spans of different sources never intersect. Duplicated or overlapping retrieved spans are
    counted once in the numerator and every time in the precision and IoU denominators. With no
    retrieved spans every score is 0; a zero denominator gives 0.
    """
    found = found_length(retrieved, references)
    retrieved_chars = total_length((s.start, s.end) for s in retrieved)
    reference_chars = total_length((s.start, s.end) for s in references)
    missed = missed_length(retrieved, references)
    return SpanScores(recall=_ratio(found, reference_chars),
                      precision=_ratio(found, retrieved_chars),
                      iou=_ratio(found, retrieved_chars + missed))


__all__ = ["Range", "Span", "SpanScores", "span_scores", "union_ranges", "intersect_ranges",
           "total_length", "covered_length", "subtract_ranges", "found_length", "missed_length"]
