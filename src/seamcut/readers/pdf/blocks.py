"""Segments (words on one line of one column) and blocks (a paragraph, heading, list item or
table): what page layout makes of a page's words. Units: points, ``top`` growing downwards."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from .words import Word, words_text


@dataclass
class Segment:
    """Words on one baseline that belong together (a line of one column)."""
    x0: float
    top: float
    x1: float
    bottom: float
    words: list[Word]
    size: float = 0.0
    bold: float = 0.0  # share of characters in a bold font
    italic: float = 0.0  # share of characters in an italic font

    @property
    def text(self) -> str:
        return words_text(self.words)


@dataclass
class Block:
    """Consecutive segments of one column: a paragraph, heading, list item or table."""
    x0: float
    top: float
    x1: float
    bottom: float
    segments: list[Segment] = field(default_factory=list)
    kind: str = ""  # "" (text) or "table"
    rows: list[list[str]] | None = None
    size: float = 0.0
    bold: float = 0.0
    italic: float = 0.0
    tag: str | None = None  # structure tag from a tagged PDF
    header_rows: int = 1  # tables: how many leading rows are the header
    #: tables: each row's box (x0, top, x1, bottom), one per row of ``rows``; None where unknown
    row_boxes: list[tuple[float, float, float, float]] | None = None

    @property
    def lines(self) -> list[str]:
        return [s.text for s in self.segments]

    def extend(self, s: Segment) -> None:
        self.segments.append(s)
        self.x0, self.top = min(self.x0, s.x0), min(self.top, s.top)
        self.x1, self.bottom = max(self.x1, s.x1), max(self.bottom, s.bottom)


def enclosing(items: Iterable[Any]) -> tuple[float, float, float, float]:
    """The box (x0, top, x1, bottom, in points) around words, segments or blocks (not empty)."""
    items = list(items)
    return (min(i.x0 for i in items), min(i.top for i in items), max(i.x1 for i in items),
            max(i.bottom for i in items))


def same_line(a: Block | Segment, b: Block | Segment) -> bool:
    """Whether two blocks (or segments) overlap vertically by half the lower one's height or more."""
    return min(a.bottom, b.bottom) - max(a.top, b.top) >= 0.5 * min(a.bottom - a.top, b.bottom - b.top)


def shift_blocks(blocks: list[Block], dx: float, dy: float) -> None:
    """Move ``blocks`` (their segments, words and table rows too) by ``dx``, ``dy`` points, in
    place: from one page frame to another."""
    if not (dx or dy):
        return
    seen: set[int] = set()
    for b in blocks:
        b.x0, b.top, b.x1, b.bottom = b.x0 + dx, b.top + dy, b.x1 + dx, b.bottom + dy
        if b.row_boxes is not None:
            b.row_boxes = [(x0 + dx, t + dy, x1 + dx, u + dy) for x0, t, x1, u in b.row_boxes]
        for s in b.segments:
            s.x0, s.top, s.x1, s.bottom = s.x0 + dx, s.top + dy, s.x1 + dx, s.bottom + dy
            for w in s.words:
                if id(w) not in seen:
                    seen.add(id(w))
                    w.x0, w.top, w.x1, w.bottom = w.x0 + dx, w.top + dy, w.x1 + dx, w.bottom + dy
