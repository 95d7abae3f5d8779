"""Strategies: each a callable ``(document, config) -> list[Chunk]``, registered by name."""
from __future__ import annotations

from typing import Callable

from ..model import Chunk, Document
from .config import (ParentChildConfig, RecursiveConfig, SemanticConfig, SizeConfig,
                     StructureConfig)
from .fixed import fixed
from .recursive import paragraph, recursive, sentence
from .parent_child import parent_child
from .semantic import semantic
from .structure import structure

Strategy = Callable[[Document, SizeConfig], list[Chunk]]

#: name -> (strategy, its config class)
REGISTRY: dict[str, tuple[Strategy, type[SizeConfig]]] = {
    "fixed": (fixed, SizeConfig),
    "sentence": (sentence, SizeConfig),
    "paragraph": (paragraph, SizeConfig),
    "recursive": (recursive, RecursiveConfig),
    "structure": (structure, StructureConfig),
    "semantic": (semantic, SemanticConfig),
    "parent-child": (parent_child, ParentChildConfig),
}

__all__ = ["REGISTRY", "Strategy", "SizeConfig", "RecursiveConfig", "StructureConfig", "ParentChildConfig", "fixed",
           "sentence", "paragraph", "recursive", "structure", "parent_child"]
