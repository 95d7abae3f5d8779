"""The guide's code demos as exact-output tests (../shared/guide/rag-chunking-strategies.txt)."""
from __future__ import annotations

import seamcut
from seamcut.tokens import load_sizer

# Words stand in for tokens in the guide; tiktoken states no model input limit, so nothing but the
# word limit applies (with the default model a 300-word chunk of "w123" would be over 512 tokens).
NO_MODEL_LIMIT = "tiktoken:cl100k_base"


def guide_fixed_size_chunks(tokens, size=300, overlap=50):
    step = size - overlap
    last_start = max(len(tokens) - overlap, 1)
    return [tokens[start:start + size] for start in range(0, last_start, step)]


BREAKS = ["\n\n", "\n", ". ", "। ", " "]


def fits(text, limit):
    return not text.split()[limit:]


def split_keep(text, sep):
    parts = text.split(sep)
    return [p + sep for p in parts[:-1]] + [parts[-1]]


def recursive_split(text, limit, breaks=BREAKS):
    if fits(text, limit) or not breaks:
        return [text]
    pieces = []
    for part in split_keep(text, breaks[0]):
        if part:
            pieces += recursive_split(part, limit, breaks[1:])
    return pieces


def merge_small(pieces, limit):
    chunks, current = [], ""
    for p in pieces:
        if current and not fits(current + p, limit):
            chunks.append(current)
            current = ""
        current += p
    return chunks + [current] if current else chunks


def guide_section() -> str:
    sentence = " ".join(["word"] * 14) + " end. "
    return (" ".join(["intro"] * 40) + "\n\n" + sentence * 8 + "\n\n" + " ".join(["tail"] * 57))


def test_fixed_size_demo_starts_and_sizes():
    page_words = [f"w{i}" for i in range(1000)]
    page = " ".join(page_words)
    chunks = seamcut.chunk(page, strategy="fixed", size=300, overlap=50, unit="words",
                           tokenizer=NO_MODEL_LIMIT)
    assert [c.body.split()[0] for c in chunks] == ["w0", "w250", "w500", "w750"]
    assert [len(c.body.split()) for c in chunks] == [300, 300, 300, 250]
    # the same as the guide's own function, word for word
    assert [c.body.split() for c in chunks] == guide_fixed_size_chunks(page_words)
    for c in chunks:
        assert page[c.start:c.end] == c.body


def test_fixed_size_in_tokens_has_the_guide_semantics():
    sizer = load_sizer(NO_MODEL_LIMIT)
    text = " ".join(f"item{i}" for i in range(600))
    measure = sizer.measure(text)
    n = len(measure.ends)
    cut = int(measure.ends[999])  # exactly 1,000 tokens
    text = text[:cut]
    assert sizer.count(text) == 1000, n
    chunks = seamcut.chunk(text, strategy="fixed", size=300, overlap=50, tokenizer=NO_MODEL_LIMIT)
    assert [c.tokens for c in chunks] == [300, 300, 300, 250]
    ends = sizer.measure(text).ends
    starts = [int(ends.searchsorted(c.start, "right")) for c in chunks]  # tokens before each
    assert starts == [0, 250, 500, 750]


def test_recursive_demo_gives_100_60_57_and_keeps_text():
    section = guide_section()
    chunks = seamcut.chunk(section, strategy="recursive", size=100, overlap=0, unit="words",
                           tokenizer=NO_MODEL_LIMIT)
    assert len(chunks) == 3
    assert [len(c.body.split()) for c in chunks] == [100, 60, 57]
    assert "".join(c.body for c in chunks) == section
    # the guide's chunks, cut at the same places (seamcut puts the whitespace after a cut at the
    # start of the next chunk, where it costs the same tokens as inside the document)
    guide = merge_small(recursive_split(section, limit=100), limit=100)
    assert [c.body.strip() for c in chunks] == [g.strip() for g in guide]


def test_recursive_within_paragraph_never_crosses_a_blank_line():
    section = guide_section()
    chunks = seamcut.chunk(section, strategy="recursive", size=100, overlap=0, unit="words",
                           tokenizer=NO_MODEL_LIMIT, within_paragraph=True)
    assert [len(c.body.split()) for c in chunks] == [40, 90, 30, 57]
    for c in chunks:
        assert "\n\n" not in c.body.strip()


def test_langchain_case_gets_real_overlap():
    """Six 202-character paragraphs, 300/50 characters: LangChain shares 0; seamcut about 50."""
    words = "Spray neem oil on cotton at dusk when whitefly numbers rise and check the underside of leaves again after seven days".split()
    paras = []
    for k in range(6):
        p = " ".join(words[(k + i) % len(words)] for i in range(60))[:202]
        paras.append(p.ljust(202, "x"))
    doc = "\n\n".join(paras)
    assert all(len(p) == 202 for p in paras)
    chunks = seamcut.chunk(doc, strategy="recursive", size=300, overlap=50, unit="chars",
                           tokenizer=NO_MODEL_LIMIT)
    assert len(chunks) == 6
    overlaps = [a.end - b.start for a, b in zip(chunks, chunks[1:])]
    assert all(40 <= o <= 60 for o in overlaps), overlaps
    assert all(len(c.text) <= 300 for c in chunks)
