"""What a search returns (``Hit``) and how its rankings are built: the vector and the word
ranking of rows, combined by mode, and grouped by parent for a parent-child index."""
from __future__ import annotations

import unicodedata
import warnings
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Literal, Sequence, TypeVar

from ..errors import ConfigError
from ..model import Chunk
from .fusion import Fusion, Scored

T = TypeVar("T")
Mode = Literal["vector", "text", "hybrid"]
MODES = ("vector", "text", "hybrid")
#: the mode a search runs in when none is named: the simplest choice a tie between modes goes to
DEFAULT_MODE: Mode = "hybrid"


@dataclass(frozen=True)
class Hit:
    """One search result, ranked from 1.

    ``chunk`` is what goes to the language model: the chunk itself, or for a parent-child index
    the parent section, with ``children`` the children that matched, best first. ``score``: the
    reciprocal-rank-fusion score (hybrid), the cosine similarity (vector) or the BM25 score (text).
    ``similarity``: the cosine similarity between the query and the best matching chunk's vector,
    where the vector search saw it (None otherwise): a fixed scale to set an "I don't know"
    threshold on.
    """
    rank: int
    chunk: Chunk
    score: float
    similarity: float | None = None
    children: tuple[Chunk, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        """As plain data (what ``seamcut search --json`` prints and the service answers): rank,
        score, similarity, the chunk and the ids of the matching children."""
        return {"rank": self.rank, "score": self.score, "similarity": self.similarity,
                "chunk": self.chunk.to_dict(), "children": [c.id for c in self.children]}


@dataclass(frozen=True)
class Query:
    """What a search looks for where its two rankings read different text: ``text``, what the
    vector ranking embeds (the question whole), and ``words``, what the word ranking (BM25)
    searches (None: ``text``). ``Asking.query`` makes one: the question, and its words without
    those that named a filter of one value."""
    text: str
    words: str | None = None


def check_query(mode: str, k: int) -> None:
    if mode not in MODES:
        raise ConfigError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if k < 1:
        raise ConfigError("k must be at least 1")


def normalise_query(text: str) -> str:
    """The query as the full-text index sees text: NFC, whitespace runs as one space."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def by_vector(rows: Sequence[dict[str, Any]]) -> list[Scored]:
    """Rows of a vector search (with ``_distance``), scored by cosine similarity, best first
    (ties by id)."""
    return _ranked(Scored(r["id"], r, 1.0 - float(r["_distance"]), 1.0 - float(r["_distance"])) for r in rows)


def by_words(rows: Sequence[dict[str, Any]]) -> list[Scored]:
    """Rows of a full-text search (with ``_score``), scored by BM25, best first (ties by id)."""
    return _ranked(Scored(r["id"], r, float(r["_score"])) for r in rows)


def _ranked(scored: Iterable[Scored]) -> list[Scored]:
    # equal scores (the same text twice, the same words) in id order, not in the order the rows
    # lie on disk: an index answers the same whatever its write history (batches, a resumed build)
    return sorted(scored, key=lambda s: (-s.score, s.id))


def combine(mode: str, vector: Sequence[Scored], text: Sequence[Scored], fusion: Fusion) -> list[Scored]:
    """The ranking a mode asks for: the vector one, the word one, or both fused."""
    if mode == "vector":
        return list(vector)
    if mode == "text":
        return list(text)
    return fusion.fuse(vector, text)


def parent_of(row: dict[str, Any]) -> str:
    """A child row's parent id; a chunk without a parent stands for itself."""
    return row["parent_id"] or row["id"]


def by_parent(ranking: Sequence[Scored]) -> list[Scored]:
    """A ranking of chunks as a ranking of their parents: each parent where its best child is,
    with that child's row, score and similarity."""
    out: dict[str, Scored] = {}
    for s in ranking:
        pid = parent_of(s.row)
        if pid not in out:
            out[pid] = Scored(pid, s.row, s.score, s.similarity)
    return list(out.values())


def within_budget(items: Iterable[T], tokens: Callable[[T], int], budget: int | None) -> Iterator[T]:
    """``items`` in order while their ``tokens`` together stay within ``budget`` (tokens of the
    model; None: all); the first always comes, whatever its size (a search answers with something)."""
    used = 0
    for i, item in enumerate(items):
        n = tokens(item)
        if budget is not None and i and used + n > budget:
            return
        used += n
        yield item


def budget_of(budget: int | None, max_tokens: int | None, stacklevel: int = 3) -> int | None:
    """The budget a search was given (tokens of the model the results hold together): ``budget``,
    or ``max_tokens``, its old name, kept for a release with a ``DeprecationWarning`` pointed at
    the caller ``stacklevel`` frames up; both at once raise ``ConfigError``."""
    if max_tokens is None:
        return budget
    if budget is not None:
        raise ConfigError("give budget or max_tokens (its old name), not both")
    warnings.warn("max_tokens is deprecated: it is now budget (the same tokens of the model the results "
                  "hold together); max_tokens goes in a coming release", DeprecationWarning, stacklevel=stacklevel)
    return max_tokens
