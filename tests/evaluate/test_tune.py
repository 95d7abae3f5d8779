"""`tune` on a small corpus made here, where one chunking is clearly better: every answer is a
whole paragraph of about 45 words, which no 32-token chunk can hold and a 256-token chunk holds
whole. The halving must find it, drop the hopeless ones by a paired test, give the same result
twice, agree with the exhaustive search, and write every key of the JSON contract."""
from __future__ import annotations

import json
from contextlib import contextmanager
from types import SimpleNamespace

import pytest

from seamcut.pipeline.corpus import Limits
from seamcut.embed import load_embedder
from seamcut.evaluate.options import Indexing, TuneOptions
from seamcut.evaluate.questions import Question
from seamcut.evaluate.space import parse_space
from seamcut.evaluate.tune import tune
from seamcut.evaluate.tune_journal import Journal
from seamcut.evaluate.tune_plan import plan
from seamcut.evaluate.tune_result import write_tune_json
from seamcut.index import Index
from seamcut.pipeline.options import BuildOptions
from tests.helpers.tune_corpus import SPACE, make_corpus, without_timings


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("tune")
    docs, questions = make_corpus(tmp)
    embedder = load_embedder(None, cache=tmp / "embeddings")  # a cache of this test's own
    return tmp, docs, questions, embedder


def indexing(embedder, workdir) -> Indexing:
    """How the tests' indexes are built: one reading worker, no progress."""
    return Indexing(embedder, workdir, build=BuildOptions(limits=Limits(workers=1), progress=False))


def run(setup, **kw):
    tmp, docs, questions, embedder = setup
    kw.setdefault("versus", ["recursive"])
    return tune([docs], questions, indexing(embedder, tmp / "work"), TuneOptions(space=parse_space(SPACE), **kw))


def test_halving_finds_the_clear_winner_and_drops_the_hopeless_by_a_paired_test(setup, tmp_path):
    first = run(setup)
    data = first.to_json()
    assert data["questions"] == {"tune": 13, "held_out": 5, "no_answer": 0}
    # the clear leader is 256-token chunks; the default recursive (300 tokens, overlap 50) holds
    # every answer whole too, and on 13 questions nothing tells them apart: a tie, which goes to
    # the default search mode (the space searches vector and text; the default is searched hybrid)
    pick = data["pick"]
    assert pick["leader"].startswith("recursive:size=256:overlap=0 @")
    assert set(pick["tied"]) == {p["label"] for p in data["points"]} and pick["tied"][0] == pick["chosen"]
    assert pick["chosen"] == data["winner"]["label"] == "recursive @hybrid"
    assert pick["why"] == "the default search mode (hybrid)"
    assert data["winner"]["tune_hit_rate"] == 1.0 and data["winner"]["held_out_hit_rate"] == 1.0
    assert data["winner"]["command"].endswith("--strategy 'recursive'")
    round1 = [r for r in data["log"] if r["round"] == 1]
    assert len(round1) == 4 and data["rounds"][0]["questions"] == 8
    assert data["rounds"][0]["kept"] == sum(r["kept"] for r in round1) <= 2  # the best 1/3 at most
    # round 1: the documents holding the 8 questions' answers, and a third of the others
    assert data["rounds"][0]["documents"] < 6 and data["rounds"][-1]["documents"] == 6
    # the winner's index grown from its round-1 folder, one folder per set of documents
    grown = setup[0] / "work" / "index" / "recursive_size-256_overlap-0"
    folders = sorted(f.name.split("-")[0] for f in grown.iterdir())
    assert folders == sorted([str(data["rounds"][0]["documents"]), "6"])
    small = [r for r in round1 if r["spec"] == "recursive:size=32:overlap=0"]
    assert all(r["hits"] == 0 and not r["kept"] for r in small)
    for r in small:  # beaten 8 to 0 on the same questions: more than noise, whatever the cut said
        assert r["dropped"]["p_value"] < 0.05 and "more than noise" in r["dropped"]["reason"]
        assert r["dropped"]["by"].startswith("recursive:size=256:overlap=0 @")
    # the final round: the best of round 1 and the default on every document and question
    final = data["rounds"][-1]
    assert final["questions"] == 13 and len(data["points"]) == final["candidates"]
    assert {p["label"] for p in data["points"]} >= {"recursive @hybrid", data["winner"]["label"]}
    default = next(d for d in data["defaults"] if d["label"] == "recursive @hybrid")
    assert default["comparison"]["best"] == data["winner"]["label"]
    assert {p["label"] for p in data["pareto"]} <= {p["label"] for p in data["points"]}
    assert data["cost"]["embedded_tokens"] > 0 and data["cost"]["index_tokens"] > 0
    # the cost parted: each round's tokens are its chunkings' (a chunking built once for its modes);
    # the default recursive (300 tokens, overlap 50) is outside the space: its build is the test's
    for r in data["rounds"]:
        built = {row["spec"]: row["chunking_tokens"] for row in data["log"] if row["round"] == r["round"]}
        assert sum(built.values()) == r["embedded_tokens"]
    versus = next(row for row in data["log"] if row["label"] == "recursive @hybrid")["chunking_tokens"]
    cost = data["cost"]
    assert cost["versus_tokens"] == versus > 0
    assert cost["search_tokens"] + cost["versus_tokens"] == cost["embedded_tokens"]
    assert cost["search_index_equivalents"] == round(cost["search_tokens"] / cost["index_tokens"], 3)

    # the same inputs and seed: the same result but for timings (the second run only searches)
    again = run(setup)
    assert without_timings(again.to_json()) == without_timings(data)
    assert again.cost["embedded_tokens"] == 0

    # every candidate on everything, in one round: the same winner
    full = run(setup, exhaustive=True).to_json()
    assert len(full["rounds"]) == 1 and full["rounds"][0]["candidates"] == 5  # 4 + the default
    assert full["winner"]["spec"] == data["winner"]["spec"]

    # the JSON contract: every key present
    out = tmp_path / "tune.json"
    write_tune_json(first, out)
    saved = json.loads(out.read_text(encoding="utf-8"))
    assert set(saved) >= {"k", "model", "seed", "budget", "questions", "documents", "space", "rounds",
                          "log", "points", "pareto", "winner", "defaults", "cost", "pick"}
    assert set(saved["pick"]) == {"chosen", "leader", "tied", "why"}
    assert set(saved["space"]) >= {"chunkings", "modes", "candidates"}
    assert set(saved["rounds"][0]) == {"round", "documents", "questions", "candidates", "kept",
                                       "seconds", "embedded_tokens"}
    row_keys = {"round", "label", "spec", "mode", "documents", "questions", "hits", "hit_rate", "hits_at_1",
                "mrr", "budget_hits", "budget_hit_rate", "tokens_per_question", "chunks", "index_bytes",
                "index", "kept", "dropped", "seconds", "chunking_tokens"}
    assert all(set(r) == row_keys for r in saved["log"])
    assert all(set(p) == row_keys | {"held_out_hit_rate", "held_out_mrr", "held_out_budget_hit_rate",
                                     "default"} for p in saved["points"])
    summary = {"label", "spec", "mode", "command", "search", "tune_hit_rate", "held_out_hit_rate", "tune_mrr",
               "held_out_mrr", "tune_budget_hit_rate", "held_out_budget_hit_rate", "tokens_per_question",
               "index_bytes", "index"}
    assert set(saved["winner"]) == summary
    assert len(Index(saved["winner"]["index"]).files) == saved["documents"]  # judged there, kept
    assert all(set(d) == summary | {"comparison"} for d in saved["defaults"])
    assert set(saved["cost"]) == {"seconds", "embedded_tokens", "index_tokens", "index_equivalents",
                                  "search_tokens", "versus_tokens", "search_index_equivalents",
                                  "stopped_early", "runs"}
    assert saved["cost"]["stopped_early"] is None and saved["cost"]["runs"] == 1


def test_the_plan_is_the_rounds_the_search_runs(setup):
    """--plan, before any work: the same questions, documents and candidates per round as the
    run, the chunkings built within its range, and the cost of a round in corpus builds."""
    tmp, docs, questions, _ = setup
    data = run(setup).to_json()
    planned = plan([docs], questions, TuneOptions(space=parse_space(SPACE), versus=["recursive"]))
    assert len(planned["rounds"]) + 1 == len(data["rounds"])
    for want, got in zip(planned["rounds"], data["rounds"]):
        assert (want["questions"], want["documents"], want["candidates"]) == \
               (got["questions"], got["documents"], got["candidates"])
        built = len({row["spec"] for row in data["log"] if row["round"] == got["round"]})
        low, high = want["chunkings"]
        assert low <= built <= high
        assert want["low"] == round(low * got["documents"] / 6, 3)  # round 1: nothing built before
    final, last = planned["final"], data["rounds"][-1]
    assert (final["questions"], final["documents"]) == (last["questions"], last["documents"]) == (13, 6)
    searched = {row["spec"] for row in data["log"] if row["round"] == last["round"]} - {"recursive"}
    assert final["chunkings"][0] <= len(searched) <= final["chunkings"][1]
    assert final["versus"] == [1.0, 1.0]  # the default recursive is outside the space: a whole build
    assert planned["total"][0] == round(planned["search"][0] + 1, 2)
    whole = plan([docs], questions, TuneOptions(space=parse_space(SPACE), versus=["recursive"], exhaustive=True))
    assert whole["rounds"] == [] and whole["search"] == [2.0, 2.0] and whole["total"] == [3.0, 3.0]


def test_the_plan_cuts_chunkings_by_eta_to_a_final_of_one(setup):
    """The default space (35 chunkings, 3 modes) and 400 questions: four halving rounds, each
    keeping at most a third of the chunkings (every mode of each), so the rounds build 35, 12, 4
    and 2 chunkings at most and the final round grows one (before the cut by chunking, the kept
    candidates could be of as many chunkings as candidates: up to 35, 12, 4 and 7)."""
    from seamcut.evaluate.space import default_space
    tmp, docs, _, _ = setup
    many = [Question(f"q{i}", f"question {i}?", (f"answer {i}",), source=f"doc{i % 6}.md") for i in range(400)]
    planned = plan([docs], many, TuneOptions(space=default_space(), versus=[]))
    assert [r["chunkings"] for r in planned["rounds"]] == [[35, 35], [1, 12], [1, 4], [1, 2]]
    assert [r["candidates"] for r in planned["rounds"]] == [105, 36, 12, 6]
    assert planned["final"]["chunkings"] == [1, 1] and planned["final"]["versus"] == [0, 0]


def test_no_defaults_to_test_against_none_built(setup):
    result = run(setup, versus=[])
    assert result.defaults == [] and result.cost["versus_tokens"] == 0
    final = result.to_json()["rounds"][-1]
    assert "recursive @hybrid" not in {p["label"] for p in result.points}
    assert final["candidates"] == len(result.points) <= 4
    with pytest.raises(ValueError, match="unknown strategy 'nosuch'"):
        run(setup, versus=["nosuch"])


def test_a_file_that_cannot_be_read_is_named_in_the_json_and_the_rest_is_tuned(setup, tmp_path):
    """A corrupt file among the documents does not stop the search: it is in ``failures`` with
    its reason (the JSON's too), and the others are tuned as without it."""
    import shutil
    _, docs, questions, embedder = setup
    mixed = tmp_path / "docs"
    shutil.copytree(docs, mixed)
    (mixed / "broken.pdf").write_bytes(b"%PDF-1.7\n1 0 obj <</Type /Catalog")
    result = tune([mixed], questions, indexing(embedder, tmp_path / "work"),
                  TuneOptions(space=parse_space(SPACE), versus=[]))
    data = result.to_json()
    assert len(data["failures"]) == 1 and data["failures"][0].startswith(str(mixed / "broken.pdf"))
    assert data["documents"] == 6 and data["winner"]["spec"] == "recursive:size=256:overlap=0"


def test_a_time_limit_too_small_stops_and_says_what_was_not_done(setup):
    result = run(setup, minutes=1e-6)  # time for the first chunking only
    stopped = result.cost["stopped_early"]
    assert "ran out in round 1 (2 of 4 candidates judged)" in stopped and "not done" in stopped
    assert len(result.points) == 2 and all(p["held_out_hit_rate"] is None for p in result.points)
    assert result.winner["label"] in {p["label"] for p in result.points}
    with pytest.raises(ValueError, match="eta"):
        run(setup, eta=1)
    with pytest.raises(ValueError, match="budget: 0 is not a positive number of tokens"):
        run(setup, budget=0)
    with pytest.raises(ValueError, match="minutes: 0 is not a positive number of minutes"):
        run(setup, minutes=0)


def test_the_cost_counts_the_sentences_semantic_embeds_while_it_cuts(tmp_path):
    """semantic embeds every sentence in the cutting workers: those tokens are tune's cost too
    (they were left out before: only the chunks' and queries' vectors were counted)."""
    import seamcut

    docs, questions = make_corpus(tmp_path)
    for f in sorted(docs.iterdir())[2:]:  # two documents are enough (CI time)
        f.unlink()
    questions = [q for q in questions if q.source in {"doc0.md", "doc1.md"}]
    probe = load_embedder(None, cache=tmp_path / "probe")
    sentences = 0
    for f in sorted(docs.iterdir()):
        before = probe.computed_tokens
        chunks = seamcut.chunk(seamcut.read(f), strategy="semantic", embedder=probe)
        assert chunks[0].metadata["semantic"]["tokens"] == probe.computed_tokens - before > 0
        sentences += probe.computed_tokens - before
    embedder = load_embedder(None, cache=tmp_path / "embeddings")
    result = tune([docs], questions, indexing(embedder, tmp_path / "work"),
                  TuneOptions(space=parse_space({"modes": ["text"], "strategies": {"semantic": {}}}),
                              versus=["semantic"], exhaustive=True))
    assert result.cost["embedded_tokens"] == embedder.computed_tokens + sentences


class _Hits:
    """A candidate's result as the cut and the judge read it: its label, hits within the budget
    question by question, and the tokens it sends per question."""

    def __init__(self, name: str, hits: list[bool], tokens: float = 100.0) -> None:
        self.name, self.outcomes, self.tokens_per_question = name, hits, tokens
        self.mrr = sum(hits) / len(hits)

    def hits_within(self, budget: int) -> list[bool]:
        return self.outcomes

    def at_budget(self, budget: int) -> SimpleNamespace:
        return SimpleNamespace(hits=sum(self.outcomes), mrr=self.mrr)


def _judged(hits: dict[tuple[str, str], list[bool]]) -> list:
    from seamcut.evaluate.space import Candidate
    from seamcut.evaluate.tune_judged import _Judged
    from seamcut.strategies.spec import parse_spec

    return [_Judged(Candidate(parse_spec(spec), mode), _Hits(f"{spec} @{mode}", h), None, 0, 0.0)
            for (spec, mode), h in hits.items()]


def test_the_cut_keeps_whole_chunkings_every_mode_of_the_best_third(monkeypatch, tmp_path):
    """A round's cost is its chunkings' builds, so the cut keeps the best 1/eta chunkings (by their
    best mode) with every mode: of four, the best two, size 128 and 256, with their text modes
    (free beside the builds) though 512 @vector beats 256 @text (a cut by candidate kept three
    candidates of three chunkings); 512 goes by its place, fixed by a paired test."""
    from seamcut.evaluate import tune_rounds

    monkeypatch.setattr(tune_rounds, "quality", lambda res, k, budget: (sum(res.outcomes),))
    hits = {("recursive:size=128", "vector"): [True] * 12,
            ("recursive:size=256", "vector"): [True] * 11 + [False],
            ("recursive:size=128", "text"): [True] * 10 + [False] * 2,
            ("recursive:size=512", "vector"): [True] * 10 + [False] * 2,
            ("recursive:size=512", "text"): [False] * 12,
            ("recursive:size=256", "text"): [True] * 2 + [False] * 10,
            ("fixed", "vector"): [True] * 2 + [False] * 10,
            ("fixed", "text"): [True] * 3 + [False] * 9}
    search = tune_rounds._Search(indexing(None, tmp_path), 4, None, Journal(tmp_path, "cut"))
    search.rounds = [{"round": 1}]
    judged = _judged(hits)
    kept = search.cut(judged, 100, eta=3)
    assert [c.label for c in kept] == ["recursive:size=128 @vector", "recursive:size=256 @vector",
                                       "recursive:size=128 @text", "recursive:size=256 @text"]
    assert search.rounds[0]["kept"] == 4
    dropped = {j.label: j.row["dropped"] for j in judged if j.row}
    assert set(dropped) == {j.label for j in judged} - {c.label for c in kept}
    assert all(d["by"] == "recursive:size=128 @vector" for d in dropped.values())
    # 512: its vector mode not worse than the leader by more than noise, out by its chunking's place
    assert "place 3 of 4" in dropped["recursive:size=512 @vector"]["reason"]
    assert "place 3 of 4" not in dropped["recursive:size=512 @text"]["reason"]  # it says it is worse
    assert "more than noise" in dropped["recursive:size=512 @text"]["reason"]
    # fixed: its best mode (text, 3 of 12) is beaten by more than noise: the whole chunking goes
    for mode in ("vector", "text"):
        assert dropped[f"fixed @{mode}"]["p_value"] < 0.05 and "more than noise" in dropped[f"fixed @{mode}"]["reason"]


def test_a_chunking_tied_with_the_leader_that_the_judge_would_take_is_not_cut(monkeypatch, tmp_path):
    """A lead within noise is a tie (issue 38 point 4): structure @hybrid, one question behind
    the leader and third by place, where the cut keeps two chunkings, stays in, since the judge
    would take it of the tied ones (the default search mode and strategy, no options); the log
    says so; and the final round gets it though only one finalist is asked for."""
    from seamcut.evaluate import tune, tune_rounds

    monkeypatch.setattr(tune_rounds, "quality", lambda res, k, budget: (sum(res.outcomes),))
    judged = _judged({("recursive:size=128", "vector"): [True] * 12,
                      ("recursive:size=256", "vector"): [True] * 11 + [False],
                      ("structure", "hybrid"): [False] + [True] * 11,
                      ("fixed", "text"): [True] * 2 + [False] * 10})
    search = tune_rounds._Search(indexing(None, tmp_path), 4, None, Journal(tmp_path, "cut"))
    search.rounds = [{"round": 1}]
    kept = search.cut(judged, 100, eta=3)  # two of four chunkings by place, and the tie's pick
    assert [c.label for c in kept] == ["recursive:size=128 @vector", "recursive:size=256 @vector",
                                       "structure @hybrid"]
    assert search.rounds[0]["kept_on_tie"] == {"chunking": "structure", "leader": "recursive:size=128 @vector",
                                               "why": "the default search mode (hybrid)"}
    assert judged[3].row["dropped"]["reason"].startswith("fewer hits within 100 tokens than the leader by more")
    chosen, searched = tune._finalists([j.candidate for j in judged], judged, kept, 100, 4, 1, [])
    assert [c.label for c in chosen] == ["recursive:size=128 @vector", "structure @hybrid"] and len(searched) == 2


def test_chunkings_judged_on_different_files_are_said_to_be(tmp_path):
    """A file read for one chunking and failed for another (a memory cap under load, say) leaves
    their scores over different documents: the round says so, naming the files, not silently."""
    from seamcut.evaluate import tune_rounds

    search = tune_rounds._Search(indexing(None, tmp_path), 4, None, Journal(tmp_path, "cut"))
    docs = [str(tmp_path / f"d{i}.pdf") for i in range(3)]
    from seamcut.evaluate.space import Candidate
    from seamcut.evaluate.tune_judged import _Judged
    from seamcut.strategies.spec import parse_spec

    judged = [_Judged(Candidate(parse_spec(spec), mode), _Hits(f"{spec} @{mode}", [True]), None, 0, 0.0, files=n)
              for spec, n in (("fixed", 2), ("structure", 3)) for mode in ("vector", "text")]
    search.missing = {"fixed": [docs[1]], "structure": []}
    search._same_files(2, docs, judged)
    assert search.warnings == ["round 2: the chunkings were judged on different files, of 3: fixed: 2 "
                               "(d1.pdf missing); the others on 3"]
    search._same_files(3, docs, judged[2:])  # one chunking: nothing to say
    assert len(search.warnings) == 1


class _Told:
    """An engine that builds with the local one and tells what it was asked: ``check``, the one
    ``series`` of a search, and each build by the spec's label."""
    name = "local"

    def __init__(self) -> None:
        self.calls: list[str] = []

    def check(self) -> None:
        self.calls.append("check")

    @contextmanager
    def series(self, limits, files):
        from seamcut.pipeline.local import LocalEngine
        self.calls.append("series")
        with LocalEngine().series(limits, files) as local:
            self.local = local
            yield self

    def build(self, index, paths, spec, how):
        self.calls.append(spec.label)
        return self.local.build(index, paths, spec, how)


def test_tune_takes_an_engine_as_compare_does(setup, tmp_path):
    """``seamcut.tune(..., engine=)`` builds every index with that engine, its workers started
    once for the search (issue 52 point 3: it was the local engine, hard-coded)."""
    import seamcut

    _, docs, questions, embedder = setup
    told = _Told()
    result = seamcut.tune([docs], questions, engine=told, embedder=embedder, workdir=tmp_path / "work",
                          space=parse_space(SPACE), versus=[], exhaustive=True, progress=False,
                          limits=Limits(workers=1))
    labels = [s.label for s in parse_space(SPACE).chunkings]
    assert told.calls[:2] == ["check", "series"]  # checked before any work, started once
    assert [c for c in told.calls[2:] if c != "check"] == labels  # each build checks it again
    assert result.winner["spec"] in labels


def test_another_librarys_pipeline_is_judged_in_the_final_round_as_versus(setup):
    """``--versus`` takes a contestant as compare does (issue 53): built on every document in the
    final round, judged beside the defaults, its label kept whole."""
    label = "langchain:recursive:chunk_size=400:chunk_overlap=0"
    data = run(setup, versus=["recursive", label]).to_json()
    assert f"{label} @hybrid" in [p["label"] for p in data["points"]]
    final = max(r["round"] for r in data["log"])
    assert any(r["label"] == f"{label} @hybrid" and r["round"] == final for r in data["log"])


def test_tune_searches_with_the_test_sets_where(setup, tmp_path):
    """A test set whose questions carry a ``where`` (here each its file) is tuned with it: the
    JSON says how, the journal keeps the search apart from one without it, and a ``where`` on a
    field the index lacks stops the search naming the question."""
    import dataclasses

    from seamcut.evaluate.questions import QuestionsError
    from seamcut.index import Filter
    tmp, docs, questions, embedder = setup
    filtered = [dataclasses.replace(q, filters=(Filter("file", "eq", q.source),)) for q in questions]
    options = TuneOptions(space=parse_space(SPACE), versus=[], exhaustive=True)
    data = tune([docs], filtered, indexing(embedder, tmp_path / "work"), options).to_json()
    assert data["filters"] == "where"
    assert data["winner"]["tune_hit_rate"] == 1.0
    none = tune([docs], filtered, indexing(embedder, tmp_path / "work"),
                dataclasses.replace(options, filters="none")).to_json()
    assert none["filters"] == "none"
    wrong = [dataclasses.replace(q, filters=(Filter("crop", "eq", "x"),)) for q in questions]
    with pytest.raises(QuestionsError, match=r"question d\ds\d: where: unknown field 'crop'"):
        tune([docs], wrong, indexing(embedder, tmp_path / "work2"), options)
