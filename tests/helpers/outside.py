"""The tests read nothing beside the repository (issue 51): a user's clone has nothing beside it, so a
test that reads a file there passes in CI and fails on the user's machine.

An audit hook (PEP 578) sees every ``open``, folder listing and child process of a test process.
What a test opens or lists, or hands a child process as a path, is *outside* where it lies in
the folders around the repository (its parent folder and below, where the project's data lies)
and neither in the repository nor in the system's temporary folder: where data would be read
from by mistake. Installed software (the virtual environment, Python, ``/usr``, ``/etc``, ``/proc``) and
the home folder (fonts, libraries' settings) are not the tests' data and are not watched.
``tests/conftest.py`` fails the test during which an outside path was touched (an error at its
teardown, naming the paths).

The hook sees this process only: a child process's own reads are seen where the test hands it
the path (its arguments and working folder), which is how the tests give one.
"""
from __future__ import annotations

import os
import site
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

_EVENTS = ("open", "os.listdir", "os.scandir", "subprocess.Popen")


def _real(path: str) -> str:
    return os.path.realpath(path)


class OutsideReads:
    """Paths a test touched outside the repository and the temporary folder, in the folders
    ``watched`` (by default the repository's parent folder)."""

    def __init__(self, root: Path, watched: tuple[Path, ...] | None = None,
                 allowed: tuple[Path, ...] | None = None) -> None:
        root = Path(_real(str(root)))
        if watched is None:
            watched = (root.parent,)
        if allowed is None:
            allowed = (root, Path(tempfile.gettempdir()))
        # installed software is never data: Python and its environment, wherever they live
        software = {sys.prefix, sys.exec_prefix, sys.base_prefix, sys.base_exec_prefix,
                    *site.getsitepackages(), site.getusersitepackages()}
        self._allowed = tuple(_real(str(p)) for p in (*allowed, *sorted(software)))
        # the file system's root is too high to watch (a clone at /main): only folders below it
        self._watched = tuple(w for w in (_real(str(p)) for p in watched) if w != os.sep)
        self._found: list[str] = []
        self._lock = threading.Lock()
        self._inside = threading.local()

    def is_outside(self, path: str) -> bool:
        """Whether ``path`` (absolute, or relative to this process's working folder) lies in a
        watched folder and in no allowed one."""
        p = _real(path)
        under = [w for w in self._watched if p == w or p.startswith(w.rstrip(os.sep) + os.sep)]
        if not under:
            return False
        return not any(p == a or p.startswith(a.rstrip(os.sep) + os.sep) for a in self._allowed)

    def hook(self, event: str, args: tuple[Any, ...]) -> None:
        """The audit hook: record an outside path of an ``open``, a listing or a child process."""
        if event not in _EVENTS or getattr(self._inside, "busy", False):
            return
        self._inside.busy = True  # realpath may itself raise audit events
        try:
            for path in self._paths(event, args):
                if self.is_outside(path):
                    with self._lock:
                        self._found.append(f"{event} {path}")
        finally:
            self._inside.busy = False

    @staticmethod
    def _paths(event: str, args: tuple[Any, ...]) -> list[str]:
        if event == "subprocess.Popen":
            _executable, argv, cwd, _env = args
            cwd = os.fsdecode(cwd) if isinstance(cwd, (str, bytes, os.PathLike)) else os.getcwd()
            argv = [argv] if isinstance(argv, (str, bytes, os.PathLike)) else list(argv or ())
            out = [cwd]
            for a in argv[1:]:
                if isinstance(a, (str, bytes, os.PathLike)):
                    a = os.fsdecode(a)
                    if os.sep in a and "\n" not in a and len(a) < 4096:
                        out.append(os.path.join(cwd, a))
            return out
        path = args[0] if args else None
        if isinstance(path, (str, bytes, os.PathLike)):
            return [os.fsdecode(path)]
        return []

    def take(self) -> list[str]:
        """The outside paths recorded since the last call, in order, each once."""
        with self._lock:
            found, self._found = self._found, []
        return list(dict.fromkeys(found))


#: this test process's guard; ``tests/conftest.py`` installs its hook
GUARD = OutsideReads(Path(__file__).resolve().parents[2])
