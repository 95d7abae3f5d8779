"""The work of a build's stages, whichever engine runs them: a file read and cut
(``cut_file``, in a worker), its reading and cutting counted in the report (``account_read``),
a batch of cut files embedded (``embed_batch``), a written batch counted and the report saved
(``written``), the text index brought up to date (``finish_text_index``) and the report's end
(``wrap_up``). ``seamcut.pipeline.flow`` runs them, in the one loop; an engine says where."""
from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol, Sequence

import numpy as np

from ..embed import LongInputError
from ..errors import ConfigError
from ..index.disk import is_disk_full
from ..index.batch import Cut
from ..model import Chunk
from ..ground.progress import Throughput
from ..strategies.held import held_reports
from .corpus import Failure, known_hash, read_file
from .jobs import CutFile, CutJob, cut_with
from .report import STAGES, BuildReport, save_report, saved_report

if TYPE_CHECKING:
    from ..index import Index


def begin(index: "Index") -> tuple[BuildReport, BuildReport | None]:
    """A run's report, every stage in it (the documents a killed run had half written as
    ``recovered``), and the report of the earlier, stopped runs of the same build it carries on
    (None: the last build finished, or none was saved)."""
    report = BuildReport(recovered=index.recovered)
    for name in STAGES:
        report.stage(name)
    earlier, finished = saved_report(index.path)
    return report, None if finished else earlier


def cut_file(job: CutJob) -> CutFile:
    """Read one file and cut it with the job's spec (in a worker process). A ``ConfigError``
    cutting raises (an option the spec's tokenizer refuses: a size over the model's input) is
    the same for every file: it is raised, for the engine to stop the build with, not made the
    file's failure."""
    got = read_file(job.read)
    out = CutFile(got, size=file_size(job.read.path))
    doc = got.document
    if doc is None:
        return out
    out.pages = max(1, len(doc.page_starts))
    out.ocr_pages = _ocr_pages(doc)
    t0 = time.process_time()
    try:
        with held_reports() as held:
            got.document, out.chunks = cut_with(doc, job.cutting)
        out.held = held[0] if held else None
        out.cut_tokens = embedded_while_cutting(out.chunks)
    except ConfigError:
        raise
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


def file_size(path: str) -> int:
    """The size of the file at ``path`` in bytes (0 where it cannot be read)."""
    try:
        return Path(path).stat().st_size
    except OSError:
        return 0


def account_read(report: BuildReport, got: CutFile) -> None:
    """A worker's answer counted in ``report``: its reading (``read text`` or ``read OCR``) and
    cutting, its warnings and held chunks (nothing for a file unchanged since it was indexed)."""
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


class Embedding(Protocol):
    """What ``embed_batch`` needs of an index: the vectors of the cuts' searchable chunks set."""

    def embed(self, cuts: Sequence[Cut]) -> Any: ...


def embed_batch(index: Embedding, batch: list[CutFile],
                fail: Callable[[str, str, int], None]) -> list[tuple[Cut, CutFile]]:
    """The batch's searchable chunks embedded in one call; a document with a chunk over the
    model's input limit fails alone (``fail(path, reason, size)``, with its longest chunk), the
    others are embedded. ``index``: what embeds them (an ``Index``, or a Ray actor's model)."""
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
                              f"({exc.long[0].max_input_tokens}); cut with a smaller --size", f.size)
        keep = [c for i, c in enumerate(cuts) if i not in bad]
        return embed_batch(index, [f for _, f in keep], fail) if keep else []
    return cuts


def finish_text_index(index: "Index", report: BuildReport) -> None:
    """Once every batch is written: the index's text index brought up to date (where anything
    was written, or a stopped build left it behind), timed as the ``text index`` stage."""
    t0, c0 = time.perf_counter(), time.process_time()
    if report.added or report.replaced or not index.is_finished():
        index.finish()
    final = report.stage("text index")
    final.busy, final.cpu, final.items = time.perf_counter() - t0, time.process_time() - c0, report.chunks


def wrap_up(index: "Index", report: BuildReport, earlier: BuildReport | None, bar: Throughput,
             progress: bool) -> BuildReport:
    """``report``, the whole build's, saved in the index folder as finished (where it did
    anything or carried a stopped run on: ``earlier``) and logged where no terminal shows it."""
    if report.added or report.replaced or earlier is not None:
        save_report(index.path, report, finished=True)
    if progress and not bar.terminal:
        bar.log()
    return report


def written(index: "Index", report: BuildReport, cuts: Sequence[tuple[Cut, CutFile]],
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
        save_report(index.path, so_far(), finished=False)
    except OSError as exc:
        if is_disk_full(exc):
            raise index.disk_full(exc, kept="every batch before this one is in the index (this "
                                       "one too), and the next run goes on from there") from exc
        raise
