"""The pymupdf4llm contestant: pages as ``to_markdown`` gives them, chunks as LangChain's
header splitter + recursive splitter give them called directly, pages and options honoured."""
from __future__ import annotations

import pytest

from seamcut.errors import ConfigError, InputError
from tests.helpers.data import DATA

pymupdf4llm = pytest.importorskip("pymupdf4llm")
lts = pytest.importorskip("langchain_text_splitters")
from seamcut.peers import pymupdf4llm as peer  # noqa: E402

PDF = DATA / "pdfs" / "docling" / "multi_page.pdf"  # 5 born-digital pages with Markdown headers


@pytest.fixture(scope="module")
def pages():
    return peer.read(str(PDF))


def _direct(chunk_size=1000, chunk_overlap=200, **kw):
    md = pymupdf4llm.to_markdown(str(PDF))
    header = lts.MarkdownHeaderTextSplitter(headers_to_split_on=peer.HEADERS)
    rec = lts.RecursiveCharacterTextSplitter(chunk_size=chunk_size, chunk_overlap=chunk_overlap, **kw)
    return rec.split_documents(header.split_text(md))


def test_read_gives_a_page_each_as_to_markdown_gives_them(pages):
    direct = pymupdf4llm.to_markdown(str(PDF), page_chunks=True)
    assert [p.text for p in pages] == [d["text"] for d in direct]
    assert [p.pages for p in pages] == [(n,) for n in range(1, len(direct) + 1)]
    assert "".join(p.text for p in pages) == pymupdf4llm.to_markdown(str(PDF))


def test_chunks_equal_the_pipeline_called_directly(pages):
    got = peer.cut("markdown", pages, {})
    want = _direct()
    assert [c.text for c in got] == [d.page_content for d in want]
    assert [dict(c.metadata) for c in got] == [d.metadata for d in want]


def test_chunk_pages_are_the_pages_their_lines_lie_on(pages):
    got = peer.cut("markdown", pages, {})
    assert all(c.pages for c in got)
    for c in got:  # each chunk's first and last words lie on its first and last page
        first, last = c.text.split()[0], c.text.split()[-1]
        assert first in pages[c.pages[0] - 1].text and last in pages[c.pages[-1] - 1].text
    assert got[0].pages == (1,) and got[-1].pages[-1] == len(pages)
    assert [c.pages[0] for c in got] == sorted(c.pages[0] for c in got)


def test_options_are_honoured(pages):
    got = peer.cut("markdown", pages, {"chunk_size": 300, "chunk_overlap": 0})
    assert [c.text for c in got] == [d.page_content for d in _direct(300, 0)]
    assert max(len(c.text) for c in got) <= 300
    assert len(got) > len(peer.cut("markdown", pages, {}))


def test_defaults_are_the_pipelines_and_the_splitters():
    opts = peer.options("markdown")
    assert opts["chunk_size"] == 1000 and opts["chunk_overlap"] == 200
    assert opts["strip_headers"] is True and opts["return_each_line"] is False
    assert all(v is None or isinstance(v, (int, float, bool, str)) for v in opts.values())


def test_unknown_chunker_and_option_and_bad_file(tmp_path):
    with pytest.raises(ConfigError, match="markdown"):
        peer.options("semantic")
    with pytest.raises(ConfigError, match="chunk_sise"):
        peer.cut("markdown", [], {"chunk_sise": 5})
    bad = tmp_path / "bad.pdf"
    bad.write_bytes(b"%PDF-1.4 not really")
    with pytest.raises(InputError, match="bad.pdf"):
        peer.read(str(bad))
