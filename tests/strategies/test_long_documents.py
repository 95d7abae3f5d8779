"""A long document chunked a window at a time (``seamcut.strategies.long_documents``): every invariant
of DESIGN.md holds with windows (a tiny ``window_chars`` here, so random text has many), no chunk
crosses a border, and where the borders fall where a strategy cuts anyway the windowed chunks are
the whole run's, ids included."""
from __future__ import annotations

import os
import re

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import seamcut
from seamcut.api import chunk, iter_chunks
from seamcut.model import Document
from seamcut.outline import Outline
from seamcut.readers.markdown import markdown_elements
from seamcut.strategies import REGISTRY
from seamcut.strategies.chunks import chunk_id, first_word
from seamcut.strategies.long_documents import WINDOW_CHARS, borders, windows
from seamcut.text import is_blank
from seamcut.tokens import load_sizer, unit_sizer

from tests.helpers.data import DATA
from tests.helpers.invariants import TOKENIZERS, check_tiling
from tests.helpers.random_text import RANDOM_TEXT, markdown_docs, sizes

SETTINGS = settings(max_examples=int(os.environ.get("SEAMCUT_EXAMPLES", "25")), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
#: parent-child's nested spans are checked on their own below; semantic embeds every sentence
FLAT = [s for s in REGISTRY if s not in ("parent-child", "semantic")]


def check_windowed(doc: Document, strategy: str, window: int, size: int, overlap: int,
                   unit: str, tokenizer: str | None, **options) -> list[seamcut.Chunk]:
    """DESIGN.md's invariants on ``doc`` chunked in windows of ``window`` code points, and no
    chunk across a border."""
    text = doc.text
    got = chunk(doc, strategy, size=size, overlap=overlap, unit=unit, tokenizer=tokenizer,
                window_chars=window, **options)
    if is_blank(text):
        assert got == []
        return got
    bounds = [0, *borders(doc, window), len(text)]
    assert all(0 < b - a <= window for a, b in zip(bounds, bounds[1:]))
    token_sizer = load_sizer(tokenizer)
    limit_sizer = token_sizer if unit == "tokens" else unit_sizer(unit)
    fingerprint = REGISTRY[strategy][1](size=size, overlap=overlap, unit=unit, tokenizer=tokenizer,
                                        **options).fingerprint(strategy, token_sizer)
    for c in got:
        assert c.body == text[c.start:c.end] and c.text == c.context + c.body
        assert not is_blank(c.body)
        assert any(a <= c.start and c.end <= b for a, b in zip(bounds, bounds[1:])), \
            ("a chunk crosses a window border", c.start, c.end, bounds)
        assert c.id == chunk_id(doc.id, c.start, c.end, c.metadata["config"], c.text), \
            "the id of another span"
        assert c.doc_id == doc.id and c.source == doc.source
        assert c.tokens == token_sizer.count(c.text)
        if strategy != "parent-child" or c.metadata["role"] == "child":  # parents: their own
            assert c.metadata["config"] == fingerprint
            assert limit_sizer.count(c.text) <= size
            if token_sizer.max_input_tokens:
                assert c.tokens <= token_sizer.max_input_tokens
    again = list(iter_chunks(doc, strategy, size=size, overlap=overlap, unit=unit,
                             tokenizer=tokenizer, window_chars=window, **options))
    key = [(c.id, c.start, c.end, c.text, c.parent_id) for c in got]
    assert [(c.id, c.start, c.end, c.text, c.parent_id) for c in again] == key
    assert len({c.id for c in got}) == len(got)
    return got


@pytest.mark.parametrize("strategy", FLAT)
@SETTINGS
@given(text=RANDOM_TEXT, params=sizes(), window=st.integers(2, 400))
@example(text="x" * 900, params=("tokens", "default", 16, 0), window=100)  # no boundary at all
@example(text="a b\n\nc d\n" * 60, params=("chars", "default", 20, 5), window=37)
def test_invariants_in_windows_on_random_text(strategy, text, params, window):
    unit, tok, size, overlap = params
    doc = Document.from_text(text, source="random.txt")
    got = check_windowed(doc, strategy, window, size, overlap, unit, TOKENIZERS[tok])
    if got:
        check_tiling(text, got, overlap)
    outline = Outline(doc)
    for c in got:
        assert c.heading_path == outline.path_at(first_word(text, c.start, c.end))


@pytest.mark.parametrize("strategy", ["structure", "recursive", "paragraph"])
@SETTINGS
@given(text=markdown_docs(), size=st.integers(40, 200), window=st.integers(20, 600),
       tok=st.sampled_from(["default", "minilm"]), overlap=st.sampled_from([0, 10]))
# opening headings that do not fit with what follows: the piece of them alone is under its own
# last heading, not the section's deeper path (both found by hypothesis)
@example(text="# Cotton.\n\n## Cotton aphid aphid aphid aphid aphid aphid aphid\n", size=40,
         window=600, tok="default", overlap=0)
@example(text="# Cotton.\n\n## " + " ".join(["Cotton"] * 15)
         + "\n\n## Cotton cotton cotton whitefly whitefly\n", size=40, window=600, tok="default",
         overlap=0)
def test_invariants_in_windows_on_random_markdown(strategy, text, size, window, tok, overlap):
    doc = Document(text=text, source="random.md", elements=markdown_elements(text))
    got = check_windowed(doc, strategy, window, size, overlap, "tokens", TOKENIZERS[tok])
    check_tiling(text, got, overlap)
    cuts = borders(doc, window)
    if any(e.start < b < e.end for b in cuts for e in doc.elements if e.kind == "heading"):
        return  # a window too small for a heading: the parts are plain text
    # the whole document's heading paths, though a window may not hold the headings: the
    # section's (structure) or the one where the chunk's first word stands (the others)
    outline = Outline(doc)
    for c in got:
        if strategy == "structure":
            assert c.heading_path in {outline.path_at(c.start)} | {
                outline.path_at(e.start) for e in doc.elements if c.start <= e.start < c.end}
        else:
            assert c.heading_path == outline.path_at(first_word(text, c.start, c.end))


@SETTINGS
@given(text=markdown_docs(), size=st.integers(40, 120), window=st.integers(20, 600),
       parents=st.sampled_from(["sections", "blocks"]))
def test_parent_child_in_windows(text, size, window, parents):
    doc = Document(text=text, source="random.md", elements=markdown_elements(text))
    got = check_windowed(doc, "parent-child", window, size, 0, "tokens", None,
                         parent_size=4 * size, parents=parents)
    by_id = {c.id: c for c in got}
    kids = [c for c in got if c.metadata["role"] == "child"]
    for c in kids:
        p = by_id[c.parent_id]  # the parent's id in the whole document's offsets
        assert p.metadata["role"] == "parent" and p.start <= c.start and c.end <= p.end
    check_tiling(text, sorted(kids, key=lambda c: c.start), 0)


@SETTINGS
@given(text=st.lists(st.sampled_from(["The cotton crop needs water.", "कपास को पानी चाहिए।",
                                      "Whitefly numbers rise in July!"]), min_size=2, max_size=14)
       .map(" ".join), window=st.integers(40, 200))
def test_semantic_in_windows(text, window):
    doc = Document.from_text(text, source="semantic.txt")
    got = check_windowed(doc, "semantic", window, 64, 0, "tokens", None, min_size=0)
    check_tiling(text, got, 0)


# -- where the borders fall where the strategy cuts anyway, windows change nothing -------------

def _prose_paragraphs() -> list[str]:
    path = DATA / "prose" / "000.txt"
    if not path.is_file():
        pytest.skip(f"test data not found at {path}")
    paras = [re.sub(r"\s+", " ", p).strip() for p in path.read_text(encoding="utf-8").split("\n\n")]
    return [p for p in paras if 600 < len(p) < 2500]


def _fields(chunks: list[seamcut.Chunk]) -> list[dict]:
    return [c.to_dict() for c in chunks]


@pytest.mark.parametrize("strategy,options", [
    ("structure", {}), ("structure", {"overlap": 0, "join_blocks": False}),
    ("parent-child", {}), ("parent-child", {"parents": "blocks"})])
def test_windows_at_headings_give_the_whole_runs_chunks(strategy, options):
    """``structure`` opens a new chunk at every heading, so windows cut before headings change
    nothing: the same spans, texts, contexts, heading paths, tokens, ids and parents."""
    paras = _prose_paragraphs()[:60]
    parts = ["# Novel"]
    for i in range(0, len(paras), 3):
        parts.append(f"## Chapter {i // 3 + 1}")
        parts.extend(paras[i:i + 3])
    text = "\n\n".join(parts) + "\n"
    doc = Document(text=text, source="novel.md", elements=markdown_elements(text))
    window = 12_000
    heads = {e.start for e in doc.elements if e.kind == "heading"}
    cuts = borders(doc, window)
    assert len(cuts) >= 5 and all(text[c:].lstrip() and c + 2 in heads for c in cuts)
    whole = chunk(doc, strategy, window_chars=len(text), **options)
    assert _fields(chunk(doc, strategy, window_chars=window, **options)) == _fields(whole)
    # the title is in every chapter's path, though only the first window holds it
    assert all(c.heading_path[0] == "Novel" for c in whole)


@pytest.mark.parametrize("strategy", ["recursive", "paragraph"])
def test_windows_at_paragraph_breaks_give_the_whole_runs_chunks(strategy):
    """Paragraphs of 160 to 290 tokens at size 300 without overlap: each paragraph is a chunk
    (two never fit together) in the whole run, so windows cut at paragraph breaks give the same
    chunks."""
    paras = _prose_paragraphs()
    sizer = load_sizer(None)
    paras = [p for p in paras if 160 <= sizer.count(p) <= 290][:40]
    text = "\n\n".join(paras) + "\n"
    doc = seamcut.Document.from_text(text, source="prose.txt")
    whole = chunk(doc, strategy, overlap=0, window_chars=len(text))
    ends = {c.end for c in whole}
    window = 6_000
    cuts = borders(doc, window)
    assert len(cuts) >= 4 and all(c in ends for c in cuts), "a border the whole run does not cut at"
    assert _fields(chunk(doc, strategy, overlap=0, window_chars=window)) == _fields(whole)


def test_below_the_window_nothing_changes():
    text = "First paragraph here.\n\nSecond one, a little longer than the first.\n" * 40
    assert len(text) < WINDOW_CHARS
    default = chunk(text, "recursive", size=40, overlap=8)
    assert default == chunk(text, "recursive", size=40, overlap=8, window_chars=len(text))


# -- borders -------------------------------------------------------------------------------------

def test_borders_take_the_strongest_boundary_in_reach():
    para = "One sentence here. Another one there.\nA line after a break, with a comma"
    text = "\n\n".join([para] * 40)
    doc = Document.from_text(text)
    for cut in borders(doc, 500):
        assert text[cut:cut + 2] == "\n\n", "not cut at a blank line"
    one_line = ("Words and more words, then a full stop. " * 200)
    for cut in borders(Document.from_text(one_line), 300):
        assert one_line[cut - 1] == "." and one_line[cut] == " ", "not cut at a sentence end"
    word = "x" * 1000
    assert borders(Document.from_text(word), 300) == [300, 600, 900]


def test_windows_shift_elements_pages_and_tables():
    text = "# Title\n\n| A | B |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\nA paragraph that is long.\n"
    doc = Document(text=text, source="t.md", elements=markdown_elements(text),
                   page_starts=(0, 30))
    parts = list(windows(doc, 60))
    assert "".join(w.text for w in parts) == text
    for w in parts:
        assert w.id == doc.id and w.text == text[w.offset:w.offset + len(w.text)]
        assert w.page_starts == tuple(p - w.offset for p in doc.page_starts)
        for e in w.elements:
            assert 0 <= e.start < e.end <= len(w.text)
            for a, b in e.metadata.get("row_spans", ()):
                assert text[a + w.offset:b + w.offset].startswith("|")
    table = next(e for e in doc.elements if e.kind == "table")
    assert any(e.kind == "table" and e.metadata.get("row_spans") for w in parts for e in w.elements
               if e.start + w.offset == table.start and e.end + w.offset == table.end)


def test_iter_chunks_refuses_bad_options_before_any_chunk():
    with pytest.raises(ValueError, match="unknown strategy"):
        iter_chunks("text", "nope")
    with pytest.raises(ValueError, match="window_chars"):
        iter_chunks("text", "recursive", window_chars=1)
