"""A real ``seamcut tune`` killed (SIGKILL) in the middle of its first build and run again: the
second run resumes it (indexes, cached vectors) and reports what an uninterrupted run reports,
its cost included: the tokens the killed run had embedded are carried on by the journal, not
lost (they would be: the second run finds those vectors in the cache and computes nothing)."""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from seamcut.pipeline.corpus import Limits
from seamcut.embed import load_embedder
from seamcut.evaluate.options import Indexing, TuneOptions
from seamcut.evaluate.space import parse_space
from seamcut.pipeline.options import BuildOptions
from seamcut.evaluate.tune import tune
from seamcut.evaluate.tune_journal import FILE, Journal, Spent
from tests.helpers.tune_corpus import SPACE, make_corpus, without_timings


def _tune(tmp, docs, name: str) -> subprocess.Popen:
    """``seamcut tune`` in a process group of its own, with an embedding cache of its own."""
    cmd = [sys.executable, "-m", "seamcut.cli", "tune", str(docs), "--questions", str(tmp / "questions.yaml"),
           "--space", str(tmp / "space.yaml"), "--versus", "recursive", "--workers", "1",
           "--out", str(tmp / name / "work"), "--json", str(tmp / name / "tune.json")]
    env = {**os.environ, "SEAMCUT_CACHE": str(tmp / name / "cache"), "OMP_NUM_THREADS": "1"}
    return subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            start_new_session=True)


def _in_process(tmp, docs, questions, name: str, embedder=None) -> dict:
    """The same search run here, on the same folder and cache as the process ``name``."""
    embedder = embedder or load_embedder(None, cache=tmp / name / "cache" / "embeddings")
    built = Indexing(embedder, tmp / name / "work", build=BuildOptions(limits=Limits(workers=1), progress=False))
    result = tune([docs], questions, built, TuneOptions(space=parse_space(SPACE), versus=["recursive"]))
    return json.loads(json.dumps(result.to_json()).replace(str(tmp / name / "work"), "WORK"))


@pytest.mark.slow
def test_a_tune_killed_mid_build_is_resumed_with_its_cost_carried_on(tmp_path):
    docs, questions = make_corpus(tmp_path)
    (tmp_path / "questions.yaml").write_text(yaml.safe_dump(
        [{"id": q.id, "question": q.question, "must_contain": list(q.must_contain), "source": q.source}
         for q in questions]), encoding="utf-8")
    (tmp_path / "space.yaml").write_text(yaml.safe_dump(SPACE, sort_keys=False), encoding="utf-8")
    expected = _in_process(tmp_path, docs, questions, "whole")

    killed = _tune(tmp_path, docs, "killed")
    journal = tmp_path / "killed" / "work" / FILE
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and killed.poll() is None:
        try:  # the first batch of vectors recorded: the first build is under way
            if any(p["tokens"] for p in json.loads(journal.read_text(encoding="utf-8"))["pieces"].values()):
                break
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.01)
    assert killed.poll() is None, "the run ended before it could be killed: " + killed.stderr.read().decode()[-2000:]
    os.killpg(killed.pid, signal.SIGKILL)
    killed.wait()
    stopped = json.loads(journal.read_text(encoding="utf-8"))
    assert not stopped["finished"] and 0 < sum(p["tokens"] for p in stopped["pieces"].values())
    assert sum(p["tokens"] for p in stopped["pieces"].values()) < expected["cost"]["embedded_tokens"]

    resumed = _in_process(tmp_path, docs, questions, "killed")
    assert without_timings(resumed) == without_timings(expected)
    assert resumed["cost"]["runs"] == 2 and expected["cost"]["runs"] == 1
    # what was embedded before the kill is counted once, as in the run that was not stopped
    for key in ("embedded_tokens", "search_tokens", "versus_tokens", "index_tokens"):
        assert resumed["cost"][key] == expected["cost"][key], key
    assert [r["embedded_tokens"] for r in resumed["rounds"]] == [r["embedded_tokens"] for r in expected["rounds"]]
    assert [r["chunking_tokens"] for r in resumed["log"]] == [r["chunking_tokens"] for r in expected["log"]]
    assert resumed["cost"]["seconds"] > stopped["seconds"] > 0
    assert json.loads(journal.read_text(encoding="utf-8"))["finished"]


@pytest.mark.slow
def test_a_tune_whose_folder_is_lost_but_for_its_journal_builds_only_what_it_had_not_finished(tmp_path):
    """The machine gone mid-search, its journal copied to a fresh folder with a fresh embedding
    cache (no index, no vector left): the pieces the journal says were finished are taken from
    it, not built again, and the search ends as an uninterrupted one does."""
    docs, questions = make_corpus(tmp_path)
    (tmp_path / "questions.yaml").write_text(yaml.safe_dump(
        [{"id": q.id, "question": q.question, "must_contain": list(q.must_contain), "source": q.source}
         for q in questions]), encoding="utf-8")
    (tmp_path / "space.yaml").write_text(yaml.safe_dump(SPACE, sort_keys=False), encoding="utf-8")
    whole_embedder = load_embedder(None, cache=tmp_path / "whole" / "cache" / "embeddings")
    expected = _in_process(tmp_path, docs, questions, "whole", whole_embedder)

    killed = _tune(tmp_path, docs, "lost")
    journal = tmp_path / "lost" / "work" / FILE
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and killed.poll() is None:
        try:  # a piece finished: its results are in the journal
            if json.loads(journal.read_text(encoding="utf-8")).get("results"):
                break
        except (OSError, ValueError):
            pass
        time.sleep(0.01)
    assert killed.poll() is None, "the run ended before it could be killed: " + killed.stderr.read().decode()[-2000:]
    os.killpg(killed.pid, signal.SIGKILL)
    killed.wait()
    kept = journal.read_bytes()
    finished = json.loads(kept)["results"]
    shutil.rmtree(tmp_path / "lost")  # the machine gone: only the journal was copied off it
    journal.parent.mkdir(parents=True)
    journal.write_bytes(kept)

    embedder = load_embedder(None, cache=tmp_path / "lost" / "cache" / "embeddings")
    resumed = _in_process(tmp_path, docs, questions, "lost", embedder)
    assert without_timings(resumed) == without_timings(expected)
    assert resumed["cost"]["runs"] == 2
    # the finished pieces were not built again: their indexes were not made, their tokens not embedded
    for piece in finished.values():
        assert not Path(piece["folder"]).exists()
    assert embedder.computed_tokens < whole_embedder.computed_tokens
    assert resumed["cost"]["embedded_tokens"] >= expected["cost"]["embedded_tokens"]

    # results left by other code or for other bytes are not taken: that piece is built again
    for doc in docs.iterdir():
        doc.write_text(doc.read_text(encoding="utf-8") + "\nMore notes.\n", encoding="utf-8")
    shutil.rmtree(tmp_path / "lost")
    journal.parent.mkdir(parents=True)
    journal.write_bytes(kept)
    changed = load_embedder(None, cache=tmp_path / "lost" / "cache" / "embeddings")
    _in_process(tmp_path, docs, questions, "lost", changed)
    assert all(Path(piece["folder"]).exists() for piece in finished.values())


def test_the_journal_carries_an_unfinished_search_only(tmp_path):
    """Resumed: the same search, not finished. A finished search, or another one, starts again
    (a second run of a finished search costs what it does); a broken file is no journal."""
    first = Journal(tmp_path, "search-a")
    first.start("round 1: fixed", 0)
    first.progress(120)
    first.start("round 1: sentence", 120)  # killed before its first batch was recorded
    again = Journal(tmp_path, "search-a")
    assert again.runs == 2 and again.earlier_tokens == 120
    assert again.carried("round 1: fixed").tokens == 120 and again.carried("round 1: sentence") == Spent()
    again.start("round 1: fixed", 0)
    assert again.done(30).tokens == 150  # the earlier run's 120 and this one's 30
    assert Journal(tmp_path, "search-a").runs == 3  # still not finished: the third run carries both
    Journal(tmp_path, "search-a").finish()
    assert Journal(tmp_path, "search-a").runs == 1
    assert Journal(tmp_path, "search-b").runs == 1 and Journal(tmp_path, "search-b").earlier_tokens == 0
    (tmp_path / FILE).write_text("{not json", encoding="utf-8")
    assert Journal(tmp_path, "search-b").runs == 1
