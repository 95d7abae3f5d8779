"""Hit rate at equal tokens sent: each strategy scored as if it could send the model at most T
tokens per question.

A strategy whose results are longer (parent-child sends parents) sends more tokens at the same
k and can win at k by sending more. So each question is searched once, deep (``DEPTH``
results), and every budget is cut from that one ranked list: the results go in rank order while
the tokens sent stay within T; the first result that would overflow T is not sent, nor any
after it (a prefix, as a prompt is filled). A first result alone over T sends nothing: the
question is a miss at T, never a result cut to fit (cutting would need the answer's place in
the chunk, and would give a long-chunk strategy text it did not choose to send). A list whose
``DEPTH`` results all fit sends them all. Tokens are the model's tokens of what is sent: the
chunk, or for a parent-child index the parent.
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import Iterable, Sequence

from ..errors import ConfigError

#: results searched per question for the budgets (every budget is cut from this one list)
DEPTH = 50
#: the budgets scored when none is named (tokens sent per question), with the default budget
FIXED_BUDGETS = (256, 512, 1024, 2048)


@dataclass(frozen=True)
class Ranked:
    """One question's deep ranked list as the budget cut needs it: the tokens each result sends
    to the model, best first, and the 1-based rank of the first result holding an answer
    (None: none of them)."""
    tokens: tuple[int, ...]
    first_hit: int | None

    def sent(self, budget: int) -> int:
        """How many results go within ``budget`` tokens: the longest prefix whose tokens add up
        to at most ``budget`` (0 when the first alone is over it)."""
        used = 0
        for n, t in enumerate(self.tokens):
            used += t
            if used > budget:
                return n
        return len(self.tokens)

    def rank_within(self, budget: int) -> int | None:
        """The first hit's rank if it is sent within ``budget`` tokens, else None."""
        if self.first_hit is None or self.first_hit > self.sent(budget):
            return None
        return self.first_hit

    def tokens_within(self, budget: int) -> int:
        """Tokens sent within ``budget`` (at most ``budget``)."""
        return sum(self.tokens[:self.sent(budget)])


@dataclass(frozen=True)
class BudgetScore:
    """A strategy's scores at one budget over its answerable questions: ``hits`` sent within
    it, MRR of the first hit within it (0 for a miss), and the mean tokens sent per question
    (model tokens, at most the budget)."""
    budget: int
    hits: int
    questions: int
    mrr: float
    tokens_per_question: float

    @property
    def hit_rate(self) -> float:
        return self.hits / self.questions if self.questions else 0.0

    def to_dict(self) -> dict[str, float | int]:
        return {"hits": self.hits, "hit_rate": self.hit_rate, "mrr": self.mrr,
                "tokens_per_question": round(self.tokens_per_question, 1)}


def score_at(ranked: Sequence[Ranked], budget: int) -> BudgetScore:
    """The scores at ``budget`` tokens of the questions' ranked lists."""
    ranks = [r.rank_within(budget) for r in ranked]
    n = len(ranked)
    return BudgetScore(budget, sum(r is not None for r in ranks), n,
                       sum(1.0 / r for r in ranks if r is not None) / n if n else 0.0,
                       statistics.fmean(r.tokens_within(budget) for r in ranked) if n else 0.0)


def default_budget(tokens_per_question: Iterable[float]) -> int:
    """The median of the strategies' tokens per question at k, rounded to a token (the budget
    "best" uses when none is named); 0 when there is none."""
    values = list(tokens_per_question)
    return round(statistics.median(values)) if values else 0


def parse_budgets(values: Iterable[str]) -> list[int]:
    """Budgets as the command line takes them: each value a whole number of tokens or a comma
    list of them, in the order named, once each. Raises ``ValueError`` naming a bad one."""
    out: list[int] = []
    for value in values:
        for part in value.split(","):
            part = part.strip()
            if not part:
                continue
            try:
                budget = int(part)
            except ValueError:
                raise ConfigError(f"--budget: {part!r} is not a whole number of tokens") from None
            if budget < 1:
                raise ConfigError(f"--budget: {budget} is not a positive number of tokens")
            if budget not in out:
                out.append(budget)
    return out
