"""A contestant that reads with its own library's reader goes through the build's one door: its
reading is read by the worker in place of seamcut's, kept in the parse cache under its library's
versions, and cut into chunks laid out as their own document."""
from __future__ import annotations

from dataclasses import replace

from seamcut.peers import parse_contestant
from seamcut.pipeline.corpus import ReadJob, ReadOptions, read_file
from seamcut.pipeline.jobs import CutJob, cut_jobs
from seamcut.pipeline.options import BuildOptions
from seamcut.pipeline.stages import cut_file
from tests.helpers.data import HELPLINE

COTTON = str(HELPLINE / "cotton-manual.pdf")


def test_the_library_reader_is_cached_and_given_back_whole(tmp_path) -> None:
    spec = parse_contestant("langchain:recursive:chunk_size=500")
    options = ReadOptions(reader=spec.reads)
    first = read_file(ReadJob(COTTON, options, {}, str(tmp_path)))
    assert first.failure is None and len(list(tmp_path.glob("*.json"))) == 1
    again = read_file(ReadJob(COTTON, options, {}, str(tmp_path)))
    assert again.document == first.document
    assert first.document.metadata["reader"].startswith("langchain PyPDFLoader")
    # seamcut's own reading of the same bytes is another cache entry, not this one
    ours = read_file(ReadJob(COTTON, ReadOptions(), {}, str(tmp_path)))
    assert ours.document.text != first.document.text and len(list(tmp_path.glob("*.json"))) == 2
    # another version of the library reads again
    older = replace(spec.reads, versions=(("langchain-community", "0.0.1"),))
    read_file(ReadJob(COTTON, ReadOptions(reader=older), {}, str(tmp_path)))
    assert len(list(tmp_path.glob("*.json"))) == 3


def test_a_worker_cuts_with_the_library_and_hands_back_the_laid_out_document(tmp_path) -> None:
    spec = parse_contestant("langchain:recursive:chunk_size=500:chunk_overlap=50")
    (job,) = cut_jobs([COTTON], spec, BuildOptions(cache=str(tmp_path)), {})
    assert isinstance(job, CutJob) and job.read.options.reader == spec.reads
    got = cut_file(job)
    doc = got.read.document
    assert doc.metadata["laid_out"] == "chunks" and doc.metadata["contestant"] == spec.label
    assert got.chunks and all(doc.text[c.start:c.end] == c.text for c in got.chunks)
    assert max(len(c.text) for c in got.chunks) <= 500
    assert all(c.strategy == spec.label and c.pages for c in got.chunks)
    # seamcut's reading, cut by the same splitter
    (ours,) = cut_jobs([COTTON], parse_contestant("langchain:recursive:chunk_size=500:reader=seamcut"),
                       BuildOptions(cache=str(tmp_path)), {})
    assert ours.read.options.reader is None
    assert cut_file(ours).read.document.metadata["reader"] != doc.metadata["reader"]
