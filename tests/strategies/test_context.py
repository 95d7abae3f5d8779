"""``context=``: the title, catalog fields, heading path and page put in front of every strategy's
chunks, counted in the size, the spans left exact (issue 38 point 1)."""
from __future__ import annotations

import dataclasses
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import seamcut
from seamcut.errors import ConfigError
from seamcut.model import Document
from seamcut.readers.markdown import markdown_elements
from seamcut.strategies import REGISTRY
from seamcut.strategies.config import CONTEXT_PARTS, SizeConfig, StructureConfig
from seamcut.strategies.spec import parse_spec

from tests.helpers.invariants import STRATEGIES, TOKENIZERS, check_invariants
from tests.helpers.random_text import RANDOM_TEXT, markdown_docs, sizes

SETTINGS = settings(max_examples=int(os.environ.get("SEAMCUT_EXAMPLES", "25")), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

MANUAL = ("# Cotton crop-care manual\n\n## Pests\n\n### Whitefly\n\n"
          + "Whiteflies suck sap from the underside of the leaves. " * 12
          + "Mix 2 ml per litre and spray in the evening.\n\n### Aphids\n\n"
          + "Aphids curl the young leaves in July. " * 15 + "Mix 3 ml per litre.\n\n## Sowing\n\n"
          + "Sow after the first good rain, 60 cm between rows. " * 10 + "\n")


def document(text: str, title: str | None = "Cotton crop-care manual") -> Document:
    """``text`` as a read Markdown file (its opening level-1 heading its title element) with three
    pages, a ``title`` in its metadata (as a PDF has) and two catalog fields."""
    elements = list(markdown_elements(text))
    if elements and elements[0].kind == "heading" and elements[0].level == 1:
        elements[0] = dataclasses.replace(elements[0], kind="title")
    n = len(text)
    starts = tuple(sorted({0, n // 3, 2 * n // 3})) if n else ()
    meta = {"crop": "cotton", "year": 2025, "catalog_fields": ["crop", "year"]}
    if title:
        meta["title"] = title
    return Document(text=text, source="cotton.md", elements=tuple(elements), page_starts=starts,
                    metadata=meta)


CONTEXTS = st.sampled_from(["title", "path", "page", "fields", "title+path", "title+path+page+fields"])


@pytest.mark.parametrize("strategy", STRATEGIES)
@SETTINGS
@given(text=st.one_of(markdown_docs(), RANDOM_TEXT), params=sizes(), context=CONTEXTS)
def test_invariants_hold_with_a_context_counted_in_the_size(strategy, text, params, context):
    """Spans exact, no text lost, and context + body within the size, counted for real."""
    unit, tok, size, overlap = params
    chunks = check_invariants(document(text), strategy, size, overlap, unit, TOKENIZERS[tok],
                              context=context)
    assert all(c.text.startswith(c.context) and len(c.context) <= len(c.text) for c in chunks)


@pytest.mark.parametrize("strategy", list(REGISTRY))
def test_each_part_is_in_front_of_every_chunk_when_asked(strategy):
    doc = document(MANUAL)
    plain = seamcut.chunk(doc, strategy=strategy, size=120, context="none")
    assert all(c.context == "" for c in plain)
    chunks = seamcut.chunk(doc, strategy=strategy, size=120, context="title+path+page+fields")
    assert len(chunks) >= 3
    for c in chunks:
        assert c.body == doc.text[c.start:c.end] and c.text == c.context + c.body
        lines = c.context.splitlines()
        pages = c.pages
        assert lines[0] == (f"Page {pages[0]}" if len(pages) == 1 else f"Pages {pages[0]}-{pages[-1]}")
        assert lines[1] == "Cotton crop-care manual" and lines[2] == "crop: cotton; year: 2025"
        path = c.heading_path[1:]  # the title opens the path: said once, on its own line
        assert lines[3:] == ([" / ".join(path)] if path else []), (c.context, c.heading_path)
        assert seamcut.tokens.load_sizer(None).count(c.text) == c.tokens
        if c.metadata.get("role") != "parent":
            assert c.tokens <= 120
        assert "catalog_fields" not in c.metadata  # the document keeps the list


@pytest.mark.parametrize("part", CONTEXT_PARTS)
def test_each_part_alone(part):
    doc = document(MANUAL)
    chunks = seamcut.chunk(doc, strategy="recursive", size=100, overlap=0, context=part)
    for c in chunks:
        want = {"title": "Cotton crop-care manual\n", "fields": "crop: cotton; year: 2025\n",
                "path": " / ".join(c.heading_path) + "\n",  # alone, the path keeps its title
                "page": f"Page {c.pages[0]}\n" if len(c.pages) == 1 else f"Pages {c.pages[0]}-{c.pages[-1]}\n",
                }[part]
        assert c.context == want
    assert len({c.context for c in chunks}) > (part in ("path", "page"))


def test_title_falls_back_to_the_title_element_then_the_file_name():
    doc = document(MANUAL, title=None)
    assert seamcut.chunk(doc, strategy="fixed", context="title")[0].context == "Cotton crop-care manual\n"
    plain = Document(text="Sow after the first rain.\n", source="notes/sowing.txt")
    assert seamcut.chunk(plain, strategy="fixed", context="title")[0].context == "sowing.txt\n"
    assert seamcut.chunk("Sow after the first rain.", strategy="fixed", context="title")[0].context == ""


def test_a_long_context_takes_at_most_half_the_size():
    long_title = "A very long title of a made up cotton manual with many many words in it " * 6
    doc = document(MANUAL, title=long_title.strip())
    for strategy in ("recursive", "structure"):
        for c in seamcut.chunk(doc, strategy=strategy, size=64, context="title+path"):
            sizer = seamcut.tokens.load_sizer(None)
            # half the size, the "… " that marks the headings left out aside
            assert sizer.count(c.context) - sizer.overhead <= 32 + 2, c.context
            assert c.tokens <= 64 and c.body == doc.text[c.start:c.end]
            assert c.context.startswith("A very long title") and "…" in c.context


def test_defaults_leave_every_chunk_and_id_as_before():
    doc = document(MANUAL)
    for name in REGISTRY:
        if name == "semantic":
            continue  # the same path as the rest, one embedding pass less
        default = seamcut.chunk(doc, strategy=name, size=120)
        stated = {"structure": "path", "parent-child": "path", "recursive": "title+path",
                  "paragraph": "title+path", "sentence": "title+path"}.get(name, "none")
        assert [c.id for c in seamcut.chunk(doc, strategy=name, size=120, context=stated)] == [
            c.id for c in default], name
        other = seamcut.chunk(doc, strategy=name, size=120, context="page" if stated == "title+path" else "title+path")
        assert {c.id for c in other}.isdisjoint({c.id for c in default})
    # structure's default: the heading path alone, title first, as before the option
    first = seamcut.chunk(doc, strategy="structure", size=120)[1]
    assert first.context == " / ".join(first.heading_path) + "\n"
    # heading_path=false takes the path out of any context
    off = seamcut.chunk(doc, strategy="structure", size=120, context="title+path", heading_path=False)
    assert {c.context for c in off} == {"Cotton crop-care manual\n"}


def test_parts_are_written_in_one_order_whatever_the_order_given():
    assert SizeConfig(context="path+title").context == "title+path"
    assert SizeConfig(context=" fields + page ").context == "page+fields"
    assert SizeConfig(context="none").context == "" == SizeConfig().context
    assert StructureConfig().context == "path" and StructureConfig(context="none").context_parts == ()
    doc = document(MANUAL)
    a = seamcut.chunk(doc, strategy="sentence", context="path+title")
    assert [c.id for c in a] == [c.id for c in seamcut.chunk(doc, strategy="sentence", context="title+path")]


@pytest.mark.parametrize("bad", ["titel", "title+heading", "title,path", 3])
def test_a_bad_part_is_refused_naming_the_allowed_ones(bad):
    with pytest.raises(ConfigError, match="page, title, fields, path"):
        seamcut.chunk("Some text.", strategy="recursive", context=bad)
    if isinstance(bad, str):
        with pytest.raises(ConfigError, match=r"'recursive:context=.*page, title, fields, path"):
            parse_spec(f"recursive:context={bad}")


def test_a_spec_carries_the_context():
    spec = parse_spec("fixed:context=title+path")
    assert spec.options == {"context": "title+path"} and spec.slug == "fixed_context-title_path"
    doc = document(MANUAL)
    c = seamcut.chunk(doc, strategy=spec.name, **spec.options)[0]
    assert c.context == "Cotton crop-care manual\n"  # before the first heading: the title alone


def test_catalog_fields_are_recorded_by_read(tmp_path):
    from seamcut.readers import read

    f = tmp_path / "cotton.md"
    f.write_text(MANUAL, encoding="utf-8")
    doc = read(f, fields={"doc_type": "manual", "crop": "cotton"})
    assert doc.metadata["catalog_fields"] == ["doc_type", "crop"]
    chunks = seamcut.chunk(doc, strategy="paragraph", context="fields")
    assert {c.context for c in chunks} == {"doc_type: manual; crop: cotton\n"}
    assert all(c.metadata["crop"] == "cotton" and "catalog_fields" not in c.metadata for c in chunks)
    assert all(c.context == "" for c in seamcut.chunk(read(f), strategy="paragraph", context="fields"))


@pytest.mark.parametrize("strategy", ["recursive", "structure"])
def test_a_long_document_cut_in_windows_keeps_its_title_path_and_pages(strategy):
    doc = document(MANUAL, title=None)  # the title from the whole document's title element
    whole = seamcut.chunk(doc, strategy=strategy, size=100, context="title+path+page")
    windowed = seamcut.chunk(doc, strategy=strategy, size=100, context="title+path+page", window_chars=600)
    for c in windowed:
        assert c.body == doc.text[c.start:c.end] and c.tokens <= 100
        assert c.context.splitlines()[1] == "Cotton crop-care manual", c.context
        assert c.context.splitlines()[0] == (f"Page {c.pages[0]}" if len(c.pages) == 1
                                             else f"Pages {c.pages[0]}-{c.pages[-1]}")
    assert {c.context for c in windowed} & {c.context for c in whole}


def test_each_chunk_keeps_room_for_its_own_context_not_the_longest():
    """One long heading late in a document does not shrink the chunks before it (the piece-packing
    strategies keep the room of the context each chunk gets, asked at its start)."""
    long = "A heading made far too long by a parser that took a whole caption for one " * 3
    doc = document(MANUAL + f"\n## {long.strip()}\n\n" + "Text under it, said again. " * 40 + "\n")
    chunks = seamcut.chunk(doc, strategy="fixed", size=100, overlap=0, context="title+path")
    early = [c for c in chunks if long.split()[0] + " heading" not in c.context][:-1]
    assert len(early) >= 3 and all(c.tokens >= 96 for c in early), [c.tokens for c in early]
    assert all(c.tokens <= 100 and c.body == doc.text[c.start:c.end] for c in chunks)
