"""Edit distance, for OCR's character and word error rates (tests and benchmarks/ocr/ocr.py)."""
from __future__ import annotations

from typing import Sequence


def levenshtein(a: Sequence[object], b: Sequence[object]) -> int:
    """The fewest insertions, deletions and substitutions that turn ``a`` into ``b``: characters
    of two strings, or words of two lists."""
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]
