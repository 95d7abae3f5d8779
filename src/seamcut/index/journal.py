"""What makes a killed build resumable: the documents table is the commit record, and a journal
names the documents of the batch being written.

A batch is written in this order: the journal (its documents' ids and new file hashes), their
``documents`` rows deleted, their old ``chunks`` and ``parents`` rows deleted, the new chunks,
parents, and last the new ``documents`` rows; then the journal is removed. Each table write is
atomic (a LanceDB version), so a process killed at any moment leaves each journalled document
either complete (its ``documents`` row holds the new hash) or without a ``documents`` row; on the
next open ``recover`` deletes whatever the second kind left in the other tables, and the next
build writes them again. Nothing is duplicated and nothing half-written is kept.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Mapping

JOURNAL_FILE = "seamcut-writing.json"


def begin(folder: Path, documents: Mapping[str, str]) -> None:
    """Record the batch about to be written: document id -> its file's new hash."""
    tmp = folder / (JOURNAL_FILE + ".tmp")
    tmp.write_text(json.dumps(dict(documents)), encoding="utf-8")
    with open(tmp, "rb") as fh:
        os.fsync(fh.fileno())
    tmp.replace(folder / JOURNAL_FILE)


def pending(folder: Path) -> dict[str, str]:
    """The batch a killed process was writing (empty when none was)."""
    path = folder / JOURNAL_FILE
    if not path.is_file():
        return {}
    try:
        return dict(json.loads(path.read_text(encoding="utf-8")))
    except (OSError, ValueError):  # torn before its rename: nothing of the batch was written
        return {}


def end(folder: Path) -> None:
    """The batch is written."""
    (folder / JOURNAL_FILE).unlink(missing_ok=True)
