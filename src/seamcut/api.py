"""``seamcut.chunk``: a text or document cut by a named strategy (the strategies' layer; the
evaluation and the integrations cut through it too). ``iter_chunks`` gives the same chunks one
window of a long document at a time, so a caller that writes them as they come holds one
window's chunks, not the document's."""
from __future__ import annotations

from typing import Any, Iterator

from .errors import ConfigError
from .model import Chunk, Document
from .strategies import DEFAULT_STRATEGY, REGISTRY
from .strategies.held import ModelInputWarning, warn_held
from .strategies.spec import StrategySpec
from .strategies.long_documents import WINDOW_CHARS, chunk_windows


def chunk(text_or_document: str | Document, strategy: "str | StrategySpec" = DEFAULT_STRATEGY,
          size: int | None = None,
          overlap: int | None = None, unit: str = "tokens", tokenizer: Any = None,
          window_chars: int = WINDOW_CHARS, **options: Any) -> list[Chunk]:
    """Cut a text or a ``Document`` into chunks.

    ``size`` and ``overlap`` are in ``unit``: ``"tokens"`` of the embedding model (``tokenizer``;
    None = the default multilingual-e5-small, special tokens and prefix included), ``"words"`` or
    ``"chars"``; None takes the strategy's default (300 and 50; parent-child's children 100 and
    0). ``strategy`` is one of ``fixed``, ``sentence``, ``paragraph``, ``recursive``,
    ``structure`` (the default, as ``seamcut chunk`` and ``seamcut index`` cut), ``semantic``,
    ``parent-child``; other keyword options go to that strategy's
    config (e.g. ``within_paragraph=True``, ``merge_siblings=True``, ``parent_size=800``).
    ``strategy`` may also be a ``seamcut.strategies.spec.StrategySpec`` (``parse_spec``'s): its
    config is used as it is, parsed and checked once where the spec was made (the options given
    here, where any, over its own).

    ``window_chars``: a document longer than this many code points (default ``WINDOW_CHARS``,
    1,000,000) is chunked in windows of at most that many, cut at its strongest boundaries
    (headings, blocks, blank lines, ...); no chunk crosses a window border, so there the chunk
    after it has no overlap with the one before (``seamcut.strategies.long_documents``).

    Where ``size`` is in words or characters and the model's maximum input holds chunks below
    it, a ``ModelInputWarning`` says how many and what size they got (each such chunk has
    ``held_by_model`` in its metadata).
    """
    return list(iter_chunks(text_or_document, strategy, size, overlap, unit, tokenizer,
                            window_chars, **options))


def iter_chunks(text_or_document: str | Document, strategy: "str | StrategySpec" = DEFAULT_STRATEGY,
                size: int | None = None, overlap: int | None = None, unit: str = "tokens",
                tokenizer: Any = None, window_chars: int = WINDOW_CHARS,
                **options: Any) -> Iterator[Chunk]:
    """``chunk``'s chunks, in order, made a window at a time as they are asked for (a bad
    strategy or option raises here, before any is made)."""
    if not isinstance(strategy, StrategySpec) and strategy not in REGISTRY:
        raise ConfigError(f"unknown strategy {strategy!r}; choose from {', '.join(REGISTRY)}")
    if not isinstance(window_chars, int) or window_chars < 2:
        raise ConfigError(f"window_chars must be a whole number of code points, at least 2; "
                          f"got {window_chars!r}")
    if isinstance(strategy, StrategySpec):  # made and checked once, where it was parsed
        given = {k: v for k, v in (("size", size), ("overlap", overlap), ("tokenizer", tokenizer)) if v is not None}
        spec = strategy.with_options({**given, **({"unit": unit} if unit != "tokens" else {}), **options})
        fn, config = REGISTRY[spec.name][0], spec.config
    else:
        fn, config_cls = REGISTRY[strategy]
        sizes = {k: v for k, v in (("size", size), ("overlap", overlap)) if v is not None}
        config = config_cls(unit=unit, tokenizer=tokenizer, **sizes, **options)
    doc = Document.from_text(text_or_document) if isinstance(text_or_document, str) else text_or_document
    return warn_held(chunk_windows(doc, fn, config, window_chars), config)
