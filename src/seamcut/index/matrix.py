"""An index's chunk vectors in memory: exact cosine search by one matrix product instead of a
LanceDB scan per query."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from .store import View

#: the most memory (bytes) the in-memory copy of an index's vectors may take (about 330k chunks
#: of 384 dimensions); a bigger index is searched by LanceDB's scan every time
MATRIX_BYTES = 512 * 2**20


def fits(rows: int, dim: int, limit: int = MATRIX_BYTES) -> bool:
    """Whether ``rows`` float32 vectors of ``dim`` take at most ``limit`` bytes."""
    return bool(dim) and rows * dim * 4 <= limit


@dataclass(frozen=True)
class Matrix:
    """The chunks table's vectors (rows normalised) and their ids, for one state of the table
    (``version``: whatever names it, compared for equality only)."""
    version: object
    vectors: np.ndarray
    ids: list[str]

    @classmethod
    def of(cls, version: object, ids: list[str], vectors: np.ndarray) -> "Matrix":
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return cls(version, vectors / np.where(norms == 0, 1.0, norms), ids)

    def nearest(self, query: np.ndarray, n: int) -> list[tuple[str, float]]:
        """The ``n`` ids nearest to ``query`` with their cosine similarity, best first (ties in
        row order)."""
        q = np.asarray(query, dtype=np.float32)
        sims = self.vectors @ (q / (np.linalg.norm(q) or 1.0))
        top = np.argpartition(-sims, n - 1)[:n] if n < len(sims) else np.arange(len(sims))
        top = top[np.lexsort((top, -sims[top]))]
        return [(self.ids[i], float(sims[i])) for i in top]


def matrix_for(view: "View", dim: int, loaded: Matrix | None) -> Matrix | None:
    """The chunks' vectors of ``view``'s state: ``loaded`` where it is that state's, else loaded
    from the view (per published state; per table version for a folder never published); None
    when they would take more than ``MATRIX_BYTES``."""
    version = (view.state, view.version("chunks"))
    if loaded is not None and loaded.version == version:
        return loaded
    return Matrix.of(version, *view.vectors(dim)) if fits(view.count(), dim, MATRIX_BYTES) else None
