"""The ``seamcut`` command run as a user runs it: a child process, its output captured."""
from __future__ import annotations

import os
import subprocess
import sys


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """``seamcut *args`` with ``env`` over this process's environment (wide columns; 600 s at most)."""
    return subprocess.run([sys.executable, "-m", "seamcut.cli", *args], capture_output=True, text=True,
                          timeout=600, env={**os.environ, "COLUMNS": "250", **(env or {})})
