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

    @property
    def embedded(self) -> list[str]:
        """The text embedded for each searchable chunk, in order: its ``text``, or where another
        text was embedded for it (a contestant's chunk over the model's input, chunks made
        elsewhere: ``seamcut.peers.layout``) its ``metadata["embedded"]``."""
        return [c.metadata.get("embedded") or c.text for c in self.searchable]
