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
same files and inputs is reused, so adding a strategy to a run costs that strategy alone
(``seamcut.evaluate.indexes``). Documents given in memory are cut in this process instead.
Either way the scoring reads the index (``seamcut.evaluate.judge``).
"""
from __future__ import annotations

from contextlib import nullcontext
import json
import statistics
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..errors import ConfigError, ConfigTypeError
from ..model import Document
from ..peers import CONTESTANTS, AnySpec
from ..pipeline.report import BuildReport, saved_report
from ..readers import expand
from ..strategies import REGISTRY
from ..strategies.spec import slug
from .budget import DEPTH, FIXED_BUDGETS, default_budget
from .indexes import Digests, different_files, index_documents, index_files, missing_files, plain_options
from .filtering import check_filters, default_filters
from .kept import answers_kept, embedded_apart
from .judge import (Outcome, Pick, StrategyResult, comparisons, judge, judged_hits, paired, pick, simplicity,
                    tie_line)
from .options import Indexing, Judging, Ready, check_budgets
from .questions import Question
from .questions_check import QuestionsReport
from .significance import Comparison, compare_hits


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
    #: the test set checked against the documents before the strategies were judged
    questions_check: QuestionsReport | None = None

    @property
    def choice(self) -> Pick:
        """Which strategy is best (``judge.pick``): most hits within the budget, then the best
        MRR within it (without a budget: at k), unless the lead is within noise of other ones
        (``comparisons_at_budget``, or ``comparisons`` without a budget); a tie goes to the one
        sending fewer tokens, then to the default strategy."""
        tests = self.comparisons_at_budget if self.budget else self.comparisons
        return pick(self.strategies, self.k, self.budget,
                    lambda s: simplicity(s.strategy.split(":")[0], len(s.options), self.mode), tests)

    def filtered_against_whole(self) -> list[Comparison]:
        """Each row whose searches were filtered against the same strategy's without a filter,
        paired on the questions hit within the budget (at k without one): what the filter did."""
        whole = {s.strategy: s for s in self.strategies if s.filters == "none"}
        hits = judged_hits(self.k, self.budget)
        return [compare_hits(s.name, hits(s), whole[s.strategy].name, hits(whole[s.strategy]))
                for s in self.strategies if s.filters != "none" and s.strategy in whole]

    @property
    def best(self) -> StrategyResult:
        """The strategy ``choice`` names."""
        chosen = self.choice.chosen
        return next(s for s in self.strategies if s.name == chosen)

    def tie(self) -> str | None:
        """A sentence saying "best" was a tie, naming the group (``judge.tie_line``); None where
        its lead was more than noise."""
        measure = f"hits within {self.budget} tokens" if self.budget else f"hits at {self.k}"
        return tie_line(self.choice.to_dict(), measure) if self.strategies else None

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
            "filtered_against_whole": [c.to_dict() for c in self.filtered_against_whole()],
            "best": self.best.name if self.strategies else None,
            "questions_check": None if self.questions_check is None else self.questions_check.to_json(),
            "pick": self.choice.to_dict() if self.strategies else None,
        }


def _strategy_json(s: StrategyResult, budgets: Sequence[int]) -> dict[str, Any]:
    spans = s.span_means()
    return {
        "name": s.name, "strategy": s.strategy, "filters": s.filters, "options": s.options,
        "contestant": s.contestant,
        "answer_kept": sum(bool(k) for k in s.kept) if s.kept else None, "hits": s.hits, "hit_rate": s.hit_rate, "mrr": s.mrr,
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
        "per_question": [{**_outcome_json(o, text=False), "rank": o.rank,
                          **({"kept": s.kept[i]} if s.kept else {}),
                          **({"filter": o.filtered.to_dict()} if s.filters != "none" else {})}
                         for i, o in enumerate(s.outcomes)],
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


def compare(documents: Sequence[Document] | Sequence[str | Path], questions: Sequence[Question],
            strategies: Sequence[AnySpec], indexing: Indexing, judging: Judging = Judging(),
            hashes: Mapping[str, str] | None = None) -> CompareResult:
    """Index ``documents`` with each strategy under ``indexing.workdir/index/SLUG``, search every
    question (top ``judging.k``, ``judging.mode``) and score. A strategy is a ``StrategySpec``
    (``seamcut.strategies.spec``: a name or a spec with options, ``parent-child:parents=blocks``,
    parsed once by the caller, with any option the run sets for every strategy in it), so
    variants of one strategy can be compared; it travels to the cutting workers as it is. It
    may also be a contestant (``seamcut.peers``: another library's pipeline, chunks made
    elsewhere), judged alike; the result records what it is and, for every strategy, whether
    each answer survives in some chunk (``StrategyResult.kept``).

    ``documents``: files and folders, or ``Document``s. Files are indexed by ``build_index``
    as ``indexing`` says (``indexing.build``: how they are read; the files that fail are in the
    result's ``failures``; ``indexing.engine``: here or on Ray, its reading workers or its
    Ray cluster started once for all), and an index an earlier run left in the workdir is reused
    when it was built with the same options, model, reading inputs and seamcut code from files
    all still named (files added since are read, changed ones replaced). ``Document``s are cut
    in this process into fresh indexes (``hashes``: their files' hashes by source).

    ``indexing.embedder`` embeds chunks and queries for every strategy (give it a cache). The
    ``semantic`` strategy also embeds sentences: in this process with it, in the cutting workers
    with ``indexing.model`` loaded there (it must load as the embedder's model; the cache folder
    of a ``CachedEmbedder`` is shared with them).

    ``judging.budgets``: tokens sent per question to score every strategy at (``score_budgets``);
    the first is the one "best" means (``Judging``).
    """
    with indexing.ready("seamcut-compare-") as ready:
        return _compared(documents, questions, list(strategies), ready, judging, hashes)


def _compared(documents: Sequence[Document] | Sequence[str | Path], questions: Sequence[Question],
              specs: list[AnySpec], indexing: Ready, judging: Judging,
              hashes: Mapping[str, str] | None) -> CompareResult:
    names = [spec.label for spec in specs]
    if len(set(names)) < len(names):
        raise ConfigError(f"a strategy is named twice in {', '.join(names)}")
    if not documents:
        raise ConfigError("no documents to compare on")
    in_memory = [d for d in documents if isinstance(d, Document)]
    if in_memory and len(in_memory) < len(documents):
        raise ConfigTypeError("give Documents or files and folders, not both")
    own = [s.label for s in specs if isinstance(s, CONTESTANTS) and s.reads is not None]
    if in_memory and own:
        raise ConfigError(f"{', '.join(own)} read files with their own library's reader: give files, not "
                          "Documents (or add :reader=seamcut to cut seamcut's reading)")
    work = Path(indexing.workdir)
    refused: dict[str, str] = {}
    paths = [] if in_memory else [str(f) for f in expand(list(documents), refused)]  # type: ignore[arg-type]
    results: list[StrategyResult] = []
    failures: list[str] = [f"{link}: {why}" for link, why in refused.items()]
    notes: list[str] = []
    count = len(in_memory)
    digests = Digests(paths)
    answerable = [q for q in questions if q.answerable]
    missing: dict[str, list[str]] = {}
    # one start of the reading workers (or of Ray) for all
    engine, k, mode = indexing.engine, judging.k, judging.mode
    ways = check_filters(judging.filters) if judging.filters is not None else default_filters(questions)
    with engine.series(indexing.build.limits, len(paths)) if paths else nullcontext(engine) as run_on:
        indexing = replace(indexing, engine=run_on)
        for spec in specs:
            folder = work / "index" / spec.slug
            if in_memory:
                index, report = index_documents(folder, spec, in_memory, indexing, hashes)
                rebuilt = None
            else:
                index, report, rebuilt = index_files(folder, spec, paths, indexing, digests)
                for f in map(str, report.failures):  # reading failures repeat; a cutting one may not
                    if f not in failures:
                        failures.append(f if not results else f"{f} ({spec.label})")
                notes += [w for w in dict.fromkeys(report.warnings) if w not in notes]
                notes += [f"{spec.label}: {h}" for h in report.held]
                count = max(count, len(index.files))
                missing[spec.label] = missing_files(index, paths)
                if not index.files:
                    raise ConfigError(f"no documents read from {', '.join(paths)}"
                                      + (f": {'; '.join(failures[:5])}" if failures else ""))
            kept = answers_kept(index, [q for q in questions if q.answerable])
            # what a contestant is, and what the model was fed of it
            contestant = ({**spec.describe(), "sent": "each chunk's text", "embedded": embedded_apart(index)}
                          if isinstance(spec, CONTESTANTS) else None)
            built = report if in_memory else (saved_report(folder)[0] or report)
            for way in ways:  # one index, searched each way
                res = judge(spec.label, plain_options(spec.options), index, questions,
                            replace(judging, filters=[way]), report, indexing.build.progress)
                res.kept, res.contestant, res.rebuilt, res.built = kept, contestant, rebuilt, built
                results.append(res)
    uneven = different_files(missing, len(paths))
    if uneven:
        notes.append(f"the strategies were {uneven}")
    result = CompareResult(k, mode, indexing.model, list(questions), results, comparisons(results, answerable, k),
                           count, failures, comparisons_at_1=comparisons(results, answerable, 1),
                           warnings=notes)
    return score_budgets(result, judging.budgets)


def score_budgets(result: CompareResult, budgets: Sequence[int] | None = None) -> CompareResult:
    """``result`` scored at token budgets (from the ranked lists its search kept: no search
    again), and "best" made the best at the first of ``budgets``, with the paired tests at it.
    None: 256, 512, 1024, 2048 and the median of the strategies' tokens per question at k, the
    median being the one "best" uses. Returns ``result``, changed."""
    check_budgets(budgets)
    named = list(dict.fromkeys(budgets)) if budgets else [
        default_budget(s.tokens_per_question for s in result.strategies)]
    result.budget = named[0] if named[0] > 0 else None
    result.budgets = sorted((set(named) | (set() if budgets else set(FIXED_BUDGETS))) - {0})
    answerable = [q for q in result.questions if q.answerable]
    result.comparisons_at_budget = ([] if result.budget is None else
                                    paired(result.strategies, answerable, result.budget,
                                            judged_hits(result.k, result.budget)))
    return result


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
