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

This module runs the search (``tune``); its parts: ``tune_plan`` (the questions split, the
rounds planned), ``tune_rounds`` (a round's builds, judging and cut), ``tune_judged`` (one
candidate judged, and what "best" sorts by), ``tune_result`` (the result and the winner) and
``tune_journal`` (what a stopped search resumes from).
"""
from __future__ import annotations

import json
import time
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Callable, Iterator, Sequence

from ..errors import ConfigError
from ..embed import Embedder
from .budget import default_budget
from .options import Indexing, Ready, TuneOptions
from .questions import Question
from .space import Candidate
from .tune_journal import Journal
from .tune_judged import _Judged, quality, winner
from .tune_plan import _SetUp, _set_up
from .tune_result import TuneResult, _result
from .tune_rounds import _Search


def tune(documents: Sequence[str | Path], questions: Sequence[Question], indexing: Indexing,
         options: TuneOptions = TuneOptions()) -> TuneResult:
    """Search ``options.space`` (default: ``default_space()``) for the chunking and search mode
    that serve ``questions`` best over ``documents`` (files and folders), indexes under
    ``indexing.workdir/index/SPEC/DOCUMENT-SET`` and the search's journal in the workdir (a
    stopped search is resumed by the next call with the same workdir and arguments). Every
    build is done as ``indexing`` says: its embedder (give it a cache, so nothing is embedded
    twice), its model, how the files are read (``indexing.build``) and where (``indexing.engine``,
    its workers or Ray cluster started once for every build of the search).

    ``options`` (``TuneOptions``): ``held_out``: the share of the answerable questions held out
    (seeded by ``seed``); ``eta``: how much each round grows and cuts; ``budget``: tokens sent to
    the model per question "best" is judged at (None: the median tokens per question at ``k`` of
    the round-1 candidates); ``minutes``: wall-clock time allowed (None: no limit): rounds are
    planned from the time the last one took, and where time runs out the search stops and
    reports the best so far, with ``cost["stopped_early"]`` saying what was not done (a resumed
    search's earlier runs count against it); ``exhaustive``: every candidate on every document
    and tune question in one round; ``finalists``: how many of the last halving round's best
    candidates bring their chunking (every mode) to the final round; ``versus``: the strategies
    whose defaults (hybrid) reach the final round and are tested against the winner (None: every
    registered one).

    Raises ``ConfigError`` (a ValueError) for no documents, no answerable question, a held-out
    share outside [0, 1), ``eta`` under 2, or a budget or minutes that are not positive.
    """
    options.check()
    with indexing.ready("seamcut-tune-") as ready:
        return _tuned(documents, questions, ready, options)


def _tuned(documents: Sequence[str | Path], questions: Sequence[Question], indexing: Ready,
           options: TuneOptions) -> TuneResult:
    started = time.perf_counter()
    k, budget, minutes, embedder = options.k, options.budget, options.minutes, indexing.embedder
    setup = _set_up(documents, questions, options, indexing.model)
    space, versus, left_out, paths = setup.space, setup.versus, setup.left_out, setup.paths
    tune_qs, held_qs, candidates, schedule = setup.tune_qs, setup.held_qs, setup.candidates, setup.plan
    halving = schedule.halving
    journal = Journal(Path(indexing.workdir), _search_key(setup, options, indexing))
    deadline = None if minutes is None else started + 60 * minutes - journal.earlier_seconds
    search = _Search(indexing, k, deadline, journal)
    search.filters = setup.filters
    search.every = len(paths)
    before = search.embedded_tokens()

    # the reading workers are started once for every build; the journal records each batch of
    # vectors computed
    with indexing.engine.series(indexing.build.limits, len(paths)) as run_on, _recording(embedder, search.record):
        search.indexing = replace(indexing, engine=run_on)
        previous: list[_Judged] = []
        alive = candidates
        stopped: str | None = None
        to_final = True
        for r in range(1, halving + 1):
            asked = schedule.round_questions(r)
            if r > 1 and search.too_slow(alive, asked, halving - r + 2):
                stopped = (f"the time limit of {minutes:g} min would run out: halving rounds {r} to "
                           f"{halving} were skipped, the final round judged round {r - 1}'s best")
                break
            judged, done = search.round(r, alive, schedule.round_documents(r, asked), asked, [])
            if budget is None and judged:
                budget = default_budget(j.tune.tokens_per_question for j in judged) or 1
            if not done:
                stopped = (f"the time limit of {minutes:g} min ran out in round {r} ({len(judged)} of "
                           f"{len(alive)} candidates judged): the later rounds and the held-out "
                           "scoring were not done; the best so far is reported")
                previous = previous or judged
                to_final = False
                break
            assert budget is not None
            alive = search.cut(judged, budget, options.eta)
            previous = judged
        final: list[_Judged] = []
        if to_final:
            chosen, searched = _finalists(candidates, previous, alive, budget, k, options.finalists, versus)
            final, done = search.round(halving + 1, chosen, sorted(paths), tune_qs, held_qs)
            only_versus = {c.spec.label for c in chosen} - {c.spec.label for c in chosen if c.label in searched}
            search.versus_tokens = sum(search.chunking_tokens.get((halving + 1, label), 0) for label in only_versus)
            if budget is None:
                budget = default_budget(j.tune.tokens_per_question for j in final) or 1
            if not done:
                stopped = (f"the time limit of {minutes:g} min ran out in the final round "
                           f"({len(final)} of {len(chosen)} candidates judged on every document)")
    scored = final or previous
    if not scored:
        raise ConfigError(f"the time limit of {minutes:g} min ran out before one candidate was judged")
    assert budget is not None
    result = _result(search, space, scored, budget, k, indexing.model, options.seed, paths, documents, versus,
                     {"tune": len(tune_qs), "held_out": len(held_qs),
                      "no_answer": len(questions) - len(tune_qs) - len(held_qs)},
                     time.perf_counter() - started + journal.earlier_seconds,
                     search.embedded_tokens() - before + journal.earlier_tokens, stopped, journal.runs)
    result.left_out = left_out
    journal.finish()
    return result


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


def _search_key(setup: _SetUp, options: TuneOptions, indexing: Indexing) -> str:
    """What makes two runs the same search, for the journal: the files, the questions and the
    settings (not the time limit: a stopped search may be resumed with another)."""
    import hashlib
    o = options
    parts = [sorted(setup.paths), [(q.id, q.question) for q in setup.tune_qs + setup.held_qs],
             [c.label for c in setup.candidates], [c.label for c in setup.versus],
             [o.k, indexing.model, o.seed, o.held_out, o.eta, o.exhaustive, o.finalists, o.budget,
              repr(indexing.build.read_options)], setup.filters]
    return hashlib.sha256(json.dumps(parts, ensure_ascii=False).encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _finalists(space: list[Candidate], previous: list[_Judged], alive: list[Candidate],
               budget: int | None, k: int, finalists: int,
               defaults: list[Candidate]) -> tuple[list[Candidate], set[str]]:
    """The final round's candidates: every mode of the chunkings of the best ``finalists``
    still in (a mode costs no build) and of the one the judge would take of them now (``winner``:
    a lead within noise is a tie, which goes to the cheaper and simpler), and every strategy's
    defaults, hybrid (in the space's order, the defaults outside it after); and the labels the
    search chose (the rest are there only to be tested against)."""
    if not previous:  # no halving round: everything, on everything
        chosen = {c.label for c in alive}
    else:
        still = {c.label for c in alive}
        ranked = sorted([j for j in previous if j.label in still], key=lambda j: quality(j.tune, k, budget),
                        reverse=True)
        chunkings = {j.candidate.spec.label for j in ranked[:finalists]}
        if ranked and budget is not None:
            tie = winner(ranked, k, budget)
            chunkings |= {j.candidate.spec.label for j in ranked if j.label == tie.chosen}
        chosen = {c.label for c in alive if c.spec.label in chunkings}
    searched = set(chosen)
    chosen |= {c.label for c in defaults}
    out = [c for c in space if c.label in chosen]
    return out + [c for c in defaults if c.label not in {o.label for o in out}], searched
