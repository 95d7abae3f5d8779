"""Fuzzing inside pytest (hypothesis over mutated bytes and random Documents), time-boxed, and the
crashes fuzzing found, kept as regression files.

Readers: a seed file of each format (PDF, DOCX, HTML, Markdown, text) mutated (bytes flipped,
inserted, deleted, runs repeated, the rest cut, interesting tokens written in) is a Document with
text or an ``InputError`` naming the file, never another exception. Strategies: random Documents
with random elements keep DESIGN.md's invariants (``tests.helpers.invariants.check_invariants``).
``SEAMCUT_FUZZ_EXAMPLES`` (default 120: 24 files per format, 60 documents per strategy) sizes the hunt; ``fuzz/`` holds
the atheris harnesses for longer runs.
"""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.helpers.fuzzing import FORMATS, mutate, random_document, read_bytes, regression_files, seeds
from tests.helpers.invariants import STRATEGIES, check_invariants, check_tiling

EXAMPLES = int(os.environ.get("SEAMCUT_FUZZ_EXAMPLES", "120"))
FAST = settings(max_examples=EXAMPLES, deadline=None,  # derandomized or not: the profile (conftest)
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
OPS = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 2**20), st.integers(0, 255)), min_size=1, max_size=8)


@pytest.mark.parametrize("suffix", FORMATS)
@settings(FAST, max_examples=max(1, EXAMPLES // len(FORMATS)))
@given(data=st.data(), ops=OPS)
def test_mutated_files_are_read_or_named_errors(tmp_path_factory, suffix, data, ops):
    seed = data.draw(st.sampled_from(seeds()[suffix]))
    read_bytes(mutate(seed, ops), suffix, str(tmp_path_factory.getbasetemp()))


@pytest.mark.parametrize("suffix", FORMATS)
@settings(FAST, max_examples=max(1, EXAMPLES // len(FORMATS)))
@given(body=st.binary(max_size=2000))
def test_random_bytes_are_read_or_named_errors(tmp_path_factory, suffix, body):
    read_bytes(body, suffix, str(tmp_path_factory.getbasetemp()))


PICKS = st.lists(st.tuples(st.integers(0, 20), st.integers(0, 3000), st.integers(0, 3000), st.integers(0, 7)),
                 max_size=12)
TEXT = st.one_of(st.text(max_size=600),
                 st.lists(st.sampled_from(["# Head", "para words here.", "\n", "\n\n", " ", "| a | b |",
                                           "- item", "कपास की बुआई।", "日本語。", "x" * 50]),
                          max_size=60).map("".join))


@pytest.mark.parametrize("strategy", STRATEGIES)
@settings(FAST, max_examples=max(1, EXAMPLES // 2))
@given(text=TEXT, picks=PICKS, pages=st.lists(st.integers(0, 3000), max_size=4),
       unit=st.sampled_from(["tokens", "words", "chars"]), size=st.integers(16, 120),
       overlap_share=st.sampled_from([0, 0, 10, 4]))
def test_random_documents_keep_the_invariants(strategy, text, picks, pages, unit, size, overlap_share):
    if unit == "chars":
        size *= 3
    overlap = size // overlap_share if overlap_share else 0
    check_invariants(random_document(text, picks, pages), strategy, size, overlap, unit, None)


@pytest.mark.parametrize("path", regression_files(), ids=lambda p: p.name)
def test_regression_file_is_read_or_a_named_error(path, tmp_path):
    """Each input a fuzzer crashed seamcut with (tests/robustness/regressions, README there): read
    to a Document or an ``InputError``; a Document keeps the invariants under the strategies that
    follow its elements."""
    got = read_bytes(path.read_bytes(), path.suffix, str(tmp_path))
    if not isinstance(got, Exception):
        for strategy in ("structure", "parent-child", "recursive"):
            if strategy in STRATEGIES:
                check_invariants(got, strategy, 100, 0, "tokens", None)
            else:  # parent-child: its children tile the text (tests/strategies/test_structure.py checks parents)
                import seamcut
                chunks = [c for c in seamcut.chunk(got, strategy=strategy, size=100, overlap=0)
                          if c.parent_id is not None]
                check_tiling(got.text, chunks, 0)

