"""The semantic strategy: breakpoints, the hard maximum, and cutting where topics change."""
from __future__ import annotations

import re

import numpy as np
import pytest

import seamcut
from seamcut.strategies.semantic import breakpoints
from seamcut.tokens import load_sizer

from tests.helpers.data import DATA
from tests.helpers.invariants import check_invariants


def test_breakpoint_modes():
    d = np.array([0.1, 0.12, 0.5, 0.11, 0.13, 0.09, 0.6, 0.1])
    assert breakpoints(d, "percentile", 80).tolist() == [2, 6]
    assert breakpoints(d, "standard_deviation", 1.0).tolist() == [2, 6]
    assert breakpoints(d, "interquartile", 1.5).tolist() == [2, 6]
    assert set(breakpoints(d, "gradient", 80).tolist()) <= {1, 2, 3, 5, 6, 7}
    assert breakpoints(np.zeros(0), "percentile").tolist() == []
    with pytest.raises(ValueError):
        seamcut.chunk("a. b.", strategy="semantic", threshold="magic")


def sentences_of(name: str, n: int) -> list[str]:
    text = (DATA / "chroma_eval" / "corpora" / name).read_text(encoding="utf-8")
    out = [s for s in re.split(r"(?<=[.!?])\s+", " ".join(text.split())) if 40 < len(s) < 300]
    return out[:n]


@pytest.fixture(scope="module")
def stitched() -> list[tuple[str, list[int]]]:
    """Documents stitched from blocks of 8 sentences of unrelated corpora, with the stitches."""
    if not DATA.is_dir():
        pytest.skip(f"test data not found at {DATA}")
    topics = [sentences_of(n, 24) for n in ("pubmed.md", "finance.md", "state_of_the_union.md",
                                              "wikitexts.md")]
    docs = []
    for k in range(2):
        blocks = [topics[(k + i) % 4][8 * k:8 * k + 8] for i in range(4)]
        text, stitches = "", []
        for b in blocks:
            if text:
                stitches.append(len(text))
                text += " "
            text += " ".join(b)
        docs.append((text, stitches))
    return docs


def stitch_hits(chunks, stitches, slack=40) -> int:
    cuts = [c.start for c in chunks[1:]]
    return sum(any(abs(c - s) <= slack for c in cuts) for s in stitches)


def test_semantic_cuts_at_topic_stitches_more_often_than_fixed(stitched):
    sem_hits = fixed_hits = total = 0
    for text, stitches in stitched:
        sem = seamcut.chunk(text, strategy="semantic", size=250, min_size=40)
        fix = seamcut.chunk(text, strategy="fixed", size=250, overlap=0)
        sem_hits += stitch_hits(sem, stitches)
        fixed_hits += stitch_hits(fix, stitches)
        total += len(stitches)
        assert sem[0].metadata["semantic"]["embeddings"] > 10
    print(f"stitches found: semantic {sem_hits}/{total}, fixed {fixed_hits}/{total}")
    assert sem_hits > fixed_hits
    assert sem_hits >= total / 2


def test_semantic_keeps_the_hard_maximum_and_the_invariants(stitched):
    text, _ = stitched[0]
    long_sentence = " ".join(["The farmer and the neighbour walked"] * 60) + "."
    doc = text + " " + long_sentence + " " + text[:2000]
    for size in (60, 150):
        chunks = check_invariants(doc, "semantic", size, 0, "tokens", None)
        assert max(c.tokens for c in chunks) <= size
    sizer = load_sizer()
    assert all(sizer.count(c.text) <= 150 for c in seamcut.chunk(doc, strategy="semantic", size=150))
