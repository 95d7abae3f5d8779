"""``seamcut tune``: search a space of chunkings and search modes for the one that serves your
questions best, with its cost in plain sight.

Deterministic and LLM-free: every configuration is judged by the frozen questions (answer text or
reference spans), hits at k, MRR and hits within a budget of tokens sent (``budget``), so the
same inputs and seed give the same result. The questions are split once, seeded, into a tune
part and a held-out part (stratified by the questions' language); the search sees only the tune
part, and the winner, each default and each final point are also scored on the held-out part.

The search is successive halving. Round 1 judges every candidate on a sample of the tune
questions and the documents that hold their answers, with a seeded sample of the others; each
later round grows the questions and documents by ``eta``. The cut is by chunking, since a
round's cost is its chunkings' builds and a search mode costs nothing beside them: a chunking
is ranked by its best candidate (most hits within the budget, then MRR), the best 1/``eta``
chunkings go on with every mode, and a chunking whose best the round's leader beats by more
than noise goes at once (paired exact McNemar test and bootstrap interval,
``significance.compare_hits``). The final round judges, on every document and question, the
chunkings of the last round's best few in every mode, and every registered strategy's
defaults (hybrid search).

A chunking's index is built once per round and searched in each mode; an index grows from round
to round (the last round's folder copied and the added files indexed into it, nothing cut or
embedded again), and one ``CachedEmbedder`` means no text is embedded twice, across rounds,
chunkings and runs. Folders are kept per document set, so a second run finds every round's
index as it left it and only searches. A search stopped before its end (killed, the machine
gone) is resumed by the next run of it: its indexes resume where they stopped, and its cost so
far (tokens embedded, seconds), kept in the folder's journal (``tune_journal``), is carried on
into the result's ``cost``, whose ``runs`` says how many runs the search took.
"""
from __future__ import annotations

import dataclasses
import json
import math
import random
import shlex
import shutil
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

from ..embed import Embedder
from ..index import Index
from ..pipeline.catalog import Catalog
from ..pipeline.corpus import Limits, ReadOptions
from ..pipeline.engine import Engine
from ..pipeline.local import LocalEngine
from ..progress import Steps
from ..readers import expand
from ..strategies import REGISTRY
from ..strategies.spec import StrategySpec, parse_spec
from .budget import default_budget
from .compare import (Digests, Outcome, StrategyResult, _code_version, _inputs, chunk_tokens, different_files,
                      index_files, judge, missing_files, plain_options, ranking)
from .pareto import pareto_front
from .questions import Question, source_matches
from .significance import compare_hits
from .space import Candidate, Space, default_space, over_model
from .tune_journal import Journal, Spent

#: the fewest tune questions a halving round is judged on (or all, where there are fewer)
MIN_QUESTIONS = 8
#: the index folder the winner's command names
DB = "out/tuned.db"


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

    @property
    def pareto(self) -> list[dict[str, Any]]:
        return pareto_front(self.points)

    def to_json(self) -> dict[str, Any]:
        """The result as plain data; hit rates as fractions 0..1, seconds wall-clock."""
        return {
            "k": self.k, "model": self.model, "seed": self.seed, "budget": self.budget,
            "questions": dict(self.questions), "documents": len(self.documents),
            "space": {"chunkings": [s.label for s in self.space.chunkings], "modes": list(self.space.modes),
                      "candidates": len(self.space.candidates()), "dropped": self.space.dropped,
                      "source": self.space.source},
            "rounds": self.rounds, "log": self.log, "points": self.points, "pareto": self.pareto,
            "winner": self.winner, "defaults": self.defaults, "cost": self.cost,
            "left_out": [{"spec": label, "reason": why} for label, why in self.left_out.items()],
            "failures": list(self.failures), "warnings": self.warnings,
        }


def write_tune_json(result: TuneResult, path: str | Path) -> None:
    """``result.to_json()`` as a file."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(result.to_json(), ensure_ascii=False, indent=1), encoding="utf-8")


def split_questions(questions: Sequence[Question], held_out: float, seed: int
                    ) -> tuple[list[Question], list[Question]]:
    """The questions split once into a tune part and a held-out part (``held_out``: the share
    held out, 0 <= held_out < 1), stratified by the language of the question text: the
    ``round(n * held_out)`` held out are shared among the languages in proportion (largest
    remainders first), each language's drawn by its own seeded shuffle; each part in the given
    order."""
    from ..language import detect

    if not 0 <= held_out < 1:
        raise ValueError(f"held-out share must be at least 0 and below 1; got {held_out!r}")
    groups: dict[str, list[int]] = {}
    for i, q in enumerate(questions):
        groups.setdefault(detect(q.question) or "", []).append(i)
    total = min(round(len(questions) * held_out), len(questions) - 1)
    quota = {lang: len(m) * held_out for lang, m in groups.items()}
    counts = {lang: math.floor(v) for lang, v in quota.items()}
    for lang in sorted(quota, key=lambda g: (counts[g] - quota[g], g))[:max(0, total - sum(counts.values()))]:
        counts[lang] += 1
    held: set[int] = set()
    for language in sorted(groups):
        members = groups[language]
        random.Random(f"{seed}:{language}").shuffle(members)
        held.update(members[:counts[language]])
    return ([q for i, q in enumerate(questions) if i not in held],
            [q for i, q in enumerate(questions) if i in held])


def _over_model(specs: Sequence[StrategySpec], model: str) -> dict[str, str]:
    """The chunkings among ``specs`` that ``model`` cannot take (``space.over_model``), by label."""
    left_out: dict[str, str] = {}
    for spec in specs:
        why = None if spec.label in left_out else over_model(spec, model)
        if why:
            left_out[spec.label] = why
    return left_out


def default_candidates(names: Sequence[str] | None = None) -> list[Candidate]:
    """Strategies with their defaults, searched hybrid: what the winner is tested against
    (``names``; None: every registered strategy)."""
    return [Candidate(parse_spec(name), "hybrid") for name in (REGISTRY if names is None else names)]


def quality(res: StrategyResult, k: int, budget: int | None) -> tuple[float, ...]:
    """What "best" sorts by: most hits within ``budget`` tokens, then MRR within it, then the
    fewest tokens sent per question at ``k`` (equal quality: the cheaper wins)."""
    return (*ranking(k, budget)(res), -res.tokens_per_question)


@dataclass
class _Plan:
    """The rounds' sizes: tune questions and documents per halving round (nested prefixes of
    seeded orders), then the final round on everything."""
    questions: list[Question]          # the tune questions in their seeded order
    documents: list[str]               # every file in a seeded order
    halving: int                       # halving rounds before the final one
    eta: int = 3

    def round_questions(self, r: int) -> list[Question]:
        """Tune questions of halving round ``r`` (1-based): a 1/eta^(rounds left) share, at least
        ``MIN_QUESTIONS``."""
        share = self.share(r)
        n = max(min(MIN_QUESTIONS, len(self.questions)), math.ceil(len(self.questions) * share))
        return self.questions[:n]

    def share(self, r: int) -> float:
        """The share of questions and documents round ``r`` sees: 1/eta per round left."""
        return float(self.eta) ** -(self.halving - r + 1)

    def round_documents(self, r: int, asked: Sequence[Question]) -> list[str]:
        """The files that hold ``asked``'s answers and a share of the others (all files where a
        question names no file: its answer could be anywhere)."""
        named = [s for q in asked for s in [q.source, *(sp.source for sp in q.spans)] if s]
        if any(not (q.source or q.spans) for q in asked):
            return sorted(self.documents)
        holding = {d for d in self.documents if any(source_matches(s, d) for s in named)}
        n = math.ceil(len(self.documents) * self.share(r))
        return sorted(holding | set(self.documents[:n]))


def tune(documents: Sequence[str | Path], questions: Sequence[Question], *, embedder: Embedder,
         workdir: str | Path, space: Space | None = None, k: int = 4, model: str = "default",
         seed: int = 0, held_out: float = 0.3, eta: int = 3, token_budget: int | None = None,
         minutes: float | None = None, exhaustive: bool = False, finalists: int = 3,
         defaults: Sequence[str] | None = None, progress: bool = True,
         read_options: ReadOptions = ReadOptions(), catalog: Catalog | None = None,
         limits: Limits = Limits()) -> TuneResult:
    """Search ``space`` (default: ``default_space()``) for the chunking and search mode that
    serve ``questions`` best over ``documents`` (files and folders), indexes under
    ``workdir/index/SPEC/DOCUMENT-SET`` and the search's journal in ``workdir`` (a stopped
    search is resumed by the next call with the same ``workdir`` and arguments).

    ``held_out``: the share of the answerable questions held out (seeded by ``seed``); ``eta``:
    how much each round grows and cuts; ``token_budget``: tokens sent per question "best" is
    judged at (None: the median tokens per question at ``k`` of the round-1 candidates);
    ``minutes``: wall-clock time allowed (None: no limit): rounds are planned from the time the
    last one took, and where time runs out the search stops and reports the best so far, with
    ``cost["stopped_early"]`` saying what was not done (a resumed search's earlier runs count
    against it); ``exhaustive``: every candidate on every
    document and tune question in one round; ``finalists``: how many of the last halving round's
    best candidates bring their chunking (every mode) to the final round; ``defaults``: the
    strategies whose defaults (hybrid) reach the final round and are tested against the winner
    (None: every registered one). ``embedder`` embeds every chunk and
    query: give it a cache so nothing is embedded twice (``load_embedder(..., cache=True)``).

    Raises ``ValueError`` for no documents, no answerable question, a held-out share outside
    [0, 1), ``eta`` under 2 or a budget that is not positive.
    """
    started = time.perf_counter()
    if token_budget is not None and token_budget < 1:
        raise ValueError(f"token budget: {token_budget} is not a positive number of tokens")
    if minutes is not None and minutes <= 0:
        raise ValueError(f"time budget: {minutes} is not a positive number of minutes")
    setup = _set_up(documents, questions, space, model, seed, held_out, eta, exhaustive, finalists, defaults)
    space, versus, left_out, paths = setup.space, setup.versus, setup.left_out, setup.paths
    tune_qs, held_qs, candidates, schedule = setup.tune_qs, setup.held_qs, setup.candidates, setup.plan
    halving = schedule.halving
    journal = Journal(Path(workdir), _search_key(setup, k, model, seed, held_out, eta, exhaustive, finalists,
                                                 token_budget, read_options))
    deadline = None if minutes is None else started + 60 * minutes - journal.earlier_seconds
    search = _Search(Path(workdir), embedder, model, k, read_options, catalog, limits, progress, deadline, journal)
    search.every = len(paths)
    before = search.embedded_tokens()

    # the reading workers are started once for every build; the journal records each batch of
    # vectors computed
    with LocalEngine().series(limits, len(paths)) as search.engine, _recording(embedder, search.record):
        budget = token_budget
        previous: list[_Judged] = []
        alive = candidates
        stopped: str | None = None
        to_final = True
        for r in range(1, halving + 1):
            asked = schedule.round_questions(r)
            if r > 1 and search.too_slow(alive, asked, halving - r + 2):
                stopped = (f"the time budget of {minutes:g} min would run out: halving rounds {r} to "
                           f"{halving} were skipped, the final round judged round {r - 1}'s best")
                break
            judged, done = search.round(r, alive, schedule.round_documents(r, asked), asked, [])
            if budget is None and judged:
                budget = default_budget(j.tune.tokens_per_question for j in judged) or 1
            if not done:
                stopped = (f"the time budget of {minutes:g} min ran out in round {r} ({len(judged)} of "
                           f"{len(alive)} candidates judged): the later rounds and the held-out "
                           "scoring were not done; the best so far is reported")
                previous = previous or judged
                to_final = False
                break
            assert budget is not None
            alive = search.cut(judged, budget, eta)
            previous = judged
        final: list[_Judged] = []
        if to_final:
            chosen, searched = _finalists(candidates, previous, alive, budget, k, finalists, versus)
            final, done = search.round(halving + 1, chosen, sorted(paths), tune_qs, held_qs)
            only_versus = {c.spec.label for c in chosen} - {c.spec.label for c in chosen if c.label in searched}
            search.versus_tokens = sum(search.chunking_tokens.get((halving + 1, label), 0) for label in only_versus)
            if budget is None:
                budget = default_budget(j.tune.tokens_per_question for j in final) or 1
            if not done:
                stopped = (f"the time budget of {minutes:g} min ran out in the final round "
                           f"({len(final)} of {len(chosen)} candidates judged on every document)")
    scored = final or previous
    if not scored:
        raise ValueError(f"the time budget of {minutes:g} min ran out before one candidate was judged")
    assert budget is not None
    result = _result(search, space, scored, budget, k, model, seed, paths, documents, versus,
                     {"tune": len(tune_qs), "held_out": len(held_qs),
                      "no_answer": len(questions) - len(tune_qs) - len(held_qs)},
                     time.perf_counter() - started + journal.earlier_seconds,
                     search.embedded_tokens() - before + journal.earlier_tokens, stopped, journal.runs)
    result.left_out = left_out
    journal.finish()
    return result


@dataclass
class _SetUp:
    """What a search is planned from: the space (less what the model cannot take), the
    defaults, the files, the split questions, the candidates and the rounds' sizes."""
    space: Space
    versus: list[Candidate]
    left_out: dict[str, str]
    paths: list[str]
    tune_qs: list[Question]
    held_qs: list[Question]
    candidates: list[Candidate]
    plan: _Plan


def _set_up(documents: Sequence[str | Path], questions: Sequence[Question], space: Space | None, model: str,
            seed: int, held_out: float, eta: int, exhaustive: bool, finalists: int,
            defaults: Sequence[str] | None) -> _SetUp:
    """The search's inputs checked and its rounds planned (``tune``'s arguments)."""
    space = space or default_space()
    if eta < 2:
        raise ValueError(f"eta must be at least 2; got {eta}")
    versus = default_candidates(defaults)  # an unknown name stops before any work
    left_out = _over_model([*space.chunkings, *(c.spec for c in versus)], model)
    if left_out:
        space = dataclasses.replace(space, chunkings=tuple(s for s in space.chunkings if s.label not in left_out))
        versus = [c for c in versus if c.spec.label not in left_out]
        if not space.chunkings:
            raise ValueError("no chunking of the space fits the model: "
                             + "; ".join(f"{label}: {why}" for label, why in left_out.items()))
    paths = [str(f) for f in expand(list(documents))]
    if not paths:
        raise ValueError(f"no documents to tune on in {', '.join(map(str, documents))}")
    answerable = [q for q in questions if q.answerable]
    tune_qs, held_qs = split_questions(answerable, held_out, seed)
    if not tune_qs:
        raise ValueError("no answerable question to tune on")
    order = list(tune_qs)
    random.Random(f"{seed}:questions").shuffle(order)
    files = sorted(paths)
    random.Random(f"{seed}:documents").shuffle(files)
    candidates = space.candidates()
    halving = 0 if exhaustive else _halving_rounds(len(candidates), len(tune_qs), finalists, eta)
    return _SetUp(space, versus, left_out, paths, tune_qs, held_qs, candidates, _Plan(order, files, halving, eta))


def plan(documents: Sequence[str | Path], questions: Sequence[Question], *, space: Space | None = None,
         model: str = "default", seed: int = 0, held_out: float = 0.3, eta: int = 3,
         exhaustive: bool = False, finalists: int = 3,
         defaults: Sequence[str] | None = None) -> dict[str, Any]:
    """The rounds ``tune`` with these arguments would run, known before anything is read or
    embedded: per round the tune questions, the documents (the same lists ``tune`` takes) and
    the candidates, and what the builds cost in **corpus builds**: one is every document cut
    and embedded once by one chunking, about one ``seamcut index`` (chunkings of smaller
    chunks or more overlap embed more tokens a document, so it is an estimate).

    A cut keeps the best 1/``eta`` chunkings (every mode of each), fewer where the paired test
    drops some, so each round after the first is a range: ``high`` when none is dropped,
    ``low`` when only the leader's chunking is left; a round after the first builds only the
    documents it adds (an index grows from its last round's). The final round's ``search`` is
    the chunkings of its best ``finalists`` (grown), ``versus`` the defaults the winner is
    tested against: a whole build each, but those in the space may be among the searched
    (``low``)."""
    setup = _set_up(documents, questions, space, model, seed, held_out, eta, exhaustive, finalists, defaults)
    p, every = setup.plan, len(setup.paths)
    modes, chunkings = len(setup.space.modes), len(setup.space.chunkings)
    rounds: list[dict[str, Any]] = []
    most, built = chunkings, 0  # chunkings judged at most, documents built
    for r in range(1, p.halving + 1):
        asked = p.round_questions(r)
        docs = len(p.round_documents(r, asked))
        grown = (docs - built) / every
        fewest = most if r == 1 else 1
        rounds.append({"round": r, "questions": len(asked), "documents": docs, "candidates": most * modes,
                       "chunkings": [fewest, most], "low": round(fewest * grown, 3), "high": round(most * grown, 3)})
        built, most = docs, math.ceil(most / eta)
    grown = (every - built) / every
    space_labels = {s.label for s in setup.space.chunkings}
    defaults_all = {c.spec.label for c in setup.versus}
    outside, inside = len(defaults_all - space_labels), len(defaults_all & space_labels)
    if p.halving:
        searched = [1, min(finalists, most)]
        search = [searched[0] * grown, searched[1] * grown]
        # a default of the space was judged in round 1 at least: its index grows from there
        rest = 1 - rounds[0]["documents"] / every
        versus = [outside + max(0, inside - searched[1]) * rest, outside + inside * rest]
    else:  # every candidate on everything, in one round: the defaults of the space among them
        searched, search = [chunkings, chunkings], [float(chunkings)] * 2
        versus = [float(outside)] * 2
    final = {"round": p.halving + 1, "questions": len(setup.tune_qs), "held_out": len(setup.held_qs),
             "documents": every, "chunkings": searched, "search": [round(x, 3) for x in search],
             "defaults": len(defaults_all), "versus": [round(x, 3) for x in versus]}
    low = sum(r["low"] for r in rounds) + search[0]
    high = sum(r["high"] for r in rounds) + search[1]
    return {"documents": every, "questions": {"tune": len(setup.tune_qs), "held_out": len(setup.held_qs)},
            "candidates": len(setup.candidates), "chunkings": chunkings, "rounds": rounds, "final": final,
            "search": [round(low, 2), round(high, 2)],
            "total": [round(low + versus[0], 2), round(high + versus[1], 2)],
            "left_out": setup.left_out}


@contextmanager
def _recording(embedder: Embedder, record: Callable[[], None]) -> Iterator[None]:
    """``record`` called after each batch ``embedder`` computes (a ``CachedEmbedder``; others
    have no counter to record)."""
    if not hasattr(embedder, "on_computed"):
        yield
        return
    embedder.on_computed = record
    try:
        yield
    finally:
        embedder.on_computed = None


def _search_key(setup: _SetUp, k: int, model: str, seed: int, held_out: float, eta: int, exhaustive: bool,
                finalists: int, token_budget: int | None, read_options: ReadOptions) -> str:
    """What makes two runs the same search, for the journal: the files, the questions and the
    settings (not the time budget: a stopped search may be resumed with another)."""
    import hashlib
    parts = [sorted(setup.paths), [(q.id, q.question) for q in setup.tune_qs + setup.held_qs],
             [c.label for c in setup.candidates], [c.label for c in setup.versus],
             [k, model, seed, held_out, eta, exhaustive, finalists, token_budget, repr(read_options)]]
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _halving_rounds(n: int, questions: int, finalists: int, eta: int) -> int:
    """How many halving rounds: the cuts by ``eta`` that bring ``n`` candidates down to
    ``finalists``, but no more than the rounds whose questions still grow by ``eta`` from
    ``MIN_QUESTIONS`` (a round on the same questions as the one before would only repeat it)."""
    cuts = 0
    while n > max(1, finalists):
        n = math.ceil(n / eta)
        cuts += 1
    growing = 1
    while questions >= MIN_QUESTIONS * eta ** growing:
        growing += 1
    return min(cuts, growing)


def _finalists(space: list[Candidate], previous: list[_Judged], alive: list[Candidate],
               budget: int | None, k: int, finalists: int,
               defaults: list[Candidate]) -> tuple[list[Candidate], set[str]]:
    """The final round's candidates: every mode of the chunkings of the best ``finalists``
    still in (a mode costs no build), and every strategy's defaults, hybrid (in the space's
    order, the defaults outside it after); and the labels the search chose (the rest are there
    only to be tested against)."""
    if not previous:  # no halving round: everything, on everything
        chosen = {c.label for c in alive}
    else:
        still = {c.label for c in alive}
        best = sorted([j for j in previous if j.label in still], key=lambda j: quality(j.tune, k, budget),
                      reverse=True)[:finalists]
        chunkings = {j.candidate.spec.label for j in best}
        chosen = {c.label for c in alive if c.spec.label in chunkings}
    searched = set(chosen)
    chosen |= {c.label for c in defaults}
    out = [c for c in space if c.label in chosen]
    return out + [c for c in defaults if c.label not in {o.label for o in out}], searched


class _Search:
    """Builds the rounds' indexes and judges candidates on them, keeping the log."""

    def __init__(self, work: Path, embedder: Embedder, model: str, k: int, read_options: ReadOptions,
                 catalog: Catalog | None, limits: Limits, progress: bool, deadline: float | None,
                 journal: Journal) -> None:
        self.work, self.embedder, self.model, self.k = work, embedder, model, k
        self.journal = journal
        self.read_options, self.catalog, self.limits = read_options, catalog, limits
        self.progress, self.deadline = progress, deadline
        self.folders: dict[str, Path] = {}        # chunking label -> its last round's index folder
        self.log: list[dict[str, Any]] = []
        self.rounds: list[dict[str, Any]] = []
        self.failures: list[str] = []
        self.index_tokens: dict[str, int] = {}    # chunking label -> tokens of its full index
        self.every = 0                            # how many files the corpus has
        self.rate: float | None = None            # seconds per candidate and question, last round
        self.judged: list[_Judged] = []           # every candidate judged, a log row each
        self.engine: Engine = LocalEngine()       # where every build runs (its reading workers shared)
        self.cut_tokens = 0                       # model tokens strategies embedded while cutting
        self.chunking_tokens: dict[tuple[int, str], int] = {}  # (round, chunking) -> tokens its build embedded
        self.versus_tokens = 0                    # the final round's tokens for chunkings only the defaults brought
        self.warnings: list[str] = []              # rounds whose candidates were judged on different files
        self.missing: dict[str, list[str]] = {}    # chunking label -> the files its last build lacks

    def embedded_tokens(self) -> int:
        """The model tokens embedded so far: the chunks' and queries' (this process's embedder)
        and the sentences ``semantic`` embedded in the cutting workers."""
        return getattr(self.embedder, "computed_tokens", 0) + self.cut_tokens

    def record(self) -> None:
        """The work so far, in the journal."""
        self.journal.progress(self.embedded_tokens())

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline

    def too_slow(self, alive: list[Candidate], asked: list[Question], rounds_left: int) -> bool:
        """Whether the rounds left (each about as costly as this one would be) would overrun."""
        if self.deadline is None or self.rate is None:
            return False
        estimate = self.rate * len(alive) * len(asked) * rounds_left
        return time.perf_counter() + estimate > self.deadline

    def round(self, number: int, candidates: list[Candidate], docs: list[str], asked: list[Question],
              held: list[Question]) -> tuple[list[_Judged], bool]:
        """Every candidate judged on ``asked`` (and ``held``) over the files ``docs``; whether
        the round was finished (False: the time budget ran out)."""
        t0 = time.perf_counter()
        tokens0 = self.embedded_tokens()
        carried = Spent()  # what earlier runs of this search spent on this round
        chunkings: dict[str, list[Candidate]] = {}
        for c in candidates:
            chunkings.setdefault(c.spec.label, []).append(c)
        digests = Digests(docs)
        judged: list[_Judged] = []
        done = True
        with Steps(len(chunkings), f"round {number}: {len(candidates)} candidates, {len(docs)} documents, "
                                   f"{len(asked)} questions", self.progress) as bar:
            for label, group in chunkings.items():
                if self.out_of_time() and (judged or self.judged):  # one chunking at least
                    done = False
                    break
                piece = f"round {number}: {label}"
                earlier = self.journal.carried(piece)
                kept = self._kept(piece, group, docs, asked, held, digests)
                if kept is not None:  # an earlier run finished it: its results, nothing built
                    judged += kept
                    self.chunking_tokens[(number, label)] = earlier.tokens
                else:
                    self.journal.start(piece, self.embedded_tokens())
                    done_here, results = self._chunking(group[0].spec, group, docs, asked, held, digests,
                                                        earlier.seconds)
                    judged += done_here
                    self.chunking_tokens[(number, label)] = self.journal.done(self.embedded_tokens(), results).tokens
                carried = Spent(carried.tokens + earlier.tokens, carried.seconds + earlier.seconds)
                bar.advance(label=label)
        seconds = time.perf_counter() - t0 + carried.seconds
        self._same_files(number, docs, judged)
        if judged:
            self.rate = seconds / (len(judged) * max(1, len(asked) + len(held)))
        self.rounds.append({"round": number, "documents": len(docs), "questions": len(asked),
                            "candidates": len(candidates), "kept": len(judged),  # until the cut
                            "seconds": round(seconds, 3),
                            "embedded_tokens": self.embedded_tokens() - tokens0 + carried.tokens})
        for j in judged:
            j.row = {"round": number, **_row(j, len(docs)),
                     "chunking_tokens": self.chunking_tokens.get((number, j.candidate.spec.label), 0),
                     "kept": True, "dropped": None}
            self.log.append(j.row)
            self.judged.append(j)
        return judged, done

    def _chunking(self, spec: StrategySpec, group: list[Candidate], docs: list[str],
                  asked: list[Question], held: list[Question], digests: Digests,
                  earlier: float = 0.0) -> tuple[list[_Judged], dict[str, Any]]:
        """One chunking's index over ``docs`` (grown from its last round's), searched in each
        mode of ``group``; ``earlier``: seconds earlier runs of the search spent on it. Returns
        the candidates judged and what the journal keeps of them (``_kept`` reads it)."""
        t0 = time.perf_counter() - earlier
        folder = self.work / "index" / spec.slug / _docset(docs)
        last = self.folders.get(spec.label)
        if last is not None and last != folder and last.is_dir() and not folder.exists():
            # grown, not rebuilt: only the added files are indexed; copied whole or not at all
            partial = folder.with_name(folder.name + ".copying")
            shutil.rmtree(partial, ignore_errors=True)
            shutil.copytree(last, partial)
            partial.rename(folder)
        index, report, _ = index_files(folder, spec, spec.options, docs, self.embedder, self.model,
                                       self.read_options, self.catalog, self.limits, self.progress, digests,
                                       self.engine)
        self.folders[spec.label] = folder
        self.cut_tokens += report.cut_tokens
        for f in map(str, report.failures):
            if f not in self.failures:
                self.failures.append(f)
        if not index.files:
            raise ValueError(f"no documents read for {spec.label}: "
                             + ("; ".join(self.failures[:5]) or ", ".join(docs[:5])))
        sizes = chunk_tokens(index)
        size = index_bytes(index)
        if len(docs) == self.every:  # an index of the whole corpus: what `seamcut index` would embed
            self.index_tokens[spec.label] = sum(sizes)
        build = (time.perf_counter() - t0) / len(group)
        out = []
        for c in group:
            t1 = time.perf_counter()
            res = judge(c.label, plain_options(spec.options), index, [*asked, *held], self.k, c.mode,
                        report, False, sizes)
            out.append(_split(c, res, len(asked), held, size, build + time.perf_counter() - t1, folder,
                              len(index.files)))
        self.missing[spec.label] = missing_files(index, docs)
        results = {"check": self._check(docs, digests), "folder": str(folder), "files": len(index.files),
                   "index_bytes": size, "chunks": len(sizes),
                   "index_tokens": self.index_tokens.get(spec.label) if len(docs) == self.every else None,
                   "failures": [str(f) for f in report.failures], "missing": self.missing[spec.label],
                   "candidates": [{"label": j.label, "seconds": j.seconds,
                                   "outcomes": [o.record() for o in [*j.tune.outcomes,
                                                                     *(j.held.outcomes if j.held else [])]]}
                                  for j in out]}
        return out, results

    def _check(self, docs: list[str], digests: Digests) -> str:
        """What a piece's results hold for: the files' bytes, the reading inputs (options,
        catalog fields) and all of seamcut's code, the judging included."""
        import hashlib
        h = hashlib.sha256(_inputs(docs, self.read_options, self.catalog).encode())
        h.update(json.dumps(sorted(digests.all().items())).encode("utf-8", "surrogatepass"))
        h.update(_code_version(judging=True).encode())
        return h.hexdigest()[:32]

    def _kept(self, piece: str, group: list[Candidate], docs: list[str], asked: list[Question],
              held: list[Question], digests: Digests) -> list[_Judged] | None:
        """The candidates of ``piece`` as an earlier run of the search left them in the journal,
        where it did for the same files, inputs and code (None: build and judge them)."""
        kept = self.journal.result(piece)
        if kept is None or [c["label"] for c in kept["candidates"]] != [c.label for c in group] \
                or kept["check"] != self._check(docs, digests):
            return None
        spec = group[0].spec
        folder = Path(kept["folder"])
        self.folders[spec.label] = folder  # grown from in the next round where it is still there
        if kept["index_tokens"] is not None:
            self.index_tokens[spec.label] = int(kept["index_tokens"])
        self.failures += [f for f in kept["failures"] if f not in self.failures]
        self.missing[spec.label] = list(kept["missing"])
        out = []
        for c, got in zip(group, kept["candidates"]):
            res = StrategyResult(c.label, plain_options(spec.options), int(kept["chunks"]), [], 0.0, 0.0, 0.0,
                                 outcomes=[Outcome.from_record(q, o) for q, o in zip([*asked, *held], got["outcomes"],
                                                                                   strict=True)])
            out.append(_split(c, res, len(asked), held, int(kept["index_bytes"]), float(got["seconds"]), folder,
                              int(kept["files"])))
        return out

    def _same_files(self, number: int, docs: list[str], judged: list[_Judged]) -> None:
        """A warning where the round's chunkings hold different files (a file read for one and
        failed for another): their scores are then not over the same documents."""
        built = {j.candidate.spec.label for j in judged}
        uneven = different_files({label: m for label, m in self.missing.items() if label in built}, len(docs))
        if uneven:
            self.warnings.append(f"round {number}: the chunkings were {uneven}")

    def cut(self, judged: list[_Judged], budget: int, eta: int) -> list[Candidate]:
        """The candidates that go on, chosen by chunking (a round pays for its chunkings' builds,
        not for the modes searched in them): chunkings ranked by their best candidate by
        ``quality``, the best 1/``eta`` kept with every mode, less any whose best the leader beats
        by more than noise on hits within ``budget`` tokens (paired, on the same questions). The
        log says of each candidate dropped by whom, the p-value and why."""
        ordered = sorted(judged, key=lambda j: quality(j.tune, self.k, budget), reverse=True)
        leader = ordered[0]
        best: dict[str, _Judged] = {}  # chunking label -> its best candidate, best chunking first
        for j in ordered:
            best.setdefault(j.candidate.spec.label, j)
        keep = math.ceil(len(best) / eta)
        why_out: dict[str, str] = {}  # chunking label -> why it goes
        for place, (chunking, j) in enumerate(best.items()):
            if j is leader:
                continue
            test = compare_hits(leader.label, leader.tune.hits_within(budget), j.label, j.tune.hits_within(budget))
            if test.significant and test.best_hits > test.other_hits:
                why_out[chunking] = (f"its best mode, {j.candidate.mode}, has fewer hits within {budget} tokens than "
                                     f"the leader by more than noise ({test.other_hits} against {test.best_hits} "
                                     f"of {len(j.tune.outcomes)})")
            elif place >= keep:
                why_out[chunking] = (f"its chunking is place {place + 1} of {len(best)} by its best mode's hits "
                                     f"within {budget} tokens, then MRR, then fewest tokens; the best {keep} "
                                     f"chunkings (1/{eta}) go on")
        for j in judged:
            chunking = j.candidate.spec.label
            if chunking not in why_out:
                continue
            test = compare_hits(leader.label, leader.tune.hits_within(budget), j.label, j.tune.hits_within(budget))
            if test.significant and test.best_hits > test.other_hits:
                why = (f"fewer hits within {budget} tokens than the leader by more than noise "
                       f"({test.other_hits} against {test.best_hits} of {len(j.tune.outcomes)})")
            else:
                why = why_out[chunking]
            j.row.update(kept=False, dropped={"by": leader.label, "p_value": test.p_value, "reason": why})
        kept = [j.candidate for j in judged if j.candidate.spec.label not in why_out]
        self.rounds[-1]["kept"] = len(kept)
        return kept


def _split(c: Candidate, res: StrategyResult, asked: int, held: list[Question], size: int, seconds: float,
           folder: Path, files: int) -> _Judged:
    """A candidate judged on the ``asked`` tune questions then the ``held`` ones (one result)."""
    tune_part = dataclasses.replace(res, outcomes=res.outcomes[:asked])
    held_part = dataclasses.replace(res, outcomes=res.outcomes[asked:]) if held else None
    return _Judged(c, tune_part, held_part, size, seconds, folder, files=files)


def _docset(docs: Sequence[str]) -> str:
    """A folder name for a set of files: how many, and a digest of their paths."""
    import hashlib
    digest = hashlib.sha256("\n".join(sorted(docs)).encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{len(docs)}-files-{digest}"


def index_bytes(index: Index) -> int:
    """What an index holds, in bytes: its chunk vectors (float32) and the UTF-8 text of its chunks
    and parents; the same for the same chunks however the folder was written (on-disk sizes
    depend on the write history)."""
    import pyarrow.compute as pc

    total = 0
    view = index.store.view()
    for name in ("chunks", "parents"):
        if name not in view:
            continue
        texts = view.columns(name, ["text"]).column("text")
        total += int(pc.sum(pc.binary_length(texts)).as_py() or 0)
        if name == "chunks":
            vector = view.tables[name].schema.field("vector").type
            total += len(texts) * 4 * int(getattr(vector, "list_size", 0) or 0)
    return total


def _budget_fields(res: StrategyResult, budget: int) -> dict[str, Any]:
    at = res.at_budget(budget)
    return {"budget_hits": at.hits, "budget_hit_rate": at.hit_rate}


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
    best = max(scored, key=lambda j: quality(j.tune, k, budget))
    versus = []
    for j in scored:
        if j.label in defaults:
            entry = _summary(j, budget, given, model)
            entry["comparison"] = (None if best.held is None or j.held is None or not best.held.outcomes
                                   else compare_hits(best.label, best.held.hits_within(budget), j.label,
                                                     j.held.hits_within(budget)).to_dict())
            versus.append(entry)
    # one `seamcut index` of the corpus: its default strategy, structure (or any full index judged)
    index_tokens = search.index_tokens.get("structure") or next(iter(search.index_tokens.values()), 0)
    searching = embedded - search.versus_tokens
    cost = {"seconds": round(seconds, 3), "embedded_tokens": embedded, "index_tokens": index_tokens,
            "index_equivalents": round(embedded / index_tokens, 3) if index_tokens else None,
            "search_tokens": searching, "versus_tokens": search.versus_tokens,
            "search_index_equivalents": round(searching / index_tokens, 3) if index_tokens else None,
            "stopped_early": stopped, "runs": runs}
    read = [p for p in paths if not any(f.startswith(p) for f in search.failures)]
    return TuneResult(k, model, seed, budget, questions, read, space, search.rounds, search.log, points,
                      _summary(best, budget, given, model), versus, cost, [str(d) for d in given],
                      search.failures, warnings=search.warnings)


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
