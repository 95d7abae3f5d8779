"""Hit rate, MRR, the paired tests and answer matching, on hand-computed cases."""
from __future__ import annotations

import math

import pytest

from seamcut.evaluate import (Question, bootstrap_difference, compare_hits, first_hit, hit_rate,
                              mcnemar_exact, mean_reciprocal_rank, normalise)


def q(*answers: str) -> Question:
    return Question("q", "?", tuple(answers))


def test_first_hit_and_hit_rate_follow_the_guide():
    texts = ["Cotton / Pests / Aphids: mix 3 ml per litre",
             "Cotton / Pests / Whitefly: mix 2 ml per litre, spray in the evening"]
    assert first_hit(q("2 ml per litre"), texts) == 2
    assert first_hit(q("31 july"), texts) is None
    ranks = [2, None]                       # the guide's two questions
    assert hit_rate(ranks, k=1) == 0.0
    assert hit_rate(ranks, k=2) == 0.5      # the guide prints 0.5 with its k
    assert hit_rate([], k=4) == 0.0


def test_alternatives_any_of_them_counts():
    assert first_hit(q("wait seven days", "Spray in the evening"), ["spray in the EVENING."]) == 1


def test_mrr_by_hand():
    # ranks 1, 3, miss, 2 -> (1 + 1/3 + 0 + 1/2) / 4
    assert mean_reciprocal_rank([1, 3, None, 2]) == pytest.approx((1 + 1 / 3 + 0.5) / 4)
    assert mean_reciprocal_rank([1, 3, None, 2], k=2) == pytest.approx((1 + 0.5) / 4)
    assert mean_reciprocal_rank([]) == 0.0


@pytest.mark.parametrize("raw, expected", [
    ("  Whitefly\n|  2 ml\tper litre ", "whitefly 2 ml per litre"),  # a table's cell bar as a space
    ("३१ जुलाई २०२६", "31 जुलाई 2026"),                         # Devanagari digits
    ("फफूं\u200dदनाशक", "फफूंदनाशक"),                          # zero-width joiner dropped
    ("pest\u00adicide", "pesticide"),                            # soft hyphen
    ("Straße", "strasse"),                                       # case folding, not lower()
    ("e\u0301", "\u00e9"),                                       # NFC
])
def test_normalise(raw, expected):
    assert normalise(raw) == expected


def test_matching_uses_the_normalisation_on_both_sides():
    assert q("31 July 2026").answered_by("Last date:\n३१  july २०२६.")
    assert not q("31 July 2026").answered_by("Last date: 31 July 2024")


def test_an_answer_copied_from_a_table_row_matches_through_the_cell_bars():
    """An answer copied cell by cell from a viewer's table ("Aphids 3 ml per litre") matches the
    row as seamcut reads it (cells joined by " | ", or a Markdown row), and only that row."""
    rows = "| Pest | Dose |\n|---|---|\n| Aphids | 3 ml per litre |\n| Whitefly|2 ml per litre |"
    assert q("Aphids 3 ml per litre").answered_by(rows)
    assert q("whitefly 2 ml").answered_by("Whitefly | 2 ml per litre")
    assert q("Aphids | 3 ml").answered_by("Aphids 3 ml per litre")  # the same on both sides
    assert not q("Aphids 2 ml per litre").answered_by(rows)


def test_mcnemar_exact_against_hand_computed_binomials():
    # b=7, c=1: 2 * P(X <= 1 | n=8, p=1/2) = 2 * (1 + 8) / 256
    assert mcnemar_exact(7, 1) == pytest.approx(18 / 256)
    assert mcnemar_exact(1, 7) == pytest.approx(18 / 256)
    # b=c: nothing to see
    assert mcnemar_exact(3, 3) == 1.0 and mcnemar_exact(0, 0) == 1.0
    # b=10, c=0: 2 / 1024
    assert mcnemar_exact(10, 0) == pytest.approx(2 / 1024)
    # b=12, c=3 (n=15): 2 * (1 + 15 + 105 + 455) / 32768
    assert mcnemar_exact(12, 3) == pytest.approx(2 * 576 / 32768)


def test_mcnemar_matches_scipy_when_present():
    stats = pytest.importorskip("scipy.stats")
    for b, c in [(5, 2), (20, 9), (0, 6), (13, 13), (40, 22)]:
        assert mcnemar_exact(b, c) == pytest.approx(stats.binomtest(b, b + c, 0.5).pvalue if b + c else 1.0)


def test_34_against_37_of_40_may_be_noise():
    # best hits 37, other 34; they disagree on 5 questions: 4 for best, 1 for other
    best = [True] * 33 + [True] * 4 + [False] * 1 + [False] * 2
    other = [True] * 33 + [False] * 4 + [True] * 1 + [False] * 2
    assert sum(best) == 37 and sum(other) == 34
    c = compare_hits("structure", best, "fixed", other)
    assert (c.only_best, c.only_other) == (4, 1)
    assert c.p_value == pytest.approx(2 * (1 + 5) / 32)          # 0.375
    assert c.ci_low <= 0 <= c.ci_high
    assert not c.significant and "may be noise" in c.verdict()


def test_a_real_difference_is_called_one():
    best = [True] * 30 + [True] * 10
    other = [True] * 30 + [False] * 10
    c = compare_hits("structure", best, "fixed", other)
    assert c.p_value == pytest.approx(2 / 1024) and c.significant
    assert c.ci_low > 0 and c.verdict().startswith("structure beats fixed")
    # "best" chosen on other questions (tune's winner, judged on held-out ones) can lose: said so
    worse = compare_hits("fixed", other, "structure", best)
    assert worse.significant and worse.verdict().startswith("structure beats fixed")


def test_bootstrap_is_repeatable_and_brackets_the_difference():
    a = [True, True, False, True, True, False, True, True]
    b = [True, False, False, True, False, False, True, True]
    lo, hi = bootstrap_difference(a, b, seed=3)
    assert (lo, hi) == bootstrap_difference(a, b, seed=3)
    assert lo <= (sum(a) - sum(b)) / len(a) <= hi
    with pytest.raises(ValueError):
        bootstrap_difference(a, b[:-1])
    assert math.isclose(bootstrap_difference([True] * 5, [True] * 5)[1], 0.0)
