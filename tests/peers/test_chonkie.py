"""The chonkie contestant runs the "pypdf + Chonkie" pipeline: pypdf's page texts joined with a
newline, then a Chonkie chunker on that text; its chunks are Chonkie's, its offsets exact, its
pages right, its options Chonkie's, its failures seamcut's errors."""
from __future__ import annotations

import pytest

from seamcut.errors import ConfigError, InputError, MissingError
from seamcut.peers import chonkie as peer
from tests.helpers.data import DATA

PDF = DATA / "pdfs" / "docling" / "multi_page.pdf"  # 5 pages of English prose
TXT = DATA / "prose" / "001.txt"


def _pages(path):
    from pypdf import PdfReader
    return [page.extract_text() for page in PdfReader(str(path)).pages]


def test_read_gives_pypdf_pages_and_textchef_text():
    pieces = peer.read(str(PDF))
    assert [p.text for p in pieces] == _pages(PDF)
    assert [p.pages for p in pieces] == [(1,), (2,), (3,), (4,), (5,)]
    (text,) = peer.read(str(TXT))
    assert text.text == TXT.read_text(encoding="utf-8") and text.pages == ()
    assert text.metadata == {"filename": "001.txt"}


@pytest.mark.parametrize("chunker", ["recursive", "token", "sentence"])
def test_chunks_are_what_chonkie_gives(chunker):
    import chonkie
    cls = {"recursive": chonkie.RecursiveChunker, "token": chonkie.TokenChunker,
           "sentence": chonkie.SentenceChunker}[chunker]
    text = "\n".join(_pages(PDF))
    theirs = cls(chunk_size=300)(text)
    ours = peer.cut(chunker, peer.read(str(PDF)), {"chunk_size": 300})
    assert [c.text for c in ours] == [c.text for c in theirs]
    assert [(c.metadata["start_index"], c.metadata["end_index"]) for c in ours] == [
        (c.start_index, c.end_index) for c in theirs]
    assert all(text[c.metadata["start_index"]:c.metadata["end_index"]] == c.text for c in ours)
    assert len(ours) > 10


def test_chunk_size_and_overlap_are_honoured():
    pieces = peer.read(str(PDF))
    for chunker in ("recursive", "token", "sentence"):
        chunks = peer.cut(chunker, pieces, {"chunk_size": 250})
        assert max(len(c.text) for c in chunks) <= 250  # the character tokenizer: characters
        assert max(c.metadata["token_count"] for c in chunks) <= 250
    chunks = peer.cut("token", pieces, {"chunk_size": 200, "chunk_overlap": 50})
    for a, b in zip(chunks, chunks[1:]):
        assert b.metadata["start_index"] == a.metadata["end_index"] - 50
        assert a.text[-50:] == b.text[:50]
    assert len(peer.cut("recursive", pieces, {"chunk_size": 1000})) < len(
        peer.cut("recursive", pieces, {"chunk_size": 250}))


def test_pages_follow_the_offsets():
    pieces = peer.read(str(PDF))
    chunks = peer.cut("token", pieces, {"chunk_size": 400})
    ends, at = [], 0
    for p in pieces:
        at += len(p.text)
        ends.append(at)
        at += 1  # the newline between pages
    for c in chunks:
        start, end = c.metadata["start_index"], c.metadata["end_index"]
        first = next(i for i, e in enumerate(ends) if start < e) + 1
        last = next(i for i, e in enumerate(ends) if end <= e + 1) + 1
        assert c.pages == tuple(range(first, last + 1)), (start, end)
    assert chunks[0].pages == (1,) and chunks[-1].pages == (5,)
    assert any(len(c.pages) == 2 for c in chunks)  # Chonkie cuts across page ends
    for c in chunks:
        if len(c.pages) == 1:
            assert c.text in pieces[c.pages[0] - 1].text


def test_defaults_are_chonkies():
    import chonkie
    for chunker, made in [("recursive", chonkie.RecursiveChunker()), ("token", chonkie.TokenChunker()),
                          ("sentence", chonkie.SentenceChunker())]:
        found = peer.options(chunker)
        assert found["tokenizer"] == "character" and found["chunk_size"] == made.chunk_size == 2048
        for name in ("chunk_overlap", "min_characters_per_chunk", "min_sentences_per_chunk"):
            if name in found:
                assert getattr(made, name) == found[name], name
    assert "rules" not in peer.options("recursive") and "delim" not in peer.options("sentence")
    pieces = peer.read(str(TXT))
    ours = peer.cut("recursive", pieces, {})
    assert [c.text for c in ours] == [c.text for c in chonkie.RecursiveChunker()(pieces[0].text)]
    assert max(len(c.text) for c in ours) <= 2048


def test_unknown_option_and_chunker_are_reported():
    assert "chunk_sise" not in peer.options("recursive")
    with pytest.raises(ConfigError, match="chunk_sise"):
        peer.cut("recursive", peer.read(str(TXT)), {"chunk_sise": 100})
    with pytest.raises(ConfigError, match="recursive, sentence, token"):
        peer.options("semantic")
    with pytest.raises(ConfigError, match="chunk_overlap"):
        peer.cut("token", peer.read(str(TXT)), {"chunk_size": 10, "chunk_overlap": 20})


def test_a_tokenizer_needing_a_download_is_missing(monkeypatch):
    import inspect

    import chonkie

    class Offline(chonkie.TokenChunker):  # what Chonkie raises for a hub tokenizer offline
        def __init__(self, **settings):
            raise ValueError(f"Tokenizer {settings['tokenizer']!r} could not be loaded: "
                             "failed to download tokenizer")
    Offline.__init__.__signature__ = inspect.signature(chonkie.TokenChunker.__init__)
    monkeypatch.setattr(chonkie, "TokenChunker", Offline)
    with pytest.raises(MissingError, match="gpt2"):
        peer.cut("token", peer.read(str(TXT)), {"tokenizer": "gpt2"})


def test_files_it_cannot_read(tmp_path):
    for name in ("absent.pdf", "absent.txt"):
        with pytest.raises(InputError) as err:
            peer.read(str(tmp_path / name))
        assert err.value.path == str(tmp_path / name)
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"this is not a PDF at all")
    with pytest.raises(InputError, match="broken.pdf"):
        peer.read(str(broken))
    with pytest.raises(InputError, match="reads"):
        peer.read(str(tmp_path / "page.html"))
