"""`seamcut tune`, run as a user runs it, on three small documents and a space of two chunkings."""
from __future__ import annotations

import json

from tests.helpers.cli import run

# size 600 is over the default model's 512-token input: left out, said so, never built
SPACE = "modes: [vector, hybrid]\nstrategies:\n  recursive: {size: [48, 200, 600], overlap: 0}\n"


def test_tune_prints_the_table_and_the_winner_and_writes_json(docs):
    (docs / "space.yaml").write_text(SPACE, encoding="utf-8")
    out = docs / "tune.json"
    r = run("tune", str(docs / "docs"), "-q", str(docs / "questions.yaml"), "--space", str(docs / "space.yaml"),
            "--out", str(docs / "work"), "--json", str(out), "--held-out", "0.25",
            "--report", str(docs / "tune.html"), env={"SEAMCUT_CACHE": str(docs / "cache")})  # a cold cache: the cost
    assert r.returncode == 0, r.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["questions"] == {"tune": 3, "held_out": 1, "no_answer": 1} and data["documents"] == 3
    assert data["space"]["chunkings"] == ["recursive:size=48:overlap=0", "recursive:size=200:overlap=0"]
    # every strategy's defaults, hybrid, reach the final round and are tested against the winner
    assert {d["spec"] for d in data["defaults"]} == {"fixed", "sentence", "paragraph", "recursive",
                                                     "structure", "semantic", "parent-child"}
    assert "final round: 3 documents, 3 tune and 1 held-out questions" in r.stdout
    assert data["failures"] == [] and data["warnings"] == []  # every file read for every chunking
    assert data["questions_check"]["counts"]["usable"] == 5  # checked before the search, and said
    assert "questions check: 5 questions against 3 documents" in r.stderr
    assert data["left_out"] == [{"spec": "recursive:size=600:overlap=0", "reason": data["left_out"][0]["reason"]}]
    assert "over the model's maximum input of 512 tokens" in data["left_out"][0]["reason"]
    assert "left out: recursive:size=600:overlap=0: size 600 tokens" in r.stderr
    assert "Left out: recursive:size=600:overlap=0" in (docs / "tune.html").read_text(encoding="utf-8")
    assert "parent-child @hybrid" in r.stdout
    w = data["winner"]
    assert f"* winner: {w['label']}" in r.stderr and f"--strategy '{w['spec']}'" in r.stderr
    assert f"--mode {w['mode']}" in r.stderr and "cost:" in r.stderr
    # on 3 tune questions no lead is more than noise: the winner is the cheaper and simpler of a tie
    pick = data["pick"]
    assert pick["chosen"] == w["label"] == pick["tied"][0] and len(pick["tied"]) > 1
    assert f"= Tied within noise: {w['label']} with " in r.stderr
    c = data["cost"]  # the defaults are outside the space: building them is the test's cost
    assert c["versus_tokens"] > 0 and c["search_tokens"] + c["versus_tokens"] == c["embedded_tokens"]
    assert f"the defaults it is tested against {c['versus_tokens']:,}" in r.stderr
    assert f"building the defaults it is tested against {c['versus_tokens']:,}" in (docs / "tune.html").read_text()
    page = (docs / "tune.html").read_text(encoding="utf-8")  # drawn from the same JSON
    assert f"Winner: {w['label']}" in page and all(p["label"] in page for p in data["points"])
    assert f"Tied within noise: {w['label']} with " in page


def test_tune_bad_inputs_name_the_file(docs):
    bad = docs / "space.yaml"
    bad.write_text("strategies:\n  recursive: {sise: [48]}\n", encoding="utf-8")
    r = run("tune", str(docs / "docs"), "-q", str(docs / "questions.yaml"), "--space", str(bad))
    assert r.returncode == 2 and f"{bad}:2: strategies.recursive.sise" in r.stderr
    r = run("tune", str(docs / "docs"), "-q", str(docs / "missing.yaml"))
    assert r.returncode == 2 and "missing.yaml: no such file" in r.stderr
    r = run("tune", str(docs / "docs"), "-q", str(docs / "questions.yaml"), "--held-out", "1")
    assert r.returncode == 2 and "held-out share" in r.stderr
    r = run("tune", str(docs / "docs"), "-q", str(docs / "questions.yaml"), "--plan", "--json", str(docs / "plan.json"))
    assert r.returncode == 0, r.stderr  # the plan only: nothing read, nothing embedded
    plan = json.loads((docs / "plan.json").read_text(encoding="utf-8"))
    assert plan["documents"] == 3 and plan["candidates"] == 105 and plan["final"]["defaults"] == 7
    assert "tune's plan: 3 documents" in r.stdout and "corpus builds" in r.stdout
    assert not (docs / "out").exists()
    r = run("tune", str(docs / "docs"), "-q", str(docs / "questions.yaml"), "--plan", "--json", "-")
    assert r.returncode == 0 and json.loads(r.stdout) == plan  # the JSON alone, in place of the plan
    # --budget is tokens sent per question (it was minutes): one under every chunk size is refused
    (docs / "space.yaml").write_text(SPACE, encoding="utf-8")
    r = run("tune", str(docs / "docs"), "-q", str(docs / "questions.yaml"), "--space", str(docs / "space.yaml"),
            "--budget", "30")
    assert r.returncode == 2 and "smallest chunk size in the space (48 tokens)" in r.stderr
    assert "--minutes 30" in r.stderr and not (docs / "out").exists()
    r = run("tune", str(docs / "docs"), "-q", str(docs / "questions.yaml"), "--token-budget", "300")
    assert r.returncode == 2 and "No such option" in r.stderr
    r = run("tune", str(docs / "docs"), "-q", str(docs / "questions.yaml"), "--versus", "structure,nosuch")
    assert r.returncode == 2 and "unknown strategy 'nosuch'" in r.stderr
