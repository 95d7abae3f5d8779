"""Behaviour of each text strategy beyond the shared invariants."""
from __future__ import annotations

import re

import pytest

import seamcut
from seamcut.readers import read
from seamcut.tokens import load_sizer

CL100K = "tiktoken:cl100k_base"


def test_sentence_strategy_packs_whole_sentences():
    text = ("Whitefly adults are 1 mm long. Dr. Rao counts them at approx. 8 a.m. daily. "
            "Spray 2.5 ml per litre. Wait seven days. " * 6)
    chunks = seamcut.chunk(text, strategy="sentence", size=30, overlap=0, unit="words")
    for c in chunks:
        body = c.body.strip()
        assert body.endswith("."), body
        assert not body.startswith(("Rao", "8 a.m.", "5 ml"))  # no cut inside abbreviations/decimals
        assert len(c.text.split()) <= 30


def test_sentence_longer_than_the_limit_is_split_not_emitted_over():
    long_sentence = "The farmer " + "and the neighbour " * 60 + "went home."
    text = f"Short one. {long_sentence} Another short one."
    chunks = seamcut.chunk(text, strategy="sentence", size=25, overlap=0, unit="words")
    assert max(len(c.text.split()) for c in chunks) <= 25
    assert chunks[0].body == "Short one."  # the long sentence's pieces stay in chunks of their own
    assert chunks[-1].body.strip() == "Another short one."


def test_paragraph_strategy_packs_paragraphs_and_splits_a_long_one_alone():
    paras = ["Short note one.", "Short note two.", " ".join(["word"] * 900) + ".", "Closing note."]
    text = "\n\n".join(paras)
    chunks = seamcut.chunk(text, strategy="paragraph", size=100, overlap=0, unit="words")
    assert chunks[0].body == "Short note one.\n\nShort note two."
    assert chunks[-1].body.strip() == "Closing note."
    middle = chunks[1:-1]
    assert len(middle) == 9 and all(len(c.body.split()) <= 100 for c in middle)


def test_recursive_cuts_hindi_at_the_danda_not_mid_sentence():
    sentences = ["सफेद मक्खी के लिए 2 मि.ली. प्रति लीटर दवा मिलाएं।",
                 "छिड़काव शाम के समय करें।",
                 "सात दिन बाद फिर से खेत देखें।"] * 12
    text = " ".join(sentences)
    chunks = seamcut.chunk(text, strategy="recursive", size=60, overlap=0)
    sizer = load_sizer()
    for c in chunks[:-1]:
        assert c.body.rstrip().endswith("।"), c.body[-30:]
        assert sizer.count(c.text) <= 60


def test_recursive_prefers_sentence_ends_over_spaces():
    text = " ".join(f"Sentence number {i} talks about cotton pests and their control." for i in range(40))
    chunks = seamcut.chunk(text, strategy="recursive", size=64, overlap=0, tokenizer=CL100K)
    assert all(c.body.rstrip().endswith(".") for c in chunks)


def test_ids_are_stable_and_depend_on_config():
    text = "Whitefly: 2 ml per litre. Aphid: 3 ml per litre.\n\nSpray in the evening."
    a = seamcut.chunk(text, size=20, overlap=0)
    b = seamcut.chunk(text, size=20, overlap=0)
    c = seamcut.chunk(text, size=21, overlap=0)
    assert [x.id for x in a] == [x.id for x in b]
    assert a[0].id != c[0].id
    assert a[0].metadata["config"] != c[0].metadata["config"]


@pytest.mark.parametrize("strategy", ["fixed", "recursive", "structure", "parent-child"])
def test_every_chunk_id_follows_the_one_recipe(strategy):
    from seamcut.strategies.chunks import chunk_id

    text = ("# Cotton\n\n## Pests\n\n" + "Whitefly: 2 ml per litre in the evening. " * 30
            + "\n\n## Seeds\n\nSow in June.\n")
    doc = seamcut.Document.from_text(text, source="cotton.md")
    chunks = seamcut.chunk(doc, strategy, size=40, overlap=0, parent_size=80) \
        if strategy == "parent-child" else seamcut.chunk(doc, strategy, size=40, overlap=0)
    assert chunks
    for c in chunks:
        assert c.id == chunk_id(doc.id, c.start, c.end, c.metadata["config"], c.text)


@pytest.mark.parametrize("kwargs, message", [
    ({"unit": "bytes"}, "unit must be one of"),
    ({"size": 0}, "size must be a positive"),
    ({"size": 100, "overlap": 100}, "overlap must be"),
    ({"size": 600}, "maximum input of 512"),
    ({"strategy": "magic"}, "unknown strategy"),
])
def test_bad_config_is_refused(kwargs, message):
    with pytest.raises(ValueError, match=message):
        seamcut.chunk("some text", **kwargs)


def test_text_file_offsets_are_file_offsets(tmp_path):
    raw = "\ufeffTitle\r\n\r\nफसल की देखभाल। Whitefly 2 ml.\n"
    f = tmp_path / "note.txt"
    f.write_bytes(raw.encode("utf-8"))
    doc = read(f)
    assert doc.text == raw  # BOM and CRLF kept: offsets are the file's, in code points
    for c in seamcut.chunk(doc, size=12, overlap=0):
        assert raw[c.start:c.end] == c.body
        assert c.source == str(f)


def test_utf16_with_bom_is_read(tmp_path):
    f = tmp_path / "u16.txt"
    f.write_bytes("दवा 2 ml".encode("utf-16"))
    assert read(f).text == "दवा 2 ml"


def test_pages_come_from_page_offsets():
    doc = seamcut.Document(text="page one text. " * 10 + "page two text. " * 10,
                           page_starts=(0, 150))
    chunks = seamcut.chunk(doc, size=10, overlap=0, unit="words")
    assert chunks[0].pages == (1,)
    assert chunks[-1].pages == (2,)
    assert any(c.pages == (1, 2) for c in chunks) or all(len(c.pages) == 1 for c in chunks)


@pytest.mark.parametrize("strategy", ["recursive", "sentence", "paragraph"])
def test_overlap_larger_than_half_the_size_reaches_into_earlier_chunks(strategy):
    text = " ".join(f"Line {i} of the cotton manual says to scout twice a week." for i in range(200))
    chunks = seamcut.chunk(text, strategy=strategy, size=60, overlap=45, unit="words")
    shared = [len(text[b.start:a.end].split()) for a, b in zip(chunks, chunks[1:])]
    assert sum(len(c.body.split()) for c in chunks) / len(chunks) > 50
    assert 35 <= sum(shared) / len(shared) <= 50
    assert all(a.start < b.start for a, b in zip(chunks, chunks[1:]))


@pytest.mark.parametrize("strategy", ["recursive", "sentence", "paragraph", "fixed"])
def test_overlap_that_leaves_no_room_is_refused_not_looped(strategy):
    with pytest.raises(ValueError, match="not more than the overlap"):
        seamcut.chunk("word " * 50, strategy=strategy, size=20, overlap=17)  # e5 adds 4


def test_strategy_specs_name_a_variant_with_typed_options():
    from seamcut.strategies.spec import parse_spec

    spec = parse_spec(" parent-child:parents=blocks:size=48:parent_size=224 ")
    assert (spec.label, spec.name) == ("parent-child:parents=blocks:size=48:parent_size=224", "parent-child")
    assert spec.options == {"parents": "blocks", "size": 48, "parent_size": 224}
    assert spec.slug == "parent-child_parents-blocks_size-48_parent_size-224"
    assert parse_spec("recursive:within_paragraph=True").options == {"within_paragraph": True}
    assert parse_spec("semantic:amount=90").options == {"amount": 90.0}  # a None default: typed by its annotation
    assert parse_spec("fixed") == parse_spec("fixed") and parse_spec("fixed").options == {}
    for bad, message in (("magic", "unknown strategy 'magic'"), ("fixed:size", "is not OPTION=VALUE"),
                         ("fixed:colour=red", "fixed has no option 'colour'; it has context, overlap, size, unit"),
                         ("fixed:size=big", "size must be a whole number, not 'big'"),
                         ("recursive:within_paragraph=yes", "within_paragraph must be true or false"),
                         ("parent-child:parents=pages", "parents must be one of sections, blocks"),
                         ("fixed:size=100:overlap=100", "overlap must be at least 0 and below size"),
                         ("semantic:embedder=x", "semantic has no option 'embedder'")):
        with pytest.raises(ValueError, match=re.escape(message)):
            parse_spec(bad)


def test_a_spec_is_one_checked_value_that_cuts_as_its_words_do():
    """A ``StrategySpec`` carries its typed config, made once where the spec is; it pickles whole
    (a worker gets it so), takes a run's sizes under its own options, and ``seamcut.chunk`` cuts
    with it as with the name and options (issue 52 point 2)."""
    import pickle

    from seamcut.strategies import ParentChildConfig
    from seamcut.strategies.spec import StrategySpec, parse_spec, run_sizes

    spec = parse_spec("parent-child:parents=blocks:size=48")
    assert isinstance(spec.config, ParentChildConfig) and (spec.config.size, spec.config.parents) == (48, "blocks")
    again = pickle.loads(pickle.dumps(spec))
    assert again == spec and again.config == spec.config
    sized = spec.with_defaults(run_sizes(size=64, overlap=8, unit="tokens"))
    assert sized.label == spec.label and sized.options == {"size": 48, "overlap": 8, "parents": "blocks"}
    assert spec.with_options({"size": 40}).config.size == 40 and spec.with_options({}) is spec
    with pytest.raises(ValueError, match="overlap must be at least 0 and below size"):
        spec.with_options({"overlap": 48})
    with pytest.raises(ValueError, match="unknown strategy 'magic'"):
        StrategySpec("magic", "magic")
    text = "# Pests\n\nWhitefly: 2 ml per litre.\n\nAphid: 3 ml per litre of water, sprayed at dusk.\n"
    assert seamcut.chunk(text, spec) == seamcut.chunk(text, strategy="parent-child", parents="blocks", size=48)
    assert seamcut.chunk(text, spec, size=20) == seamcut.chunk(text, strategy="parent-child", parents="blocks",
                                                               size=20)
