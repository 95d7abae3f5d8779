"""Retrieval metrics by answer text: hit rate at k and mean reciprocal rank.

A question is a hit at k when one of its top k results holds one of its answers (the guide's
check, and Karpukhin et al.'s top-k retrieval accuracy); its reciprocal rank is 1 / the rank of
the first result that does (0 when none in the list does). Questions without an answer are left
out of both: they measure whether the system says "I don't know", not retrieval.
"""
from __future__ import annotations

from typing import Sequence

from .questions import Question


def first_hit(question: Question, texts: Sequence[str]) -> int | None:
    """The 1-based rank of the first text holding one of the question's answers, or None."""
    for rank, text in enumerate(texts, 1):
        if question.answered_by(text):
            return rank
    return None


def hit_rate(ranks: Sequence[int | None], k: int) -> float:
    """Share of questions whose first hit is within the top ``k`` (``ranks`` from ``first_hit``)."""
    if not ranks:
        return 0.0
    return sum(1 for r in ranks if r is not None and r <= k) / len(ranks)


def mean_reciprocal_rank(ranks: Sequence[int | None], k: int | None = None) -> float:
    """Mean of 1/rank of the first hit (0 for a miss, or a first hit below ``k``)."""
    if not ranks:
        return 0.0
    return sum(1.0 / r for r in ranks if r is not None and (k is None or r <= k)) / len(ranks)
