"""The Ray engine's overhead: ``build_index`` on ``RayEngine()`` against ``LocalEngine()`` on
the same files, wall time and per-stage throughput.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/ray/ray_overhead.py [--slice 100] [--sets helpline,slice]
                                                                  [--json benchmarks/ray/results/YYYY-MM-DD.json]
                                                                  [--append]

Each build runs in a fresh process of its own (``--one``), into a fresh index folder, with a
fresh parsed-document cache (``SEAMCUT_CACHE`` and ``build_index(cache=)`` pointed at an empty
temp folder) and the index's own, empty, embedding cache: every file is read (OCR included),
cut and embedded by each engine; nothing is found in a cache. The Ray figure includes starting
the local Ray runtime (``ray.init``: 2 CPUs here, 512 MiB object store) and its actors, which
is what a user pays. Sets: ``examples/helpline`` (10 PDFs, 3 of them scans) and the first
``--slice`` files (sorted by name) of the 9k-page corpus at ``~/.cache/seamcut/corpus/scale-9000``
(read only). Prints a table; ``--json`` keeps every run's report (``--append`` adds this run to
the file's earlier runs instead of replacing them; without ``--json`` it is the latest
results/YYYY-MM-DD.json, else today's).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent / "common"))

import record  # noqa: E402

CORPUS = Path.home() / ".cache" / "seamcut" / "corpus" / "scale-9000"
OPTIONS = {"size": 300, "overlap": 50}  # recursive, the strategy's defaults


def one(engine: str, files: list[str], work: Path) -> dict:
    """One build in this process: its wall time in seconds and its report."""
    from seamcut.index import Index
    from seamcut.pipeline.engine import engine_from
    from seamcut.pipeline.options import BuildOptions
    from seamcut.pipeline.run import build_index
    from seamcut.strategies.spec import StrategySpec
    index = Index(work / "index", strategy="recursive", options=OPTIONS, model="default")
    t0 = time.perf_counter()
    report = build_index(index, files, StrategySpec("recursive", "recursive", OPTIONS), BuildOptions(cache=work / "parsed", progress=False),
                         engine=engine_from(engine))
    wall = time.perf_counter() - t0
    return {"engine": engine, "wall_s": wall, "report": report.to_dict()}


def run(engine: str, files: list[str]) -> dict:
    with tempfile.TemporaryDirectory(prefix=f"seamcut-rayov-{engine}-") as tmp:
        listing = Path(tmp) / "files.json"
        listing.write_text(json.dumps(files), encoding="utf-8")
        env = {**os.environ, "SEAMCUT_CACHE": str(Path(tmp) / "cache"), "OMP_NUM_THREADS": "1",
               "PYTHONPATH": str(ROOT / "src")}
        p = subprocess.run([sys.executable, __file__, "--one", engine, str(listing), tmp],
                           capture_output=True, text=True, env=env)
        if p.returncode != 0:
            raise SystemExit(f"{engine} build failed:\n{p.stderr[-3000:]}")
        return json.loads(p.stdout.strip().splitlines()[-1])


def stages(report: dict, wall: float) -> dict:
    """Per stage: items, pages, tokens, CPU s, and pages or tokens per wall second of the build."""
    out = {}
    for st in report["stages"]:
        out[st["name"]] = {**st, "pages_per_wall_s": st["pages"] / wall if st["pages"] else None,
                           "tokens_per_wall_s": st["tokens"] / wall if st["tokens"] else None}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--one", nargs=3, metavar=("ENGINE", "FILES_JSON", "WORKDIR"), help=argparse.SUPPRESS)
    ap.add_argument("--slice", type=int, default=100, help="files of the 9k corpus (first, by name)")
    ap.add_argument("--sets", default="helpline,slice")
    ap.add_argument("--json", type=Path, default=None,
                    help="the results (default results/YYYY-MM-DD.json: today UTC, with --append the latest)")
    ap.add_argument("--append", action="store_true",
                    help="keep the runs already in --json and add this one (as a list of runs)")
    args = ap.parse_args()
    if args.one:
        engine, listing, work = args.one
        print(json.dumps(one(engine, json.loads(Path(listing).read_text()), Path(work))))
        return
    sets = {"helpline": sorted(str(p) for p in (ROOT / "examples" / "helpline").glob("*.pdf"))}
    if CORPUS.is_dir():
        sets[f"scale-9000 first {args.slice}"] = sorted(str(p) for p in CORPUS.iterdir()
                                                       if p.is_file())[:args.slice]
    wanted = args.sets.split(",")
    results = []
    for name, files in sets.items():
        if name.split()[0] not in wanted and not (name.startswith("scale") and "slice" in wanted):
            continue
        row = {"set": name, "files": len(files), "cores": os.cpu_count()}
        for engine in ("local", "ray"):
            load_before = os.getloadavg()[0]
            got = run(engine, files)
            rep = got["report"]
            row[engine] = {"wall_s": round(got["wall_s"], 1),
                           "load_average_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
                           "chunks": rep["chunks"], "pages": rep["pages"],
                           "tokens": rep["tokens"], "failures": len(rep["failures"]),
                           "cpu_s": round(rep["cpu"], 1), "stages": stages(rep, got["wall_s"])}
            print(f"{name:<24} {engine:<5} {got['wall_s']:7.1f} s  {rep['pages']:5d} pages "
                  f"{rep['tokens']:8d} tokens  {rep['chunks']:6d} chunks  {len(rep['failures'])} failed",
                  flush=True)
        row["ratio"] = round(row["ray"]["wall_s"] / row["local"]["wall_s"], 2)
        print(f"{name:<24} ray/local wall time: {row['ratio']:.2f}x", flush=True)
        results.append(row)
    if args.json is None:
        args.json = (record.latest(HERE) if args.append else None) or record.result_path(HERE)
    this = {"recorded": record.stamp(), "measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "load_average": [round(x, 2) for x in os.getloadavg()], "results": results}
    record.write_json(args.json, with_earlier(args.json, this) if args.append else this, indent=1, ensure_ascii=True)
    print(f"wrote {args.json}")


def with_earlier(path: Path, this: dict) -> dict:
    """``{"runs": [...]}``: the runs already in ``path`` (one run or a list of them), then ``this``."""
    if not path.exists():
        return {"runs": [this]}
    try:
        old = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise SystemExit(f"{path}: not JSON ({e}); not appending to it") from e
    earlier = old.pop("recorded", None)  # the file's; a fresh one is written, each run keeps its own
    runs = [r if "recorded" in r or earlier is None else {"recorded": earlier, **r} for r in old.get("runs", [old])]
    return {"runs": [*runs, this]}


if __name__ == "__main__":
    main()
