"""Run several chunking strategies on the same documents and questions, and judge them.

Each strategy cuts the corpus with its defaults (or the options given), its chunks go into their
own index (one embedding model for all), every question is searched in each, and the results
are scored: hits at k by answer text, MRR, span recall/precision/IoU where the questions carry
reference spans, chunk counts and sizes, build time, and the tokens each question sends to the
model. The best strategy is then tested against each other one on the same questions.
"""
from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..api import chunk as chunk_document
from ..embed import Embedder
from ..index import Hit, Index, remove_index, searchable
from ..model import Chunk, Document
from ..progress import Steps
from ..strategies import REGISTRY
from ..strategies.spec import parse_spec, slug
from .metrics import first_hit, mean_reciprocal_rank
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

    @classmethod
    def from_hit(cls, h: Hit) -> "Retrieved":
        c = h.chunk
        return cls(h.rank, h.score, h.similarity, c.source, c.pages, " / ".join(c.heading_path),
                   c.text, c.tokens, c.start, c.end)


@dataclass(frozen=True)
class Outcome:
    """One question under one strategy: the first rank holding an answer (None: none of the
    top k), the results, the tokens they send to the model, and span scores where given."""
    question: Question
    rank: int | None
    results: tuple[Retrieved, ...]
    tokens: int
    spans: SpanScores | None = None

    @property
    def hit(self) -> bool:
        return self.rank is not None


@dataclass
class StrategyResult:
    """One strategy's scores over the answerable questions, and what it returned for the others."""
    name: str
    options: dict[str, Any]
    chunks: int
    sizes: list[int]                   # tokens of every searched chunk (the model's tokens)
    chunk_seconds: float               # cutting the corpus
    embed_seconds: float               # embedding its chunks (cache hits are nearly free)
    index_seconds: float               # writing the index
    outcomes: list[Outcome] = field(default_factory=list)
    no_answer: list[Outcome] = field(default_factory=list)

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

    @property
    def best(self) -> StrategyResult:
        return max(self.strategies, key=lambda s: (s.hits, s.mrr))

    def to_json(self) -> dict[str, Any]:
        """The result as plain data (the schema ``seamcut compare --json`` writes)."""
        answerable = [q for q in self.questions if q.answerable]
        return {
            "k": self.k, "mode": self.mode, "model": self.model, "documents": self.documents,
            "questions": len(answerable), "no_answer_questions": len(self.questions) - len(answerable),
            "failures": self.failures,
            "strategies": [_strategy_json(s) for s in self.strategies],
            "comparisons": [c.to_dict() for c in self.comparisons],
            "comparisons_at_1": [c.to_dict() for c in self.comparisons_at_1],
        }


def _strategy_json(s: StrategyResult) -> dict[str, Any]:
    spans = s.span_means()
    return {
        "name": s.name, "options": s.options, "hits": s.hits, "hit_rate": s.hit_rate, "mrr": s.mrr,
        "chunks": s.chunks, "build_seconds": round(s.build_seconds, 3),
        "chunk_seconds": round(s.chunk_seconds, 3), "embed_seconds": round(s.embed_seconds, 3),
        "tokens_per_question": round(s.tokens_per_question, 1),
        "chunk_tokens": {"min": min(s.sizes, default=0), "median": statistics.median(s.sizes) if s.sizes else 0,
                         "max": max(s.sizes, default=0)},
        "span": None if spans is None else {"recall": spans.recall, "precision": spans.precision,
                                            "iou": spans.iou},
        "per_question": [{"id": o.question.id, "rank": o.rank} for o in s.outcomes],
        "misses": [_outcome_json(o) for o in s.misses()],
        "no_answer": [_outcome_json(o) for o in s.no_answer],
    }


def _outcome_json(o: Outcome) -> dict[str, Any]:
    best = max((r.similarity for r in o.results if r.similarity is not None), default=None)
    return {"id": o.question.id, "question": o.question.question,
            "must_contain": list(o.question.must_contain), "source": o.question.source,
            "page": o.question.page, "best_similarity": best,
            "results": [{"rank": r.rank, "score": r.score, "similarity": r.similarity,
                         "source": r.source, "pages": list(r.pages), "heading": r.heading,
                         "text": r.text} for r in o.results]}


def default_strategies() -> list[str]:
    """Every registered strategy, each with its defaults."""
    return list(REGISTRY)


def compare(documents: Sequence[Document], questions: Sequence[Question], *,
            strategies: Sequence[str] | None = None, k: int = 4, mode: str = "hybrid",
            embedder: Embedder, model: str = "default", workdir: str | Path,
            options: Mapping[str, Mapping[str, Any]] | None = None,
            hashes: Mapping[str, str] | None = None, progress: bool = True) -> CompareResult:
    """Cut ``documents`` with each strategy, index each cut under ``workdir/index/NAME``, search
    every question (top ``k``, ``mode``) and score. A strategy is a name or a spec with options,
    ``parent-child:parents=blocks:size=48`` (``seamcut.strategies.spec``), so variants of one
    strategy can be compared. ``options[label or name]`` overrides a strategy's defaults
    (``size``, ``overlap``, ``unit``, strategy options); a spec's own options win. ``embedder`` embeds chunks and
    queries for every strategy (and sentences for ``semantic``); give it a cache so a rerun
    embeds nothing."""
    specs = [parse_spec(s) for s in (strategies or default_strategies())]
    names = [spec.label for spec in specs]
    if len(set(names)) < len(names):
        raise ValueError(f"a strategy is named twice in {', '.join(names)}")
    if not documents:
        raise ValueError("no documents to compare on")
    work = Path(workdir)
    given = options or {}
    settings = {spec.label: (spec, {**given.get(spec.label, given.get(spec.name, {})), **spec.options})
                for spec in specs}
    cut: dict[str, tuple[dict[str, list[Chunk]], float]] = {}
    with Steps(len(names), "chunking", progress) as bar:
        for name, (spec, opts) in settings.items():
            opts = dict(opts)
            if spec.name == "semantic":
                opts.setdefault("embedder", embedder)
            t0 = time.perf_counter()
            by_doc = {d.id: chunk_document(d, strategy=spec.name, **opts) for d in documents}
            cut[name] = (by_doc, time.perf_counter() - t0)
            bar.advance(label=name)
    searched = {name: searchable(c for cs in by_doc.values() for c in cs)
                for name, (by_doc, _) in cut.items()}
    texts = list(dict.fromkeys(c.text for chunks in searched.values() for c in chunks))
    t0 = time.perf_counter()
    embedder.embed_passages(texts)  # one call for all strategies: spread over processes, cached
    shared_embed = time.perf_counter() - t0
    results: list[StrategyResult] = []
    answerable = [q for q in questions if q.answerable]
    with Steps(len(names) * len(questions), "searching", progress) as bar:
        for name in names:
            by_doc, chunk_seconds = cut[name]
            spec, opts = settings[name]
            folder = work / "index" / spec.slug
            remove_index(folder)
            opts = _plain(opts)
            index = Index(folder, strategy=spec.name, options=opts, model=model, embedder=embedder)
            report = index.update(documents, lambda d: by_doc[d.id], hashes)
            chunks = searched[name]
            share = shared_embed * len(chunks) / max(1, len(texts))
            res = StrategyResult(name, opts, len(chunks), [c.tokens for c in chunks],
                                 chunk_seconds, share + report.embed_seconds, report.write_seconds)
            for q in questions:
                hits = index.search(q.question, k, mode=mode)  # type: ignore[arg-type]
                outcome = _outcome(q, hits)
                (res.outcomes if q.answerable else res.no_answer).append(outcome)
                bar.advance(label=name)
            results.append(res)
    return CompareResult(k, mode, model, list(questions), results, _comparisons(results, answerable, k),
                         len(documents), comparisons_at_1=_comparisons(results, answerable, 1))


def _plain(opts: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in opts.items() if isinstance(v, (str, int, float, bool)) or v is None}


def _outcome(q: Question, hits: list[Hit]) -> Outcome:
    results = tuple(Retrieved.from_hit(h) for h in hits)
    rank = first_hit(q, [r.text for r in results]) if q.must_contain else None
    scores = None
    if q.spans:
        got = [Span(ref_source, r.start, r.end) for r in results
               for ref_source in {s.source for s in q.spans} if source_matches(ref_source, r.source)]
        scores = span_scores(got, q.spans)
        if not q.must_contain:  # a question scored by spans only: a hit is any overlap
            rank = next((r.rank for r in results for s in q.spans if source_matches(s.source, r.source)
                         and r.start < s.end and s.start < r.end), None)
    return Outcome(q, rank, results, sum(r.tokens for r in results), scores)


def _comparisons(results: list[StrategyResult], answerable: list[Question], k: int) -> list[Comparison]:
    """The strategy with the most hits at ``k`` (then the best MRR) against each other one."""
    if len(results) < 2 or not answerable:
        return []
    def hits(s: StrategyResult) -> list[bool]:
        return [o.rank is not None and o.rank <= k for o in s.outcomes]
    best = max(results, key=lambda s: (sum(hits(s)), s.mrr))
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
