"""The unstructured contestant: elements as ``partition_pdf(strategy="fast")`` gives them, chunks
as ``chunk_by_title``/``chunk_elements`` give them called directly, pages and options honoured,
and a refusal where the spaCy model it would download is missing.

Skipped where unstructured (the ``unstructured`` extra, with ``unstructured[pdf]``) is not
installed: it is not in the test environment (spaCy, numba and unstructured-inference with torch
make it several hundred MB)."""
from __future__ import annotations

import os

import pytest

from seamcut.errors import ConfigError, InputError, MissingError
from tests.helpers.data import DATA

os.environ.setdefault("DO_NOT_TRACK", "1")  # unstructured pings its telemetry at import otherwise
pytest.importorskip("unstructured")
pytest.importorskip("unstructured_inference")
spacy = pytest.importorskip("spacy")
from seamcut.peers import unstructured as peer  # noqa: E402

PDF = DATA / "pdfs" / "docling" / "multi_page.pdf"  # 5 born-digital pages with titles
HAS_MODEL = spacy.util.is_package(peer.SPACY_MODEL)
needs_model = pytest.mark.skipif(not HAS_MODEL, reason="spaCy's en_core_web_sm is not installed")


@pytest.fixture(scope="module")
def direct():
    from unstructured.partition.pdf import partition_pdf
    return partition_pdf(filename=str(PDF), strategy="fast")


@pytest.fixture(scope="module")
def pieces():
    return peer.read(str(PDF))


@pytest.mark.skipif(HAS_MODEL, reason="en_core_web_sm is installed here")
def test_refuses_without_the_spacy_model_and_fetches_nothing():
    before = spacy.util.is_package(peer.SPACY_MODEL)
    with pytest.raises(MissingError, match="en_core_web_sm") as err:
        peer.read(str(PDF))
    assert "spacy download" in str(err.value)
    assert spacy.util.is_package(peer.SPACY_MODEL) == before


@needs_model
def test_read_gives_the_elements_with_their_pages(pieces, direct):
    assert [p.text for p in pieces] == [e.text for e in direct]
    assert [p.pages for p in pieces] == [(e.metadata.page_number,) for e in direct]
    assert [p.metadata["category"] for p in pieces] == [e.category for e in direct]
    assert {p.pages[0] for p in pieces} == {1, 2, 3, 4, 5}


@needs_model
@pytest.mark.parametrize("chunker, opts", [("by_title", {}), ("basic", {}),
                                           ("by_title", {"max_characters": 200, "overlap": 20}),
                                           ("basic", {"max_characters": 2000})])
def test_chunks_equal_the_chunker_called_directly(pieces, direct, chunker, opts):
    from unstructured.chunking.basic import chunk_elements
    from unstructured.chunking.title import chunk_by_title
    fn = chunk_by_title if chunker == "by_title" else chunk_elements
    want = fn(direct, **opts)
    got = peer.cut(chunker, pieces, opts)
    assert [c.text for c in got] == [w.text for w in want]
    for c, w in zip(got, want):
        assert c.pages == tuple(sorted({e.metadata.page_number for e in w.metadata.orig_elements}))
    if "max_characters" in opts:
        assert max(len(c.text) for c in got) <= opts["max_characters"]


@needs_model
def test_chunks_span_the_pages(pieces):
    got = peer.cut("basic", pieces, {"max_characters": 2000})
    assert any(len(c.pages) > 1 for c in got)
    assert got[0].pages[0] == 1 and got[-1].pages[-1] == 5


def test_options_are_the_library_keywords():
    opts = peer.options("by_title")
    assert {"max_characters", "new_after_n_chars", "combine_text_under_n_chars",
            "multipage_sections", "overlap"} <= set(opts)
    assert all(v is None for v in opts.values())  # None: unstructured's own default
    assert "combine_text_under_n_chars" not in peer.options("basic")


def test_unknown_chunker_option_and_file(tmp_path):
    with pytest.raises(ConfigError, match="basic, by_title"):
        peer.options("semantic")
    with pytest.raises(ConfigError, match="max_chars"):
        peer.cut("basic", [], {"max_chars": 5})
    if HAS_MODEL:
        with pytest.raises(InputError, match="nothing.pdf"):
            peer.read(str(tmp_path / "nothing.pdf"))
