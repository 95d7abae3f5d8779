"""``seamcut.boxes`` on real documents: a span's boxes, a chunk crossing a page break boxed on
both pages, every chunk's ``metadata["boxes"]`` (parents too), and the boxes kept through the read
cache's JSON and an index's rows."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import seamcut
from seamcut import document_json
from seamcut.boxes import Box, LineIndex, span_boxes
from seamcut.index.rows import chunk_from_row, chunk_row, document_fields, document_row
from seamcut.readers.pdf import read_pdf
from tests.helpers.data import DATA, HELPLINE

PDFS = DATA / "pdfs"
DOCS = [HELPLINE / "cotton-manual.pdf", HELPLINE / "soybean-manual-hi.pdf",
        PDFS / "docling" / "redp5110_sampled.pdf"]


@lru_cache(maxsize=None)
def _doc(p: Path) -> seamcut.Document:
    if not p.exists():
        pytest.skip(f"test PDF not found: {p}")
    return read_pdf(p)


def _lines(doc) -> list[tuple[int, int, int, int, list[float]]]:
    """(element index, page, start, end, box) of every line of ``doc``."""
    return [(k, e.page, a, b, box) for k, e in enumerate(doc.elements)
            for a, b, *box in e.metadata.get("lines", [])]


def _touched(doc, start: int, end: int) -> set[tuple[int, int]]:
    return {(a, b) for _, _, a, b, _ in _lines(doc) if a < end and b > start}


def test_a_span_inside_one_line_gets_that_lines_box():
    doc = _doc(DOCS[0])
    k, page, a, b, box = next(ln for ln in _lines(doc) if ln[3] - ln[2] > 20)
    assert span_boxes(doc, a + 3, b - 3) == (Box(page, *box),)
    assert span_boxes(doc, a, a) == ()
    assert Box(page, *box).to_list() == [page, *box]


def test_lines_of_one_element_merge_and_elements_stay_apart():
    doc = _doc(DOCS[0])
    el = next(e for e in doc.elements if len(e.metadata.get("lines", [])) >= 3)
    (box,) = span_boxes(doc, el.start, el.end)
    assert [box.x0, box.top, box.x1, box.bottom] == el.metadata["bbox"] and box.page == el.page
    i = doc.elements.index(el)
    nxt = doc.elements[i + 1]
    got = span_boxes(doc, el.start, nxt.end)
    assert [[b.x0, b.top, b.x1, b.bottom] for b in got] == [el.metadata["bbox"], nxt.metadata["bbox"]]


def test_a_chunk_crossing_a_page_break_has_boxes_on_both_pages():
    doc = _doc(DOCS[0])
    chunks = seamcut.chunk(doc, "fixed", size=200)
    crossing = [c for c in chunks if len(c.pages) > 1]
    assert crossing
    for c in crossing:
        pages = {b[0] for b in c.metadata["boxes"]}
        assert pages == set(c.pages), (c.pages, c.metadata["boxes"])


def test_every_chunk_carries_its_spans_boxes_parents_too():
    doc = _doc(DOCS[0])
    index = LineIndex(doc)
    for strategy in ("structure", "parent-child", "recursive"):
        chunks = seamcut.chunk(doc, strategy)
        assert chunks
        for c in chunks:
            assert c.metadata["boxes"] == [b.to_list() for b in index.boxes(c.start, c.end)]
            assert c.metadata["boxes"]  # every chunk of this document has text on a page
            assert {b[0] for b in c.metadata["boxes"]} <= set(c.pages)
            assert "page_sizes" not in c.metadata  # the document's, kept once with it
        if strategy == "parent-child":
            assert any(c.metadata.get("role") == "parent" for c in chunks)
    # ids do not depend on the boxes: a document without them cuts to the same ids
    bare = seamcut.Document(text=doc.text, source=doc.source, elements=tuple(
        type(e)(e.kind, e.start, e.end, e.level, e.page, e.language,
                {k: v for k, v in e.metadata.items() if k not in ("bbox", "lines")})
        for e in doc.elements), page_starts=doc.page_starts, metadata=doc.metadata)
    plain = seamcut.chunk(bare, "structure")
    assert [c.id for c in plain] == [c.id for c in seamcut.chunk(doc, "structure")]
    assert all("boxes" not in c.metadata for c in plain)


@pytest.mark.parametrize("window", [700, 2_500])
def test_a_document_chunked_in_windows_gets_the_same_boxes(window):
    """A long document is chunked a window at a time (``strategies.long_documents``): an element cut at a
    window border keeps its lines, and boxes are looked up in the whole document's offsets, so
    each chunk has the boxes of its span in the whole document (tables without line boxes
    included: redp5110 has some)."""
    for path in (DOCS[0], DOCS[2]):
        doc = _doc(path)
        index = LineIndex(doc)
        for strategy in ("structure", "recursive"):
            chunks = seamcut.chunk(doc, strategy, window_chars=window)
            assert len(chunks) > 3
            for c in chunks:
                assert c.metadata.get("boxes", []) == [b.to_list() for b in index.boxes(c.start, c.end)], \
                    (path.name, strategy, c.start, c.end)


def test_text_documents_have_no_boxes():
    doc = seamcut.Document.from_text("Plain text.\n\nTwo paragraphs.")
    assert span_boxes(doc, 0, len(doc.text)) == ()
    assert all("boxes" not in c.metadata for c in seamcut.chunk(doc, "recursive"))


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_boxes_of_two_adjacent_spans_cover_the_lines_of_their_union(path, data):
    doc = _doc(path)
    n = len(doc.text)
    a, b, c = sorted(data.draw(st.lists(st.integers(0, n), min_size=3, max_size=3)))
    index = LineIndex(doc)
    left, right, whole = index.boxes(a, b), index.boxes(b, c), index.boxes(a, c)
    assert _touched(doc, a, b) | _touched(doc, b, c) == _touched(doc, a, c)

    def area(boxes):  # the union of the boxes, as the set of lines inside one of them
        return {(a2, b2) for _, page, a2, b2, box in _lines(doc) for x in boxes
                if x.page == page and x.x0 <= box[0] and x.top <= box[1] and box[2] <= x.x1
                and box[3] <= x.bottom and a2 < c and b2 > a}

    assert area(left) | area(right) == area(whole)
    assert {x.page for x in left} | {x.page for x in right} == {x.page for x in whole}


def test_boxes_survive_the_read_cache_json():
    for p in DOCS:
        doc = _doc(p)
        back = document_json.loads(document_json.dumps(doc))
        assert back == doc
        assert back.metadata["page_sizes"] == doc.metadata["page_sizes"]
        assert [e.metadata.get("lines") for e in back.elements] == [
            e.metadata.get("lines") for e in doc.elements]
        assert span_boxes(back, 0, len(back.text)) == span_boxes(doc, 0, len(doc.text))


def test_chunk_boxes_survive_the_index_rows():
    doc = _doc(DOCS[0])
    fields = document_fields(document_row(doc, "digest", 1))
    for c in seamcut.chunk(doc, "parent-child"):
        back = chunk_from_row(chunk_row(c, doc, None), fields)
        assert back.metadata["boxes"] == c.metadata["boxes"] and back.id == c.id
        assert back.metadata == c.metadata  # page_sizes stays with the document


def test_chunk_boxes_survive_an_index_round_trip(tmp_path):
    from seamcut.index import Index

    doc = _doc(DOCS[0])
    chunks = seamcut.chunk(doc, "structure")
    ix = Index(tmp_path / "db", strategy="structure", options={}, model="default")
    ix.update([doc], lambda d: seamcut.chunk(d, strategy="structure"), {doc.source: "x"})
    hits = ix.search("whitefly dose", 3, mode="text")
    assert hits
    by_id = {c.id: c for c in chunks}
    for h in hits:
        assert h.chunk.metadata["boxes"] == by_id[h.chunk.id].metadata["boxes"]
