"""The build on this machine (``LocalEngine``): files read and cut in isolated worker processes,
their chunks embedded and written by threads of this process, the stages running at once.

    files --> [worker processes: read, cut] --> [embed threads] --> [write thread] --> index
                 one per core; each file under       the model's        batches, each safe
                 a timeout and a memory cap          worker processes    to kill (journal)

* Reading and cutting run in ``processes.IsolatedPool`` (a fork server, never a fork): a file that
  hangs or blows up is killed with its worker, named in the report, and the run goes on.
* The queues between stages are bounded, so a slow stage holds the ones before it back rather
  than letting documents pile up: memory stays flat whatever the collection's size.
"""
from __future__ import annotations

import queue
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, ClassVar, Iterator, Sequence

from ..embed import PooledEmbedder
from ..errors import ConfigError
from ..index import Index
from ..index.batch import Cut
from ..runtime.processes import IsolatedPool, usable_cpus
from ..runtime.progress import Throughput
from ..strategies.spec import StrategySpec
from .corpus import Failure, Limits, failed, read_jobs
from .jobs import CutFile, CutJob
from .options import BuildOptions
from .report import BuildReport
from .stages import account_read, begin, cut_file, embed_batch, file_size, finish_text_index, wrap_up, written


def cutting_pool(limits: Limits, files: int) -> IsolatedPool:
    """Reading-and-cutting workers for builds of up to ``files`` files under ``limits``, to open
    with ``with`` and share across a series of builds (``LocalEngine.series``)."""
    workers = limits.workers if limits.workers is not None else max(1, min(usable_cpus(), files))
    return replace(limits, workers=workers).pool(cut_file, files)


@dataclass(frozen=True)
class LocalEngine:
    """Builds on this machine's processes. ``pool``: the reading-and-cutting workers a series of
    builds shares (``series`` opens them); None: each build starts its own, as its
    ``BuildOptions.limits`` say, and stops them at its end."""
    pool: IsolatedPool | None = None
    name: ClassVar[str] = "local"

    def check(self) -> None:
        """Nothing to check: the local engine runs wherever seamcut does."""

    @contextmanager
    def series(self, limits: Limits, files: int) -> Iterator["LocalEngine"]:
        """This engine with reading workers for builds of up to ``files`` files under ``limits``,
        started once for all of them and stopped at the block's end (kept: a pool given)."""
        if self.pool is not None:
            yield self
            return
        with cutting_pool(limits, files) as pool:
            yield LocalEngine(pool)

    def build(self, index: Index, paths: Sequence[str | Path], spec: StrategySpec,
              how: BuildOptions) -> BuildReport:
        """``build_index``'s work here (the caller holds ``index``'s write lock)."""
        return _LocalRun(index, how).run(paths, spec, self.pool)


class _LocalRun:
    """One build's state: its report, progress bar and the queues between its stages."""

    def __init__(self, index: Index, how: BuildOptions) -> None:
        self.t_start = time.perf_counter()
        self.index, self.how = index, how
        self.report, self.earlier = begin(index)
        self.lock = threading.Lock()

    def run(self, paths: Sequence[str | Path], spec: StrategySpec, pool: IsolatedPool | None) -> BuildReport:
        index, how, report = self.index, self.how, self.report
        self.known = index.known_hashes()
        jobs = [CutJob(j, spec) for j in read_jobs(paths, how.read_options, how.catalog, how.cache, self.known)]
        self.embedder = index.embedder  # loaded (and checked) before any file is read
        index.settings.check_embedder(index.path, self.embedder.name)
        pool = pool or cutting_pool(how.limits, len(jobs))
        self.to_embed: "queue.Queue[Any]" = queue.Queue(maxsize=max(4, 2 * pool.workers))
        self.to_write: "queue.Queue[Any]" = queue.Queue(maxsize=2)
        size = sum(file_size(j.read.path) for j in jobs)
        self.bar = Throughput(len(jobs), size, label=how.label, show=how.progress, terminal=how.terminal)
        self.writer = _Worker("write", self.write, self.to_write)
        spread = _Spread(self.embedder)
        self.embedders = [_Worker(f"embed-{i}", self.embed, self.to_embed) for i in range(spread.threads)]
        self.before = getattr(self.embedder, "computed", None)
        self.worker_cpu = self.embedder.worker_cpu_seconds()
        report.cores = usable_cpus()
        with self.bar, spread:
            self.writer.start()
            for w in self.embedders:
                w.start()
            try:
                self.read_and_cut(pool, jobs)
            finally:
                for w in (*self.embedders, self.writer):
                    w.stop.set()
            finish_text_index(index, report)
        return wrap_up(index, self.so_far(), self.earlier, self.bar, how.progress)

    def read_and_cut(self, pool: IsolatedPool, jobs: list[CutJob]) -> None:
        """Every job through the reading workers, each file cut handed to the embedding threads;
        returns once every batch is written."""
        for job, got in pool.run(jobs):
            if isinstance(got, ConfigError):
                raise got  # the spec is wrong for every file (``cut_file``): the build stops
            path = job.read.path
            if not isinstance(got, CutFile):
                reason = failed(job.read, got).failure.reason  # type: ignore[arg-type, union-attr]
                self.fail(path, reason, file_size(path))
                continue
            account_read(self.report, got)
            if got.read.unchanged:
                with self.lock:
                    self.report.unchanged.append(path)
                    self.bar.advance(got.size, unchanged=True)
            elif got.read.document is None:
                self.fail(path, got.read.failure.reason if got.read.failure else "not read", got.size)
            else:
                _put(self.to_embed, got, self.embedders)
        _put(self.to_embed, None, self.embedders)
        for w in self.embedders:
            w.join()
            if w.error is not None:
                raise w.error
        _put(self.to_write, None, [self.writer])
        self.writer.join()
        if self.writer.error is not None:
            raise self.writer.error

    def so_far(self) -> BuildReport:
        """The build's report as it stands (with the stopped runs' work it carries on)."""
        report, embedder = self.report, self.embedder
        now = replace(report, seconds=time.perf_counter() - self.t_start,
                      stages={n: replace(st) for n, st in report.stages.items()})
        now.stage("embed").cpu += embedder.worker_cpu_seconds() - self.worker_cpu
        now.embedded = now.chunks if self.before is None else embedder.computed - self.before
        return now if self.earlier is None else now.merged(self.earlier)

    def fail(self, path: str, reason: str, size: int) -> None:
        with self.lock:
            self.report.failures.append(Failure(path, reason if reason.startswith(path) else f"{path}: {reason}"))
            self.bar.advance(size, failed=True)

    def embed(self, first: CutFile) -> None:
        """An embedding thread's step: ``first`` and the files queued behind it, up to
        ``batch_texts`` chunks, embedded in one call and handed to the writer."""
        batch = [first]
        while sum(len(f.chunks) for f in batch) < self.how.batch_texts:
            try:
                more = self.to_embed.get(timeout=0.05)
            except queue.Empty:
                break
            if more is None:
                self.to_embed.put(None)  # seen again by the thread's loop, which then ends
                break
            batch.append(more)
        t0, c0 = time.perf_counter(), time.thread_time()
        cuts = embed_batch(self.index, batch, self.fail)
        with self.lock:
            stage = self.report.stage("embed")
            stage.busy += time.perf_counter() - t0
            stage.cpu += time.thread_time() - c0
            stage.items += sum(len(c.searchable) for c, _ in cuts)
            stage.tokens += sum(f.tokens for _, f in cuts)
        if cuts:
            _put(self.to_write, cuts, [self.writer])

    def write(self, cuts: list[tuple[Cut, CutFile]]) -> None:
        """The writing thread's step: one batch written to the index, then counted."""
        t0, c0 = time.perf_counter(), time.thread_time()
        self.index.write([c for c, _ in cuts])
        stage = self.report.stage("write")
        stage.busy += time.perf_counter() - t0
        stage.cpu += time.thread_time() - c0
        with self.lock:
            written(self.index, self.report, cuts, self.known, self.bar, self.so_far)


class _Worker(threading.Thread):
    """A stage's thread: takes items from ``inbox`` until ``None``; an exception is kept for the
    main thread, which checks ``error`` whenever it waits on the stage."""

    def __init__(self, name: str, step: Callable[[Any], None], inbox: "queue.Queue[Any]") -> None:
        super().__init__(name=f"seamcut-{name}", daemon=True)
        self.step, self.inbox, self.error = step, inbox, None
        self.stop = threading.Event()

    def run(self) -> None:
        try:
            while not self.stop.is_set():
                item = self.inbox.get()
                if item is None:
                    self.inbox.put(None)  # for the stage's other threads
                    return
                self.step(item)
        except BaseException as exc:  # handed to the main thread
            self.error = exc
            self.stop.set()


def _put(q: "queue.Queue[Any]", item: Any, workers: Sequence[_Worker]) -> None:
    """Put ``item`` for a stage's ``workers``, waiting while its queue is full, unless one of
    them has failed."""
    while True:
        for worker in workers:
            if worker.error is not None:
                raise worker.error
        try:
            q.put(item, timeout=0.2)
            return
        except queue.Full:
            continue


class _Spread:
    """While a build runs, the bundled model embeds every call in its worker processes (it
    embeds calls under 256 texts in this process otherwise) and ``threads`` calls run at once,
    one per model worker, so the workers always have a batch waiting; other embedders get
    ``calls_at_once`` calls at a time (the torch model on a GPU: 2, so one call's tokens and
    batches are made while the GPU runs the other's)."""

    def __init__(self, embedder: Any) -> None:
        inner = getattr(embedder, "inner", embedder)
        self.e5 = inner if isinstance(inner, PooledEmbedder) and inner.workers > 1 else None
        self.threads = (self.e5.workers if self.e5 is not None
                        else max(1, int(getattr(inner, "calls_at_once", 1))))

    def __enter__(self) -> "_Spread":
        if self.e5 is not None:  # and no bar of its own: the build's line says it all
            self._was = self.e5.parallel_min, self.e5.progress
            self.e5.parallel_min, self.e5.progress = 0, False
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.e5 is not None:
            self.e5.parallel_min, self.e5.progress = self._was
