"""The structure strategy: headings, tables and lists, on Markdown documents made at random and
on the guide's cases."""
from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import seamcut
from seamcut.model import Document
from seamcut.readers.markdown import markdown_elements

from tests.helpers.invariants import TOKENIZERS, check_invariants
from tests.helpers.random_text import markdown_docs

SETTINGS = settings(max_examples=int(os.environ.get("SEAMCUT_EXAMPLES", "25")), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def doc_of(text: str) -> Document:
    return Document(text=text, source="random.md", elements=markdown_elements(text))


@SETTINGS
@given(text=markdown_docs(), size=st.integers(40, 200), tok=st.sampled_from(["default", "minilm"]),
       overlap=st.sampled_from([0, 10]))
def test_structure_invariants_on_random_markdown(text, size, tok, overlap):
    doc = doc_of(text)
    chunks = check_invariants(doc, "structure", size, overlap, "tokens", TOKENIZERS[tok])
    for c in chunks:
        # two sections never share a chunk: a heading inside a chunk has only headings before it
        seen_text = False
        for e in doc.elements:
            if e.start < c.start or e.end > c.end:
                continue
            if e.kind in ("title", "heading"):
                assert not seen_text, (c.body, e)
            else:
                seen_text = True
        assert c.context.endswith("\n") or not c.context


CONTEXT_TABLE = "\n".join(["# Cotton manual", "", "## Pests", "", "| Pest | Dose | Repeat |",
                           "|---|---|---|"] + [f"| Pest{i} | {i} ml per litre | {i} days |"
                                               for i in range(1, 40)]) + "\n"


def test_long_table_comes_out_as_row_groups_each_with_the_header():
    chunks = seamcut.chunk(doc_of(CONTEXT_TABLE), strategy="structure", size=80, overlap=0)
    assert len(chunks) > 3
    for c in chunks:
        assert c.text.startswith("Cotton manual / Pests\n")
        assert "| Pest | Dose | Repeat |" in c.text  # in the body of the first, the context of the rest
        assert c.tokens <= 80
    assert all(c.context.endswith("| Pest | Dose | Repeat |\n") for c in chunks[1:])


def test_table_that_fits_stays_whole_with_its_advice():
    text = ("# Cotton manual\n\n## Pests\n\n| Pest | Dose |\n|---|---|\n| Whitefly | 2 ml per litre |\n"
            "| Aphid | 3 ml per litre |\n\nSpray in the evening and wait seven days.\n\n## Sowing\n\nSow in June.\n")
    chunks = seamcut.chunk(doc_of(text), strategy="structure", size=120, overlap=0)
    assert len(chunks) == 2
    assert "| Whitefly | 2 ml per litre |" in chunks[0].body and "Spray in the evening" in chunks[0].body
    assert chunks[0].heading_path == ("Cotton manual", "Pests")
    assert chunks[1].text.startswith("Cotton manual / Sowing\n") and "Sow in June." in chunks[1].body


def test_long_list_is_split_between_items_with_its_lead_in():
    items = "\n".join(f"{i}. Bring document number {i} with a signed copy of the form" for i in range(1, 30))
    text = "## Scheme\n\nDocuments needed to apply:\n\n" + items + "\n"
    chunks = seamcut.chunk(doc_of(text), strategy="structure", size=70, overlap=0)
    assert len(chunks) > 2
    for c in chunks[1:]:
        assert c.context == "Scheme\nDocuments needed to apply:\n"
        assert c.body.strip()[0].isdigit()  # starts at an item
    short = "## Scheme\n\nDocuments needed to apply:\n\n1. Aadhaar card\n2. Bank passbook\n3. Land record\n"
    chunks = seamcut.chunk(doc_of(short), strategy="structure", size=70, overlap=0)
    assert len(chunks) == 1 and "3. Land record" in chunks[0].body


def test_plain_text_degrades_to_paragraphs():
    text = "First paragraph about cotton.\n\nSecond paragraph about soybean.\n"
    chunks = seamcut.chunk(text, strategy="structure", size=100, overlap=0)
    assert len(chunks) == 1 and chunks[0].context == ""


def test_merge_siblings_joins_small_sections():
    text = "# Manual\n\n## A\n\nShort a.\n\n## B\n\nShort b.\n\n## C\n\nShort c.\n"
    assert len(seamcut.chunk(doc_of(text), strategy="structure", size=100, overlap=0)) == 3
    merged = seamcut.chunk(doc_of(text), strategy="structure", size=100, overlap=0, merge_siblings=True)
    assert len(merged) == 1 and merged[0].context == "Manual\n"


def test_join_blocks_off_gives_each_block_its_own_chunk():
    text = ("# Manual\n\n## Pests\n\nWhitefly: 2 ml per litre.\n\nAphid: 3 ml per litre.\n\n"
            "| Pest | Dose |\n|---|---|\n| Whitefly | 2 ml |\n\n- spray in the evening\n- wait 7 days\n")
    joined = seamcut.chunk(doc_of(text), strategy="structure", size=200, overlap=0)
    assert len(joined) == 1
    apart = seamcut.chunk(doc_of(text), strategy="structure", size=200, overlap=0, join_blocks=False)
    bodies = [c.body.strip() for c in apart]
    assert bodies == ["# Manual\n\n## Pests\n\nWhitefly: 2 ml per litre.", "Aphid: 3 ml per litre.",
                      "| Pest | Dose |\n|---|---|\n| Whitefly | 2 ml |",
                      "- spray in the evening\n- wait 7 days"]
    assert all(c.context == "Manual / Pests\n" for c in apart)
    assert all(c.body == text[c.start:c.end] and c.text == c.context + c.body for c in apart)


def _block_starts(doc: Document, a: int, b: int) -> int:
    """How many blocks (paragraphs, tables, code, lists) begin inside ``[a, b)``."""
    starts = 0
    prev_item = False
    for el in doc.elements:
        item = el.kind == "list_item"
        if a <= el.start < b and el.kind not in ("heading", "title") and not (item and prev_item):
            starts += 1
        prev_item = item
    return starts


@SETTINGS
@given(text=markdown_docs(), size=st.integers(40, 120), tok=st.sampled_from(["default", "minilm"]),
       parent_unit=st.sampled_from(["sections", "blocks"]))
def test_parent_child_children_lie_in_their_parents(text, size, tok, parent_unit):
    from seamcut.tokens import load_sizer

    doc = doc_of(text)
    chunks = seamcut.chunk(doc, strategy="parent-child", size=size, overlap=0, parent_size=4 * size,
                           tokenizer=TOKENIZERS[tok], parents=parent_unit)
    sizer = load_sizer(TOKENIZERS[tok])
    parents = {c.id: c for c in chunks if c.metadata["role"] == "parent"}
    children = [c for c in chunks if c.metadata["role"] == "child"]
    assert parents and children
    for c in chunks:
        assert c.body == text[c.start:c.end] and c.text == c.context + c.body
        assert c.tokens == sizer.count(c.text)
    for c in children:
        p = parents[c.parent_id]
        assert p.start <= c.start and c.end <= p.end
        assert c.tokens <= size
    for p in parents.values():
        assert p.tokens <= 4 * size and p.parent_id is None
        if parent_unit == "blocks":  # never two blocks in one parent
            assert _block_starts(doc, p.start, p.end) <= 1, p.body
    # the children cover the parents' text: nothing lost
    covered = sorted((c.start, c.end) for c in children)
    for (a, b), (c, d) in zip(covered, covered[1:]):
        assert not text[b:c].strip()


def test_parent_child_refuses_an_unknown_parent_unit():
    with pytest.raises(ValueError, match="parents must be one of sections, blocks"):
        seamcut.chunk("Some text.", strategy="parent-child", parents="pages")


def test_parent_child_on_the_helpline_whitefly_table():
    from pathlib import Path

    d = seamcut.read(Path(__file__).resolve().parents[2] / "examples" / "helpline" / "cotton-manual.pdf")
    chunks = seamcut.chunk(d, strategy="parent-child")
    child = next(c for c in chunks if c.metadata["role"] == "child" and "Whitefly | 2 ml per litre" in c.text)
    assert child.tokens <= 100
    parent = next(c for c in chunks if c.id == child.parent_id)
    assert "Spray in the evening" in parent.text  # the advice under the table


def test_structure_pass_gives_units_with_their_packing_rule():
    from seamcut.outline import Outline
    from seamcut.strategies.units import ATTACH, ITEMS, PROSE, ROWS, sections

    text = ("# Cotton\n\n## Pests\n\nSpray these:\n\n- Whitefly\n- Aphid\n\n"
            "| Pest | Dose |\n|---|---|\n| Whitefly | 2 ml |\n| Aphid | 3 ml |\n")
    doc = doc_of(text)
    secs = sections(doc, Outline(doc))
    assert [s.path for s in secs] == [("Cotton", "Pests")]
    units = secs[0].units
    assert [(u.kind, u.rule) for u in units] == [
        ("heading", ATTACH), ("heading", ATTACH), ("paragraph", PROSE), ("list", ITEMS),
        ("table", ROWS)]
    listing, table = units[3], units[4]
    assert listing.head == "Spray these:\n" and len(listing.parts) == 2
    assert table.head == "| Pest | Dose |\n" and table.parts[-1] == table.end


def test_children_are_cut_at_parent_borders_keeping_their_context():
    from seamcut.strategies.chunks import Draft
    from seamcut.strategies.parent_child import cut_at

    text = "one two three four five six"
    drafts = cut_at(text, [Draft(0, 13, "ctx\n", ("A",)), Draft(13, 27)], [8, 13, 18])
    assert [(d.start, d.end, d.context) for d in drafts] == [
        (0, 8, "ctx\n"), (8, 13, "ctx\n"), (13, 18, ""), (18, 27, "")]


def test_overlap_beside_a_context_leaves_room_to_move_on():
    """Beside a heading path (or a repeated table header) the overlap is at most half the room
    that context leaves. At size 64 with the default overlap of 50, the pieces of a split block
    stepped a character at a time: the helpline cotton manual came out as 3,610 chunks, 3,590 of
    them one to three characters long."""
    from pathlib import Path

    d = seamcut.read(Path(__file__).resolve().parents[2] / "examples" / "helpline" / "cotton-manual.pdf")
    chunks = seamcut.chunk(d, strategy="structure", size=64)
    assert len(chunks) <= len(seamcut.chunk(d, strategy="recursive", size=64, context="none"))
    assert min(len(c.body.strip()) for c in chunks) >= 4
    table = seamcut.chunk(doc_of(CONTEXT_TABLE), strategy="structure", size=64)
    assert min(len(c.body.strip()) for c in table) >= 4
