"""Where a span of a document stands on its pages: the boxes of the lines it touches.

Coordinates are PDF points with the origin at the page's top-left corner and ``y`` growing
downwards, on the page as pypdfium2 renders it (``page.render(scale=s)``: a box times ``s`` is its
pixel box), rounded to 0.1 pt. The PDF reader records them on the elements: ``bbox``
(``[x0, top, x1, bottom]``) and ``lines`` (``[[start, end, x0, top, x1, bottom], ...]``, each
visual line, or table row, with its span in ``Document.text``); pages are 1-based.
"""
from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from typing import Any

from .model import Document


@dataclass(frozen=True, slots=True)
class Box:
    """A rectangle on page ``page`` (1-based): ``x0``, ``top``, ``x1``, ``bottom`` in points,
    ``top`` < ``bottom``, measured from the page's top-left corner."""

    page: int
    x0: float
    top: float
    x1: float
    bottom: float

    def to_list(self) -> list[Any]:
        """``[page, x0, top, x1, bottom]``, as a chunk's ``metadata["boxes"]`` holds it."""
        return [self.page, self.x0, self.top, self.x1, self.bottom]


class LineIndex:
    """A document's line boxes in text order, to find a span's boxes by bisection (offsets in
    the whole document's text, also for a window of it). An element with a ``bbox`` but no
    ``lines`` (a table whose rows have no boxes) is one line."""

    def __init__(self, doc: Document) -> None:
        starts, ends, rows = [], [], []
        off = getattr(doc, "offset", 0)  # a window's elements are in its offsets, lines in the document's
        for k, el in enumerate(doc.elements):
            meta = el.metadata
            if el.page is None or "bbox" not in meta:
                continue
            lines = meta.get("lines") or [[el.start + off, el.end + off, *meta["bbox"]]]
            for a, b, x0, top, x1, bottom in lines:
                starts.append(a)
                ends.append(b)
                rows.append((k, el.page, x0, top, x1, bottom))
        self._starts, self._ends, self._rows = starts, ends, rows

    def __bool__(self) -> bool:
        return bool(self._rows)

    def boxes(self, start: int, end: int) -> tuple[Box, ...]:
        """The boxes of the lines ``[start, end)`` touches (offsets in code points), the
        consecutive lines of one element merged into one rectangle, in text order."""
        out: list[Box] = []
        if end <= start:
            return ()
        last = None  # the element of the box at the end of ``out``
        i = bisect_right(self._ends, start)  # the first line ending after ``start``
        while i < len(self._starts) and self._starts[i] < end:
            k, page, x0, top, x1, bottom = self._rows[i]
            i += 1
            if k == last:
                b = out[-1]
                out[-1] = Box(page, min(b.x0, x0), min(b.top, top), max(b.x1, x1), max(b.bottom, bottom))
            else:
                out.append(Box(page, x0, top, x1, bottom))
                last = k
        return tuple(out)


def span_boxes(doc: Document, start: int, end: int) -> tuple[Box, ...]:
    """The boxes of the lines the span ``[start, end)`` of ``doc.text`` touches: consecutive
    lines of one element on one page merged into one rectangle, a box on each page a span
    crossing a page break touches; () for a document without boxes or an empty span. For many
    spans of one document, build one ``LineIndex`` and ask it."""
    return LineIndex(doc).boxes(start, end)
