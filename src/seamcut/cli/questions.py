"""``seamcut questions check``: a test set checked against the documents as seamcut reads them."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .options import JsonOut, LimitFlags, NamedSource, Paths, ReadFlags
from .render import err, print_failures, results_out, write_outputs

if TYPE_CHECKING:
    from ..evaluate.questions_check import QuestionsReport

questions_app = typer.Typer(no_args_is_help=True, help="Check a test set before it judges anything.")

QuestionsFile = Annotated[Path, typer.Argument(help="Test set: YAML, JSONL or CSV.")]


def check_command(
    questions: QuestionsFile,
    paths: Paths,
    reading: ReadFlags = ReadFlags(),
    scale: LimitFlags = LimitFlags(),
    named_source: NamedSource = False,
    json_out: JsonOut = None,
) -> None:
    """Find where each question's answer text occurs in the documents, read as `compare` reads
    them and matched as its hit test matches: a question whose answer is in no document (not
    found) or not in the source it names, or that names a file not among them (wrong source), is
    unusable, exit status 1; one found in
    more than one place (ambiguous) or not on the page it names (wrong page) is a warning."""
    from ..evaluate import load_questions
    from ..evaluate.questions import only_named_source
    from ..evaluate.questions_check import check_questions
    from ..pipeline.corpus import read_corpus
    asked = load_questions(questions)  # a bad test set stops before any file is read
    if named_source:
        asked = only_named_source(asked)
    corpus = read_corpus(paths, options=reading.options(), catalog=reading.load_catalog(),
                         limits=scale.limits())
    print_failures(corpus.failures, len(corpus.documents) + len(corpus.failures))
    report = check_questions(asked, corpus.documents)
    with results_out(json_out):
        print_report(report)
    write_outputs(json_out, report.to_json, None, lambda path: None)
    if report.unusable:
        raise typer.Exit(1)


def print_report(report: "QuestionsReport") -> None:
    """A row per question with a problem on standard output, the counts on standard error."""
    rows = report.with_problems
    if rows:
        table = Table(title="questions with a problem")
        for col in ("id", "usable", "source", "page", "problems"):
            table.add_column(col, overflow="fold")
        for c in rows:
            q = c.question
            table.add_row(escape(q.id), "yes" if c.usable else "[red]no[/]", escape(q.source or ""),
                          "" if q.page is None else str(q.page), escape("; ".join(c.problems())))
        Console(width=max(Console().width, 140)).print(table)
    print_check_summary(report)


def print_check_summary(report: "QuestionsReport | None", lead: str = "") -> None:
    """The counts after ``lead``, and each unusable question with its problems, on standard
    error (nothing for None: no check was made)."""
    if report is None:
        return
    err.print(escape(lead + report.summary()), soft_wrap=True, highlight=False)
    for c in report.unusable:
        err.print(f"[red]unusable:[/] {escape(c.question.id)}: {escape('; '.join(c.problems()))}",
                  soft_wrap=True, highlight=False)
