"""The Ray engine (``seamcut.ray_build``) on a local 2-CPU Ray runtime: the rows of the local
engine, bad files named with the rest indexed, unchanged files skipped on a rerun, and one line
saying how to install Ray where it is missing."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from seamcut.build import build_index
from seamcut.corpus import Limits
from seamcut.index import Index
from tests.test_build import _docs, _rows

ROOT = Path(__file__).resolve().parents[1]
HELPLINE = ROOT / "examples" / "helpline"


@pytest.fixture(scope="module")
def runtime(tmp_path_factory):
    """One local Ray runtime of 2 CPUs for the module (the engine uses a runtime already up)."""
    ray = pytest.importorskip("ray", reason="the Ray engine's tests need ray (pip install 'seamcut[ray]')")
    ray.init(num_cpus=2, include_dashboard=False, object_store_memory=512 * 2**20,
             _temp_dir=str(tmp_path_factory.mktemp("ray")), log_to_driver=False,
             runtime_env={"env_vars": {"OMP_NUM_THREADS": "1"}})
    yield ray
    ray.shutdown()


def _build(folder: Path, paths: list[Path], engine: str, cache: Path, **kw):
    index = Index(folder, strategy="recursive", options={"size": 128, "overlap": 0}, model="default")
    report = build_index(index, paths, "recursive", {"size": 128, "overlap": 0}, cache=cache,
                         engine=engine, progress=False, **kw)
    return index, report


def test_ray_gives_the_local_engines_chunks_and_vectors(runtime, tmp_path):
    cache = tmp_path / "parsed"  # Ray reads every file first (OCR included); the local run reuses it
    _, on_ray = _build(tmp_path / "ray", [HELPLINE], "ray", cache)
    _, local = _build(tmp_path / "local", [HELPLINE], "local", cache)
    assert not on_ray.failures and not local.failures
    assert sorted(on_ray.added) == sorted(local.added) and len(on_ray.added) == 10
    assert on_ray.chunks == local.chunks > 0 and on_ray.tokens == local.tokens
    assert on_ray.stages["embed"].tokens == local.stages["embed"].tokens
    assert on_ray.stages["read OCR"].pages > 0  # the scans were OCR'd in Ray tasks
    a, b = _rows(tmp_path / "ray"), _rows(tmp_path / "local")
    assert sorted(r["doc_id"] for r in a["documents"]) == sorted(r["doc_id"] for r in b["documents"])
    here = {r["id"]: r for r in b["chunks"]}
    assert sorted(here) == sorted(r["id"] for r in a["chunks"])
    for r in a["chunks"]:
        w = here[r["id"]]
        assert r["text"] == w["text"]
        u, v = np.asarray(r["vector"]), np.asarray(w["vector"])
        assert float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v))) >= 0.9999, r["id"]


def test_a_bad_file_is_named_the_rest_indexed_and_a_rerun_skips_them(runtime, tmp_path):
    docs = _docs(tmp_path / "docs", n=4)
    (docs / "broken.pdf").write_bytes(b"%PDF-1.4\n1 0 obj << /Type /Catalog >> garbage\n")
    (docs / "empty.txt").write_bytes(b"")
    folder = tmp_path / "db"
    index, report = _build(folder, [docs], "ray", tmp_path / "parsed", limits=Limits(timeout=120, memory_mb=800))
    reasons = {Path(f.path).name: f.reason for f in report.failures}
    assert set(reasons) == {"broken.pdf", "empty.txt"}
    assert "corrupt PDF" in reasons["broken.pdf"] and "empty file" in reasons["empty.txt"]
    assert str(docs / "broken.pdf") in reasons["broken.pdf"]
    assert len(report.added) == 4 and index.count() == report.chunks > 0
    # the rerun reads nothing again: the good files are unchanged (by content hash)
    (docs / "new.txt").write_text("# New\n\nA file added since, read by the rerun.\n", encoding="utf-8")
    again = Index(folder)
    report2 = build_index(again, [docs], "recursive", {"size": 128, "overlap": 0}, cache=tmp_path / "parsed",
                          engine="ray", progress=False)
    assert sorted(report2.unchanged) == sorted(report.added)
    assert report2.added == [str(docs / "new.txt")]
    assert {Path(f.path).name for f in report2.failures} == {"broken.pdf", "empty.txt"}
    assert again.count() == report.chunks + report2.chunks


def test_without_ray_the_engine_says_how_to_install_it(tmp_path):
    script = ("import sys\nsys.modules['ray'] = None\n"  # what an environment without ray looks like
              "from seamcut.cli import app\nsys.argv[0] = 'seamcut'\napp()\n")
    docs = _docs(tmp_path / "docs", n=2)
    p = subprocess.run([sys.executable, "-c", script, "index", str(docs), "--db", str(tmp_path / "db"),
                        "--engine", "ray"], capture_output=True, text=True, timeout=300,
                       env={**os.environ, "COLUMNS": "200"})
    assert p.returncode != 0
    lines = [x for x in p.stderr.splitlines() if x.strip()]
    assert len(lines) == 1 and "pip install 'seamcut[ray]'" in lines[0], p.stderr
    assert not (tmp_path / "db").exists()


def test_ray_flags_without_the_ray_engine_are_refused(tmp_path):
    docs = _docs(tmp_path / "docs", n=2)
    p = subprocess.run([sys.executable, "-m", "seamcut.cli", "index", str(docs), "--db", str(tmp_path / "db"),
                        "--address", "auto"], capture_output=True, text=True, timeout=300,
                       env={**os.environ, "COLUMNS": "200"})
    assert p.returncode != 0 and "--address and --ray-gpus need --engine ray" in p.stderr, p.stderr
