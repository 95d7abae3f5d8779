"""What makes a killed build resumable: the documents table is the commit record, and a journal
names the documents of the batch being written.

A batch is written in this order: the journal (its documents' ids and new file hashes, and the
ids of the versions they replace), their ``documents`` rows deleted, their old ``chunks`` and
``parents`` rows deleted, the new chunks, parents, and last the new ``documents`` rows; then the
journal is removed. Each table write is atomic (a LanceDB version), so a process killed at any
moment leaves each journalled document either complete (its ``documents`` row holds the new hash)
or without a ``documents`` row, and each replaced one either untouched (its ``documents`` row is
still there) or without it; on the next open ``recover`` deletes whatever the kinds without a row
left in the other tables, and the next build writes them again. Nothing is duplicated and nothing
half-written is kept.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Mapping, Sequence

JOURNAL_FILE = "seamcut-writing.json"


@dataclass(frozen=True)
class Batch:
    """A batch being written: ``write`` maps each document id to its file's new hash; ``gone``:
    the ids of the documents they replace (the same ids, mostly)."""
    write: dict[str, str] = field(default_factory=dict)
    gone: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.write or self.gone)


def begin(folder: Path, documents: Mapping[str, str], gone: Sequence[str] = ()) -> None:
    """Record the batch about to be written: document id -> its file's new hash, and the ids of
    the documents it replaces."""
    tmp = folder / (JOURNAL_FILE + ".tmp")
    tmp.write_text(json.dumps({"write": dict(documents), "gone": sorted(set(gone))}), encoding="utf-8")
    with open(tmp, "rb") as fh:
        os.fsync(fh.fileno())
    tmp.replace(folder / JOURNAL_FILE)


def pending(folder: Path) -> Batch:
    """The batch a killed process was writing (empty when none was)."""
    path = folder / JOURNAL_FILE
    if not path.is_file():
        return Batch()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):  # torn before its rename: nothing of the batch was written
        return Batch()
    if "write" not in data:  # written by a seamcut that journalled the new ids only
        return Batch(dict(data))
    return Batch(dict(data["write"]), tuple(data.get("gone", ())))


def end(folder: Path) -> None:
    """The batch is written."""
    (folder / JOURNAL_FILE).unlink(missing_ok=True)
