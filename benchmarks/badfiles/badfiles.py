"""The bad-file figure of issue 13: every kind of bad file read, each one alone and all in a batch.

Each file of ``tests/helpers/badfiles.py`` (qpdf's 92 damaged PDFs and seamcut's own kinds)
is read by ``seamcut.read`` in a fresh process under seamcut's memory watchdog (``--memory-cap``
MiB) and a wall-clock limit (``--timeout`` s): the outcome (text, a clear error naming the file,
a crash = any other exception, or stopped at the time limit or the memory cap), its seconds
and the process's peak resident memory (Tesseract's included). Then all of them go through
``read_corpus`` in one batch with the same limits. ``--scale`` sizes the bombs (32: the issue's
.docx whose XML inflates to 1.5 GB, a PDF content stream of 1.25 GiB of text operators, a PDF
stream of 1 GiB of zeros; the test suite runs scale 1).

    OMP_NUM_THREADS=1 PYTHONPATH=src:. python benchmarks/badfiles/badfiles.py --scale 32

Writes benchmarks/badfiles/results/YYYY-MM-DD.{json,md} (today, UTC; the JSON with its `recorded` block).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT), str(HERE.parent / "common")]

import record  # noqa: E402
from tests.helpers.badfiles import make_all  # noqa: E402

OVER_CAP = 86  # seamcut.ground.processes.OVER_MEMORY_EXIT


def read_alone(path: Path, cap_mb: int, timeout: float) -> dict:
    """One file read in its own process: its outcome, seconds and peak memory."""
    env = {**os.environ, "OMP_NUM_THREADS": "1",
           "PYTHONPATH": os.pathsep.join([str(ROOT / "src"), str(ROOT), os.environ.get("PYTHONPATH", "")])}
    t0 = time.perf_counter()
    try:
        r = subprocess.run([sys.executable, "-m", "tests.helpers.read_each", "--memory-cap", str(cap_mb),
                            str(path)], capture_output=True, text=True, timeout=timeout, env=env, cwd=ROOT)
    except subprocess.TimeoutExpired:
        # past the per-file limit: the pool stops such a file and names the limit; a hang and
        # a file that needs more time look alike from outside
        return {"path": str(path), "outcome": "stopped at the time limit", "seconds": round(time.perf_counter() - t0, 2)}
    if r.returncode == OVER_CAP:
        return {"path": str(path), "outcome": "stopped at the memory cap", "peak_mb": cap_mb,
                "seconds": round(time.perf_counter() - t0, 2)}
    lines = r.stdout.strip().splitlines()
    if r.returncode or not lines:
        return {"path": str(path), "outcome": "crash", "message": f"exit {r.returncode}: {r.stderr[-500:]}",
                "seconds": round(time.perf_counter() - t0, 2)}
    out = json.loads(lines[-1])
    if "Traceback" in r.stderr:
        out["outcome"], out["message"] = "crash", "traceback on stderr: " + r.stderr[-500:]
    return out


def read_batch(folder: Path, cap_mb: int, timeout: float) -> dict:
    """Every file in one ``read_corpus`` batch (two workers): documents, failures, seconds."""
    from seamcut.pipeline.corpus import Limits, read_corpus

    t0 = time.perf_counter()
    corpus = read_corpus([folder], limits=Limits(workers=2, timeout=timeout, memory_mb=cap_mb), cache=False,
                         progress=False)
    failures = [str(f) for f in corpus.failures]
    return {"documents": len(corpus.documents), "failures": len(failures),
            "stopped_by_a_limit": sum(("took longer than" in f) or ("needed more than" in f) for f in failures),
            "unexpected": sum("unexpected" in f for f in failures),
            "seconds": round(time.perf_counter() - t0, 1)}


def summary(rows: list[dict], kinds: dict[str, str]) -> dict:
    by_kind: dict[str, dict] = {}
    for row in rows:
        k = by_kind.setdefault(kinds[row["path"]], {"files": 0, "text": 0, "error": 0, "stopped at the memory cap": 0,
                                                     "stopped at the time limit": 0, "crash": 0, "max_seconds": 0.0, "max_peak_mb": 0.0})
        k["files"] += 1
        k[row["outcome"]] += 1
        k["max_seconds"] = max(k["max_seconds"], row.get("seconds", 0))
        k["max_peak_mb"] = max(k["max_peak_mb"], row.get("peak_mb", 0))
    total = {key: sum(k[key] for k in by_kind.values()) for key in
             ("files", "text", "error", "stopped at the memory cap", "stopped at the time limit", "crash")}
    return {"kinds": len(by_kind), **total, "by_kind": by_kind}


def markdown(result: dict) -> str:
    s, b = result["summary"], result["batch"]
    lines = [f"# Bad files ({result['date']}, scale {result['scale']}, cap {result['memory_cap_mb']} MiB, "
             f"timeout {result['timeout_s']:g} s)", "",
             f"**{s['kinds']} kinds, {s['files']} files: {s['text']} read to text, {s['error']} clear errors, "
             f"{s['stopped at the memory cap']} stopped at the memory cap, {s['stopped at the time limit']} stopped at "
             f"the time limit (a hang would be one of these), {s['crash']} crashes.**",
             "", f"Batch (read_corpus, 2 workers): {b['documents']} documents, {b['failures']} failures listed, "
             f"{b['stopped_by_a_limit']} stopped by a limit, {b['unexpected']} unexpected, {b['seconds']} s.", "",
             "| kind | files | text | clear error | stopped at cap | stopped at time limit | crash | max s | max peak MiB |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for kind, k in sorted(s["by_kind"].items()):
        lines.append(f"| {kind} | {k['files']} | {k['text']} | {k['error']} | {k['stopped at the memory cap']} | "
                     f"{k['stopped at the time limit']} | {k['crash']} | {k['max_seconds']:.1f} | {k['max_peak_mb']:.0f} |")
    lines += ["", "Slowest and largest files:", ""]
    for row in sorted(result["files"], key=lambda r: -r.get("peak_mb", 0))[:8]:
        lines.append(f"- {Path(row['path']).name}: {row['outcome']}, {row.get('seconds', 0):.1f} s, "
                     f"{row.get('peak_mb', 0):.0f} MiB")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=int, default=1, help="bomb size factor (see badfiles.py)")
    ap.add_argument("--memory-cap", type=int, default=1536, help="MiB per file (seamcut's default)")
    ap.add_argument("--timeout", type=float, default=120.0, help="seconds per file")
    ap.add_argument("--jobs", type=int, default=2, help="files read at once")
    ap.add_argument("--out", type=Path, default=HERE / "results", help="folder of YYYY-MM-DD.json and .md")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="seamcut-badfiles-") as tmp:
        made = make_all(Path(tmp), args.scale)
        kinds = {str(p): kind for kind, ps in made.items() for p in ps}
        files = [Path(p) for p in kinds]
        with ThreadPoolExecutor(args.jobs) as pool:
            rows = list(pool.map(lambda p: read_alone(p, args.memory_cap, args.timeout), files))
        for row in rows:
            print(f"{kinds[row['path']]:16} {Path(row['path']).name:42} {row['outcome']:10} "
                  f"{row.get('seconds', 0):7.2f} s {row.get('peak_mb', 0):7.0f} MiB", flush=True)
        batch = read_batch(Path(tmp), args.memory_cap, args.timeout)
    result = {"date": time.strftime("%Y-%m-%d"), "scale": args.scale, "memory_cap_mb": args.memory_cap,
              "timeout_s": args.timeout, "summary": summary(rows, kinds), "batch": batch,
              "files": [{**r, "path": Path(r["path"]).name, "kind": kinds[r["path"]]} for r in rows]}
    args.out.mkdir(parents=True, exist_ok=True)
    record.write_json(args.out / f"{record.today()}.json", result)
    text = markdown(result)
    (args.out / f"{record.today()}.md").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
