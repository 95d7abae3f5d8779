"""A contestant's texts laid end to end (``seamcut.peers.layout``): every chunk an exact span of
its own document, tokens counted by the model's tokenizer, pieces given back as they came, and
a chunk over the model's input embedded from its first tokens, said."""
from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from seamcut.model import Document
from seamcut.peers.base import Piece
from seamcut.peers.layout import GAP, laid_out, pieces_of, reading
from seamcut.tokens import load_sizer

from tests.helpers.random_text import RANDOM_TEXT

SIZER = load_sizer()


@settings(max_examples=25, deadline=None)
@given(texts=st.lists(RANDOM_TEXT, max_size=6))
def test_laid_out_chunks_are_exact_spans_in_order(texts: list[str]) -> None:
    doc = Document("whatever was read", source="a.pdf")
    pieces = [Piece(t, (i + 1,)) for i, t in enumerate(texts)]
    out, chunks = laid_out(doc, pieces, "lib:x")
    kept = [p for p in pieces if p.text.strip()]
    assert [c.text for c in chunks] == [p.text for p in kept]
    assert all(out.text[c.start:c.end] == c.body == c.text and c.context == "" for c in chunks)
    assert [c.start for c in chunks] == sorted(c.start for c in chunks)
    assert all(c.doc_id == doc.id == out.id and c.source == "a.pdf" for c in chunks)
    assert [c.tokens for c in chunks] == SIZER.count_many([c.text for c in chunks])
    assert [c.pages for c in chunks] == [p.pages for p in kept]
    assert out.text == GAP.join(p.text for p in kept)
    dropped = len(pieces) - len(kept)
    said = [w for w in out.metadata["warnings"] if "empty chunk" in w]
    assert (f"{dropped} empty chunk(s)" in said[0]) if dropped else not said
    # the same pieces give the same ids
    assert [c.id for c in laid_out(doc, pieces, "lib:x")[1]] == [c.id for c in chunks]
    assert len({c.id for c in chunks}) == len(chunks)


@settings(max_examples=25, deadline=None)
@given(texts=st.lists(RANDOM_TEXT, min_size=1, max_size=5))
def test_a_reading_gives_its_pieces_back(texts: list[str]) -> None:
    pieces = [Piece(t, (i + 1,), {"k": i}) for i, t in enumerate(texts)]
    doc = reading("f.pdf", pieces, "lib Loader", {"lib": "1.0"}, {"crop": "cotton"})
    assert pieces_of(doc) == pieces
    assert doc.metadata["reader"] == "lib Loader" and doc.metadata["crop"] == "cotton"
    assert doc.metadata["catalog_fields"] == ["crop"]


def test_a_readings_catalog_aliases_are_kept_apart_from_its_fields() -> None:
    doc = reading("f.pdf", [Piece("text", (1,), {})], "lib Loader", {"lib": "1.0"},
                  {"crop": "cotton", "aliases": {"crop": ["कापूस"]}})
    assert doc.metadata["catalog_fields"] == ["crop"] and doc.metadata["aliases"] == {"crop": ["कापूस"]}


def test_seamcut_reading_is_given_a_page_at_a_time() -> None:
    doc = Document("page one\npage two\nthree", source="a.pdf", page_starts=(0, 9, 18))
    assert pieces_of(doc) == [Piece("page one\n", (1,)), Piece("page two\n", (2,)), Piece("three", (3,))]
    assert pieces_of(Document("no pages", source="a.txt")) == [Piece("no pages", ())]


def test_a_chunk_over_the_model_input_is_embedded_from_its_first_tokens_and_sent_whole() -> None:
    long = " ".join(f"word{i} cotton" for i in range(600))
    doc = Document("x", source="long.txt")
    out, (short, big) = laid_out(doc, [Piece("a short chunk"), Piece(long)], "lib:x")
    limit = SIZER.max_input_tokens
    assert "embedded" not in short.metadata and short.text == "a short chunk"
    assert big.text == long and big.tokens == SIZER.count(long) > limit
    fed = big.metadata["embedded"]
    assert long.startswith(fed) and SIZER.count(fed) <= limit < SIZER.count(long[:len(fed) + 1])
    assert big.metadata["embedded_from_tokens"] == big.tokens
    assert any(f"1 of 2 chunks over the embedding model's input of {limit} tokens" in w
               for w in out.metadata["warnings"])


def test_an_embedded_text_given_is_kept_and_held_to_the_model_input() -> None:
    doc = Document("x", source="a.md")
    _, (c,) = laid_out(doc, [Piece("body", (), {"embedded": "Title / Section\nbody", "headings": ["Title"]})],
                       "chunks:x")
    assert c.text == "body" and c.metadata["embedded"] == "Title / Section\nbody"
    assert c.heading_path == ("Title",) and c.tokens == SIZER.count("body")


def test_a_reading_a_page_a_piece_has_its_pages_and_one_out_of_order_none() -> None:
    doc = reading("f.pdf", [Piece("one", (1,)), Piece("two a", (2,)), Piece("two b", (2,)), Piece("three", (3,))],
                  "lib Loader", {})
    assert doc.page_starts == (0, 5, 19) and doc.pages_of(5, 7) == (2,)
    assert reading("f.pdf", [Piece("two", (2,)), Piece("one", (1,))], "x", {}).page_starts == ()
    assert reading("f.md", [Piece("no pages")], "x", {}).page_starts == ()
