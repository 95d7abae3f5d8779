"""``Index``'s reads (``folder.Index`` is a ``Reading``): counts, every chunk, searches in
three modes with filters and a budget, and why a filtered search found nothing. Every read is of
one published state (``store.View``)."""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence, TypeVar

from ..model import Chunk
from .filters import Filter, WhereError
from .fusion import Fusion
from .matrix import Matrix, matrix_for
from .parents import ParentQuery, parent_hits
from .search import (DEFAULT_MODE, Hit, Mode, Query, budget_of, by_vector, by_words, check_query, combine,
                     normalise_query, within_budget)
from .settings import Settings
from .store import HIT_COLUMNS, Store, View
from .unmatched import unmatched

if TYPE_CHECKING:
    from ..embed import Embedder

T = TypeVar("T")


class Reading:
    """What an ``Index`` reads; it brings the folder's ``store``, ``settings``, ``fusion``,
    ``embedder`` and ``_check_text_index`` (a word search's text index made where a stopped build
    left none)."""
    store: Store
    settings: Settings
    fusion: Fusion
    embedder: "Embedder"
    _matrix: Matrix | None
    _vector_queries: int

    def _check_text_index(self) -> None:
        raise NotImplementedError

    def count(self) -> int:
        """Searchable chunks in the index."""
        return self._read(lambda view: view.count())

    def all_chunks(self) -> list[Chunk]:
        """Every searchable chunk, in document order (for checks and reports)."""
        return self._read(lambda view: view.all_chunks())

    def _read(self, read: Callable[[View], T]) -> T:
        """``read`` on the state last published, for the whole read; read again on the next one
        where a writer published it and deleted the files of this one meanwhile (its cleanup of
        old versions, while this read was under way)."""
        view = self.store.view()
        try:
            return read(view)
        except (RuntimeError, OSError):
            now = self.store.view()
            if now is view:  # nothing published since: not a version cleaned up
                raise
            return read(now)

    def search(self, query: str | Query, k: int = 4, *, mode: Mode = DEFAULT_MODE, where: str | None = None,
               filters: Sequence[Filter] = (), budget: int | None = None,
               candidates: int | None = None, max_tokens: int | None = None) -> list[Hit]:
        """The ``k`` best results for ``query``: a question, or a ``Query`` whose word ranking
        searches other words than its vector ranking reads (``Asking.query``: the question
        without the words that named its filters).

        ``mode``: ``vector`` (cosine similarity of the model's vectors), ``text`` (BM25 over ICU
        words) or ``hybrid`` (both, merged by the index's fusion). ``where``: an SQL filter on the
        chunk columns, e.g. ``crop = 'cotton' AND year >= 2025``; ``filters``: the same as
        structured ``Filter``s, checked against the index's fields (``filter_fields``; a ``source``
        names a file as stored, by its file name or its path's last parts), both joined by AND
        (``unmatched`` says why a filtered search found nothing). For a parent-child index each
        parent comes once, with the children that matched. ``budget``: tokens of the model the
        results may hold together (each chunk's ``tokens``; for a parent-child index its
        parents'), best first, the first always (``max_tokens``: its old name, deprecated).
        ``candidates``: how many chunks each search fetches before fusion and grouping (default
        ``max(4 * k, 20)``; at least ``8 * k`` for a parent-child index).
        """
        return self.search_state(query, k, mode=mode, where=where, filters=filters,
                                 budget=budget_of(budget, max_tokens), candidates=candidates)[0]

    def search_state(self, query: str | Query, k: int = 4, *, mode: Mode = DEFAULT_MODE, where: str | None = None,
                     filters: Sequence[Filter] = (), budget: int | None = None,
                     candidates: int | None = None, max_tokens: int | None = None) -> tuple[list[Hit], str | None]:
        """``search``, and the id of the published state that answered it (None: an index never
        published): every result of one search comes from that one state."""
        budget = budget_of(budget, max_tokens)
        check_query(mode, k)
        if mode != "vector":
            self._check_text_index()
        if isinstance(query, Query):
            query, text = query.text, normalise_query(query.words or query.text)
        else:
            text = normalise_query(query)

        def read(view: View) -> tuple[list[Hit], str | None]:
            sql = " AND ".join(f"({w})" for w in (where, view.structured(filters)) if w) or None
            try:
                return self._search(view, query, text, k, mode, sql, budget, candidates), view.state_id
            except Exception:
                if where:
                    check_where(view, where)  # a where the tables refuse: WhereError
                raise
        return self._read(read)

    def asked(self, question: str, k: int = 4) -> "Asking":
        """The filters read from ``question``'s words (``seamcut.index.asked.read_filters``: the
        values of the documents' fields this index holds, with their aliases, named in it; for
        "the latest", the newest period of what it names: ``_latest``), and why. Where they leave
        fewer than ``k`` chunks together, the most of them that leave
        ``k`` (a fiscal "Q1 2023" whose filing's year is 2022: the period kept, the year left
        out); where none does, no filter (the whole index); ``why`` says which."""
        from .asked import FieldValues, read_filters, without

        def read(view: View) -> Asking:
            found = read_filters(question, FieldValues(view.asked_values()))
            found += _latest(view, question, found)
            if not found:
                return Asking()
            why = "; ".join(a.why for a in found)
            for kept in _subsets(found):  # all the fields named first, then fewer
                left = view.matches(view.structured([a.filter for a in kept]))
                if left >= k:
                    dropped = [a.filter.field for a in found if a not in kept]
                    # the words of a filter keeping one value: every result holds it (several: the
                    # words still tell the results apart)
                    text = without(question, [w for a in kept if a.filter.op == "eq" for w in a.words])
                    return Asking(tuple(a.filter for a in kept), f"read from the question: {why}" + (
                        f" ({', '.join(dropped)} left out: with {'it' if len(dropped) == 1 else 'them'} fewer than "
                        f"{k} chunks are left)" if dropped else ""), text if text != question else "")
            return Asking((), f"read from the question ({why}), but every one of them leaves fewer than {k} "
                              f"chunks: the whole index searched")
        return self._read(read)

    def unmatched(self, filters: Sequence[Filter] = (), where: str | None = None) -> list[str]:
        """Why a search with these filters may find nothing: a line per filter (or ``where``)
        that matches no chunk, naming values its field holds ([]: they match some)."""
        return self._read(lambda view: unmatched(view, filters, where))

    def filter_fields(self) -> dict[str, str]:
        """The fields a search can be filtered on (``Filter``), and the kind of value each takes."""
        return self._read(lambda view: view.filter_fields())

    def _search(self, view: View, query: str, text: str, k: int, mode: Mode, where: str | None,
                budget: int | None, candidates: int | None) -> list[Hit]:
        if "chunks" not in view or (not text and mode != "vector"):
            return []  # no words, nothing to rank them by
        parent_child = "parents" in view
        n = candidates or max(4 * k, 20)
        if parent_child:
            n = max(n, 8 * k)  # several children may share a parent: more of them to fill k parents
        vector = by_vector(self._vector_rows(view, query, where, n)) if mode != "text" else []
        words = by_words(view.text_rows("chunks", text, where, n)) if mode != "vector" else []
        if parent_child:
            return parent_hits(view, ParentQuery(text, mode, where, n, k, budget), vector, words,
                               fusion=self.fusion, rank_parents_by=self.settings.parent_text_rank)
        ranking = [(s, view.chunk(s.row)) for s in combine(mode, vector, words, self.fusion)[:k]]
        return [Hit(i + 1, c, s.score, s.similarity)
                for i, (s, c) in enumerate(within_budget(ranking, lambda sc: sc[1].tokens, budget))]

    def _vector_rows(self, view: View, query: str, where: str | None, n: int) -> list[dict[str, Any]]:
        """The ``n`` chunks nearest to ``query`` by cosine, best first, with ``_distance``.

        Exact either way. The first query of an Index scans the table in LanceDB; later ones
        without a filter search the vectors in memory (loaded once, about 0.5 s per 100k chunks;
        a matrix product instead of a scan per query), while they fit in ``MATRIX_BYTES``."""
        vec = self.embedder.embed_queries([query])[0]
        self._vector_queries += 1
        matrix = None
        if where is None and self._vector_queries > 1:
            matrix = self._matrix = matrix_for(view, int(self.settings.dim or 0), self._matrix)
        if matrix is None:
            return view.vector_rows(vec, where, n)
        nearest = matrix.nearest(vec, n)
        found = {r["id"]: r for r in view.rows("chunks", [i for i, _ in nearest], HIT_COLUMNS)}
        return [{**found[i], "_distance": 1.0 - sim} for i, sim in nearest if i in found]


def _latest(view: View, question: str, found: Sequence[Any]) -> list[Any]:
    """Where ``question`` asks for the newest document ("Apple's latest 10-Q") and names what it
    is the newest of (``found``, the filters read from it): the newest value of the first field
    (not one it names) that every document those filters let through holds as a period or a
    date (``asked.newest``), as one more filter; [] otherwise. A document without the field is
    never dropped for asking the latest, and "the latest" of everything is not asked: on filings
    of several companies without a company field it would be another company's newest filing."""
    from .asked import Asked, asks_latest, newest
    from .filters import holds
    at = asks_latest(question) if found else None
    if at is None:
        return []
    words = unicodedata.normalize("NFC", question)[at[0]:at[1]]
    named = {a.filter.field for a in found}
    docs = [fields for fields, _ in view.asked_documents() if holds([a.filter for a in found], fields)]
    for field in view.asked_values():
        if field in named or not docs or any(field not in d for d in docs):
            continue
        value = newest([d[field] for d in docs])
        if value is not None:
            return [Asked(Filter(field, "eq", value),
                          f"'{words}' asks for the newest: {field} {value!r} is the newest of the "
                          f"documents the other filters leave", (at,))]
    return []


#: the most fields of a question whose subsets ``asked`` tries (2 ** n counts at most)
MOST_ASKED = 5


def _subsets(found: Sequence[T]) -> list[tuple[T, ...]]:
    """The non-empty subsets of ``found`` (its first ``MOST_ASKED``), the largest first, each in
    ``found``'s order, and among equals the ones keeping the earlier items first."""
    from itertools import combinations
    items = list(found)[:MOST_ASKED]
    return [c for n in range(len(items), 0, -1) for c in combinations(items, n)]


@dataclass(frozen=True)
class Asking:
    """The filters a search applies, read from its question (``Reading.asked``; empty: none),
    and why, a line for a person ("" where the question names no field value); ``text_query``:
    what the word ranking searches for, the question without the words that named a filter
    of one value ("" where none did: the question). Every result holds that value, but BM25
    weighs a word by how rare it is in the whole index: "Apple", on the context line of every
    chunk of Apple's filings, counts as a rare word matched and ranks the chunks that repeat it
    (a cover page, a short table piece) over the one that answers. The vector ranking reads the
    question whole."""
    filters: tuple[Filter, ...] = ()
    why: str = ""
    text_query: str = ""

    def query(self, question: str) -> str | Query:
        """What a search for ``question`` looks for: the question, with ``text_query`` as the
        words the word ranking searches where there is one."""
        return Query(question, self.text_query) if self.text_query else question

    def to_dict(self) -> dict[str, Any]:
        """As plain data: ``filters`` ({field, op, value} each), ``why`` and, where the word
        ranking searched other words than the question's, ``text_query``."""
        return {"filters": [{"field": f.field, "op": f.op, "value": f.value} for f in self.filters], "why": self.why,
                **({"text_query": self.text_query} if self.text_query else {})}

    def described(self) -> str:
        """The filters as ``field op value`` joined by AND ("" for none)."""
        return " AND ".join(f"{f.field} {f.op} {f.value!r}" for f in self.filters)


def check_where(view: View, where: str) -> None:
    """``WhereError`` where the chunk table refuses ``where`` (LanceDB's SQL parser or planner
    raise a ``ValueError`` or a ``RuntimeError``): asked after a search with it failed, so that
    the search's own failure is told apart from the where's."""
    try:
        view.matches(where)
    except (ValueError, RuntimeError) as exc:
        raise WhereError(where, str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None
