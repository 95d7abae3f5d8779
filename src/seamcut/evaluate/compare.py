"""Run several chunking strategies on the same documents and questions, and judge them.

Each strategy cuts the corpus with its defaults (or the options given) into its own index (one
embedding model for all), every question is searched in each, and the results are scored: hits
at k by answer text, MRR, span recall/precision/IoU where the questions carry reference spans,
chunk counts and sizes, build time, and the tokens each question sends to the model; and hits
at equal tokens sent (``seamcut.evaluate.budget``: each question searched once more, deep, and
cut at a few token budgets). The best strategy, best at the budget named (default: the median
of the strategies' tokens per question at k), is then tested against each other one on the same
questions, at that budget, at k and at 1.

Files are indexed by ``seamcut.pipeline.run.build_index``, as ``seamcut index`` does: read and cut in
worker processes, embedded and written in batches. What does not depend on the strategy is done
once: a file is parsed once (the parse cache), a text is embedded once (one embedder and one
embedding cache for every strategy), and an index already built with the same options from the
same files and inputs is reused, so adding a strategy to a run costs that strategy alone.
Documents given in memory are cut in this process instead. Either way the scoring reads the
index.
"""
from __future__ import annotations

from contextlib import nullcontext
import hashlib
import json
import statistics
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..api import chunk as chunk_document
from ..embed import CachedEmbedder, Embedder
from ..index import Hit, Index, IndexConfigError, remove_index
from ..model import Chunk, Document
from ..pipeline.catalog import Catalog
from ..pipeline.corpus import Limits, ReadOptions, file_hash
from ..pipeline.engine import Engine
from ..pipeline.jobs import model_sized
from ..pipeline.local import LocalEngine
from ..pipeline.options import BuildOptions
from ..pipeline.report import BuildReport, Stage, saved_report
from ..pipeline.run import build_index
from ..pipeline.stages import embedded_while_cutting
from ..pipeline.worker_embedder import WorkerEmbedder
from ..runtime.progress import Steps
from ..readers import expand
from ..strategies import REGISTRY
from ..strategies.spec import StrategySpec, parse_spec, slug
from .budget import DEPTH, FIXED_BUDGETS, BudgetScore, Ranked, default_budget, score_at
from .metrics import mean_reciprocal_rank
from .questions import Question, source_matches
from .significance import Comparison, compare_hits
from .spans import Span, SpanScores, span_scores

#: what an index folder built by ``compare`` was built from, beside its ``seamcut-index.json``
INPUTS_FILE = "seamcut-compare.json"


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
            raise ValueError(f"a record of question {qid!r} given for {question.id!r}")
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


@dataclass
class CompareResult:
    """Every strategy's result on the same questions, and the best one against each other."""
    k: int
    mode: str
    model: str
    questions: list[Question]
    strategies: list[StrategyResult]
    comparisons: list[Comparison]
    documents: int
    failures: list[str] = field(default_factory=list)
    comparisons_at_1: list[Comparison] = field(default_factory=list)  # the same tests on hits at 1
    #: what reading said of files (once each) and, per strategy, chunks held below the size by
    #: the model's maximum input
    warnings: list[str] = field(default_factory=list)
    #: the token budgets scored (ascending), the one "best" uses (None: best by hits at k), and
    #: the paired tests at that budget
    budgets: list[int] = field(default_factory=list)
    budget: int | None = None
    comparisons_at_budget: list[Comparison] = field(default_factory=list)
    depth: int = DEPTH  # results searched per question for the budgets

    @property
    def best(self) -> StrategyResult:
        """Most hits within the budget, then the best MRR within it (without a budget: at k)."""
        return max(self.strategies, key=ranking(self.k, self.budget))

    def to_json(self) -> dict[str, Any]:
        """The result as plain data (the schema ``seamcut compare --json`` writes)."""
        answerable = [q for q in self.questions if q.answerable]
        return {
            "k": self.k, "mode": self.mode, "model": self.model, "documents": self.documents,
            "questions": len(answerable), "no_answer_questions": len(self.questions) - len(answerable),
            "failures": self.failures, "warnings": self.warnings,
            "strategies": [_strategy_json(s, self.budgets) for s in self.strategies],
            "comparisons": [c.to_dict() for c in self.comparisons],
            "comparisons_at_1": [c.to_dict() for c in self.comparisons_at_1],
            "budget": self.budget, "budgets": self.budgets, "depth": self.depth,
            "comparisons_at_budget": [c.to_dict() for c in self.comparisons_at_budget],
            "best": self.best.name if self.strategies else None,
        }


def _strategy_json(s: StrategyResult, budgets: Sequence[int]) -> dict[str, Any]:
    spans = s.span_means()
    return {
        "name": s.name, "options": s.options, "hits": s.hits, "hit_rate": s.hit_rate, "mrr": s.mrr,
        "budgets": {str(b): s.at_budget(b).to_dict() for b in budgets},
        "chunks": s.chunks, "build_seconds": round(s.build_seconds, 3),
        "chunk_seconds": round(s.chunk_seconds, 3), "embed_seconds": round(s.embed_seconds, 3),
        "build": None if s.build is None else _build_json(s.build, s.rebuilt),
        "index_build": None if s.built is None else _build_json(s.built, None),
        "tokens_per_question": round(s.tokens_per_question, 1),
        "chunk_tokens": {"min": min(s.sizes, default=0), "median": statistics.median(s.sizes) if s.sizes else 0,
                         "max": max(s.sizes, default=0)},
        "span": None if spans is None else {"recall": spans.recall, "precision": spans.precision,
                                            "iou": spans.iou},
        # every question with its results (their text left out: the misses carry it), for the view
        "per_question": [{**_outcome_json(o, text=False), "rank": o.rank} for o in s.outcomes],
        "misses": [_outcome_json(o) for o in s.misses()],
        "no_answer": [_outcome_json(o) for o in s.no_answer],
    }


def _build_json(b: BuildReport, rebuilt: str | None) -> dict[str, Any]:
    cached = b.from_cache
    return {"seconds": round(b.seconds, 3), "runs": b.runs, "cpu_seconds": round(b.cpu, 3),
            "stages": {n: {"items": st.items, "pages": st.pages, "tokens": st.tokens,
                           "cpu_seconds": round(st.cpu, 3), "busy_seconds": round(st.busy, 3)}
                       for n, st in b.stages.items() if st.items or st.cpu or st.busy},
            "chunks": b.chunks, "embedded": b.embedded,
            "from_cache": None if cached is None else round(cached, 4),
            "files": {"added": len(b.added), "replaced": len(b.replaced), "unchanged": len(b.unchanged),
                      "failed": len(b.failures)},
            "rebuilt": rebuilt}


def _outcome_json(o: Outcome, text: bool = True) -> dict[str, Any]:
    """A question and its results; offsets in code points of the document's text, ``tokens`` in
    the model's tokens; ``text=False`` leaves each result's text out."""
    best = max((r.similarity for r in o.results if r.similarity is not None), default=None)
    return {"id": o.question.id, "question": o.question.question,
            "must_contain": list(o.question.must_contain), "source": o.question.source,
            "source_only": o.question.source_only,
            "page": o.question.page, "best_similarity": best,
            # the deep ranked list the budgets are cut from: the first rank holding an answer and
            # the model tokens each result sends (``seamcut.evaluate.merge`` scores any budget from it)
            "deep_rank": o.deep.first_hit, "deep_tokens": list(o.deep.tokens),
            "spans": [{"source": s.source, "start": s.start, "end": s.end} for s in o.question.spans],
            "results": [{"rank": r.rank, "score": r.score, "similarity": r.similarity,
                         "source": r.source, "pages": list(r.pages), "heading": r.heading,
                         **({"text": r.text} if text else {}), "chunk_id": r.chunk_id,
                         "doc_id": r.doc_id, "start": r.start, "end": r.end, "tokens": r.tokens}
                        for r in o.results]}


def default_strategies() -> list[str]:
    """Every registered strategy, each with its defaults."""
    return list(REGISTRY)


def compare(documents: Sequence[Document] | Sequence[str | Path], questions: Sequence[Question], *,
            strategies: Sequence[str] | None = None, k: int = 4, mode: str = "hybrid",
            embedder: Embedder, model: str = "default", workdir: str | Path,
            options: Mapping[str, Mapping[str, Any]] | None = None,
            hashes: Mapping[str, str] | None = None, progress: bool = True,
            read_options: ReadOptions = ReadOptions(), catalog: Catalog | None = None,
            limits: Limits = Limits(), budgets: Sequence[int] | None = None,
            engine: Engine = LocalEngine()) -> CompareResult:
    """Index ``documents`` with each strategy under ``workdir/index/NAME``, search every question
    (top ``k``, ``mode``) and score. A strategy is a name or a spec with options,
    ``parent-child:parents=blocks:size=48`` (``seamcut.strategies.spec``), so variants of one
    strategy can be compared. ``options[label or name]`` overrides a strategy's defaults
    (``size``, ``overlap``, ``unit``, strategy options); a spec's own options win.

    ``documents``: files and folders, or ``Document``s. Files are indexed by ``build_index``
    (``read_options``, ``catalog``, ``limits``: how they are read; the files that fail are in
    the result's ``failures``), and an index an earlier run left in ``workdir`` is reused when
    it was built with the same options, model, reading inputs and seamcut code from files all
    still named (files added since are read, changed ones replaced). ``Document``s are cut in
    this process into fresh indexes (``hashes``: their files' hashes by source). ``engine``:
    where files are indexed (``seamcut.pipeline.engine.Engine``: here, or on Ray; its reading
    workers or its runtime started once for all).

    ``embedder`` embeds chunks and queries for every strategy: give it a cache
    (``load_embedder(..., cache=True)``) so no text is embedded twice, across strategies and
    runs. The ``semantic`` strategy also embeds sentences: in this process with ``embedder``,
    in the cutting workers with ``model`` loaded there (it must load as ``embedder``'s model;
    the cache folder of a ``CachedEmbedder`` is shared with them).

    ``budgets``: tokens sent per question to score every strategy at (``score_budgets``); the
    first is the one "best" means. None: 256, 512, 1024 and 2048 tokens and the median of the
    strategies' tokens per question at ``k``, which "best" means.
    """
    specs = [parse_spec(s) for s in (strategies or default_strategies())]
    _check_budgets(budgets)  # before any index is built
    names = [spec.label for spec in specs]
    if len(set(names)) < len(names):
        raise ValueError(f"a strategy is named twice in {', '.join(names)}")
    if not documents:
        raise ValueError("no documents to compare on")
    in_memory = [d for d in documents if isinstance(d, Document)]
    if in_memory and len(in_memory) < len(documents):
        raise TypeError("give Documents or files and folders, not both")
    work = Path(workdir)
    given = options or {}
    settings = [(spec, {**given.get(spec.label, given.get(spec.name, {})), **spec.options})
                for spec in specs]
    paths = [] if in_memory else [str(f) for f in expand(list(documents))]  # type: ignore[arg-type]
    results: list[StrategyResult] = []
    failures: list[str] = []
    notes: list[str] = []
    count = len(in_memory)
    digests = Digests(paths)
    answerable = [q for q in questions if q.answerable]
    missing: dict[str, list[str]] = {}
    # one start of the reading workers (or of Ray) for all
    with engine.series(limits, len(paths)) if paths else nullcontext(engine) as run_on:
        for spec, opts in settings:
            folder = work / "index" / spec.slug
            if in_memory:
                index, report = _cut_here(folder, spec, opts, in_memory, embedder, model, hashes)
                rebuilt = None
            else:
                index, report, rebuilt = index_files(folder, spec, opts, paths, embedder, model, read_options,
                                                     catalog, limits, progress, digests, run_on)
                for f in map(str, report.failures):  # reading failures repeat; a cutting one may not
                    if f not in failures:
                        failures.append(f if not results else f"{f} ({spec.label})")
                notes += [w for w in dict.fromkeys(report.warnings) if w not in notes]
                notes += [f"{spec.label}: {h}" for h in report.held]
                count = max(count, len(index.files))
                missing[spec.label] = missing_files(index, paths)
                if not index.files:
                    raise ValueError(f"no documents read from {', '.join(paths)}"
                                     + (f": {'; '.join(failures[:5])}" if failures else ""))
            results.append(judge(spec.label, plain_options(opts), index, questions, k, mode, report, progress))
            results[-1].rebuilt = rebuilt
            results[-1].built = report if in_memory else (saved_report(folder)[0] or report)
    uneven = different_files(missing, len(paths))
    if uneven:
        notes.append(f"the strategies were {uneven}")
    result = CompareResult(k, mode, model, list(questions), results, _comparisons(results, answerable, k),
                           count, failures, comparisons_at_1=_comparisons(results, answerable, 1),
                           warnings=notes)
    return score_budgets(result, budgets)


def missing_files(index: Index, paths: Sequence[str]) -> list[str]:
    """The files of ``paths`` that ``index`` does not hold (failed, or cut to nothing)."""
    held = {str(Path(f["path"]).resolve()) for f in index.files.values() if f.get("path")}
    return [p for p in paths if str(Path(p).resolve()) not in held]


def different_files(missing: Mapping[str, list[str]], total: int) -> str | None:
    """A warning where the indexes, named by label with the files each lacks of ``total``, do
    not hold the same files (a file read for one strategy and failed for another): their scores
    are then not over the same documents. None where they do."""
    sets = [tuple(m) for m in missing.values()]
    if len(set(sets)) < 2:
        return None
    fewest = min(len(m) for m in sets)
    # the others: the commonest of the fullest sets (two sets of the same size can differ)
    usual = max((m for m in sets if len(m) == fewest), key=sets.count)
    short = "; ".join(f"{label}: {total - len(m)} ({_names(m)} missing)"
                      for label, m in missing.items() if tuple(m) != usual)
    return (f"judged on different files, of {total}: {short}; the others on {total - fewest}"
            + (f" ({_names(usual)} missing)" if usual else ""))


def _names(paths: Sequence[str]) -> str:
    return ", ".join(Path(f).name for f in paths)


def score_budgets(result: CompareResult, budgets: Sequence[int] | None = None) -> CompareResult:
    """``result`` scored at token budgets (from the ranked lists its search kept: no search
    again), and "best" made the best at the first of ``budgets``, with the paired tests at it.
    None: 256, 512, 1024, 2048 and the median of the strategies' tokens per question at k, the
    median being the one "best" uses. Returns ``result``, changed."""
    _check_budgets(budgets)
    named = list(dict.fromkeys(budgets)) if budgets else [
        default_budget(s.tokens_per_question for s in result.strategies)]
    result.budget = named[0] if named[0] > 0 else None
    result.budgets = sorted((set(named) | (set() if budgets else set(FIXED_BUDGETS))) - {0})
    answerable = [q for q in result.questions if q.answerable]
    result.comparisons_at_budget = ([] if result.budget is None else
                                    _paired(result.strategies, answerable, result.budget,
                                            lambda s: s.hits_within(result.budget)))
    return result


def _check_budgets(budgets: Sequence[int] | None) -> None:
    if budgets is not None and any(b < 1 for b in budgets):
        raise ValueError(f"budget: {min(budgets)} is not a positive number of tokens")


def _cut_here(folder: Path, spec: StrategySpec, opts: Mapping[str, Any], documents: Sequence[Document],
              embedder: Embedder, model: str, hashes: Mapping[str, str] | None) -> tuple[Index, BuildReport]:
    """Documents in memory cut in this process into a fresh index at ``folder``."""
    opts = model_sized(opts, model)
    cut_opts = dict(opts)
    if spec.name == "semantic":
        cut_opts.setdefault("embedder", embedder)
    remove_index(folder)
    index = Index(folder, strategy=spec.name, options=plain_options(opts), model=model, embedder=embedder)
    t0 = time.perf_counter()
    before = embedder.computed
    cut_tokens = 0

    def cut(d: Document) -> list[Chunk]:
        nonlocal cut_tokens
        chunks = chunk_document(d, strategy=spec.name, **cut_opts)
        cut_tokens += embedded_while_cutting(chunks)
        return chunks

    r = index.update(documents, cut, hashes)
    stages = {name: Stage(name, cpu=seconds, busy=seconds) for name, seconds in
              (("cut", r.chunk_seconds), ("embed", r.embed_seconds), ("write", r.write_seconds))}
    stages["cut"].items = stages["write"].items = len(r.added) + len(r.replaced)
    stages["embed"].items = r.chunks
    embedded = r.chunks if before is None or embedder.computed is None else embedder.computed - before
    return index, BuildReport(r.added, r.replaced, r.unchanged, chunks=r.chunks, parents=r.parents,
                              embedded=embedded, seconds=time.perf_counter() - t0, stages=stages,
                              cut_tokens=cut_tokens)


def index_files(folder: Path, spec: StrategySpec, opts: Mapping[str, Any], paths: Sequence[str],
           embedder: Embedder, model: str, read_options: ReadOptions, catalog: Catalog | None,
           limits: Limits, progress: bool, digests: "Digests",
           engine: Engine = LocalEngine()) -> tuple[Index, BuildReport, str | None]:
    """Files (``paths``, folders expanded) indexed at ``folder`` by ``build_index``, the index
    there reused where it can be; the index, the build's report, and why an index found there
    was rebuilt (None: it was not). An index that holds every file as it is now is not built
    at all (no worker started). ``engine``: where it is built (one of a ``series``: reading
    workers or a Ray runtime kept open across several calls)."""
    t0 = time.perf_counter()
    opts = model_sized(opts, model)
    plain = plain_options(opts)
    inputs = _inputs(paths, read_options, catalog)
    index, rebuilt = _open_or_rebuild(folder, spec.name, plain, model, embedder, inputs, paths)
    (folder / INPUTS_FILE).write_text(json.dumps({"inputs": inputs}), encoding="utf-8")
    if index.files and index.is_finished() and digests.current(index):
        return index, BuildReport(unchanged=list(index.files), seconds=time.perf_counter() - t0), None
    cut_opts = dict(opts)
    if spec.name == "semantic" and "embedder" not in cut_opts:
        cache = embedder.cache.folder if isinstance(embedder, CachedEmbedder) else None
        cut_opts["embedder"] = WorkerEmbedder(model, embedder.name, None if cache is None else str(cache))
    how = BuildOptions(read_options=read_options, catalog=catalog, limits=limits, progress=progress,
                       label=f"indexing {spec.label}")
    report = build_index(index, paths, spec.name, cut_opts, how, engine=engine)
    return index, report, rebuilt


def _open_or_rebuild(folder: Path, strategy: str, options: dict[str, Any], model: str,
                     embedder: Embedder, inputs: str, paths: Sequence[str]) -> tuple[Index, str | None]:
    """The index at ``folder`` if it was built as asked from files all still among ``paths``;
    else a new one in its place, with the reason the old one could not be used."""
    def fresh() -> Index:
        return Index(folder, strategy=strategy, options=options, model=model, embedder=embedder)

    try:
        index = fresh()
    except IndexConfigError as exc:
        remove_index(folder)
        return fresh(), str(exc)
    if not index.files:
        return index, None
    why = None
    stamp = folder / INPUTS_FILE
    try:
        built_from = json.loads(stamp.read_text(encoding="utf-8")).get("inputs")
    except (OSError, ValueError):
        built_from = None
    named = set(paths)
    gone = [source for source in index.files if source not in named]
    if index.settings.embedder not in (None, embedder.name):
        why = f"built with embedder {index.settings.embedder}, not {embedder.name}"
    elif built_from != inputs:
        why = "built with other reading options, catalog fields or seamcut code"
    elif gone:
        why = f"built with {len(gone)} file(s) no longer named ({gone[0]}, ...)"
    if why is None:
        return index, None
    remove_index(folder)
    return fresh(), f"{folder}: {why}"


class Digests:
    """The files' SHA-256 digests, taken once per run and only when an index could use them."""

    def __init__(self, paths: Sequence[str]) -> None:
        self.paths = paths
        self._digests: dict[str, str | None] | None = None

    def current(self, index: Index) -> bool:
        """Whether ``index`` holds exactly the files, each with the bytes it has now."""
        held = {source: v["hash"] for source, v in index.files.items()}
        return held == self.all()

    def all(self) -> dict[str, str | None]:
        """Each file's digest (None: it cannot be read)."""
        if self._digests is None:
            self._digests = {p: _digest(p) for p in self.paths}
        return self._digests


def _digest(path: str) -> str | None:
    try:
        return file_hash(path)
    except OSError:
        return None


def _inputs(paths: Sequence[str], read_options: ReadOptions, catalog: Catalog | None) -> str:
    """A digest of what an index's rows depend on beyond its settings and its files' bytes: the
    reading options, each file's catalog fields, and the code that reads, cuts and stores."""
    h = hashlib.sha256(repr(read_options).encode())
    if catalog is not None:
        for f in paths:
            h.update(repr((f, sorted(catalog.fields_for(f).items()))).encode("utf-8", "surrogatepass"))
    h.update(_code_version().encode())
    return h.hexdigest()[:32]


@lru_cache(maxsize=2)
def _code_version(judging: bool = False) -> str:
    """A digest of seamcut's code but the parts that only judge or show (evaluation, reports,
    the command line): another version may read, cut or store otherwise. ``judging``: with the
    evaluation's code too (another version may also score otherwise)."""
    root = Path(__file__).resolve().parents[1]
    skipped = ("report", "cli", "integrations") if judging else ("evaluate", "report", "cli", "integrations")
    h = hashlib.sha256()
    for f in sorted(root.rglob("*.py")):
        if f.relative_to(root).parts[0] not in skipped:
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


def judge(name: str, options: dict[str, Any], index: Index, questions: Sequence[Question], k: int,
          mode: str, build: BuildReport, progress: bool, sizes: list[int] | None = None) -> StrategyResult:
    """One strategy's index scored in one search ``mode``: its chunks' sizes (``sizes`` where the
    caller read them already), and every question searched (top ``k``, and ``DEPTH`` deep for
    the budgets: one search where the top ``k`` of the deep one is the same)."""
    sizes = chunk_tokens(index) if sizes is None else sizes
    res = StrategyResult(name, options, len(sizes), sizes, build.seconds_of("cut"),
                         build.seconds_of("embed", busy=True),
                         build.seconds_of("write", "text index", busy=True), build=build)
    # one ranking (vectors or words) gives the same top k however deep it is searched, so the
    # deep search's top k is the search at k; hybrid fuses deeper candidate lists when searched
    # deeper, and a parent-child hit lists the children found, so those are searched at k too
    once = mode != "hybrid" and "parents" not in index.store.view()
    with Steps(len(questions), f"searching {name}", progress) as bar:
        for q in questions:
            deep = index.search(q.question, max(k, DEPTH), mode=mode)  # type: ignore[arg-type]
            hits = deep[:k] if once else index.search(q.question, k, mode=mode)  # type: ignore[arg-type]
            outcome = _outcome(q, hits, deep)
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


def plain_options(opts: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in opts.items() if isinstance(v, (str, int, float, bool)) or v is None}


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
    """What "best" sorts by: hits at ``k`` then MRR, or within ``budget`` tokens when given."""
    if budget is None:
        return lambda s: (sum(o.rank is not None and o.rank <= k for o in s.outcomes), s.mrr)
    def within(s: StrategyResult) -> tuple[int, float]:
        score = s.at_budget(budget)
        return score.hits, score.mrr
    return within


def _comparisons(results: list[StrategyResult], answerable: list[Question], k: int) -> list[Comparison]:
    """The strategy with the most hits at ``k`` (then the best MRR) against each other one."""
    return _paired(results, answerable, None, lambda s: [o.rank is not None and o.rank <= k
                                                         for o in s.outcomes], k)


def _paired(results: list[StrategyResult], answerable: list[Question], budget: int | None,
            hits: Callable[[StrategyResult], list[bool]], k: int = 0) -> list[Comparison]:
    """The best strategy (``_ranking``) against each other one, paired on ``hits``."""
    if len(results) < 2 or not answerable:
        return []
    best = max(results, key=ranking(k, budget))
    return [compare_hits(best.name, hits(best), other.name, hits(other))
            for other in results if other is not best]


def write_misses(result: CompareResult, folder: str | Path) -> list[Path]:
    """One Markdown file per strategy under ``folder``: every missed question with its expected
    text and the top-k chunks that came back, for an expert to read. Returns the files."""
    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for s in result.strategies:
        lines = [f"# {s.name}: {len(s.misses())} of {len(s.outcomes)} questions missed "
                 f"(top {result.k}, {result.mode} search)", ""]
        for o in s.misses():
            q = o.question
            where = f" ({q.source}{f', page {q.page}' if q.page else ''})" if q.source else ""
            lines += [f"## {q.id}: {q.question}", "",
                      "Expected: " + " OR ".join(f"`{a}`" for a in q.must_contain) + where, ""]
            for r in o.results:
                pages = f" p. {r.pages[0]}" + (f"-{r.pages[-1]}" if len(r.pages) > 1 else "") if r.pages else ""
                sim = f", similarity {r.similarity:.3f}" if r.similarity is not None else ""
                lines += [f"### {r.rank}. {Path(r.source).name}{pages}: {r.heading or '(no heading)'} "
                          f"(score {r.score:.4g}{sim})", "", "```", r.text, "```", ""]
        path = out / f"misses-{slug(s.name)}.md"
        path.write_text("\n".join(lines), encoding="utf-8")
        written.append(path)
    return written


def write_json(result: CompareResult, path: str | Path) -> None:
    """``result.to_json()`` as a file."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(json.dumps(result.to_json(), ensure_ascii=False, indent=1), encoding="utf-8")
