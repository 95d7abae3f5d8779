"""Hypothesis strategies for text to chunk: random text of many scripts and whitespaces, a size
with its unit, tokenizer and overlap, and Markdown documents with headings, tables and lists."""
from __future__ import annotations

from hypothesis import strategies as st

# Random text: Latin, Devanagari (with danda), CJK, emoji, punctuation, every kind of whitespace,
# and long runs without spaces.
ALPHABET = st.sampled_from(
    list("abcdefghij ABCD") + list("कखगमनपरसािीुेो्ं।॥") + list("日本語中文。！？")
    + ["😀", "🌾", "👍🏽"] + list(".,;:?!|\"'()-") + [" ", " ", "\n", "\n\n", "\t", "\u00a0"]
    + ["Dr.", "approx.", "2.5", "नं.", "https://x.org/a.b", "a@b.in"])
RANDOM_TEXT = st.one_of(
    st.lists(ALPHABET, max_size=400).map("".join),
    st.text(max_size=300),
    st.builds(lambda w, n: " ".join([w] * n), st.text(min_size=1, max_size=30), st.integers(1, 80)),
    st.builds(lambda c, n: c * n, st.sampled_from(["x", "क", "日", "😀", " ", "\n", "."]),
              st.integers(1, 2000)),
)
UNITS = st.sampled_from([("tokens", "default"), ("tokens", "minilm"), ("tokens", "cl100k"),
                         ("words", "default"), ("chars", "default")])


@st.composite
def sizes(draw):
    unit, tok = draw(UNITS)
    size = draw(st.integers(16, 120)) if unit != "chars" else draw(st.integers(20, 400))
    overlap = draw(st.sampled_from([0, 0, size // 10, size // 4]))
    return unit, tok, size, overlap


WORDS = st.sampled_from("cotton whitefly aphid spray litre dose evening seven days the of and "
                        "कपास सफेद मक्खी दवा संत्रा फवारणी 2 ml 3.5 approx. Dr. No. 11".split())


def sentence(draw) -> str:
    words = draw(st.lists(WORDS, min_size=1, max_size=30))
    return " ".join(words).capitalize() + draw(st.sampled_from([".", "।", "?", ":"]))


@st.composite
def markdown_docs(draw) -> str:
    parts = []
    if draw(st.booleans()):
        parts.append("# " + sentence(draw))
    for _ in range(draw(st.integers(1, 8))):
        kind = draw(st.sampled_from(["heading", "para", "para", "table", "list"]))
        if kind == "heading":
            parts.append("#" * draw(st.integers(2, 4)) + " " + sentence(draw).rstrip(".।?:"))
        elif kind == "para":
            parts.append(" ".join(sentence(draw) for _ in range(draw(st.integers(1, 12)))))
        elif kind == "table":
            cols = draw(st.integers(2, 4))
            head = "| " + " | ".join(f"H{i}" for i in range(cols)) + " |"
            rows = [head, "|" + "---|" * cols]
            for _ in range(draw(st.integers(1, 25))):
                rows.append("| " + " | ".join(" ".join(draw(st.lists(WORDS, min_size=1, max_size=4)))
                                              for _ in range(cols)) + " |")
            parts.append("\n".join(rows))
        else:
            lead = sentence(draw)
            parts.append(lead.rstrip(".।?:") + ":\n\n" + "\n".join(
                f"{i}. {sentence(draw)}" for i in range(1, draw(st.integers(2, 15)))))
    return "\n\n".join(parts) + "\n"
