"""The pipelines teams run today against seamcut's default (issue 53 point 4): each other
library's reader and chunker, run as its users run it, judged by one ``seamcut compare`` with
seamcut's ``structure``: the same embedder, index, search, hit test and tokens sent.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/peers/peers.py --set docugami   # ../shared/data
    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/peers/peers.py --set helpline   # examples/helpline
        [--modes hybrid,vector] [--budget 1024,512] [--strategies SPEC,...] [--workers 2]
        [--out out/peers] [--from RESULT.json[.gz]]

Writes ``results/YYYY-MM-DD-SET-MODE.{md,png}`` and the compare's JSON
``results/YYYY-MM-DD-SET-MODE-compare.json[.gz]`` per search mode (one index per contestant,
built in the first mode and reused by the next). A contestant whose library is not installed,
or would fetch models at run time, is not run: its row says why. The table: hits within each
budget (the first is compared), its 95% bootstrap interval, hits at k, "answer kept" (the
questions whose answer some chunk holds whole: a miss where none does was lost before search),
chunks and their median model tokens, and McNemar's exact p of each contestant against
seamcut's default on the questions hit within the first budget.
"""
from __future__ import annotations

import argparse
import textwrap
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(HERE.parent / "common"))

import record  # noqa: E402
from compare_run import run_compare  # noqa: E402
from data import DOCUGAMI_DOCS, DOCUGAMI_QUESTIONS, HELPLINE  # noqa: E402
from paired import hits_within, interval, paired_cell  # noqa: E402
from seamcut.errors import SeamcutError  # noqa: E402
from seamcut.peers import parse_contestant  # noqa: E402
from seamcut.strategies import DEFAULT_STRATEGY  # noqa: E402

#: the test sets: the files, the questions, and compare's flags for them
SETS = {
    "docugami": (DOCUGAMI_DOCS, DOCUGAMI_QUESTIONS, ["--named-source"]),
    "helpline": (HELPLINE, HELPLINE / "questions.yaml", []),
}
#: each library's pipeline as its tutorials set it up, seamcut's default first
CONTESTANTS = [DEFAULT_STRATEGY, "langchain:recursive:chunk_size=1000:chunk_overlap=200",
               "llamaindex:sentence", "chonkie:recursive", "pymupdf4llm:markdown", "unstructured:by_title",
               "docling:hybrid", "langchain:recursive:chunk_size=1000:chunk_overlap=200:reader=seamcut"]


def runnable(labels: list[str]) -> tuple[list[str], dict[str, str]]:
    """The contestants that can run here, and why each other one cannot."""
    ok, refused = [], {}
    for label in labels:
        try:
            parse_contestant(label)
            ok.append(label)
        except SeamcutError as exc:
            refused[label] = str(exc)
    return ok, refused


def run_set(corpus: Path, questions: Path, labels: list[str], args: argparse.Namespace, mode: str,
            flags: list[str], raw: Path) -> None:
    run_compare([str(corpus), "--questions", str(questions), "--strategies", ",".join(labels),
                 "--budget", args.budget, "--mode", mode, "--workers", str(args.workers),
                 "--out", str(args.out / args.set), *flags], raw)


def describe(s: dict[str, Any]) -> tuple[str, str]:
    """A row's reader and chunker, in words."""
    c = s.get("contestant")
    if not c:
        return "seamcut", s["name"]
    opts = ", ".join(f"{k}={v}" for k, v in c["options"].items())
    versions = ", ".join(f"{p} {v}" for p, v in c["versions"].items())
    name = c.get("splitter") or c["chunker"]
    return c["reader"], (f"{name}({opts})" if opts or "(" not in name else name) + (
        f" [{versions}]" if versions else "")


def table(run: dict[str, Any], refused: dict[str, str]) -> str:
    first = int(run["budget"])
    budgets = [first] + sorted(int(b) for b in run["budgets"] if int(b) != first)
    n = run["questions"]
    base = next((s for s in run["strategies"] if s["name"] == DEFAULT_STRATEGY), run["strategies"][0])
    head = (["contestant", "reader", "chunker", f"hits ≤ {first} tok", "95% interval"]
            + [f"hits ≤ {b} tok" for b in budgets[1:]]
            + [f"hits@{run['k']}", "answer kept", "chunks", "median tokens",
               f"p vs {base['name']} (≤ {first}; + / −; 95% interval of the difference)"])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for s in sorted(run["strategies"], key=lambda s: -s["budgets"][str(first)]["hits"]):
        hits = hits_within(s, first)
        reader, chunker = describe(s)
        kept = s.get("answer_kept")
        cells = [f"`{s['name']}`", reader, chunker, f"{s['budgets'][str(first)]['hits']}/{n}",
                 interval(list(hits.values()) + [False] * (n - len(hits)))]
        cells += [f"{s['budgets'][str(b)]['hits']}/{n}" for b in budgets[1:]]
        cells += [f"{s['hits']}/{n}", "-" if kept is None else f"{kept}/{n}", f"{s['chunks']:,}",
                  f"{s['chunk_tokens']['median']:g}", "" if s is base else paired_cell(base, s, first)]
        lines.append("| " + " | ".join(cells) + " |")
    for label, why in refused.items():
        lines.append(f"| `{label}` | not run: {why} |" + " |" * (len(head) - 2))
    said = [*run.get("failures", []), *run.get("warnings", [])]
    if said:
        lines += ["", f"Files that failed and warnings ({len(said)}; the first 20):", ""]
        lines += [f"- {x}" for x in said[:20]]
    return "\n".join(lines) + "\n"


def plot(run: dict[str, Any], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from seamcut.evaluate.significance import bootstrap_difference
    first = int(run["budget"])
    rows = sorted(run["strategies"], key=lambda s: s["budgets"][str(first)]["hits"])
    n = run["questions"]
    fig, ax = plt.subplots(figsize=(11, 0.5 * len(rows) + 1.5))
    for i, s in enumerate(rows):
        h = hits_within(s, first)
        values = list(h.values()) + [False] * (n - len(h))
        rate = sum(values) / n
        lo, hi = bootstrap_difference([float(v) for v in values], [0.0] * n)
        ax.barh(i, rate, color="#2b7bb9" if not s.get("contestant") else "#aaaaaa")
        ax.errorbar(rate, i, xerr=[[rate - lo], [hi - rate]], color="black", capsize=3)
    ax.set_yticks(range(len(rows)), [textwrap.fill(s["name"].replace(":", ": "), 34) for s in rows], fontsize=7)
    ax.set_xlabel(f"share of {n} questions answered within {first} tokens sent (95% interval)")
    ax.set_title(f"{run['mode']} search: seamcut (blue), other libraries' pipelines (grey)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", choices=sorted(SETS), default="helpline")
    ap.add_argument("--modes", default="hybrid,vector")
    ap.add_argument("--budget", default="1024,512", help="tokens sent per question; the first is compared")
    ap.add_argument("--strategies", default=None, help="these contestants instead (seamcut's default first)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=REPO / "out" / "peers", help="the compare's indexes")
    ap.add_argument("--from", dest="source", type=Path, default=None, help="a compare JSON already made")
    args = ap.parse_args()
    corpus, questions, flags = SETS[args.set]
    labels, refused = runnable(args.strategies.split(",") if args.strategies else CONTESTANTS)
    for mode in args.modes.split(","):
        name = record.result_path(HERE, f"{args.set}-{mode}", suffix="")
        if args.source is not None:
            run = record.read_json(args.source)
        else:
            started = record.stamp()
            with tempfile.TemporaryDirectory() as tmp:
                raw = Path(tmp) / "compare.json"
                run_set(corpus, questions, labels, args, mode, flags, raw)
                run = record.read_json(raw)
            written = record.write_json(name.with_name(name.name + "-compare.json"), run,
                                        gzip_over=record.GZIP_OVER, recorded=started)
            run = record.read_json(written)
        text = table(run, refused)
        print(text)
        cmd = f"benchmarks/peers/peers.py --set {args.set} --modes {mode} --budget {args.budget}" + (
            f" --strategies {args.strategies}" if args.strategies else "")
        name.with_suffix(".md").write_text(
            f"`{cmd}` ({run['questions']} questions, {run['documents']} documents, {run['mode']} search, "
            f"k = {run['k']}, model {run['model']})\n\n" + text + "\n" + record.markdown_line(run.get("recorded")
                                                                                          or record.stamp()),
            encoding="utf-8")
        plot(run, name.with_suffix(".png"))
        print(f"wrote {name.with_suffix('.md')}, .png", file=sys.stderr)
        if args.source is not None:
            break


if __name__ == "__main__":
    main()
