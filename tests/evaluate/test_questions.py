"""Test sets in YAML, JSONL and CSV, and the errors a malformed one gets."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from seamcut.evaluate import QuestionsError, load_questions
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
    # what a test set cannot mean: a key under both its names, a key beside `questions`, a span's
    # unknown key, a CSV column with no name or twice
    ("both.yaml", "- {question: a, query: b}\n", "both.yaml:1: both 'question' and 'query' (another name for it)"),
    ("both.csv", "question,must_contain,answer\nDose?,2 ml,3 ml\n", "both.csv:2: both 'must_contain' and 'answer'"),
    ("top.yaml", "name: my set\nquestions:\n  - {question: a}\n", "top.yaml:1: unknown key 'name'"),
    ("top.json", '{"questions": [{"question": "a"}], "version": 2}', "top.json: unknown key 'version'"),
    ("span.yaml", "- {question: a, spans: [{source: a.txt, start: 1, end: 5, stop: 9}]}\n",
     "span.yaml:1: a span's unknown key 'stop'"),
    ("blank.csv", "question,,must_contain\nDose?,x,2 ml\n", "blank.csv:1: column 2 has no name"),
    ("twice.csv", "question,source,source\nDose?,a.pdf,b.pdf\n", "twice.csv:1: column 'source' is there twice"),
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


KNOWN = ("answer, corpus_id, id, must_contain, page, query, question, references, source, "
         "source_only, spans, where")


@pytest.mark.parametrize("name, text, where, key, near", [
    ("q.yaml", "- id: a\n  question: Whitefly dose?\n  must_contain: 2 ml\n- id: b\n  question: Aphid dose?\n"
               "  must_contains: 3 ml per litre\n", "q.yaml:6", "must_contains", "must_contain"),
    ("q.yaml", "questions:\n  - {question: Which dose, sourse: cotton.pdf}\n", "q.yaml:2", "sourse", "source"),
    ("q.jsonl", '{"question": "Whitefly dose?"}\n\n{"question": "Aphid dose?", "Source": "a.pdf"}\n',
     "q.jsonl:3", "Source", "source"),
    ("q.csv", "question,must_contain,notes\nAphid dose?,3 ml,checked\n", "q.csv:1", "notes", None),
    ("q.csv", "qestion,must_contain\nAphid dose?,3 ml\n", "q.csv:1", "qestion", "question"),
    ("q.json", '[{"question": "a"}, {"question": "b", "pg": 4}]', "q.json: question 2", "pg", None),
])
def test_an_unknown_key_names_the_file_line_key_and_the_keys_known(tmp_path, name, text, where, key, near):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    with pytest.raises(QuestionsError) as e:
        load_questions(p)
    msg = str(e.value)
    what = "column" if name.endswith(".csv") else "key"
    assert msg.startswith(f"{tmp_path / where}: unknown {what} {key!r}"), msg
    assert (f"(did you mean {near!r}?)" in msg) == (near is not None), msg
    assert msg.endswith(f"known {what}s: {KNOWN}"), msg


def test_a_misspelt_must_contain_no_longer_makes_a_no_answer_question(tmp_path):
    """``must_contains`` was left unread: the question became one no document answers, and
    ``compare`` scored one question fewer without a word."""
    p = tmp_path / "q.yaml"
    p.write_text("- id: w\n  question: Whitefly dose?\n  must_contains: 2 ml per litre\n", encoding="utf-8")
    with pytest.raises(QuestionsError, match=r"q.yaml:3: unknown key 'must_contains' \(did you mean 'must_contain'\?\)"):
        load_questions(p)
    p.write_text("- id: w\n  question: Whitefly dose?\n  must_contain: 2 ml per litre\n", encoding="utf-8")
    (q,) = load_questions(p)
    assert q.answerable and q.must_contain == ("2 ml per litre",)


def test_other_names_of_a_key_are_read(tmp_path):
    p = tmp_path / "q.jsonl"
    p.write_text('{"query": "Dose?", "answer": "2 ml", "corpus_id": "a.txt", '
                 '"references": [{"start_index": 1, "end_index": 4, "content": "x"}]}\n'
                 '{"question": "Rain?", "must_contain": "", "answer": "no"}\n', encoding="utf-8")
    one, two = load_questions(p)
    assert (one.question, one.must_contain, one.source, one.spans) == ("Dose?", ("2 ml",), "a.txt", (Span("a.txt", 1, 4),))
    assert two.must_contain == ("no",)  # an empty must_contain beside an answer: the answer


def test_the_benchmarks_question_files_load():
    """Every key the benchmarks' test sets use is known (Chroma's CSV, whose spans carry
    ``content``: ``test_chroma_style_references_are_read``)."""
    assert len(load_questions(ROOT / "benchmarks" / "docugami" / "questions.yaml")) == 174


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
