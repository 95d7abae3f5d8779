"""``read_pdf``: each page through the extractors, the scanned pages OCR'd together, the pages
assembled into one document."""
from __future__ import annotations

from pathlib import Path

from ...errors import ConfigError, InputError
from ...model import Document
from .assemble import assemble
from .extractors import PageSource, extract
from .opening import LazyPlumber, open_pdf
from .page import Page
from .scans import ocr_pending

OCR_MODES = ("auto", "always", "never")
#: the most objects (text runs, paths, images) one page may draw; each is looked at from Python
#: (about 12 s a million here), and a page drawing more is a decompression bomb, not a document
MAX_PAGE_OBJECTS = 1_000_000


def read_pdf(path: str | Path, *, ocr: str = "auto", languages: list[str] | None = None,
             password: str | None = None) -> Document:
    """Read a PDF into a ``Document`` (see the package docstring). ``ocr``: "auto" (pages without a
    usable text layer), "always" (every page) or "never"; ``languages`` go to OCR."""
    if ocr not in OCR_MODES:
        raise ConfigError(f"ocr must be one of {', '.join(OCR_MODES)}, not {ocr!r}")
    p = Path(path)
    pdoc = open_pdf(p, password)
    pages: list[Page] = []
    plumber = LazyPlumber(p, password)
    try:
        tagged = _is_tagged(pdoc)
        for i in range(len(pdoc)):
            fpage = None
            try:
                fpage = pdoc[i]
                _check_objects(p, fpage, i)
                pages.append(extract(PageSource(p, pdoc, fpage, i, ocr, languages, password, tagged,
                                                plumber)))
            except InputError:
                raise
            except Exception as exc:
                raise InputError(p, f"corrupt PDF: page {i + 1}: {type(exc).__name__}: {exc}") from None
            finally:
                if fpage is not None:
                    fpage.close()
        ocr_pending(pdoc, pages, languages)
    finally:
        plumber.close()
        pdoc.close()
    return assemble(p, pages)


def _check_objects(p: Path, fpage, index: int) -> None:
    """An ``InputError`` for a page drawing more than ``MAX_PAGE_OBJECTS`` objects."""
    import pypdfium2.raw as raw

    count = raw.FPDFPage_CountObjects(fpage.raw)
    if count > MAX_PAGE_OBJECTS:
        raise InputError(p, f"page {index + 1} draws {count:,} objects (over {MAX_PAGE_OBJECTS:,}; "
                            "a decompression bomb?)")


def _is_tagged(pdoc) -> bool:
    """Whether the document says it is a tagged PDF (has a structure tree)."""
    import pypdfium2.raw as raw

    try:
        return bool(raw.FPDFCatalog_IsTagged(pdoc.raw))
    except Exception:
        return False
