"""`seamcut view`'s data layer, without a browser: the rows and sections the page draws, inspect's
findings placed on them, the files build_view writes, and inspect's zero-overlap finding only
where overlap was asked for."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import seamcut
from seamcut.diagnose import inspect_chunks, strategy_overlaps
from seamcut.model import Chunk, Document
from seamcut.report.inspect_html import render as render_inspection
from seamcut.report.view import asks_overlap, build_view, cut_all, strategies_of
from seamcut.report.view.data import (CHUNK_FIELDS, Chunking, document_data, sections,
                                      strategy_data)
from seamcut.report.view.pages import SCALE
from tests.helpers.data import HELPLINE

ROOT = Path(__file__).resolve().parents[2]
F = {name: i for i, name in enumerate(CHUNK_FIELDS)}

MANUAL = "\n\n".join(
    f"# Chapter {n}\n\n" + " ".join(f"Sentence {n}.{k} says the crop needs care number {k}." for k in range(40))
    for n in range(1, 6))


@pytest.fixture(scope="module")
def manual() -> Document:
    return _read_md(MANUAL)


def _read_md(text: str) -> Document:
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "manual.md"
        p.write_text(text, encoding="utf-8")
        return seamcut.read(p)


def _rows(doc: Document, label: str, **options) -> dict:
    spec = strategies_of([label], options)[0]
    chunks = cut_all([doc], [spec])[label]
    return strategy_data(doc, Chunking(label, chunks, asks_overlap(spec)))


def test_sections_cover_the_text_and_split_between_top_level_chunks(manual):
    data = _rows(manual, "structure", size=60)
    secs, rows = data["sections"], data["chunks"]
    assert secs[0][2] == 0 and secs[-1][3] == len(manual.text)
    assert all(a[3] == b[2] and a[1] == b[0] for a, b in zip(secs, secs[1:]))  # contiguous
    assert secs[0][0] == 0 and secs[-1][1] == len(rows)
    for first, _, start, _ in secs[1:]:
        assert rows[first][F["parent"]] == -1 and rows[first][F["from"]] == start
    assert len(secs) > 1  # the manual is longer than one section
    assert sections([], 10) == [[0, 0, 0, 10]]


def test_rows_draw_each_chunk_once_without_its_edge_whitespace(manual):
    text = manual.text
    for label, opts in (("structure", {"size": 60}), ("recursive", {"size": 60, "overlap": 15})):
        rows = _rows(manual, label, **opts)["chunks"]
        drawn_to = 0
        for r in rows:
            start, end, a, b = r[F["start"]], r[F["end"]], r[F["from"]], r[F["to"]]
            assert start <= a <= b <= end
            assert not text[a:b][:1].isspace() and not text[a:b][-1:].isspace()
            assert text[b:end].strip() == ""
            # what the drawn part leaves out at the front is whitespace or the text shared with
            # the chunk before (drawn there, as overlap)
            assert a == start or text[start:a].strip() == "" or start < drawn_to
            assert a >= drawn_to or text[drawn_to:a].strip() == "" or a == b
            drawn_to = max(drawn_to, end)
        if label == "recursive":
            assert any(r[F["start"]] < p[F["end"]] for p, r in zip(rows, rows[1:]))  # overlap drawn


def test_parent_child_rows_point_to_their_parents(manual):
    data = _rows(manual, "parent-child", size=40, parent_size=200)
    rows = data["chunks"]
    parents = [i for i, r in enumerate(rows) if r[F["role"]] == "parent"]
    children = [r for r in rows if r[F["role"]] == "child"]
    assert parents and children and data["leaves"] == len(children)
    for r in children:
        p = rows[r[F["parent"]]]
        assert p[F["role"]] == "parent" and p[F["start"]] <= r[F["start"]] < r[F["end"]] <= p[F["end"]]
    assert all(rows[i][F["parent"]] == -1 for i in parents)


def test_findings_mark_what_inspect_finds_where_it_is(manual):
    text = manual.text
    # one chunk of the first two chapters (over the model's 512 tokens), one short one, the rest
    # of the text left out
    half = text.index("# Chapter 3")
    last = text.index(" Sentence 3.3", half)
    whole = Chunk(id="whole", doc_id=manual.id, source=manual.source, start=0, end=half, context="",
                  text=text[:half], tokens=0)
    rest = Chunk(id="rest", doc_id=manual.id, source=manual.source, start=half, end=last, context="",
                 text=text[half:last], tokens=0)
    got = strategy_data(manual, Chunking("mine", [whole, rest], overlap_asked=True))
    kinds = {f["kind"]: f for f in got["findings"]}
    assert set(kinds) == {"over-limit", "uncovered", "no-overlap"}
    assert kinds["over-limit"]["chunks"] == ["whole"] and "512" in kinds["over-limit"]["text"]
    assert (kinds["uncovered"]["start"], kinds["uncovered"]["end"]) == (last + 1, len(text.rstrip()))
    assert kinds["no-overlap"]["chunks"] == ["whole", "rest"]
    flags = {r[F["id"]]: r[F["flags"]] for r in got["chunks"]}
    assert flags == {"whole": ["no-overlap", "over-limit"], "rest": ["no-overlap"]}
    # the same two chunks where no overlap was asked for: sharing nothing is no finding
    calm = strategy_data(manual, Chunking("mine", [whole, rest], overlap_asked=False))
    assert {f["kind"] for f in calm["findings"]} == {"over-limit", "uncovered"}


def test_structure_chunks_are_not_flagged_for_sharing_nothing():
    doc = seamcut.read(HELPLINE / "cotton-manual.pdf")
    structure = seamcut.chunk(doc, strategy="structure")
    ins = inspect_chunks(structure, sources=[doc])
    assert ins.overlap_asked is False and len(ins.zero_overlap_pairs) == len(ins.pairs) > 3
    assert ins.missing_overlap_pairs == ()
    page = render_inspection(ins)
    assert "repeated only between the pieces of a block split for length" in page and 'class="bad">' not in page.split("Overlap between")[1].split("<h2>")[0]
    # recursive at its defaults asks for 50 tokens: its fingerprint says so
    recursive = seamcut.chunk(doc, strategy="recursive")
    assert inspect_chunks(recursive, sources=[doc]).overlap_asked is True
    # a variant whose options the chunks do not carry: not known, so not judged
    assert inspect_chunks(seamcut.chunk(doc, strategy="recursive", overlap=0)).overlap_asked is None
    # what the user states wins
    asked = inspect_chunks(structure, sources=[doc], overlap=50)
    assert asked.overlap_asked is True and asked.missing_overlap_pairs == asked.zero_overlap_pairs
    assert "share nothing</span>" in render_inspection(asked)
    assert inspect_chunks(structure, overlap=0).overlap_asked is False


def test_strategy_overlaps_knows_the_strategies():
    assert strategy_overlaps("recursive") and strategy_overlaps("fixed", {"overlap": 5})
    assert not strategy_overlaps("recursive", {"overlap": 0})
    assert not strategy_overlaps("structure", {"overlap": 50})  # structure never adds overlap
    assert not strategy_overlaps("parent-child") and not strategy_overlaps("semantic")
    with pytest.raises(ValueError, match="unknown strategy"):
        strategy_overlaps("nope")


def test_build_view_writes_pages_data_and_images(tmp_path):
    pdf = HELPLINE / "crop-insurance-2024.pdf"
    doc = seamcut.read(pdf)
    specs = strategies_of(["structure", "recursive:size=120"])
    index = build_view(tmp_path, [doc], specs)
    assert index == tmp_path / "index.html"
    html = index.read_text(encoding="utf-8")
    assert f"docs/{doc.id}.html#s=recursive_size-120" in html and "crop-insurance-2024.pdf" in html
    assert (tmp_path / "view.css").is_file() and (tmp_path / "view.js").is_file()
    page = (tmp_path / "docs" / f"{doc.id}.html").read_text(encoding="utf-8")
    assert f'<script src="{doc.id}.js"></script>' in page and "../view.js" in page
    raw = (tmp_path / "docs" / f"{doc.id}.js").read_text(encoding="utf-8")
    assert raw.startswith("window.SEAMCUT_DOC = ")
    data = json.loads(raw.removeprefix("window.SEAMCUT_DOC = ").rstrip().rstrip(";"))
    assert data["text"] == doc.text and [s["slug"] for s in data["strategies"]] == ["structure", "recursive_size-120"]
    assert [r[0] for r in data["strategies"][0]["chunks"]] == [c.id for c in seamcut.chunk(doc, strategy="structure")]
    # one image per page, SCALE pixels per point
    from PIL import Image
    import pypdfium2 as pdfium
    pdfdoc = pdfium.PdfDocument(pdf)
    assert len(data["pages"]) == len(pdfdoc) == len(list((tmp_path / "pages" / doc.id).glob("*.png")))
    w, h = pdfdoc.get_page_size(0)
    with Image.open(tmp_path / "pages" / doc.id / "1.png") as im:
        assert abs(im.width - w * SCALE) <= 1 and abs(im.height - h * SCALE) <= 1
    assert data["pages_url"] == f"../pages/{doc.id}/"


def test_a_text_file_has_no_pages(tmp_path):
    doc = _read_md(MANUAL)
    data = document_data(doc, [Chunking("structure", seamcut.chunk(doc, strategy="structure"), False)])
    assert data["pages"] == [] and data["pages_url"] == "" and data["page_count"] == 0
