"""`seamcut tune` on the scale corpus or a stated slice of it (issue 14), from a cold embedding
cache, so its cost is what a first run pays.

    .venv/bin/python benchmarks/scale/scale_tune.py [--sample 16] [--out DIR] [--render] [-- more tune flags]

Takes every N-th PDF of the scale corpus by name with the questions on them (the rule of
`benchmarks/scale/scale_compare.py`), runs `seamcut tune` on them with the corpus's catalog and
`--model e5-torch` (unless the flags after `--` say otherwise), with an embedding cache of its
own under OUT (empty at the start: every vector is computed and counted) and the parsed
documents of the usual cache (reading and OCR are not in the cost in tokens, and the scanned
pages take minutes). Writes `benchmarks/scale/results/YYYY-MM-DD-tune[-sampleN].json` (today, UTC;
tune's JSON, the slice and the `recorded` block), `.md` (the rounds and their cost, the final table, the winner against each default) and
`.html` (tune's report, with its Pareto plot). `--render` redraws the .md from the results
JSON (`--results NAME`, else the latest of this sample) without running. `--resume` goes on with a search a kill stopped (a whole-corpus search
takes longer than a session): the cache is kept and tune carries the cost on. `--journal FILE`
keeps a copy of tune's journal in FILE as it runs, and a run on a fresh machine whose OUT has no
journal goes on from FILE: the pieces it says were finished are not built again.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import shutil
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(HERE), str(HERE.parent / "common"), str(ROOT / "src")]

import record  # noqa: E402
from scale import FULL_PAGES, make_corpus  # noqa: E402
from scale_compare import run_for_json, take_slice  # noqa: E402

from seamcut.ground.cache import default_cache_dir  # noqa: E402
from seamcut.evaluate.judge import tied_with  # noqa: E402
from seamcut.evaluate.tune_result import tune_tie_line  # noqa: E402
from seamcut.evaluate.tune_journal import FILE  # noqa: E402

DEFAULT_FLAGS = ["--model", "e5-torch"]


def cold_cache(out: Path, resume: bool = False) -> Path:
    """A cache root whose embeddings folder is empty (``resume``: as a stopped run left it) and
    whose parsed documents are the usual cache's (linked)."""
    root = out / "cache"
    if not resume:
        shutil.rmtree(root / "embeddings", ignore_errors=True)
    (root / "embeddings").mkdir(parents=True, exist_ok=True)
    docs = default_cache_dir("documents")
    docs.mkdir(parents=True, exist_ok=True)
    link = root / "documents"
    if not link.is_symlink():
        link.symlink_to(docs)
    return root


@contextmanager
def keeping(journal: Path, copy: Path | None, every: float = 60.0) -> Iterator[None]:
    """``journal`` copied (gzipped) to ``copy`` every ``every`` seconds while the block runs,
    and at its end (``copy`` None: nothing)."""
    if copy is None:
        yield
        return
    stop = threading.Event()

    def save() -> None:
        try:
            data = journal.read_bytes()  # tune replaces it whole: never half of one
        except OSError:
            return
        tmp = copy.with_name(copy.name + ".tmp")
        tmp.write_bytes(gzip.compress(data, mtime=0))
        os.replace(tmp, copy)

    def loop() -> None:
        while not stop.wait(every):
            save()

    copy.parent.mkdir(parents=True, exist_ok=True)
    thread = threading.Thread(target=loop, daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()
        save()


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def table(data: dict[str, Any]) -> str:
    """The rounds, the final round and the cost as Markdown."""
    s, c, q = data["slice"], data["cost"], data["questions"]
    idx = c["index_tokens"] or 0
    out = [f"Slice: every {s['sample']}th file of the scale corpus: {s['files']} files, {s['pages']:,} pages; "
           f"{q['tune']} tune and {q['held_out']} held-out questions ({q['no_answer']} without an answer); "
           f"top {data['k']}, model {data['model']}, budget {data['budget']} tokens per question; "
           f"flags {' '.join(s['flags'])}; wall time {c['seconds'] / 60:.1f} min on this machine"
           + (f" over {c['runs']} runs (stopped and resumed)." if c.get("runs", 1) > 1 else "."), "",
           "| round | documents | questions | candidates | chunkings | kept | tokens embedded | x one index | minutes |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in data["rounds"]:
        chunkings = len({row["spec"] for row in data["log"] if row["round"] == r["round"]})
        eq = f"{r['embedded_tokens'] / idx:.2f}" if idx else "-"
        out.append(f"| {r['round']} | {r['documents']} | {r['questions']} | {r['candidates']} | {chunkings} | "
                   f"{r['kept']} | {r['embedded_tokens']:,} | {eq} | {r['seconds'] / 60:.1f} |")
    out += ["", f"Cost: {c['embedded_tokens']:,} tokens embedded, {c['index_equivalents']} x one structure "
                f"index of the slice ({idx:,} tokens): the search {c['search_tokens']:,} "
                f"({c['search_index_equivalents']} x), building the defaults it is tested against "
                f"{c['versus_tokens']:,}; {c['seconds'] / 60:.1f} min.", "",
            "Final round (every document, every question): hit rates on the tune and the held-out questions.", "",
            "| candidate | hits@4 tune | held out | within budget tune | held out | MRR tune | tokens/question | default |",
            "|---|---:|---:|---:|---:|---:|---:|---|"]
    winner = (data.get("winner") or {}).get("label")
    tied = tied_with(data.get("pick"))
    for p in sorted(data["points"], key=lambda p: -(p["budget_hit_rate"] or 0)):
        mark = " (winner)" if p["label"] == winner else " (tied)" if p["label"] in tied else ""
        out.append(f"| {p['label']}{mark} | {_pct(p['hit_rate'])} | {_pct(p['held_out_hit_rate'])} | "
                   f"{_pct(p['budget_hit_rate'])} | {_pct(p['held_out_budget_hit_rate'])} | {p['mrr']:.3f} | "
                   f"{p['tokens_per_question']:,.0f} | {'yes' if p['default'] else ''} |")
    tie = tune_tie_line(data)
    if tie:
        out += ["", tie + "."]
    said = [*data.get("failures", []), *data.get("warnings", [])]
    if said:
        out += ["", "Files that failed, and rounds judged on different files:", ""] + [f"- {x}" for x in said]
    verdicts = [d["comparison"]["verdict"] for d in data["defaults"] if d.get("comparison")
                and d["label"] != winner]
    if verdicts:
        out += ["", f"The winner against each default, held-out questions, hits within {data['budget']} tokens:", ""]
        out += [f"- {v}" for v in verdicts]
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, default=16, help="every n-th file only (1: all)")
    ap.add_argument("--out", type=Path, help="the tune's folder (default /tmp/seamcut-scale-tune-N)")
    ap.add_argument("--render", action="store_true", help="redraw the .md from the results JSON, no run")
    ap.add_argument("--resume", action="store_true",
                    help="go on with a search that was stopped (killed): its embedding cache is kept, and "
                         "tune's journal in OUT/work carries its cost on (cost.runs counts the runs)")
    ap.add_argument("--journal", type=Path,
                    help="a copy of tune's journal kept here (gzipped), for a search longer than a machine is "
                         "held: copied into OUT/work where that has none (the search goes on: --resume), and "
                         "back here every minute while it runs")
    ap.add_argument("--results", type=Path, help="NAME for NAME.json/.md/.html (default results/YYYY-MM-DD-"
                    "tune[-sampleN]: today's, with --render the latest)")
    ap.add_argument("extra", nargs="*", help="more `seamcut tune` flags, after --")
    a = ap.parse_args()
    out = a.out or Path(f"/tmp/seamcut-scale-tune-{a.sample}")
    name = "tune" if a.sample == 1 else f"tune-sample{a.sample}"
    results = a.results or record.result_path(HERE, name, "")
    if a.render and a.results is None:
        found = record.latest(HERE, name)
        if found is None:
            sys.exit(f"no results/YYYY-MM-DD-{name}.json to render")
        results = found.with_name(found.name.split(".json")[0])
    if not a.render:
        corpus = make_corpus(FULL_PAGES)
        out.mkdir(parents=True, exist_ok=True)
        files, questions, pages = take_slice(corpus, a.sample, out / "files")
        qfile = out / "questions.yaml"
        qfile.write_text(yaml.safe_dump(questions, allow_unicode=True, sort_keys=False), encoding="utf-8")
        named = any(f == "--model" or f.startswith("--model=") for f in a.extra)
        flags = [*([] if named else DEFAULT_FLAGS), *a.extra]
        cmd = [sys.executable, "-m", "seamcut.cli", "tune", str(out / "files"), "--questions", str(qfile),
               "--catalog", str(corpus / "catalog.csv"), "--out", str(out / "work"),
               "--json", str(out / "tune.json"), "--report", str(out / "tune.html"), *flags]
        print(f"{len(files)} files, {pages:,} pages, {len(questions)} questions\n" + " ".join(cmd), flush=True)
        journal = out / "work" / FILE
        carried = a.journal is not None and a.journal.is_file() and not journal.exists()
        if carried:
            journal.parent.mkdir(parents=True, exist_ok=True)
            journal.write_bytes(gzip.decompress(a.journal.read_bytes()))
            print(f"the search goes on from the journal {a.journal}", flush=True)
        env = {**os.environ, "OMP_NUM_THREADS": "1",
               "SEAMCUT_CACHE": str(cold_cache(out, a.resume or carried))}
        t0 = time.monotonic()
        with keeping(journal, a.journal):
            rc, cpu = run_for_json(cmd, env, out / "tune.json")
        data = json.loads((out / "tune.json").read_text(encoding="utf-8"))
        data["slice"] = {"corpus": str(corpus), "sample": a.sample, "files": len(files), "pages": pages,
                         "questions": len(questions), "wall_seconds": round(time.monotonic() - t0, 1),
                         "cpu_seconds": round(cpu, 1), "flags": flags, "exit_code": rc}
        record.write_json(results.with_name(results.name + ".json"), data, indent=1)
        shutil.copyfile(out / "tune.html", results.with_name(results.name + ".html"))
    data = record.read_json(results.with_name(results.name + ".json"))
    results.with_name(results.name + ".md").write_text(table(data), encoding="utf-8")
    print(f"wrote {results}.json, .md, .html")


if __name__ == "__main__":
    main()
