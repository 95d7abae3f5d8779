"""The issue's check on the example corpus: structure-aware and parent-child chunking score at
least as many hits at 4 as fixed-size, and the whitefly dose question is a hit for structure;
and a strategy with longer chunks whose lead at k comes from sending more tokens loses it at
equal tokens sent."""
from __future__ import annotations

import json

import pytest

from seamcut.embed import load_embedder
from seamcut.evaluate import load_questions
from seamcut.evaluate.questions_check import check_questions
from seamcut.evaluate.merge import merge_runs
from tests.helpers.data import HELPLINE
from tests.helpers.judging import compared



@pytest.fixture(scope="module")
def documents(helpline_documents):
    assert len(helpline_documents) == 10
    return list(helpline_documents)


def test_structure_and_parent_child_at_least_match_fixed(tmp_path, documents):
    questions = load_questions(HELPLINE / "questions.yaml")
    assert check_questions(questions, documents).counts["wrong_source"] == 0  # every file named was read
    result = compared(documents, questions, ["fixed", "structure", "parent-child"], load_embedder(None, cache=True),
                      tmp_path)
    by = {s.name: s for s in result.strategies}
    print({n: (s.hits, round(s.mrr, 3), s.chunks, round(s.tokens_per_question)) for n, s in by.items()})
    assert by["structure"].hits >= by["fixed"].hits
    assert by["parent-child"].hits >= by["fixed"].hits
    whitefly = next(o for o in by["structure"].outcomes if o.question.id == "q01")
    assert whitefly.hit and "Whitefly" in whitefly.results[whitefly.rank - 1].text
    # structure-aware chunks are smaller: fewer tokens sent to the model per question
    assert by["structure"].tokens_per_question < by["fixed"].tokens_per_question
    assert len(result.comparisons) == 2


def test_a_lead_bought_with_tokens_shrinks_at_equal_tokens(tmp_path, documents):
    questions = load_questions(HELPLINE / "questions.yaml")
    # fixed at its default 300 tokens: its vectors are in the cache from the test above
    result = compared(documents, questions, ["fixed:size=96", "fixed"], load_embedder(None, cache=True), tmp_path,
                      k=2)
    short, long = result.strategies
    at = result.budget
    print({s.name: (s.hits, round(s.tokens_per_question), {b: s.at_budget(b).hits for b in result.budgets})
           for s in result.strategies}, "budget", at)
    # the default budget: the median (here the mean) of the two strategies' tokens per question at 2
    assert at == round((short.tokens_per_question + long.tokens_per_question) / 2)
    assert long.tokens_per_question > 2.5 * short.tokens_per_question
    lead_at_k = long.hits - short.hits
    assert lead_at_k > 0  # more text per question, more answers in it
    assert long.at_budget(at).hits - short.at_budget(at).hits < lead_at_k
    assert max(s.at_budget(at).tokens_per_question for s in result.strategies) <= at
    assert result.best is max(result.strategies, key=lambda s: (s.at_budget(at).hits, s.at_budget(at).mrr))
    assert len(result.comparisons_at_budget) == len(result.comparisons) == 1


def test_named_source_holds_each_hit_to_the_document_the_question_names(tmp_path, documents):
    """With every question held to its named source, each hit's answering chunk is of that
    document, there are no more hits than the guide's text-only count, and the JSON says so."""
    import json

    from seamcut.evaluate import write_json
    from seamcut.evaluate.questions import only_named_source, source_matches

    questions = load_questions(HELPLINE / "questions.yaml")
    embedder = load_embedder(None, cache=True)
    loose, strict = (compared(documents, qs, ["fixed"], embedder, tmp_path / n).strategies[0]
                     for n, qs in (("loose", questions), ("strict", only_named_source(questions))))
    assert strict.hits <= loose.hits
    named = [o for o in strict.outcomes if o.question.source]
    assert named and all(o.question.source_only for o in named)
    for o in named:
        if o.rank is not None:
            r = o.results[o.rank - 1]
            assert source_matches(o.question.source, r.source) and o.question.answered_by(r.text)
    out = tmp_path / "strict.json"
    write_json(compared(documents, only_named_source(questions), ["fixed"], embedder, tmp_path / "strict"), out)
    rows = json.loads(out.read_text(encoding="utf-8"))["strategies"][0]["per_question"]
    assert all(q["source_only"] == bool(q["source"]) for q in rows)


def test_a_compare_run_in_parts_is_judged_as_the_whole_run(tmp_path, documents):
    """Strategies compared in two runs (as on two machines), merged: the best strategy, the
    budgets and every paired test are those of one run over all of them, though each part alone
    had another default budget and no comparison of its strategies with the other part's."""
    questions = load_questions(HELPLINE / "questions.yaml")

    def run(names: list[str], work: str, k: int = 4) -> dict:
        result = compared(documents, questions, names, load_embedder(None, cache=True), tmp_path / work, k=k)
        return json.loads(json.dumps(result.to_json()))  # as a --json file holds it

    whole = run(["fixed", "structure", "parent-child"], "whole")
    parts = [run(["fixed"], "one"), run(["structure", "parent-child"], "two")]
    assert parts[0]["budget"] != whole["budget"] and parts[0]["comparisons"] == []
    merged = merge_runs(parts)
    for key in ("best", "budget", "budgets", "comparisons", "comparisons_at_1", "comparisons_at_budget",
                "questions", "no_answer_questions", "documents", "k", "mode", "model"):
        assert merged[key] == whole[key], key
    assert len(merged["comparisons"]) == 2
    for got, want in zip(merged["strategies"], whole["strategies"], strict=True):
        assert (got["name"], got["hits"], got["mrr"], got["budgets"]) == (want["name"], want["hits"], want["mrr"],
                                                                          want["budgets"])

    # a file that failed in every part is listed once as it is; one that failed in one part only
    # names that part's strategies, unless its line names one already
    parts[0]["failures"] = ["a.pdf: encrypted", "c.pdf: empty"]
    parts[1]["failures"] = ["a.pdf: encrypted", "b.pdf: cut failed (parent-child)", "d.pdf: empty"]
    assert merge_runs(parts)["failures"] == ["a.pdf: encrypted", "c.pdf: empty (fixed)",
                                             "b.pdf: cut failed (parent-child)",
                                             "d.pdf: empty (structure, parent-child)"]

    with pytest.raises(ValueError, match="k 2"):
        merge_runs([parts[0], run(["structure"], "k2", k=2)])
    with pytest.raises(ValueError, match="fixed"):
        merge_runs([parts[0], parts[0]])
