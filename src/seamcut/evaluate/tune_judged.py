"""One candidate of a ``seamcut tune`` search judged in one round: its record (``_Judged``), what
"best" sorts by (``quality``), the winner of a round (``winner``: a lead within noise is a tie),
its tune and held-out parts (``_split``) and its line in the log (``_row``)."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Sequence

from .judge import Pick, StrategyResult, pick, ranking, simplicity
from .questions import Question
from .space import Candidate


@dataclass
class _Judged:
    """One candidate judged in one round: on the round's tune questions, and in the final round
    on the held-out ones too (None before)."""
    candidate: Candidate
    tune: StrategyResult
    held: StrategyResult | None
    index_bytes: int
    seconds: float
    folder: Path | None = None  # the index it was searched in
    row: dict[str, Any] = field(default_factory=dict)  # its line in the log
    files: int = 0  # the files its index holds (fewer than the round's where a file failed)

    @property
    def label(self) -> str:
        return self.candidate.label


def quality(res: StrategyResult, k: int, budget: int | None) -> tuple[float, ...]:
    """What "best" sorts by: most hits within ``budget`` tokens, then MRR within it, then the
    fewest tokens sent per question at ``k`` (equal quality: the cheaper wins)."""
    return (*ranking(k, budget)(res), -res.tokens_per_question)


def winner(judged: Sequence[_Judged], k: int, budget: int) -> Pick:
    """The best of ``judged`` (one round's candidates, on the same tune questions) by hits within
    ``budget`` tokens, then MRR; where the paired test cannot tell other ones' hits from the
    leader's, the tie goes to the one sending fewer tokens per question at ``k`` (at least
    ``judge.CHEAPER`` fewer), then the default search mode, the default strategy, the fewest
    options set (``judge.pick``)."""
    by_label = {j.label: j.candidate for j in judged}

    def simpler(res: StrategyResult) -> tuple[int, int, int]:
        c = by_label[res.name]
        return simplicity(c.spec.name, len(c.spec.options), c.mode)
    return pick([j.tune for j in judged], k, budget, simpler)


def _split(c: Candidate, res: StrategyResult, asked: int, held: list[Question], size: int, seconds: float,
           folder: Path, files: int) -> _Judged:
    """A candidate judged on the ``asked`` tune questions then the ``held`` ones (one result)."""
    tune_part = dataclasses.replace(res, outcomes=res.outcomes[:asked])
    held_part = dataclasses.replace(res, outcomes=res.outcomes[asked:]) if held else None
    return _Judged(c, tune_part, held_part, size, seconds, folder, files=files)


def _row(j: _Judged, documents: int) -> dict[str, Any]:
    """A log row (without round, kept and dropped; the budget's fields once it is known): the
    candidate's scores on its tune questions."""
    t = j.tune
    return {"label": j.label, "spec": j.candidate.spec.label, "mode": j.candidate.mode,
            "documents": j.files or documents, "questions": len(t.outcomes), "hits": t.hits,
            "hit_rate": t.hit_rate, "hits_at_1": sum(o.rank == 1 for o in t.outcomes), "mrr": t.mrr,
            "budget_hits": None, "budget_hit_rate": None,
            "tokens_per_question": round(t.tokens_per_question, 1), "chunks": t.chunks,
            "index_bytes": j.index_bytes, "index": None if j.folder is None else str(j.folder),
            "seconds": round(j.seconds, 3)}
