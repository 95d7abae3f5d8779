"""Born-digital PDF reader: text layer to ``Document`` with headings, lists, tables, reading order.

Per page (``extractors``): pypdfium2's words (``words``: one pass over the text page's
characters, ~4x faster than pdfplumber's page parse) and ruling lines (``edges``); ruled tables
through pdfplumber's table finder run on pdfium's edges and characters, no pdfplumber parse
(``tables``); tables of contents (dot leaders) as [entry, page] tables, the remaining words
grouped into lines, split at column gutters, unruled tables found column by column
(``text_tables``), the rest grouped into blocks and put in reading order, columns followed
(``layout``). A page whose text is garbled is read with pdfplumber, then ``pdftotext``, then OCR;
right-to-left scripts go to ``pdftotext``; a page with no text layer goes to OCR (``scans``).
Document-wide (``assemble``): running headers/footers, page numbers and margin line numbers
become furniture (``furniture``); headings come from the font size (levels rank the distinct
larger-than-body sizes, ``headings``), bold weight and numbering, or from a tagged PDF's
structure tree where it tags headings (``tags``), and a layout heading needs body text after it
(cover, back-cover and diagram text is not a heading; ``classify``).

Boxes (``seamcut.boxes``): the document's ``page_sizes`` ([width, height] in points, one per
page) and, on each element of a laid-out or OCR'd page, ``bbox`` ([x0, top, x1, bottom]) and
``lines`` ([[start, end, x0, top, x1, bottom], ...]: each visual line, a table's rows, with its
span in the text, followed through hyphenation by ``join_line_spans``); points from the top-left
corner of the page as pypdfium2 renders it. Pages read as ``pdftotext``'s paragraphs have none.
"""
from __future__ import annotations

from .hyphenation import join_lines
from .quality import garble_score, is_garbled
from .reader import OCR_MODES, read_pdf
from .tables import fill_header_spans
from .text_tables import toc_tables
from .words import Word

__all__ = ["read_pdf", "is_garbled", "garble_score", "join_lines", "fill_header_spans",
           "toc_tables", "Word", "OCR_MODES"]
