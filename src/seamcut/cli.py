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
from .catalog import Catalog, load_catalog
from .model import Document
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
    size: Optional[int] = typer.Option(None, "--size", help="Most a chunk may hold, in --unit, special tokens included (default 300; parent-child children 100)."),
    overlap: Optional[int] = typer.Option(None, "--overlap", help="What each chunk repeats of the one before, in --unit (default 50; parent-child 0)."),
    parent_size: Optional[int] = typer.Option(None, "--parent-size", help="parent-child: the most a parent section may hold (default 800)."),
    unit: Unit = typer.Option(Unit.tokens, "--unit", help="tokens (the model's), words or chars."),
    tokenizer: Optional[str] = typer.Option(
        None, "--tokenizer", help="tokenizer.json (file or folder) or tiktoken:NAME; default: the "
                                  "bundled multilingual-e5-small."),
    within_paragraph: bool = typer.Option(False, "--within-paragraph",
                                          help="recursive: join pieces only inside one paragraph."),
    encoding: Optional[str] = typer.Option(None, "--encoding", help="Text encoding of the inputs (default UTF-8)."),
    catalog: Optional[Path] = typer.Option(None, "--catalog", help="CSV or YAML of document fields (file, doc_type, crop, year, language, ...)."),
    ocr: str = typer.Option("auto", "--ocr", help="PDF pages to OCR: auto (no usable text layer), always, never."),
    languages: Optional[str] = typer.Option(None, "--languages", help="OCR languages, e.g. en,hi,mr (default: detected)."),
    password: Optional[str] = typer.Option(None, "--password", help="Password of encrypted PDFs."),
    out: Optional[Path] = typer.Option(None, "--out", "-o", help="Write JSONL here (default: standard output)."),
) -> None:
    """Cut documents into chunks: one JSON object per chunk per line, with every Chunk field."""
    if strategy not in REGISTRY:
        err.print(f"[red]error:[/] unknown strategy {strategy!r}; choose from {', '.join(REGISTRY)}")
        raise typer.Exit(2)
    options: dict = {"within_paragraph": True} if within_paragraph else {}
    if parent_size is not None:
        options["parent_size"] = parent_size
    if within_paragraph and strategy != "recursive":
        err.print("[red]error:[/] --within-paragraph applies to the recursive strategy only")
        raise typer.Exit(2)
    files = list(expand(paths))
    cat = _catalog(catalog)
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
                    doc = _read(f, encoding, cat, ocr, languages, password)
                    chunks = chunk_document(doc, strategy=strategy, size=size, overlap=overlap,
                                            unit=unit.value, tokenizer=tokenizer, **options)
                except InputError as exc:
                    failures.append(str(exc))
                except ValueError as exc:  # a config the model cannot take: same for every file
                    err.print(f"[red]error:[/] {exc}")
                    raise typer.Exit(2)
                except Exception as exc:  # a reader's bug must not stop the batch either
                    failures.append(f"{f}: unexpected {type(exc).__name__}: {exc}")
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


def _catalog(path: Optional[Path]) -> Optional[Catalog]:
    if path is None:
        return None
    try:
        return load_catalog(path)
    except InputError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2)


def _read(path: Path, encoding: Optional[str], cat: Optional[Catalog], ocr: str,
          languages: Optional[str], password: Optional[str]) -> Document:
    if ocr not in ("auto", "always", "never"):
        raise typer.BadParameter("--ocr takes auto, always or never")
    return read(path, encoding=encoding, ocr=ocr, password=password,
                languages=languages.split(",") if languages else None,
                fields=cat.fields_for(path) if cat else None)


class Format(str, Enum):
    json = "json"
    markdown = "markdown"


@app.command("read")
def read_command(
    path: Path = typer.Argument(..., help="One file: PDF, Word, HTML, Markdown, text or a scanned image."),
    fmt: Format = typer.Option(Format.markdown, "--format", "-f", help="json or markdown."),
    encoding: Optional[str] = typer.Option(None, "--encoding", help="Text encoding (default UTF-8)."),
    catalog: Optional[Path] = typer.Option(None, "--catalog", help="CSV or YAML of document fields."),
    ocr: str = typer.Option("auto", "--ocr", help="PDF pages to OCR: auto, always, never."),
    languages: Optional[str] = typer.Option(None, "--languages", help="OCR languages, e.g. en,hi,mr."),
    password: Optional[str] = typer.Option(None, "--password", help="Password of an encrypted PDF."),
) -> None:
    """Print what the parser saw: elements with kind, level, page and language; tables as rows."""
    try:
        doc = _read(path, encoding, _catalog(catalog), ocr, languages, password)
    except InputError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(1)
    if fmt is Format.json:
        print(json.dumps(document_json(doc), ensure_ascii=False, indent=1))
    else:
        print(document_markdown(doc))


def document_json(doc: Document) -> dict:
    """A document as plain data: its fields and every element with its text."""
    elements = []
    for e in doc.elements:
        item = {"kind": e.kind, "level": e.level, "page": e.page, "language": e.language,
                "start": e.start, "end": e.end, "text": doc.text[e.start:e.end]}
        meta = {k: v for k, v in e.metadata.items() if k != "row_spans"}
        if meta:
            item["metadata"] = meta
        elements.append(item)
    return {"source": doc.source, "id": doc.id, "language": doc.language,
            "pages": len(doc.page_starts), "metadata": dict(doc.metadata), "elements": elements}


def document_markdown(doc: Document) -> str:
    """A document as Markdown, to read what the parser saw: headings, lists, tables, pages."""
    out, page = [], None
    for e in doc.elements:
        if e.page is not None and e.page != page:
            page = e.page
            out.append(f"<!-- page {page} -->")
        tag = f" <!-- {e.language} -->" if e.language and e.language != doc.language else ""
        text = doc.text[e.start:e.end]
        if e.kind in ("title", "heading"):
            heading = e.metadata.get("text") or text.lstrip("#").strip()
            out.append("#" * (1 if e.kind == "title" else min(e.level or 1, 6)) + " " + heading + tag)
        elif e.kind == "list_item":
            out.append("- " + " ".join(text.split()) + tag)
        elif e.kind == "table" and e.metadata.get("rows"):
            rows = e.metadata["rows"]
            width = max(len(r) for r in rows)
            lines = ["| " + " | ".join(list(r) + [""] * (width - len(r))) + " |" for r in rows]
            lines.insert(max(1, e.metadata.get("header_rows", 1)), "|" + " --- |" * width)
            out.append("\n".join(lines))
        elif e.kind == "code":
            out.append("```\n" + text + "\n```")
        else:
            out.append(text + tag)
    head = f"<!-- {doc.source}: {len(doc.elements)} elements, language {doc.language} -->"
    return head + "\n\n" + "\n\n".join(out)


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
