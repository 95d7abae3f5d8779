"""Filters read from a question against the values an index holds (``Index.asked``): the
documents' fields, found where a question names them, with a fall-back to the whole index where
they leave fewer than k chunks; and ``compare --filters question`` judging them beside the whole
index."""
from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

import seamcut
from seamcut.embed import load_embedder
from seamcut.evaluate import load_questions
from seamcut.index import Filter, Index, Query
from tests.helpers.judging import compared


def _fielded(helpline_documents):
    """Four helpline documents with the fields a catalog gives them (year, crop; Marathi for the
    orange manual), the cotton manual with its crop's names in Hindi and Marathi as aliases."""
    fields = {"crop-insurance-2024.pdf": {"year": 2024, "crop": "all"},
              "crop-insurance-2026.pdf": {"year": 2026, "crop": "all"},
              "cotton-manual.pdf": {"year": 2025, "crop": "cotton", "aliases": {"crop": ["कापूस", "कपास"]}},
              "orange-manual-mr.pdf": {"year": 2025, "crop": "orange", "aliases": {"crop": ["संत्रा"]}}}
    out = []
    for d in helpline_documents:
        f = fields.get(Path(d.source).name)
        if f:
            out.append(dataclasses.replace(d, metadata={**d.metadata, **f}))
    assert len(out) == 4
    return out


@pytest.fixture(scope="module")
def fielded(helpline_documents):
    return _fielded(helpline_documents)


@pytest.fixture(scope="module")
def index(tmp_path_factory, fielded):
    ix = Index(tmp_path_factory.mktemp("asked") / "db", strategy="structure", model="default")
    ix.update(fielded, lambda d: seamcut.chunk(d, strategy="structure"))
    ix.finish()
    return ix


def test_a_question_naming_a_year_and_a_crop_is_filtered_on_them(index):
    asking = index.asked("How much premium for cotton under the 2026 crop insurance scheme?")
    assert asking.filters == (Filter("year", "eq", 2026), Filter("crop", "in", ["cotton", "all"]))
    assert asking.why.startswith("read from the question: '2026' in the question names year 2026")
    hits = index.search("premium for cotton 2026", 4, filters=asking.filters)
    assert hits and all("2026" in h.chunk.source for h in hits)


def test_an_alias_in_devanagari_names_its_value(index):
    asking = index.asked("कपास में सफेद मक्खी के लिए कौन सी दवा?")
    assert asking.filters == (Filter("crop", "in", ["cotton", "all"]),)
    assert "'कपास' is an alias of crop 'cotton'" in asking.why
    asking = index.asked("संत्रा बागेसाठी २०२५ मध्ये कोणते औषध?")
    assert asking.filters == (Filter("year", "eq", 2025), Filter("crop", "in", ["orange", "all"]))


def test_no_field_named_no_filter(index):
    asking = index.asked("Within how many hours must hail damage be reported?")
    assert asking.filters == () and asking.why == ""


def test_a_filter_leaving_fewer_than_k_chunks_falls_back_to_the_whole_index(index):
    chunks = index.search("premium 2024", 1, filters=[Filter("year", "eq", 2024)])
    assert chunks
    left = index.store.view().matches("year = 2024")
    asking = index.asked("What was the premium in 2024?", k=left + 1)
    assert asking.filters == ()
    assert asking.why.endswith(f"every one of them leaves fewer than {left + 1} chunks: the whole index searched")
    assert index.asked("What was the premium in 2024?", k=left).filters == (Filter("year", "eq", 2024),)


def test_fields_that_leave_nothing_together_keep_the_most_that_leave_k(index):
    # no document is about cotton in Marathi (the cotton manual is English, the insurance notices
    # for every crop too): the first field named in the index's order is kept, the other left out
    asking = index.asked("Which cotton pests does the Marathi manual list?")
    assert asking.filters == (Filter("language", "eq", "mr"),)
    assert "'Marathi' is the name of language 'mr'" in asking.why
    assert asking.why.endswith("(crop left out: with it fewer than 4 chunks are left)")


def test_compare_judges_filters_read_from_the_question_beside_the_whole_index(tmp_path, fielded):
    p = tmp_path / "q.yaml"
    p.write_text("""
- id: y24
  question: In 2024, what share of the premium did a farmer pay for kharif food grains?
  must_contain: 2 percent of sum insured
- id: y26
  question: How much premium does a farmer pay for soybean under the 2026 crop insurance scheme?
  must_contain: 1 rupee per application
""", encoding="utf-8")
    result = compared(fielded, load_questions(p), ["structure"], load_embedder(None, cache=True), tmp_path / "w",
                      filters=["none", "question"])
    by = {s.name: s for s in result.strategies}
    assert list(by) == ["structure", "structure (from question)"]
    for o in by["structure (from question)"].outcomes:
        year = o.question.id[1:]
        assert o.filtered.filters[0] == Filter("year", "eq", int("20" + year))
        assert o.results and all(year in Path(r.source).name for r in o.results)
    assert [c.best for c in result.filtered_against_whole()] == ["structure (from question)"]


def test_search_reads_filters_from_the_question_and_says_why(index):
    import json

    from typer.testing import CliRunner

    from seamcut.cli import app
    r = CliRunner().invoke(app, ["search", "premium for cotton under the 2026 scheme", "--db", str(index.path),
                                 "--read-filters", "--json", "-"])
    assert r.exit_code == 0, r.output
    hits = json.loads(r.stdout)
    assert hits and all("2026" in h["chunk"]["source"] for h in hits)
    assert hits[0]["filter"]["filters"] == [{"field": "year", "op": "eq", "value": 2026},
                                            {"field": "crop", "op": "in", "value": ["cotton", "all"]}]
    assert hits[0]["filter"]["why"].startswith("read from the question: ")
    assert hits[0]["filter"]["text_query"] == "premium for cotton under the scheme"
    r = CliRunner().invoke(app, ["search", "premium for cotton under the 2026 scheme", "--db", str(index.path)])
    assert r.exit_code == 0 and "filter" not in r.stdout.lower().split("\n")[0]


def test_serve_reads_filters_when_asked(index):
    from fastapi.testclient import TestClient

    from seamcut.serve.app import Settings, make_app
    with TestClient(make_app(Settings(index.path), warm=False)) as client:
        got = client.post("/search", json={"query": "premium in 2024", "read_filters": True}).json()
        assert got["results"] and all("2024" in r["chunk"]["source"] for r in got["results"])
        assert got["results"][0]["filter"]["filters"] == [{"field": "year", "op": "eq", "value": 2024}]
        plain = client.post("/search", json={"query": "premium in 2024"}).json()
        assert "filter" not in plain["results"][0]


def _filings(tmp_path, with_manual: bool = False):
    """A small index of filings with a company and a period each (Amazon's newest a quarter
    before Apple's), and where asked a manual stating no period."""
    from seamcut.model import Document
    docs = [Document(f"{company} quarterly report for {period}. Net sales rose in the quarter.",
                     source=f"{company}-{period}.txt", metadata={"company": company, "period": period})
            for company, period in [("Apple", "2023 Q1"), ("Apple", "2023 Q3"), ("Apple", "2023 Q2"),
                                    ("Amazon", "2023 Q1"), ("Amazon", "2023 Q2")]]
    if with_manual:
        docs.append(Document("Apple orchard manual: prune in winter.", source="manual.txt",
                             metadata={"company": "Apple"}))
    ix = Index(tmp_path / "db", strategy="recursive", model="default")
    ix.update(docs, lambda d: seamcut.chunk(d, strategy="recursive"))
    ix.finish()
    return ix


def test_the_latest_is_the_newest_period_of_the_documents_the_other_filters_leave(tmp_path):
    ix = _filings(tmp_path)
    asking = ix.asked("What was Apple's gross margin in the latest 10-Q?", k=1)
    assert asking.filters == (Filter("company", "eq", "Apple"), Filter("period", "eq", "2023 Q3"))
    assert asking.why.endswith("'latest' asks for the newest: period '2023 Q3' is the newest of the documents "
                               "the other filters leave")
    assert ix.asked("Amazon's most recent quarter?", k=1).filters == (
        Filter("company", "eq", "Amazon"), Filter("period", "eq", "2023 Q2"))
    # a period named wins; no latest asked, none added
    assert ix.asked("Apple's latest figures for Q1 2023", k=1).filters == (
        Filter("company", "eq", "Apple"), Filter("period", "eq", "2023 Q1"))
    assert ix.asked("Apple's gross margin?", k=1).filters == (Filter("company", "eq", "Apple"),)
    # the latest of everything is not asked: it would be one company's newest filing
    assert ix.asked("What does the latest 10-Q say?", k=1).filters == ()
    hits = ix.search("gross margin", 3, filters=ix.asked("Apple's latest 10-Q", k=1).filters)
    assert [h.chunk.source for h in hits] == ["Apple-2023 Q3.txt"]
    # the words searched: the question without those that named the filters
    assert asking.text_query == "What was gross margin in the 10-Q?" == asking.to_dict()["text_query"]


def test_words_of_a_filter_with_several_values_are_searched(tmp_path):
    ix = _filings(tmp_path)
    asking = ix.asked("Net sales of Apple and Amazon in Q2 2023", k=1)
    assert asking.filters == (Filter("company", "in", ["Apple", "Amazon"]), Filter("period", "eq", "2023 Q2"))
    assert asking.text_query == "Net sales of Apple and Amazon in"
    plain = ix.asked("How did net sales change?", k=1)
    assert plain.text_query == "" and "text_query" not in plain.to_dict()


def test_the_word_ranking_searches_the_words_left(tmp_path):
    """Hybrid search with a text_query: the vector ranking reads the question, the word ranking
    the text_query (a word only the text_query has finds its chunk in text mode)."""
    ix = _filings(tmp_path)
    question = "Apple's net sales in Q3 2023"
    asking = ix.asked(question, k=1)
    assert asking.text_query == "net sales in"
    assert asking.query(question) == Query(question, "net sales in")
    assert ix.asked("How did net sales change?", k=1).query("How did net sales change?") == "How did net sales change?"
    words = ix.search(Query(question, "quarterly"), 5, mode="text", filters=asking.filters)
    assert [h.chunk.source for h in words] == ["Apple-2023 Q3.txt"]
    assert ix.search(Query(question, "orchard"), 5, mode="text", filters=asking.filters) == []
    vector = ix.search(Query(question, "orchard"), 5, mode="vector", filters=asking.filters)
    assert [h.chunk.source for h in vector] == ["Apple-2023 Q3.txt"]
    assert ix.search(Query(question), 5, filters=asking.filters) == ix.search(question, 5, filters=asking.filters)


def test_the_latest_drops_no_document_that_states_no_period(tmp_path):
    ix = _filings(tmp_path, with_manual=True)
    assert ix.asked("What does Apple's latest report say?", k=1).filters == (Filter("company", "eq", "Apple"),)


@pytest.mark.parametrize("question, words", [
    ("the latest 10-Q", "latest"), ("In the most recent quarter", "most recent"),
    ("सबसे नई योजना की अंतिम तिथि?", "सबसे नई"), ("ताज्या अहवालात काय आहे?", "ताज्या"), ("the late 10-Q", None),
])
def test_asking_for_the_newest_in_three_languages(question, words):
    from seamcut.index.asked import asks_latest, newest
    at = asks_latest(question)
    assert (question[at[0]:at[1]] if at else None) == words
    assert newest(["2023 Q1", "2022 Q4", "2023 Q3"]) == "2023 Q3" and newest(["2023-07-01", "2024-01-02"]) == "2024-01-02"
    assert newest([2024, 2026]) is None and newest(["2023 Q1", "manual"]) is None
