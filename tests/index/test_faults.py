"""The index survives faults: ``kill -9`` while changed files are replaced and while the text
index is built, two processes updating one index, a full disk. Real builds (the ``seamcut index``
command), real kills, a real full filesystem where this machine lets a test mount one.

Where a kill lands is chosen by watching the build: the child announces each LanceDB table call
it is about to make (delete, add, optimize, create_index) on its standard output, and the test
kills it a few milliseconds after the one it waits for, so inside that call or just after."""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from typing import Callable

import pytest

from seamcut.index import Index
from seamcut.index.lock import holder_of
from tests.helpers.build_runs import flores_docs, index_rows
from tests.helpers.data import DATA

ROOT = Path(__file__).resolve().parents[2]
RECURSIVE = ("-s", "recursive", "--size", "64", "--overlap", "0")
BLOCKS = ("-s", "parent-child:parents=blocks", "--size", "64", "--overlap", "0")
# the child: every LanceDB table call announced before it is made (and, with $PAUSE, made that
# many seconds later: a kill then lands before the call, whatever the machine's load; with $GO,
# made once the test has created that file, which the child then removes); versions
# of any age cleaned up (so a kill can land in the cleanup, which otherwise spares ten minutes)
ANNOUNCED = """
import os, sys, time, warnings
from datetime import timedelta
warnings.filterwarnings("ignore", "optimize.cleanup_older_than=0")
import lancedb.table as lt
import seamcut.index.store as store
store.OLD_VERSIONS = timedelta(0)
def announce(name):
    original = getattr(lt.LanceTable, name)
    def announced(self, *args, **kwargs):
        print(f"AT {name} {self.name}", flush=True)
        go = os.environ.get("GO")
        while go and not os.path.exists(go):
            time.sleep(0.005)
        if go:
            os.remove(go)
        time.sleep(float(os.environ.get("PAUSE", 0)))
        return original(self, *args, **kwargs)
    setattr(lt.LanceTable, name, announced)
for name in ("delete", "add", "optimize", "create_index"):
    announce(name)
from seamcut.cli import app
sys.argv[0] = "seamcut"
app()
"""
ENV = {**os.environ, "COLUMNS": "200", "OMP_NUM_THREADS": "1"}


def _seamcut(*args: str, kill_at: tuple[str, str, int] | None = None, delay: float = 0.0,
             pause: float = 0.0, log: Path | None = None, preexec=None,
             at: tuple[str, str, Callable[[], None]] | None = None) -> tuple[int, str, bool]:
    """Run ``seamcut ARGS``; ``kill_at`` (call, table, n): SIGKILL it ``delay`` s after its n-th
    announced call of that kind on that table (each call ``pause`` s after it is announced);
    ``at`` (call, table, f): run ``f`` here as each such call is announced, the child waiting
    until it has returned. Exit status, standard error, whether killed."""
    err_path = log or Path(os.environ.get("TMPDIR", "/tmp")) / f"seamcut-faults-{os.getpid()}.err"
    with open(err_path, "w+", encoding="utf-8") as err:
        go = err_path.with_suffix(".go")
        go.unlink(missing_ok=True)
        p = subprocess.Popen([sys.executable, "-c", ANNOUNCED, *args], stdout=subprocess.PIPE,
                             stderr=err, text=True, start_new_session=True, cwd=ROOT,
                             env={**ENV, "PAUSE": str(pause), **({"GO": str(go)} if at else {})},
                             preexec_fn=preexec)
        killed, seen = False, 0
        for line in p.stdout:  # type: ignore[union-attr]
            if at and line.startswith("AT "):
                if line.split() == ["AT", at[0], at[1]]:
                    at[2]()
                go.touch()
            if kill_at and line.split() == ["AT", kill_at[0], kill_at[1]]:
                seen += 1
                if seen == kill_at[2]:
                    time.sleep(delay)
                    os.killpg(p.pid, signal.SIGKILL)
                    killed = True
                    break
        p.communicate(timeout=600)
        err.seek(0)
        return p.returncode, err.read(), killed


def _queries() -> list[tuple[str, str]]:
    """Words from the documents, English and Hindi, in every mode (Hindi's words need the ICU
    tokenizer of the text index: a plain one splits them at their vowel signs)."""
    eng = (DATA / "flores200" / "eng_Latn.dev").read_text(encoding="utf-8").splitlines()
    hin = (DATA / "flores200" / "hin_Deva.dev").read_text(encoding="utf-8").splitlines()
    words = [" ".join(eng[9].split()[:6]), " ".join(hin[20].split()[:5])]
    return [(q, mode) for q in words for mode in ("vector", "text", "hybrid")]


def _answers(db: Path | Index) -> dict[str, list[str]]:
    """What the index at ``db`` (opened afresh), or an open one, answers to ``_queries``: the
    ids of the top 4, per query."""
    index = db if isinstance(db, Index) else Index(db)
    return {f"{mode}: {q}": [h.chunk.id for h in index.search(q, 4, mode=mode)] for q, mode in _queries()}


def _consistent(db: Path) -> dict[str, list[dict]]:
    """The rows of ``db``, checked: no duplicates, no chunk without its document, no journal."""
    rows = index_rows(db)
    ids = [r["id"] for r in rows["chunks"]]
    assert len(ids) == len(set(ids)), "duplicate chunks"
    docs = {r["doc_id"] for r in rows["documents"]}
    assert len(docs) == len(rows["documents"]), "duplicate documents"
    assert {r["doc_id"] for r in rows["chunks"]} <= docs, "chunks of a document not (or no longer) there"
    return rows


def _same_rows(got: dict[str, list[dict]], want: dict[str, list[dict]]) -> None:
    for table, key in (("chunks", "id"), ("documents", "doc_id")):
        assert sorted(r[key] for r in got[table]) == sorted(r[key] for r in want[table]), table
    by_id = {r["id"]: r for r in want["chunks"]}
    for r in got["chunks"]:
        w = by_id[r["id"]]
        assert {k: v for k, v in r.items() if k != "vector"} == {k: v for k, v in w.items() if k != "vector"}
        assert r["vector"] == pytest.approx(w["vector"], abs=1e-6)


def _change(docs: Path) -> None:
    """Replace the text of five files (other FLORES sentences) and add one."""
    eng = (DATA / "flores200" / "eng_Latn.dev").read_text(encoding="utf-8").splitlines()
    for i, name in enumerate(["eng-01.txt", "eng-03.txt", "eng-05.txt", "hin-02.txt", "hin-04.txt", "new.txt"]):
        part = eng[200 + i * 8:208 + i * 8]
        body = "\n\n".join(" ".join(part[j:j + 2]) for j in range(0, 8, 2))
        (docs / name).write_text(f"# Changed {i}\n\n{body}\n", encoding="utf-8")


def _copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns("seamcut-lock"))
    return dst


@pytest.mark.slow
def test_an_update_killed_while_replacing_files_and_folding_the_text_index_resumes(tmp_path):
    """Killed three times in one update of changed files: while old rows are deleted, while new
    rows are added, while the text index takes them in (optimize); and, in another copy, while
    old versions are cleaned up (the second optimize, after the publish: a run killed in the
    first may have left nothing for the next to do, so not in the same sequence). After each kill the index answers in every mode with whole documents only, and
    the next run ends with the rows and the answers of an uninterrupted update."""
    docs = flores_docs(tmp_path / "docs")
    base = tmp_path / "base"
    rc, err, _ = _seamcut("index", str(docs), "--db", str(base), *RECURSIVE, "--batch", "8")
    assert rc == 0, err
    _change(docs)
    whole = _copy(base, tmp_path / "whole")  # the uninterrupted update, run meanwhile
    uninterrupted = _start("index", str(docs), "--db", str(whole), *RECURSIVE, "--batch", "8",
                           log=tmp_path / "whole.err")

    db = _copy(base, tmp_path / "killed")
    rng = random.Random(13)
    for call, table, n in (("delete", "chunks", 1), ("add", "chunks", 2), ("optimize", "chunks", 1)):
        rc, err, killed = _seamcut("index", str(docs), "--db", str(db), *RECURSIVE, "--batch", "8",
                                   kill_at=(call, table, n), delay=rng.uniform(0, 0.03))
        assert killed, f"the run ended before its {n}th {call} on {table}:\n{err}"
        answers = _answers(db)  # opening it undoes a half-written batch
        assert all(len(ids) == 4 for ids in answers.values()), (call, answers)
        rows = _consistent(db)
        for key, ids in answers.items():
            assert set(ids) <= {r["id"] for r in rows["chunks"]}, key
    rc, err, _ = _seamcut("index", str(docs), "--db", str(db), *RECURSIVE, "--batch", "8")
    assert rc == 0, err
    err = _finished(uninterrupted, tmp_path / "whole.err")
    assert "1 file(s) added, 5 replaced, 7 unchanged" in err, err
    _same_rows(_consistent(db), index_rows(whole))
    assert _answers(db) == _answers(whole)
    assert Index(db).is_finished()

    cleaned = _copy(base, tmp_path / "killed-in-cleanup")
    rc, err, killed = _seamcut("index", str(docs), "--db", str(cleaned), *RECURSIVE, "--batch", "8",
                               kill_at=("optimize", "chunks", 2), delay=rng.uniform(0, 0.03))
    assert killed, f"the run ended before its cleanup:\n{err}"
    assert _answers(cleaned) == _answers(whole)
    rc, err, _ = _seamcut("index", str(docs), "--db", str(cleaned), *RECURSIVE, "--batch", "8")
    assert rc == 0, err
    _same_rows(_consistent(cleaned), index_rows(whole))


def test_a_search_beside_an_update_sees_the_last_published_state_never_a_half_written_batch(tmp_path):
    """While an update replaces files, a search reads the tables as the writer last published
    them. Each time the writer is about to add a batch's new rows (its old ones deleted; the
    child waits there for the test), a search finds every file (none missing for the moment),
    no chunk without its document, and at the first batch the answers of before the update;
    a reader kept open all along (as a server holds one) answers the same, and afterwards as
    the finished update does."""
    docs = flores_docs(tmp_path / "docs")
    db = tmp_path / "db"
    rc, err, _ = _seamcut("index", str(docs), "--db", str(db), *RECURSIVE, "--batch", "8")
    assert rc == 0, err
    reader = Index(db)

    def state(index: Index) -> tuple[dict[str, list[str]], int, int]:
        """The answers, the documents, and the chunks whose document is there."""
        view = index.store.view()
        held = set(view.columns("documents", ["doc_id"]).column("doc_id").to_pylist())
        kids = view.columns("chunks", ["doc_id"]).column("doc_id").to_pylist()
        assert set(kids) <= held, "chunks of a document not (or no longer) there"
        return _answers(index), len(held), index.count()

    before = state(reader)
    assert before[1] == 12 and before == state(Index(db))
    _change(docs)
    seen: list[tuple] = []
    rc, err, _ = _seamcut("index", str(docs), "--db", str(db), *RECURSIVE, "--batch", "8",
                          at=("add", "chunks", lambda: seen.append((state(Index(db)), state(reader)))))
    assert rc == 0, err
    assert seen, "the update added no rows"
    for fresh, long_lived in seen:
        assert fresh == long_lived and fresh[1] >= 12
    assert seen[0][0] == before
    after = state(reader)
    assert after[1] == 13 and after[0] != before[0] and after == state(Index(db))


@pytest.mark.slow
def test_a_first_build_killed_while_its_text_indexes_are_made_answers_and_completes(tmp_path, caplog):
    """A parent-child index whose parents are ranked by their own words has two full-text
    indexes. Killed as the first is made, it makes it when first searched by words; killed as
    the second is made, the next run makes it. Either way it answers as an uninterrupted build
    does. (Killed as the call starts: a small index's text index can be made before a kill a
    few milliseconds later lands, and the test would not know which state it checks.)"""
    docs = flores_docs(tmp_path / "docs")
    whole = tmp_path / "whole"  # the uninterrupted build, run meanwhile
    uninterrupted = _start("index", str(docs), "--db", str(whole), *BLOCKS, log=tmp_path / "whole.err")

    db = tmp_path / "killed-chunks"
    rc, err, killed = _seamcut("index", str(docs), "--db", str(db), *BLOCKS,
                               kill_at=("create_index", "chunks", 2), pause=0.5)
    assert killed, err
    _finished(uninterrupted, tmp_path / "whole.err")
    want, want_answers = index_rows(whole), _answers(whole)
    assert not Index(db).is_finished()
    with caplog.at_level("WARNING"):
        assert _answers(db) == want_answers
    assert "full-text index was never made" in caplog.text
    _same_rows(_consistent(db), want)
    assert Index(db).is_finished()

    db = tmp_path / "killed-parents"
    rc, err, killed = _seamcut("index", str(docs), "--db", str(db), *BLOCKS,
                               kill_at=("create_index", "parents", 2), pause=0.5)
    assert killed, err
    assert not Index(db).is_finished()  # the chunks' text index is there, the parents' is not
    rc, err, _ = _seamcut("index", str(docs), "--db", str(db), *BLOCKS)
    assert rc == 0 and "0 failed" in err and "the build stopped and resumed" in " ".join(err.split()), err
    assert Index(db).is_finished()
    _same_rows(_consistent(db), want)
    assert _answers(db) == want_answers


# the child dies inside the creation of table $TABLE: its data files written, its first version
# not committed (what a kill between Lance's data write and its manifest leaves)
DIES_CREATING = """
import os, shutil, signal, sys
from pathlib import Path
import lancedb.db as db
original = db.LanceDBConnection.create_table
def create_table(self, name, *args, **kwargs):
    table = original(self, name, *args, **kwargs)
    if name == os.environ["TABLE"]:
        shutil.rmtree(Path(self.uri) / f"{name}.lance" / "_versions")
        os.killpg(0, signal.SIGKILL)  # the whole run, its workers too, as kill -9 of its group
    return table
db.LanceDBConnection.create_table = create_table
from seamcut.cli import app
sys.argv[0] = "seamcut"
app()
"""


@pytest.fixture(scope="module")
def six_blocks(tmp_path_factory) -> tuple[Path, Path]:
    """Six documents and their parent-child index, built once for the three tables' kills (the
    documents are only read: the rows name them by path)."""
    tmp = tmp_path_factory.mktemp("six")
    docs = flores_docs(tmp / "docs", 6)
    rc, err, _ = _seamcut("index", str(docs), "--db", str(tmp / "whole"), *BLOCKS)
    assert rc == 0, err
    return docs, tmp / "whole"


@pytest.mark.parametrize("table", ["chunks", "parents", "documents"])
@pytest.mark.slow
def test_a_first_build_killed_while_creating_a_table_completes_on_the_next_run(tmp_path, table, six_blocks):
    """LanceDB lists a table whose creation was killed before its first version, and cannot open
    it: the next run removes it (it held no row) and builds the rest as an uninterrupted run."""
    docs, whole = six_blocks
    db = tmp_path / "killed"
    p = subprocess.run([sys.executable, "-c", DIES_CREATING, "index", str(docs), "--db", str(db), *BLOCKS],
                       capture_output=True, text=True, cwd=ROOT, env={**ENV, "TABLE": table}, timeout=600,
                       start_new_session=True)
    assert p.returncode == -signal.SIGKILL, p.stderr
    listed = db / "lance" / f"{table}.lance"
    assert listed.is_dir() and not any(listed.glob("_versions/*"))
    rc, err, _ = _seamcut("index", str(docs), "--db", str(db), *BLOCKS)
    assert rc == 0 and "0 failed" in err, err
    _same_rows(_consistent(db), index_rows(whole))
    assert _answers(db) == _answers(whole)


def _start(*args: str, log: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", ANNOUNCED, *args], stdout=subprocess.DEVNULL,
                            stderr=open(log, "w", encoding="utf-8"), text=True, start_new_session=True,
                            env=ENV, cwd=ROOT)


def _finished(p: subprocess.Popen, log: Path) -> str:
    """The standard error of ``_start``'s run ``p``, once it has ended well."""
    rc = p.wait(timeout=600)
    err = log.read_text(encoding="utf-8")
    assert rc == 0, err
    return err


@pytest.mark.slow
def test_two_processes_updating_one_index_wait_or_say_who_holds_it(tmp_path):
    """While one build runs: a second with --wait 0 refuses at once and a third with --wait 1
    after a second, each naming the first (pid, host, since when); a fourth waits, saying so,
    and when the first is killed (-9: its lock dies with it) goes on and completes the index.
    A search meanwhile needs no lock."""
    docs = flores_docs(tmp_path / "docs", n=40)
    db = tmp_path / "db"
    first = _start("index", str(docs), "--db", str(db), *RECURSIVE, "--batch", "8", "--workers", "1",
                   log=tmp_path / "first.err")
    deadline = time.monotonic() + 120
    while holder_of(db).pid != first.pid:
        assert first.poll() is None and time.monotonic() < deadline, (tmp_path / "first.err").read_text()
        time.sleep(0.05)
    fourth = _start("index", str(docs), "--db", str(db), *RECURSIVE, "--batch", "8",
                    log=tmp_path / "fourth.err")
    t0 = time.monotonic()
    rc, err, _ = _seamcut("index", str(docs), "--db", str(db), *RECURSIVE, "--wait", "0")
    refused = " ".join(err.split())  # the message as one line, whatever the terminal width
    assert rc == 2 and f"being updated by process {first.pid} on {socket.gethostname()} since " in refused, err
    assert "--wait 0 says not to wait" in refused
    rc, err, _ = _seamcut("index", str(docs), "--db", str(db), *RECURSIVE, "--wait", "1")
    assert rc == 2 and f"process {first.pid}" in err and "after waiting 1 s" in " ".join(err.split()), err
    assert first.poll() is None, "the first build ended before the others asked: make it longer"
    while not (db / "lance" / "documents.lance").exists():
        assert first.poll() is None and time.monotonic() - t0 < 300
        time.sleep(0.05)
    Index(db).search("Part", 2, mode="vector")  # no lock needed, nothing undone under the writer
    assert fourth.poll() is None
    waiting = " ".join((tmp_path / "fourth.err").read_text().split())
    assert f"being updated by process {first.pid}" in waiting and "waiting for it" in waiting, waiting
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    assert fourth.wait(timeout=600) == 0, (tmp_path / "fourth.err").read_text()
    assert holder_of(db).pid == fourth.pid
    rows = _consistent(db)
    assert len(rows["documents"]) == 40
    assert sorted({r["doc_id"] for r in rows["chunks"]}) == sorted(r["doc_id"] for r in rows["documents"])


# -- a full disk --------------------------------------------------------------------------------

def _big(docs: Path) -> None:
    """A long file (300 FLORES sentences, about 200 chunks): its rows take a file of about
    450 kB in the index."""
    eng = (DATA / "flores200" / "eng_Latn.dev").read_text(encoding="utf-8").splitlines()
    (docs / "big.txt").write_text("# Big\n\n" + "\n\n".join(" ".join(eng[i:i + 2]) for i in range(0, 300, 2)),
                                  encoding="utf-8")


def _swap(docs: Path) -> None:
    """The long file and a short one swap their texts: both changed, every chunk text already
    embedded (so the write is the index's rows, not the embedding cache's)."""
    a, b = docs / "big.txt", docs / "eng-00.txt"
    ta, tb = a.read_bytes(), b.read_bytes()
    a.write_bytes(tb)
    b.write_bytes(ta)


@pytest.fixture(scope="module")
def swapped(tmp_path_factory) -> tuple[Path, Path, Path]:
    """The documents (swapped), an index of them before the swap, and one updated after it."""
    tmp = tmp_path_factory.mktemp("full")
    docs = flores_docs(tmp / "docs")
    _big(docs)
    base = tmp / "base"
    rc, err, _ = _seamcut("index", str(docs), "--db", str(base), *RECURSIVE)
    assert rc == 0, err
    _swap(docs)
    after = _copy(base, tmp / "after")
    rc, err, _ = _seamcut("index", str(docs), "--db", str(after), *RECURSIVE)
    assert rc == 0 and "0 file(s) added, 2 replaced, 11 unchanged" in err, err
    return docs, base, after


def _by_source(rows: dict[str, list[dict]]) -> dict[str, tuple[str, list[str]]]:
    """Each file's hash and chunk ids."""
    ids: dict[str, list[str]] = {}
    for r in rows["chunks"]:
        ids.setdefault(r["doc_id"], []).append(r["id"])
    return {r["source"]: (r["hash"], sorted(ids.get(r["doc_id"], []))) for r in rows["documents"]}


def _check_full(err: str, rc: int, db: Path, base: Path, after: Path, what: str) -> None:
    """A run stopped by a full disk: one clear line; the batch that needed the room as before
    (the long text, now in eng-00.txt), every other file whole, before or after its change."""
    line = " ".join(err.split())
    assert rc == 2 and "Traceback" not in err, err
    assert f"{db}: {what} while writing the index (" in line and " MB free); the index is left as it was " \
           "before this batch" in line, err
    assert not (db / "seamcut-writing.json").exists()
    got, old, new = (_by_source(_consistent(d)) for d in (db, base, after))
    assert set(got) == set(old)
    for source, state in got.items():
        assert state in (old[source], new[source]), source
    assert next(v for s, v in got.items() if s.endswith("eng-00.txt")) == \
        next(v for s, v in old.items() if s.endswith("eng-00.txt"))
    assert all(len(ids) == 4 for ids in _answers(db).values())


def test_a_write_past_the_file_size_limit_is_undone_and_the_next_run_completes(tmp_path, swapped):
    """The variant that runs everywhere: RLIMIT_FSIZE (``ulimit -f``) in the child, under the
    size of the file the batch's rows need; the write fails with EFBIG, as on a full disk."""
    import resource
    docs, base, after = swapped
    db = _copy(base, tmp_path / "db")
    limit = 256 * 1024

    def small_files() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    rc, err, _ = _seamcut("index", str(docs), "--db", str(db), *RECURSIVE, preexec=small_files)
    _check_full(err, rc, db, base, after, "a file would pass this process's file size limit (ulimit -f)")
    rc, err, _ = _seamcut("index", str(docs), "--db", str(db), *RECURSIVE)
    assert rc == 0 and "0 file(s) added, 2 replaced, 11 unchanged" in err, err
    _same_rows(_consistent(db), index_rows(after))
    assert _answers(db) == _answers(after)


# run inside a mount namespace of its own, as its root: a small tmpfs, the index copied there, the
# disk filled but for 300 kB, the update run, its result and the index copied out; then room made
# and the update run again
FULL_DISK = """
import json, shutil, subprocess, sys
from pathlib import Path
mnt, base, docs, out = map(Path, sys.argv[1:5])
command, flags = json.loads(sys.argv[5]), json.loads(sys.argv[6])
subprocess.run(["mount", "-t", "tmpfs", "-o", "size=32m", "tmpfs", str(mnt)], check=True)
db = mnt / "db"
shutil.copytree(base, db)
with open(mnt / "filler", "wb") as fh:
    fh.write(bytes(shutil.disk_usage(mnt).free - 300_000))
runs = []
for name in ("full", "room"):
    p = subprocess.run(command + ["index", str(docs), "--db", str(db)] + flags, capture_output=True, text=True)
    runs.append({"rc": p.returncode, "err": p.stderr})
    shutil.copytree(db, out / name, ignore=shutil.ignore_patterns("seamcut-lock"))
    (mnt / "filler").unlink(missing_ok=True)
(out / "runs.json").write_text(json.dumps(runs))
"""


def test_a_full_disk_gives_a_clear_error_keeps_the_index_and_the_next_run_completes(tmp_path, swapped):
    """A real full filesystem: a tmpfs mounted in a namespace of the test's own (``unshare``;
    skipped only where this machine allows no mount at all)."""
    unshare = shutil.which("unshare")
    probe = subprocess.run([unshare or "unshare", "--user", "--map-root-user", "--mount", "sh", "-c",
                            f"mount -t tmpfs -o size=1m tmpfs {tmp_path}"], capture_output=True, text=True) \
        if unshare else None
    if probe is None or probe.returncode != 0:
        pytest.skip(f"no filesystem can be mounted here: {probe.stderr.strip() if probe else 'no unshare'}"
                    " (the file size limit variant runs instead)")
    docs, base, after = swapped
    mnt, out = tmp_path / "mnt", tmp_path / "out"
    mnt.mkdir()
    out.mkdir()
    p = subprocess.run([unshare, "--user", "--map-root-user", "--mount", sys.executable, "-c", FULL_DISK,
                        str(mnt), str(base), str(docs), str(out), json.dumps([sys.executable, "-c", ANNOUNCED]),
                        json.dumps(RECURSIVE)],
                       capture_output=True, text=True, env=ENV, cwd=ROOT, timeout=600)
    assert p.returncode == 0, p.stderr
    full, room = json.loads((out / "runs.json").read_text())
    _check_full(full["err"].replace(str(mnt / "db"), str(out / "full")), full["rc"], out / "full", base,
                after, "the disk is full")
    assert room["rc"] == 0 and "0 file(s) added, 2 replaced, 11 unchanged" in room["err"], room["err"]
    _same_rows(_consistent(out / "room"), index_rows(after))
    assert _answers(out / "room") == _answers(after)
