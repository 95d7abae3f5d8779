"""Scanned pages: OCR of a page rendered at 300 dpi in grey (one page at once, or every page left
pending in batches across processes; OCR scales the image down to its text, see
``readers.ocr.reading_scale``), and the checks that tell a scan (images, an invisible OCR text
layer) or a blank page."""
from __future__ import annotations

import logging
from typing import Any

from .page import Page, Plain, plain_paragraphs

log = logging.getLogger(__name__)

#: the extractor of a page waiting to be OCR'd with the other scanned pages
OCR_PENDING = "ocr-pending"
#: scanned pages rendered and OCR'd together (each process takes one page; bounded memory)
OCR_BATCH = 8
#: rendering resolution for OCR, in dots per inch: enough for small print; OCR reads the image
#: smaller where its text is larger than it needs
_DPI = 300
#: the most pixels a page is rendered to for OCR (an A4 page at 300 dpi is 8.7 million); a
#: larger page is rendered at a lower resolution (a 200 x 200 in page would take 3.6 billion)
MAX_RENDER_PIXELS = 25_000_000
#: the longest side of a rendered page in pixels (Tesseract refuses images over 32,767)
MAX_RENDER_SIDE = 30_000


def _ocr_pages():
    """``readers.ocr.ocr_pages``, or None where OCR is not installed."""
    try:
        from ..ocr import ocr_pages
    except ImportError:
        return None
    return ocr_pages


def render_scale(width: float, height: float) -> float:
    """Pixels per point for OCR of a page ``width`` x ``height`` points: 300 dpi, less where
    that would pass ``MAX_RENDER_PIXELS`` or ``MAX_RENDER_SIDE``."""
    scale = _DPI / 72
    w, h = max(abs(width), 1.0), max(abs(height), 1.0)
    return min(scale, (MAX_RENDER_PIXELS / (w * h)) ** 0.5, MAX_RENDER_SIDE / max(w, h))


def _render(pdoc, index: int):
    """Page ``index`` as a grey image for OCR, and its scale (pixels per point)."""
    page = pdoc[index]
    try:
        scale = render_scale(page.get_width(), page.get_height())
        # rendered in colour and made grey here: pdfium's own grey rendering costs more
        return page.render(scale=scale).to_pil().convert("L"), scale
    finally:
        page.close()


def ocr_page(pdoc, index: int, languages: list[str] | None) -> list[Plain] | None:
    """OCR one page now; None where OCR is not available or fails."""
    ocr_pages = _ocr_pages()
    if ocr_pages is None:
        return None
    img, scale = _render(pdoc, index)
    try:
        res = ocr_pages([img], languages)[0]
    except Exception as exc:  # OCR failing should not lose the document
        log.warning("OCR failed on page %d: %s", index + 1, exc)
        return None
    return ocr_elements(res, scale)


def ocr_pending(pdoc, pages: list[Page], languages: list[str] | None) -> None:
    """OCR every page left pending, a batch of pages at a time across processes."""
    pending = [k for k, pg in enumerate(pages) if pg.extractor == OCR_PENDING]
    if not pending:
        return
    ocr_pages = _ocr_pages()
    for start in range(0, len(pending), OCR_BATCH):
        batch = pending[start:start + OCR_BATCH]
        results: list[Any] = [None] * len(batch)
        scales = [1.0] * len(batch)
        if ocr_pages is not None:
            rendered = [_render(pdoc, k) for k in batch]
            images, scales = [r[0] for r in rendered], [r[1] for r in rendered]
            try:
                results = ocr_pages(images, languages, progress=len(pending) > 1)
            except Exception as exc:  # OCR failing should not lose the document
                log.warning("OCR failed on pages %s: %s", [k + 1 for k in batch], exc)
        for k, res, scale in zip(batch, results, scales):
            pg = pages[k]
            if res is None:
                pg.extractor = "none"
                pg.notes.append("no text layer; OCR unavailable")
            else:
                pg.extractor, pg.plain = "ocr", ocr_elements(res, scale)


def ocr_elements(res: Any, scale: float | None = None) -> list[Plain]:
    """An ``OcrPage`` as (kind, text, metadata) paragraphs. ``scale``: pixels per point of the
    image OCR'd; where given, each paragraph's metadata gets ``lines``: each line's span in its
    text and its box in points (Tesseract's word boxes), which ``assemble`` records."""
    out = []
    blocks = list(getattr(res, "blocks", None) or [])
    boxes = list(getattr(res, "line_boxes", None) or [])
    meta = {"rotation": getattr(res, "rotation", 0), "languages": list(getattr(res, "languages", []) or [])}
    if blocks:
        for i, (text, conf) in enumerate(blocks):
            m = {**meta, "confidence": round(float(conf), 1)}
            if scale and i < len(boxes):
                m["lines"] = _line_boxes(text, boxes[i], scale)
            out.append(("paragraph", text, m))
    elif getattr(res, "text", ""):
        out.extend((k, t, {**meta, **m}) for k, t, m in plain_paragraphs(res.text))
    return out


def _line_boxes(text: str, boxes: list[tuple[float, float, float, float]], scale: float
                ) -> list[tuple[int, int, float, float, float, float]]:
    """Each ``\n``-separated line of ``text`` with its span and its box (``boxes``, in pixels,
    over ``scale``: points); none where the lines and boxes do not pair up."""
    lines = text.split("\n")
    if len(lines) != len(boxes):
        return []
    out, pos = [], 0
    for line, (x0, top, x1, bottom) in zip(lines, boxes):
        out.append((pos, pos + len(line), x0 / scale, top / scale, x1 / scale, bottom / scale))
        pos += len(line) + 1
    return out


def invisible_text(page) -> bool:
    """Whether every text object on a pypdfium2 page is drawn in render mode 3 (an OCR text
    layer)."""
    try:
        import pypdfium2.raw as raw

        modes = [raw.FPDFTextObj_GetTextRenderMode(o.raw)
                 for o in page.get_objects(filter=[raw.FPDF_PAGEOBJ_TEXT], max_depth=2)]
        return bool(modes) and all(m == raw.FPDF_TEXTRENDERMODE_INVISIBLE for m in modes)
    except Exception:
        return False


def has_marks(page) -> bool:
    """Whether a pypdfium2 page draws anything (an image, a path, a form, a shading)."""
    import pypdfium2.raw as raw

    try:
        kinds = (raw.FPDF_PAGEOBJ_IMAGE, raw.FPDF_PAGEOBJ_PATH, raw.FPDF_PAGEOBJ_FORM,
                 raw.FPDF_PAGEOBJ_SHADING)
        return any(True for _ in page.get_objects(filter=list(kinds), max_depth=1))
    except Exception:
        return True


def has_images(page) -> bool:
    """Whether a pypdfium2 page draws an image (forms followed, three deep)."""
    import pypdfium2.raw as raw

    return any(True for _ in page.get_objects(filter=[raw.FPDF_PAGEOBJ_IMAGE], max_depth=3))
