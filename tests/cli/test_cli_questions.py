"""`seamcut questions check`, run as a user runs it: the helpline set is usable, a question whose
answer is nowhere makes the exit status 1 and is named, --json - is the JSON alone."""
from __future__ import annotations

import json

from tests.helpers.cli import run
from tests.helpers.data import HELPLINE

DOC = "# Doses\n\n| Pest | Dose |\n|---|---|\n| Aphids | 3 ml per litre |\n| Aphids | 3 ml per litre |\n"
QUESTIONS = """- id: aphids
  question: Aphid dose?
  must_contain: 3 ml per litre
  source: doses.md
- id: thrips
  question: Thrips dose?
  must_contain: 2.5 ml per litre
  source: doses.md
- id: rain
  question: Rain tomorrow?
  must_contain: []
"""


def test_the_helpline_set_is_usable():
    r = run("questions", "check", str(HELPLINE / "questions.yaml"), str(HELPLINE))
    assert r.returncode == 0, r.stderr
    assert ("40 questions against 10 documents: 38 answerable, 2 no-answer, 40 usable; not found 0, "
            "wrong source 0, wrong page 0, ambiguous 16") in r.stderr
    assert "q11" in r.stdout and "ambiguous: 2 places: cotton-manual.pdf p. 3, 7 (2 times)" in r.stdout


def test_an_unusable_question_is_named_and_exits_1(tmp_path):
    (tmp_path / "doses.md").write_text(DOC, encoding="utf-8")
    (tmp_path / "q.yaml").write_text(QUESTIONS, encoding="utf-8")
    r = run("questions", "check", str(tmp_path / "q.yaml"), str(tmp_path / "doses.md"))
    assert r.returncode == 1, r.stderr
    assert "unusable: thrips: not found: the answer text occurs in no document" in r.stderr
    assert "aphids" in r.stdout and "ambiguous: 2 places: doses.md (2 times)" in r.stdout
    assert "1 no-answer, 2 usable; not found 1" in r.stderr
    # --json -: the JSON alone on standard output, the exit status the same
    r = run("questions", "check", str(tmp_path / "q.yaml"), str(tmp_path / "doses.md"), "--json", "-")
    assert r.returncode == 1, r.stderr
    data = json.loads(r.stdout)
    assert data["counts"]["not_found"] == 1 and data["counts"]["ambiguous"] == 1
    assert [q["id"] for q in data["questions"] if not q["usable"]] == ["thrips"]
    # --json FILE
    out = tmp_path / "check.json"
    r = run("questions", "check", str(tmp_path / "q.yaml"), str(tmp_path / "doses.md"), "--json", str(out))
    assert json.loads(out.read_text(encoding="utf-8"))["documents"] == 1


def test_a_bad_test_set_is_an_error_exit_2(tmp_path):
    (tmp_path / "q.yaml").write_text("- id: a\n  must_contain: x\n", encoding="utf-8")
    r = run("questions", "check", str(tmp_path / "q.yaml"), str(tmp_path))
    assert r.returncode == 2 and "error:" in r.stderr and "no 'question' text" in r.stderr
