"""One writer at a time per index folder: an ``flock`` on ``seamcut-lock`` in the folder.

The lock dies with the process that holds it (a ``kill -9`` included), so a stale lock never
blocks. Its holder writes who it is (pid, host, since when) into the file, for the message of a
process that waits for it or gives up. Readers (search) do not take it. Held once per folder per
process (``WriteLock`` is re-entrant there): a second ``flock`` on another descriptor of the same
file in the same process would wait for itself.
"""
from __future__ import annotations

import errno
import fcntl
import json
import os
import shutil
import socket
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from .settings import SETTINGS_FILE, IndexConfigError

LOCK_FILE = "seamcut-lock"


class IndexBusyError(IndexConfigError):
    """Another process is writing the index, and this one would not wait (longer) for it."""


@dataclass(frozen=True)
class Holder:
    """Who holds an index's write lock: process id, host name, and since when (Unix time, s)."""
    pid: int | None
    host: str | None
    since: float | None

    def __str__(self) -> str:
        if self.pid is None:
            return "another process"
        when = ("" if self.since is None else
                datetime.fromtimestamp(self.since, timezone.utc).strftime(" since %Y-%m-%d %H:%M:%S UTC"))
        return f"process {self.pid} on {self.host or 'an unknown host'}{when}"


#: the locks this process holds: folder -> [open lock file, how many ``WriteLock``s hold it]
_HELD: dict[str, list[Any]] = {}
_GUARD = threading.Lock()


class WriteLock:
    """The write lock of the index at ``folder``, as a context manager.

    ``wait``: the most seconds to wait for another writer (None: as long as it takes; 0: not at
    all); past it ``IndexBusyError`` names the holder. ``on_wait`` is called once, with the
    holder, when the lock is taken by another process (to say that this one waits, and for whom).
    """

    def __init__(self, folder: str | Path, wait: float | None = None,
                 on_wait: Callable[[Holder], None] | None = None) -> None:
        self.folder = Path(folder)
        self.wait = wait
        self.on_wait = on_wait
        self._key = str(self.folder.resolve())
        self._mine = False

    @property
    def outermost(self) -> bool:
        """Whether this is the first hold of the folder's lock in this process."""
        with _GUARD:
            return _HELD[self._key][1] == 1

    def acquire(self) -> "WriteLock":
        with _GUARD:
            held = _HELD.get(self._key)
            if held is not None:
                held[1] += 1
                self._mine = True
                return self
        fh = self._take()
        with _GUARD:
            _HELD[self._key] = [fh, 1]
        self._mine = True
        return self

    def release(self) -> None:
        if not self._mine:
            return
        self._mine = False
        with _GUARD:
            held = _HELD[self._key]
            held[1] -= 1
            if held[1]:
                return
            del _HELD[self._key]
        held[0].close()  # closing the descriptor drops the flock

    def __enter__(self) -> "WriteLock":
        return self.acquire()

    def __exit__(self, *exc: Any) -> None:
        self.release()

    def _take(self) -> Any:
        """Open the lock file and flock it, waiting as ``wait`` says; then write our name in it."""
        path = self.folder / LOCK_FILE
        deadline = None if self.wait is None else time.monotonic() + self.wait
        told = False
        while True:
            self.folder.mkdir(parents=True, exist_ok=True)
            fh = open(path, "a+", encoding="utf-8")
            try:
                fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                fh.close()
                if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                    raise
                holder = holder_of(self.folder)
                if deadline is not None and time.monotonic() >= deadline:
                    raise IndexBusyError(self._busy(holder)) from None
                if not told and self.on_wait is not None:
                    self.on_wait(holder)
                    told = True
                time.sleep(0.2 if deadline is None else max(0.0, min(0.2, deadline - time.monotonic())))
                continue
            if _same_file(fh, path):  # not a file a ``remove_index`` took away meanwhile
                break
            fh.close()
        fh.seek(0)
        fh.truncate()
        fh.write(json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "since": time.time()}))
        fh.flush()
        return fh

    def _busy(self, holder: Holder) -> str:
        waited = ("and --wait 0 says not to wait" if not self.wait
                  else f"still, after waiting {self.wait:g} s (--wait)")
        return f"{self.folder}: the index is being updated by {holder}, {waited}; try again when it is done"


def holder_of(folder: str | Path) -> Holder:
    """Who last took the index's write lock, as it wrote itself down (all None: unknown)."""
    try:
        d = json.loads((Path(folder) / LOCK_FILE).read_text(encoding="utf-8"))
        return Holder(int(d["pid"]), str(d["host"]), float(d["since"]))
    except (OSError, ValueError, KeyError, TypeError):
        return Holder(None, None, None)


def _same_file(fh: Any, path: Path) -> bool:
    try:
        return os.fstat(fh.fileno()).st_ino == os.stat(path).st_ino
    except FileNotFoundError:
        return False


def remove_index(path: str | Path, wait: float | None = None) -> None:
    """Delete an index folder (``--rebuild``): only if it holds a seamcut index, and under its
    write lock (``wait``: as ``lock.WriteLock``'s). The settings file goes last, so a removal
    stopped half-way is still a seamcut index, which the next ``--rebuild`` finishes removing;
    the lock file just before the lock is let go (a process waiting on it then makes a new one)."""
    p = Path(path)
    if (p / SETTINGS_FILE).is_file():
        with WriteLock(p, wait):
            for child in p.iterdir():
                if child.name in (LOCK_FILE, SETTINGS_FILE):
                    continue
                if child.is_dir() and not child.is_symlink():
                    shutil.rmtree(child)
                else:
                    child.unlink()
            (p / SETTINGS_FILE).unlink()
            (p / LOCK_FILE).unlink()
            p.rmdir()
    elif p.exists() and any(c.name != LOCK_FILE for c in p.iterdir()):
        raise IndexConfigError(f"{p}: not a seamcut index folder; not deleting it")
