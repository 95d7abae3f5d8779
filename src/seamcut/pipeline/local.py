"""The build on this machine (``LocalEngine``): the one loop (``seamcut.pipeline.flow``), files
read and cut in isolated worker processes, their chunks embedded and written by threads of this
process, the stages running at once.

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
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterator, Sequence

from ..embed import PooledEmbedder
from ..errors import ConfigError
from ..ground.processes import IsolatedPool, usable_cpus
from .corpus import Limits, Read, failed
from .flow import Run, run_stages
from .jobs import CutFile, CutJob, Cutting, cut_jobs
from .options import BuildOptions
from .report import BuildReport
from .stages import cut_file, file_size

if TYPE_CHECKING:
    from ..index import Index


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

    def build(self, index: "Index", paths: Sequence[str | Path], spec: Cutting,
              how: BuildOptions) -> BuildReport:
        """``build_index``'s work here (the caller holds ``index``'s write lock): the one loop
        (``flow.run_stages``), its files read and cut in worker processes, embedded by threads."""
        return run_stages(index, how, lambda run: _local_stages(run, paths, spec, self.pool))


@contextmanager
def _local_stages(run: Run, paths: Sequence[str | Path], spec: Cutting,
                  pool: IsolatedPool | None) -> Iterator["_LocalStages"]:
    """Where a local build's stages run: its reading workers (``pool``, else its own) and its
    embedding and writing threads, started for the block and stopped at its end."""
    how = run.how
    jobs = cut_jobs(paths, spec, how, run.known)
    embedder = run.model()  # loaded (and checked) before any file is read
    pool = pool or cutting_pool(how.limits, len(jobs))
    run.count(len(jobs), sum(file_size(j.read.path) for j in jobs), usable_cpus())
    stages = _LocalStages(run, pool, jobs, _Spread(embedder))
    with stages.spread:
        stages.writer.start()
        for w in stages.embedders:
            w.start()
        try:
            yield stages
        finally:
            for w in (*stages.embedders, stages.writer):
                w.stop.set()


class _LocalStages:
    """A local build's stages: files read and cut by ``pool``, embedded by threads (as many as
    the model's workers), written by one thread; bounded queues between them."""

    def __init__(self, run: Run, pool: IsolatedPool, jobs: list[CutJob], spread: "_Spread") -> None:
        self.run, self.pool, self.jobs, self.spread = run, pool, jobs, spread
        self.to_embed: "queue.Queue[Any]" = queue.Queue(maxsize=max(4, 2 * pool.workers))
        self.to_write: "queue.Queue[Any]" = queue.Queue(maxsize=2)
        self.writer = _Worker("write", run.write, self.to_write)
        self.embedders = [_Worker(f"embed-{i}", self.embed_step, self.to_embed) for i in range(spread.threads)]

    def cut(self) -> Iterator[CutFile]:
        for job, got in self.pool.run(self.jobs):
            if isinstance(got, ConfigError):  # the spec is wrong for every file (``cut_file``)
                got = CutFile(Read(job.read.path), stop=got)
            elif not isinstance(got, CutFile):
                got = CutFile(failed(job.read, got), size=file_size(job.read.path))
            yield got

    def embed(self, got: CutFile) -> None:
        _put(self.to_embed, got, self.embedders)

    def drain(self) -> None:
        _put(self.to_embed, None, self.embedders)
        for w in self.embedders:
            w.join()
            if w.error is not None:
                raise w.error
        _put(self.to_write, None, [self.writer])
        self.writer.join()
        if self.writer.error is not None:
            raise self.writer.error

    def embed_step(self, first: CutFile) -> None:
        """An embedding thread's step: ``first`` and the files queued behind it, up to
        ``batch_texts`` chunks, embedded in one call and handed to the writer."""
        batch = [first]
        while sum(len(f.chunks) for f in batch) < self.run.how.batch_texts:
            try:
                more = self.to_embed.get(timeout=0.05)
            except queue.Empty:
                break
            if more is None:
                self.to_embed.put(None)  # seen again by the thread's loop, which then ends
                break
            batch.append(more)
        cuts = self.run.embed(batch, self.run.index)
        if cuts:
            _put(self.to_write, cuts, [self.writer])


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
