"""Placing chunks in their source documents: which document each chunk comes from, and where its
body lies there (every occurrence considered, exact or with case, accents and spacing ignored;
a dynamic program picks the placement that leaves the least text out). Offsets are code points."""
from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Sequence

from ..model import Document
from ..text.space import SPACE_SET, is_blank, solid_prefix
from .records import ChunkRecord

#: the most occurrences of one chunk's text considered when placing it in a document
MAX_OCCURRENCES = 512
#: above this many candidate transitions between two neighbours, placement falls back to greedy
MAX_TRANSITIONS = 250_000


def doc_key(r: ChunkRecord, docs: Sequence[Document]) -> str:
    """Which source document a chunk belongs to: its index among ``docs`` as a string, or the
    chunk's own source name where no document matches (``""`` when unknown)."""
    if not docs:
        return r.source or r.doc_id
    for name in (r.source, r.doc_id):
        if not name:
            continue
        for i, d in enumerate(docs):
            if name in (d.source, d.id):
                return str(i)
        path = Path(name)
        for i, d in enumerate(docs):
            if d.source and (_same_file(path, Path(d.source)) or Path(d.source).name == path.name):
                return str(i)
    if len(docs) == 1:
        return "0"
    for i, d in enumerate(docs):  # no name to go by: the document that holds the text
        if r.body and r.body in d.text:
            return str(i)
    return r.source or r.doc_id


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def place_all(records: list[ChunkRecord], keys: list[str], docs: Sequence[Document]
              ) -> tuple[list[tuple[str, int, int] | None], set[int]]:
    """Where each chunk's body lies in its document, as ``(key, start, end)`` (None: nowhere),
    and which placements were found only by ignoring case and spacing."""
    out: list[tuple[str, int, int] | None] = [None] * len(records)
    approx: set[int] = set()
    groups: dict[str, list[int]] = {}
    for i, k in enumerate(keys):
        if k.isdigit() and int(k) < len(docs):
            groups.setdefault(k, []).append(i)
    for k, idx in groups.items():
        text = docs[int(k)].text
        placer = _Placer(text)
        cands = []
        for i in idx:
            r = records[i]
            c, is_approx = placer.candidates(r)
            if is_approx:
                approx.add(i)
            cands.append(c)
        for i, span in zip(idx, placer.choose(cands)):
            out[i] = (k, *span) if span else None
    return out, approx


class _Placer:
    """Places chunk bodies in one document's text.

    Each chunk's candidates are every exact occurrence of its body (or, where there is none,
    every occurrence once case, accents and whitespace are ignored). A dynamic program then picks
    one candidate per chunk, in document order (each start and end after the previous one's),
    leaving the least non-whitespace text uncovered; ties go to the smallest overlap and then to
    the earliest place. A chunk with no candidate, or no candidate in order, starts a new run.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.solid = solid_prefix(text)
        self._norm: tuple[str, list[int]] | None = None

    def nonspace(self, a: int, b: int) -> int:
        return int(self.solid[b] - self.solid[a]) if b > a else 0

    def candidates(self, r: ChunkRecord) -> tuple[list[tuple[int, int]], bool]:
        t, body = self.text, r.body
        if r.start is not None and r.end is not None and t[r.start:r.end] == body and body:
            return [(r.start, r.end)], False
        if not is_blank(body):
            found = _occurrences(t, body)
            if found:
                return [(s, s + len(body)) for s in found], False
        return self._normalised(body), True

    def _normalised(self, body: str) -> list[tuple[int, int]]:
        if self._norm is None:
            self._norm = _normalise_with_map(self.text)
        norm, where = self._norm
        nb, _ = _normalise_with_map(body)
        if not nb:
            return []
        return [(where[s], where[s + len(nb) - 1] + 1) for s in _occurrences(norm, nb)]

    def choose(self, cands: list[list[tuple[int, int]]]) -> list[tuple[int, int] | None]:
        n, t = len(cands), len(self.text)
        chosen: list[tuple[int, int] | None] = [None] * n
        # cost[i][j]: least (uncovered non-space, overlap) up to chunk i placed at cands[i][j]
        back: list[list[int]] = []
        cost: list[list[tuple[int, int]]] = []
        prev_i = -1
        BIG = 10 ** 12
        for i in range(n):
            ci = cands[i]
            if not ci:
                back.append([])
                cost.append([])
                continue
            if prev_i < 0:
                cost.append([(self.nonspace(0, s), 0) for s, _ in ci])
                back.append([-1] * len(ci))
                prev_i = i
                continue
            cp, costp = cands[prev_i], cost[prev_i]
            row, brow = [], []
            greedy = len(ci) * len(cp) > MAX_TRANSITIONS
            best_prev = min(range(len(cp)), key=lambda j: costp[j])
            for s, e in ci:
                best, arg = None, -1
                for j, (ps, pe) in enumerate(cp):
                    if greedy and j != best_prev:
                        continue
                    if s <= ps or e <= pe:
                        continue
                    gap = self.nonspace(pe, s)
                    c = (costp[j][0] + gap, costp[j][1] + max(0, pe - s))
                    if best is None or c < best:
                        best, arg = c, j
                if best is None:  # out of order after every candidate: a new run
                    best = (costp[best_prev][0] + BIG + self.nonspace(0, s), costp[best_prev][1])
                    arg = -2 - best_prev
                row.append(best)
                brow.append(arg)
            cost.append(row)
            back.append(brow)
            prev_i = i
        if prev_i < 0:
            return chosen
        # close: text after the last chunk is uncovered too
        last = cands[prev_i]
        j = min(range(len(last)), key=lambda x: (cost[prev_i][x][0] + self.nonspace(last[x][1], t),
                                                 cost[prev_i][x][1], last[x][0]))
        i = prev_i
        while i >= 0 and j != -1:
            chosen[i] = cands[i][j]
            arg = back[i][j]
            i -= 1
            while i >= 0 and not cands[i]:
                i -= 1
            j = arg if arg >= -1 else -2 - arg
        return chosen


def _occurrences(text: str, needle: str, limit: int = MAX_OCCURRENCES) -> list[int]:
    """Every start of ``needle`` in ``text``, overlapping ones included (at most ``limit``)."""
    out, p = [], text.find(needle)
    while p >= 0 and len(out) < limit:
        out.append(p)
        p = text.find(needle, p + 1)
    return out


def _invisible(ch: str) -> bool:
    """Whitespace, or a control or line/paragraph separator (tokenizers drop or split at them,
    and tools rewrite them freely)."""
    return ch in SPACE_SET or unicodedata.category(ch) in ("Cc", "Zl", "Zp")


def _normalise_with_map(text: str) -> tuple[str, list[int]]:
    """``text`` case-folded, without accents and without invisible characters (``_invisible``),
    and for each character of the result the offset in ``text`` it came from."""
    out: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        if _invisible(ch):
            continue
        for c in unicodedata.normalize("NFKD", ch.casefold()):
            if unicodedata.combining(c) or _invisible(c):
                continue
            out.append(c)
            where.append(i)
    return "".join(out), where
