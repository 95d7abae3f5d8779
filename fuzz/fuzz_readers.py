"""Fuzz the readers (PDF, DOCX, HTML, Markdown, text) with atheris: every input is a Document with
text or an ``InputError`` naming the file; any other exception is a crash atheris keeps.

An input is a format byte (``tests.helpers.fuzzing.FORMATS``) and the file's bytes; the seed
corpus (good files of each format) is written to ``fuzz/corpus/readers`` on the first run.
OCR is off (``SEAMCUT_FUZZ_OCR=auto`` turns it on: slow, a page a few seconds).

    OMP_NUM_THREADS=1 PYTHONPATH=src:. python fuzz/fuzz_readers.py fuzz/corpus/readers \\
        -max_total_time=600 -timeout=60 -rss_limit_mb=2048 -max_len=200000 -artifact_prefix=fuzz/crashes/
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import atheris

with atheris.instrument_imports(include=["seamcut"]):
    import seamcut.readers  # noqa: F401  (instrumented for coverage)
    import seamcut.readers.docx  # noqa: F401
    import seamcut.readers.html  # noqa: F401
    import seamcut.readers.pdf  # noqa: F401

from tests.helpers.fuzzing import read_bytes, seed_inputs, split_input

ROOT = Path(__file__).resolve().parent
FOLDER = tempfile.mkdtemp(prefix="seamcut-fuzz-")
OCR = os.environ.get("SEAMCUT_FUZZ_OCR", "never")


def test_one_input(data: bytes) -> None:
    suffix, body = split_input(data)
    read_bytes(body, suffix, FOLDER, OCR)


def write_seeds(corpus: Path) -> None:
    corpus.mkdir(parents=True, exist_ok=True)
    if not any(corpus.iterdir()):
        for k, data in enumerate(seed_inputs()):
            (corpus / f"seed-{k}").write_bytes(data)


def main() -> None:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    folders = [a for a in sys.argv[1:] if not a.startswith("-")]
    for folder in folders[:1]:
        write_seeds(Path(folder))
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
