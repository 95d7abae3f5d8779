"""What a ``seamcut tune`` search found (``TuneResult``, written by ``write_tune_json``): its
rounds and log, the points judged on every document, the winner as a ``seamcut index`` command
and the defaults tested against it, and the search's cost."""
from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Sequence

from ..strategies import DEFAULT_STRATEGY
from .judge import StrategyResult, tie_line
from .pareto import pareto_front
from .questions_check import QuestionsReport
from .significance import compare_hits
from .space import Candidate, Space
from .tune_judged import _Judged, winner

if TYPE_CHECKING:
    from .tune_rounds import _Search

#: the index folder the winner's command names
DB = "out/tuned.db"


@dataclass
class TuneResult:
    """What ``tune`` found, as ``to_json`` writes it (``seamcut tune --json``). ``documents``
    here: the files searched (paths, for the winner's command); ``failures``: files that could
    not be read (each with its reason)."""
    k: int
    model: str
    seed: int
    budget: int
    questions: dict[str, int]
    documents: list[str]
    space: Space
    rounds: list[dict[str, Any]]
    log: list[dict[str, Any]]
    points: list[dict[str, Any]]
    winner: dict[str, Any] | None
    defaults: list[dict[str, Any]]
    cost: dict[str, Any]
    docs_given: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    #: chunkings (of the space, or defaults) the model cannot take, by label, with the reason
    left_out: dict[str, str] = field(default_factory=dict)
    #: where candidates of one round were judged on different files (a file failed for some
    #: chunkings only), one line each
    warnings: list[str] = field(default_factory=list)
    #: the test set checked against the documents before the search
    questions_check: QuestionsReport | None = None
    #: how the winner was chosen (``judge.Pick.to_dict()``): the leader, the candidates tied with
    #: it within noise (the winner first) and what the winner won the tie on
    pick: dict[str, Any] | None = None
    #: how each question's search was filtered (``seamcut.evaluate.filtering.FILTERS``)
    filters: str = "none"

    @property
    def pareto(self) -> list[dict[str, Any]]:
        return pareto_front(self.points)

    def to_json(self) -> dict[str, Any]:
        """The result as plain data; hit rates as fractions 0..1, seconds wall-clock."""
        return {
            "k": self.k, "model": self.model, "seed": self.seed, "budget": self.budget, "filters": self.filters,
            "questions": dict(self.questions), "documents": len(self.documents),
            "space": {"chunkings": [s.label for s in self.space.chunkings], "modes": list(self.space.modes),
                      "candidates": len(self.space.candidates()), "dropped": self.space.dropped,
                      "source": self.space.source},
            "rounds": self.rounds, "log": self.log, "points": self.points, "pareto": self.pareto,
            "winner": self.winner, "defaults": self.defaults, "cost": self.cost,
            "left_out": [{"spec": label, "reason": why} for label, why in self.left_out.items()],
            "failures": list(self.failures), "warnings": self.warnings, "pick": self.pick,
            "questions_check": None if self.questions_check is None else self.questions_check.to_json(),
        }


def write_tune_json(result: TuneResult, path: str | Path) -> None:
    """``result.to_json()`` as a file."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(result.to_json(), ensure_ascii=False, indent=1), encoding="utf-8")


def tune_tie_line(data: dict[str, Any]) -> str | None:
    """A tune JSON's (``TuneResult.to_json()``) sentence saying its winner was a tie, with the
    group (``judge.tie_line``); None where it was not, or the JSON is older than ties."""
    return tie_line(data.get("pick"), f"hits within {data['budget']} tokens on the tune questions")


def _budget_fields(res: StrategyResult, budget: int) -> dict[str, Any]:
    at = res.at_budget(budget)
    return {"budget_hits": at.hits, "budget_hit_rate": at.hit_rate}


def _result(search: _Search, space: Space, scored: list[_Judged], budget: int, k: int, model: str,
            seed: int, paths: list[str], given: Sequence[str | Path], versus: list[Candidate],
            questions: dict[str, int],
            seconds: float, embedded: int, stopped: str | None, runs: int = 1) -> TuneResult:
    """The result from the last round judged: its points (tune and held-out figures), the front,
    the winner and the defaults against it."""
    for j in search.judged:  # every row scored at the budget, known only after round 1
        j.row.update(_budget_fields(j.tune, budget))
    defaults = {c.label for c in versus}
    points = [{**j.row, **_held_fields(j, budget), "default": j.label in defaults} for j in scored]
    choice = winner(scored, k, budget)
    best = next(j for j in scored if j.label == choice.chosen)
    versus = []
    for j in scored:
        if j.label in defaults:
            entry = _summary(j, budget, given, model)
            entry["comparison"] = (None if best.held is None or j.held is None or not best.held.outcomes
                                   else compare_hits(best.label, best.held.hits_within(budget), j.label,
                                                     j.held.hits_within(budget)).to_dict())
            versus.append(entry)
    # one `seamcut index` of the corpus: its default strategy, structure (or any full index judged)
    index_tokens = search.index_tokens.get(DEFAULT_STRATEGY) or next(iter(search.index_tokens.values()), 0)
    searching = embedded - search.versus_tokens
    cost = {"seconds": round(seconds, 3), "embedded_tokens": embedded, "index_tokens": index_tokens,
            "index_equivalents": round(embedded / index_tokens, 3) if index_tokens else None,
            "search_tokens": searching, "versus_tokens": search.versus_tokens,
            "search_index_equivalents": round(searching / index_tokens, 3) if index_tokens else None,
            "stopped_early": stopped, "runs": runs}
    read = [p for p in paths if not any(f.startswith(p) for f in search.failures)]
    return TuneResult(k, model, seed, budget, questions, read, space, search.rounds, search.log, points,
                      _summary(best, budget, given, model), versus, cost, [str(d) for d in given],
                      search.failures, warnings=search.warnings, pick=choice.to_dict(), filters=search.filters)


def _held_fields(j: _Judged, budget: int) -> dict[str, Any]:
    h = j.held
    if h is None or not h.outcomes:
        return {"held_out_hit_rate": None, "held_out_mrr": None, "held_out_budget_hit_rate": None}
    return {"held_out_hit_rate": h.hit_rate, "held_out_mrr": h.mrr,
            "held_out_budget_hit_rate": h.at_budget(budget).hit_rate}


def _summary(j: _Judged, budget: int, given: Sequence[str | Path], model: str) -> dict[str, Any]:
    """A candidate as the winner and the defaults are written: its spec as a command, and its
    tune and held-out figures."""
    held = _held_fields(j, budget)
    spec = j.candidate.spec.label
    docs = " ".join(shlex.quote(str(d)) for d in given) or "DOCS"
    flags = "" if model == "default" else f" --model {shlex.quote(model)}"
    return {"label": j.label, "spec": spec, "mode": j.candidate.mode,
            "command": f"seamcut index {docs} --db {shlex.quote(DB)} --strategy '{spec}'{flags}",
            "search": j.candidate.mode,
            "tune_hit_rate": j.tune.hit_rate, "held_out_hit_rate": held["held_out_hit_rate"],
            "tune_mrr": j.tune.mrr, "held_out_mrr": held["held_out_mrr"],
            "tune_budget_hit_rate": j.tune.at_budget(budget).hit_rate,
            "held_out_budget_hit_rate": held["held_out_budget_hit_rate"],
            "tokens_per_question": round(j.tune.tokens_per_question, 1), "index_bytes": j.index_bytes,
            "index": None if j.folder is None else str(j.folder)}
