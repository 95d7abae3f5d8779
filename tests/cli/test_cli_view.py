"""The `seamcut view` command, run as a user runs it."""
from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.helpers.data import HELPLINE

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "250", "OMP_NUM_THREADS": "1"}
    return subprocess.run([sys.executable, "-m", "seamcut.cli", "view", *args],
                          capture_output=True, text=True, timeout=600, env=env)


def data_of(js: Path) -> dict:
    return json.loads(js.read_text(encoding="utf-8").removeprefix("window.SEAMCUT_DOC = ").rstrip().rstrip(";"))


def test_view_writes_the_pages(tmp_path):
    md = tmp_path / "notes.md"
    md.write_text("# Notes\n\nFirst paragraph about cotton.\n\n## Pests\n\nWhitefly and aphids.\n",
                  encoding="utf-8")
    out = tmp_path / "view"
    r = run(str(HELPLINE / "crop-insurance-2024.pdf"), str(md), "-s", "structure",
            "-s", "recursive:size=80", "--overlap", "10", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "view →" in r.stderr and (out / "index.html").is_file()
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "notes.md" in index and "crop-insurance-2024.pdf" in index
    assert "questions.html" not in index and "search.html" not in index
    docs = sorted((out / "docs").glob("*.js"))
    assert len(docs) == 2
    by_source = {d["source"]: d for d in map(data_of, docs)}
    pdf = next(v for k, v in by_source.items() if k.endswith(".pdf"))
    note = next(v for k, v in by_source.items() if k.endswith(".md"))
    assert [s["slug"] for s in pdf["strategies"]] == ["structure", "recursive_size-80"]
    recursive = pdf["strategies"][1]
    assert recursive["overlap_asked"] is True and pdf["strategies"][0]["overlap_asked"] is False
    assert len(list((out / "pages" / pdf["id"]).glob("*.png"))) == len(pdf["pages"]) > 0
    assert note["pages"] == [] and not (out / "pages" / note["id"]).exists()


def test_view_stops_on_a_bad_strategy_or_run(tmp_path):
    r = run(str(HELPLINE / "crop-insurance-2024.pdf"), "-s", "nonsense", "--out", str(tmp_path))
    assert r.returncode == 2 and "unknown strategy 'nonsense'" in r.stderr
    r = run(str(HELPLINE / "crop-insurance-2024.pdf"), "-s", "recursive:size=ten", "--out", str(tmp_path))
    assert r.returncode == 2 and "size" in r.stderr
    if importlib.util.find_spec("seamcut.report.view.questions") is None:
        r = run(str(HELPLINE), "--compare", str(tmp_path / "run.json"), "--out", str(tmp_path))
        assert r.returncode == 2 and "questions" in r.stderr
    else:
        r = run(str(HELPLINE), "--compare", str(tmp_path / "missing.json"), "--out", str(tmp_path))
        assert r.returncode == 2 and "missing.json: no such file" in r.stderr
        bad = tmp_path / "bad.json"
        bad.write_text('{"k": 4}', encoding="utf-8")
        r = run(str(HELPLINE), "--compare", str(bad), "--out", str(tmp_path))
        assert r.returncode == 2 and "not a seamcut compare --json file" in r.stderr
    assert not (tmp_path / "index.html").exists()


def test_view_names_a_file_it_cannot_read(tmp_path):
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7 not really")
    r = run(str(broken), "--out", str(tmp_path / "v"))
    assert r.returncode == 2 and "broken.pdf" in r.stderr and "no document read" in r.stderr


@pytest.mark.parametrize("flag", ["--help"])
def test_view_is_listed(flag):
    r = subprocess.run([sys.executable, "-m", "seamcut.cli", flag], capture_output=True, text=True,
                       timeout=120, env={**os.environ, "COLUMNS": "200"})
    assert r.returncode == 0 and " view " in r.stdout


def test_view_says_when_the_model_held_chunks_below_the_size(tmp_path):
    f = tmp_path / "long.txt"
    f.write_text(" ".join(["word"] * 2000) + "\n", encoding="utf-8")
    r = run(str(f), "-s", "fixed:unit=words:size=600:overlap=0", "--out", str(tmp_path / "v"))
    assert r.returncode == 0, r.stderr
    assert "warning: fixed:unit=words:size=600:overlap=0:" in r.stderr and "512-token input" in r.stderr


def test_view_reads_each_file_by_the_name_the_run_gave_it(tmp_path):
    """A run of compare given the folder by its absolute path, a view given it by a relative one:
    the view reads each file by the run's name, so the run's chunks are found."""
    from seamcut.report.view import named_as_in_run
    cotton = HELPLINE / "cotton-manual.pdf"
    run_json = {"strategies": [{"per_question": [{"results": [{"source": str(cotton.resolve())}]}],
                                "no_answer": []}]}
    relative = os.path.relpath(HELPLINE)
    named = named_as_in_run([relative], run_json)
    assert named == {os.path.join(relative, "cotton-manual.pdf"): str(cotton.resolve())}  # the others as given


def test_view_reads_a_copy_of_the_runs_files_by_the_runs_names(tmp_path):
    import shutil

    from seamcut.report.view import named_as_in_run
    copy = tmp_path / "checkout" / "examples" / "helpline" / "cotton-manual.pdf"
    copy.parent.mkdir(parents=True)
    shutil.copy(HELPLINE / "cotton-manual.pdf", copy)
    run_json = {"strategies": [{"per_question": [{"results": [{"source": str(copy)}]}], "no_answer": []}]}
    assert named_as_in_run([os.path.relpath(HELPLINE)], run_json) == {
        os.path.join(os.path.relpath(HELPLINE), "cotton-manual.pdf"): str(copy)}
    gone = {"strategies": [{"per_question": [{"results": [{"source": "/nowhere/examples/helpline/cotton-manual.pdf"}]}],
                            "no_answer": []}]}
    assert named_as_in_run([os.path.relpath(HELPLINE)], gone) == {}  # not here: its pages cannot be drawn
