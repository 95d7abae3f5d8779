"""What the commands print: documents as JSON or Markdown, tables of chunks and comparisons,
search hits, failures. Results go to standard output, tables and summaries to standard error."""
from __future__ import annotations

import io
import json
import re
import statistics
import sys
from contextlib import contextmanager, redirect_stdout
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Optional, Sequence

from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from ..pipeline.report import BuildReport
    from ..evaluate import CompareResult, Comparison
    from ..index import Hit
    from ..index.reading import Asking
    from ..model import Document

err = Console(stderr=True)


def print_error(markup: str) -> None:
    """A message on standard error (``error: ...``, a file that failed). Where standard error is
    not a terminal (a log, a pipe, CI) it is one line, never wrapped at 80 columns, so a grep or
    a log reader gets it whole; on a terminal it is wrapped at the terminal's width between words,
    never inside one (a word longer than a line, such as a long path, is left whole for the
    terminal to fold)."""
    if not err.is_terminal:
        err.print(markup, soft_wrap=True)
        return
    for line in word_lines(Text.from_markup(markup), err.width):
        err.print(line, soft_wrap=True)


def word_lines(text: Text, width: int) -> list[Text]:
    """``text`` cut into lines of at most ``width`` terminal cells, between words only (a word
    wider than that alone on its line), the spaces at the cuts left out."""
    cuts, used = [], 0
    for m in re.finditer(r"\S+\s*", text.plain):
        word = cell_len(m.group().rstrip())
        if used and used + word > width:
            cuts.append(m.start())
            used = 0
        used += cell_len(m.group())
    lines = text.divide(cuts)
    for line in lines:
        line.rstrip()
    return list(lines)


# -- documents (`seamcut read`) -------------------------------------------------------------------

def fields_with_sources(doc: "Document") -> dict[str, dict[str, Any]]:
    """A document's fields, each with where it came from: ``{"year": {"value": 2023, "from":
    "year of the date"}, "crop": {"value": "cotton", "from": "catalog"}}`` (the catalog's,
    those found in its text by the rule named, its language)."""
    from ..readers.found_fields import field_sources
    return {k: {"value": v, "from": source} for k, (v, source) in field_sources(doc).items()}


def fields_comment(doc: "Document") -> str:
    """A document's fields as a Markdown comment, a field a line with where it came from
    ("" for none)."""
    fields = fields_with_sources(doc)
    if not fields:
        return ""
    lines = [f"{k}: {' '.join(str(f['value']).split())} ({f['from']})".replace("--", "- -")
             for k, f in fields.items()]
    return "<!-- fields\n" + "\n".join(lines) + "\n-->"


def document_json(doc: "Document") -> dict[str, Any]:
    """A document as plain data: its fields (``fields``: each with its value and where it came
    from, ``fields_with_sources``), its metadata and every element with its text."""
    elements = []
    for e in doc.elements:
        item = {"kind": e.kind, "level": e.level, "page": e.page, "language": e.language,
                "start": e.start, "end": e.end, "text": doc.text[e.start:e.end]}
        meta = {k: v for k, v in e.metadata.items() if k != "row_spans"}
        if meta:
            item["metadata"] = meta
        elements.append(item)
    return {"source": doc.source, "id": doc.id, "language": doc.language,
            "pages": len(doc.page_starts), "fields": fields_with_sources(doc),
            "metadata": dict(doc.metadata), "elements": elements}


def document_markdown(doc: "Document") -> str:
    """A document as Markdown, to read what the parser saw: its fields (a comment, each with
    where it came from), headings, lists, tables, pages."""
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
    fields = fields_comment(doc)
    return head + "\n\n" + (fields + "\n\n" if fields else "") + "\n\n".join(out)


# -- chunks and files (`seamcut chunk`, `index`, `compare`) --------------------------------------

#: a table's columns: (heading, what it means where that needs saying, else ""). The legend under
#: a table is made of the same list (``legend``), so it says what the columns printed mean, and
#: no more
Columns = Sequence[tuple[str, str]]
_TOKENS = "the model's tokens of a chunk's text (its context and special tokens included)"
CHUNK_COLUMNS: Columns = (("file", ""), ("chunks", ""), ("min tokens", _TOKENS), ("median", _TOKENS),
                          ("max", _TOKENS))
_PER_CPU = "per CPU second of the stage (one core's rate)"
BUILD_COLUMNS: Columns = (("stage", ""), ("items", ""), ("pages", ""), ("tokens", ""), ("CPU s", ""),
                          ("pages/s", _PER_CPU), ("tokens/s", _PER_CPU),
                          ("busy s", "wall-clock seconds the stage's thread worked, overlapping the others"))


def legend(columns: Columns) -> str:
    """What ``columns`` mean, one clause per meaning: ``pages/s, tokens/s: per CPU second ...``
    ("" where no column needs saying)."""
    names: dict[str, list[str]] = {}
    for name, meaning in columns:
        if meaning:
            names.setdefault(meaning, []).append(name)
    return "; ".join(f"{', '.join(n)}: {meaning}" for meaning, n in names.items())


def _table(title: str, columns: Columns, no_wrap: bool = False) -> Table:
    """An empty table of ``columns``: the first left-aligned, the others right."""
    table = Table(title=title, title_justify="left")
    for i, (name, _) in enumerate(columns):
        table.add_column(name, justify="right" if i else "left", no_wrap=no_wrap)
    return table


def _print_table(table: Table, columns: Columns) -> None:
    """``table`` on standard error, then the legend of its ``columns``."""
    err.print(table)
    if legend(columns):
        err.print(legend(columns), soft_wrap=True, markup=False, highlight=False)


def print_chunk_summary(stats: Sequence[tuple[str, list[int]]], out: Optional[Path]) -> None:
    """A table of chunks per file (count, min, median and max tokens) on standard error."""
    if not stats:
        return
    table = _table(f"chunks{f' → {out}' if out else ''}", CHUNK_COLUMNS)
    for name, toks in stats:
        if toks:
            table.add_row(name, str(len(toks)), str(min(toks)), f"{statistics.median(toks):g}", str(max(toks)))
        else:
            table.add_row(name, "0", "-", "-", "-")
    _print_table(table, CHUNK_COLUMNS)


def json_to_stdout(json_out: Optional[Path]) -> bool:
    """Whether ``--json`` is ``-``: the JSON on standard output, not in a file."""
    return json_out is not None and str(json_out) == "-"


@contextmanager
def results_out(json_out: Optional[Path]) -> Iterator[None]:
    """Around what a command prints on standard output (its results: a table, hits, findings):
    printed there, or left out where ``--json -`` puts the JSON there in their place, so that
    standard output is the JSON alone. What goes to standard error is printed either way."""
    if not json_to_stdout(json_out):
        yield
        return
    with redirect_stdout(io.StringIO()):
        yield


def write_json_out(json_out: Path, data: Any) -> None:
    """``--json FILE``: ``data`` as JSON in FILE (its folder made), said on standard error;
    ``--json -``: on standard output. Every command's ``--json`` is written here."""
    text = json.dumps(data, ensure_ascii=False, indent=1)
    if json_to_stdout(json_out):
        sys.stdout.write(text + "\n")
        sys.stdout.flush()
        return
    json_out.parent.mkdir(parents=True, exist_ok=True)
    json_out.write_text(text, encoding="utf-8")
    err.print(f"JSON: {json_out}")


def write_outputs(json_out: Optional[Path], data: Callable[[], Any],
                  report: Optional[Path], write_report: Callable[[Path], None]) -> None:
    """The --json (``data()``, in a file or on standard output) and --report files a command was
    asked for, written, and where they went."""
    if json_out:
        write_json_out(json_out, data())
    if report:
        write_report(report)
        err.print(f"report: {report}")


def print_failures(failures: Sequence[object], total: int) -> None:
    """The files that could not be read, each with its reason, out of ``total`` files."""
    if failures:
        print_error(f"[red]{len(failures)} of {total} file(s) failed:[/]")
        for f in failures:
            print_error(f"  [red]✗[/] {escape(str(f))}")


def print_warnings(warnings: Sequence[str]) -> None:
    """What seamcut did that the user did not ask for (a file read as another format than its
    name says, chunks held below the size by the model's input), one line each, on standard
    error."""
    for w in warnings:
        err.print(f"[yellow]warning:[/] {escape(w)}", soft_wrap=True, highlight=False)


def print_build(report: "BuildReport", db: object, rows: int) -> None:
    """What ``seamcut index`` did: files added, replaced, unchanged and failed, rows written, and
    a table per stage (items, pages, tokens, seconds, rates)."""
    r = report
    err.print(f"{db}: {len(r.added)} file(s) added, {len(r.replaced)} replaced, {len(r.unchanged)} "
              f"unchanged, {len(r.failures)} failed; {r.chunks} chunk(s) written"
              + (f" with {r.parents} parent(s)" if r.parents else "")
              + f", {r.embedded} embedded; {rows} in the index"
              + (f"; {len(r.recovered)} half-written document(s) of a stopped run redone" if r.recovered else "")
              + (f"; {len(r.removed)} file(s) no longer given removed" if r.removed else ""))
    if not (r.added or r.replaced):
        return
    eff = r.efficiency
    title = (f"{r.pages:,} pages, {r.tokens:,} tokens in {r.seconds:.1f} s "
             f"({r.pages / max(r.seconds, 1e-9):.2f} pages/s end to end"
             + (f"; cores {100 * eff:.0f}% busy" if eff is not None else "")
             + (f"; {r.runs} runs, the build stopped and resumed" if r.runs > 1 else "") + ")")
    table = _table(title, BUILD_COLUMNS, no_wrap=True)
    for st in r.stages.values():
        if not (st.items or st.cpu):
            continue
        pps, tps = st.per_cpu_second("pages"), st.per_cpu_second("tokens")
        table.add_row(st.name, f"{st.items:,}", f"{st.pages:,}" if st.pages else "",
                      f"{st.tokens:,}" if st.tokens else "", f"{st.cpu:.1f}",
                      f"{pps:.2f}" if pps else "", f"{tps:,.0f}" if tps else "",
                      f"{st.busy:.1f}" if st.busy else "")
    _print_table(table, BUILD_COLUMNS)


# -- search hits (`seamcut search`) ---------------------------------------------------------------

def hits_json(hits: Sequence["Hit"], asking: "Asking | None" = None) -> list[dict[str, Any]]:
    """Hits as plain data: rank, score, similarity, the chunk and the ids of matching children;
    with ``asking`` (filters read from the question), each with the filter it was found under
    and why (``filter``)."""
    said = None if asking is None else asking.to_dict()
    return [h.to_dict() if said is None else {**h.to_dict(), "filter": said} for h in hits]


def print_hits(hits: Sequence["Hit"]) -> None:
    """Each hit: rank, score, source and pages, heading path, and its text (up to 400
    characters, whitespace folded)."""
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


# -- comparisons (`seamcut compare`) --------------------------------------------------------------

def compare_table(result: "CompareResult") -> Table:
    """The guide's table: strategy, hits at k, MRR, chunks, build time, tokens per question, and
    hits within the budget "best" uses (tokens sent per question)."""
    n = sum(1 for q in result.questions if q.answerable)
    spans = any(s.span_means() for s in result.strategies)
    choice = result.choice if result.strategies else None
    tied = "; * best, = tied with it within noise" if choice and len(choice.tied) > 1 else ""
    table = Table(title=f"{n} questions, top {result.k} by {result.mode} search, model {result.model}{tied}",
                  title_justify="left")
    kept = any(s.contestant for s in result.strategies)  # another library's: did its answers survive?
    cols = ["strategy", f"hits@{result.k}", "%", "hits@1", "MRR", "chunks", "median tokens",
            "build s", "tokens/question"] + ([f"hits≤{result.budget} tok"] if result.budget else []) \
        + (["answer kept"] if kept else []) + (["span recall", "precision", "IoU"] if spans else [])
    for col in cols:  # a long spec is folded, never cut short: it names what was judged
        table.add_column(col, justify="left" if col == "strategy" else "right",
                         overflow="fold" if col == "strategy" else "ellipsis")
    for s in result.strategies:
        at1 = sum(1 for o in s.outcomes if o.rank == 1)
        mark = "" if choice is None else " *" if s.name == choice.chosen else " =" if s.name in choice.tied else ""
        row = [s.name + mark, f"{s.hits}/{n}", f"{s.hit_rate:.1%}",
               f"{at1}/{n}", f"{s.mrr:.3f}", str(s.chunks),
               f"{statistics.median(s.sizes):g}" if s.sizes else "-", f"{s.build_seconds:.2f}",
               f"{s.tokens_per_question:.0f}"]
        if result.budget:
            row.append(f"{s.at_budget(result.budget).hits}/{n}")
        if kept:
            row.append(f"{sum(bool(k) for k in s.kept)}/{n}" if s.kept else "-")
        if spans:
            m = s.span_means()
            row += [f"{m.recall:.1%}", f"{m.precision:.1%}", f"{m.iou:.1%}"] if m else ["-"] * 3
        table.add_row(*row)
    return table


def print_builds(result: "CompareResult") -> None:
    """How each strategy's index was built in this run, on standard error: files read, left
    unchanged and failed, each stage's CPU seconds, the build's wall-clock seconds, and the
    share of the chunk vectors that the model did not have to compute."""
    builds = [(s.name, s.build) for s in result.strategies if s.build is not None and s.filters == "none"]
    if not builds:
        return
    table = Table(title="builds: CPU seconds per stage (cutting in the workers, in parallel), "
                        "wall-clock seconds per build", title_justify="left")
    for col in ("strategy", "files read", "unchanged", "failed", "read s", "cut s", "embed s",
                "write s", "wall s", "vectors cached"):
        table.add_column(col, justify="left" if col == "strategy" else "right", no_wrap=True)
    for name, b in builds:
        cached = b.from_cache
        table.add_row(name, str(len(b.added) + len(b.replaced)), str(len(b.unchanged)), str(len(b.failures)),
                      f"{b.seconds_of('read text', 'read OCR'):.2f}", f"{b.seconds_of('cut'):.2f}",
                      f"{b.seconds_of('embed'):.2f}", f"{b.seconds_of('write', 'text index'):.2f}",
                      f"{b.seconds:.2f}", "-" if cached is None else f"{cached:.0%}")
    Console(stderr=True, width=max(err.width, 140)).print(table)
    for s in result.strategies:
        if s.rebuilt:
            err.print(f"{s.name}: rebuilt: {s.rebuilt}", soft_wrap=True)


def print_comparison(result: "CompareResult") -> None:
    """The table on standard output (at least 140 columns wide), then on standard error which
    strategy is best and whether its lead over each other one is more than noise, within the
    budget, at k and at 1."""
    Console(width=max(Console().width, 140)).print(compare_table(result))
    for s in result.strategies:
        if s.contestant:
            from ..peers.spec import described
            err.print(f"{s.name}: {described(s.contestant)}", soft_wrap=True)
    if any(s.contestant for s in result.strategies):
        err.print("answer kept: questions whose answer some chunk holds whole (a miss where none does was "
                  "lost in reading or cutting, not in search)", soft_wrap=True)
    held = sum(o.question.source_only for o in (result.strategies[0].outcomes if result.strategies else ()))
    if held:
        err.print(f"hits: for {held} question(s), only a chunk of the document the question names "
                  "(--named-source / source_only)", soft_wrap=True)
    from ..evaluate.judge import NOISE_RULE
    if result.budget:
        err.print(f"* best: most hits within {result.budget} tokens sent per question (--budget; "
                  f"default: the median of the strategies' tokens per question at {result.k}), then MRR "
                  f"within them; {NOISE_RULE}", soft_wrap=True)
    else:
        err.print(f"* best: most hits at {result.k}, then MRR; {NOISE_RULE}", soft_wrap=True)
    tie = result.tie()
    if tie:
        err.print("= " + tie, soft_wrap=True, markup=False, highlight=False)
    if result.budget:
        _print_verdicts(f"within {result.budget} tokens", result.comparisons_at_budget)
    for at, comparisons in ((result.k, result.comparisons), (1, result.comparisons_at_1)):
        _print_verdicts(f"at {at}", comparisons)
    _print_filtered(result)


def _print_filtered(result: "CompareResult") -> None:
    """What each way of filtering did: its rows against the same strategy's on the whole index."""
    tests = result.filtered_against_whole()
    if not tests:
        return
    at = f"within {result.budget} tokens" if result.budget else f"at {result.k}"
    err.print(f"filters: a row STRATEGY (where) searched each question in what its test set's where lets "
              f"through, (from question) in what the filters read from its words let through; hits {at} "
              f"with the filter against without it:", soft_wrap=True)
    for c in tests:
        err.print("  " + c.verdict(), soft_wrap=True)


def _print_verdicts(at: str, comparisons: Sequence["Comparison"]) -> None:
    """The paired tests (hits ``at``, e.g. "at 4"): ties on one line, then a line for each real
    or noisy difference."""
    if not comparisons:
        return
    err.print(f"hits {at}, {comparisons[0].best} (the most) against the others:")
    ties = [c.other for c in comparisons if c.only_best == c.only_other == 0]
    if ties:
        err.print(f"  {', '.join(ties)}: the same questions hit", soft_wrap=True)
    for c in comparisons:
        if c.other not in ties:
            err.print("  " + c.verdict(), soft_wrap=True)
