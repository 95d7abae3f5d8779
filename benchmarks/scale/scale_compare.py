"""`seamcut compare` on the scale corpus (issue 12), whole or a stated slice, then its table.

    .venv/bin/python benchmarks/scale/scale_compare.py [--sample N] [--label L] [--out DIR] [-- more compare flags]

Makes the corpus if it is not in the cache (`scripts/make_corpus.py`), takes every N-th PDF by name
(the same rule as `benchmarks/scale/scale.py --sample`: the mix of kinds, languages and scans is kept)
with the questions whose source is among them (and the no-answer questions), runs
`seamcut compare` on them with the corpus's catalog (e5-torch, budgets 256/512/1024/2048 tokens,
unless the flags after `--` say otherwise), one strategy at a time (all seven unless
`--strategies` names others), and writes its JSON, the README table and plot
(`benchmarks/common/compare_table.py`, with the named-source column) to
`benchmarks/scale/results/YYYY-MM-DD-compare[-sampleN][-L]` (today, UTC; `.json.gz` where the JSON
is over 1 MB; the JSON with its `recorded` block).

Each strategy's run is kept as a part (`benchmarks/scale/results/parts/compare[-sampleN][-L]/NAME.json.gz`,
undated so that a run resumes on another day; with the seamcut commit and machine that ran it) and the parts are judged together
(`seamcut.evaluate.merge.merge_runs`: the same paired tests as one run of them all): the whole
corpus takes longer than a machine is held here, so a rerun on a fresh machine goes on from the
first strategy without a part for this slice and these flags. The compare's own folder (`--out`,
default `/tmp/seamcut-scale-compare-N`) keeps its indexes: a rerun with the same flags on the same
machine reuses them.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import subprocess
import threading
import sys
import time
from pathlib import Path

import psutil
import pypdfium2
import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(HERE), str(HERE.parent / "common")]

import record  # noqa: E402
from scale import FULL_PAGES, hard_link, make_corpus, process_tree  # noqa: E402

from seamcut.evaluate import parse_budgets  # noqa: E402
from seamcut.evaluate.compare import default_strategies  # noqa: E402
from seamcut.evaluate.merge import merge_runs  # noqa: E402
from seamcut.strategies.spec import parse_spec  # noqa: E402

DEFAULT_FLAGS = ["--model", "e5-torch", "--budget", "256,512,1024,2048"]


def take_slice(corpus: Path, sample: int, folder: Path) -> tuple[list[Path], list[dict], int]:
    """Every ``sample``-th PDF of ``corpus`` (hard-linked into ``folder``), the questions on them and
    the no-answer ones, and the slice's page count."""
    folder.mkdir(parents=True, exist_ok=True)
    files = sorted(f for f in corpus.iterdir() if f.suffix == ".pdf")[::sample]
    for f in files:
        link = folder / f.name
        if link.is_symlink():  # a slice made before folder walks stopped following links out
            link.unlink()
        if not link.exists():
            hard_link(f.resolve(), link)
    names = {f.name for f in files}
    questions = yaml.safe_load((corpus / "questions.yaml").read_text(encoding="utf-8"))
    kept = [q for q in questions if not q.get("source") or q["source"] in names]
    pages = 0
    for f in files:
        pdf = pypdfium2.PdfDocument(str(f))
        pages += len(pdf)
        pdf.close()
    return files, kept, pages


def run_for_json(cmd: list[str], env: dict[str, str], result: Path) -> tuple[int, float]:
    """Run a seamcut command that writes ``result``; its exit code, 0 or 1 (1: some files failed,
    which the JSON names: the results are kept), and the CPU seconds its process tree took.
    Exits where it wrote no JSON."""
    result.unlink(missing_ok=True)
    proc = subprocess.Popen(cmd, env=env)
    cpu = TreeCPU(proc.pid)
    cpu.start()
    rc = proc.wait()
    cpu.done.set()
    cpu.join()
    if rc not in (0, 1) or not result.is_file():
        sys.exit(f"{' '.join(cmd[2:4])} exited {rc} without writing {result}")
    return rc, cpu.seconds


class TreeCPU(threading.Thread):
    """CPU seconds (user and system) of a process and every process under it, sampled every
    ``every`` seconds (each process's last sample counts, so at most ``every`` seconds of each
    are missed): the machine here is shared, so a part's wall time is read beside the CPU it
    took. (The children's rusage missed the reading and embedding workers: a fork server's
    children are not reaped by the command itself.)"""

    def __init__(self, pid: int, every: float = 1.0) -> None:
        super().__init__(daemon=True)
        self.pid, self.every = pid, every
        self.seen: dict[tuple[int, float], float] = {}
        self.done = threading.Event()

    def sample(self) -> None:
        for p in process_tree(self.pid):
            try:
                t = p.cpu_times()
                self.seen[(p.pid, p.create_time())] = t.user + t.system
            except psutil.Error:
                pass

    def run(self) -> None:
        while not self.done.wait(self.every):
            self.sample()

    @property
    def seconds(self) -> float:
        return sum(self.seen.values())


def commit() -> str:
    """The seamcut commit that ran (with ``+changes`` where the tree differs from it)."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    dirty = subprocess.run(["git", "status", "--porcelain", "--", "src"], cwd=ROOT, capture_output=True, text=True)
    return (head.stdout.strip() or "unknown") + ("+changes" if dirty.stdout.strip() else "")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, default=1, help="every n-th file only (a slice; 1: all)")
    ap.add_argument("--corpus", type=Path, help="this folder instead of the scale corpus")
    ap.add_argument("--out", type=Path, help="the compare's folder (indexes, misses)")
    ap.add_argument("--label", default="", help="added to the results' name and the parts' folder")
    ap.add_argument("--results", type=Path, help="NAME for NAME.json/.md/.png (default "
                    "benchmarks/scale/results/YYYY-MM-DD-compare[-sampleN][-LABEL])")
    ap.add_argument("--parts", type=Path, help="the parts' folder (default benchmarks/scale/results/parts/"
                    "compare[-sampleN][-LABEL]; with --results NAME: NAME_parts)")
    ap.add_argument("--strategies", default=",".join(default_strategies()),
                    help="comma-separated, each run as a part of its own (default: all seven)")
    ap.add_argument("extra", nargs="*", help="more `seamcut compare` flags, after --")
    a = ap.parse_args()
    corpus = a.corpus or make_corpus(FULL_PAGES)
    out = a.out or Path(f"/tmp/seamcut-scale-compare-{a.sample}")
    name = "compare" + (f"-sample{a.sample}" if a.sample != 1 else "") + (f"-{a.label}" if a.label else "")
    results = a.results or record.result_path(HERE, name, "")
    parts = a.parts or (results.parent / f"{results.name}_parts" if a.results else HERE / "results" / "parts" / name)
    out.mkdir(parents=True, exist_ok=True)
    files, questions, pages = take_slice(corpus, a.sample, out / "files")
    qfile = out / "questions.yaml"
    qfile.write_text(yaml.safe_dump(questions, allow_unicode=True, sort_keys=False), encoding="utf-8")
    answered = sum(bool(q.get("must_contain")) for q in questions)
    print(f"{'all' if a.sample == 1 else f'every {a.sample}th'} file of {corpus}: {len(files)} files, "
          f"{pages:,} pages; {len(questions)} questions ({answered} with an answer)", flush=True)
    flags = a.extra or DEFAULT_FLAGS
    made = json.loads((corpus / "manifest.json").read_text(encoding="utf-8")).get("digest") \
        if (corpus / "manifest.json").is_file() else None
    the_slice = {"corpus": str(corpus), "corpus_digest": made, "sample": a.sample, "files": len(files),
                 "pages": pages, "questions": len(questions), "flags": flags}
    names = [n.strip() for n in a.strategies.split(",") if n.strip()]
    runs = []
    for name in names:
        runs.append(run_part(name, parts / f"{parse_spec(name).slug}.json.gz", the_slice, out, qfile, corpus, flags))
    budgets = argparse.ArgumentParser(add_help=False)
    budgets.add_argument("--budget", action="append")
    named = budgets.parse_known_args(flags)[0].budget
    run = merge_runs(runs, parse_budgets(named) if named else None)
    run["slice"] = {**the_slice, "wall_seconds": round(sum(r["slice"]["wall_seconds"] for r in runs), 1),
                    "cpu_seconds": round(sum(r["slice"].get("cpu_seconds") or 0 for r in runs), 1),
                    "exit_code": max(r["slice"]["exit_code"] for r in runs),
                    "parts": {r["strategies"][0]["name"]: {k: r["slice"].get(k) for k in ("wall_seconds", "cpu_seconds", "commit", "ran", "recorded")}
                              for r in runs}}
    written = record.write_json(results.with_name(results.name + ".json"), run, indent=1, gzip_over=record.GZIP_OVER)
    table = [sys.executable, str(HERE.parent / "common" / "compare_table.py"), str(written), "--out", str(results)]
    if subprocess.run([*table, "--indexes", str(out / "index")]).returncode != 0:
        # parts made on another machine left no index here: the table without the named-source column
        print("the named-source column needs every part's index in this --out folder; left out", flush=True)
        subprocess.run(table, check=True)
    print(f"compare wall time {run['slice']['wall_seconds'] / 60:.1f} min (the parts together); "
          f"wrote {written}, {results}.md, .png")


def run_part(name: str, part: Path, the_slice: dict, out: Path, qfile: Path, corpus: Path,
             flags: list[str]) -> dict:
    """One strategy's compare, kept in ``part`` (its JSON without the misses' texts, which stay in
    the compare's own folder): a part kept for the same slice and flags is taken as it is, so a
    run stopped (or a machine lost) between strategies goes on from the next one."""
    if part.is_file():
        kept = json.loads(gzip.decompress(part.read_bytes()).decode("utf-8"))
        if {k: kept["slice"].get(k) for k in the_slice} == the_slice:
            print(f"{name}: kept from {part} (run {kept['slice']['ran']}, seamcut {kept['slice']['commit']})",
                  flush=True)
            return kept
        print(f"{name}: {part} was run on another slice or with other flags; running it again", flush=True)
    cmd = [sys.executable, "-m", "seamcut.cli", "compare", str(out / "files"), "--questions", str(qfile),
           "--catalog", str(corpus / "catalog.csv"), "--out", str(out), "--json", str(out / "compare.json"),
           "--strategies", name, *flags]
    print(" ".join(cmd), flush=True)
    t0 = time.monotonic()
    rc, cpu = run_for_json(cmd, {**os.environ, "OMP_NUM_THREADS": "1"}, out / "compare.json")
    wall = time.monotonic() - t0
    run = json.loads((out / "compare.json").read_text(encoding="utf-8"))
    run["slice"] = {**the_slice, "wall_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1),
                    "exit_code": rc, "commit": commit(), "recorded": record.stamp(),
                    "ran": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    for strategy in run["strategies"]:  # the misses' texts stay in the compare's own folder
        strategy.pop("misses", None)
    part.parent.mkdir(parents=True, exist_ok=True)
    part.write_bytes(gzip.compress(json.dumps(run, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), mtime=0))
    print(f"{name}: {wall / 60:.1f} min, {cpu:,.0f} CPU s; kept in {part}", flush=True)
    return run


if __name__ == "__main__":
    main()
