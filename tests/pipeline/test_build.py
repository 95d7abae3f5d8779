"""The large build (``seamcut.pipeline``): isolated workers, bad files reported, a kill -9 resumed to
the rows of an uninterrupted run, no fork, progress when no one watches a terminal."""
from __future__ import annotations

import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from seamcut.pipeline.jobs import model_sized
from seamcut.pipeline.report import saved_report
from seamcut.pipeline.corpus import ReadJob, ReadOptions, read_file
from seamcut.ground.processes import IsolatedPool, Killed
from seamcut.ground.progress import Steps, Throughput
from tests.helpers.badfiles import huge_text
from tests.helpers.build_runs import INDEX, flores_docs, index_rows, start_index
from tests.helpers.pool_jobs import TEMP_PREFIX, job

ROOT = Path(__file__).resolve().parents[2]


def test_each_job_runs_isolated_under_its_limits():
    """A job that hangs, grows past the memory cap, kills its worker or raises is reported as
    such; the others finish, in fresh workers, with one thread each."""
    # 10 s: the growing job passes 300 MiB in well under a second on an idle machine, but took
    # over 3 s on two cores at a load average of 11 (the timeout then killed it first)
    pool = IsolatedPool(job, 2, timeout=10, memory_mb=300)
    kinds = ["ok1", "sleep", "grow", "die", "raise", "ok2", "ok3"]
    got = dict(pool.run(kinds))
    assert set(got) == set(kinds)
    for ok in ("ok1", "ok2", "ok3"):
        assert got[ok].startswith(f"{ok} done in") and got[ok].endswith("(1, omp 1)")
    assert isinstance(got["sleep"], Killed) and "longer than 10 s" in got["sleep"].reason
    assert isinstance(got["grow"], Killed) and "more than 300 MiB" in got["grow"].reason
    assert isinstance(got["die"], Killed) and "exit code 3" in got["die"].reason
    assert isinstance(got["raise"], ValueError)


def test_a_model_a_worker_keeps_is_outside_the_per_file_memory_cap():
    """The cap is what one file's reading may hold: a worker that loaded a model for good (320
    MiB here, e5-torch's is about 1 GB) still reads the next file under a 300 MiB cap, and a
    file that grows past the cap is still stopped."""
    with IsolatedPool(job, 1, timeout=30, memory_mb=300) as pool:
        got = dict(pool.run(["model"]))
        time.sleep(1)  # idle, the model held
        got.update(pool.run(["ok", "grow"]))
    assert got["model"].startswith("model done") and got["ok"].startswith("ok done"), got
    assert _pids([got["model"], got["ok"]]) == {got["model"].split(" done in ")[1].split(" ")[0]}  # one worker
    assert isinstance(got["grow"], Killed) and "more than 300 MiB" in got["grow"].reason


def test_the_cap_is_what_one_file_adds_and_workers_are_replaced_before_memory_piles_up():
    """Memory a worker kept from earlier files is not the next file's: two files that each leave
    200 MiB behind, then a small one, all read under a 300 MiB cap in one worker (the absolute
    cap stopped the second: a scanned PDF of 340 MiB at its peak was stopped at 1,536 MiB in a
    worker that had read hundreds of files). A file that grows past the cap is still stopped;
    after ``tasks_per_worker`` files a fresh worker takes over, with nothing kept."""
    with IsolatedPool(job, 1, timeout=30, memory_mb=300, tasks_per_worker=3) as pool:
        got = [r for _, r in pool.run(["keep", "keep", "ok"])]
        assert all(isinstance(r, str) for r in got), got
        assert len(_pids([got[2], *pool_runs(pool, ["ok"])])) == 2  # the fourth file: a new worker
        grown = dict(pool.run(["grow"]))["grow"]
    assert isinstance(grown, Killed) and "more than 300 MiB" in grown.reason


def pool_runs(pool: IsolatedPool, kinds: list[str]) -> list[str]:
    return [r for _, r in pool.run(kinds)]


def test_a_pools_temporary_files_go_with_its_workers():
    """Workers write temporary files (Tesseract's images) in a folder of the pool's own, removed
    when the workers stop: one killed mid-task (timeout, memory cap) left them in /tmp."""
    import tempfile

    before = set(os.listdir(tempfile.gettempdir()))
    got = dict(IsolatedPool(job, 2, timeout=3).run(["temp", "temp-hang"]))
    assert isinstance(got["temp-hang"], Killed)
    folder = Path(got["temp"]).parent
    assert folder.name.startswith("seamcut-work-") and not folder.exists()
    assert not {f for f in set(os.listdir(tempfile.gettempdir())) - before if f.startswith(TEMP_PREFIX)}
    # a folder whose process was killed before it could remove it goes at the next start
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True,
                          text=True, check=True).stdout.strip()
    stale = Path(tempfile.gettempdir()) / f"seamcut-work-{dead}-left"
    stale.mkdir()
    (stale / "tess_left.png").write_bytes(b"image")
    assert all(isinstance(r, str) for _, r in IsolatedPool(job, 1).run(["ok"]))
    assert not stale.exists()


def _pids(results: list[str]) -> set[str]:
    return {r.split(" done in ")[1].split(" ")[0] for r in results}


def test_a_pool_open_as_a_context_keeps_its_workers_between_runs():
    """Inside ``with``, every run uses the same workers (started once); a run abandoned half-way
    stops them, and the next run inside the block starts fresh ones; outside, each run has its own."""
    pool = IsolatedPool(job, 2, timeout=30)
    with pool:
        first = [r for _, r in pool.run(["a", "b", "c", "d"])]
        second = [r for _, r in pool.run(["e", "f", "g", "h"])]
        assert all(isinstance(r, str) for r in first + second)
        kept = _pids(first) | _pids(second)
        assert 1 <= len(kept) <= 2  # the same two processes ran both
        for _ in pool.run(["i", "j", "k", "l", "m"]):
            break  # abandoned with jobs in flight
        third = [r for _, r in pool.run(["n", "o", "p"])]
        assert _pids(third).isdisjoint(kept)
    fourth = [r for _, r in pool.run(["q", "r", "s"])]
    fifth = [r for _, r in pool.run(["t", "u", "v"])]
    assert _pids(fourth).isdisjoint(_pids(fifth))


def test_a_file_that_changes_while_read_is_read_as_one_version(tmp_path):
    """Its hash and its text come from the same bytes, or it is reported as changing."""
    path = tmp_path / "live.txt"
    versions = [("Version %d. " % i) * (2000 + 500 * i) for i in range(4)]
    path.write_text(versions[0])
    stop = threading.Event()

    def rewrite() -> None:
        i = 0
        while not stop.is_set():  # saved as editors do: a whole new file put in its place
            i += 1
            tmp = tmp_path / f"v{i}.tmp"
            tmp.write_text(versions[i % 4])
            tmp.replace(path)

    writer = threading.Thread(target=rewrite)
    writer.start()
    try:
        outcomes = [read_file(ReadJob(str(path), ReadOptions(), {}, None)) for _ in range(20)]
    finally:
        stop.set()
        writer.join()
    for got in outcomes:
        if got.document is None:
            assert "changed while it was being read" in got.failure.reason and str(path) in got.failure.reason
        else:
            text = got.document.text
            assert text.strip() in {v.strip() for v in versions}
            assert got.digest == hashlib.sha256(next(v for v in versions if v.strip() == text.strip())
                                                .encode()).hexdigest()


def test_progress_without_a_terminal_writes_a_line_every_few_seconds(capsys):
    with Throughput(3, 300, show=True, every=0.1, terminal=False) as bar:
        time.sleep(0.35)  # nothing finished yet: lines all the same
        bar.advance(100, pages=2, tokens=500)
        time.sleep(0.15)
    lines = [x for x in capsys.readouterr().err.splitlines() if x.startswith("indexing:")]
    assert len(lines) >= 3
    assert "0/3 files" in lines[0] and "ETA ?" in lines[0]
    # one file done is too few to say the time left (runtime.progress.MIN_DONE)
    assert "1/3 files, 2 pages" in lines[-1] and "500 tokens" in lines[-1] and "ETA ?" in lines[-1]


def test_the_time_left_leaves_out_files_the_index_already_holds():
    # a resumed run: 90 of 100 files (900 of 1,000 bytes) were indexed before, skipped in no time;
    # then files of 10 bytes end at 2, 4 and 6 s: after the first, 20 bytes in 4 s, and 70 bytes
    # are left: 14 s (not 0.5 s, as if the 900 skipped bytes had been done)
    bar = Throughput(100, 1000, show=False)
    now = [0.0]
    bar.started, bar._clock = 0.0, lambda: now[0]
    for _ in range(90):
        bar.advance(10, unchanged=True)
    for now[0] in (2.0, 4.0, 6.0):
        bar.advance(10, pages=1)
    assert bar.eta() == pytest.approx(14.0)
    assert "ETA 0:14" in bar.rates()


def test_steps_without_a_terminal_write_a_line_every_few_seconds(capsys):
    with Steps(4, "round 1", every=0.1, terminal=False) as bar:
        time.sleep(0.25)
        bar.advance(label="recursive")
        time.sleep(0.15)
    lines = [x for x in capsys.readouterr().err.splitlines() if x.startswith("round 1")]
    assert len(lines) >= 3
    assert lines[0].startswith("round 1: 0/4, 0:00 elapsed") and "ETA" not in lines[0]
    assert lines[-1].startswith("round 1 recursive: 1/4") and "ETA" not in lines[-1]  # too few yet


def test_a_single_long_step_is_not_silent(capsys):
    # a tune's last round often has one chunking left, searched in three modes: one step of half
    # an hour, which once wrote nothing at all
    with Steps(1, "round 5", every=0.1, terminal=False):
        time.sleep(0.25)
    with Steps(0, "nothing", every=0.1, terminal=False):
        time.sleep(0.15)
    err = capsys.readouterr().err
    assert [x for x in err.splitlines() if x.startswith("round 5: 0/1")][:2] == [
        "round 5: 0/1, 0:00 elapsed"] * 2
    assert "nothing" not in err


# -- the command, as a user runs it -------------------------------------------------------------

@pytest.mark.slow
def test_a_killed_build_resumes_to_the_rows_of_an_uninterrupted_one(tmp_path):
    docs = flores_docs(tmp_path / "docs")
    uninterrupted = start_index(str(docs), "--db", str(tmp_path / "whole"), *INDEX)  # run meanwhile
    db = tmp_path / "killed"
    rng = random.Random(12)
    for attempt in range(3):
        p = start_index(str(docs), "--db", str(db), *INDEX)
        deadline = time.monotonic() + 300
        while not (db / "lance" / "documents.lance").exists() and p.poll() is None:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        time.sleep(rng.uniform(0, 1.5))  # mid-batch, mid-write or between: anywhere
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
    out, err = uninterrupted.communicate(timeout=600)
    assert uninterrupted.returncode == 0, err
    assert "12 file(s) added" in err and "pages/s" in err and "indexing: " in err  # lines: no terminal
    assert "fork" not in err.lower()
    whole = index_rows(tmp_path / "whole")
    earlier, finished = saved_report(db)
    assert earlier is not None and not finished  # the stopped runs' work, saved batch by batch
    p = start_index(str(docs), "--db", str(db), *INDEX, "--stats", str(tmp_path / "stats.json"))
    out, err = p.communicate(timeout=600)
    assert p.returncode == 0, err
    # the report carries the stopped runs' work on: every file written once, by one run or another
    stats = json.loads((tmp_path / "stats.json").read_text(encoding="utf-8"))
    assert stats["runs"] == earlier.runs + 1 and stats["seconds"] > earlier.seconds
    assert set(earlier.added) <= set(stats["added"])
    assert sorted(stats["added"] + stats["unchanged"]) == sorted(str(f) for f in docs.iterdir())
    assert saved_report(db)[1]
    again = index_rows(db)
    for table, key in (("chunks", "id"), ("documents", "doc_id")):
        ids = [r[key] for r in again[table]]
        assert len(ids) == len(set(ids)), f"duplicate rows in {table}"
        assert sorted(ids) == sorted(r[key] for r in whole[table])
    by_id = {r["id"]: r for r in whole["chunks"]}
    for r in again["chunks"]:
        w = by_id[r["id"]]
        assert {k: v for k, v in r.items() if k != "vector"} == {k: v for k, v in w.items() if k != "vector"}
        assert r["vector"] == pytest.approx(w["vector"], abs=1e-6)
    assert not (db / "seamcut-writing.json").exists()
    # and a third run finds nothing to do
    p = start_index(str(docs), "--db", str(db), *INDEX)
    out, err = p.communicate(timeout=600)
    assert p.returncode == 0 and "0 file(s) added, 0 replaced, 12 unchanged" in err


@pytest.mark.slow
def test_bad_files_are_reported_and_the_run_goes_on(tmp_path):
    """Among good files: an empty one, a damaged PDF, a wrong type, bad encoding, a file that
    needs more memory than the cap. Each is named with its reason; the good ones are indexed."""
    docs = flores_docs(tmp_path / "docs", n=2)
    (docs / "empty.txt").write_bytes(b"")
    (docs / "broken.pdf").write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog >> garbage\n")
    (docs / "photo.pdf").write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 64)
    (docs / "latin1.txt").write_bytes("Caf\xe9 cr\xe8me, na\xefve.".encode("latin-1"))
    huge_text(docs / "huge.txt")  # 200 MB: its text alone is over the cap
    p = start_index(str(docs), "--db", str(tmp_path / "db"), *INDEX, "--memory-cap", "500")
    out, err = p.communicate(timeout=600)
    assert p.returncode == 1
    assert "2 file(s) added" in err and "5 failed" in err
    for name, reason in (("empty.txt", "empty file"), ("broken.pdf", "corrupt PDF"), ("photo.pdf", "not an image"),
                         ("latin1.txt", "not valid utf-8"), ("huge.txt", "more than 500 MiB")):
        line = next((x for x in err.splitlines() if name in x and "✗" in x), None)
        assert line is not None, f"{name} not reported:\n{err}"
        assert reason in line, line


def test_a_model_folder_sizes_chunks_with_its_own_tokenizer(tmp_path):
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "tokenizer.json").write_text("{}", encoding="utf-8")
    assert model_sized({"size": 64}, str(folder)) == {"size": 64, "tokenizer": str(folder / "tokenizer.json")}
    assert model_sized({"tokenizer": "tiktoken:cl100k_base"}, str(folder)) == {"tokenizer": "tiktoken:cl100k_base"}
    assert model_sized({"size": 64}, "default") == {"size": 64}
    assert model_sized({}, "openai:text-embedding-3-small") == {}  # no folder: nothing to give


@pytest.mark.slow
def test_the_same_file_named_another_way_is_the_indexed_one(tmp_path):
    """``docs`` from its parent, ``.`` from inside it and its absolute path name the same files:
    indexed once, unchanged on the other two runs (each spelling added them all again, three
    copies of every chunk); a changed file named another way replaces its earlier rows."""
    docs = flores_docs(tmp_path / "docs", 4)
    db = str(tmp_path / "db")
    for args, cwd in (([str(docs.relative_to(tmp_path))], tmp_path), (["."], docs), ([str(docs)], ROOT)):
        p = start_index(*args, "--db", db, *INDEX, cwd=cwd)
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
    assert "0 file(s) added, 0 replaced, 4 unchanged" in err
    p = start_index("docs", str(docs), "--db", str(tmp_path / "twice"), *INDEX, cwd=tmp_path)
    out, err = p.communicate(timeout=600)
    assert p.returncode == 0 and "4 file(s) added" in err, err  # named twice, read once
    assert len(index_rows(tmp_path / "twice")["documents"]) == 4
    first = index_rows(tmp_path / "db")
    assert len(first["documents"]) == 4
    assert {r["source"] for r in first["documents"]} == {f"docs/{f.name}" for f in docs.iterdir()}
    changed = docs / "eng-00.txt"
    changed.write_text(changed.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    p = start_index(str(docs), "--db", db, *INDEX, cwd=ROOT)
    out, err = p.communicate(timeout=600)
    assert p.returncode == 0, err
    assert "0 file(s) added, 1 replaced, 3 unchanged" in err
    now = index_rows(tmp_path / "db")
    assert sorted(r["source"] for r in now["documents"]) == sorted(
        [str(changed)] + [f"docs/{f.name}" for f in docs.iterdir() if f != changed])
    assert {r["source"] for r in now["chunks"]} == {r["source"] for r in now["documents"]}
