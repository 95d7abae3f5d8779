"""Fuzz the strategies with atheris over random Documents with random elements, checking
DESIGN.md's invariants (``tests.helpers.invariants.check_invariants``): every chunk's body is
``text[start:end]``, bodies tile the text (no non-whitespace character lost or repeated without
overlap), no chunk over the size limit or the model's maximum input (counted for real), the same
chunks again from the same input. A failed check or any exception is a crash atheris keeps.

    OMP_NUM_THREADS=1 PYTHONPATH=src:. python fuzz/fuzz_strategies.py fuzz/corpus/strategies \\
        -max_total_time=600 -timeout=60 -rss_limit_mb=2048 -max_len=4096 -artifact_prefix=fuzz/crashes/
"""
from __future__ import annotations

import os
import sys

import atheris

with atheris.instrument_imports(include=["seamcut"]):
    import seamcut  # noqa: F401
    import seamcut.strategies  # noqa: F401

from tests.helpers.fuzzing import random_document
from tests.helpers.invariants import STRATEGIES, check_invariants

UNITS = (("tokens", None), ("words", None), ("chars", None))


def test_one_input(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    strategy = STRATEGIES[fdp.ConsumeIntInRange(0, len(STRATEGIES) - 1)]
    unit, tokenizer = UNITS[fdp.ConsumeIntInRange(0, len(UNITS) - 1)]
    size = fdp.ConsumeIntInRange(16, 120) if unit != "chars" else fdp.ConsumeIntInRange(20, 400)
    overlap = (0, 0, size // 10, size // 4)[fdp.ConsumeIntInRange(0, 3)]
    picks = [tuple(fdp.ConsumeIntInRange(0, 4000) for _ in range(4)) for _ in range(fdp.ConsumeIntInRange(0, 12))]
    pages = [fdp.ConsumeIntInRange(0, 4000) for _ in range(fdp.ConsumeIntInRange(0, 4))]
    text = fdp.ConsumeUnicodeNoSurrogates(fdp.remaining_bytes())
    check_invariants(random_document(text, picks, pages), strategy, size, overlap, unit, tokenizer)


def main() -> None:
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
