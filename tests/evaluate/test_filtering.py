"""A test set's ``where``: read in every form ``search --where`` and ``/search`` take, applied by
``compare`` beside the run without it, and refused with the question named where the index
cannot take it."""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from seamcut.embed import load_embedder
from seamcut.evaluate import load_questions
from seamcut.evaluate.filtering import check_filters, default_filters, labelled
from seamcut.evaluate.questions import QuestionsError
from seamcut.errors import ConfigError
from seamcut.index.filters import Filter
from tests.helpers.judging import compared


def _load(tmp_path: Path, text: str, name: str = "q.yaml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return load_questions(p)


def test_where_is_read_as_sql_as_fields_and_values_or_as_filters(tmp_path):
    qs = _load(tmp_path, """
- question: a
  where: "crop = 'cotton' AND year >= 2025"
- question: b
  where: {company: Apple, period: 2023 Q3, year: [2022, 2023]}
- question: c
  where: [{field: year, op: gte, value: 2025}, {field: crop, value: cotton}]
- question: d
""")
    assert (qs[0].where, qs[0].filters) == ("crop = 'cotton' AND year >= 2025", ())
    assert qs[1].filters == (Filter("company", "eq", "Apple"), Filter("period", "eq", "2023 Q3"),
                             Filter("year", "in", [2022, 2023]))
    assert qs[2].filters == (Filter("year", "gte", 2025), Filter("crop", "eq", "cotton"))
    assert [q.filtered for q in qs] == [True, True, True, False]
    assert default_filters(qs) == ["none", "where"] and default_filters(qs[3:]) == ["none"]


def test_where_in_a_csv_cell_is_json_or_sql(tmp_path):
    qs = _load(tmp_path, 'question,where\na,"{""crop"": ""cotton""}"\nb,year = 2024\n', "q.csv")
    assert qs[0].filters == (Filter("crop", "eq", "cotton"),) and qs[1].where == "year = 2024"


@pytest.mark.parametrize("where, says", [
    ("[{field: year, op: about, value: 1}]", "unknown operator 'about'"),
    ("[{field: year, opp: eq, value: 1}]", "unknown key 'opp' (did you mean 'op'?)"),
    ("[{op: eq, value: 1}]", "names no field"),
    ("[{field: year, op: in, value: 2024}]", "a list of 1 to 100 values for 'in'"),
    ("[{field: year, value: [2024]}]", "one value for 'eq'"),
    ("3", "not int"),
])
def test_a_where_that_cannot_mean_a_filter_names_the_line(tmp_path, where, says):
    with pytest.raises(QuestionsError) as e:
        _load(tmp_path, f"- question: a\n  where: {where}\n")
    assert str(e.value).startswith(f"{tmp_path / 'q.yaml'}:1: ") and says in str(e.value), str(e.value)


def test_ways_of_filtering_are_checked_and_named():
    assert check_filters(["where", "none"]) == ["none", "where"]
    with pytest.raises(ConfigError, match="unknown way 'filtered'"):
        check_filters(["filtered"])
    assert labelled("structure", "none") == "structure" and labelled("structure", "where") == "structure (where)"


@pytest.fixture(scope="module")
def insurance(helpline_documents):
    """The two crop insurance notices, each with the year a catalog gives it."""
    docs = [d for d in helpline_documents if "crop-insurance" in d.source]
    assert len(docs) == 2
    return [dataclasses.replace(d, metadata={**d.metadata, "year": int(Path(d.source).stem[-4:])}) for d in docs]


def test_compare_judges_the_test_sets_where_beside_the_whole_index(tmp_path, insurance):
    # the same words ask of both years: only the filter tells the 2024 notice from the 2026 one
    qs = _load(tmp_path, """
- id: y24
  question: What share of the premium does a farmer pay for kharif food grains?
  must_contain: 2 percent of sum insured
  where: {year: 2024}
- id: y26
  question: Which documents are needed to apply for crop insurance?
  must_contain: Farmer ID (Agristack registration number)
  where: "year = 2026"
- id: plain
  question: Within how many hours must hail damage be reported?
  must_contain: within 72 hours
""")
    result = compared(insurance, qs, ["structure"], load_embedder(None, cache=True), tmp_path / "w")
    by = {s.name: s for s in result.strategies}
    assert list(by) == ["structure", "structure (where)"]
    filtered = by["structure (where)"]
    assert filtered.strategy == "structure" and filtered.filters == "where"
    for o in filtered.outcomes:
        year = {"y24": "2024", "y26": "2026"}.get(o.question.id)
        assert all(year in r.source for r in o.results) if year else o.filtered.why == ""
    assert [o.hit for o in filtered.outcomes] == [True, True, True]
    data = result.to_json()
    row = next(s for s in data["strategies"] if s["name"] == "structure (where)")
    assert row["strategy"] == "structure" and row["filters"] == "where"
    assert row["per_question"][0]["filter"] == {"where": None, "filters": [
        {"field": "year", "op": "eq", "value": 2024}], "why": "the test set's where"}
    assert "filter" not in next(s for s in data["strategies"] if s["name"] == "structure")["per_question"][0]
    json.dumps(data)
    from seamcut.report.compare_html import render
    page = render(result)
    assert "What each filter did" in page and "structure (where)" in page
    # the view: the filtered row is its strategy's chunking searched otherwise, cut once
    from seamcut.api import chunk
    from seamcut.pipeline.jobs import model_sized
    from seamcut.report.view import strategies_of_run
    from seamcut.report.view.questions import questions_data
    assert [s.label for s in strategies_of_run(data)] == ["structure"]
    chunkings = {"structure": [c for d in insurance for c in chunk(d, strategy="structure",
                                                                     **model_sized({}, data["model"]))]}
    view = questions_data(data, insurance, chunkings)
    assert [s["label"] for s in view["strategies"]] == ["structure", "structure (where)"]
    y24 = next(q for q in view["questions"] if q["id"] == "y24")
    slugs = [s["slug"] for s in view["strategies"]]
    assert y24["by"][slugs[0]]["filter"] is None
    assert y24["by"][slugs[1]]["filter"]["filters"] == [{"field": "year", "op": "eq", "value": 2024}]
    assert all(r["holds"] is not None for r in y24["by"][slugs[1]]["results"])  # every result found in the chunking


def test_a_where_on_a_field_the_index_lacks_names_the_question(tmp_path, insurance):
    qs = _load(tmp_path, "- id: q1\n  question: premium share?\n  must_contain: 2 percent\n  where: {crop: cotton}\n")
    with pytest.raises(QuestionsError, match=r"question q1 \(line 1\): where: unknown field 'crop'"):
        compared(insurance, qs, ["structure"], load_embedder(None, cache=True), tmp_path / "w")


def test_questions_check_says_where_a_where_leaves_the_answer_out(tmp_path, insurance):
    from seamcut.evaluate.questions_check import check_questions
    qs = _load(tmp_path, """
- id: in
  question: Which documents for crop insurance in 2026?
  must_contain: Farmer ID (Agristack registration number)
  where: {year: 2026}
- id: out
  question: What share of the premium did a farmer pay in 2024?
  must_contain: 2 percent of sum insured
  where: [{field: year, op: gte, value: 2025}]
- id: sql
  question: Which documents?
  must_contain: Sowing certificate from the village officer
  where: year >= 2025
""")
    report = check_questions(qs, insurance)
    by = {c.question.id: c for c in report.checks}
    assert by["in"].usable and not by["in"].outside_filter
    assert by["out"].outside_filter and not by["out"].usable
    assert by["out"].problems()[0].startswith("outside the filter: its where leaves out every place it is found "
                                              "(crop-insurance-2024.pdf")
    assert by["sql"].in_filter is None and by["sql"].usable  # SQL: only an index applies it
    assert report.counts["outside_filter"] == 1 and "outside the filter 1" in report.summary()


@pytest.mark.parametrize("f, ok", [
    (Filter("year", "eq", 2024), True), (Filter("year", "in", [2023, 2024]), True),
    (Filter("year", "gte", 2025), False), (Filter("year", "lt", 2025), True),
    (Filter("year", "ne", 2024), False), (Filter("crop", "eq", "cotton"), False),
    (Filter("source", "eq", "crop-insurance-2024.pdf"), True), (Filter("source", "ne", "a.pdf"), True),
    (Filter("year", "gt", "x"), False),
])
def test_a_documents_fields_pass_a_filter_as_the_index_sql_would(f, ok):
    from seamcut.index.filters import holds
    fields = {"year": 2024, "source": "/srv/docs/crop-insurance-2024.pdf"}
    assert holds([f], fields) is ok
