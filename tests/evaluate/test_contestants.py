"""Chunks made elsewhere (``chunks:PATH``) judged in ``compare`` exactly as seamcut's strategies
are: the same index, search, hit test and budgets, with what they are and whether each answer
survived in them recorded."""
from __future__ import annotations

import json

import pytest

from seamcut.chunks_jsonl import write_document
from seamcut.embed import load_embedder
from seamcut.errors import ConfigError
from seamcut.evaluate import load_questions
from seamcut.peers import parse_contestant
from tests.helpers.data import HELPLINE
from tests.helpers.judging import compared


@pytest.fixture(scope="module")
def structure_chunks(helpline_documents, tmp_path_factory):
    """seamcut's own structure chunks of the helpline, written as ``seamcut chunk --jsonl`` does."""
    import seamcut
    path = tmp_path_factory.mktemp("made") / "structure.jsonl"
    with path.open("w", encoding="utf-8") as sink:
        for doc in helpline_documents:
            write_document(sink, doc, seamcut.chunk(doc, strategy="structure"))
    return path


def test_seamcut_chunks_judged_as_a_contestant_score_as_seamcut(tmp_path, structure_chunks):
    files = sorted(str(p) for p in HELPLINE.iterdir() if p.suffix == ".pdf")
    questions = load_questions(HELPLINE / "questions.yaml")
    result = compared(files, questions, ["structure", f"chunks:{structure_chunks}"],
                      load_embedder(None, cache=True), tmp_path)
    ours, theirs = result.strategies
    assert theirs.contestant["chunker"] == "chunks" and ours.contestant is None
    assert theirs.chunks == ours.chunks and sorted(theirs.sizes) == sorted(ours.sizes)
    assert [o.rank for o in theirs.outcomes] == [o.rank for o in ours.outcomes]
    assert theirs.kept == ours.kept and all(theirs.kept)
    data = result.to_json()["strategies"]
    assert data[1]["answer_kept"] == sum(1 for q in questions if q.must_contain)
    assert data[1]["contestant"]["options"] == {"path": str(structure_chunks)}
    from seamcut.report.compare_html import render
    page = render(result)  # the HTML report says what each contestant is, and what it kept
    assert "answer kept" in page and f"<b>chunks:{structure_chunks}</b>: chunks made elsewhere" in page


def test_chunks_that_lost_an_answer_are_told_from_a_search_miss(tmp_path, structure_chunks):
    """The chunks holding the whitefly dose left out of the file: that question's answer is not
    kept, so its miss happened before search."""
    questions = [q for q in load_questions(HELPLINE / "questions.yaml") if q.source == "cotton-manual.pdf"]
    q01 = next(q for q in questions if q.id == "q01")
    rows = [json.loads(line) for line in structure_chunks.read_text(encoding="utf-8").splitlines()]
    lost = [r for r in rows if "text" in r and q01.answered_by(r["text"])]
    assert lost
    path = tmp_path / "lost.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows if r not in lost), encoding="utf-8")
    files = [str(HELPLINE / "cotton-manual.pdf")]
    result = compared(files, questions, [f"chunks:{path}"], load_embedder(None, cache=True), tmp_path)
    (s,) = result.strategies
    whitefly = [i for i, o in enumerate(s.outcomes) if o.question.id == "q01"]
    assert whitefly and s.kept[whitefly[0]] is False and not s.outcomes[whitefly[0]].hit
    others = [k for i, k in enumerate(s.kept) if i != whitefly[0]]
    cotton = [r for r in rows if "text" in r and r not in lost and r["source"].endswith("cotton-manual.pdf")]
    assert others == [any(q.answered_by(r["text"]) for r in cotton)
                      for q in (o.question for i, o in enumerate(s.outcomes) if i != whitefly[0])]


def test_a_contestant_reading_files_its_own_way_needs_files_not_documents(tmp_path, helpline_documents):
    questions = load_questions(HELPLINE / "questions.yaml")[:3]
    with pytest.raises(ConfigError, match="own library's reader: give files"):
        compared(list(helpline_documents), questions, ["langchain:recursive"], load_embedder(None, cache=True),
                 tmp_path)


def test_run_sizes_leave_a_library_chunker_its_own_options():
    spec = parse_contestant("langchain:recursive:chunk_size=1000")
    assert spec.with_defaults({"size": 48}) is spec


def test_what_the_model_was_fed_apart_from_what_was_sent_is_recorded(tmp_path):
    """A chunk longer than the model's input is embedded from its first tokens and sent whole;
    a chunk made with its own embedded text is embedded from that; the result counts both."""
    from seamcut.evaluate.questions import Question
    doc = tmp_path / "notes.md"
    long = " ".join(f"cotton field note {i} with the spray dose" for i in range(200))
    doc.write_text("# Notes\n\nThe whitefly dose is 2 ml per litre.\n\n" + long + "\n", encoding="utf-8")
    made = tmp_path / "made.jsonl"
    made.write_text("".join(json.dumps(r) + "\n" for r in [
        {"text": "The whitefly dose is 2 ml per litre.", "source": "notes.md", "embedded": "Notes\nThe whitefly dose"},
        {"text": long, "source": "notes.md"}]), encoding="utf-8")
    questions = [Question("q1", "What is the whitefly dose?", ("2 ml per litre",), source="notes.md")]
    result = compared([str(doc)], questions, [f"chunks:{made}"], load_embedder(None, cache=True), tmp_path)
    (s,) = result.strategies
    assert s.contestant["embedded"] == {"of": 2, "truncated": 1, "given": 1}
    assert s.contestant["sent"] == "each chunk's text" and s.kept == [True]
    assert max(s.sizes) > 512  # sent whole: its tokens are the whole chunk's
    assert any("1 of 2 chunks over the embedding model's input" in w for w in result.warnings)
