"""What ``seamcut inspect`` prints: the findings on anyone's chunks, and what a peer's splitter
counts (``--explain``)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from rich.console import Console
from rich.table import Table

if TYPE_CHECKING:
    from ..diagnose import Inspection

out = Console(soft_wrap=True)


def print_lines(lines: Iterable[str]) -> None:
    """Plain lines on standard output, without markup or highlighting."""
    for line in lines:
        out.print(line, markup=False, highlight=False)


def print_inspection(ins: "Inspection") -> None:
    """Sizes with a histogram of tokens, the real overlap of neighbours, truncation, coverage,
    tokenizer traps and notes, on standard output."""
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
    if pairs:
        units = sorted(p.overlap_units for p in pairs if p.overlap_units is not None)
        methods = sorted({p.method for p in pairs})
        out.print(f"overlap: {len(pairs)} neighbour pairs ({ins.overlap_said()}); shared {ins.unit}: min "
                  f"{units[0]}, median {units[len(units) // 2]}, max {units[-1]} "
                  f"(found by {', '.join(methods)})", highlight=False)
        zero = ins.zero_overlap_pairs
        if zero:
            shown = ", ".join(f"{i}–{i + 1}" for i in zero[:20])
            more = " …" if len(zero) > 20 else ""
            if ins.missing_overlap_pairs:  # the guide's trap: overlap asked for, none there
                out.print(f"  [red]{len(zero)} of {len(pairs)} pairs share 0 characters although "
                          f"overlap was asked for[/]: {shown}{more}")
            elif ins.overlap_asked is False:
                out.print(f"  {len(zero)} of {len(pairs)} pairs share 0 characters, as they should")
            else:
                out.print(f"  [yellow]{len(zero)} of {len(pairs)} pairs share 0 characters, not "
                          f"judged[/]: {shown}{more}")
        short = [i for i in ins.short_overlap_pairs if i not in ins.zero_overlap_pairs]
        if short:
            out.print(f"  [yellow]{len(short)} more share less than half the configured overlap[/]")
    else:
        out.print("overlap: no neighbour pairs")
    if ins.max_input_tokens is None:
        out.print("truncation: the model's maximum input is unknown; not checked")
    elif ins.over_limit:
        worst = max(ins.over_limit, key=lambda x: x.tokens)
        out.print(f"[red]truncation: {len(ins.over_limit)} of {ins.chunks} chunks exceed the "
                  f"model's maximum input of {ins.max_input_tokens} tokens; {ins.tokens_lost} tokens "
                  f"would never be embedded[/] (largest: chunk {worst.index}, {worst.tokens} "
                  f"tokens, {worst.lost} lost)")
    else:
        out.print(f"truncation: none (every chunk within {ins.max_input_tokens} tokens)")
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
