"""`compare` on files builds each strategy's index as `seamcut index` does (read and cut in worker
processes) and shares what does not depend on the strategy: a text embedded for one strategy is not
embedded again for another, and an index built as asked from the same files is reused by the
next run, so adding a strategy costs that strategy alone."""
from __future__ import annotations

import pytest

from seamcut.embed.worker import WorkerEmbedder
from seamcut.embed import load_embedder
from seamcut.evaluate import load_questions
from seamcut.readers import read
from tests.helpers.judging import compared
from tests.helpers.small_docs import write_docs

QUESTIONS = """\
- id: w
  question: Whitefly on cotton, how many ml per litre?
  must_contain: 2 ml per litre
  source: cotton.md
- id: o
  question: Last date of the orange insurance scheme?
  must_contain: [31 July 2026, 31/07/2026]
- id: n
  question: What is the price of wheat in Delhi?
  must_contain: []
"""


@pytest.fixture()
def setup(tmp_path):
    write_docs(tmp_path)
    (tmp_path / "questions.yaml").write_text(QUESTIONS, encoding="utf-8")
    embedder = load_embedder(None, cache=tmp_path / "embeddings")  # a cache of this test's own
    return tmp_path, load_questions(tmp_path / "questions.yaml"), embedder


SENTENCE = "sentence:context=none"


def by_name(result):
    return {s.name: s for s in result.strategies}


def test_files_are_built_once_and_reused(setup):
    tmp, questions, emb = setup
    docs, work = tmp / "docs", tmp / "work"

    # sentence without its default context: on documents this small the same texts as fixed's
    first = by_name(compared([docs], questions, ["fixed", SENTENCE], emb, work))
    fixed, sentence = first["fixed"].build, first[SENTENCE].build
    assert len(fixed.added) == 3 and fixed.chunks == first["fixed"].chunks > 0
    assert fixed.stages["cut"].items == 3 and fixed.stages["cut"].cpu > 0
    # documents this small are one chunk each for both: the same texts, embedded once
    assert [s.sizes for s in first.values()][0] == [s.sizes for s in first.values()][1]
    assert fixed.embedded == fixed.chunks and sentence.embedded == 0 and sentence.from_cache == 1.0
    assert all(s.hits == 2 for s in first.values())

    # a strategy added: the two built before are reused (no file read), the new one built
    again = by_name(compared([docs], questions, ["fixed", SENTENCE, "parent-child"], emb, work))
    for name in ("fixed", SENTENCE):
        b = again[name].build
        assert (len(b.added), len(b.replaced), len(b.unchanged), again[name].rebuilt) == (0, 0, 3, None)
        assert again[name].chunk_seconds == 0 and again[name].sizes == first[name].sizes
        # what the reused index cost to build is still known: the earlier run's report
        built = again[name].built
        assert (built.chunks, built.runs, built.seconds) == (first[name].build.chunks, 1,
                                                             pytest.approx(first[name].build.seconds, abs=1e-3))
        assert [o.rank for o in again[name].outcomes] == [o.rank for o in first[name].outcomes]
    assert len(again["parent-child"].build.added) == 3

    # one file changed: only it is read and cut again
    cotton = docs / "cotton.md"
    cotton.write_text(cotton.read_text(encoding="utf-8") + "\nSpray in the evening.\n", encoding="utf-8")
    changed = by_name(compared([docs], questions, ["fixed"], emb, work))["fixed"].build
    assert (changed.added, changed.replaced, len(changed.unchanged)) == ([], [str(cotton)], 2)

    # a file no longer named: that index is built again, and says why
    fewer = compared([cotton, docs / "orange.md"], questions, ["fixed"], emb, work)
    assert len(fewer.strategies[0].build.added) == 2 and fewer.documents == 2
    assert "no longer named" in fewer.strategies[0].rebuilt


def test_bad_files_are_listed_and_the_rest_compared(setup):
    tmp, questions, emb = setup
    (tmp / "docs" / "empty.txt").write_bytes(b"")
    result = compared([tmp / "docs"], questions, ["structure"], emb, tmp / "work")
    assert result.documents == 3 and len(result.failures) == 1
    assert "empty.txt" in result.failures[0] and "empty file" in result.failures[0]
    assert result.strategies[0].hits == 2 and len(result.strategies[0].build.failures) == 1
    (tmp / "only").mkdir()
    (tmp / "only" / "empty.txt").write_bytes(b"")
    with pytest.raises(ValueError, match="no documents read from .*empty file"):
        compared([tmp / "only"], [], ["fixed"], emb, tmp / "w2")


def test_semantic_cut_in_workers_equals_cut_in_memory(setup):
    tmp, questions, emb = setup
    files = sorted((tmp / "docs").iterdir())
    in_workers = compared(files, questions, ["semantic"], emb, tmp / "a").strategies[0]
    here = compared([read(f) for f in files], questions, ["semantic"], emb, tmp / "b").strategies[0]
    assert in_workers.build.stages["cut"].items == 3 and here.build.stages["cut"].items == 3
    assert sorted(in_workers.sizes) == sorted(here.sizes)
    for a, b in zip(in_workers.outcomes + in_workers.no_answer, here.outcomes + here.no_answer):
        assert [(r.rank, r.source, r.start, r.end, r.text) for r in a.results] == \
               [(r.rank, r.source, r.start, r.end, r.text) for r in b.results]
        # the same vectors; the stores' sums may differ in the last bits
        assert [r.similarity for r in a.results] == pytest.approx([r.similarity for r in b.results], abs=1e-5)


def test_worker_embedder_refuses_another_model():
    with pytest.raises(ValueError, match="not some-other-model"):
        WorkerEmbedder("default", "some-other-model").embed_passages(["x"])


def test_strategies_judged_on_different_files_are_said_to_be():
    """compare and tune share the warning: the indexes that lack files each other holds, named."""
    from seamcut.evaluate.indexes import different_files
    assert different_files({"fixed": [], "structure": []}, 3) is None
    assert different_files({"fixed": ["x/a.pdf"], "structure": ["x/a.pdf"]}, 3) is None  # the same two
    said = different_files({"fixed": ["x/a.pdf"], "sentence": [], "semantic": ["x/a.pdf", "y/b.pdf"]}, 5)
    assert said == ("judged on different files, of 5: fixed: 4 (a.pdf missing); semantic: 3 (a.pdf, b.pdf "
                    "missing); the others on 5")
    # two sets of one size that differ: the one that is not the others' is named, and theirs too
    said = different_files({"fixed": ["x/a.pdf"], "sentence": ["x/a.pdf"], "semantic": ["y/b.pdf"]}, 3)
    assert said == "judged on different files, of 3: semantic: 2 (b.pdf missing); the others on 2 (a.pdf missing)"


def test_a_compare_parses_each_spec_once_and_its_workers_get_the_spec_whole(setup, monkeypatch):
    """A strategy is one checked value from the call to the worker (issue 52 point 2): each spec
    parsed once, the run's size put under its own options there, and every cutting job carries
    the ``StrategySpec`` itself (it pickles; the worker parses nothing)."""
    import seamcut
    import seamcut.strategies.spec as spec_module
    from seamcut.pipeline.jobs import CutJob
    from seamcut.ground.processes import IsolatedPool

    tmp, questions, emb = setup
    parse, run = spec_module.parse_spec, IsolatedPool.run
    parsed: list[str] = []
    sent: list[CutJob] = []

    def counted(text):
        parsed.append(text)
        return parse(text)

    def recorded(self, jobs):
        jobs = list(jobs)
        sent.extend(j for j in jobs if isinstance(j, CutJob))
        return run(self, jobs)

    monkeypatch.setattr(spec_module, "parse_spec", counted)
    monkeypatch.setattr(IsolatedPool, "run", recorded)
    result = seamcut.compare([tmp / "docs"], questions, strategies=["fixed", "fixed:size=48:overlap=8"], size=64,
                             embedder=emb, workdir=tmp / "work", progress=False)
    assert parsed == ["fixed", "fixed:size=48:overlap=8"]
    assert {type(j.cutting) for j in sent} == {spec_module.StrategySpec} and len(sent) == 6
    assert {j.cutting.label: j.cutting.config.size for j in sent} == {"fixed": 64, "fixed:size=48:overlap=8": 48}
    assert [s.options for s in result.strategies] == [{"size": 64}, {"size": 48, "overlap": 8}]
