"""A lead the paired test cannot tell from noise is a tie (issue 38 point 4): `compare` and
`tune` then take the cheaper and simpler of the tied (at least 10% fewer tokens sent per
question, then the default search mode, then the default strategy, then fewer options), and say
so, with the tied group, in the JSON and the printed report; a clear lead still wins."""
from __future__ import annotations

import pytest

from seamcut.cli.render import print_comparison
from seamcut.cli.render_tune import print_tune
from seamcut.evaluate.budget import Ranked
from seamcut.evaluate.compare import CompareResult, score_budgets
from seamcut.evaluate.judge import Outcome, StrategyResult, pick, simplicity, tie_line
from seamcut.evaluate.questions import Question
from seamcut.evaluate.space import Candidate
from seamcut.evaluate.tune_judged import _Judged, winner
from seamcut.report.compare_html import render
from seamcut.report.tune_html import render_tune
from seamcut.strategies.spec import parse_spec

N = 40


def _result(name: str, hit: range | set[int], tokens: int) -> StrategyResult:
    """A result over N questions: a hit at rank 1 on the questions in ``hit``, each question's
    top k (here one result) sending ``tokens``."""
    s = StrategyResult(name, {}, 1, [tokens], 0.0, 0.0, 0.0)
    for i in range(N):
        rank = 1 if i in hit else None
        s.outcomes.append(Outcome(Question(f"q{i}", "?", ("x",)), rank, (), tokens, ranked=Ranked((tokens,), rank)))
    return s


def _judged(label: str, hit: range | set[int], tokens: int) -> _Judged:
    spec, mode = label.rsplit(" @", 1)
    return _Judged(Candidate(parse_spec(spec), mode), _result(label, hit, tokens), None, 0, 0.0)


def test_a_two_question_lead_is_a_tie_and_the_default_mode_wins():
    """The 9k tune's case: vector 2 questions ahead of hybrid on the same chunking (p = 0.5) is
    no lead; the tie goes to hybrid, the default mode. Text, 18 behind, is beaten for real."""
    judged = [_judged("parent-child:size=64 @vector", range(30), 820),
              _judged("parent-child:size=64 @hybrid", range(2, 30), 835),
              _judged("parent-child:size=64 @text", range(12), 800)]
    got = winner(judged, k=4, budget=1000)
    assert got.leader == "parent-child:size=64 @vector"
    assert got.tied == ("parent-child:size=64 @hybrid", "parent-child:size=64 @vector")
    assert got.chosen == "parent-child:size=64 @hybrid" and got.why == "the default search mode (hybrid)"


def test_a_clear_lead_still_wins():
    judged = [_judged("parent-child:size=64 @vector", range(30), 820),
              _judged("parent-child:size=64 @hybrid", range(15), 500)]  # cheaper, but 15 behind
    got = winner(judged, k=4, budget=1000)
    assert got.chosen == got.leader == "parent-child:size=64 @vector"
    assert got.tied == ("parent-child:size=64 @vector",) and got.why == ""
    assert tie_line(got.to_dict(), "hits") is None


def test_a_tie_goes_to_fewer_tokens_then_to_the_default_strategy():
    def simpler(s: StrategyResult) -> tuple[int, int, int]:
        return simplicity(s.name.split(":")[0], s.name.count(":"))

    recursive, structure = _result("recursive", range(30), 900), _result("structure", range(1, 30), 850)
    got = pick([recursive, structure], 4, None, simpler)  # 850 is not 10% under 900: the same cost
    assert (got.chosen, got.leader, got.why) == ("structure", "recursive", "the default strategy (structure)")
    fixed = _result("fixed", range(2, 30), 700)  # 700 is under 0.9 x 850: cheaper
    got = pick([recursive, structure, fixed], 4, None, simpler)
    assert got.chosen == "fixed" and got.why == "at least 10% fewer tokens sent per question"
    assert got.tied == ("fixed", "recursive", "structure")
    # equal on the cost and the defaults: fewer options set, then the most hits
    few, many = _result("recursive:size=200", range(29), 900), _result("recursive:size=200:overlap=0", range(30), 900)
    assert pick([many, few], 4, None, simpler).why == "fewer options set"
    assert pick([_result("fixed", range(29), 900), _result("sentence", range(30), 900)], 4, None,
                simpler).chosen == "sentence"


def _compare() -> CompareResult:
    """recursive leads structure by one question at 4, within noise, at about the same tokens;
    fixed is beaten by more than noise."""
    strategies = [_result("recursive", range(30), 900), _result("structure", range(1, 30), 860),
                  _result("fixed", range(10), 400)]
    questions = [o.question for o in strategies[0].outcomes]
    return score_budgets(CompareResult(4, "hybrid", "m", questions, strategies, [], 1), [1000])


def test_compare_says_tied_within_noise_in_the_json_and_the_printed_report(capsys):
    result = _compare()
    data = result.to_json()
    assert data["best"] == "structure"
    assert data["pick"] == {"chosen": "structure", "leader": "recursive", "tied": ["structure", "recursive"],
                            "why": "the default strategy (structure)"}
    assert data["comparisons_at_budget"][0]["best"] == "recursive"  # the tests are the leader's
    print_comparison(result)
    out, err = capsys.readouterr()
    assert "structure *" in out and "recursive =" in out and "fixed =" not in out
    assert ("= Tied within noise: structure with recursive (the paired test cannot tell their hits within "
            "1000 tokens from the leader's, recursive's); the tie goes to the cheaper and simpler one, "
            "structure: the default strategy (structure)") in " ".join(err.split())
    html = render(result)
    assert "Tied within noise: structure with recursive" in html and "Best: <b>structure</b>" in html


def test_tune_says_its_winner_was_a_tie_in_the_printed_report_and_the_page(capsys):
    pick_ = {"chosen": "b @hybrid", "leader": "a @vector", "tied": ["b @hybrid", "a @vector"],
             "why": "the default search mode (hybrid)"}
    point = {"round": 2, "spec": "b", "documents": 3, "questions": 40, "hits": 30, "hit_rate": 0.75,
             "hits_at_1": 20, "mrr": 0.6, "budget_hits": 30, "budget_hit_rate": 0.75, "tokens_per_question": 800.0,
             "chunks": 10, "index_bytes": 1000, "index": None, "seconds": 1.0, "kept": True, "dropped": None,
             "held_out_hit_rate": 0.8, "held_out_mrr": 0.7, "held_out_budget_hit_rate": 0.8, "default": False}
    points = [dict(point, label="a @vector", mode="vector"), dict(point, label="b @hybrid", mode="hybrid")]
    summary = {"label": "b @hybrid", "spec": "b", "mode": "hybrid", "search": "hybrid", "command": "seamcut index",
               "tune_hit_rate": 0.75, "held_out_hit_rate": 0.8, "tune_mrr": 0.6, "held_out_mrr": 0.7,
               "tune_budget_hit_rate": 0.75, "held_out_budget_hit_rate": 0.8, "tokens_per_question": 800.0,
               "index_bytes": 1000, "index": None}
    data = {"k": 4, "model": "m", "seed": 0, "budget": 900, "documents": 3,
            "questions": {"tune": 40, "held_out": 10, "no_answer": 0},
            "space": {"chunkings": ["a", "b"], "modes": ["vector", "hybrid"], "candidates": 2, "dropped": 0},
            "rounds": [], "log": points, "points": points, "pareto": points, "winner": summary, "defaults": [],
            "cost": {"seconds": 1.0, "embedded_tokens": 0, "index_tokens": 0, "index_equivalents": None,
                     "stopped_early": None},
            "pick": pick_}
    print_tune(data)
    out, err = capsys.readouterr()
    assert "= tied with it within noise" in out
    assert ("= Tied within noise: b @hybrid with a @vector (the paired test cannot tell their hits within 900 "
            "tokens on the tune questions from the leader's, a @vector's)") in " ".join(err.split())
    assert "Tied within noise: b @hybrid with a @vector" in render_tune(data)
    data["pick"] = None  # a JSON from before the rule: no line
    print_tune(data)
    assert "Tied within noise" not in capsys.readouterr().err


def test_nothing_to_pick_from_is_an_error():
    with pytest.raises(ValueError, match="no results"):
        pick([], 4, None, lambda s: (0, 0, 0))
