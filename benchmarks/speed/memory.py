"""Memory benchmark: peak resident memory and time of chunking one huge document, per strategy.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/speed/memory.py [--inputs one-line,prose,markdown]
        [--strategies fixed,recursive,...] [--via cli,api] [--cap-mb 8000] [--src OTHER/src]
        [--data DIR] [--json OUT.json]

Each run is a fresh process, so its peak resident set size (``ru_maxrss`` from ``wait4``, in MB
of 2**20 bytes) is that run's alone; a watchdog kills a run whose resident memory passes
``--cap-mb`` (reported as ``>CAP``), so a baseline cannot take the machine's memory.

Inputs, made once (deterministic) in ``--data`` (default ``$SEAMCUT_CACHE/bench-memory``):

* ``one-line``: 10 MB (10,000,000 code points) of the four novels in ../shared/data/prose, every
  whitespace run made one space: a single line, no paragraph, no line break.
* ``prose``: the four novels repeated 47 times: 98 MB (98,470,452 bytes), normal paragraphs.
* ``markdown``: 50 MB of Markdown: sections under three heading levels, paragraphs of the novels,
  lists with a lead-in line, tables with a header row.

Ways of running (``--via``):

* ``cli``: ``seamcut chunk FILE --strategy S -o OUT.jsonl`` as a user runs it, with an empty
  document cache (so reading and writing the parse cache are in it).
* ``api``: ``seamcut.read(FILE)`` then ``seamcut.api.iter_chunks`` (chunks streamed a window at a
  time, written to JSONL as they come; ``seamcut.chunk`` where the code has no ``iter_chunks``,
  e.g. a baseline checkout). It prints the peak after reading too, so reading and chunking part.

``--src`` runs another checkout's ``src`` (e.g. ``git worktree add /tmp/base main``) to compare
before and after in one table. The semantic strategy embeds every sentence (about 60 sentences/s
per core here), so on these inputs it runs on ``--semantic-mb`` (default 1) MB of each input.
Results: benchmarks/speed/README.md ("Memory of one huge document"); ``--json`` by the scheme:
benchmarks/speed/results/YYYY-MM-DD-memory.json (``{"src", "rows"}`` and a `recorded` block).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks" / "common"))

import record  # noqa: E402

PROSE = ROOT.parent / "shared" / "data" / "prose"
STRATEGIES = ("fixed", "sentence", "paragraph", "recursive", "structure", "semantic",
              "parent-child")
INPUTS = {"one-line": "one-line-10mb.txt", "prose": "prose-100mb.txt",
          "markdown": "markdown-50mb.md"}

#: the api worker: read, then chunk (streamed where the code can), JSONL out; prints JSON stats
_WORKER = r"""
import json, resource, sys, time
import seamcut
from seamcut import api
path, strategy, out, limit = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
t0 = time.perf_counter()
doc = seamcut.read(path)
if limit and len(doc.text) > limit:
    import dataclasses
    doc = dataclasses.replace(doc, text=doc.text[:limit], elements=tuple(
        dataclasses.replace(e, end=min(e.end, limit)) for e in doc.elements if e.start < limit))
read_s = time.perf_counter() - t0
after_read = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss >> 10
chunks = getattr(api, "iter_chunks", api.chunk)(doc, strategy=strategy)
n = 0
with open(out, "w", encoding="utf-8") as fh:
    for c in chunks:
        fh.write(json.dumps(c.to_dict(), ensure_ascii=False) + "\n")
        n += 1
print(json.dumps({"read_s": read_s, "after_read_mb": after_read, "chunks": n}))
"""


def make_inputs(folder: Path) -> dict[str, Path]:
    """The three inputs, made once in ``folder`` (deterministic)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = {k: folder / v for k, v in INPUTS.items()}
    if all(p.is_file() for p in paths.values()):
        return paths
    novels = [(PROSE / f"00{i}.txt").read_text(encoding="utf-8") for i in range(4)]
    prose = "".join(novels)
    one = re.sub(r"\s+", " ", prose)
    paths["one-line"].write_text((one * (10_000_000 // len(one) + 1))[:10_000_000],
                                 encoding="utf-8")
    with paths["prose"].open("w", encoding="utf-8") as fh:
        for _ in range(100_000_000 // len(prose.encode("utf-8"))):
            fh.write(prose)
    paras = [p.strip() for p in prose.split("\n\n") if len(p.strip()) > 80]
    rng = random.Random(12)
    crops = ["Cotton", "Soybean", "Orange", "Wheat", "Rice", "Maize", "Gram", "Tur"]
    pests = ["Whitefly", "Aphid", "Thrips", "Jassid", "Bollworm", "Mite"]
    with paths["markdown"].open("w", encoding="utf-8") as fh:
        size, n = 0, 0
        while size < 50_000_000:
            n += 1
            crop = crops[n % len(crops)]
            parts = [f"# {crop} manual {n}\n\n"]
            for s in range(rng.randint(2, 4)):
                parts.append(f"## Section {n}.{s + 1}\n\n")
                for sub in range(rng.randint(1, 3)):
                    parts.append(f"### {rng.choice(pests)} {n}.{s + 1}.{sub + 1}\n\n")
                    parts.extend(rng.choice(paras) + "\n\n" for _ in range(rng.randint(1, 4)))
                    if rng.random() < 0.5:
                        parts.append("Do the following:\n\n")
                        parts.extend(f"- {rng.choice(paras)[:rng.randint(40, 200)]}\n"
                                     for _ in range(rng.randint(2, 8)))
                        parts.append("\n")
                    if rng.random() < 0.5:
                        parts.append("| Pest | Dose | Interval |\n|---|---|---|\n")
                        parts.extend(f"| {rng.choice(pests)} | {rng.randint(1, 9)} ml per litre "
                                     f"| {rng.randint(5, 21)} days |\n"
                                     for _ in range(rng.randint(2, 30)))
                        parts.append("\n")
            block = "".join(parts)
            fh.write(block)
            size += len(block.encode("utf-8"))
    return paths


def run_capped(cmd: list[str], env: dict[str, str], cap_mb: int
               ) -> tuple[int, float, float, int, str]:
    """Run ``cmd``; returns (exit status, wall seconds, CPU seconds (user + system), peak RSS
    in MB, stdout). A run whose resident memory passes ``cap_mb`` is killed (exit status -9)."""
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    killed = threading.Event()

    def watch() -> None:
        status = Path(f"/proc/{proc.pid}/status")
        while proc.returncode is None and not killed.is_set():
            try:
                rss = next(int(line.split()[1]) for line in status.read_text().splitlines()
                           if line.startswith("VmRSS:"))
            except (OSError, StopIteration, ValueError):
                return
            if rss >> 10 > cap_mb:
                killed.set()
                proc.kill()
                return
            time.sleep(0.1)

    threading.Thread(target=watch, daemon=True).start()
    out_box: list[str] = []
    reader = threading.Thread(target=lambda: out_box.append(proc.stdout.read()), daemon=True)
    reader.start()
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    killed.set()
    reader.join()
    if proc.returncode not in (0, -9):
        sys.stderr.write(err[-2000:])
    cpu = usage.ru_utime + usage.ru_stime
    return proc.returncode, wall, cpu, usage.ru_maxrss >> 10, out_box[0] if out_box else ""


def measure(src: Path, via: str, path: Path, strategy: str, cap_mb: int,
            semantic_chars: int) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": str(src),
               "SEAMCUT_CACHE": tmp}
        out = str(Path(tmp) / "chunks.jsonl")
        limit = semantic_chars if strategy == "semantic" else 0
        if via == "cli":
            if limit:
                cut = Path(tmp) / path.name
                cut.write_text(path.read_text(encoding="utf-8")[:limit], encoding="utf-8")
                path = cut
            cmd = [sys.executable, "-m", "seamcut.cli", "chunk", str(path), "--strategy",
                   strategy, "-o", out]
        else:
            cmd = [sys.executable, "-c", _WORKER, str(path), strategy, out, str(limit)]
        rc, wall, cpu, peak, stdout = run_capped(cmd, env, cap_mb)
        row = {"via": via, "input": path.name, "strategy": strategy, "rc": rc,
               "seconds": round(wall, 1), "cpu_s": round(cpu, 1),
               "peak_mb": peak if rc != -9 else None,
               # the CLI's JSONL opens each document's chunks with its line (seamcut.chunks_jsonl)
               "chunks": sum(not line.startswith('{"type": "document"') for line in open(out, encoding="utf-8"))
               if rc == 0 else None}
        if via == "api" and rc == 0:
            row.update(json.loads(stdout.strip().splitlines()[-1]))
        if limit:
            row["input"] += f" (first {limit:,} chars)"
        return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--inputs", default="one-line,prose,markdown")
    ap.add_argument("--strategies", default=",".join(STRATEGIES))
    ap.add_argument("--via", default="cli,api")
    ap.add_argument("--cap-mb", type=int, default=8000)
    ap.add_argument("--semantic-mb", type=float, default=1.0)
    ap.add_argument("--src", type=Path, default=ROOT / "src")
    ap.add_argument("--data", type=Path, default=None)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    cache = Path(os.environ.get("SEAMCUT_CACHE", Path.home() / ".cache" / "seamcut"))
    t0 = time.perf_counter()
    inputs = make_inputs(args.data or cache / "bench-memory")
    print(f"inputs ready in {time.perf_counter() - t0:.1f} s; code: {args.src}", flush=True)
    rows = []
    print(f"{'via':4} {'input':34} {'strategy':13} {'peak MB':>8} {'after read':>10} "
          f"{'wall s':>7} {'CPU s':>7} {'chunks':>8}", flush=True)
    for name in args.inputs.split(","):
        for via in args.via.split(","):
            for strategy in args.strategies.split(","):
                row = measure(args.src, via, inputs[name], strategy, args.cap_mb,
                              int(args.semantic_mb * 1_000_000))
                rows.append(row)
                peak = f"{row['peak_mb']}" if row["peak_mb"] is not None else f">{args.cap_mb}"
                print(f"{via:4} {row['input'][:34]:34} {strategy:13} {peak:>8} "
                      f"{row.get('after_read_mb', ''):>10} {row['seconds']:>7} {row['cpu_s']:>7} "
                      f"{row['chunks'] if row['chunks'] is not None else 'killed':>8}", flush=True)
    if args.json:
        record.write_json(args.json, {"src": str(args.src), "rows": rows}, indent=1, ensure_ascii=True)


if __name__ == "__main__":
    main()
