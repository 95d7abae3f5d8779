"""Judge ``seamcut compare`` runs made in parts as one run.

A compare of seven strategies on a large corpus can take longer than one machine is held (or be
spread over machines): each part runs some of the strategies on the same documents and
questions, writes its ``--json``, and ``merge_runs`` judges the strategies of all the parts
together, as one run over them all would: the best strategy, at k, at 1 and at the token budget,
against each other one, with the same paired tests. Nothing is searched again: every question's
rank at k and deep ranked list (``per_question``: ``rank``, ``deep_rank``, ``deep_tokens``) are in
each part's JSON, and each strategy's own figures (hits, MRR, builds, sizes) are kept as its part
wrote them.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..errors import ConfigError
from .compare import CompareResult, score_budgets
from .judge import Outcome, StrategyResult, comparisons
from .questions import Question
from .spans import Span

#: what every part must agree on to be judged as one run
SAME = ("k", "mode", "model", "depth")


def merge_runs(parts: Sequence[Mapping[str, Any]], budgets: Sequence[int] | None = None) -> dict[str, Any]:
    """One compare JSON from ``parts`` (each a ``seamcut compare --json`` result, strategies named
    once across them all), with its comparisons made again over every strategy. ``budgets``:
    tokens sent per question, as ``compare`` takes them (the first is the one "best" means; None:
    256, 512, 1024, 2048 and the median of the strategies' tokens per question at k). Raises
    ``ValueError`` naming what differs where the parts are not runs on the same questions with the
    same k, search mode, model and depth, or a part lacks the deep lists (written before they
    were kept)."""
    if not parts:
        raise ConfigError("no compare runs to merge")
    first = parts[0]
    for n, part in enumerate(parts[1:], 2):
        for key in SAME:
            if part[key] != first[key]:
                raise ConfigError(f"run {n} has {key} {part[key]!r}, run 1 {first[key]!r}")
    strategies = [s for part in parts for s in part["strategies"]]
    names = [s["name"] for s in strategies]
    if len(set(names)) < len(names):
        raise ConfigError(f"a strategy is in two runs: {', '.join(sorted({n for n in names if names.count(n) > 1}))}")
    asked = _asked(strategies[0])
    for s in strategies[1:]:
        if _asked(s) != asked:
            raise ConfigError(f"{s['name']} was judged on other questions than {strategies[0]['name']}")
    results = [_result(s) for s in strategies]
    questions = [o.question for o in results[0].outcomes + results[0].no_answer]
    answerable = [q for q in questions if q.answerable]
    k = int(first["k"])
    failures = _failures(parts)
    warnings = list(dict.fromkeys(w for part in parts for w in part["warnings"]))
    result = score_budgets(CompareResult(k, first["mode"], first["model"], questions, results,
                                         comparisons(results, answerable, k),
                                         max(int(part["documents"]) for part in parts), failures,
                                         comparisons_at_1=comparisons(results, answerable, 1),
                                         warnings=warnings, depth=int(first["depth"])), budgets)
    merged = result.to_json()
    merged["strategies"] = [{**s, "budgets": {str(b): r.at_budget(b).to_dict() for b in result.budgets}}
                            for s, r in zip(strategies, results)]
    return merged


def _failures(parts: Sequence[Mapping[str, Any]]) -> list[str]:
    """The parts' failure lines, each once; a line not in every part names the strategies of the
    part it came from (as ``compare`` names the strategy of a failure its first one did not have),
    unless it names one of them already."""
    out: list[str] = []
    for part in parts:
        names = [s["name"] for s in part["strategies"]]
        for f in part["failures"]:
            if not all(f in p["failures"] for p in parts) and not any(f.endswith(f" ({n})") for n in names):
                f = f"{f} ({', '.join(names)})"
            if f not in out:
                out.append(f)
    return out


def _asked(strategy: Mapping[str, Any]) -> list[str]:
    return [q["id"] for q in strategy["per_question"]] + [q["id"] for q in strategy["no_answer"]]


def _result(strategy: Mapping[str, Any]) -> StrategyResult:
    """A strategy's outcomes as the comparisons need them: each question's rank at k, the tokens
    its top k send, and its deep ranked list."""
    res = StrategyResult(strategy["name"], dict(strategy["options"]), int(strategy["chunks"]), [], 0.0, 0.0, 0.0)
    for key, into in (("per_question", res.outcomes), ("no_answer", res.no_answer)):
        for q in strategy[key]:
            if "deep_tokens" not in q:
                raise ConfigError(f"{strategy['name']}: the run has no deep ranked lists (written by an "
                                  "older seamcut); run it again")
            question = Question(q["id"], q["question"], tuple(q["must_contain"]), q.get("source"), q.get("page"),
                                tuple(Span(s["source"], s["start"], s["end"]) for s in q.get("spans", ())),
                                source_only=bool(q.get("source_only")))
            into.append(Outcome.from_record(question, [q["id"], q.get("rank"), sum(r["tokens"] for r in q["results"]),
                                                       q["deep_rank"], q["deep_tokens"]]))
    return res
