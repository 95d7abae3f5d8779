"""Read a batch of files into documents: in parallel across processes, with a progress bar, a cache
of parsed documents, and every failure kept for the end.

Parsing is the slow part of a run (a scanned page spends seconds in Tesseract), and ``seamcut
compare`` or ``seamcut index`` read the same files again and again, so a parsed ``Document`` is
kept on disk under a key made of the file's bytes, the reading options and seamcut's reader code:
a changed file, option or reader is read again; nothing else is.
"""
from __future__ import annotations

import hashlib
import logging
import os
import pickle
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Sequence

from .cache import default_cache_dir
from .catalog import Catalog
from .errors import InputError
from .model import Document
from .progress import Steps
from .readers import expand, read

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


@dataclass(frozen=True)
class Failure:
    """A file that could not be read, and why."""
    path: str
    reason: str

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
    """A digest of the code that turns files into documents, so a cached parse made by other
    reader code is never reused."""
    root = Path(__file__).parent
    h = hashlib.sha256()
    for sub in ("readers", "text"):
        for f in sorted((root / sub).rglob("*.py")):
            h.update(f.read_bytes())
    for name in ("language.py", "model.py", "outline.py"):
        if (root / name).exists():
            h.update((root / name).read_bytes())
    return h.hexdigest()[:16]


def _cache_key(digest: str, options: ReadOptions, fields: dict[str, Any], source: str) -> str:
    parts = repr((digest, options, sorted(fields.items()), source, _reader_version()))
    return hashlib.sha256(parts.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _read_one(args: tuple[str, ReadOptions, dict[str, Any], str | None]) -> tuple[str, Any, str | None]:
    """Read one file (in a worker process). Returns (path, Document or Failure, file hash)."""
    path, options, fields, cache_dir = args
    try:
        digest: str | None = file_hash(path)
    except OSError:  # missing, a folder, unreadable: ``read`` names the reason
        digest = None
    cached = (Path(cache_dir) / f"{_cache_key(digest, options, fields, path)}.pickle"
              if cache_dir and digest else None)
    if cached is not None and cached.is_file():
        try:
            with cached.open("rb") as fh:
                return path, pickle.load(fh), digest
        except Exception:  # a torn or stale cache file: read the document again
            pass
    try:
        doc = read(path, encoding=options.encoding, ocr=options.ocr, password=options.password,
                   languages=list(options.languages) if options.languages else None,
                   fields=fields or None)
    except InputError as exc:
        return path, Failure(path, str(exc)), digest
    except Exception as exc:  # a reader's bug must not stop the batch
        return path, Failure(path, f"{path}: unexpected {type(exc).__name__}: {exc}"), digest
    if cached is not None:
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_suffix(f".{os.getpid()}.tmp")
            with tmp.open("wb") as fh:
                pickle.dump(doc, fh, protocol=pickle.HIGHEST_PROTOCOL)
            tmp.replace(cached)
        except OSError as exc:
            log.info("document cache not written (%s)", exc)
    return path, doc, digest


def _worker_init() -> None:
    os.environ.setdefault("OMP_THREAD_LIMIT", "1")
    os.environ.setdefault("OMP_NUM_THREADS", "1")


def read_corpus(paths: Sequence[str | Path], *, options: ReadOptions = ReadOptions(),
                catalog: Catalog | None = None, workers: int | None = None,
                cache: str | Path | bool | None = True, progress: bool = True) -> Corpus:
    """Read files and folders (folders recursively) into documents.

    Files are read in ``workers`` processes (None: one per usable core, at most one per file);
    ``cache``: True for ``default_cache_dir("documents")``, a folder, or False/None for no cache.
    Files that fail do not stop the batch: they are listed in ``Corpus.failures`` with the reason.
    """
    files = [str(f) for f in expand(list(paths))]
    cache_dir = str(default_cache_dir("documents") if cache is True else cache) if cache else None
    jobs = [(f, options, catalog.fields_for(f) if catalog else {}, cache_dir) for f in files]
    results: dict[str, tuple[Any, str | None]] = {}
    n = workers or min(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else
                       (os.cpu_count() or 1), len(jobs))
    with Steps(len(jobs), "reading", progress) as bar:
        if n <= 1 or len(jobs) <= 1:
            for job in jobs:
                path, got, digest = _read_one(job)
                results[path] = (got, digest)
                bar.advance(label=Path(path).name)
        else:
            with ProcessPoolExecutor(max_workers=n, initializer=_worker_init) as pool:
                for path, got, digest in pool.map(_read_one, jobs):
                    results[path] = (got, digest)
                    bar.advance(label=Path(path).name)
    corpus = Corpus()
    for f in files:
        got, digest = results[f]
        if isinstance(got, Failure):
            corpus.failures.append(got)
        else:
            corpus.documents.append(got)
            if digest:
                corpus.hashes[got.source] = digest
    return corpus
