"""One page of a PDF through seamcut's extractors (no OCR), for tests of a real page's layout."""
from __future__ import annotations

from pathlib import Path

from seamcut.readers.pdf.blocks import Block


def page_blocks(path: Path, index: int) -> list[Block]:
    """The blocks of page ``index`` (0-based) of the PDF at ``path``, in reading order."""
    import pypdfium2 as pdfium

    from seamcut.readers.pdf.extractors import PageSource, extract
    from seamcut.readers.pdf.opening import LazyPlumber

    doc = pdfium.PdfDocument(str(path))
    plumber = LazyPlumber(path, None)
    try:
        return extract(PageSource(path, doc, doc[index], index, "never", None, None, False, plumber)).blocks
    finally:
        plumber.close()
        doc.close()
