"""One ``seamcut compare`` run by a benchmark, as the command line runs it, with this checkout's
``src`` first on the path.

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "common"))
    from compare_run import run_compare
"""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def run_compare(args: list[str], raw: Path) -> None:
    """``seamcut compare ARGS --json RAW``, its command printed on standard error; the benchmark
    stops where it fails. Exit status 1 (files failed for some strategy: a peer's reader refusing
    a file is a result) still leaves its JSON, which counts."""
    cmd = [sys.executable, "-m", "seamcut.cli", "compare", *args, "--json", str(raw)]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO / "src"), os.environ.get("PYTHONPATH", "")])}
    print("$", " ".join(cmd[1:]), file=sys.stderr)
    done = subprocess.run(cmd, env=env)
    if done.returncode not in (0, 1) or not raw.is_file():
        sys.exit(f"seamcut compare failed ({done.returncode})")
