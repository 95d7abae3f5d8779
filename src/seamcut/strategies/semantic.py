"""Semantic chunking, breakpoint-based, as the guide describes it: split into sentences, embed
each (with a small window of neighbours), measure the distance between neighbours, and cut where
it passes a threshold. Unlike LangChain's and LlamaIndex's semantic chunkers it has a hard
maximum: a group of sentences over the size limit is packed into chunks of whole sentences (and a
sentence over it cut further), so no chunk is ever over the limit; a group under ``min_size``
joins the neighbour it is closest to. It costs one embedding per sentence: the number and the
seconds are reported (logged, and on every chunk's metadata under ``semantic``).
"""
from __future__ import annotations

import dataclasses
import logging
import re
import time

import numpy as np

from ..model import Chunk, Document
from ..text import SPACE, is_blank
from ..text.space import strip_space
from .config import SemanticConfig, SizeConfig, as_config
from .size_limit import Reserve, SizeLimit, plus
from .chunks import as_document, make_chunks
from .context import Contexts
from .window_outline import outline_of
from .pieces import SENTENCE, SENTENCE_LEVELS, Piece, pack, split, within_top
from ..errors import ConfigError

log = logging.getLogger("seamcut.semantic")

_SPACE_RUN = re.compile(f"[{SPACE}]+")

_DEFAULT_AMOUNT = {"percentile": 95.0, "standard_deviation": 3.0, "interquartile": 1.5,
                   "gradient": 95.0}


def breakpoints(distances: np.ndarray, mode: str, amount: float | None = None) -> np.ndarray:
    """Indexes ``i`` where a cut goes between sentence ``i`` and ``i + 1``."""
    if len(distances) == 0:
        return np.zeros(0, dtype=np.int64)
    amount = _DEFAULT_AMOUNT[mode] if amount is None else amount
    if mode == "percentile":
        values, limit = distances, np.percentile(distances, amount)
    elif mode == "standard_deviation":
        values, limit = distances, distances.mean() + amount * distances.std()
    elif mode == "interquartile":
        q1, q3 = np.percentile(distances, [25, 75])
        values, limit = distances, distances.mean() + amount * (q3 - q1)
    elif mode == "gradient":
        values = np.gradient(distances) if len(distances) > 1 else distances
        limit = np.percentile(values, amount)
    else:
        raise ConfigError(f"unknown threshold mode {mode!r}")
    return np.flatnonzero(values > limit)


def semantic(document: Document | str, config: SizeConfig = SemanticConfig()) -> list[Chunk]:
    """Cut where the meaning of neighbouring sentences changes, within the size limit."""
    doc = as_document(document)
    if is_blank(doc.text):
        return []
    cfg = as_config(config, SemanticConfig)
    limit = SizeLimit(doc.text, cfg)
    ctx = Contexts(doc, cfg, limit, outline_of(doc))
    reserve, overlap = ctx.reserve()
    spans = sentence_spans(doc)
    groups, computed, tokens, seconds = group_sentences(doc.text, spans, limit, cfg,
                                                        reserve=plus(reserve, overlap))
    log.info("%s: %d sentence embeddings (%d model tokens computed) in %.2f s", doc.source or "text",
             computed, tokens, seconds)
    # the shared passes: each group's sentences cut to fit, packed within the group, overlap,
    # contexts
    pieces: list[Piece] = []
    for (a, b), g in zip(spans, groups):
        pieces.extend(split(limit, SENTENCE_LEVELS, a, b, g, doc.language, 1,
                            reserve=plus(reserve, overlap)))
    out = pack(limit, pieces, within_top, overlap, reserve=reserve)
    fp = cfg.fingerprint("semantic", limit.token_sizer)
    chunks = make_chunks(doc, ctx.drafts(out), limit, "semantic", fp, ctx.outline)
    stats = {"embeddings": computed, "tokens": tokens, "seconds": round(seconds, 3)}
    return [_with_stats(c, stats) for c in chunks]


def sentence_spans(doc: Document) -> list[tuple[int, int]]:
    """The document's sentences that are not only whitespace, as ``[start, end)`` (code points)."""
    text = doc.text
    cuts = SENTENCE.cuts(text, 0, len(text), doc.language)
    return [(a, b) for a, b in zip([0, *cuts], [*cuts, len(text)]) if not is_blank(text, a, b)]


def group_sentences(text: str, spans: list[tuple[int, int]], limit: SizeLimit,
                    cfg: SemanticConfig, reserve: Reserve) -> tuple[list[int], int, int, float]:
    """The group of every sentence (cut at the breakpoints, split where a group is over the
    limit with ``reserve`` units kept free (overlap, context); a group under ``min_size``
    joined to its nearer neighbour), the number of embeddings
    asked for, the model tokens the model computed for them (those found in an embedding cache
    not counted) and the seconds they took."""
    from ..embed import load_embedder

    if len(spans) < 2:
        log.debug("one sentence: nothing to compare")
        return [0] * len(spans), 0, 0, 0.0
    sentences = [_SPACE_RUN.sub(" ", strip_space(text[a:b])) for a, b in spans]
    w = cfg.window
    windows = [" ".join(sentences[max(0, i - w):i + w + 1]) for i in range(len(sentences))]
    embedder = load_embedder(cfg.embedder)
    texts = _fit(windows, embedder)
    before = getattr(embedder, "computed_tokens", None)
    started = time.perf_counter()
    vectors = embedder.embed_passages(texts)
    seconds = time.perf_counter() - started
    after = getattr(embedder, "computed_tokens", None)
    tokens = after - before if before is not None and after is not None else sum(embedder.count_tokens(texts))
    distances = 1.0 - np.einsum("ij,ij->i", vectors[:-1], vectors[1:])
    cuts_at = breakpoints(distances, cfg.threshold, cfg.amount).tolist()
    ranges = []
    for i, j in zip([0, *[c + 1 for c in cuts_at]], [*cuts_at, len(spans) - 1]):
        ranges.extend(_split_to_fit(i, j, spans, distances, limit, reserve))
    ranges = _join_small(ranges, spans, distances, limit, cfg.min_size, reserve)
    groups = [0] * len(spans)
    for g, (i, j) in enumerate(ranges):
        groups[i:j + 1] = [g] * (j - i + 1)
    return groups, len(windows), tokens, seconds


def _with_stats(chunk: Chunk, stats: dict) -> Chunk:
    return dataclasses.replace(chunk, metadata={**chunk.metadata, "semantic": stats})


def _fit(texts: list[str], embedder: object) -> list[str]:
    """Windows longer than the model's input fall back to fewer words (a window is only for
    measuring distance; the chunks keep their full text)."""
    sizer = getattr(embedder, "sizer", None)
    limit = getattr(embedder, "max_input_tokens", None)
    if sizer is None or limit is None:
        return texts
    out = []
    for t in texts:
        while sizer.count(t) > limit and len(t) > 1:
            t = t[: len(t) * 3 // 4]
        out.append(t)
    return out


def _split_to_fit(i: int, j: int, spans: list[tuple[int, int]], distances: np.ndarray,
                  limit: SizeLimit, reserve: Reserve) -> list[tuple[int, int]]:
    """Sentences ``i..j`` as one group where they fit; else cut at the largest distance between
    them and try each side again (a single sentence over the limit is cut later, inside)."""
    if i == j or limit.fits(spans[i][0], spans[j][1], reserve):
        return [(i, j)]
    k = i + int(np.argmax(distances[i:j]))
    return (_split_to_fit(i, k, spans, distances, limit, reserve)
            + _split_to_fit(k + 1, j, spans, distances, limit, reserve))


def _join_small(ranges: list[tuple[int, int]], spans: list[tuple[int, int]],
                distances: np.ndarray, limit: SizeLimit, min_size: int,
                reserve: Reserve) -> list[tuple[int, int]]:
    """A group smaller than ``min_size`` joins the neighbouring group it is closer to (the
    smaller distance at the border), where the two fit together."""
    if min_size <= 0:
        return ranges
    ranges = list(ranges)
    measure = limit.unit_measure
    k = 0
    while k < len(ranges):
        i, j = ranges[k]
        if measure.count(spans[i][0], spans[j][1]) - measure.overhead >= min_size or len(ranges) == 1:
            k += 1
            continue
        left = distances[i - 1] if k > 0 else np.inf
        right = distances[j] if k + 1 < len(ranges) else np.inf
        for side in sorted((("left", left), ("right", right)), key=lambda x: x[1]):
            if side[1] == np.inf:
                continue
            other = k - 1 if side[0] == "left" else k + 1
            a, b = min(ranges[k][0], ranges[other][0]), max(ranges[k][1], ranges[other][1])
            if limit.fits(spans[a][0], spans[b][1], reserve):
                ranges[min(k, other)] = (a, b)
                del ranges[max(k, other)]
                k = max(0, min(k, other) - 1)
                break
        else:
            k += 1
    return ranges
