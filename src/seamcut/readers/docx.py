"""Word (.docx): paragraphs and tables in body order, written out by the document builder.

python-docx reads the file; a paragraph's style says its kind ("Title", "Heading N", list styles
or numbering), tables become rows of cells (the first row is taken as the header), section headers
and footers are kept out of the text as furniture.
"""
from __future__ import annotations

import re
import zipfile
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..model import Document
from .builder import DocumentBuilder

_HEADING = re.compile(r"heading\s*(\d)", re.I)


def _kind(paragraph: Any) -> tuple[str, int | None]:
    style = (paragraph.style.name if paragraph.style is not None else "") or ""
    if style.lower() == "title":
        return "title", None
    m = _HEADING.match(style)
    if m:
        return "heading", int(m.group(1))
    ppr = paragraph._p.pPr
    if style.lower().startswith("list") or (ppr is not None and ppr.numPr is not None):
        return "list_item", None
    if style.lower() == "caption":
        return "caption", None
    return "paragraph", None


def read_docx(path: str | Path) -> Document:
    """Read a .docx file."""
    p = Path(path)
    try:
        import docx
        from docx.table import Table
        from docx.text.paragraph import Paragraph
        word = docx.Document(str(p))
    except (zipfile.BadZipFile, KeyError, ValueError) as exc:
        raise InputError(p, f"not a readable Word document ({exc})") from None
    except OSError as exc:
        raise InputError(p, exc.strerror or str(exc)) from None
    b = DocumentBuilder(str(p))
    for child in word.element.body.iterchildren():
        tag = child.tag.rsplit("}", 1)[-1]
        if tag == "p":
            para = Paragraph(child, word)
            kind, level = _kind(para)
            text = para.text
            b.add(kind, text, level=level, metadata={"text": text.strip()} if kind == "heading" else None)
        elif tag == "tbl":
            table = Table(child, word)
            rows = [[cell.text for cell in row.cells] for row in table.rows]
            b.add_table(rows, header_rows=1)
    for section in word.sections:
        for kind, part in (("page_header", section.header), ("page_footer", section.footer)):
            text = "\n".join(par.text for par in part.paragraphs).strip()
            if text:
                b.add_furniture(kind, text, page=1)
    doc = b.build(format="docx")
    if not doc.text.strip():
        raise InputError(p, "a Word document with no text")
    return doc
