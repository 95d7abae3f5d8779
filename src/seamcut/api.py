"""``seamcut.chunk``: a text or document cut by a named strategy (the strategies' layer; the
evaluation and the integrations cut through it too)."""
from __future__ import annotations

from typing import Any

from .model import Chunk, Document
from .strategies import REGISTRY


def chunk(text_or_document: str | Document, strategy: str = "recursive", size: int | None = None,
          overlap: int | None = None, unit: str = "tokens", tokenizer: Any = None,
          **options: Any) -> list[Chunk]:
    """Cut a text or a ``Document`` into chunks.

    ``size`` and ``overlap`` are in ``unit``: ``"tokens"`` of the embedding model (``tokenizer``;
    None = the default multilingual-e5-small, special tokens and prefix included), ``"words"`` or
    ``"chars"``; None takes the strategy's default (300 and 50; parent-child's children 100 and
    0). ``strategy`` is one of ``fixed``, ``sentence``, ``paragraph``, ``recursive``,
    ``structure``, ``semantic``, ``parent-child``; other keyword options go to that strategy's
    config (e.g. ``within_paragraph=True``, ``merge_siblings=True``, ``parent_size=800``).
    """
    try:
        fn, config_cls = REGISTRY[strategy]
    except KeyError:
        raise ValueError(f"unknown strategy {strategy!r}; choose from {', '.join(REGISTRY)}") from None
    sizes = {k: v for k, v in (("size", size), ("overlap", overlap)) if v is not None}
    config = config_cls(unit=unit, tokenizer=tokenizer, **sizes, **options)
    doc = Document.from_text(text_or_document) if isinstance(text_or_document, str) else text_or_document
    return fn(doc, config)
