"""The Pareto front: the configurations no other one beats on every count at once (quality up,
cost down), so the trade-off between what a chunking finds and what it costs is in plain sight."""
from __future__ import annotations

from typing import Any, Mapping, Sequence


def dominates(a: Mapping[str, Any], b: Mapping[str, Any], maximise: Sequence[str],
              minimise: Sequence[str]) -> bool:
    """Whether ``a`` is at least as good as ``b`` on every key and better on one."""
    pairs = [(a[k], b[k]) for k in maximise] + [(-a[k], -b[k]) for k in minimise]
    return all(x >= y for x, y in pairs) and any(x > y for x, y in pairs)


def pareto_front(points: Sequence[Mapping[str, Any]],
                 maximise: Sequence[str] = ("hit_rate", "mrr"),
                 minimise: Sequence[str] = ("tokens_per_question", "index_bytes")) -> list[dict]:
    """The non-dominated ``points`` (dicts holding every key of ``maximise`` and ``minimise``), in
    their order. Points equal on every key are all kept."""
    return [dict(p) for p in points
            if not any(dominates(q, p, maximise, minimise) for q in points if q is not p)]
