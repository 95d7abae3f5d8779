"""How a build reads, batches and shows its work (``BuildOptions``): the same whichever engine
runs it."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .catalog import Catalog
from .corpus import Limits, ReadOptions


@dataclass(frozen=True)
class BuildOptions:
    """How ``build_index`` reads the files and reports its work.

    ``read_options``: how each file is read (OCR, languages, password, encoding).
    ``catalog``: fields per file, put on its document's metadata (None: none).
    ``limits``: the reading-and-cutting workers (a count; None: one per usable core) and each
    file's limits (``timeout`` in seconds of wall-clock time, ``memory_mb`` in MiB resident;
    default 30 min and 1.5 GiB). On Ray, ``limits.workers`` is the reading tasks at once.
    ``cache``: the parsed-document cache (``read_corpus``'s: True for the default folder, a
    folder, or False/None for none).
    ``batch_texts``: chunk texts per embedding call and per write, a count (a write is what a
    kill can lose).
    ``progress``: show the build's progress (on stderr).
    ``terminal``: draw it as a bar (True) or as a line every few seconds (False); None: a bar
    where stderr is a terminal.
    ``label``: what the progress line calls the build.
    ``prune``: also take out of the index every file it holds that is not among the files the
    build was given (removed, renamed or moved away since), after the build, in one published
    step (a file given that fails to read this time is kept).
    """
    read_options: ReadOptions = ReadOptions()
    catalog: Catalog | None = None
    limits: Limits = Limits()
    cache: str | Path | bool | None = True
    batch_texts: int = 512
    progress: bool = True
    terminal: bool | None = None
    label: str = "indexing"
    prune: bool = False
