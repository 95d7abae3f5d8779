"""What one write of an index holds (``Cut``: a document cut, hashed and embedded)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np

from ..model import Chunk, Document
from .rows import searchable


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
