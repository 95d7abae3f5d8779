"""Test sets in YAML, JSONL and CSV, and the errors a malformed one gets."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from seamcut.evaluate import QuestionsError, check_sources, load_questions
from seamcut.evaluate.spans import Span

ROOT = Path(__file__).resolve().parents[2]


def test_the_helpline_set_loads():
    qs = load_questions(ROOT / "examples" / "helpline" / "questions.yaml")
    assert len(qs) == 40 and len({q.id for q in qs}) == 40
    assert sum(not q.answerable for q in qs) == 2
    q1 = qs[0]
    assert (q1.id, q1.must_contain, q1.source, q1.page) == ("q01", ("2 ml per litre",), "cotton-manual.pdf", 4)
    assert q1.line == 4  # where it starts in the file
    assert any(len(q.must_contain) > 1 for q in qs)


def test_three_formats_give_the_same_questions(tmp_path):
    items = [{"id": "a", "question": "Whitefly dose?", "must_contain": "2 ml per litre",
              "source": "cotton.txt", "page": 4},
             {"id": "b", "question": "Insurance last date?", "must_contain": ["31 July", "31/07"]},
             {"id": "c", "question": "Rain tomorrow?", "must_contain": []},
             {"id": "d", "question": "Span only", "spans": [{"source": "cotton.txt", "start": 3, "end": 9}]}]
    (tmp_path / "q.jsonl").write_text("\n".join(json.dumps(i) for i in items), encoding="utf-8")
    import yaml
    (tmp_path / "q.yaml").write_text(yaml.safe_dump(items, allow_unicode=True), encoding="utf-8")
    (tmp_path / "q.csv").write_text(
        "id,question,must_contain,source,page,spans\n"
        "a,Whitefly dose?,2 ml per litre,cotton.txt,4,\n"
        'b,Insurance last date?,"[""31 July"", ""31/07""]",,,\n'
        "c,Rain tomorrow?,,,,\n"
        'd,Span only,,,,"[{""source"": ""cotton.txt"", ""start"": 3, ""end"": 9}]"\n', encoding="utf-8")
    got = [[(q.id, q.question, q.must_contain, q.source, q.page, q.spans)
            for q in load_questions(tmp_path / f"q.{ext}")] for ext in ("jsonl", "yaml", "csv")]
    assert got[0] == got[1] == got[2]
    assert got[0][1][2] == ("31 July", "31/07") and got[0][2][2] == ()
    assert got[0][3][5] == (Span("cotton.txt", 3, 9),)


def test_chroma_style_references_are_read(tmp_path):
    p = tmp_path / "q.csv"
    p.write_text('question,references,corpus_id\n"What?","[{""content"": ""x"", ""start_index"": 5, '
                 '""end_index"": 20}]",chatlogs\n', encoding="utf-8")
    (q,) = load_questions(p)
    assert q.spans == (Span("chatlogs", 5, 20),) and q.answerable


@pytest.mark.parametrize("name, text, message", [
    ("bad.yaml", "- id: a\n  question: ok\n- id: b\n  question: [unclosed\n", "bad.yaml:4"),
    ("noq.yaml", "- id: a\n  question: fine\n- id: b\n  must_contain: x\n", "noq.yaml:3: no 'question'"),
    ("dup.yaml", "- id: a\n  question: one\n- id: a\n  question: two\n", "dup.yaml:3: id 'a' repeats"),
    ("page.yaml", "- question: q\n  page: four\n", "'page' must be a whole number"),
    ("span.yaml", "- question: q\n  spans: [{source: a.txt, start: 9, end: 3}]\n", "0 <= start < end"),
    ("bad.jsonl", '{"question": "a"}\n{"question": \n', "bad.jsonl:2: not valid JSON"),
    ("bad.csv", "question,must_contain\nq,\"[unclosed\"\n", "bad.csv:2: column 'must_contain'"),
    ("empty.yaml", "", "no questions"),
    ("q.txt", "question: x", "unknown test-set format .txt"),
    ("notlist.yaml", "question: x\n", "expected a list"),
])
def test_malformed_files_name_the_file_and_line(tmp_path, name, text, message):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    with pytest.raises(QuestionsError) as e:
        load_questions(p)
    assert name in str(e.value) and message in str(e.value)


def test_missing_and_undecodable_files(tmp_path):
    with pytest.raises(QuestionsError, match="no such file"):
        load_questions(tmp_path / "nope.yaml")
    p = tmp_path / "latin.yaml"
    p.write_bytes("- question: caf\xe9\n".encode("latin-1"))
    with pytest.raises(QuestionsError, match="latin.yaml: not UTF-8"):
        load_questions(p)


def test_a_question_pointing_outside_the_corpus_is_named(tmp_path):
    p = tmp_path / "q.yaml"
    p.write_text("- id: a\n  question: x\n  source: cotton-manual.pdf\n"
                 "- id: b\n  question: y\n  source: wheat-manual.pdf\n", encoding="utf-8")
    qs = load_questions(p)
    check_sources(qs[:1], ["examples/helpline/cotton-manual.pdf"], p)
    with pytest.raises(QuestionsError, match=r"q.yaml:4: question 'b' points at 'wheat-manual.pdf'"):
        check_sources(qs, ["examples/helpline/cotton-manual.pdf"], p)


def test_source_only_is_read_from_yaml_and_csv_and_checked(tmp_path):
    (tmp_path / "q.yaml").write_text(
        "- {question: Whitefly dose on okra, must_contain: 2 ml per litre, source: okra.pdf, source_only: true}\n"
        "- {question: Aphid dose, must_contain: 3 ml per litre, source: okra.pdf}\n", encoding="utf-8")
    (tmp_path / "q.csv").write_text("question,must_contain,source,source_only\n"
                                    "Whitefly dose on okra?,2 ml per litre,okra.pdf,true\n"
                                    "Aphid dose?,3 ml per litre,okra.pdf,\n", encoding="utf-8")
    for name in ("q.yaml", "q.csv"):
        assert [q.source_only for q in load_questions(tmp_path / name)] == [True, False]
    (tmp_path / "bad.yaml").write_text("- {question: Dose, must_contain: 2 ml, source_only: true}\n",
                                       encoding="utf-8")
    with pytest.raises(QuestionsError, match="bad.yaml:1: 'source_only' needs the 'source'"):
        load_questions(tmp_path / "bad.yaml")
    (tmp_path / "bad2.yaml").write_text("- {question: Dose, source: a.pdf, source_only: 3}\n", encoding="utf-8")
    with pytest.raises(QuestionsError, match="'source_only' must be true or false"):
        load_questions(tmp_path / "bad2.yaml")


def test_a_source_only_question_is_answered_only_by_its_document():
    """The guide's hit@k counts the answer text in any result: another crop's row of the same
    table holding "2 ml per litre" answers a question about cotton. ``source_only`` (the CLI's
    ``--named-source``) counts only a chunk of the document the question names."""
    from seamcut.evaluate.judge import Retrieved, _first_rank
    from seamcut.evaluate.questions import Question, only_named_source

    def result(rank: int, source: str, text: str) -> Retrieved:
        return Retrieved(rank, 1.0 / rank, None, source, (1,), "", text, 10, 0, len(text))

    q = Question("q1", "Whitefly on cotton: ml per litre?", ("2 ml per litre",), "cotton-manual.pdf")
    results = [result(1, "docs/okra-manual.pdf", "Okra / Whitefly: 2 ml per litre"),
               result(2, "docs/cotton-manual.pdf", "Cotton / Aphid: 3 ml per litre"),
               result(3, "docs/cotton-manual.pdf", "Cotton / Whitefly: 2 ML per litre")]
    assert _first_rank(q, results) == 1
    strict, = only_named_source([q])
    assert strict.source_only and _first_rank(strict, results) == 3
    assert _first_rank(strict, results[:2]) is None
    unnamed = Question("q2", "Dose?", ("2 ml per litre",))
    assert only_named_source([unnamed]) == [unnamed]  # nothing to hold it to
