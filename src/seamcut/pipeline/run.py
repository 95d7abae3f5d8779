"""Build an index from a collection of any size: files read and cut in isolated worker processes,
their chunks embedded and written in batches, the stages running at once, memory held flat.

    read --> cut --> embed --> write      (``stages``, in the one loop ``flow.run_stages``; where
                                            they run, an ``Engine`` says: ``LocalEngine`` here,
                                            ``RayEngine`` on Ray Data; ``build_documents``: this
                                            process, for documents already in memory)

* Each batch is written with ``Index.write``: a run killed at any moment resumes where it was, with
  the rows and ids an uninterrupted run ends with; a file already indexed with the same bytes is
  not read again. A batch the disk has no room for is undone (``DiskFullError``).
* One build per index folder at a time: the run holds the folder's write lock throughout
  (``Index.writing``), and a second run waits for it or, past ``Index.wait``, says who holds it.
* Progress: ``progress.Throughput`` (a bar on a terminal, a line every few seconds elsewhere); the
  report holds a table per stage.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from ..index.disk import DiskFullError, is_disk_full
from ..readers import expand
from ..model import Document
from .engine import Engine
from .flow import run_stages
from .here import here_stages
from .jobs import Cutting
from .local import LocalEngine
from .options import BuildOptions
from .report import BuildReport

if TYPE_CHECKING:
    from ..index import Index

#: how an in-memory build reports: no progress shown
QUIET = BuildOptions(progress=False)


def build_index(index: Index, paths: Sequence[str | Path], spec: Cutting,
                how: BuildOptions = BuildOptions(), *, engine: Engine = LocalEngine()) -> BuildReport:
    """Read, cut, embed and write every file named by ``paths`` into ``index``.

    ``spec``: how to cut (the strategy and its config, checked once where it was made; the
    index's own; or chunks already made, ``jobs.Made``); ``how``: how
    the files are read, the batches' size and the progress shown; ``engine``: where the stages
    run (``LocalEngine()``: this machine's processes, each build starting its reading workers;
    ``LocalEngine(pool)``: those of a ``series``; ``RayEngine``: Ray Data). Files that fail are
    in ``failures``, with the reason; the others are written whatever happens to those. Holds
    the index's write lock throughout (waiting for another build as ``index.wait`` says); a
    full disk raises ``DiskFullError``, with every batch before it kept.
    """
    engine.check()  # before the index is locked: Ray missing is one line saying how to install it

    def work() -> BuildReport:
        report = engine.build(index, paths, spec, how)
        if how.prune:
            report.removed = index.remove(pruned(index, paths))
        return report
    return _locked(index, work)


def build_documents(index: Index, documents: Sequence[Document], cutting: Cutting,
                    hashes: Mapping[str, str] | None = None, batch: int = 64,
                    how: BuildOptions = QUIET) -> BuildReport:
    """``documents``, already in memory, cut as ``cutting`` says (a strategy, a callable, or
    chunks already made: ``jobs.Made``), embedded and written into ``index`` in this process,
    ``batch`` documents per embedding call and per write, by the same loop as ``build_index``
    (``here``); a document unchanged since it was indexed (its file's hash in ``hashes`` by
    source, else its text's; and its id) is not cut again. Holds the index's write lock."""
    return _locked(index, lambda: run_stages(index, how, lambda run: here_stages(run, documents, cutting,
                                                                                 hashes or {}, batch)))


def _locked(index: Index, work: Callable[[], BuildReport]) -> BuildReport:
    """``work()`` under ``index``'s write lock; a full disk under the folder (the embedding cache,
    the build report) a ``DiskFullError``."""
    with index.writing():
        try:
            return work()
        except DiskFullError:
            raise
        except Exception as exc:  # the embedding cache or the build report, in the index folder
            if is_disk_full(exc):
                raise index.disk_full(exc) from exc
            raise


def pruned(index: Index, paths: Sequence[str | Path]) -> list[str]:
    """The files ``index`` holds that are not among the files ``paths`` name (folders expanded),
    by absolute path."""
    given = {os.path.abspath(f) for f in expand(list(paths))}
    return [s for s, v in index.files.items() if (v.get("path") or os.path.abspath(s)) not in given]
