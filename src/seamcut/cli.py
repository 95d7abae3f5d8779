"""The ``seamcut`` command. Thin: parses options, calls the library, prints."""
from __future__ import annotations

import json
import logging
import statistics
import sys
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Optional

import typer
from rich.console import Console
from rich.logging import RichHandler
from rich.table import Table

from . import __version__
from .api import chunk as chunk_document
from .errors import InputError
from .catalog import Catalog, load_catalog
from .model import Document
from .readers import read
from .strategies import REGISTRY

if TYPE_CHECKING:
    from .corpus import ReadOptions

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="RAG chunking that cuts where the document changes, and proves it.")
err = Console(stderr=True)
PARENTS_HELP = ("parent-child: what a parent is: sections (default; a section, or as many of its blocks "
                "as fit in --parent-size) or blocks (one paragraph, table or list).")


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
    paths: list[Path] = typer.Argument(..., help="Files or folders (folders recursively)."),
    strategy: str = typer.Option("recursive", "--strategy", "-s",
                                 help=f"One of: {', '.join(REGISTRY)}; or a variant, NAME:OPTION=VALUE:..."),
    size: Optional[int] = typer.Option(None, "--size", help="Most a chunk may hold, in --unit, special tokens included (default 300; parent-child children 100)."),
    overlap: Optional[int] = typer.Option(None, "--overlap", help="What each chunk repeats of the one before, in --unit (default 50; parent-child 0)."),
    parent_size: Optional[int] = typer.Option(None, "--parent-size", help="parent-child: the most a parent section may hold (default 800)."),
    parents: Optional[str] = typer.Option(None, "--parents", help=PARENTS_HELP),
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
    strategy, options = _spec(strategy)
    options.update(_strategy_options(size, overlap, unit, tokenizer, parent_size, parents))
    if within_paragraph:
        options["within_paragraph"] = True
    if within_paragraph and strategy != "recursive":
        err.print("[red]error:[/] --within-paragraph applies to the recursive strategy only")
        raise typer.Exit(2)
    from .corpus import read_corpus
    corpus = read_corpus(paths, options=_read_options(ocr, languages, password, encoding),
                         catalog=_catalog(catalog))
    failures: list[str] = [str(f) for f in corpus.failures]
    stats: list[tuple[str, list[int]]] = []
    if out:
        out.parent.mkdir(parents=True, exist_ok=True)
    sink = out.open("w", encoding="utf-8") if out else sys.stdout
    try:
        for doc in corpus.documents:
            try:
                chunks = chunk_document(doc, strategy=strategy, **options)
            except ValueError as exc:  # a config the model cannot take: same for every file
                err.print(f"[red]error:[/] {exc}")
                raise typer.Exit(2)
            for c in chunks:
                sink.write(json.dumps(c.to_dict(), ensure_ascii=False) + "\n")
            stats.append((doc.source, [c.tokens for c in chunks]))
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
    o = _read_options(ocr, languages, password, encoding)
    return read(path, encoding=o.encoding, ocr=o.ocr, password=o.password,
                languages=list(o.languages) if o.languages else None,
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


from .cli_inspect import inspect_command  # noqa: E402 - the inspect command lives in its own module

app.command("inspect")(inspect_command)



# -- index, search, compare ----------------------------------------------------------------------

class Mode(str, Enum):
    hybrid = "hybrid"
    vector = "vector"
    text = "text"


def _read_options(ocr: str, languages: Optional[str], password: Optional[str],
                  encoding: Optional[str]) -> "ReadOptions":
    from .corpus import ReadOptions
    if ocr not in ("auto", "always", "never"):
        raise typer.BadParameter("--ocr takes auto, always or never")
    return ReadOptions(ocr=ocr, languages=tuple(languages.split(",")) if languages else None,
                       password=password, encoding=encoding)


def _spec(text: str) -> tuple[str, dict]:
    """A --strategy value, a name or a variant such as ``parent-child:parents=blocks``: the
    strategy's name and the options the spec sets (the other flags are applied over them)."""
    from .strategies.spec import parse_spec
    try:
        spec = parse_spec(text)
    except ValueError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2)
    return spec.name, dict(spec.options)


def _strategy_options(size: Optional[int], overlap: Optional[int], unit: "Unit",
                      tokenizer: Optional[str], parent_size: Optional[int],
                      parents: Optional[str] = None) -> dict:
    """The strategy options the flags set (a flag left at its default sets nothing)."""
    opts: dict = {k: v for k, v in (("size", size), ("overlap", overlap),
                                    ("parent_size", parent_size), ("parents", parents),
                                    ("tokenizer", tokenizer)) if v is not None}
    if unit is not Unit.tokens:
        opts["unit"] = unit.value
    return opts


def _print_failures(failures: list, total: int) -> None:
    if failures:
        err.print(f"[red]{len(failures)} of {total} file(s) failed:[/]")
        for f in failures:
            err.print(f"  [red]✗[/] {f}")


@app.command("index")
def index_command(
    paths: list[Path] = typer.Argument(..., help="Files or folders (folders recursively)."),
    db: Path = typer.Option(..., "--db", help="Index folder (created if missing)."),
    strategy: str = typer.Option("structure", "--strategy", "-s", help=f"One of: {', '.join(REGISTRY)}; or a variant, NAME:OPTION=VALUE:..."),
    size: Optional[int] = typer.Option(None, "--size", help="Chunk size in --unit (default: the strategy's)."),
    overlap: Optional[int] = typer.Option(None, "--overlap", help="Overlap in --unit (default: the strategy's)."),
    parent_size: Optional[int] = typer.Option(None, "--parent-size", help="parent-child: the most a parent may hold."),
    parents: Optional[str] = typer.Option(None, "--parents", help=PARENTS_HELP),
    unit: Unit = typer.Option(Unit.tokens, "--unit", help="tokens (the model's), words or chars."),
    tokenizer: Optional[str] = typer.Option(None, "--tokenizer", help="tokenizer.json or tiktoken:NAME for sizes."),
    model: str = typer.Option("default", "--model", help="Embedding model: default (multilingual-e5-small) or a sentence-transformers folder."),
    catalog: Optional[Path] = typer.Option(None, "--catalog", help="CSV or YAML of document fields."),
    ocr: str = typer.Option("auto", "--ocr", help="PDF pages to OCR: auto, always, never."),
    languages: Optional[str] = typer.Option(None, "--languages", help="OCR languages, e.g. en,hi,mr."),
    password: Optional[str] = typer.Option(None, "--password", help="Password of encrypted PDFs."),
    encoding: Optional[str] = typer.Option(None, "--encoding", help="Text encoding of the inputs."),
    rebuild: bool = typer.Option(False, "--rebuild", help="Delete the index folder first."),
    workers: Optional[int] = typer.Option(None, "--workers", help="Processes reading files (default: one per core)."),
) -> None:
    """Read, chunk, embed and store documents in an on-disk index; unchanged files are skipped."""
    from .corpus import read_corpus
    from .index import Index, IndexConfigError, remove_index
    strategy, opts = _spec(strategy)
    opts.update(_strategy_options(size, overlap, unit, tokenizer, parent_size, parents))
    try:
        if rebuild:
            remove_index(db)
        index = Index(db, strategy=strategy, options=opts, model=model)
    except IndexConfigError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2)
    corpus = read_corpus(paths, options=_read_options(ocr, languages, password, encoding),
                         catalog=_catalog(catalog), workers=workers)
    try:
        report = index.update(corpus.documents, lambda d: chunk_document(d, strategy=strategy, **opts),
                              corpus.hashes)
    except (ValueError, IndexConfigError) as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2)
    err.print(f"{db}: {len(report.added)} file(s) added, {len(report.replaced)} replaced, "
              f"{len(report.unchanged)} unchanged; {report.chunks} chunk(s) written"
              + (f" with {report.parents} parent(s)" if report.parents else "")
              + f", {report.embedded} embedded; {index.count()} in the index")
    _print_failures([str(f) for f in corpus.failures], len(corpus.failures) + len(corpus.documents))
    if corpus.failures:
        raise typer.Exit(1)


@app.command("search")
def search_command(
    query: str = typer.Argument(..., help="The question."),
    db: Path = typer.Option(..., "--db", help="Index folder made by `seamcut index`."),
    k: int = typer.Option(4, "-k", help="How many results."),
    mode: Mode = typer.Option(Mode.hybrid, "--mode", help="hybrid (vectors + words, fused by rank), vector or text."),
    where: Optional[str] = typer.Option(None, "--where", help="SQL filter, e.g. \"crop = 'cotton' AND year >= 2025\"."),
    max_tokens: Optional[int] = typer.Option(None, "--max-tokens", help="parent-child: most tokens of parents to return."),
    as_json: bool = typer.Option(False, "--json", help="Print JSON instead of a table."),
) -> None:
    """Print the chunks that best answer a question, with score, source, pages and heading path."""
    from .index import Index, IndexConfigError
    try:
        hits = Index(db).search(query, k, mode=mode.value, where=where, max_tokens=max_tokens)
    except IndexConfigError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2)
    except Exception as exc:  # a bad --where reaches us from LanceDB's SQL parser
        if where and type(exc).__name__ in ("ValueError", "RuntimeError", "LanceError", "ArrowInvalid"):
            err.print(f"[red]error:[/] --where {where!r}: {str(exc).splitlines()[0]}")
            raise typer.Exit(2)
        raise
    if as_json:
        print(json.dumps([{"rank": h.rank, "score": h.score, "similarity": h.similarity,
                           "chunk": h.chunk.to_dict(), "children": [c.id for c in h.children]}
                          for h in hits], ensure_ascii=False, indent=1))
        return
    out = Console()
    for h in hits:
        c = h.chunk
        pages = (f" p. {c.pages[0]}" + (f"-{c.pages[-1]}" if len(c.pages) > 1 else "")) if c.pages else ""
        sim = f"  similarity {h.similarity:.3f}" if h.similarity is not None else ""
        kids = f"  ({len(h.children)} matching children)" if h.children else ""
        out.print(f"[bold]{h.rank}.[/] score {h.score:.4g}{sim}  [cyan]{c.source}{pages}[/]{kids}")
        if c.heading_path:
            out.print("   [green]" + " / ".join(c.heading_path) + "[/]", markup=True)
        body = " ".join(c.body.split())
        out.print("   " + (body[:400] + " …" if len(body) > 400 else body), markup=False, highlight=False)
    if not hits:
        err.print("no results")


@app.command("compare")
def compare_command(
    paths: list[Path] = typer.Argument(..., help="Files or folders (folders recursively)."),
    questions: Path = typer.Option(..., "--questions", "-q", help="Test set: YAML, JSONL or CSV."),
    strategies: Optional[str] = typer.Option(None, "--strategies", help=f"Comma-separated (default: all of {', '.join(REGISTRY)}); a variant as NAME:OPTION=VALUE:..., e.g. parent-child:parents=blocks:size=48."),
    k: int = typer.Option(4, "-k", help="Results per question (hit rate at k)."),
    mode: Mode = typer.Option(Mode.hybrid, "--mode", help="hybrid, vector or text search."),
    size: Optional[int] = typer.Option(None, "--size", help="Chunk size in --unit for every strategy (default: each strategy's)."),
    overlap: Optional[int] = typer.Option(None, "--overlap", help="Overlap in --unit for every strategy."),
    unit: Unit = typer.Option(Unit.tokens, "--unit", help="tokens (the model's), words or chars."),
    model: str = typer.Option("default", "--model", help="Embedding model: default or a sentence-transformers folder."),
    catalog: Optional[Path] = typer.Option(None, "--catalog", help="CSV or YAML of document fields."),
    ocr: str = typer.Option("auto", "--ocr", help="PDF pages to OCR: auto, always, never."),
    languages: Optional[str] = typer.Option(None, "--languages", help="OCR languages, e.g. en,hi,mr."),
    out: Path = typer.Option(Path("out/compare"), "--out", help="Folder for the indexes and the misses files."),
    json_out: Optional[Path] = typer.Option(None, "--json", help="Write the results as JSON here."),
    report: Optional[Path] = typer.Option(None, "--report", help="Write a self-contained HTML report here."),
) -> None:
    """Run every strategy on the same documents and questions; print hit rate at k, MRR, chunk
    count, build time and tokens per question, and whether the differences are more than noise."""
    from .corpus import read_corpus
    from .embed import load_embedder
    from .evaluate import QuestionsError, check_sources, compare, load_questions, write_json, write_misses
    from .strategies.spec import parse_spec
    names = [s.strip() for s in strategies.split(",") if s.strip()] if strategies else list(REGISTRY)
    try:
        for name in names:
            parse_spec(name)
    except ValueError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2)
    try:
        qs = load_questions(questions)
    except QuestionsError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2)
    corpus = read_corpus(paths, options=_read_options(ocr, languages, None, None), catalog=_catalog(catalog))
    total = len(corpus.documents) + len(corpus.failures)
    _print_failures([str(f) for f in corpus.failures], total)
    if not corpus.documents:
        err.print(f"[red]error:[/] no documents read from {', '.join(map(str, paths))}")
        raise typer.Exit(2)
    try:
        check_sources(qs, [d.source for d in corpus.documents], questions)
    except QuestionsError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2)
    opts = _strategy_options(size, overlap, unit, None, None)
    embedder = load_embedder(None if model == "default" else model, cache=True)
    try:
        result = compare(corpus.documents, qs, strategies=names, k=k, mode=mode.value, embedder=embedder,
                         model=model, workdir=out, options={n: opts for n in names}, hashes=corpus.hashes)
    except ValueError as exc:
        err.print(f"[red]error:[/] {exc}")
        raise typer.Exit(2)
    result.failures = [str(f) for f in corpus.failures]
    misses = write_misses(result, out / "misses")
    Console(width=max(Console().width, 140)).print(compare_table(result))
    err.print(f"* best: most hits at {k}, then MRR")
    for at, comparisons in ((k, result.comparisons), (1, result.comparisons_at_1)):
        _print_verdicts(at, comparisons)
    err.print(f"misses for an expert to read: {misses[0].parent}/misses-<strategy>.md")
    if json_out:
        write_json(result, json_out)
        err.print(f"JSON: {json_out}")
    if report:
        from .report.compare_html import write_compare_report
        write_compare_report(result, report)
        err.print(f"report: {report}")
    if corpus.failures:
        raise typer.Exit(1)


def _print_verdicts(k: int, comparisons: list) -> None:
    """The paired tests at ``k``: ties on one line, then a line for each real or noisy difference."""
    if not comparisons:
        return
    err.print(f"hits at {k}, {comparisons[0].best} against the others:")
    ties = [c.other for c in comparisons if c.only_best == c.only_other == 0]
    if ties:
        err.print(f"  {', '.join(ties)}: the same questions hit", soft_wrap=True)
    for c in comparisons:
        if c.other not in ties:
            err.print("  " + c.verdict(), soft_wrap=True)


def compare_table(result) -> Table:
    """The guide's table: strategy, hits at k, MRR, chunks, build time, tokens per question."""
    n = sum(1 for q in result.questions if q.answerable)
    spans = any(s.span_means() for s in result.strategies)
    table = Table(title=f"{n} questions, top {result.k} by {result.mode} search, model {result.model}",
                  title_justify="left")
    cols = ["strategy", f"hits@{result.k}", "%", "hits@1", "MRR", "chunks", "median tokens",
            "build s", "tokens/question"] + (["span recall", "precision", "IoU"] if spans else [])
    for col in cols:
        table.add_column(col, justify="left" if col == "strategy" else "right")
    best = result.best.name
    for s in result.strategies:
        at1 = sum(1 for o in s.outcomes if o.rank == 1)
        row = [s.name + (" *" if s.name == best else ""), f"{s.hits}/{n}", f"{s.hit_rate:.1%}",
               f"{at1}/{n}", f"{s.mrr:.3f}", str(s.chunks),
               f"{statistics.median(s.sizes):g}" if s.sizes else "-", f"{s.build_seconds:.2f}",
               f"{s.tokens_per_question:.0f}"]
        if spans:
            m = s.span_means()
            row += [f"{m.recall:.1%}", f"{m.precision:.1%}", f"{m.iou:.1%}"] if m else ["-"] * 3
        table.add_row(*row)
    return table


if __name__ == "__main__":
    app()
