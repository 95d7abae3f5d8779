"""A write that fails because the disk is full, told apart from other failures.

It comes as an ``OSError`` from Python (ENOSPC; EDQUOT for a quota; EFBIG for a file past the
process's size limit), as a LanceDB error whose message carries the OS error, or as SQLite's
"database or disk is full" (the embedding cache in the index folder).
"""
from __future__ import annotations

import errno
import re
import shutil
from pathlib import Path

from .settings import IndexConfigError

FULL_ERRNOS = {errno.ENOSPC, errno.EFBIG, getattr(errno, "EDQUOT", errno.ENOSPC)}
_FULL_TEXT = re.compile(
    "|".join([rf"os error ({'|'.join(str(n) for n in sorted(FULL_ERRNOS))})\b",
              "no space left on device", "disk quota exceeded", "file too large",
              "database or disk is full"]), re.IGNORECASE)


class DiskFullError(IndexConfigError):
    """The disk (or the quota, or the file size limit) ran out while writing the index; ``str()``
    names the folder, the free space and what was kept. A ValueError, as every error the
    command line reports in one line rather than as a traceback."""


def is_disk_full(exc: BaseException) -> bool:
    """Whether ``exc`` (or an exception it was raised from) says the disk is full."""
    return _full_message(exc) is not None


def _full_message(exc: BaseException) -> str | None:
    """The text of the first exception in ``exc``'s chain that says the disk is full."""
    seen: set[int] = set()
    e: BaseException | None = exc
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, OSError) and e.errno in FULL_ERRNOS:
            return f"{e} (os error {e.errno})"
        if _FULL_TEXT.search(str(e)):
            return str(e)
        e = e.__cause__ or e.__context__
    return None


def what_ran_out(exc: BaseException) -> str:
    """"the disk is full", or what else ran out: the quota, the process's file size limit."""
    text = (_full_message(exc) or "").lower()
    if f"os error {errno.EFBIG}" in text or "file too large" in text:
        return "a file would pass this process's file size limit (ulimit -f)"
    if hasattr(errno, "EDQUOT") and (f"os error {errno.EDQUOT}" in text or "quota" in text):
        return "the disk quota is used up"
    return "the disk is full"


def free_mb(folder: str | Path) -> float:
    """Free space where ``folder`` is, in MB (10^6 bytes); the nearest existing parent's."""
    p = Path(folder)
    while not p.exists() and p != p.parent:
        p = p.parent
    try:
        return shutil.disk_usage(p).free / 1e6
    except OSError:
        return float("nan")


def disk_full(folder: str | Path, exc: BaseException, doing: str, kept: str) -> DiskFullError:
    """The error for ``exc``, a full disk at ``folder`` while ``doing`` (e.g. "writing the
    index"); ``kept``: what the index holds now (e.g. "the index is left as it was before this
    batch")."""
    return DiskFullError(f"{folder}: {what_ran_out(exc)} while {doing} ({free_mb(folder):.1f} MB free); "
                         f"{kept}")
