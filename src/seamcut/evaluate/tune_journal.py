"""A tune's record of its own cost, kept in its folder, so that a search stopped before its end
(killed, the machine gone) is resumed by the next run with what it had spent carried on.

The indexes a stopped search built stay in its folder and the vectors in the embedding cache, so
the next run of the same search finds them and computes nothing twice; but then it would report
only what it computed itself. The journal keeps, per piece of work (one chunking's build and
searches in one round), the model tokens embedded and the wall-clock seconds, written after
every batch of vectors computed, and the run's seconds. A run of the same search (same ``key``)
that finds an unfinished journal adds those figures to its own; a finished journal, or one of
another search, is started again (a second run of a finished search costs what it does).

A piece finished also leaves its results (``done(..., results=)``: what the search needs of it
to go on, as plain data), so that a search whose folder is lost but for the journal (the
machine gone, the journal copied to the next one) takes its finished pieces from it instead of
building them again (``result``).
"""
from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: the journal's file name in the tune's folder
FILE = "seamcut-tune.json"


@dataclass
class Spent:
    """Work spent on one piece: the model's tokens embedded and wall-clock seconds."""
    tokens: int = 0
    seconds: float = 0.0


class Journal:
    """The cost of one search across its runs (see the module's docstring). ``runs``: this run's
    number (1: a fresh search)."""

    def __init__(self, folder: Path, key: str) -> None:
        self.path = Path(folder) / FILE
        self.key = key
        self._lock = threading.Lock()
        self._started = time.perf_counter()
        old = self._load()
        resumed = old is not None and old.get("key") == key and not old.get("finished")
        self.runs = int(old["runs"]) + 1 if resumed else 1
        self._earlier_seconds = float(old["seconds"]) if resumed else 0.0
        self.earlier: dict[str, Spent] = ({k: Spent(int(v["tokens"]), float(v["seconds"]))
                                           for k, v in old["pieces"].items()} if resumed else {})
        self.pieces: dict[str, Spent] = {k: Spent(v.tokens, v.seconds) for k, v in self.earlier.items()}
        #: piece -> the results it left when it was finished (earlier runs' too)
        self.results: dict[str, Any] = dict(old.get("results") or {}) if resumed else {}
        self._piece: tuple[str, int, float] | None = None  # (key, tokens at its start, clock at its start)
        self._write(finished=False)

    def _load(self) -> dict[str, Any] | None:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        return data if isinstance(data, dict) and isinstance(data.get("pieces"), dict) else None

    @property
    def earlier_tokens(self) -> int:
        """Tokens the earlier runs of this search embedded."""
        return sum(s.tokens for s in self.earlier.values())

    @property
    def earlier_seconds(self) -> float:
        """Wall-clock seconds the earlier runs of this search took (to their last record)."""
        return self._earlier_seconds

    def carried(self, piece: str) -> Spent:
        """What the earlier runs spent on ``piece`` (nothing where they did not reach it)."""
        return self.earlier.get(piece, Spent())

    def start(self, piece: str, tokens: int) -> None:
        """``piece`` begins, the run's token counter at ``tokens``."""
        with self._lock:
            self._piece = (piece, tokens, time.perf_counter())

    def progress(self, tokens: int) -> None:
        """The run's token counter is at ``tokens`` now: the current piece's work so far is
        recorded (called after every batch of vectors computed, so a kill loses at most one)."""
        with self._lock:
            if self._piece is None:
                return
            piece, tokens0, clock0 = self._piece
            before = self.carried(piece)
            self.pieces[piece] = Spent(before.tokens + tokens - tokens0,
                                       before.seconds + time.perf_counter() - clock0)
            self._write(finished=False)

    def done(self, tokens: int, results: Any = None) -> Spent:
        """The current piece is over (the run's counter at ``tokens``), leaving ``results``
        (plain data; None: none kept): its whole cost, the earlier runs' included."""
        with self._lock:
            assert self._piece is not None
            if results is not None:
                self.results[self._piece[0]] = results
        self.progress(tokens)
        with self._lock:
            assert self._piece is not None
            spent = self.pieces.get(self._piece[0], Spent())
            self._piece = None
            return spent

    def result(self, piece: str) -> Any:
        """The results ``piece`` left when an earlier run finished it (None: none)."""
        return self.results.get(piece)

    def finish(self) -> None:
        """The search ended: the next run of it starts afresh."""
        with self._lock:
            self._write(finished=True)

    def _write(self, finished: bool) -> None:
        data = {"key": self.key, "finished": finished, "runs": self.runs,
                "seconds": round(self._earlier_seconds + time.perf_counter() - self._started, 3),
                "pieces": {k: {"tokens": v.tokens, "seconds": round(v.seconds, 3)} for k, v in self.pieces.items()},
                "results": self.results}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, self.path)  # a kill leaves the old record or the new, never half of one
