"""scripts/setup.sh (issue 51, point 5 and the set-up's silence): the tests get torch only where
its CPU build lies on this disk (scripts/cpu_torch.py) or when asked, never the package index's
CUDA build of several GB through the test extra; every step that takes time says so first."""
from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SETUP = ROOT / "scripts" / "setup.sh"
CPU_TORCH = ROOT / "scripts" / "cpu_torch.py"
PY = f"cp{sys.version_info.major}{sys.version_info.minor}"


def _choose(*folders: Path) -> str:
    args = [a for f in folders for a in ("--find-links", str(f))]
    done = subprocess.run([sys.executable, str(CPU_TORCH), *args], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _wheels(folder: Path, *names: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        (folder / name).write_bytes(b"")  # only the name is read: version, build and tags
    return folder


def test_the_cpu_build_on_the_disk_is_chosen(tmp_path):
    wheels = _wheels(tmp_path / "wheels",
                     f"torch-2.12.0+cpu-{PY}-{PY}-manylinux_2_28_x86_64.whl",
                     f"torch-2.13.0+cpu-{PY}-{PY}-manylinux_2_28_x86_64.whl",
                     f"torch-2.14.0-{PY}-{PY}-manylinux_2_28_x86_64.whl",  # the CUDA build: no +cpu
                     "torch-2.15.0+cpu-cp27-cp27mu-manylinux_2_28_x86_64.whl",  # another Python
                     "torch-2.15.0+cpu-cp311-cp311-win_amd64.whl",  # another system
                     "torchvision-0.30.0+cpu-py3-none-any.whl", "torch-broken.whl")
    import platform
    if platform.machine() != "x86_64":
        pytest.skip("the wheels named here are for x86_64 Linux")
    assert _choose(wheels) == "torch==2.13.0+cpu"


def test_no_cpu_build_means_no_torch(tmp_path):
    cuda = _wheels(tmp_path / "cuda", f"torch-2.13.0-{PY}-{PY}-manylinux_2_28_x86_64.whl")
    assert _choose(cuda, tmp_path / "missing") == ""


def test_the_test_extra_does_not_pull_torch_in():
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"]
    assert not [r for r in extras["test"] if re.match(r"torch\b", r)]


def test_setup_asks_for_torch_only_as_said():
    script = SETUP.read_text(encoding="utf-8")
    assert '"${install[@]}" torch\n' in script and "--torch) torch=yes" in script
    assert '"${install[@]}" "$requirement"' in script and "scripts/cpu_torch.py" in script
    assert "torch==" not in script  # no pinned release that pip may find only as its CUDA build


#: what takes more than a moment in scripts/setup.sh
SLOW = re.compile(r'apt-get install|-m venv|"\$\{install\[@\]\}"|compileall|pip install -q uv')


def test_every_slow_step_says_what_it_does_first():
    said, silent = False, []
    for n, line in enumerate(SETUP.read_text(encoding="utf-8").splitlines(), 1):
        code = line.split("#", 1)[0].strip()
        if code.startswith("step "):
            said = True
        elif SLOW.search(code) and not code.startswith("install="):  # the command itself, not its name
            if not said:
                silent.append(f"{n}: {code}")
            said = False
    assert not silent, silent
    assert re.search(r'^step\(\) \{ echo "setup \[\$\(\(SECONDS - start\)\) s\]: \$\*"; \}$', SETUP.read_text(), re.M)
