"""One progress bar for long work (reading files, embedding, searching): rich, on stderr."""
from __future__ import annotations

from typing import Any, Self

#: seconds between two lines where stderr is not a terminal (a bar's own ``every`` aside)
EVERY = 5.0

#: the time left is shown only once it means something: when at least this many items (files,
#: steps, batches) have ended, at the rate of those after the first, timed from when the first
#: ended. The first item carries the start-up (worker processes started, the model loaded,
#: caches warmed), which the others do not repeat: timed from the start, a build's first file of
#: ten said "ETA 22:39", and the build was done 17 s later. Two items of steady work after it are
#: the least a rate can be read from.
MIN_DONE = 3


class Pace:
    """How many items have ended, and when the first one did with how much work done by then:
    the time left by ``MIN_DONE``'s rule. Work is counted in a bar's own unit (bytes, steps);
    times are seconds of the bar's clock."""

    def __init__(self) -> None:
        self.items = 0
        self.first_at: float | None = None
        self.first_work = 0.0

    def ended(self, now: float, work: float) -> None:
        """An item ended at ``now``, with ``work`` units done in all."""
        self.items += 1
        if self.first_at is None:
            self.first_at, self.first_work = now, work

    def left(self, now: float, work: float, total: float) -> float | None:
        """Seconds until ``total`` units are done, ``work`` being done at ``now``, at the rate
        since the first item ended; None until ``MIN_DONE`` items have ended (or while no time
        or no work has passed since the first)."""
        if self.items < MIN_DONE or self.first_at is None:
            return None
        seconds, done = now - self.first_at, work - self.first_work
        if seconds <= 0 or done <= 0:
            return None
        return max(0.0, total - work) * seconds / done


class _Bar:
    """A progress display on stderr: on a terminal a live rich bar of ``total`` steps with the
    ``columns`` a subclass names; elsewhere (a log file, CI, a pipe) ``log()`` every ``every``
    seconds from a daemon thread, whether or not anything moved meanwhile, so a long run is never
    silent. ``ticked``: the lines the thread has written. Nothing is shown where ``show`` is false."""
    ticked: int = 0
    _ticker: Any = None

    def __init__(self, total: int, label: str, show: bool, every: float | None,
                 terminal: bool | None) -> None:
        import sys
        import time
        self.total, self.label, self.show = total, label, show
        self.every = EVERY if every is None else every
        self.terminal = sys.stderr.isatty() if terminal is None else terminal
        self._clock = time.monotonic
        self.started = self._clock()
        self._bar: Any = None
        self.pace = Pace()

    def _columns(self) -> tuple[Any, ...]:
        """The rich columns after the description, the bar and ``done/total``."""
        raise NotImplementedError

    def __enter__(self) -> Self:
        if self.show and not self.terminal:
            self._start_ticking()
        elif self.show:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

            self._bar = Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                 *self._columns(), console=Console(stderr=True), transient=True)
            self._bar.__enter__()
            self._task = self._bar.add_task(self.label, total=self.total, rates="")
        return self

    def __exit__(self, *exc: Any) -> None:
        self._stop_ticking()
        if self._bar is not None:
            self._bar.__exit__(*exc)

    def _start_ticking(self) -> None:
        import threading
        self._quit = threading.Event()
        self._ticker = threading.Thread(target=self._tick, daemon=True, name="seamcut-progress")
        self._ticker.start()

    def _tick(self) -> None:
        while not self._quit.wait(self.every):
            self.log()
            self.ticked += 1

    def _stop_ticking(self) -> None:
        if self._ticker is not None:
            self._quit.set()
            self._ticker.join()
            self._ticker = None

    def log(self) -> None:
        raise NotImplementedError


class Steps(_Bar):
    """A context manager for a progress bar of ``total`` steps on stderr; nothing is drawn when
    ``show`` is false or there are no steps. ``advance(n, label)`` moves it ``n`` steps and may
    change the text in front of it. Off a terminal, a line every ``every`` seconds instead."""

    def __init__(self, total: int, label: str, show: bool = True, every: float | None = None,
                 terminal: bool | None = None) -> None:
        # a single step is drawn too: one long step (a tune's last round, one chunking over the whole
        # corpus) is where a silent half hour looks like a hang
        super().__init__(total, label, show and total > 0, every, terminal)
        self.done, self.text = 0, label

    def _columns(self) -> tuple[Any, ...]:
        from rich.progress import ProgressColumn, TimeElapsedColumn
        from rich.text import Text

        bar = self

        class Left(ProgressColumn):
            """The time left by ``MIN_DONE``'s rule (rich's own guesses from the second step)."""

            def render(self, task: Any) -> Text:
                left = bar.left()
                return Text("-:--" if left is None else _clock_text(left), style="progress.remaining")
        return TimeElapsedColumn(), Left()

    def advance(self, n: int = 1, label: str | None = None) -> None:
        self.done += n
        self.pace.ended(self._clock(), self.done)
        self.text = f"{self.label} {label}" if label else self.label
        if self._bar is not None:
            self._bar.update(self._task, advance=n, description=self.text)

    def left(self) -> float | None:
        """Seconds left (None until ``MIN_DONE`` advances: not yet known)."""
        return self.pace.left(self._clock(), self.done, self.total)

    def log(self) -> None:
        """One line on stderr: the steps done, the time taken and, once known, the time left."""
        import sys
        elapsed = self._clock() - self.started
        left = self.left()
        eta = f", ETA {_clock_text(left)}" if left is not None else ""
        print(f"{self.text}: {self.done:,}/{self.total:,}, {_clock_text(elapsed)} elapsed{eta}",
              file=sys.stderr, flush=True)

    def __exit__(self, *exc: Any) -> None:
        self._stop_ticking()
        if self.ticked:  # a long one says where it ended: the 9k tune's log stopped at round 4's
            self.log()   # "1/2", read as a hang in its second build (round 4 had just ended)
        super().__exit__(*exc)


class Throughput(_Bar):
    """Progress of a long build over ``files`` files of ``size`` bytes in all: files done, pages
    and model tokens per second, failures, and the time left (from the bytes done: a file's size
    says more about its work than its count does; shown by ``MIN_DONE``'s rule).

    On a terminal it is a live bar on stderr; elsewhere (a log file, CI, a pipe) it writes one
    line to stderr every ``every`` seconds, whether or not a file ended meanwhile, so a run
    without a terminal is never silent for long."""

    def __init__(self, files: int, size: int, label: str = "indexing", show: bool = True,
                 every: float | None = None, terminal: bool | None = None) -> None:
        super().__init__(files, label, show, every, terminal)
        self.files, self.size = files, max(1, size)
        self.done = self.bytes = self.pages = self.tokens = self.failed = 0

    def _columns(self) -> tuple[Any, ...]:
        from rich.progress import TextColumn
        return (TextColumn("{task.fields[rates]}"),)

    def advance(self, size: int = 0, pages: int = 0, tokens: int = 0, failed: bool = False,
                unchanged: bool = False) -> None:
        """One file done: its bytes, pages and tokens (embedded), or failed; ``unchanged``: one
        the index already holds, which took no work, so its bytes leave the time left's sums
        (a resumed run would otherwise count them as done in no time and promise too soon)."""
        self.done += 1
        if unchanged:
            self.size = max(1, self.size - size)
            size = 0
        self.bytes += size
        self.pages += pages
        self.tokens += tokens
        self.failed += failed
        if not unchanged:  # a file that took work: one item of the time left's rule
            self.pace.ended(self._clock(), self.bytes)
        if self._bar is not None:
            self._bar.update(self._task, advance=1, rates=self.rates())

    def elapsed(self) -> float:
        return self._clock() - self.started

    def eta(self) -> float | None:
        """Seconds left, from the bytes done since the first file that took work ended (None
        until ``MIN_DONE`` such files have: not yet known)."""
        return self.pace.left(self._clock(), self.bytes, self.size)

    def rates(self) -> str:
        t = max(self.elapsed(), 1e-9)
        eta = self.eta()
        left = "?" if eta is None else _clock_text(eta)
        failed = f", {self.failed} failed" if self.failed else ""
        return (f"{self.pages:,} pages ({self.pages / t:.1f}/s), {self.tokens:,} tokens "
                f"({self.tokens / t:,.0f}/s){failed}, {_clock_text(self.elapsed())} elapsed, ETA {left}")

    def log(self) -> None:
        """One line on stderr: files done, pages and tokens with their rates, time left."""
        import sys
        print(f"{self.label}: {self.done:,}/{self.files:,} files, {self.rates()}", file=sys.stderr,
              flush=True)



def _clock_text(seconds: float) -> str:
    s = int(round(seconds))
    return f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"
