"""The embedded store: chunks with their vectors, full-text index and metadata in LanceDB, on disk.

One index folder holds one chunking of a corpus (one strategy with its options, one embedding
model), written down in ``seamcut-index.json``. Three LanceDB tables:

* ``chunks``: what is searched: one row per chunk (per child for parent-child), with its vector,
  its text under an ICU full-text index (ICU word breaks keep Devanagari words whole, where a
  split at every non-letter cuts ``प्रति`` at its virama), typed columns to filter on (``source``,
  ``file``, ``language``, ``page_start``, ``page_end``, ``heading``, and every scalar document
  field such as ``crop`` or ``year``) and the whole chunk as JSON;
* ``parents``: parent-child parents, handed to the model in place of the children that matched;
* ``documents``: each file's hash and document metadata (kept once, not on every chunk row).

Updating is per file: an unchanged file (same bytes) is skipped, a changed one has its own rows
replaced, and the embedding cache in the folder means a chunk whose text did not change is never
embedded twice.
"""
from __future__ import annotations

import hashlib
import json
import logging
import re
import shutil
import time
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Literal, Mapping, Sequence

import numpy as np

from .embed import Embedder, load_embedder
from .model import Chunk, Document

log = logging.getLogger(__name__)

SETTINGS_FILE = "seamcut-index.json"
FORMAT = 1
Mode = Literal["vector", "text", "hybrid"]
MODES = ("vector", "text", "hybrid")
RRF_K = 60  # the reciprocal-rank-fusion constant of Cormack et al. (2009), LanceDB's default
#: the most memory (bytes) the in-memory copy of an index's vectors may take (about 330k chunks
#: of 384 dimensions); a bigger index is searched by LanceDB's scan every time
MATRIX_BYTES = 512 * 2**20

_CORE = ("id", "doc_id", "source", "file", "start", "end", "page_start", "page_end", "heading",
         "language", "strategy", "parent_id", "role", "tokens", "text", "chunk", "vector")
_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# the columns a search reads back (not the vector, the text or the filter columns: the chunk JSON
# has it all); naming _distance/_score keeps LanceDB from warning about their auto-projection
_HIT = ["id", "doc_id", "parent_id", "chunk"]
_VECTOR_HIT = _HIT + ["_distance"]
_TEXT_HIT = _HIT + ["_score"]


class IndexConfigError(ValueError):
    """An index folder that cannot be used as asked (another strategy, another model, missing)."""


@dataclass(frozen=True)
class Hit:
    """One search result, ranked from 1.

    ``chunk`` is what goes to the language model: the chunk itself, or for a parent-child index
    the parent section, with ``children`` the children that matched, best first. ``score``: the
    reciprocal-rank-fusion score (hybrid), the cosine similarity (vector) or the BM25 score (text).
    ``similarity``: the cosine similarity between the query and the best matching chunk's vector,
    where the vector search saw it (None otherwise): a fixed scale to set an "I don't know"
    threshold on.
    """
    rank: int
    chunk: Chunk
    score: float
    similarity: float | None = None
    children: tuple[Chunk, ...] = ()


@dataclass
class UpdateReport:
    """What ``Index.update`` did, per file (by source)."""
    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    chunks: int = 0          # rows written (children for parent-child)
    parents: int = 0
    embedded: int = 0        # texts the model actually embedded (cache misses)
    chunk_seconds: float = 0.0
    embed_seconds: float = 0.0
    write_seconds: float = 0.0


def searchable(chunks: Iterable[Chunk]) -> list[Chunk]:
    """The chunks that are embedded and searched: all but parent-child parents, which are handed
    to the model in place of their children."""
    return [c for c in chunks if c.metadata.get("role") != "parent"]


def normalise_query(text: str) -> str:
    """The query as the full-text index sees text: NFC, whitespace runs as one space."""
    return " ".join(unicodedata.normalize("NFC", text).split())


class Index:
    """An index folder: open an existing one, or create one for a strategy and an embedder.

    ``strategy``/``options`` (size, overlap, unit, tokenizer, strategy options) and ``model``
    (an embedder spec for ``seamcut.embed.load_embedder``: ``default`` or a model folder) are
    required to create an index and, when given for an existing one, must match what it was built
    with. ``embedder`` overrides loading the model (it must be the same model).
    """

    def __init__(self, path: str | Path, *, strategy: str | None = None,
                 options: Mapping[str, Any] | None = None, model: str | None = None,
                 embedder: Embedder | None = None, cache: bool = True) -> None:
        import lancedb
        self.path = Path(path)
        settings_file = self.path / SETTINGS_FILE
        if settings_file.is_file():
            self.settings = json.loads(settings_file.read_text(encoding="utf-8"))
            self._check(strategy, options, model)
        elif strategy is None:
            raise IndexConfigError(f"{self.path}: no seamcut index here (build one with `seamcut index`)")
        else:
            self.settings = {"format": FORMAT, "strategy": strategy, "options": dict(options or {}),
                             "model": model or "default", "embedder": None, "dim": None, "files": {}}
        self._embedder = embedder
        self._cache = cache
        self._doc_meta_cache: dict[str, dict[str, Any]] = {}
        self._vector_queries = 0
        self._matrix: _Matrix | None = None
        self.path.mkdir(parents=True, exist_ok=True)
        self.db = lancedb.connect(str(self.path / "lance"))

    # -- settings ------------------------------------------------------------------------------

    def _check(self, strategy: str | None, options: Mapping[str, Any] | None, model: str | None) -> None:
        s = self.settings
        if s.get("format") != FORMAT:
            raise IndexConfigError(f"{self.path}: index format {s.get('format')} (this seamcut reads {FORMAT}); rebuild it")
        wanted = {"strategy": strategy, "options": dict(options) if options is not None else None,
                  "model": model}
        for key, value in wanted.items():
            if value is not None and value != s[key]:
                raise IndexConfigError(f"{self.path}: built with {key} {s[key]!r}, not {value!r}; "
                                  "use another --db folder or --rebuild")

    @property
    def strategy(self) -> str:
        return self.settings["strategy"]

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            cache = self.path / "embeddings" if self._cache else None
            self._embedder = load_embedder(None if self.settings["model"] == "default"
                                           else self.settings["model"], cache=cache)
        return self._embedder

    def _save(self) -> None:
        tmp = self.path / (SETTINGS_FILE + ".tmp")
        tmp.write_text(json.dumps(self.settings, ensure_ascii=False, indent=1), encoding="utf-8")
        tmp.replace(self.path / SETTINGS_FILE)

    @property
    def files(self) -> dict[str, dict[str, Any]]:
        """Indexed files by source: their hash, document id and chunk count."""
        return self.settings["files"]

    # -- writing -------------------------------------------------------------------------------

    def update(self, documents: Sequence[Document], chunker: Callable[[Document], list[Chunk]],
               hashes: Mapping[str, str] | None = None) -> UpdateReport:
        """Add documents, replacing earlier versions of the same files; skip unchanged files.

        ``chunker`` cuts one document (the index's strategy); ``hashes`` maps a document's source
        to its file's hash (None: the text's), which decides whether a file changed.
        """
        report = UpdateReport()
        todo: list[tuple[Document, str]] = []
        for doc in documents:
            digest = (hashes or {}).get(doc.source) or _text_hash(doc.text)
            known = self.files.get(doc.source)
            if known and known["hash"] == digest and known["doc_id"] == doc.id:
                report.unchanged.append(doc.source)
                continue
            (report.replaced if known else report.added).append(doc.source)
            todo.append((doc, digest))
        if not todo:
            return report
        t0 = time.perf_counter()
        cut = [(doc, digest, chunker(doc)) for doc, digest in todo]
        report.chunk_seconds = time.perf_counter() - t0
        every = [c for _, _, cs in cut for c in cs]
        searched = searchable(every)
        parents = [c for c in every if c.metadata.get("role") == "parent"]
        t0 = time.perf_counter()
        vectors = self._embed([c.text for c in searched], report)
        report.embed_seconds = time.perf_counter() - t0
        t0 = time.perf_counter()
        gone = [self.files[d.source]["doc_id"] for d, _ in todo if d.source in self.files]
        self._delete(gone + [d.id for d, _ in todo])
        docs = {d.id: d for d, _ in todo}
        self._doc_meta_cache.clear()  # a replaced file's fields may have changed
        self._matrix = None
        self._write("chunks", [_row(c, docs[c.doc_id], v) for c, v in zip(searched, vectors)])
        self._write("parents", [_row(c, docs[c.doc_id], None) for c in parents])
        self._write("documents", [_doc_row(d, h) for d, h in todo])
        report.write_seconds = time.perf_counter() - t0
        report.chunks, report.parents = len(searched), len(parents)
        for doc, digest, cs in cut:
            self.files[doc.source] = {"hash": digest, "doc_id": doc.id, "chunks": len(cs)}
        self._reindex_text()
        self._save()
        return report

    def _embed(self, texts: list[str], report: UpdateReport) -> np.ndarray:
        emb = self.embedder
        if self.settings["embedder"] not in (None, emb.name):  # before any work is spent
            raise IndexConfigError(f"{self.path}: built with embedder {self.settings['embedder']}, not {emb.name}")
        before = getattr(emb, "computed", None)
        vectors = emb.embed_passages(texts) if texts else np.zeros((0, emb.dim), np.float32)
        after = getattr(emb, "computed", None)
        report.embedded = (after - before) if isinstance(before, int) and isinstance(after, int) else len(texts)
        self.settings["dim"], self.settings["embedder"] = int(emb.dim), emb.name
        return vectors

    def _tables(self) -> set[str]:
        listing = self.db.list_tables()
        names = getattr(listing, "tables", listing)
        return set(names)

    def _delete(self, doc_ids: Iterable[str]) -> None:
        ids = sorted(set(doc_ids))
        if not ids:
            return
        present = self._tables()
        cond = "doc_id IN (" + ", ".join(_sql_str(i) for i in ids) + ")"
        for name in ("chunks", "parents", "documents"):
            if name in present:
                self.db.open_table(name).delete(cond)

    def _write(self, name: str, rows: list[dict[str, Any]]) -> None:
        if not rows:
            return
        if name not in self._tables():
            self.db.create_table(name, data=_arrow_table(rows, _schema(rows, self.settings["dim"])))
            return
        t = self.db.open_table(name)
        schema = t.schema
        new = _schema(rows, self.settings["dim"])
        missing = [f for f in new if f.name not in schema.names]
        if missing:
            t.add_columns(missing)
            schema = t.schema
        t.add(_arrow_table([_fit(r, schema) for r in rows], schema))

    def _reindex_text(self) -> None:
        """Create the full-text index and the id index once; afterwards fold new rows into them
        (``optimize``), which costs the new rows only. Rows added since are searched too, and
        deleted ones never are."""
        from lancedb.index import FTS, BTree
        # parents are ranked by their words only where they are single blocks (see _parent_hits)
        blocks = self.settings["options"].get("parents") == "blocks"
        for name in ("chunks", "parents"):
            if name not in self._tables():
                continue
            table = self.db.open_table(name)
            kinds = {ix.index_type for ix in table.list_indices()}
            if kinds:
                table.optimize()  # folds new rows into every index
            if "BTree" not in kinds:  # rows are fetched by id (parents, in-memory vector hits)
                table.create_index("id", replace=True, config=BTree())
            if "FTS" not in kinds and (name == "chunks" or blocks):
                table.create_index("text", replace=True, config=FTS(
                    base_tokenizer="icu", lower_case=True, stem=True, remove_stop_words=True,
                    ascii_folding=False))

    # -- reading -------------------------------------------------------------------------------

    def count(self) -> int:
        """Searchable chunks in the index."""
        return self.db.open_table("chunks").count_rows() if "chunks" in self._tables() else 0

    def search(self, query: str, k: int = 4, *, mode: Mode = "hybrid", where: str | None = None,
               max_tokens: int | None = None, candidates: int | None = None) -> list[Hit]:
        """The ``k`` best results for ``query``.

        ``mode``: ``vector`` (cosine similarity of the model's vectors), ``text`` (BM25 over ICU
        words) or ``hybrid`` (both, fused by reciprocal rank). ``where``: an SQL filter on the
        chunk columns, e.g. ``crop = 'cotton' AND year >= 2025``. For a parent-child index each
        parent comes once, with the children that matched; ``max_tokens`` caps the parents'
        total size in the model's tokens (the first always comes). ``candidates``: how many chunks
        each search fetches before fusion and grouping (default ``max(4 * k, 20)``).
        """
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
        if k < 1:
            raise ValueError("k must be at least 1")
        if "chunks" not in self._tables():
            return []
        n = candidates or max(4 * k, 20)
        if "parents" in self._tables():
            return self._parent_hits(query, mode, where, max(n, 8 * k), k, max_tokens)
        rows = self._ranked(query, mode, where, n)
        return [Hit(i + 1, self._chunk(r), score, sim) for i, (r, score, sim) in enumerate(rows[:k])]

    def _ranked(self, query: str, mode: str, where: str | None,
                n: int) -> list[tuple[dict[str, Any], float, float | None]]:
        table = self.db.open_table("chunks")
        text = normalise_query(query)
        if mode == "text" or (mode == "hybrid" and not text):
            return [(r, float(r["_score"]), None) for r in _text_rows(table, text, where, n)]
        vrows = self._vector_rows(query, where, n)
        if mode == "vector":
            return [(r, 1.0 - float(r["_distance"]), 1.0 - float(r["_distance"])) for r in vrows]
        return _fuse(vrows, _text_rows(table, text, where, n))

    def _vector_rows(self, query: str, where: str | None, n: int) -> list[dict[str, Any]]:
        """The ``n`` chunks nearest to ``query`` by cosine, best first, with ``_distance``.

        Exact either way. The first query of an Index scans the table in LanceDB; later ones
        without a filter search the vectors in memory (loaded once, about 0.5 s per 100k chunks;
        a matrix product instead of a scan per query), while they fit in ``MATRIX_BYTES``."""
        vec = self.embedder.embed_queries([query])[0]
        table = self.db.open_table("chunks")
        self._vector_queries += 1
        matrix = self._in_memory(table) if where is None and self._vector_queries > 1 else None
        if matrix is None:
            return _filtered(table.search(vec, vector_column_name="vector").distance_type("cosine")
                             .select(_VECTOR_HIT), where).limit(n).to_list()
        q = np.asarray(vec, dtype=np.float32)
        sims = matrix.vectors @ (q / (np.linalg.norm(q) or 1.0))
        top = np.argpartition(-sims, n - 1)[:n] if n < len(sims) else np.arange(len(sims))
        top = top[np.lexsort((top, -sims[top]))]
        ids = [matrix.ids[i] for i in top]
        found = {r["id"]: r for r in table.search().where(_id_list(ids)).select(_HIT).limit(len(ids)).to_list()}
        rows = []
        for i, cid in zip(top, ids):
            if cid in found:
                rows.append({**found[cid], "_distance": 1.0 - float(sims[i])})
        return rows

    def _in_memory(self, table: Any) -> _Matrix | None:
        """The chunks' unit vectors and ids, loaded once per table version; None when they
        would take more than ``MATRIX_BYTES``."""
        version = table.version
        if self._matrix is not None and self._matrix.version == version:
            return self._matrix
        dim = int(self.settings.get("dim") or 0)
        if not dim or table.count_rows() * dim * 4 > MATRIX_BYTES:
            return None
        data = table.search().select(["id", "vector"]).limit(None).to_arrow()
        vectors = data.column("vector").combine_chunks().values.to_numpy(zero_copy_only=False)
        vectors = np.asarray(vectors, dtype=np.float32).reshape(-1, dim)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        self._matrix = _Matrix(version, vectors / np.where(norms == 0, 1.0, norms),
                               data.column("id").to_pylist())
        return self._matrix

    def _parent_hits(self, query: str, mode: str, where: str | None, n: int, k: int,
                     max_tokens: int | None) -> list[Hit]:
        """Parent-child search: each parent once, ranked by its children or by itself.

        The vectors always rank children (a small text's vector is sharper), a parent ranked
        where its best child is. The words (BM25) rank paragraph-sized units, BM25's natural
        documents: with ``parents="sections"`` the children, fused with the vector ranking child
        by child; with ``parents="blocks"`` the parents themselves (a 50-token child is too
        short for BM25, a one-paragraph parent is not), fused with the vector ranking parent by
        parent. Each hit lists the children that either search found."""
        text = normalise_query(query)
        if not text and mode != "vector":
            return []  # as for a flat index: no words, nothing to rank them by
        vrows = [] if mode == "text" else self._vector_rows(query, where, n)
        use_text = mode != "vector"
        blocks = self.settings["options"].get("parents") == "blocks"
        prows = _text_rows(self.db.open_table("parents"), text, where, n) if use_text and blocks else []
        crows = _text_rows(self.db.open_table("chunks"), text, where, n) if use_text else []
        by_vector: dict[str, float] = {}
        kids: dict[str, dict[str, dict[str, Any]]] = {}
        for r in vrows:
            pid = r["parent_id"] or r["id"]
            by_vector.setdefault(pid, 1.0 - float(r["_distance"]))
            kids.setdefault(pid, {})[r["id"]] = r
        for r in crows:
            kids.setdefault(r["parent_id"] or r["id"], {}).setdefault(r["id"], r)
        score: dict[str, float] = {}  # parent id -> score, best first
        if mode == "vector":
            score = by_vector
        elif blocks:
            by_text = {r["id"]: float(r["_score"]) for r in prows}
            score = by_text if mode == "text" else _rrf((by_vector, by_text), by_vector)
        else:
            ranked = (_fuse(vrows, crows) if mode == "hybrid"
                      else [(r, float(r["_score"]), None) for r in crows])
            for r, value, _ in ranked:
                score.setdefault(r["parent_id"] or r["id"], value)
        wanted = list(score)[:k]
        parents = {r["id"]: self._chunk(r) for r in prows if r["id"] in wanted}
        parents.update((c.id, c) for c in self._fetch("parents", [i for i in wanted if i not in parents]))
        hits: list[Hit] = []
        used = 0
        for pid in wanted:
            children = tuple(self._chunk(r) for r in kids.get(pid, {}).values())
            parent = parents.get(pid) or children[0]
            if max_tokens is not None and hits and used + parent.tokens > max_tokens:
                break
            used += parent.tokens
            hits.append(Hit(len(hits) + 1, parent, score[pid], by_vector.get(pid), children))
        return hits

    def _fetch(self, name: str, ids: Sequence[str]) -> list[Chunk]:
        if not ids or name not in self._tables():
            return []
        rows = self.db.open_table(name).search().where(_id_list(ids)).limit(len(ids)).to_list()
        return [self._chunk(r) for r in rows]

    def _chunk(self, row: Mapping[str, Any]) -> Chunk:
        d = json.loads(row["chunk"])
        meta = {**self._doc_meta(row["doc_id"]), **d.get("metadata", {})}
        return Chunk.from_dict({**d, "metadata": meta})

    def _doc_meta(self, doc_id: str) -> dict[str, Any]:
        cache = self._doc_meta_cache
        if doc_id not in cache:
            rows = self.db.open_table("documents").search().where(f"doc_id = {_sql_str(doc_id)}").limit(1).to_list()
            cache[doc_id] = json.loads(rows[0]["metadata"]) if rows else {}
        return cache[doc_id]

    def all_chunks(self) -> list[Chunk]:
        """Every searchable chunk, in document order (for checks and reports)."""
        if "chunks" not in self._tables():
            return []
        rows = self.db.open_table("chunks").search().select(["chunk", "doc_id"]).limit(None).to_list()
        chunks = [self._chunk(r) for r in rows]
        return sorted(chunks, key=lambda c: (c.source, c.start, c.end))


@dataclass(frozen=True)
class _Matrix:
    """The chunks table's vectors in memory (rows normalised) and their ids, for one version."""
    version: int
    vectors: np.ndarray
    ids: list[str]


def _id_list(ids: Sequence[str]) -> str:
    return "id IN (" + ", ".join(_sql_str(i) for i in ids) + ")"


def _filtered(q: Any, where: str | None) -> Any:
    return q.where(where, prefilter=True) if where else q


def _text_rows(table: Any, text: str, where: str | None, n: int) -> list[dict[str, Any]]:
    """The ``n`` best rows for ``text`` by BM25 (none for an empty query)."""
    if not text:
        return []
    q = table.search(text, query_type="fts", fts_columns="text").select(_TEXT_HIT)
    return _filtered(q, where).limit(n).to_list()


def _rrf(rankings: Sequence[Iterable[str]], sim: Mapping[str, float]) -> dict[str, float]:
    """Reciprocal rank fusion of rankings of ids: score = sum over the rankings of
    1 / (RRF_K + rank); best first, ties to the higher cosine similarity ``sim``, then the id."""
    score: dict[str, float] = {}
    for ranking in rankings:
        for rank, i in enumerate(ranking, 1):
            score[i] = score.get(i, 0.0) + 1.0 / (RRF_K + rank)
    return {i: score[i] for i in sorted(score, key=lambda i: (-score[i], -sim.get(i, -2.0), i))}


def _fuse(vrows: list[dict[str, Any]], trows: list[dict[str, Any]]
          ) -> list[tuple[dict[str, Any], float, float | None]]:
    """The vector and text rows fused by reciprocal rank, with each row's fused score and cosine
    similarity (None where only the text search found it)."""
    row = {r["id"]: r for r in trows} | {r["id"]: r for r in vrows}
    sim = {r["id"]: 1.0 - float(r["_distance"]) for r in vrows}
    score = _rrf(([r["id"] for r in vrows], [r["id"] for r in trows]), sim)
    return [(row[i], value, sim.get(i)) for i, value in score.items()]


# -- rows ----------------------------------------------------------------------------------------

def _text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _sql_str(s: str) -> str:
    return "'" + s.replace("'", "''") + "'"


def _scalar(v: Any) -> bool:
    return isinstance(v, (str, int, float, bool)) and not (isinstance(v, float) and v != v)


def _fields(doc: Document) -> dict[str, Any]:
    """The document fields that become filter columns: scalar values under SQL-safe names."""
    return {k: v for k, v in doc.metadata.items()
            if _NAME.match(k) and k not in _CORE and _scalar(v)}


def _row(c: Chunk, doc: Document, vector: np.ndarray | None) -> dict[str, Any]:
    d = c.to_dict()
    d["metadata"] = {k: v for k, v in c.metadata.items()
                     if k not in doc.metadata or doc.metadata[k] != v}
    row: dict[str, Any] = {
        "id": c.id, "doc_id": c.doc_id, "source": c.source, "file": _file_name(c.source),
        "start": c.start, "end": c.end,
        "page_start": c.pages[0] if c.pages else None, "page_end": c.pages[-1] if c.pages else None,
        "heading": " / ".join(c.heading_path), "language": c.language or doc.language,
        "strategy": c.strategy, "parent_id": c.parent_id, "role": c.metadata.get("role"),
        "tokens": c.tokens, "text": c.text, "chunk": json.dumps(d, ensure_ascii=False)}
    row.update(_fields(doc))
    if vector is not None:
        row["vector"] = np.asarray(vector, dtype=np.float32)  # to Arrow in one block: _arrow_table
    return row


@lru_cache(maxsize=4096)
def _file_name(source: str) -> str:
    return Path(source).name


def _arrow_table(rows: list[dict[str, Any]], schema: Any) -> Any:
    """``rows`` as an Arrow table of ``schema``; the vectors go in as one float32 block (a Python
    float per component, 384 per row, cost most of the build time and ~3 GB at 100k rows)."""
    import pyarrow as pa
    i = schema.get_field_index("vector")
    vectors = [r.get("vector") for r in rows] if i >= 0 else []
    if i < 0 or any(v is None for v in vectors):
        return pa.Table.from_pylist(rows, schema=schema)
    vfield = schema.field(i)
    rest = pa.schema([f for f in schema if f.name != "vector"])
    table = pa.Table.from_pylist([{k: v for k, v in r.items() if k != "vector"} for r in rows],
                                 schema=rest)
    flat = pa.array(np.stack([np.asarray(v, dtype=np.float32) for v in vectors]).reshape(-1),
                    type=pa.float32())
    return table.add_column(i, vfield, pa.FixedSizeListArray.from_arrays(flat, type=vfield.type))


def _doc_row(doc: Document, digest: str) -> dict[str, Any]:
    return {"doc_id": doc.id, "source": doc.source, "file": Path(doc.source).name, "hash": digest,
            "language": doc.language, "pages": len(doc.page_starts),
            "metadata": json.dumps(dict(doc.metadata), ensure_ascii=False, default=str)}


def _arrow_type(values: list[Any]) -> Any:
    import pyarrow as pa
    present = [v for v in values if v is not None]
    if present and all(isinstance(v, bool) for v in present):
        return pa.bool_()
    if present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
        return pa.int64()
    if present and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in present):
        return pa.float64()
    return pa.string()


def _schema(rows: list[dict[str, Any]], dim: int | None) -> Any:
    import pyarrow as pa
    names: list[str] = []
    for r in rows:
        names.extend(k for k in r if k not in names)
    fields = []
    for name in names:
        if name == "vector":
            fields.append(pa.field("vector", pa.list_(pa.float32(), int(dim or 0))))
        else:
            values = [r.get(name) for r in rows]
            typ = _arrow_type(values)
            if typ == pa.string():
                for r in rows:
                    if r.get(name) is not None and not isinstance(r[name], str):
                        r[name] = str(r[name])
            fields.append(pa.field(name, typ))
    return pa.schema(fields)


def _fit(row: dict[str, Any], schema: Any) -> dict[str, Any]:
    """A row shaped for an existing table: missing columns None, values cast to the column type
    (a value that cannot be cast is kept in the chunk JSON and left out of the column)."""
    import pyarrow as pa
    out: dict[str, Any] = {}
    for f in schema:
        v = row.get(f.name)
        if v is None or f.name == "vector":
            out[f.name] = v
        elif f.type == pa.string():
            out[f.name] = v if isinstance(v, str) else str(v)
        elif f.type == pa.bool_():
            out[f.name] = v if isinstance(v, bool) else None
        elif pa.types.is_integer(f.type):
            out[f.name] = v if isinstance(v, int) and not isinstance(v, bool) else None
        elif pa.types.is_floating(f.type):
            out[f.name] = float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None
        else:
            out[f.name] = v
        if v is not None and out[f.name] is None:
            log.warning("field %r: value %r does not fit the column's type %s; kept in the chunk's "
                        "metadata only", f.name, v, f.type)
    return out


def remove_index(path: str | Path) -> None:
    """Delete an index folder (``--rebuild``): only if it holds a seamcut index."""
    p = Path(path)
    if (p / SETTINGS_FILE).is_file():
        shutil.rmtree(p)
    elif p.exists() and any(p.iterdir()):
        raise IndexConfigError(f"{p}: not a seamcut index folder; not deleting it")
