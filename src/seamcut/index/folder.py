"""``Index``: one index folder, opened or created; written per file, searched in three modes.

The parts: ``settings`` (what the folder was built with), ``store`` (its LanceDB tables),
``matrix`` (its vectors in memory), ``fusion`` (how a hybrid search merges its two rankings) and
``search`` (rankings by mode and by parent).
"""
from __future__ import annotations

import time
from functools import cached_property
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from ..embed import Embedder, load_embedder
from ..model import Chunk, Document
from .fusion import Fusion, ReciprocalRankFusion, Scored
from .matrix import MATRIX_BYTES, Matrix, fits
from .rows import chunk_row, document_row, is_parent, searchable, text_hash
from .search import (Hit, Mode, by_parent, by_vector, by_words, check_query, combine,
                     normalise_query, parent_of)
from . import journal
from .settings import SETTINGS_FILE, IndexConfigError, ParentTextRank, Settings
from .store import HIT_COLUMNS, Store, text_rows


@dataclass
class UpdateReport:
    """What ``Index.update`` did, per file (by source); times in seconds."""
    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    chunks: int = 0          # rows written (children for parent-child)
    parents: int = 0
    embedded: int = 0        # texts the model actually embedded (cache misses)
    chunk_seconds: float = 0.0
    embed_seconds: float = 0.0
    write_seconds: float = 0.0


@dataclass
class Cut:
    """One document ready to store: every chunk it was cut into (parent-child parents
    included), its file's hash, and the vectors of its searchable chunks, in their order."""
    document: Document
    digest: str
    chunks: list[Chunk]
    vectors: np.ndarray | None = None

    @cached_property
    def searchable(self) -> list[Chunk]:
        return searchable(self.chunks)


class Index:
    """An index folder: open an existing one, or create one for a strategy and an embedder.

    ``strategy``/``options`` (size, overlap, unit, tokenizer, strategy options) and ``model``
    (an embedder spec for ``seamcut.embed.load_embedder``: ``default`` or a model folder) are
    required to create an index and, when given for an existing one, must match what it was built
    with. ``embedder`` overrides loading the model (it must be the same model).
    ``parent_text_rank``: what BM25 ranks in a parent-child index, the ``parents`` or their
    ``children``; saved with the index (default: what the strategy's options call for,
    ``parents`` for ``parents="blocks"``). ``fusion``: how hybrid search merges the vector and
    the word ranking (default: reciprocal rank fusion, k = 60).
    """

    def __init__(self, path: str | Path, *, strategy: str | None = None,
                 options: Mapping[str, Any] | None = None, model: str | None = None,
                 embedder: Embedder | None = None, cache: bool = True,
                 parent_text_rank: ParentTextRank | None = None, fusion: Fusion | None = None) -> None:
        self.path = Path(path)
        settings = Settings.load(self.path)
        if settings is not None:
            settings.check(self.path, strategy, options, model, parent_text_rank)
        elif strategy is None:
            raise IndexConfigError(f"{self.path}: no seamcut index here (build one with `seamcut index`)")
        else:
            settings = Settings.new(strategy, options, model, parent_text_rank)
        self.settings = settings
        self.fusion = fusion or ReciprocalRankFusion()
        self._embedder = embedder
        self._cache = cache
        self._vector_queries = 0
        self._matrix: Matrix | None = None
        self.path.mkdir(parents=True, exist_ok=True)
        self.store = Store(self.path)
        self._files: dict[str, dict[str, Any]] | None = None
        self._finished: bool | None = None
        self._saved = (self.path / SETTINGS_FILE).is_file()
        #: documents a killed build had half written, removed on opening (``recover``)
        self.recovered = self.recover()

    @property
    def db(self) -> Any:
        """The LanceDB connection (tables ``chunks``, ``parents``, ``documents``)."""
        return self.store.db

    @property
    def strategy(self) -> str:
        return self.settings.strategy

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            cache = self.path / "embeddings" if self._cache else None
            model = self.settings.model
            self._embedder = load_embedder(None if model == "default" else model, cache=cache)
        return self._embedder

    @property
    def files(self) -> dict[str, dict[str, Any]]:
        """Indexed files by source: their ``hash``, ``doc_id`` and ``chunks`` (parents included)."""
        if self._files is None:
            self._files = self.store.documents()
        return self._files

    # -- writing -------------------------------------------------------------------------------

    def update(self, documents: Sequence[Document], chunker: Callable[[Document], list[Chunk]],
               hashes: Mapping[str, str] | None = None, batch: int = 64) -> UpdateReport:
        """Add documents, replacing earlier versions of the same files; skip unchanged files.

        ``chunker`` cuts one document (the index's strategy); ``hashes`` maps a document's source
        to its file's hash (None: the text's), which decides whether a file changed. Written
        ``batch`` documents at a time (``write``), then the text index is brought up to date.
        """
        report = UpdateReport()
        todo: list[tuple[Document, str]] = []
        for doc in documents:
            digest = (hashes or {}).get(doc.source) or text_hash(doc.text)
            if self.is_current(doc.source, digest, doc.id):
                report.unchanged.append(doc.source)
                continue
            (report.replaced if doc.source in self.files else report.added).append(doc.source)
            todo.append((doc, digest))
        for i in range(0, len(todo), batch):
            t0 = time.perf_counter()
            cuts = [Cut(doc, digest, chunker(doc)) for doc, digest in todo[i:i + batch]]
            t1 = time.perf_counter()
            at = self.embed(cuts, report)
            t2 = time.perf_counter()
            self.write(cuts)
            report.chunk_seconds += t1 - t0
            report.embed_seconds += t2 - t1
            report.write_seconds += time.perf_counter() - t2
            report.chunks += at
            report.parents += sum(len(cut.chunks) - len(cut.searchable) for cut in cuts)
        if todo or not self.is_finished():
            t0 = time.perf_counter()
            self.finish()
            report.write_seconds += time.perf_counter() - t0
        return report

    def is_current(self, source: str, digest: str, doc_id: str | None = None) -> bool:
        """Whether the index holds this file as it is now (same hash; same document id)."""
        known = self.files.get(source)
        return bool(known) and known["hash"] == digest and (doc_id is None or known["doc_id"] == doc_id)

    def embed(self, cuts: Sequence[Cut], report: UpdateReport | None = None) -> int:
        """Embed the cuts' searchable chunks in one call with the index's embedder (checked to be
        the one the index was built with) and give each cut its vectors; how many chunks. A chunk
        over the model's input raises ``LongInputError`` (indexes into the cuts' chunks, in
        order)."""
        vectors = self._embed([c.text for cut in cuts for c in cut.searchable], report or UpdateReport())
        at = 0
        for cut in cuts:
            n = len(cut.searchable)
            cut.vectors, at = vectors[at:at + n], at + n
        return at

    def write(self, cuts: Sequence[Cut]) -> None:
        """Store a batch of documents with their chunks and vectors, replacing earlier versions
        of the same files. Safe to kill at any moment: see ``journal``."""
        if not cuts:
            return
        dim = self.settings.dim
        if dim is None:
            raise ValueError("embed before writing: the index does not know its vectors' size yet")
        if not self._saved:  # a killed first build must reopen as what it is
            self.settings.save(self.path)
            self._saved = True
        journal.begin(self.path, {cut.document.id: cut.digest for cut in cuts})
        gone = [self.files[cut.document.source]["doc_id"] for cut in cuts
                if cut.document.source in self.files]
        self.store.delete(gone + [cut.document.id for cut in cuts])
        self._matrix = None
        docs = {cut.document.id: cut.document for cut in cuts}
        rows = []
        for cut in cuts:
            kids = cut.searchable
            if cut.vectors is None or len(cut.vectors) != len(kids):
                raise ValueError(f"{cut.document.source}: {len(kids)} chunks to store, "
                                 f"{0 if cut.vectors is None else len(cut.vectors)} vectors")
            rows += [chunk_row(c, docs[c.doc_id], v) for c, v in zip(kids, cut.vectors)]
        self.store.write("chunks", rows, dim)
        self.store.write("parents", [chunk_row(c, docs[c.doc_id], None) for cut in cuts
                                     for c in cut.chunks if is_parent(c)], dim)
        self.store.write("documents", [document_row(cut.document, cut.digest, len(cut.chunks))
                                       for cut in cuts], dim)
        for cut in cuts:
            self.files[cut.document.source] = {"hash": cut.digest, "doc_id": cut.document.id,
                                               "chunks": len(cut.chunks)}
        journal.end(self.path)
        self._finished = False

    def recover(self) -> list[str]:
        """Undo what a killed write left half done (see ``journal``); the sources whose rows were
        removed (the next build writes them again)."""
        batch = journal.pending(self.path)
        if not batch:
            return []
        done = {v["doc_id"]: v["hash"] for v in self.store.documents().values()}
        torn = [doc_id for doc_id, digest in batch.items() if done.get(doc_id) != digest]
        self.store.delete(torn)
        self._files = None
        journal.end(self.path)
        self._finished = False
        return torn

    def finish(self) -> None:
        """After writing: bring the full-text and id indexes up to date, merge the batches' small
        files (``Store.reindex_text``), and save the settings."""
        self._reindex_text()
        self.settings.save(self.path)
        self._saved = self._finished = True

    def is_finished(self) -> bool:
        """Whether everything written has been through ``finish`` (a killed build's rerun may have
        nothing left to write but its text index to bring up to date)."""
        if self._finished is None:
            self._finished = self.store.is_indexed()
        return self._finished

    def _embed(self, texts: list[str], report: UpdateReport) -> np.ndarray:
        emb = self.embedder
        self.settings.check_embedder(self.path, emb.name)  # before any work is spent
        before = emb.computed
        vectors = emb.embed_passages(texts) if texts else np.zeros((0, emb.dim), np.float32)
        report.embedded = len(texts) if before is None else emb.computed - before
        self.settings.embedder, self.settings.dim = emb.name, int(emb.dim)
        return vectors

    def _reindex_text(self) -> None:
        self.store.reindex_text(parent_words=self.settings.parent_text_rank == "parents")

    # -- reading -------------------------------------------------------------------------------

    def count(self) -> int:
        """Searchable chunks in the index."""
        return self.store.count()

    def all_chunks(self) -> list[Chunk]:
        """Every searchable chunk, in document order (for checks and reports)."""
        return self.store.all_chunks()

    def search(self, query: str, k: int = 4, *, mode: Mode = "hybrid", where: str | None = None,
               max_tokens: int | None = None, candidates: int | None = None) -> list[Hit]:
        """The ``k`` best results for ``query``.

        ``mode``: ``vector`` (cosine similarity of the model's vectors), ``text`` (BM25 over ICU
        words) or ``hybrid`` (both, merged by the index's fusion). ``where``: an SQL filter on the
        chunk columns, e.g. ``crop = 'cotton' AND year >= 2025``. For a parent-child index each
        parent comes once, with the children that matched; ``max_tokens`` caps the parents'
        total size in the model's tokens (the first always comes). ``candidates``: how many chunks
        each search fetches before fusion and grouping (default ``max(4 * k, 20)``; at least
        ``8 * k`` for a parent-child index).
        """
        check_query(mode, k)
        tables = self.store.tables()
        text = normalise_query(query)
        if "chunks" not in tables or (not text and mode != "vector"):
            return []  # no words, nothing to rank them by
        parent_child = "parents" in tables
        n = candidates or max(4 * k, 20)
        if parent_child:
            n = max(n, 8 * k)  # several children may share a parent: more of them to fill k parents
        vector = by_vector(self._vector_rows(query, where, n)) if mode != "text" else []
        words = by_words(text_rows(self.store.table("chunks"), text, where, n)) if mode != "vector" else []
        if parent_child:
            return self._parent_hits(text, mode, where, n, k, max_tokens, vector, words)
        ranking = combine(mode, vector, words, self.fusion)
        return [Hit(i + 1, self.store.chunk(s.row), s.score, s.similarity)
                for i, s in enumerate(ranking[:k])]

    def _vector_rows(self, query: str, where: str | None, n: int) -> list[dict[str, Any]]:
        """The ``n`` chunks nearest to ``query`` by cosine, best first, with ``_distance``.

        Exact either way. The first query of an Index scans the table in LanceDB; later ones
        without a filter search the vectors in memory (loaded once, about 0.5 s per 100k chunks;
        a matrix product instead of a scan per query), while they fit in ``MATRIX_BYTES``."""
        vec = self.embedder.embed_queries([query])[0]
        self._vector_queries += 1
        matrix = self._in_memory() if where is None and self._vector_queries > 1 else None
        if matrix is None:
            return self.store.vector_rows(vec, where, n)
        nearest = matrix.nearest(vec, n)
        found = {r["id"]: r for r in self.store.rows("chunks", [i for i, _ in nearest], HIT_COLUMNS)}
        return [{**found[i], "_distance": 1.0 - sim} for i, sim in nearest if i in found]

    def _in_memory(self) -> Matrix | None:
        """The chunks' vectors, loaded once per table version; None when they would take more
        than ``MATRIX_BYTES``."""
        version = self.store.table("chunks").version
        if self._matrix is None or self._matrix.version != version:
            dim = int(self.settings.dim or 0)
            self._matrix = (Matrix.of(version, *self.store.vectors(dim))
                            if fits(self.store.count(), dim, MATRIX_BYTES) else None)
        return self._matrix

    def _parent_hits(self, text: str, mode: str, where: str | None, n: int, k: int,
                     max_tokens: int | None, vector: list[Scored], words: list[Scored]) -> list[Hit]:
        """Parent-child search: each parent once, ranked by its children or by itself.

        The vectors always rank children (a small text's vector is sharper), a parent ranked
        where its best child is. The words (BM25) rank what ``parent_text_rank`` says: the
        ``children``, fused with the vector ranking child by child, or the ``parents``
        themselves (a 50-token child is too short for BM25, a one-paragraph parent is not),
        fused with the vector ranking parent by parent. Each hit lists the children that either
        search found."""
        parent_vector = by_parent(vector)
        if mode != "vector" and self.settings.parent_text_rank == "parents":
            parent_words = by_words(text_rows(self.store.table("parents"), text, where, n))
            ranking = combine(mode, parent_vector, parent_words, self.fusion)
        else:
            parent_words = []
            ranking = by_parent(combine(mode, vector, words, self.fusion))
        wanted = ranking[:k]
        similarity = {s.id: s.similarity for s in parent_vector}
        kids: dict[str, dict[str, dict[str, Any]]] = {}
        for s in vector + words:
            kids.setdefault(parent_of(s.row), {}).setdefault(s.id, s.row)
        ids = {s.id for s in wanted}
        parents = {s.id: self.store.chunk(s.row) for s in parent_words if s.id in ids}
        fetch = [s.id for s in wanted if s.id not in parents]
        parents.update((c.id, c) for c in map(self.store.chunk, self.store.rows("parents", fetch)))
        hits: list[Hit] = []
        used = 0
        for s in wanted:
            children = tuple(self.store.chunk(r) for r in kids.get(s.id, {}).values())
            parent = parents.get(s.id) or children[0]
            if max_tokens is not None and hits and used + parent.tokens > max_tokens:
                break
            used += parent.tokens
            hits.append(Hit(len(hits) + 1, parent, s.score, similarity.get(s.id), children))
        return hits
