"""Strategies: each a callable ``(document, config) -> list[Chunk]``, registered by name.

Each named strategy is a configuration of passes over spans:

- ``levels``: where a text may be cut (blank line, line break, sentence, clause, space);
- ``size_limit``: the limits a chunk's text keeps, ``reserve`` units kept free where asked;
- ``packer``: the one greedy packing loop; what differs (which neighbours join, the fit test, a
  unit too long alone, headings that only open a chunk) is passed in as a ``Packing``;
- ``pieces``: the piece packer: cut into pieces at the levels, ``merge`` pieces up to the limit
  (the loop with an estimate to join, a real count to give back, a piece cut when too long
  alone), ``pack`` (merge, then the ``overlap`` pass);
- ``units``: the structure pass (sections of units, each with its packing rule) and sibling
  merging; ``structure``: the unit packer (the same loop: a real count to join, headings open
  the chunk of what follows, a unit too long alone split by its rule);
- ``semantic``: sentences grouped by meaning, then the shared split, pack and chunk factory;
- ``parent_child``: children cut at parents' borders, grouped under their parents;
- ``chunks``: the one chunk factory and id recipe;
- ``long_documents``: a document over ``WINDOW_CHARS`` (1,000,000 code points) chunked a
  ``Window`` at a time, cut at its strongest boundaries, so memory is bounded by the window;
  ``seamcut.api.iter_chunks`` yields the chunks as each window is done. ``window_outline``: the
  ``Window`` and ``outline_of``, the outline every strategy reads heading paths and languages
  from (of the whole document, for a window).
"""
from __future__ import annotations

from typing import Callable

from ..model import Chunk, Document
from .config import (ParagraphConfig, ParentChildConfig, RecursiveConfig, SemanticConfig, SentenceConfig,
                     SizeConfig, StructureConfig)
from .fixed import fixed
from .recursive import paragraph, recursive, sentence
from .parent_child import parent_child
from .semantic import semantic
from .structure import structure

Strategy = Callable[[Document, SizeConfig], list[Chunk]]

#: the strategy documents are cut with when none is named, everywhere (``seamcut chunk``,
#: ``index``, ``view``, ``seamcut.chunk``, the integrations' splitters): the simplest choice a tie
#: between strategies goes to
DEFAULT_STRATEGY = "structure"

#: name -> (strategy, its config class)
REGISTRY: dict[str, tuple[Strategy, type[SizeConfig]]] = {
    "fixed": (fixed, SizeConfig),
    "sentence": (sentence, SentenceConfig),
    "paragraph": (paragraph, ParagraphConfig),
    "recursive": (recursive, RecursiveConfig),
    "structure": (structure, StructureConfig),
    "semantic": (semantic, SemanticConfig),
    "parent-child": (parent_child, ParentChildConfig),
}

__all__ = ["REGISTRY", "DEFAULT_STRATEGY", "Strategy", "SizeConfig", "SentenceConfig", "ParagraphConfig", "RecursiveConfig", "StructureConfig", "ParentChildConfig",
           "SemanticConfig", "fixed", "sentence", "paragraph", "recursive", "structure", "semantic",
           "parent_child"]
