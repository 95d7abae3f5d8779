"""What one write of an index holds (``Cut``: a document cut, hashed and embedded) and what an
update did (``UpdateReport``)."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from ..model import Chunk, Document
from .rows import searchable


@dataclass
class UpdateReport:
    """What ``Index.update`` did, per file (by source); times in seconds."""
    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    chunks: int = 0          # rows written (children for parent-child)
    parents: int = 0
    embedded: int = 0        # texts the model actually embedded (cache misses)
    chunk_seconds: float = 0.0
    embed_seconds: float = 0.0
    write_seconds: float = 0.0


@dataclass
class Cut:
    """One document ready to store: every chunk it was cut into (parent-child parents
    included), its file's hash, and the vectors of its searchable chunks, in their order."""
    document: Document
    digest: str
    chunks: list[Chunk]
    vectors: np.ndarray | None = None

    @cached_property
    def searchable(self) -> list[Chunk]:
        return searchable(self.chunks)
