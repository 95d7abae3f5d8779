"""One page as an extractor gives it: laid-out blocks (pdfium, pdfplumber) or plain paragraphs
(pdftotext, OCR), the extractor's name and notes on what happened."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .blocks import Block
from .hyphenation import join_lines

#: (kind, text, metadata) of an element from a page that did not go through layout
Plain = tuple[str, str, dict[str, Any]]
#: (page index, block index): a block of the document
Key = tuple[int, int]


@dataclass
class Page:
    """``number``: 1-based; ``width``/``height``: in points; ``extractor``: what read it (pdfium,
    pdfplumber, pdftotext, ocr, none); ``blocks`` in reading order, or ``plain`` elements."""
    number: int
    width: float
    height: float
    extractor: str
    blocks: list[Block] = field(default_factory=list)
    plain: list[Plain] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def page_text(blocks: list[Block]) -> str:
    """The text of a page's blocks (to judge its quality): lines, then table cells."""
    return "\n".join(s.text for b in blocks for s in b.segments) + "\n".join(
        c for b in blocks if b.rows for r in b.rows for c in r)


def plain_paragraphs(text: str) -> list[Plain]:
    """Paragraphs of plain text (pdftotext's, OCR's): split at blank lines and form feeds."""
    out = []
    for para in re.split(r"\n\s*\n", text.replace("\f", "\n")):
        t = join_lines(para.splitlines())
        if t:
            out.append(("paragraph", t, {}))
    return out
