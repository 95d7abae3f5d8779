"""Markdown: the file's text unchanged, with elements found by a CommonMark parser.

markdown-it-py gives each block the source lines it came from; an element's span is those lines
(without the surrounding whitespace), so offsets stay file offsets.
"""
from __future__ import annotations

from typing import Any

from ..model import Document, Element
from ..text.space import SPACE_CHARS
from .text import read_text

#: raw HTML blocks are paragraphs: they hold text, and the structure strategy chunks elements
#: only (one at the end of a file was lost)
_BLOCKS = {"paragraph_open": "paragraph", "fence": "code", "code_block": "code", "html_block": "paragraph"}


def _line_starts(text: str) -> list[int]:
    starts = [0]
    pos = text.find("\n")
    while pos != -1:
        starts.append(pos + 1)
        pos = text.find("\n", pos + 1)
    return starts


def markdown_elements(text: str) -> tuple[Element, ...]:
    """Headings (with level), paragraphs, list items, tables (rows, header row, row spans) and
    code blocks of a Markdown text, as spans of it."""
    from markdown_it import MarkdownIt

    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    lines = _line_starts(text)

    def span(a: int, b: int) -> tuple[int, int]:
        start = lines[a] if a < len(lines) else len(text)
        end = lines[b] if b < len(lines) else len(text)
        chunk = text[start:end]  # seamcut's whitespace: controls such as \x0c and \x1c are text
        lead = len(chunk) - len(chunk.lstrip(SPACE_CHARS))
        return start + lead, start + len(chunk.rstrip(SPACE_CHARS))

    out: list[Element] = []
    list_depth = 0
    i = 0
    while i < len(tokens):
        t = tokens[i]
        kind: str | None = None
        meta: dict[str, Any] = {}
        level = None
        if t.type == "heading_open":
            kind, level = "heading", int(t.tag[1])
            meta = {"text": tokens[i + 1].content.strip()}  # the heading without its # marks
        elif t.type == "list_item_open":
            list_depth += 1
            kind = "list_item"
            meta = {"depth": list_depth}
        elif t.type == "list_item_close":
            list_depth -= 1
        elif t.type == "paragraph_open" and list_depth:
            kind = None  # the list item holds it
        elif t.type in _BLOCKS:
            kind = _BLOCKS[t.type]
        elif t.type == "table_open":
            rows, row_spans, header_rows, j = [], [], 0, i + 1
            row: list[str] = []
            while tokens[j].type != "table_close":
                tj = tokens[j]
                if tj.type == "tr_open":
                    row = []
                    row_spans.append(span(*tj.map))
                elif tj.type == "inline":
                    row.append(tj.content.strip())
                elif tj.type == "tr_close":
                    rows.append(row)
                elif tj.type == "thead_close":
                    header_rows = len(rows)
                j += 1
            a, b = span(*t.map)
            out.append(Element("table", a, b, metadata={
                "rows": rows, "header_rows": header_rows, "row_spans": row_spans}))
            i = j + 1
            continue
        if kind and t.map:
            a, b = span(*t.map)
            if b > a:
                out.append(Element(kind, a, b, level=level, metadata=meta))
        i += 1
    return tuple(out)


def read_markdown(path: Any, encoding: str | None = None) -> Document:
    """A Markdown file as a document: its text unchanged, elements from its structure; the first
    level-1 heading is the title when it opens the file."""
    doc = read_text(path, encoding)
    elements = list(markdown_elements(doc.text))
    if elements and elements[0].kind == "heading" and elements[0].level == 1:
        first = elements[0]
        elements[0] = Element("title", first.start, first.end, level=1, metadata=first.metadata)
    return Document(text=doc.text, source=doc.source, elements=tuple(elements),
                    metadata={**doc.metadata, "format": "markdown"})


__all__ = ["read_markdown", "markdown_elements"]
