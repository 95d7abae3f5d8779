"""Diagnose chunks made by any tool: the guide's three checks and then some.

``inspect_chunks`` takes chunks in document order (seamcut's own, LangChain ``Document`` dumps,
LlamaIndex nodes, or any records with a text field; ``load_chunks`` reads them from JSON/JSONL)
and reports, as plain dataclasses:

- sizes of each chunk's embedded text in characters, words and the model's tokens (special tokens
  and prefix included), with the share over a stated limit;
- the real overlap between neighbours, from offsets where the chunks carry them, else by locating
  each chunk in its source document (every occurrence is considered and the placement that leaves
  the least text out is taken, so repeated text does not fool it), else by the longest
  suffix/prefix match at word boundaries;
- truncation: chunks over the model's maximum input and the tokens past it;
- coverage: non-whitespace text of the sources in no chunk, and chunk text not in the sources;
- tokenizer traps: a tokenizer file with truncation or padding switched on.

All offsets are code-point indexes into the source document's text.
"""
from __future__ import annotations

from .findings import Coverage, Foreign, Inspection, Pair, SizeStats, Uncovered
from .inspection import inspect_chunks, load_sources
from .overlap import OVERLAP_FREE, strategy_overlaps
from .placement import MAX_OCCURRENCES, MAX_TRANSITIONS  # noqa: F401  (public limits, as before)
from .records import ChunkRecord, as_records, load_chunks, record_from_dict

__all__ = ["ChunkRecord", "SizeStats", "Pair", "Uncovered", "Foreign", "Coverage", "Inspection",
           "OVERLAP_FREE", "strategy_overlaps", "inspect_chunks", "load_chunks", "load_sources",
           "record_from_dict", "as_records"]
