"""The build on Ray Data (``RayEngine``, ``seamcut index --engine ray``): the one loop
(``seamcut.pipeline.flow``), its reading, cutting and embedding scheduled by Ray instead of this
process's threads.

    files --> [Ray tasks: read, cut] --> [Ray actors: embed] --> [this process: write] --> index
               CPU tasks; each file in a       the model loaded once     ``Index.write`` in
               one-worker ``IsolatedPool``     per actor (GPUs if asked)  batches, as locally

* Reading and cutting: ``seamcut.pipeline.stages.cut_file`` in Ray CPU tasks. Each Ray worker process keeps
  one ``processes.IsolatedPool`` of one worker (started once per Ray worker, a fork server), so a
  file keeps its timeout and memory cap: one over either is killed and named in the report.
* Embedding: an actor pool, the index's model loaded once per actor (``WorkerEmbedder``, the
  index's embedding cache shared); ``gpus`` > 0 asks Ray for that many GPUs per actor.
* Writing: in this process, which holds the index's write lock, with ``Index.write`` per batch
  (journal: a killed run resumes; files already indexed with the same bytes are not read again).
* The cluster: the one at ``address``, else a local one capped to this machine's usable
  cores, no dashboard, a 512 MiB object store and its logs in the temp folder.
"""
from __future__ import annotations

import logging
import shutil
import time
import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Iterator, Sequence

import numpy as np

from ..errors import ConfigError, MissingError
from ..embed import TORCH_TWIN, spec_of
from ..index.batch import Cut
from ..index.rows import searchable
from ..ground.processes import IsolatedPool, own_temp, usable_cpus
from .corpus import Failure, Limits, Read, failed
from .flow import Batches, Run, run_stages
from .jobs import CutFile, Cutting, cut_jobs
from .options import BuildOptions
from .report import BuildReport
from .stages import cut_file, embed_batch, file_size
from ..embed.worker import WorkerEmbedder

if TYPE_CHECKING:
    from ..index import Index

INSTALL = "pip install 'seamcut[ray]'"
#: the local cluster's object store, in bytes (the machine is shared; blocks spill past it)
OBJECT_STORE_BYTES = 512 * 2**20
#: files per reading task and per embedding call
FILES_PER_TASK = 4
FILES_PER_EMBED = 16


class RayMissingError(MissingError, ConfigError):
    """``--engine ray`` without Ray installed: the ``MissingError`` of Ray (a ``ConfigError`` too,
    as it was: the commands print it as one line)."""


def require_ray() -> Any:
    """The ``ray`` module; ``RayMissingError`` saying how to install it where it is missing."""
    try:
        import ray
        import ray.data  # noqa: F401
    except ImportError as exc:
        raise RayMissingError("Ray", "the ray engine", INSTALL) from exc
    return ray


@contextmanager
def ray_cluster(address: str | None = None) -> Iterator[Any]:
    """Ray, connected for the block: to the cluster at ``address``, else to a local cluster
    started here (this machine's usable cores, no dashboard, ``OBJECT_STORE_BYTES`` of object
    store, logs under the temp folder) and stopped at the block's end. A cluster already
    connected (a caller's own ``ray.init``) is used as it is. A local cluster's folder (its
    session's logs and sockets, about 1 MB) is removed when it stops."""
    ray = require_ray()
    if ray.is_initialized():
        yield ray
        return
    env = {"env_vars": {k: "1" for k in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")}}
    with warnings.catch_warnings():
        # Ray starts its processes with subprocess (fork and exec at once, in C): nothing of this
        # process runs in them, so LanceDB's warning about forking does not apply
        warnings.filterwarnings("ignore", message="lancedb fork support")
        # short: Ray's socket paths under it must stay within the 107 bytes a Unix socket allows
        folder = None if address else own_temp("ray")
        try:
            _init(ray, address, env, folder)
        except BaseException:
            if folder:
                shutil.rmtree(folder, ignore_errors=True)
            raise
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.print_on_execution_start = False
    try:
        yield ray
    finally:
        ray.shutdown()
        if folder:
            shutil.rmtree(folder, ignore_errors=True)


def _init(ray: Any, address: str | None, env: dict[str, Any], folder: str | None) -> None:
    if address:
        ray.init(address=address, runtime_env=env, logging_level=logging.WARNING, log_to_driver=False)
    else:
        ray.init(num_cpus=usable_cpus(), include_dashboard=False, object_store_memory=OBJECT_STORE_BYTES,
                 _temp_dir=folder, runtime_env=env, logging_level=logging.WARNING, log_to_driver=False)


@dataclass(frozen=True)
class RayEngine:
    """Builds on Ray Data: the cluster at ``address`` (None: a local cluster started for the
    build, or for a ``series`` of them), ``gpus`` GPUs asked for per embedding actor (0: none)."""
    address: str | None = None
    gpus: float = 0
    name: ClassVar[str] = "ray"

    def check(self) -> None:
        """``RayMissingError`` (one line saying how to install Ray) where Ray is missing: called
        before any work, the index not yet locked."""
        require_ray()

    @contextmanager
    def series(self, limits: Limits, files: int) -> Iterator["RayEngine"]:
        """This engine with one Ray cluster for a series of builds (started once, as ``compare``
        runs them); ``limits`` and ``files`` are each build's own on Ray."""
        with ray_cluster(self.address):
            yield self

    def build(self, index: "Index", paths: Sequence[str | Path], spec: Cutting,
              how: BuildOptions) -> BuildReport:
        """``build_index``'s work on Ray (the caller holds ``index``'s write lock)."""
        return build_on_ray(index, paths, spec, how, self.address, self.gpus)


#: per Ray worker process: its reading pool, by (timeout, memory cap), started once
_POOLS: dict[tuple[float | None, int | None], IsolatedPool] = {}


def _cut_task(batch: dict[str, np.ndarray], timeout: float | None, memory_mb: int | None) -> dict[str, list]:
    """Ray task: the batch's files read and cut, each in this Ray worker's one-worker pool,
    under ``timeout`` seconds and ``memory_mb`` MiB; a file over either comes back failed."""
    key = (timeout, memory_mb)
    pool = _POOLS.get(key)
    if pool is None:
        pool = _POOLS[key] = IsolatedPool(cut_file, 1, timeout=timeout, memory_mb=memory_mb)
        pool.__enter__()  # kept for this Ray worker's next tasks
    jobs = list(batch["job"])
    out = []
    for job, got in pool.run(jobs):
        if isinstance(got, ConfigError):  # the spec is wrong for every file (``cut_file``): sent
            got = CutFile(Read(job.read.path), stop=got)  # back as itself, for the driver to stop with
        elif not isinstance(got, CutFile):
            got = CutFile(failed(job.read, got), size=file_size(job.read.path))
        out.append(got)
    return {"file": out, "embed_cpu": [0.0] * len(out), "embed_busy": [0.0] * len(out)}


class _Embedding:
    """What ``embed_batch`` needs of an index: ``embed(cuts)``, here with an actor's model."""

    def __init__(self, embedder: Any) -> None:
        self.embedder = embedder

    def embed(self, cuts: Sequence[Cut]) -> int:
        texts = [t for cut in cuts for t in cut.embedded]
        vectors = self.embedder.embed_passages(texts) if texts else np.zeros((0, self.embedder.dim), np.float32)
        at = 0
        for cut in cuts:
            n = len(cut.searchable)
            cut.vectors, at = vectors[at:at + n], at + n
        return at


class _EmbedActor:
    """Ray actor: the index's model, loaded once (``WorkerEmbedder``: one process, one thread,
    the index's embedding cache), embedding the cut files of each batch it is given. A file
    with a chunk over the model's input comes back failed, named; the others with vectors."""

    def __init__(self, spec: str, name: str, cache: str | None, device: str = "cpu") -> None:
        self.embedding = _Embedding(WorkerEmbedder(spec, name, cache, device).loaded)

    def __call__(self, batch: dict[str, np.ndarray]) -> dict[str, list]:
        files: list[CutFile] = list(batch["file"])
        todo = [f for f in files if f.read.document is not None and not f.read.unchanged]
        failures: dict[str, str] = {}
        t0, c0 = time.perf_counter(), time.process_time()
        cuts = embed_batch(self.embedding, todo, lambda path, reason, _: failures.__setitem__(path, reason))
        cpu, busy = time.process_time() - c0, time.perf_counter() - t0
        vectors = {id(f): c.vectors for c, f in cuts}
        for f in todo:
            if f.read.path in failures:
                f.read.document = None
                f.read.failure = failed_reason(f.read.path, failures[f.read.path])
            else:
                f.vectors = vectors[id(f)]  # type: ignore[attr-defined]
        share = 1 / max(1, len(files))
        return {"file": files, "embed_cpu": [cpu * share] * len(files),
                "embed_busy": [busy * share] * len(files)}


def check_gpu_model(spec: str, gpus: float) -> None:
    """GPU actors (``gpus`` > 0 per actor) run only the default model's torch twin: a
    ``ValueError`` saying so for another model ``spec``."""
    if gpus > 0 and spec != TORCH_TWIN:
        raise ConfigError(f"GPU actors run the default model as {TORCH_TWIN} (--device cuda "
                          f"or --model {TORCH_TWIN}), not model {spec!r}")


def failed_reason(path: str, reason: str) -> Failure:
    """The failure of the file at ``path``, its reason naming it."""
    return Failure(path, reason if reason.startswith(path) else f"{path}: {reason}")


def build_on_ray(index: "Index", paths: Sequence[str | Path], spec: Cutting, how: BuildOptions,
                 address: str | None = None, gpus: float = 0) -> BuildReport:
    """``build_index``'s work on Ray Data (the caller holds ``index``'s write lock): the one
    loop (``flow.run_stages``), the same report, rows and resume. ``how.limits.workers``:
    reading tasks at once (default: the cluster's CPUs); embedding actors: one per CPU (per GPU
    with ``gpus``, GPUs per actor); ``how.batch_texts``: the most chunks per write."""
    return run_stages(index, how, lambda run: _ray_stages(run, paths, spec, address, gpus))


@contextmanager
def _ray_stages(run: Run, paths: Sequence[str | Path], spec: Cutting, address: str | None,
                gpus: float) -> Iterator["_RayStages"]:
    """Where a build's stages run on Ray: reading and cutting in CPU tasks, embedding in an
    actor pool (the index's model loaded once per actor), for the block."""
    index, how = run.index, run.how
    jobs = cut_jobs(paths, spec, how, run.known)
    embedder = run.model(here=False)  # the actors' embedding caches are not counted here
    index.settings.embedder, index.settings.dim = embedder.name, int(embedder.dim)
    inner = getattr(embedder, "cache", None)
    cache_dir = str(inner.folder) if inner is not None and hasattr(inner, "folder") else None
    runtime = spec_of(embedder.name, index.settings.model)  # the runtime of the index's vectors
    try:
        check_gpu_model(runtime, gpus)
    except ConfigError as exc:
        raise ConfigError(f"{index.path}: {exc}") from None
    device = "cuda" if gpus > 0 else "cpu"  # Ray shows each actor only its own GPU
    with ray_cluster(address) as ray:
        cpus = max(1, int(ray.cluster_resources().get("CPU", 1)))
        run.count(len(jobs), sum(file_size(j.read.path) for j in jobs), cpus)
        if not jobs:
            yield _RayStages(run, None)
            return
        tasks = how.limits.workers or cpus
        actors = max(1, int(ray.cluster_resources().get("GPU", 0) // gpus)) if gpus > 0 else cpus
        ds = ray.data.from_items([{"job": j} for j in jobs], override_num_blocks=max(1, min(len(jobs), 4096)))
        # reading and embedding share the cores, as the local engine's processes do: the
        # tasks ask for no CPU of their own (their number is capped instead), so that an
        # actor per core cannot starve them
        ds = ds.map_batches(_cut_task, batch_size=FILES_PER_TASK, num_cpus=0,
                            compute=ray.data.TaskPoolStrategy(size=tasks),
                            fn_kwargs={"timeout": how.limits.timeout, "memory_mb": how.limits.memory_mb})
        ds = ds.map_batches(_EmbedActor, batch_size=FILES_PER_EMBED, num_gpus=gpus or None,
                            num_cpus=1 if gpus <= 0 else 0.5,
                            compute=ray.data.ActorPoolStrategy(size=actors),
                            fn_constructor_kwargs={"spec": runtime, "name": embedder.name, "cache": cache_dir,
                                                   "device": device})
        yield _RayStages(run, ds)


class _RayStages:
    """A build's stages on Ray: ``ds`` (None: no file to read) yields each file read, cut and
    embedded; its embedding counted as the actor timed it; written in batches of
    ``batch_texts`` chunks here."""

    def __init__(self, run: Run, ds: Any) -> None:
        self.run, self.ds = run, ds
        self.batches = Batches(run, lambda files: sum(len(searchable(f.chunks)) for f in files) >= run.how.batch_texts,
                               lambda files: [(_cut(f), f) for f in files])

    def cut(self) -> Iterator[CutFile]:
        if self.ds is None:
            return
        for batch in self.ds.iter_batches(batch_size=None, batch_format="numpy"):
            for got, cpu, busy in zip(batch["file"], batch["embed_cpu"], batch["embed_busy"]):
                if got.read.document is not None and not got.read.unchanged and got.stop is None:
                    self.run.embedded([(_cut(got), got)], float(busy), float(cpu))
                yield got

    def embed(self, got: CutFile) -> None:
        self.batches.embed(got)

    def drain(self) -> None:
        self.batches.drain()


def _cut(got: CutFile) -> Cut:
    """A file cut and embedded on Ray, ready to write."""
    return Cut(got.read.document, got.read.digest or "", got.chunks, getattr(got, "vectors", None))  # type: ignore[arg-type]


__all__ = ["RayEngine", "build_on_ray", "check_gpu_model", "ray_cluster", "require_ray", "RayMissingError", "INSTALL"]


def __getattr__(name: str) -> object:  # old names, deprecated
    from ..renamed import renamed_in_module
    return renamed_in_module(__name__, name, {"ray_runtime": "ray_cluster"}, globals())
