"""``seamcut chunk`` and ``seamcut read``: documents in, chunks or what the parser saw out."""
from __future__ import annotations

import json
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..api import chunk as chunk_document
from ..chunks_jsonl import write_document
from ..strategies import DEFAULT_STRATEGY
from ..strategies.held import held_reports
from ..errors import InputError
from .errors import fail, on_error
from .options import Paths, ReadFlags, StrategyFlags
from .render import (document_json, document_markdown, print_chunk_summary, print_failures,
                     print_warnings)


class Format(str, Enum):
    json = "json"
    markdown = "markdown"


def chunk_command(
    paths: Paths,
    cutting: StrategyFlags = StrategyFlags(DEFAULT_STRATEGY),
    within_paragraph: Annotated[bool, typer.Option(
        "--within-paragraph", help="recursive: join pieces only inside one paragraph.")] = False,
    reading: ReadFlags = ReadFlags(),
    out: Annotated[Optional[Path], typer.Option(
        "--out", "-o", help="Write JSONL here (default: standard output): a line per document, "
                            "then a line per chunk of it.")] = None,
) -> None:
    """Cut documents into chunks, as JSON lines: each document's line (its metadata, once), then
    one line per chunk of it with every Chunk field (docs/strategies.md)."""
    from ..peers.spec import cut_as_judged
    from ..strategies.spec import StrategySpec
    spec = cutting.resolve()
    if within_paragraph:
        if spec.name != "recursive":
            fail("--within-paragraph applies to the recursive strategy only: add --strategy recursive")
        spec = spec.with_options({"within_paragraph": True})
    from ..pipeline.corpus import read_corpus
    corpus = read_corpus(paths, options=reading.options(), catalog=reading.load_catalog())
    stats: list[tuple[str, list[int]]] = []
    notes: list[str] = []
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
    sink = out.open("w", encoding="utf-8") if out else sys.stdout
    try:
        for doc in corpus.documents:
            notes.extend(doc.metadata.get("warnings", ()))
            with held_reports() as held:
                if isinstance(spec, StrategySpec):
                    chunks = chunk_document(doc, spec)  # a bad config: the same for every file
                else:  # another library's pipeline: its chunks, laid out as their own document
                    doc, chunks = cut_as_judged(spec, doc)
                    notes.extend(w for w in doc.metadata.get("warnings", ()) if w not in notes)
            notes.extend(held)
            write_document(sink, doc, chunks)
            stats.append((doc.source, [c.tokens for c in chunks]))
    finally:
        if out:
            sink.close()
    print_chunk_summary(stats, out)
    print_warnings(notes)
    print_failures(corpus.failures, len(stats) + len(corpus.failures))
    if corpus.failures:
        raise typer.Exit(1)


def read_command(
    path: Annotated[Path, typer.Argument(
        help="One file: PDF, Word, HTML, Markdown, text or a scanned image.")],
    fmt: Annotated[Format, typer.Option("--format", "-f", help="json or markdown.")] = Format.markdown,
    reading: ReadFlags = ReadFlags(),
) -> None:
    """Print what the parser saw: the document's fields, each with where it came from (the
    catalog, or the rule that found it in the text); elements with kind, level, page and
    language; tables as rows."""
    catalog = reading.load_catalog()
    with on_error(InputError, code=1):
        doc = reading.read(path, catalog)
    print_warnings(doc.metadata.get("warnings", ()))
    if fmt is Format.json:
        print(json.dumps(document_json(doc), ensure_ascii=False, indent=1))
    else:
        print(document_markdown(doc))
