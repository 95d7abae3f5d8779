"""DESIGN.md's invariants as checks (``tests/test_invariants.py`` states them), for the strategy
tests, the fuzz tests and ``fuzz/fuzz_strategies.py``."""
from __future__ import annotations

import seamcut
from seamcut.strategies import REGISTRY
from seamcut.text import is_blank
from seamcut.tokens import load_sizer, unit_sizer

from .data import minilm_tokenizer_path

STRATEGIES = [s for s in REGISTRY if s != "parent-child"]  # nested spans: tests/strategies/test_structure.py

TOKENIZERS = {
    "default": None,
    "minilm": str(minilm_tokenizer_path()),
    "cl100k": "tiktoken:cl100k_base",
}


def check_invariants(text, strategy: str, size: int, overlap: int, unit: str,
                     tokenizer: str | None, **options) -> list[seamcut.Chunk]:
    """``options``: more of the strategy's options (``context="title+path"``)."""
    doc = text if isinstance(text, seamcut.Document) else None
    text = doc.text if doc else text
    source = doc or text
    chunks = seamcut.chunk(source, strategy=strategy, size=size, overlap=overlap, unit=unit,
                           tokenizer=tokenizer, **options)
    token_sizer = load_sizer(tokenizer)
    limit_sizer = token_sizer if unit == "tokens" else unit_sizer(unit)
    if is_blank(text):
        assert chunks == []
        return chunks
    assert chunks, "non-blank text gave no chunks"
    for c in chunks:
        assert c.body == text[c.start:c.end], "body is not the document span"
        assert c.text == c.context + c.body
        assert not is_blank(c.body), "a chunk of only whitespace"
        assert limit_sizer.count(c.text) <= size, (strategy, unit, limit_sizer.count(c.text), c.text)
        real_tokens = token_sizer.count(c.text)
        assert c.tokens == real_tokens, ("tokens field is not the real count", c.tokens, real_tokens)
        if token_sizer.max_input_tokens:
            assert real_tokens <= token_sizer.max_input_tokens
    check_tiling(text, chunks, overlap)
    again = seamcut.chunk(source, strategy=strategy, size=size, overlap=overlap, unit=unit,
                          tokenizer=tokenizer, **options)
    assert [(c.id, c.start, c.end) for c in again] == [(c.id, c.start, c.end) for c in chunks]
    assert len({c.id for c in chunks}) == len(chunks)
    return chunks


def check_tiling(text: str, chunks: list[seamcut.Chunk], overlap: int) -> None:
    """In document order, no non-whitespace character lost, none repeated without overlap."""
    for a, b in zip(chunks, chunks[1:]):
        assert a.start < b.start and a.end < b.end, "chunks out of order, or one only overlap"
        assert is_blank(text, a.end, b.start), "non-whitespace text lost between chunks"
        if overlap == 0:
            assert a.end <= b.start, "text repeated without overlap"
    assert is_blank(text, 0, chunks[0].start) and is_blank(text, chunks[-1].end)
