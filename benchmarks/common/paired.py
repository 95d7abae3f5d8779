"""A compare run's hits at a budget, per question, and the paired test of two strategies on them:
what the benchmarks' tables put in their interval and p columns.

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "common"))
    from paired import hits_within, interval, paired_cell
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))
from seamcut.evaluate.budget import Ranked  # noqa: E402
from seamcut.evaluate.significance import bootstrap_difference, mcnemar_exact  # noqa: E402


def hits_within(strategy: dict[str, Any], budget: int) -> dict[str, bool]:
    """Per question id: whether the answer was sent within ``budget`` tokens."""
    return {q["id"]: Ranked(tuple(q["deep_tokens"]), q["deep_rank"]).rank_within(budget) is not None
            for q in strategy["per_question"] if q.get("deep_tokens") is not None}


def interval(hits: list[bool]) -> str:
    """The 95% bootstrap interval of a hit rate (questions resampled), in percent."""
    lo, hi = bootstrap_difference([float(h) for h in hits], [0.0] * len(hits))
    return f"{lo:.0%}-{hi:.0%}"


def paired_cell(base: dict[str, Any], other: dict[str, Any], budget: int) -> str:
    """``other`` against ``base`` on the questions hit within ``budget`` tokens: McNemar's exact p,
    the questions only each hits (+ other's, - base's) and the 95% bootstrap interval of the
    difference in hit rate."""
    a, b = hits_within(base, budget), hits_within(other, budget)
    only_base = sum(a[q] and not b.get(q, False) for q in a)
    only_this = sum(b[q] and not a.get(q, False) for q in b)
    ids = sorted(a)
    lo, hi = bootstrap_difference([float(b.get(q, False)) for q in ids], [float(a[q]) for q in ids])
    return f"{mcnemar_exact(only_base, only_this):.2f} (+{only_this} / -{only_base}; {lo:+.0%} to {hi:+.0%})"
