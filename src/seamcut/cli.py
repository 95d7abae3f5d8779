"""The ``seamcut`` command. Thin: parses options, calls the library, prints."""
from __future__ import annotations

import json
import logging
import statistics
import sys
from enum import Enum
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.logging import RichHandler
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from . import __version__
from .api import chunk as chunk_document
from .errors import InputError
from .readers import expand, read
from .strategies import REGISTRY

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="RAG chunking that cuts where the document changes, and proves it.")
err = Console(stderr=True)


class Unit(str, Enum):
    tokens = "tokens"
    words = "words"
    chars = "chars"


def _version(value: bool) -> None:
    if value:
        print(f"seamcut {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Print the version and exit."),
         verbose: bool = typer.Option(False, "--verbose", "-v", help="Log what is going on.")) -> None:
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(message)s",
                        handlers=[RichHandler(console=err, show_time=False, show_path=False)])


@app.command()
def chunk(
    paths: list[Path] = typer.Argument(..., help="Files or folders (.txt, .md; folders recursively)."),
    strategy: str = typer.Option("recursive", "--strategy", "-s",
                                 help=f"One of: {', '.join(REGISTRY)}."),
    size: int = typer.Option(300, "--size", help="Most a chunk may hold, in --unit (special tokens included)."),
    overlap: int = typer.Option(50, "--overlap", help="What each chunk repeats of the one before, in --unit."),
    unit: Unit = typer.Option(Unit.tokens, "--unit", help="tokens (the model's), words or chars."),
    tokenizer: Optional[str] = typer.Option(
        None, "--tokenizer", help="tokenizer.json (file or folder) or tiktoken:NAME; default: the "
                                  "bundled multilingual-e5-small."),
    within_paragraph: bool = typer.Option(False, "--within-paragraph",
                                          help="recursive: join pieces only inside one paragraph."),
    encoding: Optional[str] = typer.Option(None, "--encoding", help="Text encoding of the inputs (default UTF-8)."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write JSONL here (default: standard output)."),
) -> None:
    """Cut documents into chunks: one JSON object per chunk per line, with every Chunk field."""
    if strategy not in REGISTRY:
        err.print(f"[red]error:[/] unknown strategy {strategy!r}; choose from {', '.join(REGISTRY)}")
        raise typer.Exit(2)
    options = {"within_paragraph": True} if within_paragraph else {}
    if within_paragraph and strategy != "recursive":
        err.print("[red]error:[/] --within-paragraph applies to the recursive strategy only")
        raise typer.Exit(2)
    files = list(expand(paths))
    failures: list[str] = []
    stats: list[tuple[str, list[int]]] = []
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
    sink = out.open("w", encoding="utf-8") if out else sys.stdout
    try:
        with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                      TimeElapsedColumn(), console=err, transient=True,
                      disable=len(files) < 2) as progress:
            task = progress.add_task("chunking", total=len(files))
            for f in files:
                progress.update(task, description=f"chunking {f.name}")
                try:
                    doc = read(f, encoding)
                    chunks = chunk_document(doc, strategy=strategy, size=size, overlap=overlap,
                                            unit=unit.value, tokenizer=tokenizer, **options)
                except InputError as exc:
                    failures.append(str(exc))
                except ValueError as exc:  # a config the model cannot take: same for every file
                    err.print(f"[red]error:[/] {exc}")
                    raise typer.Exit(2)
                else:
                    for c in chunks:
                        sink.write(json.dumps(c.to_dict(), ensure_ascii=False) + "\n")
                    stats.append((str(f), [c.tokens for c in chunks]))
                progress.advance(task)
    finally:
        if out:
            sink.close()
    _summary(stats, failures, out)
    if failures:
        raise typer.Exit(1)


def _summary(stats: list[tuple[str, list[int]]], failures: list[str], out: Optional[Path]) -> None:
    table = Table(title=f"chunks{f' → {out}' if out else ''}", title_justify="left")
    for col in ("file", "chunks", "min tokens", "median", "max"):
        table.add_column(col, justify="left" if col == "file" else "right")
    for name, toks in stats:
        if toks:
            table.add_row(name, str(len(toks)), str(min(toks)), f"{statistics.median(toks):g}", str(max(toks)))
        else:
            table.add_row(name, "0", "-", "-", "-")
    if stats:
        err.print(table)
    if failures:
        err.print(f"[red]{len(failures)} of {len(stats) + len(failures)} file(s) failed:[/]")
        for f in failures:
            err.print(f"  [red]✗[/] {f}")


if __name__ == "__main__":
    app()
