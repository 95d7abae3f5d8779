"""``seamcut inspect``: the guide's three checks on anyone's chunks, from the command line.
Thin: parses, calls ``seamcut.diagnose`` / ``seamcut.explain``, prints. Registered on the app in
``cli.py``."""
from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer
from rich.console import Console
from rich.table import Table

from .errors import InputError

out = Console(soft_wrap=True)
err = Console(stderr=True)


class InspectUnit(str, Enum):
    tokens = "tokens"
    words = "words"
    chars = "chars"


def inspect_command(
    args: Optional[List[str]] = typer.Argument(
        None, help="CHUNKS: seamcut's JSONL, or any JSONL/JSON list with a text field (LangChain "
                   "Document dumps, LlamaIndex nodes), in document order. With --explain: the "
                   "splitter's settings as name=value (e.g. chunk_size=300)."),
    source: Optional[List[Path]] = typer.Option(
        None, "--source", help="Source documents (files or folders; repeat the option): "
                               "chunks are located in them, coverage is checked."),
    model: str = typer.Option("default", "--model", help="default (multilingual-e5-small, 512 "
                              "tokens), a sentence-transformers folder or tokenizer.json, or "
                              "tiktoken:NAME."),
    size: Optional[int] = typer.Option(None, "--size", help="The size the chunks were made "
                                       "with, in --unit (tokens include special tokens)."),
    overlap: Optional[int] = typer.Option(None, "--overlap", help="The overlap they were made "
                                          "with, in --unit."),
    unit: InspectUnit = typer.Option(InspectUnit.tokens, "--unit",
                                     help="Unit of --size and --overlap: tokens (the model's), "
                                          "words or chars."),
    json_out: Optional[Path] = typer.Option(None, "--json", help="Write the findings as JSON here."),
    report: Optional[Path] = typer.Option(None, "--report", help="Write an HTML report here."),
    explain_splitter: Optional[str] = typer.Option(
        None, "--explain", help="Say what a splitter's size means (e.g. "
                                "langchain:RecursiveCharacterTextSplitter) in the model's tokens "
                                "on the --source documents; 'list' lists the known splitters."),
) -> None:
    """Check chunks from any tool: sizes, real overlap, truncation, coverage, tokenizer traps."""
    args = list(args or [])
    docs = _sources(source)
    if explain_splitter is not None:
        _explain(explain_splitter, args, docs, model)
        return
    if len(args) != 1:
        err.print("[red]error:[/] give one CHUNKS file (or --explain SPLITTER)")
        raise typer.Exit(2)
    from .diagnose import inspect_chunks, load_chunks

    path = Path(args[0])
    try:
        chunks = load_chunks(path)
    except FileNotFoundError:
        err.print(f"[red]error:[/] {path}: no such file")
        raise typer.Exit(2)
    except ValueError as exc:  # bad JSON or no text field
        err.print(f"[red]error:[/] {path}: {exc}")
        raise typer.Exit(2)
    try:
        ins = inspect_chunks(chunks, sources=docs, model=None if model == "default" else model,
                             size=size, overlap=overlap, unit=unit.value)
    except (ValueError, FileNotFoundError, TypeError) as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2)
    _print(ins)
    if json_out:
        json_out.parent.mkdir(parents=True, exist_ok=True)
        json_out.write_text(json.dumps(ins.to_json(), ensure_ascii=False, indent=1), encoding="utf-8")
        err.print(f"findings → {json_out}")
    if report:
        from .report.inspect_html import write

        write(ins, report, title=f"seamcut inspect {path.name}")
        err.print(f"report → {report}")


def _sources(paths: Optional[List[Path]]) -> list:
    if not paths:
        return []
    from .diagnose import load_sources

    try:
        return load_sources(paths)
    except InputError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2)


def _explain(name: str, args: list[str], docs: list, model: str) -> None:
    from .explain import explain, splitter_names

    if name == "list":
        for n in splitter_names():
            out.print(n)
        return
    params = {}
    for a in args:
        key, sep, value = a.partition("=")
        if not sep:
            err.print(f"[red]error:[/] {a!r}: settings go as name=value (e.g. chunk_size=300)")
            raise typer.Exit(2)
        params[key.strip()] = value.strip()
    try:
        e = explain(name, params, docs, None if model == "default" else model)
    except (ValueError, FileNotFoundError, TypeError) as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2)
    for line in e.lines():
        out.print(line, markup=False, highlight=False)


def _print(ins) -> None:  # noqa: ANN001 - an Inspection
    t = Table(title=f"{ins.chunks} chunks — sizes of the embedded text", title_justify="left")
    for col in ("unit", "min", "median", "max", "over the stated size"):
        t.add_column(col, justify="left" if col == "unit" else "right")
    for s in ins.sizes.values():
        name = f"tokens ({ins.model})" if s.unit == "tokens" else s.unit
        t.add_row(name, str(s.min), f"{s.median:g}", str(s.max),
                  f"{s.over} of {ins.chunks} ({s.share_over:.0%}) over {s.limit}" if s.limit else "–")
    out.print(t)
    tok = ins.sizes["tokens"]
    if tok.counts:
        top = max(tok.counts)
        for lo, hi, c in zip(tok.edges, tok.edges[1:], tok.counts):
            out.print(f"  {lo:7.0f}–{hi:<7.0f} {'█' * max(1 if c else 0, round(30 * c / top))} {c}",
                      highlight=False)
    pairs = ins.pairs
    target = (f"configured {ins.overlap_target} {ins.unit}" if ins.overlap_target is not None
              else "no overlap configured")
    if pairs:
        units = sorted(p.overlap_units for p in pairs if p.overlap_units is not None)
        methods = sorted({p.method for p in pairs})
        out.print(f"overlap: {len(pairs)} neighbour pairs ({target}); shared {ins.unit}: min "
                  f"{units[0]}, median {units[len(units) // 2]}, max {units[-1]} "
                  f"(found by {', '.join(methods)})", highlight=False)
        if ins.zero_overlap_pairs:
            shown = ", ".join(f"{i}–{i + 1}" for i in ins.zero_overlap_pairs[:20])
            more = " …" if len(ins.zero_overlap_pairs) > 20 else ""
            out.print(f"  [red]{len(ins.zero_overlap_pairs)} of {len(pairs)} pairs share 0 "
                      f"characters[/]: {shown}{more}")
        short = [i for i in ins.short_overlap_pairs if i not in ins.zero_overlap_pairs]
        if short:
            out.print(f"  [yellow]{len(short)} more share less than half the configured overlap[/]")
    else:
        out.print("overlap: no neighbour pairs")
    if ins.max_input is None:
        out.print("truncation: the model's maximum input is unknown; not checked")
    elif ins.over_limit:
        worst = max(ins.over_limit, key=lambda x: x.tokens)
        out.print(f"[red]truncation: {len(ins.over_limit)} of {ins.chunks} chunks exceed the "
                  f"model's maximum input of {ins.max_input} tokens; {ins.tokens_lost} tokens "
                  f"would never be embedded[/] (largest: chunk {worst.index}, {worst.tokens} "
                  f"tokens, {worst.lost} lost)")
    else:
        out.print(f"truncation: none (every chunk within {ins.max_input} tokens)")
    cov = ins.coverage
    if cov is None:
        out.print("coverage: not checked (give the source documents with --source)")
    else:
        style = "red" if cov.uncovered_chars or cov.foreign_chars else "green"
        out.print(f"[{style}]coverage: {cov.uncovered_chars} non-whitespace source characters "
                  f"in no chunk ({len(cov.uncovered)} spans); {cov.foreign_chars} chunk "
                  f"characters not in the sources ({len(cov.foreign)} chunks)[/]")
        for f in cov.foreign[:5]:
            how = "not found" if f.unlocated else "found only ignoring case and spacing"
            out.print(f"  chunk {f.index}: {f.chars} foreign characters, {how}: {f.excerpt}",
                      markup=False, highlight=False)
    for trap in ins.traps:
        out.print(f"[red]trap:[/] {trap}", highlight=False)
    for note in ins.notes:
        out.print(f"note: {note}", markup=False, highlight=False)


__all__ = ["inspect_command"]
