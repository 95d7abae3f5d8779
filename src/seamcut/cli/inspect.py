"""``seamcut inspect``: the guide's three checks on anyone's chunks (``seamcut.inspect``), and what
a peer's splitter counts (``--explain``)."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, List, Optional

import typer

from .. import checks
from .errors import fail
from .options import Flags, JsonOut, ReportOut, Unit
from .render import results_out, write_outputs
from .render_inspect import print_inspection, print_lines

if TYPE_CHECKING:
    from ..diagnose import Inspection


@dataclass(frozen=True)
class MadeWith(Flags):
    """What ``inspect``'s chunks were made with: their size and overlap, and the unit of both."""
    size: Annotated[Optional[int], typer.Option(
        "--size", help="The size the chunks were made with, in --unit (tokens include special "
                       "tokens).")] = None
    overlap: Annotated[Optional[int], typer.Option(
        "--overlap", help="The overlap they were made with, in --unit (default: for seamcut "
                          "chunks cut at their strategy's defaults, that default; else not "
                          "stated).")] = None
    unit: Annotated[Unit, typer.Option(
        "--unit", help="Unit of --size and --overlap: tokens (the model's), words or chars.")] = Unit.tokens


def inspect_command(
    args: Annotated[Optional[List[str]], typer.Argument(
        help="CHUNKS: seamcut's JSONL, or any JSONL/JSON list with a text field (LangChain "
             "Document dumps, LlamaIndex nodes), in document order. With --explain: the "
             "splitter's settings as name=value (e.g. chunk_size=300).")] = None,
    source: Annotated[Optional[List[Path]], typer.Option(
        "--source", help="Source documents (files or folders; repeat the option): chunks are "
                         "located in them, coverage is checked.")] = None,
    model: Annotated[str, typer.Option(
        "--model", help="default (multilingual-e5-small, 512 tokens), a sentence-transformers "
                        "folder or tokenizer.json, or tiktoken:NAME.")] = "default",
    made_with: MadeWith = MadeWith(),
    json_out: JsonOut = None,
    report: ReportOut = None,
    explain_splitter: Annotated[Optional[str], typer.Option(
        "--explain", help="Say what a splitter's size means (e.g. "
                          "langchain:RecursiveCharacterTextSplitter) in the model's tokens on the "
                          "--source documents; 'list' lists the known splitters.")] = None,
) -> None:
    """Check chunks from any tool: sizes, real overlap, truncation, coverage, tokenizer traps."""
    from ..diagnose import load_chunks, load_sources
    args = list(args or [])
    docs = load_sources(source) if source else []
    spec = None if model == "default" else model
    if explain_splitter is not None:
        _explain(explain_splitter, args, docs, spec)
        return
    if len(args) != 1:
        fail("give one CHUNKS file (or --explain SPLITTER)")
    path = Path(args[0])
    try:
        chunks = load_chunks(path)  # bad JSON or no text field: an InputError naming the file
    except FileNotFoundError:
        fail(f"{path}: no such file")
    ins = checks.inspect(chunks, docs, model=spec, size=made_with.size, overlap=made_with.overlap,
                         unit=made_with.unit.value)
    with results_out(json_out):
        print_inspection(ins)
    write_outputs(json_out, ins.to_json, report, lambda to: _write_report(ins, to, path))


def _write_report(ins: "Inspection", to: Path, chunks: Path) -> None:
    from ..report.inspect_html import write
    write(ins, to, title=f"seamcut inspect {chunks.name}")


def _explain(name: str, args: list[str], docs: list, model: Optional[str]) -> None:
    from ..diagnose.explain import explain, splitter_names
    if name == "list":
        print_lines(splitter_names())
        return
    params = {}
    for a in args:
        key, sep, value = a.partition("=")
        if not sep:
            fail(f"{a!r}: settings go as name=value (e.g. chunk_size=300)")
        params[key.strip()] = value.strip()
    print_lines(explain(name, params, docs, model).lines())
