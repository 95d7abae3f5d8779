"""The Ray engine (``seamcut.pipeline.ray_engine``) on a local 2-CPU Ray cluster: the rows of the local
engine (the default model and its torch twin), bad files named with the rest indexed, a file over
the timeout or the memory cap stopped and named, a run killed with its runtime resumed to the
rows of an uninterrupted one, unchanged files skipped on a rerun, GPUs asked for as the flags
say, and one line saying how to install Ray where it is missing."""
from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from seamcut.cli.options import EngineFlags, EngineName
from seamcut.index import Index
from seamcut.pipeline.corpus import Limits
from seamcut.pipeline.engine import engine_from
from seamcut.pipeline.local import LocalEngine
from seamcut.pipeline.options import BuildOptions
from seamcut.pipeline.report import saved_report
from seamcut.pipeline.run import build_index
from seamcut.strategies.spec import parse_spec
from tests.helpers.badfiles import huge_text, pdf_file, stream
from tests.helpers.build_runs import INDEX, flores_docs, index_rows, start_index
from tests.helpers.data import HELPLINE
from tests.helpers.optional import need_torch

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def runtime(tmp_path_factory):
    """One local Ray cluster of 2 CPUs for the module (the engine uses a cluster already up)."""
    ray = pytest.importorskip("ray", reason="the Ray engine's tests need ray (pip install 'seamcut[ray]')")
    ray.init(num_cpus=2, include_dashboard=False, object_store_memory=512 * 2**20,
             _temp_dir=str(tmp_path_factory.mktemp("ray")), log_to_driver=False,
             runtime_env={"env_vars": {"OMP_NUM_THREADS": "1"}})
    yield ray
    ray.shutdown()


def _build(folder: Path, paths: list[Path], engine: str, cache: Path, model: str = "default", **kw):
    index = Index(folder, strategy="recursive", options={"size": 128, "overlap": 0}, model=model)
    report = build_index(index, paths, parse_spec("recursive:size=128:overlap=0"),
                         BuildOptions(cache=cache, progress=False, **kw), engine=engine_from(engine))
    return index, report


# four of the example's ten files (all ten took twice the OCR and embedding, nothing more to
# compare): a text PDF in each of English, Hindi and Marathi and a scanned one (OCR), two reading
# tasks' worth (4 files a task) with the folder's files that are not documents
SAMPLE = ("crop-insurance-2024.pdf", "orange-manual-mr.pdf", "soybean-manual-hi.pdf",
          "orange-notice-mr-scan.pdf", "catalog.csv", "questions.yaml")


def test_ray_gives_the_local_engines_chunks_and_vectors(runtime, tmp_path):
    docs = tmp_path / "helpline"
    docs.mkdir()
    for name in SAMPLE:
        shutil.copy(HELPLINE / name, docs / name)
    cache = tmp_path / "parsed"  # Ray reads every file first (OCR included); the local run reuses it
    _, on_ray = _build(tmp_path / "ray", [docs], "ray", cache)
    _, local = _build(tmp_path / "local", [docs], "local", cache)
    assert not on_ray.failures and not local.failures
    assert sorted(on_ray.added) == sorted(local.added) and len(on_ray.added) == 4
    assert on_ray.chunks == local.chunks > 0 and on_ray.tokens == local.tokens
    assert on_ray.stages["embed"].tokens == local.stages["embed"].tokens
    assert on_ray.stages["read OCR"].pages > 0  # the scans were OCR'd in Ray tasks
    _same_rows(tmp_path / "ray", tmp_path / "local")


def test_a_size_the_model_cannot_take_stops_a_ray_build_as_the_spec_error(runtime, tmp_path):
    """The Ray tasks get the spec whole (no probe cut in the driver): a size only the model's
    tokenizer refuses stops the build with the ``ConfigError`` itself, not Ray's wrapper of it."""
    from seamcut.errors import ConfigError
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nSome text about wheat.\n", encoding="utf-8")
    index = Index(tmp_path / "db", strategy="recursive", options={"size": 5000}, model="default")
    with pytest.raises(ConfigError, match="^size 5000 tokens is over the model's maximum input of 512") as got:
        build_index(index, [docs], parse_spec("recursive:size=5000"), BuildOptions(cache=False, progress=False),
                    engine=engine_from("ray"))
    assert type(got.value) is ConfigError
    assert index.count() == 0


def _same_rows(db: Path, reference: Path) -> None:
    """``db`` holds the rows of ``reference``: the same documents and chunk ids, once each, the
    same fields, and vectors within cosine 0.9999."""
    a, b = index_rows(db), index_rows(reference)
    for table, key in (("chunks", "id"), ("documents", "doc_id")):
        ids = [r[key] for r in a[table]]
        assert len(ids) == len(set(ids)), f"duplicate rows in {table}"
        assert sorted(ids) == sorted(r[key] for r in b[table]), table
    here = {r["id"]: r for r in b["chunks"]}
    for r in a["chunks"]:
        w = here[r["id"]]
        assert {k: v for k, v in r.items() if k != "vector"} == {k: v for k, v in w.items() if k != "vector"}
        u, v = np.asarray(r["vector"]), np.asarray(w["vector"])
        assert float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v))) >= 0.9999, r["id"]


@pytest.mark.slow
def test_e5_torch_in_the_actors_gives_the_local_e5_torch_rows(runtime, tmp_path):
    need_torch()
    files = [HELPLINE / "crop-insurance-2024.pdf", HELPLINE / "orange-manual.pdf"]  # small, no OCR
    cache = tmp_path / "parsed"
    _, local = _build(tmp_path / "local", files, "local", cache, model="e5-torch")
    index, on_ray = _build(tmp_path / "ray", files, "ray", cache, model="e5-torch")
    assert not on_ray.failures and sorted(on_ray.added) == sorted(local.added) == sorted(map(str, files))
    assert on_ray.chunks == local.chunks > 0
    assert Index(tmp_path / "ray").settings.embedder == index.embedder.name == "torch:multilingual-e5-small"
    _same_rows(tmp_path / "ray", tmp_path / "local")


@pytest.mark.slow
def test_a_killed_ray_run_and_its_runtime_resume_to_the_rows_of_an_uninterrupted_one(runtime, tmp_path):
    """``seamcut index --engine ray`` killed (-9, its process group: the Ray cluster it started
    goes with it) at a random moment after its first batch is written; the rerun ends with the
    rows of an uninterrupted run, and a third run finds nothing to do. (Killed once: a second kill
    cost another runtime start, about 25 s of the suite's 15 minutes, and tested what the first
    does; tests/pipeline/test_build.py kills the local engine's run three times. The rerun and the
    third run go to the module's runtime, through --address, for the same reason: the killed run
    started its own, which is what a kill must take down.)"""
    docs = flores_docs(tmp_path / "docs")
    # the local engine's rows, built meanwhile: the first Ray run spends most of its time starting
    whole = start_index(str(docs), "--db", str(tmp_path / "whole"), *INDEX)
    db = tmp_path / "killed"
    rng = random.Random(16)
    p = start_index(str(docs), "--db", str(db), *INDEX, "--engine", "ray")
    deadline = time.monotonic() + 300
    while not (db / "lance" / "documents.lance").exists() and p.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert p.poll() is None, p.communicate()[1][-3000:]
    time.sleep(rng.uniform(0, 2.0))  # mid-batch, mid-write or between: anywhere
    os.killpg(p.pid, signal.SIGKILL)
    p.communicate()
    assert _left_in_session(p.pid) == [], "the killed run's Ray processes are still running"
    earlier, finished = saved_report(db)
    assert earlier is not None and not finished
    address = runtime.get_runtime_context().gcs_address  # the rerun: on a runtime already up
    p = start_index(str(docs), "--db", str(db), *INDEX, "--engine", "ray", "--address", address,
                    "--stats", str(tmp_path / "stats.json"))
    _, err = p.communicate(timeout=600)
    assert p.returncode == 0, err
    stats = json.loads((tmp_path / "stats.json").read_text(encoding="utf-8"))
    assert stats["runs"] == earlier.runs + 1 and set(earlier.added) <= set(stats["added"])
    assert sorted(stats["added"] + stats["unchanged"]) == sorted(str(f) for f in docs.iterdir())
    assert saved_report(db)[1] and not (db / "seamcut-writing.json").exists()
    _, err = whole.communicate(timeout=600)
    assert whole.returncode == 0, err
    _same_rows(db, tmp_path / "whole")
    p = start_index(str(docs), "--db", str(db), *INDEX, "--engine", "ray", "--address", address)
    _, err = p.communicate(timeout=600)
    assert p.returncode == 0 and "0 file(s) added, 0 replaced, 12 unchanged" in err, err


def _left_in_session(sid: int, wait: float = 10) -> list[str]:
    """The processes still in session ``sid`` (a killed run's), after up to ``wait`` seconds."""
    deadline = time.monotonic() + wait
    while True:
        left = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[3]) == sid and fields[0] != "Z":  # state, ppid, pgrp, session
                left.append(stat.parent.name)
        if not left or time.monotonic() > deadline:
            return left
        time.sleep(0.2)


@pytest.mark.slow
def test_a_file_over_the_timeout_is_stopped_named_and_the_rest_indexed(runtime, tmp_path):
    """In the Ray tasks as in the local engine: 20 pages of 200 x 200 inches drawn in full (no
    text layer: OCR renders each, 2-8 s a page here, far longer than the timeout in all) among
    good files are stopped at the timeout and named with it; the good files are indexed. (No
    memory cap here: rendering such a page passes 500 MiB, which the next test's file is for.)"""
    docs = flores_docs(tmp_path / "docs", n=2)
    slow = tmp_path / "slow" / "drawn-pages.pdf"
    slow.parent.mkdir()
    slow.write_bytes(_drawn_pages(20))
    index, report = _build(tmp_path / "db", [docs, slow], "ray", tmp_path / "parsed", limits=Limits(timeout=15))
    assert [f.path for f in report.failures] == [str(slow)]
    assert report.failures[0].reason.startswith(f"{slow}: took longer than 15 s"), report.failures[0].reason
    assert len(report.added) == 2 and index.count() == report.chunks > 0


@pytest.mark.slow
def test_bad_files_and_a_file_over_the_memory_cap_are_named_the_rest_indexed_and_a_rerun_skips_them(
        runtime, tmp_path):
    """In the Ray tasks as in the local engine, among good files: a damaged PDF and an empty file,
    each named with its reason, and 200 MB of text stopped at the memory cap and named with it;
    the good files indexed. A rerun reads no good file again (unchanged by content hash), reads
    the one added since, and names the bad ones again. (One build for the three: a build on Ray
    starts its tasks and actors again, about 20 s here.)"""
    docs = flores_docs(tmp_path / "docs", n=4)
    (docs / "broken.pdf").write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog >> garbage\n")
    (docs / "empty.txt").write_bytes(b"")
    (tmp_path / "big").mkdir()
    big = huge_text(tmp_path / "big" / "huge.txt")
    folder = tmp_path / "db"
    index, report = _build(folder, [docs, big], "ray", tmp_path / "parsed", limits=Limits(timeout=600, memory_mb=500))
    reasons = {Path(f.path).name: f.reason for f in report.failures}
    assert set(reasons) == {"broken.pdf", "empty.txt", big.name}, reasons
    assert reasons["broken.pdf"].startswith(str(docs / "broken.pdf")) and "corrupt PDF" in reasons["broken.pdf"]
    assert "empty file" in reasons["empty.txt"]
    assert reasons[big.name].startswith(f"{big}: needed more than 500 MiB"), reasons[big.name]
    assert len(report.added) == 4 and index.count() == report.chunks > 0
    (docs / "new.txt").write_text("# New\n\nA file added since, read by the rerun.\n", encoding="utf-8")
    again = Index(folder)
    report2 = build_index(again, [docs], parse_spec("recursive:size=128:overlap=0"),
                          BuildOptions(cache=tmp_path / "parsed", progress=False), engine=engine_from("ray"))
    assert sorted(report2.unchanged) == sorted(report.added)
    assert report2.added == [str(docs / "new.txt")]
    assert {Path(f.path).name for f in report2.failures} == {"broken.pdf", "empty.txt"}
    assert again.count() == report.chunks + report2.chunks


def _drawn_pages(n: int) -> bytes:
    """A PDF of ``n`` pages of 200 x 200 inches, each filled by one drawn rectangle (one shared
    content stream), no text."""
    kids = b" ".join(b"%d 0 R" % (4 + k) for k in range(n))
    page = b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 14400 14400] /Contents 3 0 R >>"
    return pdf_file([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, n),
                     stream(b"0 0 1 rg 10 10 14000 14000 re f"), *[page] * n])


def test_a_gpu_on_ray_is_asked_for_as_the_flags_say():
    ray = EngineFlags(engine=EngineName.ray)
    assert ray.make_engine("cuda").gpus == 1.0  # --device cuda: one GPU per embedding actor
    assert ray.make_engine("cuda:1").gpus == 1.0
    assert ray.make_engine("cpu").gpus == 0.0
    assert EngineFlags(engine=EngineName.ray, ray_gpus=0.5).make_engine("cuda").gpus == 0.5
    assert EngineFlags(engine=EngineName.ray, address="auto").make_engine().address == "auto"
    assert EngineFlags().make_engine("cuda") == LocalEngine()  # the local engine loads it in this process
    assert EngineFlags(engine=EngineName.ray, ray_gpus=1).make_engine("cpu", "e5-torch").gpus == 1.0
    with pytest.raises(ValueError, match="need --engine ray"):
        EngineFlags(ray_gpus=1).make_engine("cuda")
    with pytest.raises(ValueError, match="GPU actors run the default model as e5-torch"):
        EngineFlags(engine=EngineName.ray, ray_gpus=1).make_engine("cpu", "default")


def test_a_gpu_for_a_model_other_than_e5_torch_is_refused(tmp_path):
    pytest.importorskip("ray", reason="the Ray engine's tests need ray (pip install 'seamcut[ray]')")
    docs = flores_docs(tmp_path / "docs", n=2)
    p = subprocess.run([sys.executable, "-m", "seamcut.cli", "index", str(docs), "--db", str(tmp_path / "db"),
                        "--engine", "ray", "--ray-gpus", "1"], capture_output=True, text=True, timeout=300,
                       env={**os.environ, "COLUMNS": "200"})
    assert p.returncode != 0
    lines = [x for x in p.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "GPU actors run the default model as e5-torch" in lines[0], p.stderr
    assert "--device cuda" in lines[0] and "'default'" in lines[0]
    assert not (tmp_path / "db").exists()  # refused before the index is opened


def test_without_ray_the_engine_says_how_to_install_it(tmp_path):
    script = ("import sys\nsys.modules['ray'] = None\n"  # what an environment without ray looks like
              "from seamcut.cli import app\nsys.argv[0] = 'seamcut'\napp()\n")
    docs = flores_docs(tmp_path / "docs", n=2)
    p = subprocess.run([sys.executable, "-c", script, "index", str(docs), "--db", str(tmp_path / "db"),
                        "--engine", "ray"], capture_output=True, text=True, timeout=300,
                       env={**os.environ, "COLUMNS": "200"})
    assert p.returncode != 0
    lines = [x for x in p.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "pip install 'seamcut[ray]'" in lines[0], p.stderr
    assert not (tmp_path / "db").exists()


def test_ray_flags_without_the_ray_engine_are_refused(tmp_path):
    docs = flores_docs(tmp_path / "docs", n=2)
    p = subprocess.run([sys.executable, "-m", "seamcut.cli", "index", str(docs), "--db", str(tmp_path / "db"),
                        "--address", "auto"], capture_output=True, text=True, timeout=300,
                       env={**os.environ, "COLUMNS": "200"})
    assert p.returncode != 0 and "--address and --ray-gpus need --engine ray" in p.stderr, p.stderr


def test_a_local_runtime_removes_its_folder_when_it_stops():
    """Every local run left a session folder (logs, sockets, about 1 MB) under the temp folder."""
    pytest.importorskip("ray", reason="the Ray engine's tests need ray (pip install 'seamcut[ray]')")
    import tempfile

    tmp = tempfile.mkdtemp(prefix="t", dir="/tmp")  # short: Ray's socket paths are limited
    script = ("import glob, os, tempfile\n"
              "from seamcut.pipeline.ray_engine import ray_cluster\n"
              "with ray_cluster() as ray:\n"
              "    print(len(glob.glob(os.path.join(tempfile.gettempdir(), 'seamcut-ray-*-*', 'session_2*'))))\n")
    try:
        got = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300,
                             env={**os.environ, "TMPDIR": tmp, "PYTHONPATH": str(ROOT / "src")})
        assert got.returncode == 0, got.stderr[-2000:]
        assert got.stdout.split()[-1] == "1"  # the runtime's session, while it ran
        assert os.listdir(tmp) == []
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
