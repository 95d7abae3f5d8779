"""Character-span metrics as the Chroma report computes them, on hand-computed cases."""
from __future__ import annotations

import random

import pytest

from seamcut.evaluate.spans import (Span, SpanScores, covered_length, intersect_ranges,
                                    span_scores, subtract_ranges, union_ranges)


def scores(recall: float, precision: float, iou: float) -> SpanScores:
    return SpanScores(recall, precision, iou)


def approx(s: SpanScores) -> tuple[object, ...]:
    return tuple(pytest.approx(x) for x in (s.recall, s.precision, s.iou))


def check(retrieved: list[Span], references: list[Span], expected: SpanScores) -> None:
    got = span_scores(retrieved, references)
    assert (got.recall, got.precision, got.iou) == approx(expected)


def test_union_merges_overlapping_and_touching_ranges() -> None:
    assert union_ranges([(5, 8), (0, 3), (3, 4), (7, 10), (12, 12)]) == [(0, 4), (5, 10)]
    assert covered_length([(0, 10), (0, 10), (5, 15)]) == 15


def test_intersection_and_subtraction() -> None:
    assert intersect_ranges((0, 10), (5, 20)) == (5, 10)
    assert intersect_ranges((0, 10), (10, 20)) is None
    assert subtract_ranges((0, 20), [(5, 8), (15, 30), (6, 9)]) == [(0, 5), (9, 15)]
    assert subtract_ranges((0, 20), [(0, 20)]) == []


def test_disjoint_retrieval_scores_zero() -> None:
    # reference 100..150 (50 chars); chunks 0..100 and 150..250 only touch it
    ref = [Span("a", 100, 150)]
    check([Span("a", 0, 100), Span("a", 150, 250)], ref, scores(0, 0, 0))


def test_reference_fully_inside_one_chunk() -> None:
    # 50 of 50 reference chars found; the chunk is 200 chars
    check([Span("a", 0, 200)], [Span("a", 100, 150)], scores(1, 50 / 200, 50 / 200))


def test_partial_cover_counts_missed_reference_chars_in_iou() -> None:
    # reference 100..200; chunk 150..250 covers 50, misses 50
    check([Span("a", 150, 250)], [Span("a", 100, 200)], scores(0.5, 0.5, 50 / (100 + 50)))


def test_overlapping_chunks_count_once_in_numerator_every_time_in_denominators() -> None:
    # chunks 0..100 and 50..150 (overlap 50) both cover reference 60..90 (30 chars)
    retrieved = [Span("a", 0, 100), Span("a", 50, 150)]
    check(retrieved, [Span("a", 60, 90)], scores(1, 30 / 200, 30 / 200))


def test_duplicate_chunks_double_the_denominators() -> None:
    ref = [Span("a", 10, 30)]
    once = span_scores([Span("a", 0, 40)], ref)
    twice = span_scores([Span("a", 0, 40), Span("a", 0, 40)], ref)
    assert (once.recall, once.precision, once.iou) == approx(scores(1, 20 / 40, 20 / 40))
    assert (twice.recall, twice.precision, twice.iou) == approx(scores(1, 20 / 80, 20 / 80))


def test_chunk_of_another_source_never_intersects_but_costs() -> None:
    # same offsets, other document: counts 100 chars in the denominators, 0 found
    retrieved = [Span("b", 0, 100), Span("a", 0, 50)]
    check(retrieved, [Span("a", 0, 40)], scores(1, 40 / 150, 40 / 150))
    check([Span("b", 0, 100)], [Span("a", 0, 40)], scores(0, 0, 0))


def test_empty_retrieval_scores_zero() -> None:
    check([], [Span("a", 0, 40)], scores(0, 0, 0))
    check([], [], scores(0, 0, 0))


def test_two_references_one_missed() -> None:
    # refs 0..20 and 100..140 (60 chars); chunk 0..50 finds 20 and misses 40
    refs = [Span("a", 0, 20), Span("a", 100, 140)]
    check([Span("a", 0, 50)], refs, scores(20 / 60, 20 / 50, 20 / (50 + 40)))


def test_report_formula_worked_example() -> None:
    """The report's code, followed by hand on one question (base_evaluation.py,
    ``_scores_from_dataset_and_retrievals``): numerator = length of the union of every
    (chunk ∩ reference) of the question's corpus; recall denominator = sum of reference lengths;
    precision denominator = sum of the lengths of all retrieved chunks, other corpora included;
    IoU denominator = precision denominator + reference characters left after subtracting each
    intersection.

    Corpus "sotu"; references [27346, 27425) and [27866, 28023) (79 + 157 = 236 chars).
    Retrieved (top 5): [27000, 27500), [27400, 27900), [27400, 27900) again, [0, 300) of another
    corpus, [29000, 29400).
    Intersections: [27346, 27425), [27400, 27425), [27866, 27900) -> union 79 + 34 = 113.
    Sum of retrieved lengths: 500 + 500 + 500 + 300 + 400 = 2200.
    Unused highlights: [27900, 28023) = 123.
    """
    refs = [Span("sotu", 27346, 27425), Span("sotu", 27866, 28023)]
    retrieved = [Span("sotu", 27000, 27500), Span("sotu", 27400, 27900), Span("sotu", 27400, 27900),
                 Span("wiki", 0, 300), Span("sotu", 29000, 29400)]
    check(retrieved, refs, scores(113 / 236, 113 / 2200, 113 / (2200 + 123)))


def _by_characters(retrieved: list[Span], references: list[Span]) -> SpanScores:
    """The same definitions on explicit sets of (source, character) pairs."""
    ref_chars = {(s.source, i) for s in references for i in range(s.start, s.end)}
    got_chars = {(s.source, i) for s in retrieved for i in range(s.start, s.end)}
    found = len(ref_chars & got_chars)
    retrieved_sum = sum(len(s) for s in retrieved)
    reference_sum = sum(len(s) for s in references)
    missed = sum(1 for s in references for i in range(s.start, s.end)
                 if (s.source, i) not in got_chars)
    div = lambda a, b: a / b if b else 0.0  # noqa: E731
    return SpanScores(div(found, reference_sum), div(found, retrieved_sum),
                      div(found, retrieved_sum + missed))


def _random_spans(rng: random.Random, n: int) -> list[Span]:
    spans = []
    for _ in range(n):
        start = rng.randrange(0, 300)
        spans.append(Span(rng.choice("ab"), start, start + rng.randrange(0, 80)))
    return spans


def test_matches_character_set_definition_on_random_cases() -> None:
    rng = random.Random(5)
    for _ in range(500):
        refs = _random_spans(rng, rng.randrange(1, 3))
        # the report's references never overlap one another; keep those cases
        if covered_length((r.start, r.end) for r in refs if r.source == "a") + covered_length(
                (r.start, r.end) for r in refs if r.source == "b") != sum(len(r) for r in refs):
            continue
        retrieved = _random_spans(rng, rng.randrange(0, 6))
        got = span_scores(retrieved, refs)
        assert (got.recall, got.precision, got.iou) == approx(_by_characters(retrieved, refs))


def test_span_rejects_reversed_offsets() -> None:
    with pytest.raises(ValueError):
        Span("a", 10, 5)
