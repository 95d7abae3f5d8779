"""A test set checked against the documents as seamcut reads them: where each answer occurs, on
which page, and which questions can never hit (not found, wrong source) or are ambiguous."""
from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

from seamcut.evaluate import load_questions
from seamcut.evaluate.questions import Question
from seamcut.evaluate.questions_check import check_questions
from seamcut.pipeline.corpus import read_corpus
from tests.helpers.data import HELPLINE

DOSES = """# Cotton pests

| Pest | Dose |
|---|---|
| Aphids | 3 ml per litre |
| Whitefly | 2 ml per litre |
| Aphids | 3 ml per litre |

Spray in the evening.
"""
NOTICE = "Insurance notice.\n\nThe last date to enrol is 31 July.\nWhitefly: 2 ML  per\nlitre of water.\n"


def _documents(tmp_path: Path):
    (tmp_path / "doses.md").write_text(DOSES, encoding="utf-8")
    (tmp_path / "notice.txt").write_text(NOTICE, encoding="utf-8")
    corpus = read_corpus([tmp_path], progress=False, cache=False, workers=1)
    assert not corpus.failures and len(corpus.documents) == 2
    return corpus.documents


def test_flags_each_kind_of_problem_in_md_and_txt(tmp_path):
    docs = _documents(tmp_path)
    qs = [Question("ok", "When to spray?", ("spray IN the evening",), "doses.md"),
          Question("row", "Aphid dose?", ("3 ml per litre",), "doses.md"),
          Question("gone", "Thrips dose?", ("2.5 ml per litre",), "doses.md"),
          Question("elsewhere", "Last date?", ("31 July",), "doses.md"),
          Question("both", "Whitefly dose?", ("2 ml per litre",), "doses.md"),
          Question("only", "Whitefly dose?", ("2 ml per litre",), "doses.md", source_only=True),
          Question("none", "Rain tomorrow?"),
          Question("alts", "Date?", ("31 July", "31/07", "last date to enrol is 31 July"), "notice.txt"),
          Question("missing", "Date?", ("31 July",), "nowhere.pdf")]
    report = check_questions(qs, docs)
    by = {c.question.id: c for c in report.checks}
    assert [c.question.id for c in report.checks] == [q.id for q in qs]
    assert by["ok"].problems() == [] and by["ok"].usable
    assert [o.source.endswith("doses.md") for o in by["ok"].occurrences] == [True]
    # the repeated table row: two places in one document, a warning only
    row = by["row"]
    assert row.ambiguous and row.usable and len(row.occurrences) == 2 and not row.wrong_source
    assert row.problems() == ["ambiguous: 2 places: doses.md (2 times)"]
    assert by["gone"].not_found and not by["gone"].usable
    assert by["gone"].problems() == ["not found: the answer text occurs in no document"]
    assert by["elsewhere"].wrong_source and not by["elsewhere"].usable and not by["elsewhere"].ambiguous
    assert by["elsewhere"].problems() == ["wrong source: doses.md does not hold it; found in notice.txt"]
    # matched as the hit test matches: case and a line break inside the answer do not matter
    assert by["both"].ambiguous and {Path(o.source).name for o in by["both"].occurrences} == {"doses.md", "notice.txt"}
    assert all(Question("x", "?", ("2 ml per litre",)).answered_by(Path(o.source).read_text())
               for o in by["both"].occurrences)
    # source_only: only the occurrences in its source count, one place
    assert not by["only"].ambiguous and by["only"].problems() == []
    assert by["none"].no_answer and by["none"].usable and by["none"].problems() == []
    assert not by["none"].not_found
    # an alternative inside a longer one found at the same place is one place
    assert len(by["alts"].occurrences) == 1 and by["alts"].problems() == []
    assert by["missing"].wrong_source
    assert "nowhere.pdf is not among the documents read" in by["missing"].problems()[0]
    # pages stated for a document without pages cannot be wrong
    assert not check_questions([replace(qs[0], page=3)], docs).checks[0].wrong_page
    assert report.counts == {"questions": 9, "answerable": 8, "no_answer": 1, "usable": 6,
                             "not_found": 1, "wrong_source": 2, "outside_filter": 0, "wrong_page": 0, "ambiguous": 2}
    assert [c.question.id for c in report.unusable] == ["gone", "elsewhere", "missing"]
    data = report.to_json()
    assert data["counts"] == report.counts and data["documents"] == 2
    assert data["questions"][1]["occurrences"][0]["pages"] == []


def test_a_question_naming_a_file_not_read_is_unusable_with_the_reason(tmp_path):
    """A question whose ``source``, or a span's, names a file that is not among the documents
    read is a wrong source: unusable, the file named, whether its answer is found elsewhere, in
    no document, or it has none (``compare`` and ``tune`` go on past it, as past every unusable
    question; they stopped before)."""
    from seamcut.evaluate.spans import Span
    docs = _documents(tmp_path)
    qs = [Question("gone", "Thrips dose?", ("2.5 ml per litre",), "wheat.pdf"),
          Question("none", "Rain tomorrow?", (), "wheat.pdf"),
          Question("span", "Date?", spans=(Span("notice.txt", 0, 9), Span("wheat.pdf", 3, 9))),
          Question("read", "Date?", ("31 July",), "notice.txt", spans=(Span("notice.txt", 0, 9),))]
    gone, none, span, read = check_questions(qs, docs).checks
    assert gone.wrong_source and gone.not_found and not gone.usable and not gone.source_known
    assert gone.problems() == ["not found: the answer text occurs in no document",
                               "wrong source: wheat.pdf is not among the documents read"]
    assert none.wrong_source and not none.usable
    assert span.unread == ("wheat.pdf",) and not span.usable
    assert span.problems() == ["wrong source: wheat.pdf is not among the documents read"]
    assert read.usable and read.unread == () and read.source_known
    data = check_questions(qs, docs).to_json()
    assert [q["usable"] for q in data["questions"]] == [False, False, False, True]
    assert data["counts"]["wrong_source"] == 3


def test_the_helpline_set_against_the_helpline(helpline_documents):
    qs = load_questions(HELPLINE / "questions.yaml")
    report = check_questions(qs, helpline_documents)
    # every question can hit; 16 have their answer text in more than one place
    assert report.counts == {"questions": 40, "answerable": 38, "no_answer": 2, "usable": 40,
                             "not_found": 0, "wrong_source": 0, "outside_filter": 0, "wrong_page": 0, "ambiguous": 16}
    by = {c.question.id: c for c in report.checks}
    # q11's answer: the cotton manual's page 3 and page 7, page 7 the one it names
    assert [(Path(o.source).name, o.pages) for o in by["q11"].occurrences] == [
        ("cotton-manual.pdf", (3,)), ("cotton-manual.pdf", (7,))]
    # the pages agree with the document's own page offsets, found in its raw text
    cotton = next(d for d in helpline_documents if d.source.endswith("cotton-manual.pdf"))
    # (in the raw text, one of them breaks a line or starts with a capital)
    found = re.finditer(r"magnesium\s+sulphate\s+at\s+10\s+g\s+per\s+litre", cotton.text, re.I)
    assert [cotton.pages_of(m.start(), m.end()) for m in found] == [(3,), (7,)]
    # a wrong page named: a warning, the question still usable
    moved = check_questions([replace(by["q11"].question, page=2)], helpline_documents).checks[0]
    assert moved.wrong_page and moved.usable
    assert moved.problems()[0] == "wrong page: not on page 2; found on cotton-manual.pdf p. 3, 7 (2 times)"
    # a wrong source: the answer is not in the file named
    wrong = check_questions([replace(by["q11"].question, source="orange-manual.pdf")],
                            helpline_documents).checks[0]
    assert wrong.wrong_source and not wrong.usable and not wrong.wrong_page


def _table_drawn_by_columns() -> bytes:
    """A one-page PDF with a ruled two-column table drawn a column at a time (as some producers
    write tables) between two paragraphs: its text layer reads "Pest Aphids Whitefly Dose 3 ml
    per litre 2 ml per litre", while seamcut reads the table's rows, "Aphids | 3 ml per litre"."""
    from tests.helpers.badfiles import one_page
    line = b"BT /F1 11 Tf 72 %d Td (%s) Tj ET\n"
    cells = [(72, 600, b"Pest"), (72, 582, b"Aphids"), (72, 564, b"Whitefly"),
             (172, 600, b"Dose"), (172, 582, b"3 ml per litre"), (172, 564, b"2 ml per litre")]
    grid = b"0.5 w " + b"".join(b"66 %d m 300 %d l S " % (y, y) for y in (614, 596, 578, 560)) + \
        b"".join(b"%d 560 m %d 614 l S " % (x, x) for x in (66, 166, 300)) + b"\n"
    return one_page(line % (650, b"Spray the doses below in the evening, when bees are not out in the field.")
                    + line % (636, b"Mix each dose in one litre of clean water and use it the same day it is made.")
                    + grid + b"".join(b"BT /F1 11 Tf %d %d Td (%s) Tj ET\n" % c for c in cells)
                    + line % (520, b"Repeat after fifteen days if the pests are still seen on the lower leaves."))


def test_a_phrase_only_in_the_pdfs_own_text_layer_is_named_with_its_page(tmp_path):
    """An answer copied from another extractor's text (the page in its drawing order) is in the
    PDF's text layer but not in seamcut's text of the page: the question is unusable, and the
    check says the text layer has it, on which page, and what to do."""
    pdf = tmp_path / "doses.pdf"
    pdf.write_bytes(_table_drawn_by_columns())
    corpus = read_corpus([pdf], progress=False, cache=False, workers=1)
    assert not corpus.failures
    assert "Pest | Dose\nAphids | 3 ml per litre\nWhitefly | 2 ml per litre" in corpus.documents[0].text
    asked = [Question("copied", "Which pests?", ("Pest Aphids Whitefly",), "doses.pdf"),
             Question("row", "Aphid dose?", ("Aphids 3 ml per litre",), "doses.pdf"),
             Question("none", "Thrips dose?", ("Thrips 1 ml",), "doses.pdf")]
    copied, row, none = check_questions(asked, corpus.documents).checks
    assert copied.not_found and not copied.usable
    assert [(Path(o.source).name, o.pages) for o in copied.in_text_layer] == [("doses.pdf", (1,))]
    assert copied.problems() == ["not found in seamcut's text, but the PDF's own text layer has it: "
                                 "doses.pdf p. 1 (seamcut reads that page in another order or joins "
                                 "its table cells in rows: copy the answer from `seamcut read`)"]
    assert copied.to_json()["in_text_layer"] == [{"source": str(pdf), "pages": [1], "answer": "Pest Aphids Whitefly"}]
    assert row.usable and not row.in_text_layer  # found in seamcut's text: the layer is not read
    assert none.not_found and not none.in_text_layer
    assert none.problems() == ["not found: the answer text occurs in no document"]
