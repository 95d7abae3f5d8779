"""Context in front of every chunk (issue 38 point 1): each strategy with and without
``context=title+path``, judged by ``seamcut compare`` on the bundled helpline example at equal
tokens sent.

    OMP_NUM_THREADS=1 taskset -c 0 .venv/bin/python benchmarks/context/context.py
        [--corpus examples/helpline] [--questions examples/helpline/questions.yaml]
        [--context title+path] [--budget 512,256,1024,2048] [--out out/context]
        [--json benchmarks/context/results/YYYY-MM-DD-helpline.json] [--from RAW.json[.gz]]
        [--strategies SPEC,...] [--catalog CATALOG] [--merge EARLIER-compare.json[.gz]]

Runs one ``seamcut compare`` (``--workers 1``: files read one at a time; the embedder uses the
cores the process may run on, one under ``taskset -c 0``) over every strategy, its variant with
the context, and where a strategy's default has a context (sentence, paragraph, recursive and semantic: title+path;
structure and parent-child: the heading path), its variant with none. Prints a table: per strategy and variant, the questions hit within each
budget of tokens sent (the first budget first: the one compared), hits and MRR at k, tokens sent
per question at k, chunks, and McNemar's exact p of the variant against the strategy's default on
the questions hit within the first budget. Writes the compare's JSON (``NAME-compare.json``,
gzipped when over 1 MB) and the table (``NAME.md``) beside ``--json``, each with its ``recorded``
block (commit, date, machine). ``--from`` takes an earlier run's compare JSON instead (its
``recorded`` block goes on the table). ``--strategies`` runs those specs instead, ``--catalog``
gives the compare the documents' fields (for ``context=...+fields``), and ``--merge`` puts an
earlier run's strategies first (``merge_runs``: the same questions, k, mode and model), so new
variants are tested against defaults already measured.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from dataclasses import fields as dataclass_fields
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(HERE.parent / "common"))

import record  # noqa: E402
from paired import hits_within, interval, paired_cell  # noqa: E402
from seamcut.evaluate.merge import merge_runs  # noqa: E402
from seamcut.strategies import REGISTRY  # noqa: E402

def default_context(name: str) -> str:
    """The context strategy ``name`` puts in front by default ("" for none)."""
    config = REGISTRY[name][1]
    return next(f.default for f in dataclass_fields(config) if f.name == "context")


def specs(context: str, pairs: bool = False) -> list[str]:
    """Each strategy, then its variant with ``context`` where that is not its default, and
    without one where its default has one (sentence, paragraph, recursive and semantic: title+path; structure and
    parent-child: the heading path); ``pairs``: each strategy with a context and without only
    (its default and the other)."""
    out = []
    for name in REGISTRY:
        out.append(name)
        default = default_context(name)
        if not (pairs and default) and context != default:
            out.append(f"{name}:context={context}")
        if default:
            out.append(f"{name}:context=none")
    return out


def run_compare(args: argparse.Namespace, raw: Path) -> None:
    chosen = args.strategies or ",".join(specs(args.context, args.pairs))
    cmd = [sys.executable, "-m", "seamcut.cli", "compare", str(args.corpus), "--questions",
           str(args.questions), "--strategies", chosen, "--budget", args.budget,
           "--workers", str(args.workers), "--out", str(args.out), "--json", str(raw)]
    if args.named_source:
        cmd.append("--named-source")
    if args.catalog is not None:
        cmd += ["--catalog", str(args.catalog)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")])}
    print("$", " ".join(cmd[1:]), file=sys.stderr)
    subprocess.run(cmd, check=True, env=env)


def table(run: dict[str, Any], against: str | None = None) -> str:
    """The table; the last column tests each variant against its strategy's default, or against
    its strategy with ``context=against`` where the run has that."""
    first = int(run["budget"])  # the budget named first: the one compared
    budgets = [first] + sorted(int(b) for b in run["budgets"] if int(b) != first)
    by_name = {s["name"]: s for s in run["strategies"]}
    n = run["questions"]
    head = (["strategy", "context"] + [f"hits ≤ {b} tok" for b in budgets[:1]] + [f"95% interval (≤ {first})"]
            + [f"hits ≤ {b} tok" for b in budgets[1:]]
            + [f"hits@{run['k']}", "MRR", "tokens/question", "chunks", f"p vs {'context=' + against + ' where run, else ' if against else ''}default (≤ {first}; 95% interval of the difference)"])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for s in run["strategies"]:
        name, _, option = s["name"].partition(":")
        context = option.removeprefix("context=") if option else (
            f"{default_context(name) or 'none'} (default)")
        base = (by_name.get(f"{name}:context={against}")
                if against and option and option != f"context={against}" else None)
        base = base or by_name[name]
        b = hits_within(s, first)
        p = "" if s is base else paired_cell(base, s, first)
        hit = [f"{s['budgets'][str(x)]['hits']}/{n}" for x in budgets]
        cells = [name, context, hit[0], interval(list(b.values()) + [False] * (n - len(b)))] + hit[1:]
        cells += [f"{s['hits']}/{n}", f"{s['mrr']:.3f}", f"{s['tokens_per_question']:,.0f}", f"{s['chunks']:,}", p]
        lines.append("| " + " | ".join(cells) + " |")
    said = [*run.get("failures", []), *run.get("warnings", [])]
    if said:
        lines += ["", "Files that failed, and strategies judged on different files:", ""] + [f"- {x}" for x in said]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=REPO / "examples" / "helpline")
    ap.add_argument("--questions", type=Path, default=None, help="default: CORPUS/questions.yaml")
    ap.add_argument("--context", default="title+path")
    ap.add_argument("--budget", default="512,256,1024,2048", help="tokens sent per question; the first is compared")
    ap.add_argument("--out", type=Path, default=REPO / "out" / "context", help="the compare's indexes")
    ap.add_argument("--workers", type=int, default=1, help="processes reading files (compare's --workers)")
    ap.add_argument("--named-source", action="store_true",
                    help="a question that names its source is answered only by a chunk of it")
    ap.add_argument("--pairs", action="store_true",
                    help="each strategy with its context on and off only (no title+path variant for "
                         "structure and parent-child)")
    ap.add_argument("--json", type=Path, default=None,
                    help="results/YYYY-MM-DD-helpline.json: NAME-compare.json(.gz) and NAME.md are written")
    ap.add_argument("--from", dest="source", type=Path, default=None, help="a compare JSON already made")
    ap.add_argument("--strategies", default=None, help="these specs instead of each strategy and its variants")
    ap.add_argument("--catalog", type=Path, default=None, help="document fields (compare's --catalog)")
    ap.add_argument("--against", default=None,
                    help="test each variant against its strategy with this context where run (default: its default)")
    ap.add_argument("--merge", type=Path, default=None,
                    help="an earlier compare JSON of the same questions: its strategies go first")
    args = ap.parse_args()
    args.questions = args.questions or args.corpus / "questions.yaml"
    if args.source is not None:
        run = record.read_json(args.source)
    else:
        started = record.stamp()  # the code that reads and cuts is the code at the start
        with tempfile.TemporaryDirectory() as tmp:
            raw = Path(tmp) / "compare.json"
            run_compare(args, raw)
            run = record.read_json(raw)
    if args.merge is not None and args.source is None:  # a JSON written by this script is merged already
        earlier = record.read_json(args.merge)
        run = {**merge_runs([earlier, run], [int(b) for b in args.budget.split(",")]),
               "recorded": run.get("recorded") or earlier.get("recorded")}
    text = table(run, args.against)
    print(text)
    if args.json is not None:
        name = args.json.with_suffix("")
        if args.source is None:
            written = record.write_json(name.with_name(name.name + "-compare.json"), run,
                                        gzip_over=record.GZIP_OVER, recorded=started)
            run = record.read_json(written)
        rec = run.get("recorded") or record.stamp()
        cmd = (f"benchmarks/context/context.py --context {args.context} --budget {args.budget}"
               + " --named-source" * args.named_source + " --pairs" * args.pairs
               + (f" --strategies {args.strategies}" if args.strategies else "")
               + (f" --catalog {args.catalog}" if args.catalog else "")
               + (f" --merge {args.merge.name}" if args.merge else "")
               + (f" --against {args.against}" if args.against else ""))
        name.with_suffix(".md").write_text(f"`{cmd}` on {args.corpus.name} ({run['questions']} questions, "
                                           f"{run['documents']} documents, {run['mode']} search, k = {run['k']})\n\n"
                                           + text + "\n" + record.markdown_line(rec), encoding="utf-8")
        print(f"wrote {name.with_suffix('.md')}", file=sys.stderr)


if __name__ == "__main__":
    main()
