"""Build a ``Document`` from structural elements, each a span of the text it writes.

Every structured reader (PDF, OCR, Markdown, HTML, DOCX) says what it found, in reading order:
``add("heading", "Pests", level=2)``, ``add_table(rows)``; the builder writes the document text
(elements separated by a blank line, a table as one line per row with cells joined by `` | ``)
and records each element's span, each table row's span and where each page starts; and, where a
reader knows them, each element's box on its page and its lines' (a table's rows') spans and boxes
(``metadata["bbox"]`` and ``metadata["lines"]``, see ``seamcut.boxes``).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..model import Document, Element
from ..errors import ConfigError

#: a box on a page: (x0, top, x1, bottom) in points, ``top`` growing downwards
Rect = tuple[float, float, float, float]
#: a line of an element: (start, end) in the text given to ``add``, and its box
LineBox = tuple[int, int, float, float, float, float]

#: element kinds a reader may add
KINDS = ("title", "heading", "paragraph", "list_item", "table", "caption", "code",
         "page_header", "page_footer")
#: what separates elements in the document text
SEPARATOR = "\n\n"
#: what separates the cells of a table row in the document text
CELL_SEPARATOR = " | "


class DocumentBuilder:
    """Collects elements in reading order and writes the document text.

    ``source`` names the file; ``metadata`` goes on the document. Page numbers are 1-based.
    """

    def __init__(self, source: str, metadata: Mapping[str, Any] | None = None) -> None:
        self.source = source
        self.metadata: dict[str, Any] = dict(metadata or {})
        self._parts: list[str] = []
        self._length = 0
        self._elements: list[Element] = []
        self._page_starts: list[int] = []
        self._furniture: list[dict[str, Any]] = []

    def _write(self, text: str) -> tuple[int, int]:
        if self._parts:
            self._parts.append(SEPARATOR)
            self._length += len(SEPARATOR)
        start = self._length
        self._parts.append(text)
        self._length += len(text)
        return start, self._length

    def new_page(self, page: int) -> None:
        """Pages from here on are ``page``; records where it starts in the text."""
        while len(self._page_starts) < page:
            sep = len(SEPARATOR) if self._parts else 0
            self._page_starts.append(self._length + sep if self._parts else 0)

    def add(self, kind: str, text: str, *, level: int | None = None, page: int | None = None,
            language: str | None = None, metadata: Mapping[str, Any] | None = None,
            lines: Sequence[LineBox] | None = None, bbox: Rect | None = None) -> Element | None:
        """Add one element; text that is empty after stripping adds nothing (returns None).
        ``lines``: its visual lines, each a span of ``text`` as given (before stripping) and a box
        on ``page`` (points); ``bbox``: its box, where not the union of the lines'."""
        if kind not in KINDS:
            raise ConfigError(f"unknown element kind {kind!r}; one of {', '.join(KINDS)}")
        stripped = text.strip()
        if not stripped:
            return None
        lead = len(text) - len(text.lstrip())
        start, end = self._write(stripped)
        meta = dict(metadata or {})
        if lines:
            _put_boxes(meta, [(start + a - lead, start + b - lead, *box) for a, b, *box in lines],
                       start, end, bbox)
        elif bbox is not None:
            meta["bbox"] = _rounded(bbox)
        el = Element(kind=kind, start=start, end=end, level=level, page=page, language=language,
                     metadata=meta)
        self._elements.append(el)
        return el

    def add_table(self, rows: Sequence[Sequence[str]], header_rows: int = 1, *,
                  page: int | None = None, metadata: Mapping[str, Any] | None = None,
                  row_boxes: Sequence[Rect] | None = None, bbox: Rect | None = None) -> Element | None:
        """Add a table: one line per row, cells joined by `` | `` (a cell's own line breaks become
        spaces). ``metadata`` gets ``rows`` (the cells), ``header_rows`` and ``row_spans`` (each
        row's span in the document text); ``bbox`` and ``lines`` where the table's box
        (``bbox``) and each row's box (``row_boxes``, one per row of ``rows``) are given."""
        clean = [[" ".join(str(c or "").split()) for c in row] for row in rows]
        keep = [i for i, row in enumerate(clean) if any(row)]
        clean = [clean[i] for i in keep]
        if not clean:
            return None
        lines = [CELL_SEPARATOR.join(row) for row in clean]
        start, end = self._write("\n".join(lines))
        spans, pos = [], start
        for line in lines:
            spans.append((pos, pos + len(line)))
            pos += len(line) + 1
        meta = {**dict(metadata or {}), "rows": clean, "header_rows": min(header_rows, len(clean)),
                "row_spans": spans}
        if row_boxes is not None:
            if len(row_boxes) != len(rows):
                raise ConfigError(f"{len(row_boxes)} row boxes for a table of {len(rows)} rows")
            _put_boxes(meta, [(a, b, *row_boxes[i]) for (a, b), i in zip(spans, keep)], start, end,
                       bbox)
        elif bbox is not None:
            meta["bbox"] = _rounded(bbox)
        el = Element(kind="table", start=start, end=end, page=page, metadata=meta)
        self._elements.append(el)
        return el

    def add_furniture(self, kind: str, text: str, page: int) -> None:
        """Running headers, footers and page numbers: kept out of the text, kept as metadata."""
        self._furniture.append({"kind": kind, "text": text.strip(), "page": page})

    @property
    def elements(self) -> list[Element]:
        return self._elements

    def build(self, **fields: Any) -> Document:
        """The document; ``fields`` go on its metadata (format, extractor, ...)."""
        meta = {**self.metadata, **fields}
        if self._furniture:
            meta["furniture"] = self._furniture
        return Document(text="".join(self._parts), source=self.source,
                        elements=tuple(self._elements), page_starts=tuple(self._page_starts),
                        metadata=meta)


def _rounded(box: Sequence[float]) -> list[float]:
    """A box's coordinates to 0.1 pt."""
    return [round(float(v), 1) for v in box]


def _put_boxes(meta: dict[str, Any], lines: Sequence[LineBox], start: int, end: int,
               bbox: Rect | None) -> None:
    """``meta["lines"]``: ``lines`` (absolute spans) clipped to the element's ``[start, end)``,
    empty ones left out; ``meta["bbox"]``: ``bbox``, else the union of the lines' boxes."""
    kept = []
    for a, b, *box in lines:
        a, b = max(a, start), min(b, end)
        if a < b:
            kept.append([a, b, *_rounded(box)])
    if not kept:
        return
    meta["lines"] = kept
    meta["bbox"] = _rounded(bbox) if bbox is not None else [
        min(r[2] for r in kept), min(r[3] for r in kept), max(r[4] for r in kept),
        max(r[5] for r in kept)]
