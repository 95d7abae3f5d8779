"""The guard that keeps the tests inside the repository (tests/helpers/outside.py) sees what it is
for: a read, a listing or a child process's path beside the repository, and nothing in the
repository, the temporary folder or the installed software."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.helpers.data import ROOT
from tests.helpers.outside import GUARD as OUTSIDE
from tests.helpers.outside import OutsideReads

BESIDE = ROOT.parent / "no-such-folder-beside-the-repository"


def test_a_read_beside_the_repository_is_caught():
    OUTSIDE.take()
    with pytest.raises(FileNotFoundError):
        open(BESIDE / "data.txt", encoding="utf-8")
    with pytest.raises(FileNotFoundError):
        os.listdir(BESIDE)
    assert OUTSIDE.take() == [f"open {BESIDE / 'data.txt'}", f"os.listdir {BESIDE}"]


def test_a_relative_path_beside_the_repository_is_caught(monkeypatch):
    OUTSIDE.take()
    monkeypatch.chdir(ROOT)
    with pytest.raises(FileNotFoundError):
        Path("..", BESIDE.name, "questions.yaml").read_text(encoding="utf-8")
    assert len(OUTSIDE.take()) == 1


def test_a_path_handed_to_a_child_process_is_caught():
    OUTSIDE.take()
    subprocess.run([sys.executable, "-c", "pass", str(BESIDE / "corpus")], check=True)
    assert OUTSIDE.take() == [f"subprocess.Popen {BESIDE / 'corpus'}"]


def test_the_repository_the_temporary_folder_and_python_are_not_outside(tmp_path):
    guard = OutsideReads(ROOT)
    assert not guard.is_outside(str(ROOT / "README.md"))
    assert not guard.is_outside(str(tmp_path / "x"))
    assert not guard.is_outside(os.path.join(tempfile.gettempdir(), "x"))
    assert not guard.is_outside(os.__file__)
    assert not guard.is_outside("/usr/share/tesseract-ocr")
    assert guard.is_outside(str(BESIDE / "data" / "README.md"))


def test_a_folder_that_holds_the_software_is_not_watched(tmp_path):
    guard = OutsideReads(tmp_path / "repo", watched=(Path("/"), tmp_path), allowed=(tmp_path / "repo",))
    assert not guard.is_outside("/usr/lib/x") and not guard.is_outside("/etc/hosts")
    assert guard.is_outside(str(tmp_path / "beside" / "x"))


def test_every_data_file_is_listed_with_its_digest():
    """``tests/data/SHA256SUMS`` lists every file of ``tests/data`` (but itself and the README)
    with the digest it has: what is copied in is what the README says came from upstream."""
    import hashlib

    data = ROOT / "tests" / "data"
    listed = {}
    for line in (data / "SHA256SUMS").read_text(encoding="utf-8").splitlines():
        digest, name = line.split("  ", 1)
        listed[name.removeprefix("./")] = digest
    present = {p.relative_to(data).as_posix() for p in data.rglob("*") if p.is_file()} - {"SHA256SUMS", "README.md"}
    assert present == set(listed)
    for name, digest in listed.items():
        assert hashlib.sha256((data / name).read_bytes()).hexdigest() == digest, name
    readme = (data / "README.md").read_text(encoding="utf-8")
    assert all(f"`{top.name}/" in readme for top in data.iterdir() if top.is_dir())


#: a path out of the repository's parent folder: its ``ROOT.parent``, a ``parents[N].parent`` (a
#: relative ``"../x"`` opened from the working folder is the audit hook's to see)
_CLIMBS = re.compile(r"ROOT\.parent\b|parents\[\d+\]\.parent\b")
_PARENTS = re.compile(r"parents\[(\d+)\]")


def _climbs(relative: Path, line: str) -> bool:
    """Whether ``line`` of the test file at ``relative`` (to the repository) builds a path beside
    the repository: ``Path(__file__).resolve().parents[N]`` with N at least the file's depth is
    the repository's parent folder."""
    return bool(_CLIMBS.search(line)) or any(int(n) >= len(relative.parts) for n in _PARENTS.findall(line))


def test_no_test_names_a_folder_beside_the_repository():
    """A C library handed a path (pdfium opening a PDF) reads where the audit hook cannot see:
    no test or helper builds a path out of the repository's parent folder."""
    found = [f"{p.relative_to(ROOT)}:{n}" for p in sorted((ROOT / "tests").rglob("*.py"))
             if p.name != "test_outside_reads.py"
             for n, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
             if _climbs(p.relative_to(ROOT), line)]
    assert not found, found
    assert _climbs(Path("tests/test_x.py"), 'PDFS = Path(__file__).resolve().parents[2] / "data"')
    assert not _climbs(Path("tests/test_x.py"), "ROOT = Path(__file__).resolve().parents[1]")
    assert _climbs(Path("tests/a/test_x.py"), 'DATA = ROOT.parent / "data"')
