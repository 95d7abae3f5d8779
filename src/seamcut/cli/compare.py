"""``seamcut compare``: every strategy on the same documents and questions, judged."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from .. import checks
from ..strategies import REGISTRY
from .errors import fail
from .options import Mode, ModeOption, Model, Overlap, Paths, ReadFlags, Size, Unit, UnitOption
from .render import err, print_comparison, print_failures


def compare_command(
    paths: Paths,
    questions: Annotated[Path, typer.Option("--questions", "-q", help="Test set: YAML, JSONL or CSV.")],
    strategies: Annotated[Optional[str], typer.Option(
        "--strategies", help=f"Comma-separated (default: all of {', '.join(REGISTRY)}); a variant as "
                             "NAME:OPTION=VALUE:..., e.g. parent-child:parents=blocks:size=48.")] = None,
    k: Annotated[int, typer.Option("-k", help="Results per question (hit rate at k).")] = 4,
    mode: ModeOption = Mode.hybrid,
    size: Size = None,
    overlap: Overlap = None,
    unit: UnitOption = Unit.tokens,
    model: Model = "default",
    reading: ReadFlags = ReadFlags(),
    out: Annotated[Path, typer.Option(
        "--out", help="Folder for the indexes and the misses files.")] = Path("out/compare"),
    json_out: Annotated[Optional[Path], typer.Option("--json", help="Write the results as JSON here.")] = None,
    report: Annotated[Optional[Path], typer.Option(
        "--report", help="Write a self-contained HTML report here.")] = None,
) -> None:
    """Run every strategy on the same documents and questions; print hit rate at k, MRR, chunk
    count, build time and tokens per question, and whether the differences are more than noise."""
    from ..corpus import read_corpus
    from ..evaluate import load_questions, write_json, write_misses
    from ..strategies.spec import parse_spec
    names = [s.strip() for s in strategies.split(",") if s.strip()] if strategies else list(REGISTRY)
    for name in names:  # a bad spec or test set stops before any file is read
        parse_spec(name)
    load_questions(questions)
    corpus = read_corpus(paths, options=reading.options(), catalog=reading.load_catalog())
    print_failures(corpus.failures, len(corpus.documents) + len(corpus.failures))
    if not corpus.documents:
        fail(f"no documents read from {', '.join(map(str, paths))}")
    result = checks.compare(corpus, questions, strategies=names, k=k, mode=mode.value, model=model,
                         size=size, overlap=overlap, unit=unit.value, workdir=out)
    misses = write_misses(result, out / "misses")
    print_comparison(result)
    err.print(f"misses for an expert to read: {misses[0].parent}/misses-<strategy>.md")
    if json_out:
        write_json(result, json_out)
        err.print(f"JSON: {json_out}")
    if report:
        from ..report.compare_html import write_compare_report
        write_compare_report(result, report)
        err.print(f"report: {report}")
    if corpus.failures:
        raise typer.Exit(1)
