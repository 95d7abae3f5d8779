"""Other libraries' pipelines as contestants in ``compare`` and ``tune``: their readers and
chunkers run as their users run them, their chunks judged as seamcut's strategies are.

    spec.py      a contestant as one value: ``langchain:recursive:chunk_size=1000``, ``chunks:PATH``
    base.py      the contract an adapter keeps (``Library``, ``Piece``)
    layout.py    a library's reading and chunks laid end to end as seamcut's Document and Chunks
    made.py      chunks made anywhere, from a JSONL file
    langchain.py, llamaindex.py, chonkie.py, unstructured.py, pymupdf4llm.py, docling.py: the adapters

Each library is an optional extra (``pip install 'seamcut[langchain]'``); none is imported until a
contestant names it.
"""
from __future__ import annotations

from .base import Library, Piece
from .spec import (CONTESTANTS, LIBRARIES, AnySpec, ChunksSpec, PeerReader, PeerSpec, described, is_contestant,
                   is_peer, library, parse_contestant, parse_peer)

__all__ = ["Library", "Piece", "CONTESTANTS", "AnySpec", "is_contestant", "LIBRARIES", "ChunksSpec", "PeerReader", "PeerSpec", "described", "is_peer", "library",
           "parse_contestant", "parse_peer"]
