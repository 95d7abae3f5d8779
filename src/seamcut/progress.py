"""One progress bar for long work (reading files, embedding, searching): rich, on stderr."""
from __future__ import annotations

from typing import Any


class Steps:
    """A context manager for a progress bar of ``total`` steps on stderr; nothing is drawn when
    ``show`` is false or there is a single step. ``advance(n, label)`` moves it ``n`` steps and
    may change the text in front of it."""

    def __init__(self, total: int, label: str, show: bool = True) -> None:
        self.total, self.label, self.show = total, label, show and total > 1
        self._bar: Any = None

    def __enter__(self) -> "Steps":
        if self.show:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)

            self._bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 TimeElapsedColumn(), TimeRemainingColumn(),
                                 console=Console(stderr=True), transient=True)
            self._bar.__enter__()
            self._task = self._bar.add_task(self.label, total=self.total)
        return self

    def advance(self, n: int = 1, label: str | None = None) -> None:
        if self._bar is not None:
            description = f"{self.label} {label}" if label else self.label
            self._bar.update(self._task, advance=n, description=description)

    def __exit__(self, *exc: Any) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)
