"""Read a batch of files into documents: in parallel across processes, with a progress bar, a cache
of parsed documents, and every failure kept for the end.

Parsing is the slow part of a run (a scanned page spends seconds in Tesseract), and ``seamcut
compare`` or ``seamcut index`` read the same files again and again, so a parsed ``Document`` is
kept on disk under a key made of the file's bytes, the reading options and seamcut's reader code:
a changed file, option or reader is read again; nothing else is. The cache holds JSON
(``seamcut.document_json``), never pickles: loading a cache file cannot run code.
"""
from __future__ import annotations

import hashlib
import logging
import os
import time
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping, Sequence

from ..ground.cache import default_cache_dir
from .. import document_json
from .catalog import Catalog
from ..errors import InputError, MissingError
from ..model import Document
from ..ground.processes import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT_S, IsolatedPool, Killed, usable_cpus
from ..ground.progress import Steps
from ..readers import expand, read

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ReadOptions:
    """How files are read (see ``seamcut.read``).

    ``ocr``: PDF pages to OCR (``auto``, ``always``, ``never``); ``languages``: OCR languages
    (None = detected); ``password``: for encrypted PDFs; ``encoding``: of text files (None = UTF-8).
    """
    ocr: str = "auto"
    languages: tuple[str, ...] | None = None
    password: str | None = None
    encoding: str | None = None
    #: another library's reader, read with instead of seamcut's (``seamcut.peers.PeerReader``: a
    #: contestant's own reading; it has ``read(path, fields) -> Document``); None: seamcut's
    reader: Any = None


@dataclass(frozen=True)
class Failure:
    """A file that could not be read, and why; ``missing``: set where the file is not at fault
    but this machine lacks a program reading it needs (Tesseract for a scan)."""
    path: str
    reason: str
    missing: MissingError | None = field(default=None, compare=False)

    def __str__(self) -> str:
        return self.reason if self.reason.startswith(self.path) else f"{self.path}: {self.reason}"


@dataclass
class Corpus:
    """The documents read from a batch of files, in the order the files were named, with the
    files that failed. ``hashes[source]`` is the SHA-256 of each document's file."""
    documents: list[Document] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    hashes: dict[str, str] = field(default_factory=dict)


def file_hash(path: str | Path) -> str:
    """SHA-256 of a file's bytes, in hex."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


@lru_cache(maxsize=1)
def _reader_version() -> str:
    """A digest of the code that turns files into documents (readers/, text/ with the language
    labels, model.py, outline.py), so a cached parse made by other reader code is never reused.
    The rules that find fields in a document's text (``readers/found_fields.py``) are left out:
    a cached parse holds none, they are found after it is loaded."""
    root = Path(__file__).parent.parent  # the seamcut package
    h = hashlib.sha256()
    for sub in ("readers", "text"):
        for f in sorted((root / sub).rglob("*.py")):
            if f.name != "found_fields.py":
                h.update(f.read_bytes())
    for name in ("model.py", "outline.py"):
        if (root / name).exists():
            h.update((root / name).read_bytes())
    return h.hexdigest()[:16]


def _cache_key(digest: str, options: ReadOptions, fields: dict[str, Any], name: str) -> str:
    """The cache file's key: the bytes, the options, the catalog fields, the reader code and the
    file's name (its ending can choose the reader; warnings name it), not its folder, so a
    corpus moved or linked elsewhere is not parsed (or OCR'd) again."""
    parts = repr((digest, options, sorted(fields.items()), name, _reader_version()))
    return hashlib.sha256(parts.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def moved(doc: Document, path: str) -> Document:
    """``doc`` as reading ``path`` gives it: the same file's parse from another folder (a cached
    one; the file a run read elsewhere, for ``view --compare``) with its source, its id and the
    warnings that name it pointed at ``path``."""
    source = str(Path(path))
    if doc.source == source:
        return doc
    metadata = dict(doc.metadata)
    if "warnings" in metadata:
        metadata["warnings"] = [w.replace(doc.source, source) for w in metadata["warnings"]]
    return replace(doc, source=source, metadata=metadata, id="")  # the id follows the source


@dataclass
class Read:
    """One file's outcome in a batch: its ``document`` or its ``failure``, its bytes' SHA-256
    (None where it could not be read), and the CPU seconds reading it took (Tesseract's
    included). ``unchanged``: its hash was the one given as already known, so it was not read."""
    path: str
    document: Document | None = None
    failure: Failure | None = None
    digest: str | None = None
    cpu_seconds: float = 0.0
    unchanged: bool = False


@dataclass(frozen=True)
class ReadJob:
    """What a worker needs to read one file. ``known``: the hash it had when last read (an
    index's); a file still with that hash is reported ``unchanged`` and not parsed."""
    path: str
    options: ReadOptions
    fields: dict[str, Any]
    cache_dir: str | None
    known: str | None = None
    refused: str | None = None  # why the file is not read at all (a link out of its folder)


def _stamp(path: str) -> tuple[int, int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns, st.st_ino


def read_file(job: ReadJob, attempts: int = 3) -> Read:
    """Read one file as it is at one moment: its hash and its document come from the same bytes.
    A file that changes while it is read (its bytes hash otherwise after, or its size, time or
    inode differ) is read again, up to ``attempts`` times, then reported as changing."""
    if job.refused:
        return Read(job.path, failure=Failure(job.path, job.refused))
    for _ in range(attempts):
        before = _stamp(job.path)
        got = _read_once(job)
        if got.unchanged or before is None or got.digest is None:
            return got  # nothing parsed, or nothing there to change
        if _stamp(job.path) == before and _hash_or_none(job.path) == got.digest:
            return got
    return Read(job.path, failure=Failure(job.path, f"{job.path}: changed while it was being read "
                                                    f"({attempts} times); read it again when it is complete"))


def _hash_or_none(path: str) -> str | None:
    try:
        return file_hash(path)
    except OSError:
        return None


def _cpu() -> float:
    import resource
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def _read_once(job: ReadJob) -> Read:
    path, options = job.path, job.options
    t0 = _cpu()
    try:
        digest: str | None = file_hash(path)
    except OSError:  # missing, a folder, unreadable: ``read`` names the reason
        digest = None
    if digest is not None and digest == job.known:
        return Read(path, digest=digest, unchanged=True, cpu_seconds=_cpu() - t0)
    cached = (Path(job.cache_dir) / f"{_cache_key(digest, options, job.fields, Path(path).name)}.json"
              if job.cache_dir and digest else None)
    if cached is not None and cached.is_file():
        try:  # JSON only: a leftover .pickle of an older seamcut is never opened
            doc = _found(moved(document_json.loads(cached.read_bytes()), path), options)
            return Read(path, doc, digest=digest, cpu_seconds=_cpu() - t0)
        except (OSError, ValueError, TypeError, KeyError):  # torn or stale: read the file again
            pass
    try:
        doc = (options.reader.read(path, job.fields or None) if options.reader is not None else
               read(path, encoding=options.encoding, ocr=options.ocr, password=options.password,
                    languages=list(options.languages) if options.languages else None,
                    fields=job.fields or None, found=False))
    except InputError as exc:
        return Read(path, failure=Failure(path, str(exc)), digest=digest, cpu_seconds=_cpu() - t0)
    except MissingError as exc:  # the file may be fine: this machine cannot read it
        return Read(path, failure=Failure(path, f"{path}: {exc}", exc), digest=digest, cpu_seconds=_cpu() - t0)
    except Exception as exc:  # a reader's bug must not stop the batch
        return Read(path, failure=Failure(path, f"{path}: unexpected {type(exc).__name__}: {exc}"),
                    digest=digest, cpu_seconds=_cpu() - t0)
    if cached is not None:
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_text(document_json.dumps(doc), encoding="utf-8")
            tmp.replace(cached)
        except (OSError, TypeError, ValueError) as exc:  # a value JSON or UTF-8 cannot hold
            log.info("document cache not written (%s)", exc)
    return Read(path, _found(doc, options), digest=digest, cpu_seconds=_cpu() - t0)


def _found(doc: Document, options: ReadOptions) -> Document:
    """``doc`` with the fields found in its text, where seamcut read it (a library's own reading
    is left as the library gives it); found here, after the parse cache, so the cache holds
    the parse alone."""
    if options.reader is not None:
        return doc
    from ..readers.found_fields import with_found_fields
    return with_found_fields(doc)


def failed(job: ReadJob, outcome: Killed | BaseException) -> Read:
    """The ``Read`` of a job whose worker was killed or raised."""
    if isinstance(outcome, Killed):
        return Read(job.path, failure=Failure(job.path, f"{job.path}: {outcome.reason}"))
    return Read(job.path, failure=Failure(job.path, f"{job.path}: unexpected "
                                                    f"{type(outcome).__name__}: {outcome}"))


@dataclass(frozen=True)
class Limits:
    """How a batch's files are read: ``workers`` processes (None: one per usable core, at most
    one per file; 0: in this process, where no limit applies), each file under ``timeout``
    seconds of wall-clock time and ``memory_mb`` MiB resident (what its worker and Tesseract
    grow by while it is read: a worker's memory from earlier files is not the file's); None
    for no limit."""
    workers: int | None = None
    timeout: float | None = DEFAULT_TIMEOUT_S
    memory_mb: int | None = DEFAULT_MEMORY_MB

    def pool(self, fn: Callable[[Any], Any], files: int) -> IsolatedPool:
        if self.workers is None:  # one file: no worker to start, read it here
            n = 0 if files <= 1 else min(usable_cpus(), files)
        else:
            n = self.workers
        return IsolatedPool(fn, n, timeout=self.timeout, memory_mb=self.memory_mb)


def read_jobs(paths: Sequence[str | Path], options: ReadOptions, catalog: Catalog | None,
              cache: str | Path | bool | None, known: Mapping[str, str] | None = None) -> list[ReadJob]:
    """One job per file named by ``paths`` (folders expanded; a file named twice, ``docs`` and
    ``/srv/docs`` say, read once); ``known``: hashes by source or absolute path, as
    ``Index.known_hashes`` gives them."""
    cache_dir = str(default_cache_dir("documents") if cache is True else cache) if cache else None
    jobs, seen, refused = [], set(), {}
    for f in map(str, expand(list(paths), refused)):
        path = os.path.abspath(f)
        if path not in seen:
            seen.add(path)
            jobs.append(ReadJob(f, options, catalog.fields_for(f) if catalog else {}, cache_dir,
                                known_hash(known, f)))
    # a link out of its folder fails as a file does, in the batch's failures
    return jobs + [ReadJob(f, options, {}, None, refused=why) for f, why in refused.items()]


def known_hash(known: Mapping[str, str] | None, path: str) -> str | None:
    """The hash ``known`` (``Index.known_hashes``) holds for the file ``path`` names: by that
    name, else by its absolute path (the same file named another way)."""
    known = known or {}
    return known.get(path) or known.get(os.path.abspath(path))


def read_corpus(paths: Sequence[str | Path], *, options: ReadOptions = ReadOptions(),
                catalog: Catalog | None = None, workers: int | None = None,
                cache: str | Path | bool | None = True, progress: bool = True,
                limits: Limits | None = None) -> Corpus:
    """Read files and folders (folders recursively) into documents.

    Files are read in worker processes (``limits``: how many, and each file's timeout and memory
    cap; ``workers`` overrides its count); ``cache``: True for ``default_cache_dir("documents")``,
    a folder, or False/None for no cache. Files that fail, hang or blow up do not stop the batch:
    they are listed in ``Corpus.failures`` with the reason.
    """
    limits = limits or Limits()
    if workers is not None:
        limits = replace(limits, workers=workers)
    jobs = read_jobs(paths, options, catalog, cache)
    results: dict[str, Read] = {}
    with Steps(len(jobs), "reading", progress) as bar:
        for job, got in limits.pool(read_file, len(jobs)).run(jobs):
            results[job.path] = got if isinstance(got, Read) else failed(job, got)
            bar.advance(label=Path(job.path).name)
    corpus = Corpus()
    for job in jobs:
        got = results[job.path]
        if got.document is None:
            corpus.failures.append(got.failure or Failure(job.path, "not read"))
        else:
            corpus.documents.append(got.document)
            if got.digest:
                corpus.hashes[got.document.source] = got.digest
    return corpus
