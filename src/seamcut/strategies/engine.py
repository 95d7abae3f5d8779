"""The one packing engine behind the text strategies.

A strategy only says where its boundaries are: an ordered tuple of ``Level``s, biggest break
first. The engine cuts a document at the first level, cuts any piece that is still over the limit
at the next level, and so on down to single units; then joins small neighbours back up to the limit
and adds overlap built from the text before each chunk. Sizes are estimated from one measure of the
document and confirmed with a real count wherever an estimate could be off (``Measure.needs_check``).
"""
from __future__ import annotations

import re
from itertools import chain
from dataclasses import dataclass
from typing import Callable, Iterator, Sequence

from ..model import Chunk, Document, stable_hash
from ..outline import Outline
from ..text import SPACE, is_blank, paragraph_gaps, sentence_breaks
from ..text.space import SPACE_SET
from ..tokens import Measure, Sizer, load_sizer, unit_sizer
from .config import SizeConfig

Cuts = Callable[[str, int, int, "str | None"], list[int]]


@dataclass(frozen=True)
class Level:
    """One kind of break: ``cuts(text, start, end, language)`` gives the offsets strictly inside
    ``(start, end)`` where a new piece starts.

    A cut goes right after the break (the full stop, the comma, the last word of a paragraph),
    so the whitespace that follows opens the next piece. Whitespace before a word costs the same
    tokens there as inside the document, for every tokenizer; whitespace after the last word of a
    text does not (a Unigram tokenizer adds a ``▁`` for it), so this keeps span estimates exact.
    """

    name: str
    cuts: Cuts


def _space_start(text: str, p: int, a: int) -> int:
    """The start of the whitespace run that ends at ``p`` (not before ``a``)."""
    while p > a and text[p - 1] in SPACE_SET:
        p -= 1
    return p


def _regex_cuts(pattern: str) -> Cuts:
    """Cuts at the start of each whitespace run that holds a match of ``pattern``."""
    rx = re.compile(pattern)

    def cuts(text: str, a: int, b: int, language: str | None = None) -> list[int]:
        out: list[int] = []
        for m in rx.finditer(text, a, b):
            c = _space_start(text, m.start(), a)
            if a < c < b and (not out or c > out[-1]):
                out.append(c)
        return out

    return cuts


def _sentence_cuts(text: str, a: int, b: int, language: str | None = None) -> list[int]:
    # a blank line ends a sentence too (sentence_breaks says so)
    return [a + p for p in sentence_breaks(text[a:b], language) if 0 < p < b - a]


def _paragraph_cuts(text: str, a: int, b: int, language: str | None = None) -> list[int]:
    # at the end of each paragraph, where the blank-line gap starts
    return [a + end for end, _ in paragraph_gaps(text[a:b]) if 0 < end < b - a]


_newline_cuts = _regex_cuts(r"\n")
_LINE_END = frozenset(".?!:;।॥|。！？…\"')]}»”’*-|")


def _line_cuts(text: str, a: int, b: int, language: str | None = None) -> list[int]:
    """Line breaks, unless the text is hard-wrapped prose (most lines long and ending mid-
    sentence, as in e-texts and e-mails wrapped at 70 columns): there a line break is only a
    space, and cutting there would cut sentences."""
    lines = text[a:b].split("\n")[:-1]
    if len(lines) >= 3:
        mid = sum(1 for ln in lines if len(ln) > 40 and ln.rstrip()[-1:] not in _LINE_END)
        if mid * 2 >= len(lines):
            return []
    return _newline_cuts(text, a, b, language)


PARAGRAPH = Level("paragraph", _paragraph_cuts)
LINE = Level("line", _line_cuts)
SENTENCE = Level("sentence", _sentence_cuts)
CLAUSE = Level("clause", _regex_cuts(
    f"(?<=[,;:\u060c\u3001\uff0c\uff1b\uff1a])[{SPACE}]|[{SPACE}][-\u2013\u2014][{SPACE}]"))
WORD = Level("word", _regex_cuts(f"[{SPACE}]+"))

#: The recursive hierarchy: blank line, line break, sentence end (danda included), clause
#: punctuation, space; below the last level, single units (tokens, words or characters).
RECURSIVE_LEVELS: tuple[Level, ...] = (PARAGRAPH, LINE, SENTENCE, CLAUSE, WORD)


@dataclass(frozen=True, slots=True)
class Piece:
    start: int
    end: int
    top: int          # index of the top-level unit it came from
    split: bool       # whether that top-level unit had to be cut further


class Budget:
    """The limits every chunk's text keeps: ``size`` in the configured unit and, where the model
    states one, its maximum input in tokens. ``reserve``, where a method takes it, is how many units
    of ``size`` to keep free (for overlap or a context put in front); it never applies to the
    model's maximum input."""

    def __init__(self, text: str, cfg: SizeConfig, embedded: bool = True) -> None:
        """``embedded=False``: chunks that are never embedded (parents sent to the model as
        context), so the embedding model's maximum input does not bound them."""
        self.text = text
        self.token_sizer: Sizer = load_sizer(cfg.tokenizer)
        max_input = self.token_sizer.max_input if embedded else None
        self.token_measure: Measure = self.token_sizer.measure(text)
        if cfg.unit == "tokens":
            if max_input is not None and cfg.size > max_input:
                raise ValueError(f"size {cfg.size} tokens is over the model's maximum input of "
                                 f"{max_input} tokens ({self.token_sizer.name})")
            self.unit_sizer, self.unit_measure = self.token_sizer, self.token_measure
            self.limits: list[tuple[Sizer, Measure, int]] = [
                (self.token_sizer, self.token_measure, cfg.size)]
        else:
            self.unit_sizer = unit_sizer(cfg.unit)
            self.unit_measure = self.unit_sizer.measure(text)
            self.limits = [(self.unit_sizer, self.unit_measure, cfg.size)]
            if max_input is not None:
                self.limits.append((self.token_sizer, self.token_measure, max_input))
        room = cfg.size - self.unit_measure.overhead
        if room <= cfg.overlap:
            raise ValueError(f"size {cfg.size} {cfg.unit} leaves {room} beside the "
                             f"{self.unit_measure.overhead} the model adds to every text: "
                             f"not more than the overlap ({cfg.overlap})")
        self.counted: dict[tuple[int, int], int] = {}   # real token counts already made

    def fits(self, a: int, b: int, reserve: int = 0) -> bool:
        """Whether ``text[a:b]`` fits by estimate, ``reserve`` units kept free."""
        limits = self.limits
        _, m, lim = limits[0]
        if m.count(a, b) > lim - reserve:
            return False
        return all(m.count(a, b) <= lim for _, m, lim in limits[1:])

    def max_end(self, a: int, reserve: int = 0) -> int:
        """The farthest end, cut at a unit boundary, at which ``text[a:end]`` fits by estimate,
        ``reserve`` units kept free."""
        return min(m.max_end(a, lim - reserve if i == 0 else lim)
                   for i, (_, m, lim) in enumerate(self.limits))

    def confirm(self, a: int, b: int, reserve: int = 0) -> bool:
        """Whether ``text[a:b]`` fits, ``reserve`` units kept free, with a real count wherever
        the estimate could be off."""
        for i, (sizer, m, lim) in enumerate(self.limits):
            lim = lim - reserve if i == 0 else lim
            est = m.count(a, b)
            if est > lim:
                return False
            if m.needs_check(a, b, est, lim):
                real = sizer.count(self.text[a:b])
                if sizer is self.token_sizer:
                    self.counted[(a, b)] = real
                if real > lim:
                    return False
        return True

    def tokens(self, a: int, b: int) -> int:
        """The model's token count of ``text[a:b]`` on its own (real where one was made)."""
        got = self.counted.get((a, b))
        if got is not None:
            return got
        m = self.token_measure
        est = m.count(a, b)
        if m.margin or m.needs_check(a, b, est, 1 << 30):
            got = self.token_sizer.count(self.text[a:b])
            self.counted[(a, b)] = got
            return got
        return est


def unit_pieces(budget: Budget, a: int, b: int, top: int, reserve: int = 0) -> list[Piece]:
    """Cut ``[a, b)`` into runs of whole units, each as long as the budget allows."""
    out = []
    while a < b:
        e = min(budget.max_end(a, reserve), b)
        if e <= a:  # not even one unit fits beside the overhead: take one unit anyway
            nxt = budget.unit_measure.unit_bounds(a, b)
            e = int(nxt[0]) if len(nxt) else b
        out.append(Piece(a, e, top, True))
        a = e
    return out


def split(budget: Budget, levels: Sequence[Level], a: int, b: int, top: int,
          language: str | None, depth: int = 0, reserve: int = 0) -> list[Piece]:
    """Cut ``[a, b)`` at the biggest break that makes pieces fit (by estimate), ``reserve``
    units kept free."""
    if budget.fits(a, b, reserve):
        return [Piece(a, b, top, depth > 0)]
    for i in range(depth, len(levels)):
        cuts = levels[i].cuts(budget.text, a, b, language)
        if cuts:
            out: list[Piece] = []
            for s, e in zip([a, *cuts], [*cuts, b]):
                out.extend(split(budget, levels, s, e, top, language, i + 1, reserve))
            return out
    return unit_pieces(budget, a, b, top, reserve)


def pieces_of(budget: Budget, levels: Sequence[Level], language: str | None,
              reserve: int = 0) -> list[Piece]:
    """Cut the whole text into pieces: first-level units, split further where over the limit."""
    text = budget.text
    n = len(text)
    if is_blank(text):
        return []
    cuts = levels[0].cuts(text, 0, n, language) if levels else []
    out: list[Piece] = []
    for top, (s, e) in enumerate(zip([0, *cuts], [*cuts, n])):
        if budget.fits(s, e, reserve):
            out.append(Piece(s, e, top, False))
        else:
            out.extend(split(budget, levels, s, e, top, language, 1, reserve))
    return out


Barrier = Callable[[Piece, Piece], bool]


def no_barrier(p: Piece, q: Piece) -> bool:
    return False


def within_top(p: Piece, q: Piece) -> bool:
    """Join only pieces of the same top-level unit (e.g. the same paragraph)."""
    return p.top != q.top


def keep_split_units_apart(p: Piece, q: Piece) -> bool:
    """Join whole top-level units freely; pieces of a split unit only with each other."""
    return p.top != q.top and (p.split or q.split)


def merge(budget: Budget, pieces: list[Piece], barrier: Barrier,
          reserve: int = 0) -> list[tuple[int, int]]:
    """Join neighbouring pieces greedily up to the limit, ``reserve`` units kept free; confirm
    each chunk with a real count where needed, giving pieces back to the next chunk (or cutting a
    piece) when over."""
    pieces = list(pieces)
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(pieces):
        s = pieces[i].start
        j = i
        while (j + 1 < len(pieces) and not barrier(pieces[j], pieces[j + 1])
               and budget.fits(s, pieces[j + 1].end, reserve)):
            j += 1
        while not budget.confirm(s, pieces[j].end, reserve):
            if j > i:
                j -= 1
                continue
            p = pieces[i]
            if p.end - p.start < 2:  # one character over the limit: nothing smaller to give
                break
            cut = _shrink(budget, p.start, p.end, reserve)
            pieces[i:i + 1] = [Piece(p.start, cut, p.top, True), Piece(cut, p.end, p.top, True)]
        if not is_blank(budget.text, s, pieces[j].end):  # whitespace alone makes no chunk
            out.append((s, pieces[j].end))
        i = j + 1
    return out


def _shrink(budget: Budget, a: int, b: int, reserve: int = 0) -> int:
    """The farthest cut in ``(a, b)`` at which ``[a, cut)`` fits for real: at a word boundary or
    a unit boundary where one fits, else at a character (``a + 1`` at the least)."""
    bounds = budget.unit_measure.unit_bounds(a, b)
    ws = [m.start() for m in _RUN_START.finditer(budget.text, a, b)]
    for c in sorted({w for w in ws if a < w < b} | set(bounds), reverse=True):
        if budget.confirm(a, c, reserve):
            return c
    lo, hi = a + 1, b - 1  # the largest character cut that fits, by bisection
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if budget.confirm(a, mid, reserve):
            lo = mid
        else:
            hi = mid - 1
    return lo


_RUN_START = re.compile(f"(?<![{SPACE}])[{SPACE}]")


def _cuts_near(text: str, p: int, lo: int, hi: int) -> Iterator[int]:
    """Whitespace-run starts in ``(lo, hi)`` to try for a cut wanted at ``p``, nearest first:
    the one before the word holding ``p`` (looked for at most 64 characters back) or the next one,
    then the ones after."""
    m = _RUN_START.search(text, p, hi)
    after = m.start() if m else None
    k = p
    while k > max(lo, p - 64) and text[k - 1] not in SPACE_SET:
        k -= 1
    before = _space_start(text, k, lo) if k > lo and text[k - 1] in SPACE_SET else None
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
        m = _RUN_START.search(text, after + 1, hi)
        after = m.start() if m else None
    if before is not None:
        yield before


def add_overlap(budget: Budget, spans: list[tuple[int, int]], overlap: int,
                reserve: int = 0) -> list[tuple[int, int]]:
    """Extend each chunk but the first backwards by about ``overlap`` units of the text before it,
    from the word boundary nearest that point, within the limits, always after the previous
    chunk's start (so an overlap larger than a chunk's own text reaches into earlier chunks).
    Where the text before is one long word, the overlap starts at a unit boundary."""
    if overlap <= 0 or len(spans) < 2:
        return spans
    text = budget.text
    measure = budget.unit_measure
    out = [spans[0]]
    for s, e in spans[1:]:
        ps = out[-1][0]
        target = max(measure.back(s, overlap), ps)
        start = s
        for cand in chain(_cuts_near(text, target, ps, s), (target,)):
            if ps < cand < s and budget.confirm(cand, e, reserve):
                start = cand
                break
        out.append((start, e))
    return out


def build_chunks(doc: Document, spans: Sequence[tuple[int, int]], budget: Budget, strategy: str,
                 fingerprint: str) -> list[Chunk]:
    """Chunks for document spans: plain strategies put no context in front of the body. Each
    chunk gets the heading path where its first word stands and the language of most of it."""
    text = doc.text
    outline = Outline(doc) if doc.elements else None
    meta = {**doc.metadata, "config": fingerprint}
    out = []
    for a, b in spans:
        body = text[a:b]
        first = b - len(body.lstrip())  # where the chunk's first word is
        out.append(Chunk(
            id=stable_hash(doc.id, a, b, fingerprint, body),
            doc_id=doc.id, source=doc.source, start=a, end=b, context="", text=body,
            tokens=budget.tokens(a, b), pages=doc.pages_of(a, b),
            heading_path=outline.path_at(first) if outline else (),
            language=outline.language_of(a, b) if outline else doc.language,
            strategy=strategy, metadata=meta))
    return out
