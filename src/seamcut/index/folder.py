"""``Index``: one index folder, opened or created; written per file, searched in three modes.

The parts: ``settings`` (what the folder was built with), ``store`` (its LanceDB tables),
``matrix`` (its vectors in memory), ``fusion`` (how a hybrid search merges its two rankings),
``search`` (rankings by mode), ``parents`` (hits of parents, for a parent-child index) and
``reading`` (what an ``Index`` reads: its searches).
"""
from __future__ import annotations

import logging
import os
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

import numpy as np

from ..embed import Embedder, load_embedder, spec_of
from ..model import Chunk, Document
from .fusion import Fusion, ReciprocalRankFusion
from .matrix import Matrix
from .batch import Cut
from .rows import chunk_row, document_row, is_parent
from .reading import Reading
from . import journal
from .disk import DiskFullError, disk_full, is_disk_full
from .lock import Holder, IndexBusyError, WriteLock
from .settings import SETTINGS_FILE, IndexConfigError, ParentTextRank, Settings
from .store import Store
from ..errors import ConfigError
from ..renamed import gathered

if TYPE_CHECKING:
    from ..pipeline.report import BuildReport

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class IndexOptions:
    """How this process uses an ``Index``, not saved with it: ``cache`` (keep the embeddings of
    chunks already embedded, in the embedding cache; False: embed every chunk again), ``fusion``
    (how a hybrid search merges the vector and the word ranking; None: reciprocal rank fusion,
    k = 60) and ``wait`` (seconds a write waits for another process writing the same folder;
    None: as long as it takes, 0: not at all)."""

    cache: bool = True
    fusion: Fusion | None = None
    wait: float | None = None


class Index(Reading):
    """An index folder: open an existing one, or create one for a strategy and an embedder.

    ``strategy``/``options`` (size, overlap, unit, tokenizer, strategy options) and ``model``
    (an embedder spec for ``seamcut.embed.load_embedder``: ``default`` or a model folder) are
    required to create an index and, when given for an existing one, must match what it was built
    with. ``embedder`` overrides loading the model (it must be the same model).
    ``parent_text_rank``: what BM25 ranks in a parent-child index, the ``parents`` or their
    ``children``; saved with the index (default: what the strategy's options call for,
    ``parents`` for ``parents="blocks"``). ``fusion``: how hybrid search merges the vector and
    the word ranking (default: reciprocal rank fusion, k = 60). ``wait``: how long a write
    waits for another process writing the same folder, in seconds (None: as long as it takes;
    0: not at all), past which it raises ``IndexBusyError`` (see ``writing``). ``cache``,
    ``fusion`` and ``wait`` may come as one ``IndexOptions`` (``index_options=``) instead.
    """

    def __init__(self, path: str | Path, *, strategy: str | None = None,
                 options: Mapping[str, Any] | None = None, model: str | None = None,
                 embedder: Embedder | None = None, parent_text_rank: ParentTextRank | None = None,
                 index_options: IndexOptions | None = None, **keywords: Any) -> None:
        how = gathered("Index", index_options or IndexOptions(), keywords)
        cache, fusion, wait = how.cache, how.fusion, how.wait
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
        self._by_path: tuple[dict, dict[str, str]] | None = None  # (files, source by path)
        self._finished: bool | None = None
        self._saved = (self.path / SETTINGS_FILE).is_file()
        self.wait = wait
        self._text_checked = False
        #: documents a killed build had half written, removed on opening where no other process
        #: is writing the folder, or when this one starts writing (``recover``)
        self.recovered: list[str] = []
        if journal.pending(self.path) or (self._saved and not self.store.is_published()):
            self._recover_if_free()  # (an index from before publishing is published too)

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
            # the runtime that made the index's vectors, though the default runtime changed since
            model = spec_of(self.settings.embedder or "", self.settings.model)
            self._embedder = load_embedder(None if model == "default" else model, cache=cache)
        return self._embedder

    @property
    def files(self) -> dict[str, dict[str, Any]]:
        """Indexed files by source: their ``hash``, ``doc_id``, ``chunks`` (parents included) and
        ``path`` (absolute)."""
        if self._files is None:
            self._files = self.store.documents()
        return self._files

    def stored_source(self, source: str) -> str | None:
        """The source the index holds the file ``source`` names under: ``source`` itself, or the
        same file named another way (``docs/a.pdf`` and ``/srv/docs/a.pdf``: the same absolute
        path); None where it holds no such file."""
        files = self.files
        if source in files:
            return source
        if self._by_path is None or self._by_path[0] is not files:
            self._by_path = (files, {v.get("path"): s for s, v in files.items()})
        return self._by_path[1].get(os.path.abspath(source))

    def known_hashes(self) -> dict[str, str]:
        """Each indexed file's hash, by its source and by its absolute path."""
        out = {v["path"]: v["hash"] for v in self.files.values() if v.get("path")}
        out.update((s, v["hash"]) for s, v in self.files.items())
        return out

    # -- writing -------------------------------------------------------------------------------

    def update(self, documents: Sequence[Document], chunker: Callable[[Document], list[Chunk]],
               hashes: Mapping[str, str] | None = None, batch: int = 64) -> "BuildReport":
        """Add documents, replacing earlier versions of the same files; skip unchanged files.

        ``chunker`` cuts one document (the index's strategy; ``seamcut.pipeline.jobs.Made``: chunks
        already made); ``hashes`` maps a document's source to its file's hash (None: the text's),
        which decides whether a file changed. Written ``batch`` documents at a time, then the
        text index is brought up to date: the build's one loop
        (``seamcut.pipeline.run.build_documents``), whose ``BuildReport`` it returns.
        """
        from ..pipeline.run import build_documents
        return build_documents(self, documents, chunker, hashes, batch)

    def is_current(self, source: str, digest: str, doc_id: str | None = None) -> bool:
        """Whether the index holds this file as it is now (same hash; same document id)."""
        known = self.files.get(self.stored_source(source) or "")
        return bool(known) and known["hash"] == digest and (doc_id is None or known["doc_id"] == doc_id)

    def embed(self, cuts: Sequence[Cut]) -> int:
        """Embed the cuts' searchable chunks in one call with the index's embedder (checked to be
        the one the index was built with) and give each cut its vectors; how many chunks. A chunk
        over the model's input raises ``LongInputError`` (indexes into the cuts' chunks, in
        order)."""
        vectors = self._embed([t for cut in cuts for t in cut.embedded])
        at = 0
        for cut in cuts:
            n = len(cut.searchable)
            cut.vectors, at = vectors[at:at + n], at + n
        return at

    def write(self, cuts: Sequence[Cut], remove: Sequence[str] = ()) -> None:
        """Store a batch of documents with their chunks and vectors, replacing earlier versions
        of the same files, and take out the files (sources) in ``remove``. Safe to kill at any
        moment: see ``journal``."""
        remove = [s for s in map(self.stored_source, remove) if s]
        if not cuts and not remove:
            return
        dim = self.settings.dim
        if dim is None:
            raise ConfigError("embed before writing: the index does not know its vectors' size yet")
        with self.writing():
            before = self.store.versions()
            try:
                self._write(cuts, dim, remove)
            except Exception as exc:
                if not is_disk_full(exc):
                    raise
                raise self._undo(before, len(cuts), exc) from exc

    def remove(self, sources: Sequence[str]) -> list[str]:
        """Take these files' documents out, in one published step; the sources it held."""
        with self.writing():
            held = [s for s in sources if self.stored_source(s)]
            self.write([], held)
            if held:
                self.finish()
            return held

    def _write(self, cuts: Sequence[Cut], dim: int, remove: Sequence[str] = ()) -> None:
        if not self._saved:  # a killed first build must reopen as what it is
            self.settings.save(self.path)
            self._saved = True
        stored = [self.stored_source(cut.document.source) for cut in cuts]
        gone = [self.files[s]["doc_id"] for s in [*stored, *remove] if s]
        for s in remove:
            self.files.pop(s, None)
        journal.begin(self.path, {cut.document.id: cut.digest for cut in cuts}, gone)
        self.store.delete(gone + [cut.document.id for cut in cuts])
        self._matrix = None
        docs = {cut.document.id: cut.document for cut in cuts}
        rows = []
        for cut in cuts:
            kids = cut.searchable
            if cut.vectors is None or len(cut.vectors) != len(kids):
                raise ConfigError(f"{cut.document.source}: {len(kids)} chunks to store, "
                                  f"{0 if cut.vectors is None else len(cut.vectors)} vectors")
            rows += [chunk_row(c, docs[c.doc_id], v) for c, v in zip(kids, cut.vectors)]
        self.store.write("chunks", rows, dim)
        self.store.write("parents", [chunk_row(c, docs[c.doc_id], None) for cut in cuts
                                     for c in cut.chunks if is_parent(c)], dim)
        self.store.write("documents", [document_row(cut.document, cut.digest, len(cut.chunks))
                                       for cut in cuts], dim)
        for cut, old in zip(cuts, stored):
            self.files.pop(old or "", None)
            source = cut.document.source
            self.files[source] = {"hash": cut.digest, "doc_id": cut.document.id, "chunks": len(cut.chunks),
                                  "path": os.path.abspath(source)}
        self._by_path = None
        # published before the journal ends: killed between the two, the next opening finds the
        # batch pending, keeps its whole documents and publishes again; so a folder without a
        # pending batch always has its last batch published
        self.store.publish()
        journal.end(self.path)
        self._finished = False

    def _undo(self, versions: dict[str, int], files: int, exc: BaseException) -> DiskFullError:
        """After a batch failed on a full disk: every table put back at ``versions`` (as before
        the batch) and the journal dropped; the error to raise, saying what the index holds."""
        self._files, self._matrix, self._finished = None, None, None
        try:
            self.store.restore(versions)
            self.store.publish()
            journal.end(self.path)
        except Exception:  # still no room even for that: the journal undoes it on the next open
            return self.disk_full(exc, kept=f"the batch could not be undone: its {files} file(s) are removed "
                                       "when the index is next opened, and written again by the next run")
        return self.disk_full(exc)

    def disk_full(self, exc: BaseException, doing: str = "writing the index",
                  kept: str = "the index is left as it was before this batch") -> DiskFullError:
        """The error for ``exc``, a full disk under this index's folder (``disk.disk_full``)."""
        return disk_full(self.path, exc, doing, kept)

    @contextmanager
    def writing(self, wait: float | None | str = "default") -> Iterator[None]:
        """Hold the folder's write lock (``lock.WriteLock``) while inside: one process writes an
        index at a time; readers need no lock. Waits for another writer as ``wait`` says (the
        index's ``wait`` by default), saying for whom; then, the first time this process takes
        it, reads the folder afresh (what the other writer wrote) and undoes what a killed
        writer left half done (``recover``). Re-entrant within a process."""
        lock = WriteLock(self.path, self.wait if wait == "default" else wait,  # type: ignore[arg-type]
                         on_wait=self._waiting)
        with lock:
            if lock.outermost:
                self._reload()
                self.recovered += self._recover()
                if not self.store.is_published():  # an index written before publishing was
                    self.store.publish()
            yield

    def _waiting(self, holder: Holder) -> None:
        how = "as long as it takes" if self.wait is None else f"up to {self.wait:g} s"
        log.warning("%s: the index is being updated by %s; waiting for it, %s", self.path, holder, how)

    def _reload(self) -> None:
        """What another process may have written since this Index looked: its files, its
        settings (a first build's), whether its text index is up to date."""
        self._files, self._finished, self._matrix = None, None, None
        saved = Settings.load(self.path)
        if saved is not None and not self._saved:
            saved.check(self.path, self.settings.strategy, self.settings.options, self.settings.model,
                        self.settings.parent_text_rank)
            self.settings, self._saved = saved, True

    def recover(self) -> list[str]:
        """Undo what a killed write left half done (see ``journal``), under the write lock; the
        documents whose rows were removed (the next build writes them again)."""
        with self.writing():
            return list(self.recovered)

    def _recover(self) -> list[str]:
        batch = journal.pending(self.path)
        if not batch:
            return []
        for name in self.store.drop_uncommitted():  # every table is created inside a batch
            log.info("%s: removed table %r, whose creation was stopped before it held a row", self.path, name)
        done = {v["doc_id"]: v["hash"] for v in self.store.documents().values()}
        torn = [doc_id for doc_id, digest in batch.write.items() if done.get(doc_id) != digest]
        torn += [doc_id for doc_id in batch.gone if doc_id not in done and doc_id not in batch.write]
        self.store.delete(torn)
        self._files = None
        self.store.publish()
        journal.end(self.path)
        self._finished = False
        return torn

    def _recover_if_free(self) -> None:
        """Recover now, and publish an index never published, if no other process is writing
        (it would be its batch in the journal, and it publishes)."""
        try:
            with self.writing(wait=0):
                pass
        except IndexBusyError:
            pass
        except OSError as exc:  # a folder this process may read but not write
            if journal.pending(self.path):
                log.warning("%s: a stopped build left a batch half written, and it cannot be undone "
                            "here (%s); its documents may be incomplete until the next build", self.path, exc)
            else:  # searches read the tables as they are, as before publishing was
                log.debug("%s: cannot publish its tables here: %s", self.path, exc)

    def finish(self) -> None:
        """After writing: bring the full-text and id indexes up to date, merge the batches' small
        files (``Store.reindex_text``), save the settings, publish the tables to searches, and
        delete old versions' files (``Store.cleanup``). Safe to kill at any moment: each step is
        a LanceDB commit, and ``is_finished`` tells the next run what is left."""
        with self.writing():
            try:
                self._reindex_text()
                self.settings.save(self.path)
                self.store.publish()
                self.store.cleanup()
            except Exception as exc:
                if is_disk_full(exc):
                    raise self.disk_full(exc, "bringing the full-text index up to date",
                                         "the rows are written and searched, and the next run "
                                         "finishes the text index") from exc
                raise
            self._saved = self._finished = True
        self._text_checked = False

    def is_finished(self) -> bool:
        """Whether everything written has been through ``finish`` (a killed build's rerun may have
        nothing left to write but its text index to bring up to date)."""
        if self._finished is None:
            self._finished = self.store.is_indexed(self._parent_words)
        return self._finished

    def _embed(self, texts: list[str]) -> np.ndarray:
        emb = self.embedder
        self.settings.check_embedder(self.path, emb.name)  # before any work is spent
        vectors = emb.embed_passages(texts) if texts else np.zeros((0, emb.dim), np.float32)
        self.settings.embedder, self.settings.dim = emb.name, int(emb.dim)
        return vectors

    @property
    def _parent_words(self) -> bool:
        return self.settings.parent_text_rank == "parents"

    def _reindex_text(self) -> None:
        self.store.reindex_text(parent_words=self._parent_words)

    def _check_text_index(self) -> None:
        """Before the first word search: a full-text index that a stopped first build never made
        is made now (where no other process is writing); else the words are searched without
        it, and a warning says so. (Rows written after it was made are searched anyway.)"""
        if self._text_checked:
            return
        self._text_checked = True
        missing = [m for m in self.store.missing_indexes(self._parent_words) if m.endswith(".FTS")]
        if not missing:
            return
        log.warning("%s: the full-text index was never made (a build stopped before it); making it now",
                    self.path)
        try:
            with self.writing(wait=0):
                self.finish()
        except (IndexBusyError, OSError) as exc:
            log.warning("%s: the words are searched without their index meanwhile (a plain "
                        "tokenizer, not ICU): %s", self.path, exc)
