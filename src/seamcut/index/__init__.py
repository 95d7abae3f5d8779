"""The embedded store: chunks with their vectors, full-text index and metadata in LanceDB, on disk.

One index folder holds one chunking of a corpus (one strategy with its options, one embedding
model), written down in ``seamcut-index.json``. In parts:

* ``settings``: what the folder was built with, loaded, checked and saved; ``parent_text_rank``
  says whether BM25 ranks a parent-child index's parents or their children;
* ``store``: the LanceDB tables (``chunks``, ``parents``, ``documents``) and their full-text
  and id indexes; ``rows``: chunks and documents as rows, and the Arrow schema;
* ``matrix``: the vectors in memory for exact search without a scan per query;
* ``fusion``: how a hybrid search merges the vector and word rankings (reciprocal rank);
* ``search``: ``Hit``, the modes, rankings grouped by parent, the ``budget`` of tokens;
  ``folder``: ``Index``, with its searches in ``reading``;
* ``filters``: structured filters on the index's fields (``Filter``), written as SQL literals (a
  ``source`` named by its file name or path); ``unmatched``: why a filtered search found nothing;
  ``batch``: one write's documents (``Cut``). What an update did is a build's report
  (``seamcut.pipeline.BuildReport``; ``UpdateReport``, its old name here, warns).

Updating is per file: an unchanged file (same bytes) is skipped, a changed one has its own rows
replaced, and the embedding cache in the folder means a chunk whose text did not change is never
embedded twice.

Faults: ``journal`` makes a write safe to kill at any moment; ``lock`` lets one process write a
folder at a time (others wait, or say who holds it); ``disk`` tells a full disk from other
failures, and a batch it stops is undone.
"""
from typing import Any

from ..renamed import warn_renamed
from .disk import DiskFullError
from .filters import Filter, FilterError, WhereError
from .folder import Index, IndexOptions
from .fusion import RRF_K, Fusion, ReciprocalRankFusion, Scored
from .lock import Holder, IndexBusyError, remove_index
from .matrix import MATRIX_BYTES
from .rows import searchable
from .search import DEFAULT_MODE, MODES, Hit, Mode, Query, normalise_query
from .settings import FORMAT, PARENT_TEXT_RANKS, SETTINGS_FILE, IndexConfigError, ParentTextRank

__all__ = ["Index", "IndexOptions", "Filter", "FilterError", "WhereError", "Hit", "Query", "Mode", "MODES", "DEFAULT_MODE", "IndexConfigError",
           "IndexBusyError", "DiskFullError", "Holder", "searchable",
           "remove_index", "normalise_query", "Fusion", "ReciprocalRankFusion", "Scored", "RRF_K",
           "MATRIX_BYTES", "SETTINGS_FILE", "FORMAT", "ParentTextRank", "PARENT_TEXT_RANKS"]


def __getattr__(name: str) -> Any:
    """``UpdateReport``: ``Index.update`` returns the build's ``BuildReport`` now (warned)."""
    if name != "UpdateReport":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from ..pipeline.report import BuildReport
    warn_renamed(f"{__name__}.UpdateReport", "seamcut.pipeline.BuildReport", stacklevel=3)
    return BuildReport
