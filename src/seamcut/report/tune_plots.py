"""The plots of the ``seamcut tune --report`` page, drawn with matplotlib from tune's JSON dict
(``TuneResult.to_json()``) as base64 PNGs: quality against tokens sent per question and against
index size (the Pareto front numbered, the winner and defaults ringed), and each candidate's hit
rate within the budget round by round.

Hit rates are fractions 0..1; tokens are the embedding model's tokens; index sizes are bytes in
the dict and MB (10^6 bytes) on the axes."""
from __future__ import annotations

import math
from typing import Any

from .html import as_number, png

#: a marker per search mode; a colour per strategy (the spec's name before the first ":")
MODE_MARKERS = {"vector": "o", "text": "s", "hybrid": "^"}
#: x axes whose largest value is more than this many times the smallest are drawn log
LOG_RATIO = 8.0


def tokens_plot(plt: Any, data: dict[str, Any], points: list[dict], numbers: dict[str, int],
                colours: dict[str, Any]) -> str:
    """Hit rate within the budget and at k against tokens sent per question, side by side (PNG,
    base64); ``numbers``: each front point's row in the final table."""
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


def size_plot(plt: Any, data: dict[str, Any], points: list[dict], numbers: dict[str, int],
              colours: dict[str, Any]) -> str:
    """Hit rate within the budget and at k against index size in MB, side by side (PNG, base64)."""
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
    drawn = [p for p in points if as_number(p.get(y)) is not None]
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


def rounds_plot(plt: Any, data: dict[str, Any], colours: dict[str, Any]) -> str:
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


def strategy_colours(data: dict[str, Any]) -> dict[str, Any]:
    """A colour per strategy, the same in every plot: in the order the space names them."""
    from matplotlib import colormaps
    names = list(dict.fromkeys([_strategy({"spec": c}) for c in data["space"]["chunkings"]]
                               + [_strategy(p) for p in data["points"] + data["log"]]))
    cmap = colormaps["tab10" if len(names) <= 10 else "tab20"]
    return {name: cmap(i % cmap.N) for i, name in enumerate(names)}


def _plain(text: str, most: int = 32) -> str:
    """Text for matplotlib as it is (a "$" not read as mathematics), cut to ``most`` characters."""
    text = text if len(text) <= most else text[:most - 1] + "…"
    return text.replace("$", r"\$")


def _judged(row: dict[str, Any]) -> float:
    v = as_number(row.get("budget_hit_rate"))
    return v if v is not None else row["hit_rate"]


def _strategy(p: dict[str, Any]) -> str:
    return str(p.get("spec") or p["label"]).split(":")[0].split(" @")[0]


def _marker(p: dict[str, Any]) -> str:
    return MODE_MARKERS.get(p.get("mode", ""), "D")
