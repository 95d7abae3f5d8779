"""Hit rate at equal tokens sent: the budget cut on hand-made ranked lists (exact values), the
best strategy and the paired tests at the budget, and the command line's --budget."""
from __future__ import annotations

import pytest

from seamcut.evaluate import Question, Ranked, StrategyResult, parse_budgets, score_at, score_budgets
from seamcut.evaluate.compare import CompareResult
from seamcut.evaluate.judge import Outcome, _outcome
from seamcut.index import Hit
from seamcut.model import Chunk


def test_results_go_in_rank_order_while_they_fit():
    r = Ranked((100, 200, 300), first_hit=2)
    assert [r.sent(b) for b in (99, 100, 299, 300, 599, 600, 10_000)] == [0, 1, 1, 2, 2, 3, 3]
    assert [r.rank_within(b) for b in (100, 299, 300, 10_000)] == [None, None, 2, 2]
    assert [r.tokens_within(b) for b in (99, 550, 10_000)] == [0, 300, 600]


def test_a_first_result_over_the_budget_sends_nothing():
    # the answer is in the first result, 900 tokens: nothing is cut to fit 512
    assert Ranked((900, 10), first_hit=1).rank_within(512) is None
    # nor is a smaller result after it sent in its place: what is sent is a prefix of the ranking
    over = Ranked((900, 10), first_hit=2)
    assert over.sent(512) == 0 and over.rank_within(512) is None and over.tokens_within(512) == 0
    assert over.rank_within(910) == 2
    assert Ranked((), None).sent(100) == 0 and Ranked((), None).rank_within(100) is None


def test_scores_at_a_budget():
    ranked = [Ranked((100, 100, 100), 3), Ranked((50, 400), 1), Ranked((600,), 1), Ranked((100,), None)]
    s = score_at(ranked, 300)
    assert (s.hits, s.questions) == (2, 4)
    assert s.hit_rate == 0.5
    assert s.mrr == pytest.approx((1 / 3 + 1) / 4)
    assert s.tokens_per_question == pytest.approx((300 + 50 + 0 + 100) / 4)
    assert s.to_dict() == {"hits": 2, "hit_rate": 0.5, "mrr": pytest.approx(1 / 3), "tokens_per_question": 112.5}


def _chunk(id: str, text: str, tokens: int, parent: str | None = None) -> Chunk:
    return Chunk(id, "d", "a.txt", 0, len(text), "", text, tokens, parent_id=parent)


def test_parent_child_sends_its_parents_tokens():
    """A parent-child hit is its parent (what goes to the model) with the children that matched:
    the budget counts the parent's tokens, not the children's."""
    q = Question("q1", "dose?", ("2 ml",))
    kid = _chunk("c1", "2 ml per litre", 6, "p1")
    first = Hit(1, _chunk("p1", "Whitefly. Spray 2 ml per litre of water.", 300), 0.9, 0.9, (kid,))
    second = Hit(2, _chunk("p2", "Aphids. Other advice.", 120), 0.8, 0.8,
                 (_chunk("c2", "Aphids", 3, "p2"),))
    o = _outcome(q, [first], [second, first])
    assert o.tokens == 300 and o.rank == 1
    assert o.ranked == Ranked((120, 300), 2)
    assert o.ranked.rank_within(419) is None and o.ranked.rank_within(420) == 2


def _strategy(name: str, ranked: list[Ranked], k: int) -> StrategyResult:
    s = StrategyResult(name, {}, 1, [1], 0.0, 0.0, 0.0)
    for i, r in enumerate(ranked):
        rank = r.first_hit if r.first_hit is not None and r.first_hit <= k else None
        s.outcomes.append(Outcome(Question(f"q{i}", "?", ("x",)), rank, (), sum(r.tokens[:k]), ranked=r))
    return s


def _result(k: int = 2) -> CompareResult:
    # "long" hits 10 questions at 2 by sending two 400-token chunks; "short" hits 8 with two 100s
    # but within 400 tokens sends four results and hits all ten, "long" one result and hits 5
    long = _strategy("long", [Ranked((400, 400), 1)] * 5 + [Ranked((400, 400), 2)] * 5, k)
    short = _strategy("short", [Ranked((100,) * 4, 1)] * 8 + [Ranked((100,) * 4, 3)] * 2, k)
    questions = [o.question for o in long.outcomes]
    return CompareResult(k, "hybrid", "m", questions, [long, short], [], 1)


def test_best_is_best_at_the_default_budget_the_median_tokens():
    result = score_budgets(_result())
    assert result.budget == 500  # the median of 800 and 200 tokens per question at 2
    assert result.budgets == [256, 500, 512, 1024, 2048]
    long, short = result.strategies
    assert (long.hits, short.hits) == (10, 8)
    assert (long.at_budget(500).hits, short.at_budget(500).hits) == (5, 10)
    assert result.best is short
    [c] = result.comparisons_at_budget
    assert (c.best, c.other, c.best_hits, c.other_hits, c.only_best, c.only_other) == ("short", "long", 10, 5, 5, 0)
    data = result.to_json()
    assert data["budget"] == 500 and data["best"] == "short"
    assert data["strategies"][0]["budgets"]["256"] == {"hits": 0, "hit_rate": 0.0, "mrr": 0.0,
                                                      "tokens_per_question": 0.0}
    assert data["strategies"][1]["budgets"]["500"]["tokens_per_question"] == 400.0
    assert [c["best"] for c in data["comparisons_at_budget"]] == ["short"]


def test_a_named_budget_replaces_the_defaults():
    result = score_budgets(_result(), [2048, 800])
    assert result.budget == 2048 and result.budgets == [800, 2048]
    long, short = result.strategies
    # both hit all ten within 2048 tokens; short has the better MRR
    assert long.at_budget(2048).hits == short.at_budget(2048).hits == 10
    assert (long.at_budget(2048).mrr, short.at_budget(2048).mrr) == (0.75, pytest.approx(26 / 30))
    assert result.best is short
    with pytest.raises(ValueError, match="positive"):
        score_budgets(_result(), [0])


def test_without_a_budget_best_is_best_at_k():
    # long leads at 2 (10 hits against 8), but a two-question lead is within noise (p = 0.5): a
    # tie, which goes to short, sending a quarter of long's tokens
    result = _result()
    assert result.budget is None and result.choice.leader == "long"
    assert result.choice.tied == ("short", "long") and result.best.name == "short"


def test_budgets_from_the_command_line():
    assert parse_budgets(["512", "1024, 256", "512"]) == [512, 1024, 256]
    with pytest.raises(ValueError, match="'1k' is not a whole number"):
        parse_budgets(["1k"])
    with pytest.raises(ValueError, match="-5 is not a positive"):
        parse_budgets(["-5"])
