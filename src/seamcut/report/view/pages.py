"""Page images of PDFs for the view: each page rendered once with pypdfium2 into
``DIR/pages/<doc_id>/<page>.png`` (page numbers from 1), at ``SCALE`` pixels per PDF point, so a
box in points times ``SCALE`` is its box in pixels.

PDFium is not safe to fork after it is loaded: pages are rendered in worker processes started by
``seamcut.ground.processes.start_context()`` (a fork server or spawn), each opening the PDF itself.
"""
from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Sequence

from ...ground.processes import start_context, usable_cpus, worker_init

#: pixels per PDF point of the page images (1.25: a letter page is 765 x 990 pixels)
SCALE = 1.25
#: pages one worker renders per task
PAGES_PER_TASK = 16


def render_range(pdf: str, folder: str, first: int, last: int, scale: float = SCALE,
                 password: str | None = None) -> int:
    """Render pages ``first``..``last`` (1-based, inclusive) of ``pdf`` into ``folder`` as
    ``<page>.png``; a page already there and newer than the PDF is kept. Returns the pages
    written."""
    import pypdfium2 as pdfium

    out = Path(folder)
    since = Path(pdf).stat().st_mtime
    todo = [n for n in range(first, last + 1)
            if not ((out / f"{n}.png").exists() and (out / f"{n}.png").stat().st_mtime >= since)]
    if not todo:
        return 0
    doc = pdfium.PdfDocument(pdf, password=password)
    try:
        for n in todo:
            page = doc[n - 1]
            image = page.render(scale=scale).to_pil()
            tmp = out / f".{n}.png.part"
            image.save(tmp, format="PNG", compress_level=1)
            tmp.replace(out / f"{n}.png")
            page.close()
    finally:
        doc.close()
    return len(todo)


def render_pages(jobs: Sequence[tuple[str, Path, int]], scale: float = SCALE,
                 workers: int | None = None, password: str | None = None) -> int:
    """Render every page of each ``(pdf, folder, page count)`` job; in worker processes where
    there is more than one task. Returns the pages written (pages already rendered are kept)."""
    tasks = []
    for pdf, folder, count in jobs:
        folder.mkdir(parents=True, exist_ok=True)
        tasks += [(pdf, str(folder), a, min(count, a + PAGES_PER_TASK - 1))
                  for a in range(1, count + 1, PAGES_PER_TASK)]
    if not tasks:
        return 0
    n = min(len(tasks), workers or usable_cpus())
    if n <= 1:
        return sum(render_range(*t, scale=scale, password=password) for t in tasks)
    with ProcessPoolExecutor(n, mp_context=start_context(), initializer=worker_init) as pool:
        futures = [pool.submit(render_range, *t, scale=scale, password=password) for t in tasks]
        return sum(f.result() for f in futures)


__all__ = ["SCALE", "render_pages", "render_range"]
