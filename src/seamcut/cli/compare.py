"""``seamcut compare``: every strategy on the same documents and questions, judged."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, List, Optional

import typer

from .. import checks
from ..strategies import REGISTRY
from .options import (K, Device, EngineFlags, JsonOut, LimitFlags, Mode, ModeOption, Model, NamedSource,
                      Overlap, Paths, Questions, ReadFlags, ReportOut, Size, Unit, UnitOption,
                      model_on_device)
from .questions import print_check_summary
from .render import (err, print_builds, print_comparison, print_failures, print_warnings, results_out,
                     write_outputs)

if TYPE_CHECKING:
    from ..evaluate import CompareResult


def compare_command(
    paths: Paths,
    questions: Questions,
    strategies: Annotated[Optional[str], typer.Option(
        "--strategies", help=f"Comma-separated (default: all of {', '.join(REGISTRY)}); a variant as "
                             "NAME:OPTION=VALUE:..., e.g. parent-child:parents=blocks:size=48.")] = None,
    k: K = 4,
    budget: Annotated[Optional[List[str]], typer.Option(
        "--budget", help="Tokens sent to the model per question to score at (repeat it or give a comma "
                         "list; the first is the one 'best' uses). Default: 256, 512, 1024, 2048 and "
                         "the median of the strategies' tokens per question at k, which 'best' uses.")] = None,
    mode: ModeOption = Mode.hybrid,
    size: Size = None,
    overlap: Overlap = None,
    unit: UnitOption = Unit.tokens,
    model: Model = "default",
    device: Device = "cpu",
    reading: ReadFlags = ReadFlags(),
    scale: LimitFlags = LimitFlags(),
    run_on: EngineFlags = EngineFlags(),
    out: Annotated[Path, typer.Option(
        "--out", "-o", help="Folder for the indexes and the misses files.")] = Path("out/compare"),
    named_source: NamedSource = False,
    json_out: JsonOut = None,
    report: ReportOut = None,
) -> None:
    """Run every strategy on the same documents and questions; print hit rate at k, MRR, chunk
    count, build time, tokens per question and hits within a budget of tokens sent, and whether
    the differences are more than noise (best: most hits within the budget, then MRR).

    Each strategy's index is built as `seamcut index` builds one (files read and cut in worker
    processes, parsed once for all strategies; one embedding cache) into OUT/index/NAME, and
    reused by the next run when its options and files are the same."""
    from ..evaluate import load_questions, parse_budgets, score_budgets, write_misses
    from ..strategies.spec import parse_spec
    names = [s.strip() for s in strategies.split(",") if s.strip()] if strategies else list(REGISTRY)
    for name in names:  # a bad spec or test set stops before any file is read
        parse_spec(name)
    load_questions(questions)
    budgets = parse_budgets(budget or [])
    engine = run_on.engine_spec(device, model)
    model, embedder = model_on_device(model, device, engine=engine.name)
    result = checks.compare(paths, questions, strategies=names, k=k, mode=mode.value, model=model,
                            embedder=embedder, size=size, overlap=overlap, unit=unit.value, workdir=out,
                            read_options=reading.options(), catalog=reading.load_catalog(),
                            limits=scale.limits(), engine=engine, named_source=named_source)
    if budgets:
        score_budgets(result, budgets)
    print_failures(result.failures, result.documents + len(result.failures))
    print_check_summary(result.questions_check, "questions check: ")
    misses = write_misses(result, out / "misses")
    print_builds(result)
    with results_out(json_out):
        print_comparison(result)
    print_warnings(result.warnings)
    err.print(f"misses for an expert to read: {misses[0].parent}/misses-<strategy>.md")
    write_outputs(json_out, result.to_json, report,
                  lambda path: _write_report(result, path))
    if result.failures:
        raise typer.Exit(1)


def _write_report(result: "CompareResult", path: Path) -> None:
    from ..report.compare_html import write_compare_report
    write_compare_report(result, path)
