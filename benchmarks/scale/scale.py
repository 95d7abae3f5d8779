#!/usr/bin/env python
"""The large build, measured: `seamcut index` on the scale corpus (scripts/make_corpus.py), with
the memory of every process it starts sampled as it runs.

    .venv/bin/python benchmarks/scale/scale.py --sample 10              # every 10th file of the 9,000 pages
    .venv/bin/python benchmarks/scale/scale.py                          # all 9,000 pages
    .venv/bin/python benchmarks/scale/scale.py --pages 900              # a corpus made at 900 pages
    .venv/bin/python benchmarks/scale/scale.py --corpus DIR --report    # any folder (no questions needed)

Prints, and writes to ``--out`` NAME (NAME.json, .md, .png; default
``benchmarks/scale/results/YYYY-MM-DD``, today UTC: add a label with ``--out``):
* each stage's pages (or tokens) per CPU second: reading text pages, reading OCR pages, cutting,
  embedding, writing, the text index; and the run's pages/s end to end;
* the parallel efficiency: the stages' CPU seconds spread over the cores, against the wall-clock
  time (1.0: no core ever idle while work was left);
* peak memory of the whole run: the resident memory of the command and every process under it
  (its reading workers, the model's workers, Tesseract), summed each 0.25 s; both RSS (shared pages
  counted in each process: an upper bound) and PSS (shared pages split between them);
* for a slice, the same run scaled to 9,000 pages (pages/s held: the stages are per page).

The parse cache is cold by default (a fresh ``SEAMCUT_CACHE``), so reading is measured; the
embedding cache lives in the index folder, which starts empty.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent / "common"))

import record  # noqa: E402

FULL_PAGES = 9000


def process_tree(pid: int) -> list[Any]:
    """A process and all its descendants (``psutil.Process``es; [] once it has ended)."""
    import psutil
    try:
        top = psutil.Process(pid)
        return [top] + top.children(recursive=True)
    except psutil.Error:
        return []


def tree_memory(pid: int) -> tuple[int, int, list[tuple[str, int, int]]]:
    """(RSS, PSS) in bytes of a process and all its descendants, and each process's
    (name, RSS, PSS)."""
    import psutil
    family = process_tree(pid)
    if not family:
        return 0, 0, []
    each = []
    for p in family:
        try:
            info = p.memory_full_info()
            each.append((f"{p.pid} {p.name()}", info.rss, getattr(info, "pss", info.rss)))
        except psutil.Error:
            pass
    return sum(r for _, r, _ in each), sum(s for _, _, s in each), each


class Sampler(threading.Thread):
    """Samples a process tree's memory every ``every`` seconds until ``stop``; ``at_peak``: each
    process's (name, RSS MiB, PSS MiB) in the sample of the highest RSS sum."""

    def __init__(self, pid: int, every: float = 0.25) -> None:
        super().__init__(daemon=True)
        self.pid, self.every = pid, every
        self.samples: list[tuple[float, int, int]] = []
        self.at_peak: list[tuple[str, int, int]] = []
        self.done = threading.Event()

    def run(self) -> None:
        t0 = time.monotonic()
        peak = 0
        while not self.done.wait(self.every):
            rss, pss, each = tree_memory(self.pid)
            if rss:
                self.samples.append((time.monotonic() - t0, rss, pss))
            if rss > peak:
                peak = rss
                self.at_peak = [(name, round(r / 2**20), round(s / 2**20)) for name, r, s in each]


def make_corpus(pages: int) -> Path:
    """The scale corpus of ``pages`` pages (made by scripts/make_corpus.py, or found in its cache)."""
    cache = Path(os.environ.get("SEAMCUT_CACHE") or Path.home() / ".cache" / "seamcut").expanduser()
    out = cache / "corpus" / f"scale-{pages}"
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "make_corpus.py"), "--pages", str(pages),
                        "--out", str(out)], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"make_corpus.py failed:\n{r.stderr}")
    print(f"corpus: {r.stdout.strip()} ({time.perf_counter() - t0:.1f} s)", flush=True)
    return out


def run_index(corpus: Path, db: Path, strategy: str, cache: Path, stats: Path,
              extra: list[str], catalog: Path) -> tuple[float, Sampler, str]:
    cmd = [sys.executable, "-m", "seamcut.cli", "index", str(corpus), "--db", str(db), "--strategy",
           strategy, "--stats", str(stats), *(["--catalog", str(catalog)] if catalog.is_file() else []),
           *extra]
    env = {**os.environ, "SEAMCUT_CACHE": str(cache), "OMP_NUM_THREADS": "1", "COLUMNS": "160",
           "PYTHONPATH": str(ROOT / "src") + os.pathsep + os.environ.get("PYTHONPATH", "")}
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    sampler = Sampler(p.pid)
    sampler.start()
    err_lines: list[str] = []

    def pump() -> None:
        for line in p.stderr:  # type: ignore[union-attr]
            err_lines.append(line)
            if line.startswith("indexing:"):
                print("  " + line.rstrip(), flush=True)

    reader = threading.Thread(target=pump, daemon=True)
    reader.start()
    p.wait()
    reader.join()
    sampler.done.set()
    sampler.join()
    wall = time.perf_counter() - t0
    if p.returncode not in (0, 1):
        sys.exit(f"seamcut index failed ({p.returncode}):\n{''.join(err_lines)}")
    return wall, sampler, "".join(err_lines)


def summarise(stats: dict, wall: float, sampler: Sampler, corpus_pages: int) -> dict:
    stages = {s["name"]: s for s in stats["stages"]}
    rows = []
    for name, s in stages.items():
        unit = "pages" if s["pages"] else "tokens" if s["tokens"] else "items"
        n = s[unit]
        rows.append({"stage": name, "items": s["items"], "pages": s["pages"], "tokens": s["tokens"],
                     "cpu_s": round(s["cpu"], 2), "busy_s": round(s["busy"], 2),
                     "rate": round(n / s["cpu"], 2) if s["cpu"] > 0 and n else None, "rate_unit": f"{unit}/CPU s"})
    pages = stats["pages"]
    peak_rss = max((r for _, r, _ in sampler.samples), default=0)
    peak_pss = max((p for _, _, p in sampler.samples), default=0)
    scale = FULL_PAGES / pages if pages else None
    return {
        "pages": pages, "tokens": stats["tokens"], "chunks": stats["chunks"], "files_added": len(stats["added"]),
        "failures": stats["failures"], "build_seconds": round(stats["seconds"], 1),
        "command_seconds": round(wall, 1), "pages_per_second": round(pages / stats["seconds"], 3) if pages else None,
        "cores": stats["cores"], "cpu_seconds": round(stats["cpu"], 1),
        "parallel_efficiency": round(stats["efficiency"], 3) if stats["efficiency"] else None,
        "peak_rss_mib": round(peak_rss / 2**20), "peak_pss_mib": round(peak_pss / 2**20),
        "stages": rows, "corpus_pages": corpus_pages,
        "extrapolated_9000_pages_hours": round(stats["seconds"] * scale / 3600, 2) if scale else None,
        "memory": [(round(t, 2), round(r / 2**20), round(p / 2**20)) for t, r, p in sampler.samples],
        "at_peak_rss": sampler.at_peak,
    }


def markdown(res: dict, strategy: str, corpus: Path) -> str:
    lines = [f"`seamcut index --strategy {strategy}` on `{corpus.name}`: {res['files_added']} files, "
             f"{res['pages']:,} pages, {res['chunks']:,} chunks, {res['tokens']:,} tokens; "
             f"{len(res['failures'])} failed", "",
             "| stage | items | pages | tokens | CPU s | rate (per CPU second) |",
             "|---|---:|---:|---:|---:|---:|"]
    for r in res["stages"]:
        rate = f"{r['rate']:,} {r['rate_unit']}" if r["rate"] else ""
        lines.append(f"| {r['stage']} | {r['items']:,} | {r['pages'] or ''} | {r['tokens'] or ''} | "
                     f"{r['cpu_s']} | {rate} |")
    lines += ["", f"- end to end: {res['build_seconds']} s, **{res['pages_per_second']} pages/s** "
                  f"({res['command_seconds']} s with the command's start)",
              f"- parallel efficiency: {res['cpu_seconds']} CPU s over {res['cores']} cores in "
              f"{res['build_seconds']} s = **{100 * (res['parallel_efficiency'] or 0):.0f}%** (target >= 85%)",
              f"- peak memory of the whole run: **{res['peak_rss_mib']:,} MiB RSS** "
              f"(every process summed), {res['peak_pss_mib']:,} MiB PSS (target < 2,048)",
              "- at the RSS peak (process: RSS / PSS MiB): " + ", ".join(
                  f"{name} {r:,} / {p:,}" for name, r, p in res.get("at_peak_rss", []))]
    if res["pages"] and res["pages"] < FULL_PAGES:
        lines.append(f"- scaled to {FULL_PAGES:,} pages at the same pages/s: "
                     f"**{res['extrapolated_9000_pages_hours']} h**")
    return "\n".join(lines) + "\n"


def plot(res: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4.2))
    names = [r["stage"] for r in res["stages"] if r["cpu_s"] > 0]
    cpu = [r["cpu_s"] for r in res["stages"] if r["cpu_s"] > 0]
    a.barh(names[::-1], cpu[::-1], color="#4c72b0")
    a.axvline(res["build_seconds"] * res["cores"], color="#c44e52", ls="--",
              label=f"wall x {res['cores']} cores")
    a.set_xlabel("CPU seconds")
    a.set_title(f"where the time goes ({100 * (res['parallel_efficiency'] or 0):.0f}% of the cores busy)")
    a.legend(loc="lower right")
    if res["memory"]:
        t, rss, pss = zip(*res["memory"])
        b.plot(t, rss, label="RSS, every process summed")
        b.plot(t, pss, label="PSS")
        b.axhline(2048, color="#c44e52", ls="--", label="2 GiB")
    b.set_xlabel("seconds")
    b.set_ylabel("MiB")
    b.set_title("memory of the whole run")
    b.legend(loc="lower right")
    fig.suptitle(f"seamcut index: {res['pages']:,} pages, {res['pages_per_second']} pages/s end to end")
    fig.tight_layout()
    fig.savefig(path, dpi=110)



def hard_link(source: Path, link: Path) -> None:
    """``link`` the same file as ``source`` (a hard link; a copy across file systems): a slice's
    folder holds its files, since a folder walk does not follow a symbolic link out of it."""
    try:
        os.link(source, link)
    except OSError:
        shutil.copy2(source, link)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pages", type=int, default=FULL_PAGES, help="corpus size (a slice of the 9,000 pages)")
    ap.add_argument("--corpus", type=Path, help="index this folder instead of making the scale corpus")
    ap.add_argument("--sample", type=int, default=1, help="index every n-th file only (a slice)")
    ap.add_argument("--strategy", default="structure")
    ap.add_argument("--warm", action="store_true", help="keep the parse cache (measures cached reading)")
    ap.add_argument("--out", type=Path, default=record.result_path(HERE, suffix=""),
                    help="NAME for NAME.json, .md, .png (default results/YYYY-MM-DD)")
    ap.add_argument("extra", nargs="*", help="more `seamcut index` flags, after --")
    a = ap.parse_args()
    corpus = source = a.corpus or make_corpus(a.pages)
    # the corpus's own catalog, also for a slice (its rows are matched by file name)
    catalog = source / "catalog.csv"
    slice_dir = None
    if a.sample > 1:  # every n-th file, by name: the same mix of kinds and languages
        slice_dir = tempfile.TemporaryDirectory(prefix="seamcut-slice-")
        files = sorted(f for f in corpus.iterdir() if f.suffix == ".pdf")[::a.sample]
        for f in files:
            hard_link(f, Path(slice_dir.name) / f.name)
        print(f"slice: every {a.sample}th file of {corpus}: {len(files)} files", flush=True)
        corpus = Path(slice_dir.name)
    a.out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="seamcut-scale-") as tmp:
        cache = Path(os.environ.get("SEAMCUT_CACHE", Path.home() / ".cache" / "seamcut")) if a.warm \
            else Path(tmp) / "cache"
        stats_path = Path(tmp) / "stats.json"
        print(f"indexing {corpus} ({a.strategy}) ...", flush=True)
        wall, sampler, err = run_index(corpus, Path(tmp) / "db", a.strategy, cache, stats_path, a.extra, catalog)
        stats = json.loads(stats_path.read_text(encoding="utf-8"))
    res = summarise(stats, wall, sampler, a.pages)
    if slice_dir is not None:
        slice_dir.cleanup()
    res.update(strategy=a.strategy, corpus=str(source), cold=not a.warm, sample=a.sample)
    text = markdown(res, a.strategy, Path(res["corpus"]) if a.sample == 1 else
                    Path(f"every {a.sample}th file of scale-{a.pages}"))
    print(text)
    record.write_json(a.out.with_suffix(".json"), res, indent=1, ensure_ascii=True)
    a.out.with_suffix(".md").write_text(text, encoding="utf-8")
    plot(res, a.out.with_suffix(".png"))
    print(f"wrote {a.out.with_suffix('.json')}, .md, .png")


if __name__ == "__main__":
    main()
