"""Where a span sits in its document: the heading path above it and its language.

Computed once per document from its elements, then answered per span by binary search.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import Counter

from .model import Document, Element


def heading_text(document: Document, element: Element) -> str:
    """A heading's text without Markdown ``#`` marks or extra whitespace."""
    text = element.metadata.get("text") or document.text[element.start:element.end]
    return " ".join(text.lstrip("#").split())


class Outline:
    """The heading path (title first) in force at each point of a document, and its elements'
    languages."""

    def __init__(self, document: Document) -> None:
        self.document = document
        self._starts: list[int] = []
        self._paths: list[tuple[str, ...]] = []
        stack: list[tuple[int, str]] = []  # (level, text); the title is level 0
        for el in document.elements:
            if el.kind not in ("title", "heading"):
                continue
            level = 0 if el.kind == "title" else (el.level or 1)
            while stack and stack[-1][0] >= level:
                stack.pop()
            stack.append((level, heading_text(document, el)))
            self._starts.append(el.start)
            self._paths.append(tuple(t for _, t in stack if t))
        self._el_starts = [el.start for el in document.elements]
        self._el_ends = [el.end for el in document.elements]

    def path_at(self, pos: int) -> tuple[str, ...]:
        """The heading path of the section that ``pos`` lies in."""
        i = bisect_right(self._starts, pos) - 1
        return self._paths[i] if i >= 0 else ()

    def language_of(self, start: int, end: int) -> str | None:
        """The language most of ``[start, end)`` is in, by its elements' labels."""
        els = self.document.elements
        if not els:
            return self.document.language
        votes: Counter[str] = Counter()
        i = max(0, bisect_right(self._el_starts, start) - 1)
        j = bisect_left(self._el_starts, end)
        for el in els[i:j]:
            overlap = min(el.end, end) - max(el.start, start)
            if overlap > 0 and el.language:
                votes[el.language] += overlap
        return votes.most_common(1)[0][0] if votes else self.document.language
