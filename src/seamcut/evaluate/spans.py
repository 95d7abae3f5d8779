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
from typing import Sequence

from ..text.ranges import (Range, Span, covered_length, intersect_ranges, subtract_ranges,
                           total_length, union_ranges)


@dataclass(frozen=True)
class SpanScores:
    """One question's scores, each a fraction in [0, 1] of characters (not percent)."""

    recall: float
    precision: float
    iou: float


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
