"""Overlap as a pass over spans: each chunk but the first starts a little earlier, inside the
text of the chunk before, at a word boundary."""
from __future__ import annotations

from itertools import chain
from typing import Iterator

from ..text.space import SPACE_SET
from .size_limit import Reserve, SizeLimit
from .levels import RUN_START, space_start


def _cuts_near(text: str, p: int, lo: int, hi: int) -> Iterator[int]:
    """Whitespace-run starts in ``(lo, hi)`` to try for a cut wanted at ``p``, nearest first:
    the one before the word holding ``p`` (looked for at most 64 characters back) or the next one,
    then the ones after."""
    m = RUN_START.search(text, p, hi)
    after = m.start() if m else None
    k = p
    while k > max(lo, p - 64) and text[k - 1] not in SPACE_SET:
        k -= 1
    before = space_start(text, k, lo) if k > lo and text[k - 1] in SPACE_SET else None
    if before is not None and (before <= lo or before == after):
        before = None
    if before is not None and (after is None or p - before <= after - p):
        yield before
        before = None
    while after is not None:
        yield after
        if before is not None:
            yield before
            before = None
        m = RUN_START.search(text, after + 1, hi)
        after = m.start() if m else None
    if before is not None:
        yield before


def add_overlap(limit: SizeLimit, spans: list[tuple[int, int]], overlap: int,
                reserve: Reserve = 0) -> list[tuple[int, int]]:
    """Extend each chunk but the first backwards by about ``overlap`` units of the text before it,
    from the word boundary nearest that point, within the limits, always after the previous
    chunk's start (so an overlap larger than a chunk's own text reaches into earlier chunks).
    Where the text before is one long word, the overlap starts at a unit boundary."""
    if overlap <= 0 or len(spans) < 2:
        return spans
    text = limit.text
    measure = limit.unit_measure
    out = [spans[0]]
    for s, e in spans[1:]:
        ps = out[-1][0]
        target = max(measure.back(s, overlap), ps)
        start = s
        for cand in chain(_cuts_near(text, target, ps, s), (target,)):
            if ps < cand < s and limit.confirm(cand, e, reserve):
                start = cand
                break
        out.append((start, e))
    return out
