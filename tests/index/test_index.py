"""The LanceDB index: build, incremental update, the three search modes, filters, Devanagari
words in full-text search, and parent-child grouping; with the real default embedding model."""
from __future__ import annotations

import os

import pytest

import seamcut
from seamcut.pipeline.corpus import read_corpus
from seamcut.errors import ConfigError
from seamcut.index import Filter, FilterError, Index, IndexConfigError, WhereError, remove_index
from tests.helpers.named_index import SOURCES, named_index
from tests.helpers.small_docs import ORANGE, write_docs


@pytest.fixture()
def corpus(tmp_path):
    write_docs(tmp_path)
    (tmp_path / "catalog.csv").write_text(
        "file,crop,year,doc_type\ncotton.md,cotton,2024,manual\nsoybean-hi.md,soybean,2025,manual\n"
        "orange.md,orange,2026,notice\n", encoding="utf-8")
    return tmp_path


def _build(path, corpus_dir, strategy="structure", **opts):
    from seamcut.pipeline.catalog import load_catalog
    c = read_corpus([corpus_dir / "docs"], catalog=load_catalog(corpus_dir / "catalog.csv"), cache=False,
                    progress=False, workers=1)
    ix = Index(path, strategy=strategy, options=opts, model="default")
    report = ix.update(c.documents, lambda d: seamcut.chunk(d, strategy=strategy, **opts), c.hashes)
    return ix, report, c


def test_build_search_and_filter(tmp_path, corpus):
    ix, report, c = _build(tmp_path / "db", corpus)
    chunks = [ch for d in c.documents for ch in seamcut.chunk(d, strategy="structure")]
    assert report.chunks == len(chunks) == ix.count() and len(report.added) == 3
    for mode in ("vector", "text", "hybrid"):
        hits = ix.search("whitefly on cotton, how many ml per litre", 2, mode=mode)
        assert hits[0].chunk.heading_path[-1] == "Whitefly", mode
        assert "2 ml per litre" in hits[0].chunk.text
        assert [h.rank for h in hits] == [1, 2]
        assert (hits[0].similarity is None) == (mode == "text")
    # every field of the chunk comes back, document fields included
    top = ix.search("whitefly dose", 1)[0].chunk
    assert top in chunks
    assert top.metadata["crop"] == "cotton" and top.metadata["year"] == 2024
    # filters on document fields, typed
    hits = ix.search("when should I spray?", 4, where="crop = 'orange'")
    assert hits and all(h.chunk.metadata["crop"] == "orange" for h in hits)
    assert all(h.chunk.metadata["year"] >= 2025 for h in ix.search("seed", 4, where="year >= 2025"))
    assert ix.search("cotton", 3, where="crop = 'wheat'") == []


def test_a_budget_of_tokens_and_its_old_name(tmp_path):
    """``budget``: tokens of the model the results hold together; ``max_tokens``, its old name,
    still works for a release with a DeprecationWarning pointed at the caller; both: refused."""
    ix = named_index(tmp_path / "db")
    full = ix.search("spray dose", 4)
    budget = full[0].chunk.tokens + full[1].chunk.tokens
    got = ix.search("spray dose", 4, budget=budget)
    assert [h.chunk.id for h in got] == [h.chunk.id for h in full][:len(got)] and len(got) >= 2
    assert sum(h.chunk.tokens for h in got) <= budget and len(ix.search("spray dose", 4, budget=1)) == 1
    with pytest.warns(DeprecationWarning, match="max_tokens is deprecated: it is now budget") as caught:
        old = ix.search("spray dose", 4, max_tokens=budget)
    assert old == got and caught[0].filename == __file__
    with pytest.warns(DeprecationWarning) as caught:
        assert ix.search_state("spray dose", 4, max_tokens=budget)[0] == got
    assert caught[0].filename == __file__
    with pytest.raises(ConfigError, match="give budget or max_tokens"):
        ix.search("spray dose", 4, budget=budget, max_tokens=budget)


def test_a_source_filter_names_a_file_as_stored_by_its_name_or_by_its_path(tmp_path):
    """A file given as ``../mydocs/R-data.md`` is stored so; a filter on ``source`` finds it by
    that, by its file name, by its path's last parts or by its absolute path; not by a part of a
    name."""
    ix = named_index(tmp_path / "db")
    cotton, orange = SOURCES

    def sources(*filters):
        return {h.chunk.source for h in ix.search("spray dose", 10, filters=list(filters))}
    for named in (cotton, "R-data.md", "mydocs/R-data.md", "./mydocs/R-data.md", os.path.abspath(cotton)):
        assert sources(Filter("source", "eq", named)) == {cotton}, named
    assert sources(Filter("source", "eq", "orange.md")) == {orange}
    assert sources(Filter("source", "in", ["R-data.md", "notes/orange.md"])) == {cotton, orange}
    assert sources(Filter("source", "ne", "R-data.md")) == {orange}
    assert sources(Filter("source", "eq", "data.md")) == set()  # a part of a name is not a name
    assert sources(Filter("file", "eq", "R-data.md")) == {cotton}  # the file name's own field


def test_a_filter_that_matches_no_value_is_said_with_values_the_field_holds(tmp_path):
    ix = named_index(tmp_path / "db")
    assert ix.search("spray dose", 4, filters=[Filter("source", "eq", "R-data.pdf")]) == []
    assert ix.unmatched([Filter("source", "eq", "R-data.pdf")]) == [
        "source = 'R-data.pdf' matches no chunk of the index; source holds '../mydocs/R-data.md', "
        "'notes/orange.md'"]
    assert ix.unmatched([Filter("file", "in", ["R-data.pdf"])]) == [
        "file IN ['R-data.pdf'] matches no chunk of the index; file holds 'R-data.md', 'orange.md'"]
    said = ix.unmatched(where="source = 'R-data.md' AND file = 'R-data.md'")  # SQL: a source as stored
    assert said == ['"source = \'R-data.md\' AND file = \'R-data.md\'" matches no chunk of the index; source holds '
                    "'../mydocs/R-data.md', 'notes/orange.md'; file holds 'R-data.md', 'orange.md'"]
    assert ix.unmatched([Filter("source", "eq", "R-data.md"), Filter("source", "eq", "orange.md")]) == [
        "each filter matches some chunks, but no chunk matches them all together"]
    assert ix.unmatched([Filter("source", "eq", "R-data.md")]) == []
    assert ix.unmatched(where="file = 'orange.md'") == []


def test_vector_search_in_memory_matches_the_lancedb_scan(tmp_path, corpus):
    """After the first query the vectors are searched in memory: the same chunks in the same
    order with the same distances as LanceDB's exact scan, and a changed index is reloaded."""
    ix, _, _ = _build(tmp_path / "db", corpus)
    questions = ["whitefly dose per litre", "बीज उपचार", "when does the insurance scheme close?"]
    scanned = [ix._vector_rows(ix.store.view(), q, None, 6) for q in questions[:1]]  # first query: the scan
    assert ix._matrix is None
    in_memory = [ix._vector_rows(ix.store.view(), q, None, 6) for q in questions]
    assert ix._matrix is not None and len(ix._matrix.ids) == ix.count()
    fresh = Index(tmp_path / "db")
    fresh._vector_queries = -100  # keep this one on LanceDB's scan
    for q, got in zip(questions, in_memory):
        want = fresh._vector_rows(fresh.store.view(), q, None, 6)
        assert [r["id"] for r in got] == [r["id"] for r in want], q
        assert [r["_distance"] for r in got] == pytest.approx([r["_distance"] for r in want], abs=1e-5)
        assert {k for k in got[0]} == {k for k in want[0]}
    assert [r["id"] for r in scanned[0]] == [r["id"] for r in in_memory[0]]
    # a filter goes to LanceDB (prefiltered), and so does an index too big for memory
    hits = ix.search("when should I spray?", 3, mode="vector", where="crop = 'orange'")
    assert hits and all(h.chunk.metadata["crop"] == "orange" for h in hits)
    # the index changes: the copy in memory follows
    (corpus / "docs" / "orange.md").write_text(ORANGE + "\nMandarin growers may also apply.\n", encoding="utf-8")
    ix2, report, _ = _build(tmp_path / "db", corpus)
    ix2._vector_queries = 1
    assert "Mandarin" in ix2.search("mandarin growers", 1, mode="vector")[0].chunk.text
    assert ix._vector_rows(ix.store.view(), "mandarin growers", None, 1)[0]["id"] == ix2.search("mandarin growers", 1, mode="vector")[0].chunk.id


def test_a_long_lived_reader_follows_a_rebuild_of_its_folder(tmp_path, corpus):
    """A reader keeps its open tables while the state published is the same; a folder removed
    and built again (other chunks, the same table versions) is another state."""
    ix, _, _ = _build(tmp_path / "db", corpus)
    reader = Index(tmp_path / "db")
    assert reader.search("whitefly dose per litre", 1, mode="text")[0].chunk.strategy == "structure"
    for _ in range(2):
        reader.search("whitefly dose per litre", 3, mode="vector")
    before = reader.count()
    remove_index(tmp_path / "db")
    _build(tmp_path / "db", corpus, strategy="fixed", size=24, overlap=0)
    now = Index(tmp_path / "db").count()
    assert now != before  # another state (else pick another size)
    assert reader.count() == now
    assert reader.search("whitefly dose per litre", 1, mode="text")[0].chunk.strategy == "fixed"
    # the vectors it holds in memory are the new state's too (the same version of another table)
    fresh = Index(tmp_path / "db")
    for _ in range(2):  # the second vector query of an Index reads its vectors in memory
        assert [h.chunk.id for h in reader.search("whitefly dose per litre", 3, mode="vector")] == \
            [h.chunk.id for h in fresh.search("whitefly dose per litre", 3, mode="vector")]


@pytest.mark.filterwarnings("ignore:optimize\\(cleanup_older_than=0\\)")
def test_a_read_whose_state_is_cleaned_up_under_it_reads_the_next_one(tmp_path, corpus, monkeypatch):
    """A search under way when the writer publishes the next state and deletes the files of the
    one it was reading (the cleanup of old versions: here every older one at once) reads the
    new state instead of failing."""
    from datetime import timedelta

    import seamcut.index.store as store

    _build(tmp_path / "db", corpus)
    reader = Index(tmp_path / "db")
    reader.search("whitefly dose per litre", 2)
    taken = reader.store.view()  # a read began on this state
    monkeypatch.setattr(store, "OLD_VERSIONS", timedelta(0))
    cotton = corpus / "docs" / "cotton.md"
    cotton.write_text(cotton.read_text(encoding="utf-8") + "\nSpray whitefly in the evening.\n", encoding="utf-8")
    _build(tmp_path / "db", corpus)
    with pytest.raises(RuntimeError, match="Not found"):
        taken.all_chunks()  # its files are gone
    fresh = Index(tmp_path / "db")
    for read in (lambda ix: [h.chunk.text for h in ix.search("whitefly dose per litre", 2)],
                 lambda ix: [h.chunk.text for h in ix.search("whitefly evening", 2, mode="text")],
                 lambda ix: ix.count(), lambda ix: [c.id for c in ix.all_chunks()]):
        first = [taken]  # the read began before the publish
        real = reader.store.view
        monkeypatch.setattr(reader.store, "view", lambda: first.pop() if first else real())
        assert read(reader) == read(fresh)
        monkeypatch.setattr(reader.store, "view", real)


def test_a_view_reads_each_tables_schema_once_and_a_new_state_reads_it_again(tmp_path, corpus):
    """A published state's tables are at fixed versions: LanceDB's schema read (three or four a
    query it builds) is made once a view; the next state published opens its tables afresh."""
    ix, _, _ = _build(tmp_path / "db", corpus)
    reader = Index(tmp_path / "db")
    view = reader.store.view()
    table = view.tables["chunks"]
    assert type(table).__name__ == "PinnedLanceTable" and table.schema is table.schema
    assert reader.search("whitefly dose", 2) == Index(tmp_path / "db").search("whitefly dose", 2)
    assert reader.store.view() is view  # nothing published since: the same view
    (corpus / "docs" / "orange.md").write_text(ORANGE.replace("31 July 2026", "15 August 2026"), encoding="utf-8")
    _build(tmp_path / "db", corpus)
    fresh = reader.store.view()
    assert fresh is not view and fresh.tables["chunks"] is not table
    assert "15 August 2026" in reader.search("August", 1, mode="text")[0].chunk.text


def test_full_text_search_keeps_devanagari_words_whole(tmp_path, corpus):
    ix, _, _ = _build(tmp_path / "db", corpus)
    for word in ("फफूंदनाशक", "प्रति", "उपचारित"):
        hits = ix.search(word, 1, mode="text")
        assert hits and word in hits[0].chunk.text, word
    # a piece of a word is not a word: "प" is the start of प्रति, cut at its virama
    assert ix.search("प", 3, mode="text") == []
    hits = ix.search("बीज उपचार के लिए फफूंदनाशक कितना?", 1)
    assert "3 ग्राम फफूंदनाशक प्रति किलो बीज" in hits[0].chunk.text


def test_unchanged_files_are_skipped_and_a_changed_file_replaces_its_own_chunks(tmp_path, corpus):
    db = tmp_path / "db"
    ix, first, _ = _build(db, corpus)
    before = {(c.source, c.id) for c in ix.all_chunks()}
    again, second, _ = _build(db, corpus)
    assert second.unchanged and not second.added and not second.replaced
    assert second.embedded == 0 and second.chunks == 0 and again.count() == ix.count()
    (corpus / "docs" / "orange.md").write_text(ORANGE.replace("31 July 2026", "15 August 2026"), encoding="utf-8")
    third_ix, third, _ = _build(db, corpus)
    assert [s.endswith("orange.md") for s in third.replaced] == [True] and len(third.unchanged) == 2
    assert third.embedded == 1  # only the changed chunk's text was new to the cache
    after = {(c.source, c.id) for c in third_ix.all_chunks()}
    assert {x for x in before if not x[0].endswith("orange.md")} <= after
    assert third_ix.count() == ix.count()
    texts = " ".join(c.text for c in third_ix.all_chunks())
    assert "15 August 2026" in texts and "31 July 2026" not in texts
    # the full-text index follows: the new words are found, the replaced ones are gone
    assert "15 August 2026" in third_ix.search("August", 1, mode="text")[0].chunk.text
    assert third_ix.search("July", 3, mode="text") == []


def test_parent_child_returns_each_parent_once_with_its_children(tmp_path, corpus):
    ix, report, _ = _build(tmp_path / "db", corpus, "parent-child", size=40)
    assert report.parents > 0 and report.chunks > report.parents
    hits = ix.search("whitefly aphids cotton dose per litre", 3)
    parents = [h.chunk for h in hits]
    assert len({p.id for p in parents}) == len(parents)
    assert all(p.metadata["role"] == "parent" for p in parents)
    assert hits[0].children and all(ch.parent_id == hits[0].chunk.id for ch in hits[0].children)
    assert all(ch.start >= hits[0].chunk.start and ch.end <= hits[0].chunk.end for ch in hits[0].children)
    budget = hits[0].chunk.tokens
    assert len(ix.search("whitefly aphids cotton dose per litre", 3, budget=budget)) == 1


NUTRIENTS = """# Nutrient guide

## Soil nutrients

Zinc sulphate goes in at 25 kg per hectare before sowing. Boron is sprayed at flowering, 1 gram per litre.

## Drip lines

Zinc salts settle in drip lines: zinc deposits, zinc crusts and zinc sludge clog the emitters.

## Foliar sprays

Boron sprays scorch leaves at high doses: boron burns, boron spots, boron stress in heat.
"""


def _nutrient_index(tmp_path, parents):
    docs = tmp_path / parents
    docs.mkdir()
    (docs / "nutrients.md").write_text(NUTRIENTS, encoding="utf-8")
    c = read_corpus([docs], cache=False, progress=False, workers=1)
    opts = {"size": 24, "parents": parents}
    ix = Index(tmp_path / f"db-{parents}", strategy="parent-child", options=opts, model="default")
    ix.update(c.documents, lambda d: seamcut.chunk(d, strategy="parent-child", **opts), c.hashes)
    return ix


@pytest.mark.parametrize("parents", ["sections", "blocks"])
def test_parent_child_words_rank_children_or_whole_block_parents(tmp_path, parents):
    """With sections for parents, BM25 ranks the children and a parent comes where its best child
    does; with blocks, BM25 ranks the parents themselves: the paragraph holding both words comes
    first, though each of its children holds only one and other children repeat one word."""
    from seamcut.index.store import text_rows as _text_rows

    ix = _nutrient_index(tmp_path, parents)
    for mode in ("vector", "text", "hybrid"):
        hits = ix.search("zinc boron", 3, mode=mode)
        assert len({h.chunk.id for h in hits}) == len(hits) == 3, mode
        assert all(h.chunk.metadata["role"] == "parent" for h in hits)
    top = ix.search("zinc boron", 1, mode="text")[0]
    best_child = _text_rows(ix.db.open_table("chunks"), "zinc boron", None, 1)[0]
    soil = "Soil nutrients" in top.chunk.heading_path
    if parents == "blocks":
        assert soil and best_child["parent_id"] != top.chunk.id
        found = " ".join(ch.body for ch in top.children)
        assert "Zinc" in found and "Boron" in found  # the children of both words
    else:
        assert not soil and top.score == pytest.approx(best_child["_score"])  # ranked by a child
    assert ix.search("", 3) == [] and ix.search("  ", 3, mode="text") == []


def test_the_parent_text_rank_is_saved_and_an_index_saved_without_it_ranks_as_before(tmp_path):
    """``parents="blocks"`` makes BM25 rank the parents, written down in the settings; an index
    written before the setting existed (no such field) still ranks its parents by BM25."""
    import json

    from seamcut.index import SETTINGS_FILE
    ix = _nutrient_index(tmp_path, "blocks")
    assert ix.settings.parent_text_rank == "parents"
    settings = tmp_path / "db-blocks" / SETTINGS_FILE
    saved = json.loads(settings.read_text(encoding="utf-8"))
    assert saved["parent_text_rank"] == "parents"
    queries = [("zinc boron", mode) for mode in ("vector", "text", "hybrid")]
    before = [[(h.chunk.id, h.score, h.similarity) for h in ix.search(q, 3, mode=m)] for q, m in queries]
    del saved["parent_text_rank"]
    settings.write_text(json.dumps(saved), encoding="utf-8")
    old = Index(tmp_path / "db-blocks", strategy="parent-child", options={"size": 24, "parents": "blocks"})
    assert old.settings.parent_text_rank == "parents"
    assert [[(h.chunk.id, h.score, h.similarity) for h in old.search(q, 3, mode=m)] for q, m in queries] == before
    with pytest.raises(IndexConfigError, match="built with parent_text_rank 'parents', not 'children'"):
        Index(tmp_path / "db-blocks", parent_text_rank="children")


def test_a_where_the_tables_refuse_is_a_where_error(tmp_path, corpus):
    """A bad ``where`` reached the command line as LanceDB's ValueError, told apart by its class
    name as a string; it is the index's ``WhereError`` (a ``FilterError``, a ``SeamcutError``)."""
    ix, _, _ = _build(tmp_path / "db", corpus)
    for where, reason in (("nosuch = 1", "nosuch"), ("crop = = 'x'", "parsing")):
        for mode in ("vector", "text", "hybrid"):
            with pytest.raises(WhereError) as caught:
                ix.search("whitefly", 2, mode=mode, where=where)
            assert isinstance(caught.value, FilterError) and caught.value.where == where
            assert str(caught.value).startswith(f"where {where!r}: ") and reason in caught.value.reason
            assert "\n" not in str(caught.value)
    assert ix.search("whitefly", 2, where="crop = 'rice'") == []  # a where that matches nothing is no error


def test_an_index_refuses_another_strategy_and_a_folder_that_is_not_one(tmp_path, corpus):
    _build(tmp_path / "db", corpus)
    with pytest.raises(IndexConfigError, match="built with strategy 'structure', not 'fixed'"):
        Index(tmp_path / "db", strategy="fixed", options={})
    with pytest.raises(IndexConfigError, match="no seamcut index here"):
        Index(tmp_path / "empty")
    with pytest.raises(ValueError, match="mode must be one of"):
        Index(tmp_path / "db").search("x", mode="fuzzy")  # type: ignore[arg-type]
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "precious.txt").write_text("keep me")
    with pytest.raises(IndexConfigError, match="not a seamcut index folder"):
        remove_index(tmp_path / "other")
    remove_index(tmp_path / "db")
    assert not (tmp_path / "db").exists()


def test_a_context_is_embedded_and_full_text_indexed_with_the_body(tmp_path, corpus, monkeypatch):
    """``context=``: what is embedded and what full-text search reads is context + body, while
    the span stays the body's (issue 38 point 1)."""
    embedded: list[str] = []
    real = Index._embed

    def spy(self, texts):
        embedded.extend(texts)
        return real(self, texts)

    monkeypatch.setattr(Index, "_embed", spy)
    ix, _, c = _build(tmp_path / "db", corpus, "recursive", context="title+path+fields", size=64, overlap=0)
    chunks = ix.all_chunks()
    assert sorted(embedded) == sorted(ch.text for ch in chunks) and len(chunks) > 3
    text = {d.source: d.text for d in c.documents}
    for ch in chunks:
        assert ch.text == ch.context + ch.body and ch.body == text[ch.source][ch.start:ch.end]
    cotton = [ch for ch in chunks if ch.source.endswith("cotton.md")]
    assert all(ch.context.startswith("Cotton manual\ncrop: cotton; year: 2024; doc_type: manual\n")
               for ch in cotton)
    assert any(ch.context.endswith("Pests / Whitefly\n") for ch in cotton)
    # "2024" is in no body, only in the cotton manual's fields line: full-text search finds it there
    hits = ix.search("2024", 4, mode="text")
    assert hits and all(h.chunk.source.endswith("cotton.md") for h in hits)
