"""The one build loop (``run_stages``): every file or document read, cut, embedded and written
into an index, and counted, whichever engine schedules the work.

    [Stages.cut: read, cut] --> Run.took --> [Stages.embed] --> Run.write --> index
     where the engine says       unchanged,    where the engine     this process, under
     (workers, Ray, here)        failed, kept  says; Run.embed      the write lock

An engine says only where reading, cutting and embedding happen (``Stages``): ``LocalEngine``
in worker processes and embedding threads, ``RayEngine`` in Ray tasks and actors, ``Here`` in
this process for documents already in memory. The bookkeeping (what was unchanged, failed,
added or replaced; each stage's work; the report saved after each batch, so that a stopped
build's next run carries it on) is ``Run``'s, written once. How a document is cut comes through
one door, ``jobs.Cutting``: a strategy (``StrategySpec``), or chunks already made (``Made``).
"""
from __future__ import annotations

import threading
import time
from contextlib import AbstractContextManager
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Callable, Iterator, Protocol

from ..ground.progress import Throughput
from .corpus import Failure
from .jobs import CutFile
from .options import BuildOptions
from .report import BuildReport
from ..index.batch import Cut
from .stages import Embedding, account_read, begin, embed_batch, finish_text_index, wrap_up, written

if TYPE_CHECKING:
    from ..index import Index


class Stages(Protocol):
    """Where one run's reading, cutting and embedding happen (an engine's, for one build)."""

    def cut(self) -> Iterator[CutFile]:
        """Every file (document) read and cut, as it comes (a failed one too: ``CutFile.read``)."""

    def embed(self, got: CutFile) -> None:
        """A cut file handed on to be embedded; each batch embedded goes to ``Run.write``."""

    def drain(self) -> None:
        """Once every file was handed on: returns when every batch is written."""


class Run:
    """One build's bookkeeping: its report (the stopped runs' work it carries on: ``earlier``),
    the index's known files, its progress bar; what every engine counts, written once."""

    def __init__(self, index: "Index", how: BuildOptions) -> None:
        self.t_start = time.perf_counter()
        self.index, self.how = index, how
        self.report, self.earlier = begin(index)
        self.known = index.known_hashes()
        self.lock = threading.Lock()
        self.bar = Throughput(0, 0, show=False)
        self.embedder: Any = None
        self.before: int | None = None
        self.worker_cpu = 0.0

    def model(self, here: bool = True) -> Any:
        """The index's embedder, loaded and checked before any file is read; ``here``: it
        embeds in this process (its counts of texts embedded and CPU seconds are the run's;
        else, on Ray's actors, every chunk counts as embedded)."""
        embedder = self.index.embedder
        self.index.settings.check_embedder(self.index.path, embedder.name)
        if here:
            self.embedder = embedder
            self.before = getattr(embedder, "computed", None)
            self.worker_cpu = embedder.worker_cpu_seconds()
        return embedder

    def count(self, files: int, size: int, cores: int) -> None:
        """The run's ``files`` of ``size`` bytes in all, on ``cores``: its progress bar."""
        how = self.how
        self.report.cores = cores
        self.bar = Throughput(files, size, label=how.label, show=how.progress, terminal=how.terminal)

    def took(self, got: CutFile) -> bool:
        """A file read and cut, counted: True where it is to be embedded and written (False:
        unchanged since it was indexed, or failed). A ``ConfigError`` it carries stops the run."""
        if got.stop is not None:
            raise got.stop  # the spec is wrong for every file: the build stops
        path = got.read.path
        account_read(self.report, got)  # the reading and cutting stages: this thread's only
        with self.lock:
            if got.read.unchanged:
                self.report.unchanged.append(path)
                self.bar.advance(got.size, unchanged=True)
                return False
        if got.read.document is None:
            self.failed(got.read.failure or Failure(path, "not read"), got.size)
            return False
        return True

    def fail(self, path: str, reason: str, size: int) -> None:
        """The file at ``path`` failed (``reason``, naming it or not), counted."""
        self.failed(Failure(path, reason), size)

    def failed(self, failure: Failure, size: int) -> None:
        """``failure`` counted, its reason made to name its file."""
        path, reason = failure.path, failure.reason
        if not reason.startswith(path):
            failure = Failure(path, f"{path}: {reason}")
        with self.lock:
            self.report.failures.append(failure)
            self.bar.advance(size, failed=True)

    def embed(self, batch: list[CutFile], embedding: Embedding) -> list[tuple[Cut, CutFile]]:
        """``batch`` embedded in one call by ``embedding`` (the index) in this thread, counted;
        a file with a chunk over the model's input fails alone."""
        t0, c0 = time.perf_counter(), time.thread_time()
        cuts = embed_batch(embedding, batch, self.fail)
        self.embedded(cuts, time.perf_counter() - t0, time.thread_time() - c0)
        return cuts

    def embedded(self, cuts: list[tuple[Cut, CutFile]], busy: float, cpu: float) -> None:
        """``cuts`` were embedded, in ``busy`` seconds and ``cpu`` CPU seconds: counted."""
        with self.lock:
            stage = self.report.stage("embed")
            stage.busy += busy
            stage.cpu += cpu
            stage.items += sum(len(c.searchable) for c, _ in cuts)
            stage.tokens += sum(f.tokens for _, f in cuts)

    def write(self, cuts: list[tuple[Cut, CutFile]]) -> None:
        """One batch written to the index, then counted and the report so far saved."""
        t0, c0 = time.perf_counter(), time.thread_time()
        self.index.write([c for c, _ in cuts])
        stage = self.report.stage("write")
        stage.busy += time.perf_counter() - t0
        stage.cpu += time.thread_time() - c0
        with self.lock:
            written(self.index, self.report, cuts, self.known, self.bar, self.so_far)

    def so_far(self) -> BuildReport:
        """The build's report as it stands (with the stopped runs' work it carries on)."""
        report, embedder = self.report, self.embedder
        now = replace(report, seconds=time.perf_counter() - self.t_start,
                      stages={n: replace(st) for n, st in report.stages.items()})
        if embedder is not None:
            now.stage("embed").cpu += embedder.worker_cpu_seconds() - self.worker_cpu
        now.embedded = now.chunks if self.before is None else embedder.computed - self.before
        return now if self.earlier is None else now.merged(self.earlier)


class Batches:
    """Cut files gathered until ``full`` says so, then embedded (``embed``: where, and counted)
    and written: the batching of the engines that embed one batch at a time in this process's
    loop (``Here``; ``RayEngine``, whose files come embedded)."""

    def __init__(self, run: Run, full: Callable[[list[CutFile]], bool],
                 embed: Callable[[list[CutFile]], list[tuple[Cut, CutFile]]]) -> None:
        self.run, self.full, self.embed_batch = run, full, embed
        self.pending: list[CutFile] = []

    def embed(self, got: CutFile) -> None:
        self.pending.append(got)
        if self.full(self.pending):
            self.drain()

    def drain(self) -> None:
        if self.pending:
            cuts = self.embed_batch(self.pending)
            self.pending = []
            if cuts:
                self.run.write(cuts)


def run_stages(index: "Index", how: BuildOptions,
               start: Callable[[Run], AbstractContextManager[Stages]]) -> BuildReport:
    """The one build loop: ``start(run)`` says where the stages run (and stops them at the
    end); every file it reads and cuts counted, the others embedded and written, the text index
    brought up to date, the report saved (the caller holds ``index``'s write lock)."""
    run = Run(index, how)
    with start(run) as stages, run.bar:
        for got in stages.cut():
            if run.took(got):
                stages.embed(got)
        stages.drain()
        finish_text_index(index, run.report)
    return wrap_up(index, run.so_far(), run.earlier, run.bar, how.progress)
