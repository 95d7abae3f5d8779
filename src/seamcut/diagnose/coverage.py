"""Coverage: the non-whitespace text of the sources that no chunk holds, and the chunk text
that is not in the sources."""
from __future__ import annotations

import re
from difflib import SequenceMatcher
from typing import Sequence

from ..model import Document
from ..text.ranges import union_ranges
from ..text.space import SPACE, is_blank, space_mask
from .findings import Coverage, Foreign, Uncovered
from .records import ChunkRecord


def measure_coverage(records: list[ChunkRecord], placements: list, approx: set[int],
                     docs: Sequence[Document]) -> Coverage:
    """What of ``docs`` no placed chunk covers, and what of each chunk is not in its source
    (``approx``: chunks placed only once case and spacing were ignored)."""
    spans: dict[int, list[tuple[int, int]]] = {}
    for p in placements:
        if p:
            spans.setdefault(int(p[0]), []).append((p[1], p[2]))
    uncovered: list[Uncovered] = []
    total = 0
    for d_i, d in enumerate(docs):
        merged = union_ranges(spans.get(d_i, []))
        prev = 0
        for a, b in merged + [(len(d.text), len(d.text))]:
            if a > prev:
                for m in _SOLID_RUN.finditer(d.text, prev, a):
                    s, e = m.start(), m.end()
                    total += _solid_chars(d.text[s:e])
                    uncovered.append(Uncovered(d.source or d.id, s, e, _excerpt(d.text[s:e])))
            prev = max(prev, b)
    foreign: list[Foreign] = []
    for i, (r, p) in enumerate(zip(records, placements)):
        if p is None:
            if not is_blank(r.body):
                foreign.append(Foreign(i, _solid_chars(r.body), True, _excerpt(r.body)))
        elif i in approx:
            src = docs[int(p[0])].text[p[1]:p[2]]
            sm = SequenceMatcher(None, r.body, src, autojunk=False)
            n = len(r.body) - sum(m.size for m in sm.get_matching_blocks())
            if n:
                foreign.append(Foreign(i, n, False, _excerpt(r.body)))
    return Coverage(source_chars=sum(len(d.text) for d in docs), uncovered_chars=total,
                    uncovered=tuple(uncovered), foreign_chars=sum(f.chars for f in foreign),
                    foreign=tuple(foreign))


#: a run of text from its first non-whitespace character to its last
_SOLID_RUN = re.compile(f"[^{SPACE}](?:.*[^{SPACE}])?", flags=re.S)


def _solid_chars(text: str) -> int:
    """Characters of ``text`` that are not whitespace."""
    return len(text) - int(space_mask(text).sum())


def _excerpt(text: str, n: int = 80) -> str:
    t = " ".join(text.split())  # for display only: any run of blank characters shows as one space
    return t if len(t) <= n else t[:n - 1] + "…"
