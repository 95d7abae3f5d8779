"""One strategy's index judged on the questions, and what judging yields.

``judge`` searches every question in an index (top k, and ``DEPTH`` deep for the token
budgets) and scores it: the first rank holding an answer (by answer text, or by reference span),
span recall/precision/IoU, the tokens the results send to the model. ``Outcome`` is one
question's result, ``StrategyResult`` one strategy's over all questions; ``ranking`` is what
"best" sorts by, and ``comparisons``/``paired`` test the best strategy against each other one
on the same questions (``seamcut.evaluate.significance``).
"""
from __future__ import annotations

import statistics
from dataclasses import dataclass, field, replace
from typing import Any, Callable, Mapping, Sequence

from ..errors import ConfigError
from ..index import DEFAULT_MODE, Hit, Index
from ..pipeline.report import BuildReport
from ..ground.progress import Steps
from ..strategies import DEFAULT_STRATEGY
from .budget import DEPTH, BudgetScore, Ranked, score_at
from .filtering import NONE, Applied, applied, labelled, search
from .metrics import mean_reciprocal_rank
from .options import Judging
from .questions import Question, source_matches
from .significance import Comparison, compare_hits
from .spans import Span, SpanScores, span_scores


@dataclass(frozen=True)
class Retrieved:
    """One result as the evaluation keeps it: enough for an expert to read a miss."""
    rank: int
    score: float
    similarity: float | None
    source: str
    pages: tuple[int, ...]
    heading: str
    text: str
    tokens: int
    start: int
    end: int
    chunk_id: str = ""
    doc_id: str = ""

    @classmethod
    def from_hit(cls, h: Hit) -> "Retrieved":
        c = h.chunk
        return cls(h.rank, h.score, h.similarity, c.source, c.pages, " / ".join(c.heading_path),
                   c.text, c.tokens, c.start, c.end, c.id, c.doc_id)


@dataclass(frozen=True)
class Outcome:
    """One question under one strategy: the first rank holding an answer (None: none of the
    top k), the results, the tokens they send to the model, span scores where given, and the
    deep ranked list the budgets are cut from (``DEPTH`` results; None: the top k stand for it)."""
    question: Question
    rank: int | None
    results: tuple[Retrieved, ...]
    tokens: int
    spans: SpanScores | None = None
    ranked: Ranked | None = None
    #: the filter its search applied (``seamcut.evaluate.filtering``; NONE: the whole index)
    filtered: Applied = NONE

    @property
    def hit(self) -> bool:
        return self.rank is not None

    @property
    def deep(self) -> Ranked:
        """The ranked list the budgets are cut from."""
        return self.ranked or Ranked(tuple(r.tokens for r in self.results), self.rank)

    def record(self) -> list[Any]:
        """What scoring needs of it, as plain data: the question's id, the rank at k, the tokens
        the top k send, and the deep list (first hit, each result's tokens); no result text."""
        return [self.question.id, self.rank, self.tokens, self.deep.first_hit, list(self.deep.tokens)]

    @classmethod
    def from_record(cls, question: Question, record: Sequence[Any]) -> "Outcome":
        """The outcome ``record`` wrote, for ``question`` (which must be the one it names)."""
        qid, rank, tokens, first_hit, deep = record
        if qid != question.id:
            raise ConfigError(f"a record of question {qid!r} given for {question.id!r}")
        return cls(question, rank, (), tokens, ranked=Ranked(tuple(deep), first_hit))


@dataclass
class StrategyResult:
    """One strategy's scores over the answerable questions, and what it returned for the others.
    Seconds are this run's (an index reused unchanged costs nothing): ``chunk_seconds`` the CPU
    seconds cutting took, ``embed_seconds`` the wall-clock seconds of embedding its chunks (cache
    hits are nearly free), ``index_seconds`` those of writing them and their text index.
    ``build``: how its index was built in this run (``seamcut.pipeline.report.BuildReport``;
    documents cut in this process have the stages ``cut``, ``embed`` and ``write`` only, each one's CPU seconds
    taken as its wall-clock seconds); ``rebuilt``: why an index an earlier run left was not
    reused (None: it was, or there was none); ``built``: the report of the index's last build,
    this run's or, for an index reused, an earlier run's (with the work of every run a stopped
    build took: ``BuildReport.merged``; None: not known)."""
    name: str
    options: dict[str, Any]
    chunks: int
    sizes: list[int]                   # tokens of every searched chunk (the model's tokens)
    chunk_seconds: float
    embed_seconds: float
    index_seconds: float
    outcomes: list[Outcome] = field(default_factory=list)
    no_answer: list[Outcome] = field(default_factory=list)
    build: BuildReport | None = None
    rebuilt: str | None = None
    built: BuildReport | None = None
    #: per answerable question (``outcomes``' order), whether a chunk of the index holds its
    #: answer at all (``seamcut.evaluate.kept``; None: scored by spans alone); empty: not taken
    kept: list[bool | None] = field(default_factory=list)
    #: another library's pipeline, or chunks made elsewhere: what it is (library, versions,
    #: reader, chunker, options: ``PeerSpec.describe``); None for seamcut's strategies
    contestant: dict[str, Any] | None = None
    #: how each question's search was filtered (``seamcut.evaluate.filtering.FILTERS``)
    filters: str = "none"
    #: the strategy's label (``name`` is it, with the way its searches were filtered)
    strategy: str = ""

    def __post_init__(self) -> None:
        self.strategy = self.strategy or self.name

    @property
    def build_seconds(self) -> float:
        """Cutting and indexing, without embedding (which depends on the cache's state)."""
        return self.chunk_seconds + self.index_seconds

    @property
    def hits(self) -> int:
        return sum(o.hit for o in self.outcomes)

    @property
    def hit_rate(self) -> float:
        return self.hits / len(self.outcomes) if self.outcomes else 0.0

    @property
    def mrr(self) -> float:
        return mean_reciprocal_rank([o.rank for o in self.outcomes])

    @property
    def tokens_per_question(self) -> float:
        every = self.outcomes + self.no_answer
        return statistics.fmean(o.tokens for o in every) if every else 0.0

    def span_means(self) -> SpanScores | None:
        scored = [o.spans for o in self.outcomes if o.spans is not None]
        if not scored:
            return None
        return SpanScores(statistics.fmean(s.recall for s in scored),
                          statistics.fmean(s.precision for s in scored),
                          statistics.fmean(s.iou for s in scored))

    def misses(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.hit]

    def at_budget(self, budget: int) -> BudgetScore:
        """Hits, MRR and tokens sent when at most ``budget`` tokens go to the model per question."""
        return score_at([o.deep for o in self.outcomes], budget)

    def hits_within(self, budget: int) -> list[bool]:
        """Per answerable question, whether an answer is sent within ``budget`` tokens."""
        return [o.deep.rank_within(budget) is not None for o in self.outcomes]


def judge(name: str, options: dict[str, Any], index: Index, questions: Sequence[Question], judging: Judging,
          build: BuildReport, progress: bool, sizes: list[int] | None = None) -> StrategyResult:
    """One strategy's index scored in one search mode (``judging.mode``): its chunks' sizes
    (``sizes`` where the caller read them already), and every question searched (top
    ``judging.k``, and ``DEPTH`` deep for the budgets: one search where the top k of the deep
    one is the same), filtered the one way ``judging.filters`` names (``seamcut.evaluate.filtering``;
    None: none; the result is named for it). ``build``: how the index was built; ``progress``:
    show the searching."""
    k, mode = judging.k, judging.mode
    ways = list(judging.filters or ["none"])
    if len(ways) != 1:
        raise ConfigError(f"judge searches one way of filtering at a time, not {', '.join(ways)}")
    filters = ways[0]
    sizes = chunk_tokens(index) if sizes is None else sizes
    res = StrategyResult(labelled(name, filters), options, len(sizes), sizes, build.seconds_of("cut"),
                         build.seconds_of("embed", busy=True),
                         build.seconds_of("write", "text index", busy=True), build=build, filters=filters,
                         strategy=name)
    # one ranking (vectors or words) gives the same top k however deep it is searched, so the
    # deep search's top k is the search at k; hybrid fuses deeper candidate lists when searched
    # deeper, and a parent-child hit lists the children found, so those are searched at k too
    once = mode != "hybrid" and "parents" not in index.store.view()
    with Steps(len(questions), f"searching {res.name}", progress) as bar:
        for q in questions:
            filtered = applied(index, q, filters, k)
            deep = search(index, q, filtered, max(k, DEPTH), mode)
            hits = deep[:k] if once else search(index, q, filtered, k, mode)
            outcome = replace(_outcome(q, hits, deep), filtered=filtered)
            (res.outcomes if q.answerable else res.no_answer).append(outcome)
            bar.advance()
    return res


def chunk_tokens(index: Index) -> list[int]:
    """The model tokens of every searchable chunk in the index, in document order (read from
    three columns, not the chunks)."""
    columns = ["source", "start", "tokens"]
    rows = index.store.view().columns("chunks", columns)
    if rows is None:
        return []
    return [int(t) for _, _, t in sorted(zip(*(rows.column(c).to_pylist() for c in columns)))]


def _outcome(q: Question, hits: list[Hit], deep: list[Hit] | None = None) -> Outcome:
    """A question's outcome from its top k (``hits``) and, for the budgets, its ``deep`` list."""
    results = tuple(Retrieved.from_hit(h) for h in hits)
    rank = _first_rank(q, results)
    scores = None
    if q.spans:
        got = [Span(ref_source, r.start, r.end) for r in results
               for ref_source in {s.source for s in q.spans} if source_matches(ref_source, r.source)]
        scores = span_scores(got, q.spans)
    ranked = None
    if deep is not None:
        down = [Retrieved.from_hit(h) for h in deep]
        ranked = Ranked(tuple(r.tokens for r in down), _first_rank(q, down))
    return Outcome(q, rank, results, sum(r.tokens for r in results), scores, ranked)


def _first_rank(q: Question, results: Sequence[Retrieved]) -> int | None:
    """The rank of the first result holding an answer (of its ``source``, for a question
    ``source_only``); for a question scored by spans only, of the first overlapping one of its
    spans."""
    if q.must_contain:
        return next((n for n, r in enumerate(results, 1) if q.answered_in(r.source, r.text)), None)
    return next((r.rank for r in results for s in q.spans if source_matches(s.source, r.source)
                 and r.start < s.end and s.start < r.end), None)


def ranking(k: int, budget: int | None) -> Callable[[StrategyResult], tuple[int, float]]:
    """What leads: most hits at ``k`` then MRR, or within ``budget`` tokens when given (``pick``
    says whether the lead is more than noise)."""
    if budget is None:
        return lambda s: (sum(o.rank is not None and o.rank <= k for o in s.outcomes), s.mrr)
    def within(s: StrategyResult) -> tuple[int, float]:
        score = s.at_budget(budget)
        return score.hits, score.mrr
    return within


def judged_hits(k: int, budget: int | None) -> Callable[[StrategyResult], list[bool]]:
    """The hits ``ranking`` counts, per answerable question: at ``k``, or within ``budget`` tokens."""
    if budget is None:
        return lambda s: [o.rank is not None and o.rank <= k for o in s.outcomes]
    return lambda s: s.hits_within(budget)


def comparisons(results: list[StrategyResult], answerable: list[Question], k: int) -> list[Comparison]:
    """The strategy with the most hits at ``k`` (then the best MRR) against each other one."""
    return paired(results, answerable, None, judged_hits(k, None), k)


def paired(results: list[StrategyResult], answerable: list[Question], budget: int | None,
            hits: Callable[[StrategyResult], list[bool]], k: int = 0) -> list[Comparison]:
    """The leader (``ranking``) against each other one, paired on ``hits``."""
    if len(results) < 2 or not answerable:
        return []
    best = max(results, key=ranking(k, budget))
    return [compare_hits(best.name, hits(best), other.name, hits(other))
            for other in results if other is not best]


#: between results tied within noise, one sends fewer tokens only when it sends at least this
#: share fewer per question (at k); nearer than that, they cost the same
CHEAPER = 0.10


@dataclass(frozen=True)
class Pick:
    """Which result is best, a lead the paired test cannot tell from noise taken as a tie.
    ``leader``: the most hits (``ranking``); ``tied``: the leader and every other one whose hits
    the paired test (exact McNemar and bootstrap interval, ``compare_hits``) cannot tell from the
    leader's, the chosen one first, then in ``ranking`` order; ``chosen``: the one taken of them,
    the cheaper and simpler (``pick``); ``why``: what it won the tie on (empty: no tie)."""
    chosen: str
    leader: str
    tied: tuple[str, ...]
    why: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"chosen": self.chosen, "leader": self.leader, "tied": list(self.tied), "why": self.why}


def simplicity(strategy: str, options: int, mode: str = DEFAULT_MODE) -> tuple[int, int, int]:
    """How far a chunking and search mode are from what seamcut does unasked, least first: 1 for
    a ``mode`` other than the default (``DEFAULT_MODE``), 1 for a ``strategy`` (a registry name)
    other than ``seamcut index``'s (``DEFAULT_STRATEGY``), then how many ``options`` it sets."""
    return int(mode != DEFAULT_MODE), int(strategy != DEFAULT_STRATEGY), options


#: the rule, in words, for the reports
NOISE_RULE = (f"a lead the paired test cannot tell from noise is a tie, which goes to the cheaper and simpler "
              f"one: at least {CHEAPER:.0%} fewer tokens sent per question at k, then the default search mode "
              f"({DEFAULT_MODE}), then the default strategy ({DEFAULT_STRATEGY}), then fewer options set")

#: what a tie was won on, by the place in ``pick``'s order where the chosen one and the next differ
_WON_ON = (f"at least {CHEAPER:.0%} fewer tokens sent per question", f"the default search mode ({DEFAULT_MODE})",
           f"the default strategy ({DEFAULT_STRATEGY})", "fewer options set", "more hits", "a better MRR",
           "fewer tokens sent per question")


def pick(results: Sequence[StrategyResult], k: int, budget: int | None,
         simpler: Callable[[StrategyResult], tuple[int, int, int]],
         tests: Sequence[Comparison] = ()) -> Pick:
    """The best of ``results`` (judged on the same questions, names unique): the leader by
    ``ranking`` unless other ones tie with it within noise (their hits at ``k``, or within
    ``budget`` tokens, paired with the leader's: ``tests``, the leader against each other one as
    ``paired`` gives them, computed where not given). A tie goes to the cheaper and simpler one:
    the ones sending at least ``CHEAPER`` fewer tokens per question at ``k`` than another
    (``tokens_per_question``) first; among those, the simplest by ``simpler`` (``simplicity``'s
    tuple); then the most hits, the best MRR and the fewest tokens; then the first in ``results``."""
    if not results:
        raise ConfigError("no results to pick the best of")
    rank, hits = ranking(k, budget), judged_hits(k, budget)
    order = sorted(results, key=rank, reverse=True)  # stable: the first of equals leads, as in paired
    leader = order[0]
    if not tests:
        tests = [compare_hits(leader.name, hits(leader), o.name, hits(o)) for o in order[1:]]
    noise = {c.other for c in tests if c.best == leader.name and not c.significant}
    tied = [leader] + [o for o in order[1:] if o.name in noise]
    cheapest = min(o.tokens_per_question for o in tied)

    def key(o: StrategyResult) -> tuple[float, ...]:
        dear = cheapest <= (1 - CHEAPER) * o.tokens_per_question
        got, mrr = rank(o)
        return (int(dear), *simpler(o), -got, -mrr, o.tokens_per_question)

    chosen = min(tied, key=key)  # the first of equals: the leader's order
    rest = [o for o in tied if o is not chosen]
    why = ""
    if rest:
        mine, theirs = key(chosen), key(min(rest, key=key))
        place = next((n for n, (a, b) in enumerate(zip(mine, theirs)) if a != b), None)
        why = "equal on every count, the first by hits" if place is None else _WON_ON[place]
    return Pick(chosen.name, leader.name, (chosen.name, *(o.name for o in rest)), why)


def tied_with(chosen: Mapping[str, Any] | None) -> set[str]:
    """The names tied within noise with the one a pick chose (``Pick.to_dict()``, or None: a
    result older than ties), that one left out."""
    if not chosen:
        return set()
    return set(chosen.get("tied") or ()) - {chosen["chosen"]}


def tie_line(chosen: Mapping[str, Any] | None, measure: str) -> str | None:
    """One sentence saying a pick was a tie (``Pick.to_dict()``; None where there was none), with
    the group and what the chosen one won it on; ``measure``: the hits tested, e.g. "hits within
    512 tokens"."""
    tied = tied_with(chosen)
    if not tied or chosen is None:
        return None
    others = ", ".join(t for t in chosen["tied"] if t in tied)
    return (f"Tied within noise: {chosen['chosen']} with {others} (the paired test cannot tell their "
            f"{measure} from the leader's, {chosen['leader']}'s); the tie goes to the cheaper and simpler "
            f"one, {chosen['chosen']}: {chosen['why']}")
