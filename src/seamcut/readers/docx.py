"""Word (.docx): paragraphs and tables in body order, written out by the document builder.

python-docx reads the file; a paragraph's style says its kind ("Title", "Heading N", list styles
or numbering), tables become rows of cells (the first row is taken as the header), section headers
and footers are kept out of the text as furniture.
"""
from __future__ import annotations

import re
import zipfile
import zlib
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..model import Document
from .builder import DocumentBuilder

_HEADING = re.compile(r"heading\s*(\d)", re.I)
#: the most a .docx's XML parts may inflate to, in bytes, together and one by one, and the
#: compression ratio above which a large part is taken for a zip bomb (Word's XML deflates
#: 5-20 times; deflate's own limit is about 1,030)
MAX_XML_BYTES = 512 * 2**20
MAX_PART_BYTES = 256 * 2**20
MAX_RATIO = 200
_RATIO_FROM = 16 * 2**20


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


def check_sizes(p: Path) -> None:
    """An ``InputError`` for a .docx whose XML would inflate past the limits above (from the
    sizes its ZIP directory declares: Python's zipfile never inflates an entry past its declared
    size, a lie fails its CRC check)."""
    try:
        with zipfile.ZipFile(p) as z:
            parts = [i for i in z.infolist() if i.filename.endswith((".xml", ".rels"))]
    except (zipfile.BadZipFile, zipfile.LargeZipFile) as exc:
        raise InputError(p, f"a damaged ZIP container ({exc})") from None
    mib = 2**20
    for info in parts:
        ratio = info.file_size / max(1, info.compress_size)
        if info.file_size > MAX_PART_BYTES or (info.file_size > _RATIO_FROM and ratio > MAX_RATIO):
            raise InputError(p, f"{info.filename} inflates to {info.file_size / mib:,.0f} MiB from "
                                f"{info.compress_size / mib:,.1f} MiB (ratio {ratio:,.0f}; a zip bomb? "
                                f"seamcut reads XML parts up to {MAX_PART_BYTES // mib} MiB, ratio "
                                f"{MAX_RATIO} above {_RATIO_FROM // mib} MiB)")
    total = sum(i.file_size for i in parts)
    if total > MAX_XML_BYTES:
        raise InputError(p, f"its XML inflates to {total / mib:,.0f} MiB (seamcut reads up to "
                            f"{MAX_XML_BYTES // mib} MiB)")


def read_docx(path: str | Path) -> Document:
    """Read a .docx file; a damaged, malformed or oversized one is an ``InputError`` naming it."""
    from lxml import etree

    p = Path(path)
    check_sizes(p)
    try:
        import docx
        word = docx.Document(str(p))
        body = word.element.body
    except (zipfile.BadZipFile, KeyError, ValueError, zlib.error, EOFError) as exc:
        raise InputError(p, f"not a readable Word document ({exc})") from None
    except etree.XMLSyntaxError as exc:
        raise InputError(p, f"malformed XML in the Word document ({exc})") from None
    except AttributeError:  # python-docx's element classes missing: not Word's XML
        raise InputError(p, "not a Word document: word/document.xml is not WordprocessingML") from None
    except OSError as exc:
        raise InputError(p, exc.strerror or str(exc)) from None
    if body is None:
        raise InputError(p, "a Word document with no body")
    try:
        return _build(p, word, body)
    except RecursionError:
        raise InputError(p, "XML nested too deep to read") from None
    except etree.XMLSyntaxError as exc:  # a header or footer part, parsed on first use
        raise InputError(p, f"malformed XML in the Word document ({exc})") from None
    except (KeyError, ValueError, IndexError, AttributeError, TypeError) as exc:
        # python-docx meeting XML it does not expect (a missing relationship, a bad attribute)
        raise InputError(p, f"malformed Word document ({type(exc).__name__}: {exc})") from None


def _build(p: Path, word: Any, body: Any) -> Document:
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    b = DocumentBuilder(str(p))
    for child in body.iterchildren():
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
