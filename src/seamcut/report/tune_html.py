"""The ``seamcut tune --report`` page, drawn from tune's JSON dict alone (``TuneResult.to_json()``;
a saved JSON file redraws it): the run and what it cost, the winner as a ready command and how it
fares against each default, the Pareto plots of quality against tokens sent per question and
index size, the successive-halving rounds, the final round's table and the whole search log.

Hit rates are fractions 0..1 in the dict and shown as percentages; tokens are the embedding
model's tokens; index sizes are bytes in the dict and MB (10^6 bytes) on the page."""
from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from .compare_html import wilson
from .html import esc, img, page, png, pyplot, table, write_page

#: a marker per search mode; a colour per strategy (the spec's name before the first ":")
MODE_MARKERS = {"vector": "o", "text": "s", "hybrid": "^"}
#: x axes whose largest value is more than this many times the smallest are drawn log
LOG_RATIO = 8.0
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
    colours = _colours(data) if plt is not None else {}
    if plt is None:
        parts.append('<p class="note">matplotlib is not installed: plots left out.</p>')
    elif points:
        parts.append(_pareto_note(data))
        parts.append(img("hit rate against tokens sent per question",
                         _tokens_plot(plt, data, points, numbers, colours)))
        parts.append(img("hit rate against index size", _size_plot(plt, data, points, numbers, colours)))
    else:
        parts.append('<p class="note">No candidate reached the final round: nothing to plot.</p>')
    parts.append(_final_table(data, points, numbers))
    parts.append("<h2>The search, round by round</h2>")
    if plt is not None and data["log"]:
        parts.append(img("hit rate per candidate per round", _rounds_plot(plt, data, colours)))
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
                 if cost.get("index_tokens") and _num(cost.get("index_equivalents")) is not None else "")
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
             if _num(cost.get("search_index_equivalents")) is not None else "")
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
            f" {_mb(w['index_bytes'])} MB.</p>"
            + table(["", f"tune ({data['questions']['tune']} questions)",
                     f"held out ({data['questions']['held_out']} questions)"], rows)
            + "</div>")


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


# ---- plots -----------------------------------------------------------------------------------

def _pareto_note(data: dict[str, Any]) -> str:
    return ("<p>Every candidate of the final round (all documents, the tune questions): colour is the"
            " strategy, shape the search mode. The numbered points, ringed in black, are the Pareto"
            " front: none is beaten at once on hit rate at k, MRR, tokens sent and index size; the dashed"
            " steps join those the plot shows ahead (a front point off the steps is ahead on an axis the"
            f" plot does not show). ★ the winner, ◻ a default; the dotted line is T = {esc(data['budget'])}"
            " tokens. The numbers are the rows of the final round's table.</p>")


def _tokens_plot(plt: Any, data: dict[str, Any], points: list[dict], numbers: dict[str, int],
                 colours: dict[str, Any]) -> str:
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.4), sharex=True)
    x = lambda p: p["tokens_per_question"]  # noqa: E731
    _scatter(plt, a, data, points, numbers, colours, x, "budget_hit_rate")
    _scatter(plt, b, data, points, numbers, colours, x, "hit_rate")
    for ax, what in ((a, f"hit rate within T = {data['budget']} tokens"), (b, f"hit rate at {data['k']}")):
        ax.axvline(data["budget"], color="grey", linestyle=":", linewidth=1)
        ax.set_xlabel(f"tokens sent to the model per question (at top {data['k']})")
        ax.set_ylabel(what)
    _legend(fig, data, points, colours)
    return png(fig)


def _size_plot(plt: Any, data: dict[str, Any], points: list[dict], numbers: dict[str, int],
               colours: dict[str, Any]) -> str:
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4.4), sharex=True)
    x = lambda p: p["index_bytes"] / 1e6  # noqa: E731
    _scatter(plt, a, data, points, numbers, colours, x, "budget_hit_rate")
    _scatter(plt, b, data, points, numbers, colours, x, "hit_rate")
    for ax, what in ((a, f"hit rate within T = {data['budget']} tokens"), (b, f"hit rate at {data['k']}")):
        ax.set_xlabel("index size (MB)")
        ax.set_ylabel(what)
    _legend(fig, data, points, colours)
    return png(fig)


def _scatter(plt: Any, ax: Any, data: dict[str, Any], points: list[dict], numbers: dict[str, int],
             colours: dict[str, Any], x: Any, y: str) -> None:
    """Every point (colour: strategy, marker: mode), the front joined and numbered, the winner and
    the defaults ringed; log x where the values span more than ``LOG_RATIO`` times."""
    drawn = [p for p in points if _num(p.get(y)) is not None]
    for p in drawn:
        ax.scatter(x(p), p[y], color=colours[_strategy(p)], marker=_marker(p), s=34, alpha=.85,
                   edgecolors="white", linewidths=.5, zorder=3)
    front = {p["label"] for p in data["pareto"]}
    on = sorted((p for p in drawn if p["label"] in front), key=lambda p: (x(p), -p[y]))
    steps = _staircase(on, x, y)
    if steps:
        ax.step([x(p) for p in steps], [p[y] for p in steps], where="post", color="#333", linestyle="--",
                linewidth=1, zorder=2)
    for p in on:
        ax.scatter(x(p), p[y], marker=_marker(p), s=34, facecolors="none", edgecolors="black",
                   linewidths=.9, zorder=4)
    winner = (data["winner"] or {}).get("label")
    defaults = {d["label"] for d in data["defaults"]}
    for p in drawn:
        if p["label"] in defaults or p.get("default"):
            ax.scatter(x(p), p[y], marker="s", s=170, facecolors="none", edgecolors="#d62728",
                       linewidths=1.4, zorder=4)
        if p["label"] == winner:
            ax.scatter(x(p), p[y], marker="*", s=330, facecolors="none", edgecolors="black",
                       linewidths=1.3, zorder=4)
    xs = [x(p) for p in drawn]
    if xs and min(xs) > 0 and max(xs) / min(xs) > LOG_RATIO:
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(plt.FuncFormatter(lambda v, _: f"{v:g}"))
    ax.set_ylim(max(0.0, min((p[y] for p in drawn), default=0) - .08), 1.02)
    ax.grid(True, linewidth=.3, alpha=.6)
    _number(ax, [(x(p), p[y], str(numbers[p["label"]]), 7 if p["label"] == winner else 0) for p in on],
            [(x(p), p[y]) for p in drawn])


#: where a number may go beside its point (points right and up), tried in turn
_SPOTS = ((4, 3), (4, -10), (-10, 3), (-10, -10), (4, 12), (4, -19), (-10, 12), (-10, -19), (12, -4), (-18, -4))


def _number(ax: Any, marks: list[tuple[float, float, str, float]], others: list[tuple[float, float]]) -> None:
    """Write each mark's text beside its point (x, y, text, extra distance in points, for a big
    marker) at the first spot that overlaps no number already written and no other point (the
    first spot where none is free)."""
    ax.figure.canvas.draw()  # the limits and scales settled, so data can be placed in pixels
    scale = ax.figure.dpi / 72  # pixels per point
    points = [tuple(ax.transData.transform(o)) for o in others]
    taken: list[tuple[float, float, float, float]] = []
    for xv, yv, text, pad in marks:
        px, py = ax.transData.transform((xv, yv))
        w, h = (6 * len(text) + 2) * scale, 9 * scale
        boxes = [(px + (dx + math.copysign(pad, dx)) * scale, py + (dy + math.copysign(pad, dy)) * scale, w, h)
                 for dx, dy in _SPOTS]
        free = [b for b in boxes if not any(_overlap(b, t) for t in taken)
                and not any(_overlap(b, (ox - 3 * scale, oy - 3 * scale, 6 * scale, 6 * scale))
                            for ox, oy in points if (ox, oy) != (px, py))]
        box = (free or boxes)[0]
        taken.append(box)
        ax.annotate(text, (xv, yv), xytext=((box[0] - px) / scale, (box[1] - py) / scale),
                    textcoords="offset points", fontsize=8, zorder=5,
                    bbox={"boxstyle": "round,pad=0.1", "fc": "white", "ec": "none", "alpha": .7})


def _overlap(a: tuple[float, float, float, float], b: tuple[float, float, float, float]) -> bool:
    """Two boxes (left, bottom, width, height) overlap."""
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def _staircase(on: list[dict], x: Any, y: str) -> list[dict]:
    """The front's points that no other front point beats in this view (less x, more y), by x:
    the steps of the front as this plot shows it."""
    out: list[dict] = []
    for p in on:  # sorted by x, then the higher first
        if not out or p[y] > out[-1][y]:
            out.append(p)
    return out


def _legend(fig: Any, data: dict[str, Any], points: list[dict], colours: dict[str, Any]) -> None:
    """One legend right of the figure: the strategies drawn, the modes, the front, winner, default."""
    from matplotlib.lines import Line2D
    drawn = dict.fromkeys(_strategy(p) for p in points)
    handles = [Line2D([], [], linestyle="none", marker="o", color=colours[name], label=_plain(name))
               for name in drawn]
    modes = dict.fromkeys(p["mode"] for p in points)
    handles += [Line2D([], [], linestyle="none", marker=MODE_MARKERS.get(m, "D"), color="#777",
                       label=_plain(f"{m} search")) for m in modes]
    handles += [Line2D([], [], color="#333", linestyle="--", marker="o", markerfacecolor="none",
                       markeredgecolor="black", label="Pareto front"),
                Line2D([], [], linestyle="none", marker="*", markersize=13, markerfacecolor="none",
                       markeredgecolor="black", label="winner")]
    if data["defaults"] or any(p.get("default") for p in points):
        handles.append(Line2D([], [], linestyle="none", marker="s", markersize=10, markerfacecolor="none",
                              markeredgecolor="#d62728", label="default"))
    fig.tight_layout()
    fig.legend(handles=handles, loc="center left", bbox_to_anchor=(1.0, .5), fontsize=8, frameon=False)


def _rounds_plot(plt: Any, data: dict[str, Any], colours: dict[str, Any]) -> str:
    """Each candidate's hit rate within T per round (a line across the rounds it ran in); those
    dropped on the way grey, with an x where dropped; the survivors coloured by strategy."""
    by_label: dict[str, list[dict]] = {}
    for row in data["log"]:
        by_label.setdefault(row["label"], []).append(row)
    winner = (data["winner"] or {}).get("label")
    fig, ax = plt.subplots(figsize=(9, 4))
    n = len(by_label)
    for i, (label, rows) in enumerate(by_label.items()):
        rows = sorted(rows, key=lambda r: r["round"])
        shift = (i / max(1, n - 1) - .5) * .3  # spread the candidates of a round apart
        xs = [r["round"] + shift for r in rows]
        ys = [_judged(r) for r in rows]
        dropped = any(r.get("dropped") for r in rows)
        colour = "#bbbbbb" if dropped else colours[_strategy(rows[0])]
        ax.plot(xs, ys, color=colour, linewidth=2.2 if label == winner else .9,
                marker=_marker(rows[0]), markersize=3.5, zorder=2 if dropped else 3)
        for xv, yv, r in zip(xs, ys, rows):
            if r.get("dropped"):
                ax.plot([xv], [yv], marker="x", color="#888", markersize=5, zorder=2)
        if label == winner:
            ax.plot(xs[-1:], ys[-1:], marker="*", markersize=14, markerfacecolor="none",
                    markeredgecolor="black", zorder=4)
    rounds = sorted({r["round"] for r in data["log"]})
    ax.set_xticks(rounds)
    ax.set_xticklabels([_round_tick(data, r) for r in rounds], fontsize=8)
    ax.set_ylabel(f"hit rate within T = {data['budget']} tokens")
    ax.set_ylim(0, 1.02)
    ax.grid(True, axis="y", linewidth=.3, alpha=.6)
    ax.set_title("successive halving: grey = dropped (x where), colour = kept to the end, ★ winner",
                 fontsize=9)
    fig.tight_layout()
    return png(fig)


def _round_tick(data: dict[str, Any], number: int) -> str:
    for r in data["rounds"]:
        if r["round"] == number:
            return f"round {number}\n{r['documents']} docs, {r['questions']} q\n{r['candidates']} → {r['kept']}"
    return f"round {number}"


# ---- tables ----------------------------------------------------------------------------------

def _final_table(data: dict[str, Any], points: list[dict], numbers: dict[str, int]) -> str:
    if not points:
        return ""
    front = {p["label"] for p in data["pareto"]}
    winner = (data["winner"] or {}).get("label")
    rows = []
    for p in points:
        mark = ("winner" if p["label"] == winner else "") + (" default" if p.get("default") else "")
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
    p = _num(d.get("p_value"))
    return (f"dropped by {d.get('by') or '?'}" + (f" (p = {p:.3g})" if p is not None else "")
            + (f": {d['reason']}" if d.get("reason") else ""))


# ---- small helpers ---------------------------------------------------------------------------

def _ranked_points(data: dict[str, Any]) -> list[dict]:
    """The final round's points, best first: hit rate within T, then MRR (a missing one last)."""
    def key(p: dict) -> tuple[float, float]:
        rate, mrr = _num(p.get("budget_hit_rate")), _num(p.get("mrr"))
        return (-rate if rate is not None else 1.0, -mrr if mrr is not None else 1.0)
    return sorted(data["points"], key=key)


def _count(n: Any, word: str) -> str:
    """'1 round', '3 rounds'."""
    return f"{n} {word}" + ("" if n == 1 else "s")


def _plain(text: str, most: int = 32) -> str:
    """Text for matplotlib as it is (a "$" not read as mathematics), cut to ``most`` characters."""
    text = text if len(text) <= most else text[:most - 1] + "…"
    return text.replace("$", r"\$")


def _judged(row: dict[str, Any]) -> float:
    v = _num(row.get("budget_hit_rate"))
    return v if v is not None else row["hit_rate"]


def _strategy(p: dict[str, Any]) -> str:
    return str(p.get("spec") or p["label"]).split(":")[0].split(" @")[0]


def _marker(p: dict[str, Any]) -> str:
    return MODE_MARKERS.get(p.get("mode", ""), "D")


def _colours(data: dict[str, Any]) -> dict[str, Any]:
    """A colour per strategy, the same in every plot: in the order the space names them."""
    from matplotlib import colormaps
    names = list(dict.fromkeys([_strategy({"spec": c}) for c in data["space"]["chunkings"]]
                               + [_strategy(p) for p in data["points"] + data["log"]]))
    cmap = colormaps["tab10" if len(names) <= 10 else "tab20"]
    return {name: cmap(i % cmap.N) for i, name in enumerate(names)}


def _num(v: Any) -> float | None:
    """A number, or None for a missing one (None, NaN)."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    return float(v)


def _rate(v: Any) -> str:
    v = _num(v)
    return "–" if v is None else f"{v:.1%}"


def _dec(v: Any) -> str:
    v = _num(v)
    return "–" if v is None else f"{v:.3f}"


def _tokens(v: Any) -> str:
    v = _num(v)
    return "–" if v is None else f"{v:,.0f}"


def _mb(n_bytes: Any) -> str:
    """Bytes as MB (10^6 bytes), two significant decimals for small ones."""
    v = _num(n_bytes)
    if v is None:
        return "–"
    mb = v / 1e6
    return f"{mb:.2f}" if mb < 10 else f"{mb:,.1f}"


def _interval(rate: Any, n: int) -> str:
    """The 95% Wilson interval of a hit rate over ``n`` questions (hits recovered from the rate)."""
    r = _num(rate)
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

