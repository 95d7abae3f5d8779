"""The issue's check on the example corpus: structure-aware and parent-child chunking score at
least as many hits at 4 as fixed-size, and the whitefly dose question is a hit for structure."""
from __future__ import annotations

from pathlib import Path

from seamcut.corpus import read_corpus
from seamcut.embed import load_embedder
from seamcut.evaluate import check_sources, compare, load_questions

HELPLINE = Path(__file__).resolve().parents[2] / "examples" / "helpline"


def test_structure_and_parent_child_at_least_match_fixed(tmp_path):
    corpus = read_corpus([HELPLINE], progress=False)
    assert not corpus.failures and len(corpus.documents) == 10
    questions = load_questions(HELPLINE / "questions.yaml")
    check_sources(questions, [d.source for d in corpus.documents], "questions.yaml")
    result = compare(corpus.documents, questions, strategies=["fixed", "structure", "parent-child"],
                     embedder=load_embedder(None, cache=True), workdir=tmp_path, progress=False)
    by = {s.name: s for s in result.strategies}
    print({n: (s.hits, round(s.mrr, 3), s.chunks, round(s.tokens_per_question)) for n, s in by.items()})
    assert by["structure"].hits >= by["fixed"].hits
    assert by["parent-child"].hits >= by["fixed"].hits
    whitefly = next(o for o in by["structure"].outcomes if o.question.id == "q01")
    assert whitefly.hit and "Whitefly" in whitefly.results[whitefly.rank - 1].text
    # structure-aware chunks are smaller: fewer tokens sent to the model per question
    assert by["structure"].tokens_per_question < by["fixed"].tokens_per_question
    assert len(result.comparisons) == 2
