"""``seamcut compare``: every strategy on the same documents and questions, judged."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, List, Optional

import typer

from .. import checks
from ..strategies import REGISTRY
from .options import (K, EngineFlags, Flags, LimitFlags, Mode, ModeOption, ModelFlags, Overlap, Paths,
                      Questions, ReadFlags, ResultFlags, Size, Unit, UnitOption, indexing_of)
from .questions import print_check_summary
from .render import (err, print_builds, print_comparison, print_failures, print_warnings, results_out,
                     write_outputs)

if TYPE_CHECKING:
    from ..evaluate import CompareResult
    from ..strategies.spec import StrategySpec


@dataclass(frozen=True)
class CompareFlags(Flags):
    """What ``compare`` runs and how it judges: the strategies, k, the budgets, the search mode,
    and the sizes every strategy is cut to."""
    strategies: Annotated[Optional[str], typer.Option(
        "--strategies", help=f"Comma-separated (default: all of {', '.join(REGISTRY)}); a variant as "
                             "NAME:OPTION=VALUE:..., e.g. parent-child:parents=blocks:size=48. Also another library's "
                             "pipeline, run as its users run it (LIBRARY:CHUNKER:OPTION=VALUE, its options by "
                             "its own names; :reader=seamcut cuts seamcut's reading): langchain:recursive:"
                             "chunk_size=1000:chunk_overlap=200, llamaindex:sentence, chonkie:recursive, "
                             "unstructured:by_title, pymupdf4llm:markdown, docling:hybrid; or chunks:PATH, "
                             "chunks made anywhere (JSONL: text, source, page).")] = None
    k: K = 4
    budget: Annotated[Optional[List[str]], typer.Option(
        "--budget", help="Tokens sent to the model per question to score at (repeat it or give a comma "
                         "list; the first is the one 'best' uses). Default: 256, 512, 1024, 2048 and "
                         "the median of the strategies' tokens per question at k, which 'best' uses.")] = None
    mode: ModeOption = Mode.hybrid
    filters: Annotated[Optional[str], typer.Option(
        "--filters", help="How each question's search is filtered, each judged as a row of its own "
                          "(comma-separated): none (the whole index), where (the test set's where: "
                          "per question), question (filters read from the question's words: the "
                          "index's field values and their aliases it names, falling back to the "
                          "whole index where they leave fewer than k results). Default: none, and "
                          "where where a question carries one.")] = None
    size: Size = None
    overlap: Overlap = None
    unit: UnitOption = Unit.tokens

    def ways(self) -> list[str] | None:
        """The ways of filtering named (None: the default)."""
        return [w.strip() for w in self.filters.split(",") if w.strip()] if self.filters else None

    def specs(self) -> list["StrategySpec"]:
        """The strategies, each parsed once (the one parse of the command), with the sizes
        given for every one under its own options."""
        from ..peers import parse_contestant
        from ..strategies.spec import run_sizes
        names = [s.strip() for s in self.strategies.split(",") if s.strip()] if self.strategies else list(REGISTRY)
        sizes = run_sizes(self.size, self.overlap, self.unit.value)
        return [parse_contestant(name).with_defaults(sizes) for name in names]


def compare_command(
    paths: Paths,
    questions: Questions,
    judged: CompareFlags = CompareFlags(),
    embedding: ModelFlags = ModelFlags(),
    reading: ReadFlags = ReadFlags(),
    scale: LimitFlags = LimitFlags(),
    run_on: EngineFlags = EngineFlags(),
    results: ResultFlags = ResultFlags(),
) -> None:
    """Run every strategy on the same documents and questions; print hit rate at k, MRR, chunk
    count, build time, tokens per question and hits within a budget of tokens sent, and whether
    the differences are more than noise (best: most hits within the budget, then MRR).

    Each strategy's index is built as `seamcut index` builds one (files read and cut in worker
    processes, parsed once for all strategies; one embedding cache) into OUT/index/NAME, and
    reused by the next run when its options and files are the same."""
    from ..evaluate import load_questions, parse_budgets, write_misses
    from ..evaluate.options import Judging
    specs = judged.specs()  # a bad spec or test set stops before any file is read
    asked = load_questions(questions)  # read once
    budgets = parse_budgets(judged.budget or [])
    engine = run_on.make_engine(embedding.device, embedding.model)
    out = results.out
    result = checks.compare(paths, asked, specs, indexing=indexing_of(embedding, reading, scale, out, engine),
                            judging=Judging(judged.k, judged.mode.value, budgets or None, judged.ways()),
                            named_source=results.named_source)
    print_failures(result.failures, result.documents + len(result.failures))
    print_check_summary(result.questions_check, "questions check: ")
    misses = write_misses(result, out / "misses")
    print_builds(result)
    with results_out(results.json_out):
        print_comparison(result)
    print_warnings(result.warnings)
    err.print(f"misses for an expert to read: {misses[0].parent}/misses-<strategy>.md")
    write_outputs(results.json_out, result.to_json, results.report,
                  lambda path: _write_report(result, path))
    if result.failures:
        raise typer.Exit(1)


def _write_report(result: "CompareResult", path: Path) -> None:
    from ..report.compare_html import write_compare_report
    write_compare_report(result, path)
