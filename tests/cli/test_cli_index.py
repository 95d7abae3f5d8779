"""`seamcut index`, `search` and `compare`, run as a user runs them (their mistakes in this process)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from seamcut.cli import app
from tests.helpers.cli import run
from tests.helpers.named_index import SOURCES, named_index

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_index_then_search_with_a_filter(docs):
    db = docs / "db"
    r = run("index", str(docs / "docs"), "--db", str(db), "--catalog", str(docs / "catalog.yaml"))
    assert r.returncode == 0, r.stderr
    assert "3 file(s) added" in r.stderr
    r = run("index", str(docs / "docs"), "--db", str(db), "--catalog", str(docs / "catalog.yaml"))
    assert r.returncode == 0 and "3 unchanged" in r.stderr and "0 embedded" in r.stderr
    r = run("search", "--db", str(db), "whitefly dose on cotton", "-k", "2", "--json", "-")
    assert r.returncode == 0, r.stderr
    hits = json.loads(r.stdout)  # --json -: the JSON alone on standard output, in place of the table
    assert [h["rank"] for h in hits] == [1, 2]
    assert hits[0]["chunk"]["heading_path"][-1] == "Whitefly" and hits[0]["similarity"] > 0
    r = run("search", "--db", str(db), "spray", "--where", "crop = 'orange'", "--mode", "text", "--json", "-")
    assert all(h["chunk"]["metadata"]["crop"] == "orange" for h in json.loads(r.stdout))
    r = run("search", "--db", str(db), "whitefly dose", "--json", str(docs / "hits.json"))
    assert r.returncode == 0 and "cotton.md" in r.stdout and "Cotton manual / Pests / Whitefly" in r.stdout
    assert f"JSON: {docs / 'hits.json'}" in r.stderr  # --json FILE, as every command takes it
    assert json.loads((docs / "hits.json").read_text(encoding="utf-8"))[0]["rank"] == 1
    # mistakes, each refused with its reason (in this process: a child each cost 4 s of imports)
    for args, words in ((("search", "--db", db, "whitefly dose", "--json"), "requires an argument"),
                        (("search", "--db", db, "x", "--where", "crop = = 'x'"), "--where"),
                        (("index", docs / "docs", "--db", db, "--strategy", "fixed"), "built with strategy 'structure'"),
                        (("search", "--db", docs / "nowhere", "x"), "no seamcut index here")):
        r = CliRunner().invoke(app, [str(a) for a in args])
        assert r.exit_code == 2 and "".join(words.split()) in "".join(r.output.split()), (args, r.output)
    (docs / "docs" / "orange.md").unlink()  # --prune: a file no longer given leaves the index
    r = run("index", str(docs / "docs"), "--db", str(db), "--catalog", str(docs / "catalog.yaml"), "--prune")
    assert r.returncode == 0 and "2 unchanged" in r.stderr and "1 file(s) no longer given removed" in r.stderr
    r = run("search", "--db", str(db), "spray", "--where", "crop = 'orange'", "--json", "-")
    assert r.returncode == 0 and json.loads(r.stdout) == []


def test_search_takes_a_budget_its_old_name_and_says_a_where_that_matches_nothing(tmp_path):
    """--budget: the tokens sent per question, as compare and tune name them; --max-tokens, its
    old name, still works for a release with one line of warning; a --where that matches no chunk
    is said with values its fields hold (a file is stored as given: ../mydocs/R-data.md)."""
    db = tmp_path / "db"
    named_index(db)

    def search(*args: str):
        return CliRunner().invoke(app, ["search", "--db", str(db), "spray dose", "-k", "4", "--json", "-", *args])

    def said(r) -> str:
        return " ".join(r.stderr.split())
    full = json.loads(search().stdout)
    budget = full[0]["chunk"]["tokens"] + full[1]["chunk"]["tokens"]
    r = search("--budget", str(budget))
    assert r.exit_code == 0 and r.stderr == "", r.output
    got = json.loads(r.stdout)
    assert [h["chunk"]["id"] for h in got] == [h["chunk"]["id"] for h in full][:len(got)] and len(got) >= 2
    assert sum(h["chunk"]["tokens"] for h in got) <= budget and len(json.loads(search("--budget", "1").stdout)) == 1
    old = search("--max-tokens", str(budget))
    assert old.exit_code == 0 and json.loads(old.stdout) == got
    assert len(old.stderr.splitlines()) == 1 and "--max-tokens is deprecated: it is now --budget" in said(old)
    for args, words in ((("--budget", "9", "--max-tokens", "9"), "give --budget or --max-tokens (its old name), not both"),
                        (("--budget", "0"), "'--budget': Input should be greater than or equal to 1")):
        r = search(*args)  # (typer's usage errors come in a box: compared without it)
        assert r.exit_code == 2 and "".join(words.split()) in "".join(c for c in r.output if c not in "│╭╮╰╯─ \n")
    r = search("--where", "source = 'R-data.md'")  # SQL compares the source as stored
    assert r.exit_code == 0 and json.loads(r.stdout) == []
    assert ("""--where "source = 'R-data.md'" matches no chunk of the index; source holds '../mydocs/R-data.md', """
            "'notes/orange.md'") in said(r)
    r = search("--where", "file = 'R-data.md'")
    assert json.loads(r.stdout) and {h["chunk"]["source"] for h in json.loads(r.stdout)} == {SOURCES[0]}
    assert r.stderr == ""


def test_index_lists_every_bad_file_and_keeps_the_rest(docs):
    (docs / "docs" / "empty.txt").write_bytes(b"")
    (docs / "docs" / "fake.pdf").write_bytes(b"%PDF-1.7\nnot really")
    r = run("index", str(docs / "docs"), "--db", str(docs / "db"))
    assert r.returncode == 1
    assert "2 of 5 file(s) failed" in r.stderr and "empty.txt" in r.stderr and "fake.pdf" in r.stderr
    assert "3 file(s) added" in r.stderr


def test_a_size_the_model_cannot_take_stops_the_build_once_and_writes_nothing(docs):
    """The spec is checked once where the build begins and travels whole to the workers (no probe
    job): a size over the model's input, which only its tokenizer knows, stops the build at the
    first file cut, as one line, with nothing indexed (issue 52 point 2)."""
    db = docs / "too-big"
    r = run("index", str(docs / "docs"), "--db", str(db), "--size", "5000")
    assert r.returncode == 2, r.stderr
    assert "size 5000 tokens is over the model's maximum input of 512" in r.stderr
    assert "Traceback" not in r.stderr and "cutting failed" not in r.stderr
    from seamcut.index import Index
    assert not (db / "seamcut-index.json").is_file() or Index(db).files == {}


def test_compare_prints_the_table_and_writes_json_misses_and_report(docs):
    out = docs / "out"
    r = run("compare", str(docs / "docs"), "--questions", str(docs / "questions.yaml"),
            "--strategies", "fixed,structure,parent-child,parent-child:parents=blocks:size=40",
            "--out", str(out), "--json", str(out / "r.json"), "--report", str(out / "r.html"))
    assert r.returncode == 0, r.stderr
    for name, file in (("fixed", "fixed"), ("structure", "structure"), ("parent-child", "parent-child"),
                       ("parent-child:parents=blocks:size=40", "parent-child_parents-blocks_size-40")):
        assert name in r.stdout
        assert (out / "misses" / f"misses-{file}.md").is_file()
    assert "4 questions" in r.stdout and "hits@4" in r.stdout
    res = json.loads((out / "r.json").read_text(encoding="utf-8"))
    # the test set was checked against the documents first, and what was found is said
    checked = res["questions_check"]
    assert checked["documents"] == 3 and checked["counts"]["questions"] == 5, checked
    assert checked["counts"]["no_answer"] == 1 and checked["counts"]["usable"] == 5, checked
    assert "questions check: 5 questions against 3 documents: 4 answerable, 1 no-answer, 5 usable" in r.stderr
    assert res["k"] == 4 and res["questions"] == 4 and res["no_answer_questions"] == 1
    for s in res["strategies"]:
        assert {"name", "hits", "hit_rate", "mrr", "chunks", "build_seconds", "tokens_per_question",
                "misses"} <= set(s)
        assert s["hits"] == 4 and s["hit_rate"] == 1.0  # a corpus this small: every strategy finds them
        assert s["no_answer"][0]["id"] == "n" and s["no_answer"][0]["best_similarity"] is not None
    assert len(res["comparisons"]) == 3
    # best at the default budget: the median of the strategies' tokens per question at 4
    tokens = sorted(s["tokens_per_question"] for s in res["strategies"])
    assert abs(res["budget"] - (tokens[1] + tokens[2]) / 2) <= 1
    assert res["budgets"] == sorted({256, 512, 1024, 2048, res["budget"]})
    assert len(res["comparisons_at_budget"]) == 3
    # on 4 questions no lead is more than noise (4 to 0 has p = 0.125): every strategy is tied with
    # the leader, the paired tests are the leader's, and "best" is the cheaper and simpler of them
    pick = res["pick"]
    assert res["comparisons_at_budget"][0]["best"] == pick["leader"]
    assert sorted(pick["tied"]) == sorted(s["name"] for s in res["strategies"])
    assert res["best"] == pick["chosen"] == pick["tied"][0] and pick["why"]
    assert f"{res['best']} *" in r.stdout and "= tied with it within noise" in r.stdout
    assert f"= Tied within noise: {res['best']} with " in r.stderr
    for s in res["strategies"]:
        assert set(s["budgets"]) == {str(b) for b in res["budgets"]}
        assert s["budgets"]["2048"]["hits"] <= 4 and s["budgets"]["256"]["tokens_per_question"] <= 256
    assert f"hits≤{res['budget']} tok" in r.stdout and f"within {res['budget']} tokens" in r.stderr
    variant = next(s for s in res["strategies"] if s["name"].endswith("size=40"))
    assert variant["options"] == {"parents": "blocks", "size": 40}
    assert (out / "index" / "parent-child_parents-blocks_size-40" / "seamcut-index.json").is_file()
    page = (out / "r.html").read_text(encoding="utf-8")
    assert "data:image/png;base64," in page and "parent-child" in page and "McNemar" in page
    assert "hit rate against tokens sent" in page and f"hits within {res['budget']} tokens sent" in page
    assert f"Tied within noise: {res['best']} with " in page
    # each strategy's build: its stages, and the share of vectors the model did not compute
    builds = {s["name"]: s["build"] for s in res["strategies"]}
    assert builds["fixed"]["files"] == {"added": 3, "replaced": 0, "unchanged": 0, "failed": 0}
    assert {"read text", "cut", "embed", "write"} <= set(builds["fixed"]["stages"])
    assert builds["fixed"]["stages"]["cut"]["items"] == 3 and 0 <= builds["structure"]["from_cache"] <= 1
    assert "builds: CPU seconds per stage" in r.stderr and "vectors cached" in r.stderr
    # run again with one strategy more: the indexes built before are reused, only the new one is built
    r = run("compare", str(docs / "docs"), "--questions", str(docs / "questions.yaml"),
            "--strategies", "fixed,structure,recursive", "--out", str(out), "--json", str(out / "r2.json"),
            "--budget", "64,128", "--budget", "32")
    assert r.returncode == 0, r.stderr
    named = json.loads((out / "r2.json").read_text(encoding="utf-8"))
    assert named["budget"] == 64 and named["budgets"] == [32, 64, 128] and "hits≤64 tok" in r.stdout
    again = {s["name"]: s for s in json.loads((out / "r2.json").read_text(encoding="utf-8"))["strategies"]}
    assert again["fixed"]["build"]["files"]["unchanged"] == again["structure"]["build"]["files"]["unchanged"] == 3
    assert again["recursive"]["build"]["files"]["added"] == 3
    assert [again["structure"][key] for key in ("hits", "mrr", "chunks", "per_question")] == \
           [next(s for s in res["strategies"] if s["name"] == "structure")[key]
            for key in ("hits", "mrr", "chunks", "per_question")]
    # --json -: the JSON alone on standard output, in place of the table (the indexes reused)
    r = run("compare", str(docs / "docs"), "--questions", str(docs / "questions.yaml"),
            "--strategies", "fixed,structure", "--out", str(out), "--json", "-")
    assert r.returncode == 0, r.stderr
    assert [s["name"] for s in json.loads(r.stdout)["strategies"]] == ["fixed", "structure"]
    assert "best:" in r.stderr and "JSON:" not in r.stderr


def test_compare_goes_on_past_a_question_naming_a_file_not_among_the_documents(docs):
    """A question naming a file that is not among the documents is unusable, as one whose answer
    is nowhere: compare says so (the questions check's line and the question with its reason, and
    the JSON's ``questions_check``) and scores it as it scores every question; it stopped before."""
    stray = docs / "stray.yaml"
    stray.write_text((docs / "questions.yaml").read_text(encoding="utf-8")
                     + "- id: x\n  question: Wheat sowing date?\n  must_contain: 15 November\n  source: wheat.pdf\n",
                     encoding="utf-8")
    r = run("compare", str(docs / "docs"), "--questions", str(stray), "--strategies", "fixed",
            "--out", str(docs / "out"), "--json", "-")
    assert r.returncode == 0, r.stderr
    assert "questions check: 6 questions against 3 documents: 5 answerable, 1 no-answer, 5 usable" in r.stderr
    assert ("unusable: x: not found: the answer text occurs in no document; "
            "wrong source: wheat.pdf is not among the documents read") in r.stderr
    res = json.loads(r.stdout)
    (x,) = [q for q in res["questions_check"]["questions"] if q["id"] == "x"]
    assert not x["usable"] and x["wrong_source"] and x["not_found"]
    assert res["questions"] == 5 and res["strategies"][0]["hits"] == 4  # scored: a miss
    assert "x" in {q["id"] for q in res["strategies"][0]["misses"]}


def test_compare_bad_inputs_name_the_file_or_line(docs):
    r = run("compare", str(docs / "docs"), "--questions", str(docs / "questions.yaml"),
            "--strategies", "fixed,parent-child:parent=blocks")
    assert r.returncode == 2 and "parent-child has no option 'parent'" in r.stderr
    bad = docs / "bad.yaml"
    bad.write_text("- id: a\n  question: x\n- id: b\n  question: y\n  mustcontain: y\n", encoding="utf-8")
    r = run("compare", str(docs / "docs"), "--questions", str(bad), "--strategies", "fixed")
    assert r.returncode == 2 and "bad.yaml:5: unknown key 'mustcontain' (did you mean 'must_contain'?)" in r.stderr
    empty = docs / "emptydir"
    empty.mkdir()
    r = run("compare", str(empty), "--questions", str(docs / "questions.yaml"))
    assert r.returncode == 2 and "no documents read" in r.stderr and "emptydir" in r.stderr
    r = run("compare", str(docs / "docs"), "--questions", str(docs / "questions.yaml"), "--strategies", "fixed,chonk")
    assert r.returncode == 2 and "unknown strategy 'chonk'" in r.stderr
    r = run("compare", str(docs / "docs"), "--questions", str(docs / "questions.yaml"), "--budget", "512,0")
    assert r.returncode == 2 and "--budget: 0 is not a positive number of tokens" in r.stderr


def test_compare_reads_the_test_set_once_and_scores_the_budgets_once(docs, monkeypatch):
    """`seamcut compare` parses each spec once, loads the questions once and passes --budget in,
    so the result is scored at the budgets once, inside the comparison (issue 52 points 2-3)."""
    import importlib

    import seamcut.evaluate as evaluate
    import seamcut.evaluate.questions as questions
    judging = importlib.import_module("seamcut.evaluate.compare")  # the package's name is the function
    import seamcut.strategies.spec as spec

    calls: dict[str, list] = {"load": [], "score": [], "parse": []}

    def counted(name, real):
        def call(*args, **kw):
            calls[name].append(args[0] if name == "parse" else args[1:] if name == "score" else args)
            return real(*args, **kw)
        return call

    load, score, parse = questions.load_questions, judging.score_budgets, spec.parse_spec
    for module in (evaluate, questions):
        monkeypatch.setattr(module, "load_questions", counted("load", load))
    for module in (evaluate, judging):
        monkeypatch.setattr(module, "score_budgets", counted("score", score))
    monkeypatch.setattr(spec, "parse_spec", counted("parse", parse))
    out = docs / "out"
    r = CliRunner().invoke(app, ["compare", str(docs / "docs"), "--questions", str(docs / "questions.yaml"),
                                 "--strategies", "fixed,structure", "--budget", "64", "--size", "96",
                                 "--workers", "1", "--out", str(out), "--json", str(out / "r.json")])
    assert r.exit_code == 0, r.output
    assert len(calls["load"]) == 1 and calls["parse"] == ["fixed", "structure"]
    assert calls["score"] == [([64],)]
    data = json.loads((out / "r.json").read_text(encoding="utf-8"))
    assert (data["budget"], data["budgets"]) == (64, [64])
    assert [s["options"] for s in data["strategies"]] == [{"size": 96}, {"size": 96}]
