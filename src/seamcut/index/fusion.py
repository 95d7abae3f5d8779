"""Fusion: one ranking from a vector ranking and a full-text ranking, as an object an index is
given (LanceDB's pluggable reranker, in small). Reciprocal rank fusion today."""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Sequence

RRF_K = 60  # the reciprocal-rank-fusion constant of Cormack et al. (2009), LanceDB's default


@dataclass(frozen=True)
class Scored:
    """One entry of a ranking: an id (a chunk's or a parent's), the row it stands for, its score
    (higher is better) and the cosine similarity to the query where the vector search saw it."""
    id: str
    row: dict[str, Any]
    score: float
    similarity: float | None = None


class Fusion(ABC):
    """Merges the vector and the full-text ranking of one search into one ranking, best first."""

    @abstractmethod
    def fuse(self, vector: Sequence[Scored], text: Sequence[Scored]) -> list[Scored]:
        """One ranking; an entry keeps its vector similarity, and the vector search's row where
        both found it."""


class ReciprocalRankFusion(Fusion):
    """score = sum over the rankings of 1 / (k + rank); ties to the higher cosine similarity,
    then the id."""

    def __init__(self, k: int = RRF_K) -> None:
        self.k = k

    def fuse(self, vector: Sequence[Scored], text: Sequence[Scored]) -> list[Scored]:
        entry = {s.id: s for s in text} | {s.id: s for s in vector}
        sim = {s.id: s.similarity for s in vector if s.similarity is not None}
        score: dict[str, float] = {}
        for ranking in (vector, text):
            for rank, s in enumerate(ranking, 1):
                score[s.id] = score.get(s.id, 0.0) + 1.0 / (self.k + rank)
        best = sorted(score, key=lambda i: (-score[i], -sim.get(i, -2.0), i))
        return [Scored(i, entry[i].row, score[i], sim.get(i)) for i in best]

    def __repr__(self) -> str:
        return f"ReciprocalRankFusion(k={self.k})"
