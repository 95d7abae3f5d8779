"""Parent-child search: the rankings of children turned into hits of parents, each parent once."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .fusion import Fusion, Scored
from .search import Hit, by_parent, by_words, combine, parent_of, within_budget
from .settings import ParentTextRank
from .store import View


@dataclass(frozen=True)
class ParentQuery:
    """One parent-child search: ``text`` (the query normalised for BM25), ``mode`` (vector, text
    or hybrid), ``where`` (an SQL filter, or None), ``n`` (candidates read per ranking), ``k``
    (parents returned) and ``budget`` (the most chunk tokens returned, None: no limit)."""

    text: str
    mode: str
    where: str | None
    n: int
    k: int
    budget: int | None


def parent_hits(view: View, query: ParentQuery, vector: list[Scored], words: list[Scored], *,
                fusion: Fusion, rank_parents_by: ParentTextRank) -> list[Hit]:
    """Parent-child search: each parent once, ranked by its children or by itself.

    The vectors always rank children (a small text's vector is sharper), a parent ranked
    where its best child is. The words (BM25) rank what ``rank_parents_by`` says: the
    ``children``, fused with the vector ranking child by child, or the ``parents``
    themselves (a 50-token child is too short for BM25, a one-paragraph parent is not),
    fused with the vector ranking parent by parent. Each hit lists the children that either
    search found."""
    text, mode, where, n, k, budget = (query.text, query.mode, query.where, query.n, query.k,
                                       query.budget)
    parent_vector = by_parent(vector)
    if mode != "vector" and rank_parents_by == "parents":
        parent_words = by_words(view.text_rows("parents", text, where, n))
        ranking = combine(mode, parent_vector, parent_words, fusion)
    else:
        parent_words = []
        ranking = by_parent(combine(mode, vector, words, fusion))
    wanted = ranking[:k]
    similarity = {s.id: s.similarity for s in parent_vector}
    kids: dict[str, dict[str, dict[str, Any]]] = {}
    for s in vector + words:
        kids.setdefault(parent_of(s.row), {}).setdefault(s.id, s.row)
    ids = {s.id for s in wanted}
    parents = {s.id: view.chunk(s.row) for s in parent_words if s.id in ids}
    fetch = [s.id for s in wanted if s.id not in parents]
    parents.update((c.id, c) for c in map(view.chunk, view.rows("parents", fetch)))
    found = []
    for s in wanted:
        children = tuple(view.chunk(r) for r in kids.get(s.id, {}).values())
        found.append((s, parents.get(s.id) or children[0], children))
    return [Hit(i + 1, parent, s.score, similarity.get(s.id), children)
            for i, (s, parent, children) in enumerate(within_budget(found, lambda f: f[1].tokens, budget))]
