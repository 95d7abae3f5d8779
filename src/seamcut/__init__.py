"""seamcut: RAG chunking that cuts where the document changes, and proves it with your questions.

The Python API: ``read`` (a file into a ``Document``), ``chunk`` (a text or ``Document`` into
``Chunk``s), ``Index`` (an on-disk index: store, search), ``compare`` (strategies judged on your
questions), ``tune`` (the chunking and search mode that serve your questions best, searched
for), ``inspect`` (anyone's chunks checked), ``load_embedder`` (an embedding model). They are
imported on first use, so ``import seamcut`` stays fast.
"""
from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from .errors import ConfigError, InputError, MissingError, SeamcutError
from .model import Chunk, Document, Element

if TYPE_CHECKING:
    from .api import ModelInputWarning, chunk
    from .checks import compare, inspect, tune
    from .embed import load_embedder
    from .index import Index
    from .readers import read

__version__ = "0.1.0"

#: public name -> the module that defines it, imported on first use
_LAZY = {"read": "readers", "chunk": "api", "Index": "index", "compare": "checks",
         "tune": "checks", "inspect": "checks", "load_embedder": "embed", "ModelInputWarning": "api"}

__all__ = ["read", "chunk", "Index", "compare", "tune", "inspect", "load_embedder", "Chunk", "Document",
           "Element", "SeamcutError", "InputError", "ConfigError", "MissingError",
           "ModelInputWarning", "__version__"]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'seamcut' has no attribute {name!r}")
    value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
