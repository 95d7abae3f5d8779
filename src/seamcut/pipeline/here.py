"""Documents already in memory built into an index in this process (``run.build_documents``): the
one loop (``flow.run_stages``), its documents cut and embedded here, a batch at a time.

    documents --> [this process: cut] --> [this process: embed] --> [write] --> index
                   (a strategy, or chunks    a batch of ``batch``
                   already made: ``Made``)   documents per call

``Index.update`` and the indexes ``compare`` makes of documents given in memory come this way.
"""
from __future__ import annotations

import time
from contextlib import contextmanager
from typing import Iterator, Mapping, Sequence

from ..index.rows import text_hash
from ..model import Document
from .corpus import Read
from .flow import Batches, Run
from .jobs import CutFile, Cutting, cut_with
from .stages import embedded_while_cutting

@contextmanager
def here_stages(run: Run, documents: Sequence[Document], cutting: Cutting, hashes: Mapping[str, str],
                batch: int) -> Iterator["_HereStages"]:
    """Where ``build_documents``'s stages run: here; ``documents`` cut as ``cutting`` says and
    embedded ``batch`` at a time (``hashes``: their files' hashes by source, else their text's)."""
    run.model()
    run.count(len(documents), 0, 1)
    yield _HereStages(run, documents, cutting, hashes, batch)


class _HereStages:
    """A build's stages in this process: each document cut as it comes, embedded and written
    ``batch`` documents at a time."""

    def __init__(self, run: Run, documents: Sequence[Document], cutting: Cutting,
                 hashes: Mapping[str, str], batch: int) -> None:
        self.run, self.documents, self.cutting, self.hashes = run, documents, cutting, hashes
        self.batches = Batches(run, lambda files: len(files) >= batch, lambda files: run.embed(files, run.index))

    def cut(self) -> Iterator[CutFile]:
        index = self.run.index
        for doc in self.documents:
            digest = self.hashes.get(doc.source) or text_hash(doc.text)
            if index.is_current(doc.source, digest, doc.id):
                yield CutFile(Read(doc.source, digest=digest, unchanged=True))
                continue
            t0 = time.process_time()
            cut, chunks = cut_with(doc, self.cutting)
            yield CutFile(Read(doc.source, cut, digest=digest), chunks, time.process_time() - t0,
                          pages=max(1, len(doc.page_starts)), cut_tokens=embedded_while_cutting(chunks))

    def embed(self, got: CutFile) -> None:
        self.batches.embed(got)

    def drain(self) -> None:
        self.batches.drain()
