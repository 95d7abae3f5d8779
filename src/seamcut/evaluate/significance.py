"""Is one strategy really better than another on the same questions? Paired tests on hit/miss.

With 40 questions, 34 hits against 37 can be chance: the two strategies agree on most questions,
and only the questions where they disagree carry evidence. The exact McNemar test counts those
(``b``: the first hits and the second misses; ``c``: the other way round) and asks how likely a
split that uneven is if either were equally likely to win each; the bootstrap resamples the
questions to give an interval for the difference in hit rate.
"""
from __future__ import annotations

from dataclasses import dataclass
from math import comb
from typing import Sequence

import numpy as np

from ..errors import ConfigError


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value for ``b`` and ``c`` discordant pairs (binomial, p = 1/2)."""
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(comb(n, i) for i in range(min(b, c) + 1)) / 2 ** n
    return min(1.0, 2 * tail)


def bootstrap_difference(a: Sequence[float], b: Sequence[float], *, rounds: int = 10_000,
                         level: float = 0.95, seed: int = 0) -> tuple[float, float]:
    """A percentile bootstrap interval for mean(a) - mean(b), resampling questions (pairs kept
    together): hit rates where ``a``/``b`` are hits (booleans), or any per-question score (span
    recall, IoU, as fractions); ``level`` is the interval's coverage, ``seed`` makes it
    repeatable."""
    if len(a) != len(b):
        raise ConfigError("both strategies must be scored on the same questions")
    if not a:
        return (0.0, 0.0)
    diff = np.asarray(a, dtype=np.float64) - np.asarray(b, dtype=np.float64)
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, len(diff), size=(rounds, len(diff)))
    means = diff[idx].mean(axis=1)
    lo, hi = np.quantile(means, [(1 - level) / 2, 1 - (1 - level) / 2])
    return float(lo), float(hi)


@dataclass(frozen=True)
class Comparison:
    """``best`` against ``other`` on the same questions: hit counts, the discordant pairs, the
    exact McNemar p-value, and a bootstrap interval for the difference in hit rate (best - other)."""
    best: str
    other: str
    best_hits: int
    other_hits: int
    only_best: int
    only_other: int
    p_value: float
    ci_low: float
    ci_high: float
    level: float = 0.95

    @property
    def significant(self) -> bool:
        """The p-value is under 1 - level and the interval leaves out 0."""
        return self.p_value < 1 - self.level and (self.ci_low > 0 or self.ci_high < 0)

    def verdict(self) -> str:
        """One line a person can act on."""
        if self.best_hits == self.other_hits and self.only_best == self.only_other:
            return f"{self.other} ties {self.best}"
        if self.significant:  # "best" was chosen elsewhere (tune: on other questions): either way
            winner, loser = ((self.best, self.other) if self.ci_low > 0 else (self.other, self.best))
            return f"{winner} beats {loser} (p = {self.p_value:.3g})"
        return (f"{self.best} vs {self.other}: the difference may be noise (p = {self.p_value:.2g}; "
                f"{self.level:.0%} interval {self.ci_low:+.1%} to {self.ci_high:+.1%})")

    def to_dict(self) -> dict:
        return {"best": self.best, "other": self.other, "best_hits": self.best_hits,
                "other_hits": self.other_hits, "only_best": self.only_best,
                "only_other": self.only_other, "p_value": self.p_value,
                "ci": [self.ci_low, self.ci_high], "level": self.level,
                "significant": self.significant, "verdict": self.verdict()}


def compare_hits(best: str, best_hits: Sequence[bool], other: str, other_hits: Sequence[bool],
                 *, level: float = 0.95, seed: int = 0) -> Comparison:
    """The paired comparison of two strategies' hit/miss lists over the same questions."""
    if len(best_hits) != len(other_hits):
        raise ConfigError("both strategies must be scored on the same questions")
    only_best = sum(1 for x, y in zip(best_hits, other_hits) if x and not y)
    only_other = sum(1 for x, y in zip(best_hits, other_hits) if y and not x)
    lo, hi = bootstrap_difference(best_hits, other_hits, level=level, seed=seed)
    return Comparison(best, other, sum(best_hits), sum(other_hits), only_best, only_other,
                      mcnemar_exact(only_best, only_other), lo, hi, level)
