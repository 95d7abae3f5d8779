"""How ``compare`` and ``tune`` filter each question's search, so that a run shows what a filter
does: the hits with and without it, side by side.

Three ways (``FILTERS``), each judged as a row of its own, named ``STRATEGY (where)`` and
``STRATEGY (from question)`` (``labelled``):

- ``none``: every question searches the whole index (the guide's hit@k);
- ``where``: a question searches only what its test set's ``where`` lets through (the filter the
  bot applies from what it knows: the caller's crop, the scheme chosen, the filing asked about),
  strictly: what the filter leaves out is never sent; a question with no ``where`` searches
  the whole index;
- ``question``: the filters read from the question's own words (``Index.asked``: field values
  and their aliases named in it, periods spelt as people spell them), falling back to the whole
  index where they leave fewer than k results.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Sequence

from ..errors import ConfigError
from ..index.filters import FilterError
from ..index.reading import Asking
from .questions import Question, QuestionsError

if TYPE_CHECKING:
    from ..index import Hit, Index

#: the ways a question's search is filtered, in the order a run judges them
FILTERS = ("none", "where", "question")


@dataclass(frozen=True)
class Applied(Asking):
    """The filter one question's search applied: structured ``filters`` and why (``Asking``'s),
    and SQL ``where`` (all empty: the whole index)."""
    where: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"where": self.where, **super().to_dict()}


NONE = Applied()


def check_filters(filters: Sequence[str]) -> list[str]:
    """``filters`` as the ways ``FILTERS`` names, each once, in their order; ``ConfigError`` for
    another word."""
    for f in filters:
        if f not in FILTERS:
            raise ConfigError(f"filters: unknown way {f!r}; one of {', '.join(FILTERS)}")
    return [f for f in FILTERS if f in filters]


def default_filters(questions: Sequence[Question]) -> list[str]:
    """Where any question carries a ``where``: the run without filters and with them; else none."""
    return ["none", "where"] if any(q.filtered for q in questions) else ["none"]


def labelled(label: str, way: str) -> str:
    """A row's name: the strategy's label, and the way its searches were filtered where any."""
    return label if way == "none" else f"{label} ({'from question' if way == 'question' else way})"


def applied(index: "Index", q: Question, way: str, k: int) -> Applied:
    """The filter ``q``'s search in ``index`` applies, filtered the ``way`` named (``k``: the
    results a filter read from the question must leave, else the whole index is searched)."""
    if way == "where" and q.filtered:
        return Applied(q.filters, "the test set's where", where=q.where)
    if way == "question":
        asked = index.asked(q.question, k)
        return Applied(asked.filters, asked.why, asked.text_query)
    return NONE


def search(index: "Index", q: Question, filtered: Applied, n: int, mode: str) -> list["Hit"]:
    """``q`` searched in ``index`` (``n`` results, ``mode``) with the filter ``filtered``. A
    ``where`` the index cannot take is a ``QuestionsError`` naming the question."""
    try:
        return index.search(filtered.query(q.question), n, mode=mode, where=filtered.where,  # type: ignore[arg-type]
                            filters=filtered.filters)
    except FilterError as exc:
        at = f" (line {q.line})" if q.line else ""
        raise QuestionsError(f"question {q.id}{at}: where: {exc}") from None
