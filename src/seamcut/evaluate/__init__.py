"""Evaluation: test sets, hit rate at k and at equal tokens sent, MRR, span recall/precision/IoU,
paired significance, and the strategy comparison that ties them together (``seamcut compare``)."""
from .budget import BudgetScore, Ranked, parse_budgets, score_at
from .compare import CompareResult, compare, score_budgets, write_json, write_misses
from .judge import Outcome, StrategyResult
from .metrics import first_hit, hit_rate, mean_reciprocal_rank
from .options import Indexing, Judging, TuneOptions
from .questions import Question, QuestionsError, load_questions, normalise
from .significance import Comparison, bootstrap_difference, compare_hits, mcnemar_exact
from .spans import Span, SpanScores, span_scores

__all__ = ["BudgetScore", "Ranked", "parse_budgets", "score_at", "score_budgets",
           "CompareResult", "Outcome", "StrategyResult", "compare", "write_json", "write_misses",
           "first_hit", "hit_rate", "mean_reciprocal_rank", "Indexing", "Judging", "TuneOptions",
           "Question", "QuestionsError",
           "load_questions", "normalise", "Comparison", "bootstrap_difference",
           "compare_hits", "mcnemar_exact", "Span", "SpanScores", "span_scores"]
