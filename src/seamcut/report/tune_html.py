"""The ``seamcut tune --report`` page, drawn from tune's JSON dict alone (``TuneResult.to_json()``;
a saved JSON file redraws it): the run and what it cost, the winner as a ready command and how it
fares against each default, the Pareto plots of quality against tokens sent per question and
index size, the successive-halving rounds, the final round's table and the whole search log.

Hit rates are fractions 0..1 in the dict and shown as percentages; tokens are the embedding
model's tokens; index sizes are bytes in the dict and MB (10^6 bytes) on the page. The plots
are drawn by ``tune_plots``; this module writes the page around them."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..evaluate.judge import NOISE_RULE, tied_with
from ..evaluate.tune_result import tune_tie_line
from .compare_html import wilson
from .html import as_number, esc, img, page, pyplot, table, write_page
from .tune_plots import rounds_plot, size_plot, strategy_colours, tokens_plot

_BOX = "border:2px solid #2e7d32;border-radius:6px;padding:.4em 1em;margin:1em 0;background:#f6fbf6"
_WARN = "border:2px solid #b00020;border-radius:6px;padding:.4em 1em;margin:1em 0;background:#fff4f4"
_CMD = "user-select:all;font-size:1.05em;background:#fff;overflow-x:auto"
#: a long label breaks anywhere rather than widen the page; the drop reasons get room
_STYLE = ("<style>h2.winner{overflow-wrap:anywhere}"
          ".tune-labels td:first-child,.tune-final td:nth-child(2){overflow-wrap:anywhere;min-width:15em}"
          ".tune-log td:last-child{min-width:16em;text-align:left}</style>")


def render_tune(data: dict[str, Any], title: str = "seamcut tune") -> str:
    """The report page (one self-contained HTML string) of a tune run's JSON dict."""
    points = _ranked_points(data)
    numbers = {p["label"]: i for i, p in enumerate(points, 1)}
    parts = [_STYLE, f"<h1>{esc(title)}</h1>", _head(data), _winner(data), _defaults(data)]
    parts.append("<h2>Quality against cost</h2>")
    plt = pyplot()
    colours = strategy_colours(data) if plt is not None else {}
    if plt is None:
        parts.append('<p class="note">matplotlib is not installed: plots left out.</p>')
    elif points:
        parts.append(_pareto_note(data))
        parts.append(img("hit rate against tokens sent per question",
                         tokens_plot(plt, data, points, numbers, colours)))
        parts.append(img("hit rate against index size", size_plot(plt, data, points, numbers, colours)))
    else:
        parts.append('<p class="note">No candidate reached the final round: nothing to plot.</p>')
    parts.append(_final_table(data, points, numbers))
    parts.append("<h2>The search, round by round</h2>")
    if plt is not None and data["log"]:
        parts.append(img("hit rate per candidate per round", rounds_plot(plt, data, colours)))
    parts.append(_search_log(data))
    return page(title, parts)


def write_tune_report(data: dict[str, Any], path: str | Path) -> None:
    """Write the report page of a tune run's JSON dict to ``path`` (its folder made)."""
    write_page(render_tune(data), path)


# ---- head, winner, defaults ------------------------------------------------------------------

def _head(data: dict[str, Any]) -> str:
    q, cost = data["questions"], data["cost"]
    space = data["space"]
    out = []
    if cost.get("stopped_early"):
        out.append(f'<div style="{_WARN}"><p class="bad">Stopped early: {esc(cost["stopped_early"])}</p>'
                   "<p>The winner below is the best of what was evaluated, not of the whole space.</p></div>")
    out.append(
        f"<p>{esc(data['documents'])} document(s); {esc(q['tune'])} questions to tune on and"
        f" {esc(q['held_out'])} held out to report on ({esc(q['no_answer'])} without an answer, not scored);"
        f" top {esc(data['k'])} results; budget T = {esc(data['budget'])} tokens sent to the model per question"
        f" (\"best\" means best within"
        f" T); embedding model {esc(data['model'])}; seed {esc(data['seed'])}.</p>")
    out.append(f"<p>Space: {_count(len(space['chunkings']), 'chunking')} ×"
               f" {_count(len(space['modes']), 'search mode')} ({esc(', '.join(space['modes']))}) ="
               f" {esc(_count(space['candidates'], 'candidate'))}, searched in"
               f" {_count(len(data['rounds']), 'round')}.</p>")
    for gone in data.get("left_out", []):
        out.append(f'<p class="note">Left out: {esc(gone["spec"])}: {esc(gone["reason"])}.</p>')
    for failure in data.get("failures", []):
        out.append(f'<p class="bad">Not read: {esc(failure)}.</p>')
    for warning in data.get("warnings", []):
        out.append(f'<p class="bad">Not like with like: {esc(warning)}.</p>')
    tokens = f"{cost['embedded_tokens']:,}"
    per_index = (f", {cost['index_equivalents']:.1f} times the {cost['index_tokens']:,} tokens one"
                 f" <code>seamcut index</code> of these documents embeds"
                 if cost.get("index_tokens") and as_number(cost.get("index_equivalents")) is not None else "")
    ending = ("it stopped early (above)" if cost.get("stopped_early")
              else "it finished the whole search")
    if cost.get("runs", 1) > 1:
        ending += f", in {cost['runs']} runs (stopped and resumed; the cost is theirs together)"
    out.append(f"<p><b>Cost:</b> {_duration(cost['seconds'])} and {tokens} tokens embedded{per_index};"
               f" {ending}.{_split(cost)}</p>")
    if not q["held_out"]:
        out.append('<p class="bad">No questions were held out: the winner\'s figures are the best of the'
                   " search on the questions it was chosen on, and may be the best of noise.</p>")
    return "\n".join(out)


def _split(cost: dict[str, Any]) -> str:
    """The cost parted: the search, and the test against the defaults (absent in older files)."""
    if not cost.get("versus_tokens"):
        return ""
    times = (f" ({cost['search_index_equivalents']:.1f} indexes)"
             if as_number(cost.get("search_index_equivalents")) is not None else "")
    return (f" Of these, the search took {cost['search_tokens']:,}{times} and building the defaults"
            f" it is tested against {cost['versus_tokens']:,} (<code>--versus</code> chooses them).")


def _winner(data: dict[str, Any]) -> str:
    w = data["winner"]
    if not w:
        return f'<div style="{_WARN}"><p class="bad">No winner: no candidate was evaluated in full.</p></div>'
    rows = [[f"hit rate within T = {data['budget']} tokens", _rate(w["tune_budget_hit_rate"]),
             _rate(w["held_out_budget_hit_rate"])],
            [f"hit rate at {data['k']}", _rate(w["tune_hit_rate"]), _rate(w["held_out_hit_rate"])],
            ["95% interval of the hit rate at k", _interval(w["tune_hit_rate"], data["questions"]["tune"]),
             _interval(w["held_out_hit_rate"], data["questions"]["held_out"])],
            ["MRR", _dec(w["tune_mrr"]), _dec(w["held_out_mrr"])]]
    return (f'<div style="{_BOX}"><h2 class="winner" style="border:none">Winner: {esc(w["label"])}</h2>'
            "<p>Index with it (click to select the command):</p>"
            f'<pre style="{_CMD}"><code>{esc(w["command"])}</code></pre>'
            f"<p>and search it in <b>{esc(w['search'])}</b> mode. It sends"
            f" {_tokens(w['tokens_per_question'])} tokens per question at top {esc(data['k'])}; its index takes"
            f" {_mb(w['index_bytes'])} MB.</p>" + _tie(data)
            + table(["", f"tune ({data['questions']['tune']} questions)",
                     f"held out ({data['questions']['held_out']} questions)"], rows)
            + "</div>")


def _tie(data: dict[str, Any]) -> str:
    """A paragraph naming the candidates tied with the winner within noise, and the rule (none
    where the winner's lead was more than noise, or the JSON is older than the rule)."""
    tie = tune_tie_line(data)
    if not tie:
        return ""
    return f'<p class="tie"><b>{esc(tie)}.</b> The rule: {esc(NOISE_RULE)}.</p>'


def _defaults(data: dict[str, Any]) -> str:
    defaults, w = data["defaults"], data["winner"]
    if not defaults:
        return '<p class="note">No default strategies to compare the winner with.</p>'
    lines, rows = [], []
    for d in defaults:
        c = d.get("comparison")
        lines.append(f"<li>{esc(_plainly(w, d, c))}</li>")
        rows.append([d["label"], _rate(d["tune_budget_hit_rate"]), _rate(d["held_out_budget_hit_rate"]),
                     _rate(d["tune_hit_rate"]), _rate(d["held_out_hit_rate"]), _dec(d["held_out_mrr"]),
                     _tokens(d["tokens_per_question"]), _mb(d["index_bytes"]),
                     f"{c['best_hits']} / {c['other_hits']}" if c else "–",
                     f"{c['p_value']:.3g}" if c else "–",
                     f"{c['ci'][0]:+.1%} to {c['ci'][1]:+.1%}" if c else "–"])
    return ("<h2>Does it beat the defaults?</h2><p>Paired on the held-out questions, within T ="
            f" {esc(data['budget'])} tokens sent (exact McNemar test, bootstrap interval of winner − default):"
            "</p>"
            "<ul>" + "".join(lines) + "</ul><div class='tune-labels'>"
            + table(["default", "within T tune", "within T held out", f"at {data['k']} tune",
                     f"at {data['k']} held out", "MRR held out", "tokens / question", "index MB",
                     "hits (winner / default)", "McNemar p", "95% interval"], rows) + "</div>")


def _plainly(w: dict[str, Any] | None, d: dict[str, Any], c: dict[str, Any] | None) -> str:
    """One sentence: whether the winner beats the default ``d`` by its paired comparison ``c``."""
    if w and w["label"] == d["label"]:
        return f"The winner is the default {d['label']}."
    if not w or not c:
        return f"{d['label']}: not compared (no held-out questions or no winner)."
    lo, hi = c["ci"]
    said = f"p = {c['p_value']:.2g}, 95% interval {lo:+.1%} to {hi:+.1%}"
    if c["significant"] and lo > 0:
        return f"The winner beats {d['label']} ({said})."
    if c["significant"] and hi < 0:
        return f"The winner is WORSE than {d['label']} on the held-out questions ({said})."
    if c["best_hits"] == c["other_hits"] and c["only_best"] == c["only_other"]:
        return f"The winner ties {d['label']} ({said})."
    return f"The winner is not shown better than {d['label']}: the difference may be noise ({said})."


def _pareto_note(data: dict[str, Any]) -> str:
    return ("<p>Every candidate of the final round (all documents, the tune questions): colour is the"
            " strategy, shape the search mode. The numbered points, ringed in black, are the Pareto"
            " front: none is beaten at once on hit rate at k, MRR, tokens sent and index size; the dashed"
            " steps join those the plot shows ahead (a front point off the steps is ahead on an axis the"
            f" plot does not show). ★ the winner, ◻ a default; the dotted line is T = {esc(data['budget'])}"
            " tokens. The numbers are the rows of the final round's table.</p>")


# ---- tables ----------------------------------------------------------------------------------

def _final_table(data: dict[str, Any], points: list[dict], numbers: dict[str, int]) -> str:
    if not points:
        return ""
    front = {p["label"] for p in data["pareto"]}
    winner = (data["winner"] or {}).get("label")
    tied = tied_with(data.get("pick"))
    rows = []
    for p in points:
        mark = ("winner" if p["label"] == winner else "tied within noise" if p["label"] in tied else "") \
            + (" default" if p.get("default") else "")
        rows.append([numbers[p["label"]], p["spec"], p["mode"], _rate(p["budget_hit_rate"]),
                     _rate(p["held_out_budget_hit_rate"]),
                     _rate(p["hit_rate"]), _rate(p["held_out_hit_rate"]),
                     _dec(p["mrr"]), _dec(p["held_out_mrr"]), _tokens(p["tokens_per_question"]),
                     p["chunks"], _mb(p["index_bytes"]), "yes" if p["label"] in front else "–",
                     mark.strip()])
    k, t = data["k"], data["budget"]
    return ("<h2>The final round</h2><p>All documents, the tune questions; held-out figures from the"
            f" questions the search never saw. Ordered by hit rate within T = {esc(t)} tokens, then MRR.</p>"
            + "<div class='tune-final'>" + table(["#", "chunking", "mode", "within T tune", "within T held out",
                     f"at {k} tune", f"at {k} held out", "MRR tune", "MRR held out",
                     "tokens / question", "chunks", "index MB", "on the front", "note"], rows, left=(1, 2, 13))
            + "</div>")


def _search_log(data: dict[str, Any]) -> str:
    if not data["log"]:
        return '<p class="note">The search log is empty: no round ran.</p>'
    out = [table(["round", "documents", "questions", "candidates", "kept", "seconds", "tokens embedded"],
                 [[r["round"], r["documents"], r["questions"], r["candidates"], r["kept"],
                   f"{r['seconds']:.1f}", f"{r['embedded_tokens']:,}"] for r in data["rounds"]])]
    rounds: dict[int, list[dict]] = {}
    for row in data["log"]:
        rounds.setdefault(row["round"], []).append(row)
    for number, rows in sorted(rounds.items()):
        rows = sorted(rows, key=lambda r: (not r["kept"], -r["budget_hits"], -r["mrr"]))
        kept = sum(1 for r in rows if r["kept"])
        body = [[r["label"], f"{r['budget_hits']}/{r['questions']}", f"{r['hits']}/{r['questions']}",
                 r["hits_at_1"], _dec(r["mrr"]),
                 _tokens(r["tokens_per_question"]), r["chunks"], _mb(r["index_bytes"]), f"{r['seconds']:.1f}",
                 _outcome(r)] for r in rows]
        out.append(f"<details class='tune-log tune-labels'><summary>Round {esc(number)}: {len(rows)} candidates on"
                   f" {esc(rows[0]['documents'])} document(s) and {esc(rows[0]['questions'])} questions;"
                   f" {kept} kept,"
                   f" {len(rows) - kept} dropped</summary>"
                   "<p class='note'>Kept first, then by hits within T.</p>"
                   + table(["candidate", "hits within T", f"hits at {data['k']}", "hits at 1", "MRR",
                            "tokens / question", "chunks", "index MB", "seconds", "kept, or dropped by"],
                           body, left=(0, 9))
                   + "</details>")
    return "\n".join(out)


def _outcome(row: dict[str, Any]) -> str:
    """'kept', or who dropped the candidate, the paired test's p-value and the reason."""
    d = row.get("dropped")
    if row["kept"] and not d:
        return "kept"
    if not d:
        return "dropped"
    p = as_number(d.get("p_value"))
    return (f"dropped by {d.get('by') or '?'}" + (f" (p = {p:.3g})" if p is not None else "")
            + (f": {d['reason']}" if d.get("reason") else ""))


# ---- small helpers ---------------------------------------------------------------------------

def _ranked_points(data: dict[str, Any]) -> list[dict]:
    """The final round's points, best first: hit rate within T, then MRR (a missing one last)."""
    def key(p: dict) -> tuple[float, float]:
        rate, mrr = as_number(p.get("budget_hit_rate")), as_number(p.get("mrr"))
        return (-rate if rate is not None else 1.0, -mrr if mrr is not None else 1.0)
    return sorted(data["points"], key=key)


def _count(n: Any, word: str) -> str:
    """'1 round', '3 rounds'."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def _rate(v: Any) -> str:
    v = as_number(v)
    return "–" if v is None else f"{v:.1%}"


def _dec(v: Any) -> str:
    v = as_number(v)
    return "–" if v is None else f"{v:.3f}"


def _tokens(v: Any) -> str:
    v = as_number(v)
    return "–" if v is None else f"{v:,.0f}"


def _mb(n_bytes: Any) -> str:
    """Bytes as MB (10^6 bytes), two significant decimals for small ones."""
    v = as_number(n_bytes)
    if v is None:
        return "–"
    mb = v / 1e6
    return f"{mb:.2f}" if mb < 10 else f"{mb:,.1f}"


def _interval(rate: Any, n: int) -> str:
    """The 95% Wilson interval of a hit rate over ``n`` questions (hits recovered from the rate)."""
    r = as_number(rate)
    if r is None or not n:
        return "–"
    lo, hi = wilson(round(r * n), n)
    return f"{lo:.0%}–{hi:.0%}"


def _duration(seconds: float) -> str:
    """Seconds as '42 s', '3 min 05 s' or '1 h 02 min'."""
    s = round(seconds)
    if s < 60:
        return f"{seconds:.1f} s" if seconds < 10 else f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {s % 3600 // 60:02d} min"
