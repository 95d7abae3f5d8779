"""Worker processes, started safely and kept on a leash.

* ``start_context()``: how seamcut starts every worker process: a fork server (or spawn where
  there is none), never a plain fork. A fork copies a process whose other threads (LanceDB's
  runtime, an OpenMP pool, PDFium's locks) may hold a lock at that instant, and the child can hang
  on it forever; a fork server is started before any of those are loaded, and forks from itself.
* ``IsolatedPool``: a pool where each task runs under a wall-clock timeout and a memory cap; a task
  over either is killed with its worker (and the worker's own children, Tesseract say), reported
  as a ``Killed`` outcome naming the limit, and the pool goes on with a fresh worker. The cap is
  per task: what the worker grows by while it runs the task, so memory a worker kept from earlier
  tasks never stops the next one; a worker is replaced after ``TASKS_PER_WORKER`` tasks, so what
  it keeps cannot pile up.
* ``usable_cpus()``, ``in_worker()``: how many cores this process may use, and whether it is
  itself a worker (then it does its work in one process: the pool is already one per core).
"""
from __future__ import annotations

import multiprocessing
import os
import shutil
import tempfile
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, TimeoutError, wait
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Callable, Generic, Iterable, Iterator, TypeVar

WORKER_ENV = "SEAMCUT_WORKER"
#: the limits one file's reading has by default: wall-clock seconds, and MiB resident
DEFAULT_TIMEOUT_S = 1800.0
DEFAULT_MEMORY_MB = 1536
#: a worker that finds itself over its memory cap exits with this code (its pool reports it)
OVER_MEMORY_EXIT = 86
#: tasks (files) a worker runs before a fresh one takes its place: what a worker keeps between
#: files (allocator arenas, a semantic model's buffers) grew by 230 MiB in 60 files here
TASKS_PER_WORKER = 100

J = TypeVar("J")
R = TypeVar("R")


def usable_cpus() -> int:
    """The cores this process may run on (its CPU affinity; all of them where none is set)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def start_context() -> Any:
    """The multiprocessing context for seamcut's workers: ``forkserver`` where the platform has it,
    else ``spawn``. Workers import what they use themselves, so a script that starts them needs
    the usual ``if __name__ == "__main__":`` guard."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def in_worker() -> bool:
    """Whether this process is one of seamcut's workers (nested work then stays in it)."""
    return os.environ.get(WORKER_ENV) == "1"


def worker_init(memory_mb: int | None = None, temp: str | None = None, *_: Any) -> None:
    """What every seamcut worker does first: one thread for numeric libraries (they ran 5-10x
    slower with two per process here), the worker flag, given ``memory_mb`` a watchdog that ends
    the process (and its children) once they hold more than that many MiB resident beyond what
    they held when the task running began (``run_task``), and given
    ``temp`` that folder for its own and its children's temporary files (Tesseract's images)."""
    os.environ[WORKER_ENV] = "1"
    if temp:
        os.environ["TMPDIR"] = tempfile.tempdir = temp
    for name in ("OMP_NUM_THREADS", "OMP_THREAD_LIMIT", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[name] = "1"
    if memory_mb:
        threading.Thread(target=_watch_memory, args=(memory_mb * 2**20,), daemon=True,
                         name="seamcut-memory-cap").start()


#: resident bytes of this worker and its children when its running task began: the cap is what
#: one task may add to them (set by ``run_task``)
_BASE = 0
#: resident bytes the running task loaded for good (a model kept for every later file): outside
#: the cap; set by ``kept_for_good``, and part of ``_BASE`` from the next task on
_KEPT = 0
_LOADING = threading.Event()


def run_task(fn: Callable[[J], R], job: J) -> R:
    """``fn(job)`` in a worker, its memory counted from now: what the worker (and its children)
    hold already, kept from earlier tasks, is not this task's. In a tune on 567 files, a
    two-page scan whose reading peaks at 340 MiB in a fresh worker was stopped at the default
    1,536 MiB cap in one build (and read in the next): a worker grows with the files it has
    cut (230 MiB more after 60 files cut by semantic here)."""
    global _BASE, _KEPT
    _BASE = _resident()
    _KEPT = 0
    return fn(job)


def _family() -> list:
    """This process and its children (Tesseract), as psutil processes."""
    import psutil
    me = psutil.Process()
    try:
        return [me] + me.children(recursive=True)
    except psutil.Error:
        return [me]


def _resident(family: list | None = None) -> int:
    """Resident bytes of ``family`` (default: this process and its children)."""
    import psutil
    rss = 0
    for p in _family() if family is None else family:
        try:
            rss += p.memory_info().rss
        except psutil.Error:
            pass
    return rss


@contextmanager
def kept_for_good() -> Iterator[None]:
    """What this worker allocates inside the block and keeps for all later files (a model it
    loads once, as semantic's sentence embedder) is not counted against the memory cap, which is
    per file: the watchdog waits while the block runs, then allows the file that loaded it what
    the process grew by (later files count from what the worker holds when they begin). Without
    it the file during which a worker loaded e5-torch (about 1 GB) was stopped at the default
    1,536 MiB cap."""
    global _KEPT
    import psutil
    me = psutil.Process()
    _LOADING.set()
    before = me.memory_info().rss
    try:
        yield
    finally:
        _KEPT += max(0, me.memory_info().rss - before)
        _LOADING.clear()


def _watch_memory(cap: int, every: float = 0.1) -> None:
    while True:
        time.sleep(every)
        if _LOADING.is_set():
            continue
        family = _family()
        if _resident(family) > cap + _BASE + _KEPT:
            for p in family[1:]:
                try:
                    p.kill()
                except Exception:  # gone already
                    pass
            os._exit(OVER_MEMORY_EXIT)


def own_temp(kind: str) -> str:
    """A new temp folder ``seamcut-KIND-PID-XXXXXXXX`` for this process to remove when done;
    first, those of processes no longer running (killed before they could) are removed."""
    import psutil
    root = tempfile.gettempdir()
    prefix = f"seamcut-{kind}-"
    for name in os.listdir(root):
        pid = name[len(prefix):].split("-", 1)[0]
        if name.startswith(prefix) and pid.isdigit() and not psutil.pid_exists(int(pid)):
            shutil.rmtree(os.path.join(root, name), ignore_errors=True)
    return tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-", dir=root)


@dataclass(frozen=True)
class Killed:
    """A task the pool killed, or whose worker died: ``reason`` says which limit or how."""
    reason: str


class IsolatedPool(Generic[J, R]):
    """Run ``fn(job)`` for each job in ``workers`` processes, each job under ``timeout`` seconds
    (None: no limit) and ``memory_mb`` MiB resident for the worker and its children beyond what
    they held when the job began (None: no cap), each worker replaced by a fresh one after
    ``tasks_per_worker`` jobs (0: never; None: ``TASKS_PER_WORKER`` when the pool is made).
    ``run`` yields ``(job, result)`` as jobs finish, in that order, with at most
    ``in_flight`` jobs started and not yet handed back (default: two per worker), so a slow
    consumer holds the pool back rather than piling results up. ``result`` is what ``fn``
    returned, a ``Killed`` for a job over a limit or a worker that died, or the exception ``fn``
    raised. ``workers=0`` runs the jobs in this process (no limits apply there). The workers'
    temporary files go to a folder of the pool's own (``own_temp``), removed with the workers: a
    worker killed mid-task cannot clean up after itself (Tesseract's ``tess_*`` images were left
    in /tmp).

    Each ``run`` starts its workers and stops them at its end, unless the pool is open as a
    context manager (``with pool: ...``): then the workers are started once and every ``run``
    inside the block uses them (several builds in a row, as ``tune`` does, pay the start once)."""

    def __init__(self, fn: Callable[[J], R], workers: int, *, timeout: float | None = None,
                 memory_mb: int | None = None, in_flight: int | None = None,
                 tasks_per_worker: int | None = None) -> None:
        self.fn, self.workers, self.timeout, self.memory_mb = fn, max(0, workers), timeout, memory_mb
        self.tasks_per_worker = TASKS_PER_WORKER if tasks_per_worker is None else tasks_per_worker
        self.in_flight = in_flight or 2 * max(1, self.workers)
        self._kept: Any = None  # the workers kept between runs, inside ``with``
        self._open = False
        self._temps: dict[int, str] = {}  # each started pool's temp folder, by id

    def __enter__(self) -> "IsolatedPool[J, R]":
        self._open = True
        return self

    def __exit__(self, *exc: Any) -> None:
        self._open = False
        if self._kept is not None:
            self._kept.close()
            self._end(self._kept)
            self._kept = None

    def _start(self) -> Any:
        import pebble
        temp = own_temp("work")
        pool = pebble.ProcessPool(self.workers, max_tasks=self.tasks_per_worker, initializer=worker_init,
                                  initargs=(self.memory_mb, temp), context=start_context())
        self._temps[id(pool)] = temp
        return pool

    def _end(self, pool: Any) -> None:
        """Wait for a closed or stopped pool's workers, then remove their temp folder."""
        pool.join()
        temp = self._temps.pop(id(pool), None)
        if temp:
            shutil.rmtree(temp, ignore_errors=True)

    def run(self, jobs: Iterable[J]) -> Iterator[tuple[J, R | Killed | BaseException]]:
        if self.workers == 0:
            for job in jobs:
                try:
                    yield job, self.fn(job)
                except Exception as exc:  # handed back like a worker's
                    yield job, exc
            return
        if self._open and self._kept is None:
            self._kept = self._start()
        pool = self._kept or self._start()
        pending: dict[Future, J] = {}
        todo = iter(jobs)
        try:
            while True:
                while len(pending) < self.in_flight:
                    job = next(todo, _END)
                    if job is _END:
                        break
                    pending[pool.schedule(run_task, (self.fn, job), timeout=self.timeout)] = job
                if not pending:
                    return
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    yield pending.pop(fut), self._outcome(fut)
        finally:
            if pending:  # abandoned mid-way: its jobs' workers are stopped, kept ones too
                pool.stop()
                self._end(pool)
                if pool is self._kept:
                    self._kept = None  # the next run inside ``with`` starts fresh workers
            elif pool is not self._kept:
                pool.close()
                self._end(pool)

    def _outcome(self, fut: Future) -> Any:
        import pebble
        try:
            return fut.result()
        except TimeoutError as exc:
            if exc.args[:1] != ("Task timeout",):  # fn's own TimeoutError, not the pool's
                return exc
            return Killed(f"took longer than {self.timeout:g} s (stopped; see --timeout)")
        except pebble.ProcessExpired as exc:
            if exc.exitcode == OVER_MEMORY_EXIT:
                return Killed(f"needed more than {self.memory_mb} MiB of memory (stopped; see --memory-cap)")
            how = f"signal {-exc.exitcode}" if exc.exitcode and exc.exitcode < 0 else f"exit code {exc.exitcode}"
            return Killed(f"the worker reading it died ({how})")
        except Exception as exc:
            return exc


_END: Any = object()
