"""The public API, as ``import seamcut`` offers it: every exported name called for real on small
inputs, and the import itself kept light."""
from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import seamcut

COTTON = """# Cotton manual

## Pests

### Whitefly

Whiteflies suck sap from the underside of cotton leaves. Mix 2 ml per litre of water and spray
in the evening. Wait seven days before spraying again.

### Aphids

Aphids curl young cotton leaves. Mix 3 ml per litre of water.
"""

ORANGE = """# Orange notice

The crop insurance scheme for orange growers closes on 31 July 2026. Apply at the bank.
"""

QUESTIONS = """- id: w
  question: Whitefly on cotton, how many ml per litre?
  must_contain: 2 ml per litre
  source: cotton.md
- id: o
  question: Last date of the orange insurance scheme?
  must_contain: 31 July 2026
"""

EXPORTED = {"read", "chunk", "Index", "compare", "tune", "inspect", "load_embedder"}


@pytest.fixture()
def docs(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "cotton.md").write_text(COTTON, encoding="utf-8")
    (folder / "orange.md").write_text(ORANGE, encoding="utf-8")
    return folder


def test_import_is_light_and_every_name_is_there():
    code = ("import json, sys, seamcut; print(json.dumps([m for m in ('numpy', 'lancedb', 'pyarrow', "
            "'typer', 'seamcut.readers', 'seamcut.strategies', 'seamcut.index') if m in sys.modules]))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(r.stdout) == []  # the layers load on first use
    assert EXPORTED <= set(seamcut.__all__) and EXPORTED <= set(dir(seamcut))
    from seamcut import Index, compare, inspect, load_embedder  # noqa: F401 - from-imports work too
    assert seamcut.Index.__module__.startswith("seamcut.index")
    with pytest.raises(AttributeError):
        seamcut.no_such_name  # noqa: B018


def test_read(docs):
    doc = seamcut.read(docs / "cotton.md")
    assert isinstance(doc, seamcut.Document) and doc.text == COTTON
    assert [doc.text[e.start:e.end] for e in doc.elements if e.kind == "heading"][-1] == "### Aphids"
    with pytest.raises(seamcut.InputError, match="no such file"):
        seamcut.read(docs / "missing.md")


def test_chunk(docs):
    doc = seamcut.read(docs / "cotton.md")
    chunks = seamcut.chunk(doc, strategy="structure", size=64)
    assert chunks and all(c.text[len(c.context):] == doc.text[c.start:c.end] for c in chunks)
    assert all(c.tokens <= 64 for c in chunks)
    assert any(c.heading_path[-1:] == ("Whitefly",) for c in chunks)
    words = seamcut.chunk("one two three four five six seven", strategy="fixed", size=3, overlap=0,
                          unit="words")
    assert [c.text.split() for c in words] == [["one", "two", "three"], ["four", "five", "six"], ["seven"]]
    with pytest.raises(ValueError, match="unknown strategy"):
        seamcut.chunk("text", strategy="magic")


def test_load_embedder():
    emb = seamcut.load_embedder()  # the bundled multilingual-e5-small
    v = emb.embed_queries(["whitefly dose on cotton"])
    assert v.shape == (1, emb.dim) and abs(float(np.linalg.norm(v[0])) - 1) < 1e-3


def test_index(docs, tmp_path):
    index = seamcut.Index(tmp_path / "db", strategy="structure", options={}, model="default")
    documents = [seamcut.read(p) for p in sorted(docs.iterdir())]
    report = index.update(documents, lambda d: seamcut.chunk(d, strategy="structure"))
    assert len(report.added) == 2 and index.count() == report.chunks > 0
    hits = seamcut.Index(tmp_path / "db").search("whitefly dose", 1)
    assert hits[0].chunk.heading_path[-1] == "Whitefly"


def test_compare(docs, tmp_path):
    questions = tmp_path / "questions.yaml"
    questions.write_text(QUESTIONS, encoding="utf-8")
    result = seamcut.compare(docs, questions, strategies=["fixed", "structure"], size=64,
                             progress=False)
    assert [s.name for s in result.strategies] == ["fixed", "structure"]
    assert all(s.hits == 2 and s.chunks > 0 for s in result.strategies) and result.failures == []
    assert result.to_json()["questions"] == 2
    # Documents and Questions as objects, the indexes kept in a folder
    from seamcut.evaluate import load_questions
    documents = [seamcut.read(docs / "orange.md")]
    result = seamcut.compare(documents, load_questions(questions)[1:], strategies=["paragraph"],
                             workdir=tmp_path / "work", progress=False, budgets=[8, 4096])
    assert result.strategies[0].hits == 1 and (tmp_path / "work" / "index" / "paragraph").is_dir()
    # the questions checked against the documents given, before anything was judged
    assert result.questions_check is not None and result.questions_check.documents == 1
    assert [c.question.id for c in result.questions_check.checks] == [q.id for q in load_questions(questions)[1:]]
    assert all(c.usable for c in result.questions_check.checks)
    # scored at the budgets asked, "best" at the first: 8 tokens send nothing, 4096 all of it
    assert (result.budget, result.budgets) == (8, [8, 4096])
    assert result.to_json()["strategies"][0]["budgets"]["8"]["hits"] == 0
    assert result.to_json()["strategies"][0]["budgets"]["4096"]["hits"] == 1
    with pytest.raises(ValueError, match="unknown strategy 'chonk'"):
        seamcut.compare(docs, questions, strategies=["chonk"])
    with pytest.raises(ValueError, match="0 is not a positive number of tokens"):
        seamcut.compare(docs, questions, strategies=["fixed"], budgets=[0])
    # a question naming a file not among the documents: judged on, unusable and a miss, with the reason
    result = seamcut.compare(documents, questions, strategies=["fixed"], progress=False)
    [w] = [c for c in result.questions_check.checks if c.question.id == "w"]
    assert (w.usable, w.unread) == (False, ("cotton.md",))
    assert result.to_json()["questions"] == 2 and result.strategies[0].hits == 1
    with pytest.raises(ValueError, match="no documents read from"):
        seamcut.compare(tmp_path / "nowhere", questions)


def test_inspect(docs, tmp_path):
    doc = seamcut.read(docs / "cotton.md")
    chunks = seamcut.chunk(doc, strategy="recursive", size=60, overlap=10, unit="chars")
    ins = seamcut.inspect(chunks, docs / "cotton.md", size=60, overlap=10, unit="chars")
    assert ins.chunks == len(chunks) and ins.sizes["chars"].over == 0
    assert ins.coverage is not None and ins.coverage.uncovered_chars == 0
    assert all(p.overlap_chars > 0 for p in ins.pairs)
    # anyone's chunks: a JSONL file of LangChain-style dumps, cut with no overlap
    dump = tmp_path / "chunks.jsonl"
    dump.write_text("".join(json.dumps({"page_content": part, "metadata": {}}) + "\n"
                            for part in COTTON.split("\n\n")), encoding="utf-8")
    ins = seamcut.inspect(dump, [doc])
    assert ins.chunks == len(COTTON.split("\n\n")) and len(ins.zero_overlap_pairs) == len(ins.pairs)
