"""Every bad file ends in text or an ``InputError`` naming it, read directly and in a batch, within
the per-file time limit and memory cap; a batch goes on and lists every failure at the end.

The files come from ``badfiles.py`` (qpdf's 92 damaged PDFs and about 80 of seamcut's own
kinds); ``SEAMCUT_BADFILES_SCALE`` (default 1) sizes the bombs.
"""
from __future__ import annotations

import json
import re
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from seamcut.pipeline.corpus import Limits, read_corpus

from tests.helpers.badfiles import BADPDF, KINDS, make_all, many_pages

ROOT = Path(__file__).resolve().parents[2]
SCALE = int(os.environ.get("SEAMCUT_BADFILES_SCALE", "1"))
#: the limits every bad file must stay within (seamcut's default cap; a timeout far below its
#: default 30 minutes, and far above the slowest file here, about 15 s)
TIMEOUT_S = 120.0
MEMORY_MB = 1536
ENV = {**os.environ, "OMP_NUM_THREADS": "1", "PYTHONPATH": os.pathsep.join(
    [str(ROOT / "src"), str(ROOT), os.environ.get("PYTHONPATH", "")])}


@pytest.fixture(scope="module")
def bad(tmp_path_factory) -> dict[str, list[Path]]:
    if not any(BADPDF.glob("*.pdf")):
        pytest.skip(f"{BADPDF} is missing")
    return make_all(tmp_path_factory.mktemp("badfiles"), SCALE)


def read_each(paths: list[Path], memory_mb: int = MEMORY_MB, timeout: float = 600) -> tuple[list[dict], str]:
    """Each path read by ``seamcut.read`` in one child process under the memory cap: its
    outcomes, and the child's standard error."""
    r = subprocess.run([sys.executable, "-m", "tests.helpers.read_each", "--memory-cap", str(memory_mb),
                        *map(str, paths)], capture_output=True, text=True, timeout=timeout, env=ENV, cwd=ROOT)
    assert r.returncode == 0, f"reader process exited {r.returncode} (86: over {memory_mb} MiB): {r.stderr[-3000:]}"
    return [json.loads(line) for line in r.stdout.splitlines()], r.stderr


def assert_text_or_named_error(outcome: dict) -> None:
    path = outcome["path"]
    assert outcome["outcome"] != "crash", f"{path}: {outcome['message']}\n{outcome.get('traceback')}"
    if outcome["outcome"] == "error":
        assert outcome["message"].startswith(f"{path}: "), outcome["message"]
        assert len(outcome["message"]) > len(path) + 8, f"no reason given: {outcome['message']}"
    else:
        assert outcome["chars"] > 0


def test_each_bad_file_read_directly_is_text_or_an_error_naming_it(bad):
    """Every kind read by ``seamcut.read`` in a child process of its own (two at once), under the
    memory cap: each file text or an error naming it, no traceback on standard error."""
    with ThreadPoolExecutor(2) as pool:
        got = dict(zip(KINDS, pool.map(lambda kind: read_each(bad[kind]), KINDS)))
    for kind, (outcomes, stderr) in got.items():
        assert [o["path"] for o in outcomes] == [str(p) for p in bad[kind]], kind
        for outcome in outcomes:
            assert_text_or_named_error(outcome)
        assert "Traceback" not in stderr, f"{kind}: {stderr[-3000:]}"


def test_what_the_known_crashes_now_say(bad):
    """The issue's two crashes and their kin, by the reason given."""
    by_name = {Path(o["path"]).name: o for o in read_each(
        [p for ps in bad.values() for p in ps if p.name in (
            "deep-div.html", "bomb-document-xml.docx", "docx-not-well-formed.docx", "bomb-14k.png",
            "bomb-content-ops.pdf", "docx-wrong-namespace.docx")])[0]}
    assert "nested more than 512 deep" in by_name["deep-div.html"]["message"]
    assert "word/document.xml inflates to" in by_name["bomb-document-xml.docx"]["message"]
    assert "malformed XML" in by_name["docx-not-well-formed.docx"]["message"]
    assert "too large to read" in by_name["bomb-14k.png"]["message"]
    assert re.search(r"page 1 draws [\d,]+ objects", by_name["bomb-content-ops.pdf"]["message"])
    assert "not WordprocessingML" in by_name["docx-wrong-namespace.docx"]["message"]


def test_a_batch_of_every_bad_file_reads_each_or_lists_it_within_the_limits(bad):
    """All kinds in one batch through the worker pool: every file is a document or a failure
    naming it with its reason; none is a reader's bug ("unexpected"), none is stopped by the
    time limit or the memory cap, none kills its worker."""
    files = [p for ps in bad.values() for p in ps]
    corpus = read_corpus([p.parent for p in files[:1]], limits=Limits(workers=2, timeout=TIMEOUT_S,
                                                                      memory_mb=MEMORY_MB),
                         cache=False, progress=False)
    read = {d.source for d in corpus.documents} | {f.path for f in corpus.failures}
    assert read == {str(p) for p in files}
    for failure in corpus.failures:
        message = str(failure)
        assert message.startswith(f"{failure.path}: ")
        for bug in ("unexpected", "took longer than", "needed more than", "worker reading it died"):
            assert bug not in message, message
    assert all(d.text.strip() for d in corpus.documents)
    assert len(corpus.failures) > len(files) // 3  # most kinds are meant to fail


def test_limits_stop_a_file_and_the_batch_goes_on(bad, tmp_path):
    """A memory cap below what the PDF bomb takes (pdfium holds its million text objects), a
    timeout far below the time 20,000 pages of text take to read (about 28 s; one page's OCR
    is no longer slow enough to be sure of): the file is stopped and listed with the limit that
    stopped it; the good files around it are read."""
    goods = []
    for k in range(3):
        goods.append(tmp_path / f"good-{k}.txt")
        goods[-1].write_text(f"A good file number {k}, read whatever its neighbours do.\n", encoding="utf-8")
    slow = tmp_path / "pages-20000-text.pdf"
    slow.write_bytes(many_pages(20_000, text=True))
    for name, limits, why in (("bomb-content-ops.pdf", Limits(workers=2, timeout=300, memory_mb=300),
                               "needed more than 300 MiB"),
                              (slow.name, Limits(workers=2, timeout=2, memory_mb=None),
                               "took longer than 2 s")):
        files = [p for ps in [*bad.values(), [slow]] for p in ps if p.name == name][:1]
        corpus = read_corpus([goods[0], *files, *goods[1:]], limits=limits, cache=False, progress=False)
        assert sorted(Path(d.source).name for d in corpus.documents) == ["good-0.txt", "good-1.txt", "good-2.txt"]
        assert [f.path for f in corpus.failures] == [str(files[0])]
        assert str(corpus.failures[0]).startswith(f"{files[0]}: {why}"), str(corpus.failures[0])


def test_index_command_lists_every_failure_at_the_end_without_a_traceback(bad, tmp_path):
    """``seamcut index`` over good files and one bad file of several kinds, with --timeout and
    --memory-cap: the good ones are indexed, every bad one is listed by name, no traceback."""
    docs = tmp_path / "docs"
    docs.mkdir()
    picks = ["deep-div.html", "bomb-document-xml.docx", "truncated-half.pdf", "latin1.txt",
             "docx-not-well-formed.docx", "empty.md", "qpdf-issue-99.pdf"]
    for p in (p for ps in bad.values() for p in ps if p.name in picks):
        (docs / p.name).write_bytes(p.read_bytes())
    (docs / "good.md").write_text("# Good\n\nA good page about sowing cotton seed in June.\n", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "seamcut.cli", "index", str(docs), "--db", str(tmp_path / "db"),
                        "--timeout", "120", "--memory-cap", "1536"], capture_output=True, text=True,
                       timeout=600, env={**ENV, "COLUMNS": "250"}, cwd=ROOT)
    assert r.returncode == 1, r.stderr[-3000:]
    assert "Traceback" not in r.stderr, r.stderr[-3000:]
    tail = r.stderr[r.stderr.index("1 file(s) added"):] if "1 file(s) added" in r.stderr else r.stderr
    for name in picks:
        assert name in tail, f"{name} not listed: {r.stderr[-3000:]}"


def test_read_command_reads_in_a_worker_under_the_limits(bad, tmp_path):
    """``seamcut read`` on one file reads it as a batch does, in a worker process under the
    default limits: bad files end in ``error: FILE: reason`` and exit 1, never a traceback; a
    good file's elements are printed."""
    picks = ("bomb-content-ops.pdf", "deep-div.html", "bomb-document-xml.docx")
    for p in (p for ps in bad.values() for p in ps if p.name in picks):
        r = subprocess.run([sys.executable, "-m", "seamcut.cli", "read", str(p)], capture_output=True,
                           text=True, timeout=600, env={**ENV, "COLUMNS": "250"}, cwd=ROOT)
        assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr[-3000:]
        assert f"error: {p}: " in r.stderr, r.stderr[-3000:]
    good = tmp_path / "good.md"
    good.write_text("# Good\n\nA good page about sowing cotton seed in June.\n", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "seamcut.cli", "read", str(good)], capture_output=True,
                       text=True, timeout=600, env=ENV, cwd=ROOT)
    assert r.returncode == 0 and "sowing cotton seed" in r.stdout, r.stderr
