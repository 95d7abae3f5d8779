"""What ``seamcut tune`` prints, drawn from its JSON (``TuneResult.to_json``): the rounds, the
final round's table with tune and held-out figures, the winner as a command, and the defaults
against it. The table goes to standard output, the rest to standard error."""
from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from .render import err


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def tune_table(data: dict[str, Any]) -> Table:
    """The final round: a row per candidate, tune and held-out figures side by side."""
    from ..evaluate.judge import tied_with
    q = data["questions"]
    budget, k = data["budget"], data["k"]
    front = {p["label"] for p in data["pareto"]}
    winner = (data["winner"] or {}).get("label")
    tied = tied_with(data.get("pick"))
    table = Table(title=f"final round: {data['documents']} documents, {q['tune']} tune and {q['held_out']} "
                        f"held-out questions, top {k}; * winner, " + ("= tied with it within noise, " if tied else "")
                        + "P on the Pareto front, d a default",
                  title_justify="left")
    for col in ("candidate", f"hits@{k} tune", "held out", "MRR tune", "held out",
                f"hits≤{budget} tok tune", "held out", "tokens/question", "chunks", "index KiB", ""):
        table.add_column(col, justify="left" if col == "candidate" else "right", no_wrap=True)
    for p in data["points"]:
        marks = ("*" if p["label"] == winner else "=" if p["label"] in tied else "") + \
                ("P" if p["label"] in front else "") + \
                ("d" if p.get("default") else "")
        mrr_held = "-" if p["held_out_mrr"] is None else f"{p['held_out_mrr']:.3f}"
        table.add_row(escape(p["label"]), _pct(p["hit_rate"]), _pct(p["held_out_hit_rate"]), f"{p['mrr']:.3f}",
                      mrr_held, _pct(p["budget_hit_rate"]), _pct(p["held_out_budget_hit_rate"]),
                      f"{p['tokens_per_question']:.0f}", str(p["chunks"]), f"{p['index_bytes'] / 1024:,.0f}",
                      marks)
    return table


def print_tune(data: dict[str, Any]) -> None:
    """The rounds and what they cost, the final table, the winner's command, the defaults."""
    for r in data["rounds"]:
        err.print(f"round {r['round']}: {r['candidates']} candidates on {r['documents']} documents and "
                  f"{r['questions']} questions, {r['kept']} kept, {r['seconds']:.1f} s, "
                  f"{r['embedded_tokens']:,} tokens embedded")
    dropped = data["space"].get("dropped")
    if dropped:
        err.print(f"space: {dropped} combination(s) the strategies refuse (e.g. overlap not below size) "
                  "left out")
    for gone in data.get("left_out", []):
        err.print(f"left out: {escape(gone['spec'])}: {escape(gone['reason'])}", soft_wrap=True)
    widest = max((len(p["label"]) for p in data["points"]), default=0)
    Console(width=max(Console().width, 150 + widest)).print(tune_table(data))
    from ..evaluate.judge import NOISE_RULE
    from ..evaluate.tune_result import tune_tie_line
    w = data["winner"]
    if w:
        err.print(f"* winner: {escape(w['label'])}: most hits within {data['budget']} tokens sent per "
                  f"question, then MRR (tune {_pct(w['tune_budget_hit_rate'])}, held out "
                  f"{_pct(w['held_out_budget_hit_rate'])}); hits@{data['k']} tune {_pct(w['tune_hit_rate'])}, "
                  f"held out {_pct(w['held_out_hit_rate'])}; {NOISE_RULE}", soft_wrap=True)
        tie = tune_tie_line(data)
        if tie:
            err.print("= " + escape(tie), soft_wrap=True, highlight=False)
        err.print(f"  {escape(w['command'])}   # then search with --mode {w['search']}", soft_wrap=True,
                  highlight=False)
    lines = [d["comparison"]["verdict"] for d in data["defaults"]
             if d.get("comparison") and d["label"] != (w or {}).get("label")]
    if lines:
        err.print(f"held-out hits within {data['budget']} tokens, the winner against each default:")
        for line in lines:
            err.print("  " + escape(line), soft_wrap=True)
    c = data["cost"]
    eq = ("" if c["index_equivalents"] is None
          else f" ({c['index_equivalents']:g} x one index's {c['index_tokens']:,})")
    runs = f" over {c['runs']} runs (stopped and resumed)" if c.get("runs", 1) > 1 else ""
    err.print(f"cost: {c['seconds']:.0f} s, {c['embedded_tokens']:,} tokens embedded{eq}{runs}")
    if c.get("versus_tokens"):
        times = ("" if c.get("search_index_equivalents") is None
                 else f" ({c['search_index_equivalents']:g} x one index)")
        err.print(f"  the search {c['search_tokens']:,}{times}, the defaults it is tested against "
                  f"{c['versus_tokens']:,} (--versus chooses them)")
    if c["stopped_early"]:
        err.print(f"[yellow]stopped early:[/] {escape(c['stopped_early'])}", soft_wrap=True)


def _span(pair: list[float] | list[int], fmt: str = "{:g}") -> str:
    low, high = pair
    return fmt.format(low) if low == high else f"{fmt.format(low)}-{fmt.format(high)}"


def print_plan(data: dict[str, Any]) -> None:
    """``seamcut tune --plan``: the rounds and their cost in corpus builds, before any work."""
    every = data["documents"]
    table = Table(title=f"tune's plan: {every} documents, {data['questions']['tune']} tune and "
                        f"{data['questions']['held_out']} held-out questions, {data['candidates']} candidates "
                        f"({data['chunkings']} chunkings); cost in corpus builds (1 = every document cut "
                        "and embedded once: about one `seamcut index`)", title_justify="left")
    for col in ("round", "questions", "documents", "candidates at most", "chunkings built", "corpus builds"):
        table.add_column(col, justify="left" if col == "round" else "right", no_wrap=True)
    for r in data["rounds"]:
        table.add_row(str(r["round"]), str(r["questions"]), f"{r['documents']} ({r['documents'] / every:.0%})",
                      str(r["candidates"]), _span(r["chunkings"]), _span([r["low"], r["high"]], "{:.2f}"))
    f = data["final"]
    table.add_row(f"{f['round']} (final)", f"{f['questions']} + {f['held_out']} held out", str(every), "",
                  _span(f["chunkings"]), _span(f["search"], "{:.2f}"))
    table.add_row("defaults tested", "", str(every), str(f["defaults"]), "", _span(f["versus"], "{:.2f}"))
    Console(width=max(Console().width, 120)).print(table)
    print(f"search: {_span(data['search'], '{:.2f}')} corpus builds; with the defaults it is tested against "
          f"(--versus): {_span(data['total'], '{:.2f}')}. A range where it depends on which chunkings "
          "survive the cuts.")
