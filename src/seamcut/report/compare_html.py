"""The ``seamcut compare --report`` page: the strategy table, hit rate with its 95% interval per
strategy, MRR, hit rate against tokens sent (at equal budgets and at k), chunk-size histograms,
the significance tests and every miss, in one HTML file."""
from __future__ import annotations

import math
import statistics
from pathlib import Path
from typing import Any

from ..evaluate.compare import CompareResult
from ..evaluate.judge import NOISE_RULE, StrategyResult
from ..evaluate.significance import Comparison
from ..peers.spec import described
from .html import esc, img, page, png, pyplot, table, write_page


def wilson(hits: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval for a proportion ``hits / n`` (95% for z = 1.96)."""
    if n == 0:
        return (0.0, 0.0)
    p = hits / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def render(result: CompareResult, title: str = "seamcut compare") -> str:
    """The report page as a string."""
    n = sum(1 for q in result.questions if q.answerable)
    best = result.best.name
    tie = result.tie()
    parts = [f"<h1>{esc(title)}</h1>",
             f"<p>{result.documents} document(s), {n} questions with an answer"
             f" ({len(result.questions) - n} without), top {result.k} by {esc(result.mode)} search, "
             f"embedding model {esc(result.model)}. Best: <b>{esc(best)}</b>"
             + (f" (most hits within {result.budget} tokens sent per question, then MRR"
                if result.budget else f" (most hits at {result.k}, then MRR") + f"; {esc(NOISE_RULE)}).</p>"]
    if tie:
        parts.append(f'<p class="tie">{esc(tie)}.</p>')
    if result.failures:
        parts.append('<p class="bad">Files that could not be read: '
                     + "; ".join(esc(f) for f in result.failures) + "</p>")
    contestants = [s for s in result.strategies if s.contestant]
    rows = []
    for s in result.strategies:
        lo, hi = wilson(s.hits, n)
        spans = s.span_means()
        rows.append([s.name, f"{s.hits}/{n}", f"{s.hit_rate:.1%}", f"{lo:.0%}–{hi:.0%}",
                     sum(1 for o in s.outcomes if o.rank == 1), f"{s.mrr:.3f}", s.chunks,
                     f"{statistics.median(s.sizes):g}" if s.sizes else "–",
                     f"{s.build_seconds:.2f}", f"{s.tokens_per_question:.0f}"]
                    + ([f"{s.at_budget(result.budget).hits}/{n}"] if result.budget else [])
                    + ([f"{sum(bool(k) for k in s.kept)}/{n}" if s.kept else "–"] if contestants else [])
                    + [f"{spans.recall:.1%} / {spans.iou:.1%}" if spans else "–"])
    parts.append(table(["strategy", f"hits@{result.k}", "%", "95% interval", "hits@1", "MRR", "chunks",
                        "median tokens", "build s", "tokens/question"]
                       + ([f"hits ≤ {result.budget} tokens"] if result.budget else [])
                       + (["answer kept"] if contestants else []) + ["span recall / IoU"], rows))
    if contestants:
        parts.append("<p>Other libraries' pipelines, each run as its users run it; <i>answer kept</i>: the "
                     "questions whose answer some chunk holds whole (a miss where none does was lost in "
                     "reading or cutting, before search).</p><ul>"
                     + "".join(f"<li><b>{esc(s.name)}</b>: {esc(described(s.contestant))}</li>"
                               for s in contestants) + "</ul>")
    plt = pyplot()
    if plt is None:
        parts.append('<p class="note">matplotlib is not installed: plots left out.</p>')
    else:
        parts.append(img("hit rate per strategy", _hit_plot(plt, result, n)))
        if result.budgets:
            parts.append(img("hit rate against tokens sent", _budget_plot(plt, result)))
        parts.append(img("chunk sizes per strategy", _size_plot(plt, result.strategies)))
    parts.append("<h2>Is the best really better?</h2>")
    tests = [(f"hits within {result.budget} tokens sent", result.comparisons_at_budget),
             (f"hits at {result.k}", result.comparisons), ("hits at 1", result.comparisons_at_1)]
    for what, comparisons in tests:
        if comparisons:
            parts.append(f"<h3>{esc(what)}: {esc(comparisons[0].best)} against the others</h3>")
            parts.append(_tests(comparisons))
    filtered = result.filtered_against_whole()
    if filtered:
        at = f"hits within {result.budget} tokens sent" if result.budget else f"hits at {result.k}"
        parts.append(f"<h3>What each filter did: {esc(at)}, each filtered row against its strategy on the "
                     f"whole index</h3><p>STRATEGY (where): each question searched in what its test set's "
                     f"where lets through; (from question): in what the filters read from its words let "
                     f"through.</p>")
        parts.append(_tests(filtered))
    parts.append(_per_question(result))
    parts.append(_no_answer(result))
    parts.append("<h2>Misses</h2>")
    for s in result.strategies:
        parts.append(_misses(s))
    return page(title, parts)


def write_compare_report(result: CompareResult, path: str | Path) -> Path:
    """Write the report page; returns its path."""
    return write_page(render(result), path)


def _hit_plot(plt: Any, result: CompareResult, n: int) -> str:
    names = [s.name for s in result.strategies]
    rates = [s.hit_rate for s in result.strategies]
    ci = [wilson(s.hits, n) for s in result.strategies]
    err = [[max(0.0, r - lo) for r, (lo, _) in zip(rates, ci)],
           [max(0.0, hi - r) for r, (_, hi) in zip(rates, ci)]]
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 3.6))
    colours = ["#2e7d32" if s is result.best else "#1f77b4" for s in result.strategies]
    a.barh(names, rates, xerr=err, color=colours, capsize=3)
    a.set_xlim(0, 1.05)
    a.invert_yaxis()
    a.set_xlabel(f"hit rate at {result.k} (95% Wilson interval)")
    b.barh(names, [s.tokens_per_question for s in result.strategies], color=colours)
    b.invert_yaxis()
    b.set_xlabel("tokens sent to the model per question")
    fig.tight_layout()
    return png(fig)


def _budget_plot(plt: Any, result: CompareResult) -> str:
    """Hit rate against tokens sent per question: a line per strategy over the budgets (at most
    that many tokens sent), and its point at k at the tokens it sends there (a diamond)."""
    fig, ax = plt.subplots(figsize=(8, 4.2))
    for s in result.strategies:
        line, = ax.plot(result.budgets, [s.at_budget(b).hit_rate for b in result.budgets], marker="o",
                        markersize=3, label=s.name, linewidth=2.5 if s is result.best else 1.2)
        if s.tokens_per_question > 0:
            ax.plot([s.tokens_per_question], [s.hit_rate], marker="D", markersize=7,
                    color=line.get_color(), markeredgecolor="black", linestyle="none")
    if result.budget:
        ax.axvline(result.budget, color="grey", linestyle=":", linewidth=1)
    ax.set_xscale("log", base=2)
    ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.set_ylim(0, 1.02)
    ax.set_xlabel(f"tokens sent to the model per question (budgets {', '.join(map(str, result.budgets))}; "
                  f"diamond: top {result.k})", fontsize=8)
    ax.set_ylabel("hit rate")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return png(fig)


def _tests(comparisons: list[Comparison]) -> str:
    return table(["against", "hits (best / other)", "only best", "only other",
                  "McNemar p", "95% interval of the difference", "verdict"],
                 [[c.other, f"{c.best_hits} / {c.other_hits}", c.only_best, c.only_other,
                   f"{c.p_value:.3g}", f"{c.ci_low:+.1%} to {c.ci_high:+.1%}", c.verdict()]
                  for c in comparisons], left=(0, 6))


def _size_plot(plt: Any, strategies: list[StrategyResult]) -> str:
    cols = min(4, len(strategies))
    rows = math.ceil(len(strategies) / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3 * cols, 2.3 * rows), squeeze=False)
    top = max((max(s.sizes) for s in strategies if s.sizes), default=1)
    for ax, s in zip(axes.flat, strategies):
        ax.hist(s.sizes, bins=20, range=(0, top), color="#1f77b4")
        ax.set_title(f"{s.name} ({s.chunks})", fontsize=9)
        ax.set_xlabel("tokens", fontsize=8)
        ax.tick_params(labelsize=7)
    for ax in list(axes.flat)[len(strategies):]:
        ax.axis("off")
    fig.tight_layout()
    return png(fig)


def _per_question(result: CompareResult) -> str:
    """Each question's first-hit rank under each strategy (– = missed)."""
    ids = [o.question for o in result.strategies[0].outcomes]
    rows = []
    for i, q in enumerate(ids):
        ranks = [s.outcomes[i].rank for s in result.strategies]
        rows.append([q.id, q.question] + [r if r is not None else "–" for r in ranks])
    head = ["id", "question"] + [s.name for s in result.strategies]
    return ("<h2>Rank of the first hit per question</h2><details><summary>show</summary>"
            + table(head, rows, left=(0, 1), bad=lambda row: "–" in row[2:]) + "</details>")


def _no_answer(result: CompareResult) -> str:
    if not result.strategies or not result.strategies[0].no_answer:
        return ""
    rows = []
    for s in result.strategies:
        for o in s.no_answer:
            best = max((r.similarity for r in o.results if r.similarity is not None), default=None)
            top = o.results[0] if o.results else None
            rows.append([s.name, o.question.id, o.question.question,
                         f"{best:.3f}" if best is not None else "–",
                         f"{Path(top.source).name}: {top.heading}" if top else "–"])
    return ("<h2>Questions no document answers</h2><p>What came back, and its best similarity: "
            "set an \"I don't know\" threshold above these.</p>"
            + table(["strategy", "id", "question", "best similarity", "top result"], rows,
                    left=(0, 1, 2, 4)))


def _misses(s: StrategyResult) -> str:
    misses = s.misses()
    if not misses:
        return f'<h3>{esc(s.name)}: <span class="ok">no misses</span></h3>'
    out = [f"<h3>{esc(s.name)}: {len(misses)} miss(es)</h3>"]
    for o in misses:
        q = o.question
        out.append(f"<details><summary>{esc(q.id)}: {esc(q.question)} — expected "
                   + " or ".join(f"<code>{esc(a)}</code>" for a in q.must_contain) + "</summary>")
        for r in o.results:
            out.append(f"<p>{r.rank}. {esc(Path(r.source).name)} {esc(r.heading)} "
                       f"(score {r.score:.4g})</p><pre>{esc(r.text)}</pre>")
        out.append("</details>")
    return "".join(out)
