"""PDF making shared by scripts/make_helpline.py and scripts/make_corpus.py (MADE UP corpora).

* English pages: WeasyPrint from HTML + CSS (ruled tables, running headers and footers);
* Hindi and Marathi pages: one `pango-view` call per page, joined with pypdfium2, because
  WeasyPrint, fpdf2 and reportlab write a wrong text map for Devanagari (the vowel sign ि comes
  out after its consonant); every page's text is checked to come back out with pdftotext;
* scans: a clean PDF rasterised with pdftoppm, turned, skewed, speckled and blurred with
  Pillow/numpy, saved as an image-only PDF (no text layer);
* determinism: PDF dates pinned, pdfium's random file /ID replaced by a content hash,
  SOURCE_DATE_EPOCH set for fontTools.

Needs Debian pango1.0-tools, poppler-utils and fonts-noto-core; WeasyPrint (extra `test`/`corpus`).
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import tempfile
import time
import unicodedata
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL import Image

# fontTools (WeasyPrint's font subsetter) stamps fonts with the time unless this is set
os.environ.setdefault("SOURCE_DATE_EPOCH", "1767225600")  # 2026-01-01 00:00 UTC

FIXED_DATE = b"D:20260101000000Z"
FIXED_TIME = 1767225600  # 2026-01-01 00:00 UTC, seconds since the epoch
TOOLS = ("pango-view", "pdftotext", "pdftoppm", "pdfinfo")
#: pango-view's page: 483 pt of text between 56 pt margins (A4 width), 72 dpi, no hinting
PANGO_ARGS = ("--width=483", "--hinting=none")
MARKUP_TAG = re.compile(r"<[^>]+>")


class PdfMakingError(RuntimeError):
    """A made PDF failed a check (names the file and the reason)."""


def missing_tools(tools: tuple[str, ...] = TOOLS) -> list[str]:
    """The command-line tools of ``tools`` not on PATH."""
    return [tool for tool in tools if shutil.which(tool) is None]


def run(*cmd: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, check=True, capture_output=True, **kw)


def pin_dates(pdf: Path) -> None:
    """Replace PDF date strings by a fixed one of the same length (xref offsets stay right)."""
    data = pdf.read_bytes()
    data = re.sub(rb"D:\d{14}(?:Z|[+-]\d\d'\d\d'?)?", lambda m: FIXED_DATE.ljust(len(m.group(0)), b"Z")
                  if len(m.group(0)) >= len(FIXED_DATE) else m.group(0), data)
    # pdfium writes a file /ID from the time of saving: make it a hash of the content instead
    ids = re.compile(rb"/ID\s*\[\s*<([0-9A-Fa-f]{32})>\s*<([0-9A-Fa-f]{32})>\s*\]")
    if ids.search(data):
        digest = hashlib.md5(ids.sub(b"", data)).hexdigest().upper().encode()
        data = ids.sub(lambda m: m.group(0).replace(m.group(1), digest).replace(m.group(2), digest), data)
    pdf.write_bytes(data)


def page_text(pdf: Path, page: int) -> str:
    """pdftotext's text of one page (1-based)."""
    return run("pdftotext", "-f", str(page), "-l", str(page), str(pdf), "-").stdout.decode("utf-8")


def page_texts(pdf: Path) -> list[str]:
    """pdftotext's text of every page, in one call (pages split at its form feeds)."""
    text = run("pdftotext", str(pdf), "-").stdout.decode("utf-8")
    pages = text.split("\f")
    return pages[:-1] if pages and pages[-1] == "" else pages


def norm(text: str) -> str:
    """NFC with every run of whitespace as one space: how answers are looked up in page text."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def squash(text: str) -> str:
    """NFC, case-folded, with no whitespace at all: pdftotext puts stray spaces inside some Devanagari
    words (हेक्टे यर), so text is looked up in a page this way."""
    return "".join(unicodedata.normalize("NFC", text).casefold().split())


def page_count(pdf: Path) -> int:
    info = run("pdfinfo", str(pdf)).stdout.decode()
    return int(re.search(r"Pages:\s+(\d+)", info).group(1))


def merge(parts: list[Path], out: Path) -> None:
    """Join single-page PDFs (pypdfium2: unlike pdfunite it writes no random /ID)."""
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument.new()
    for part in parts:
        src = pdfium.PdfDocument(str(part))
        doc.import_pages(src)
        src.close()
    doc.save(str(out))
    doc.close()


def html_pdf(out: Path, *, filename: Path | None = None, string: str | None = None,
             base_url: str | None = None) -> None:
    """An HTML file (or string, with ``base_url`` for its stylesheet) -> a PDF with pinned dates."""
    import weasyprint

    if string is not None:
        weasyprint.HTML(string=string, base_url=base_url).write_pdf(str(out))
    else:
        weasyprint.HTML(filename=str(filename)).write_pdf(str(out))
    pin_dates(out)


def pango_page(src: Path, out: Path, *, font: str = "Noto Sans Devanagari 12", subpixel: bool = True) -> None:
    """A file of Pango markup -> a one-page PDF with pango-view (a correct Devanagari text map)."""
    extra = ("--hint-metrics=off", "--subpixel-positions") if subpixel else ()
    run("pango-view", "--markup", f"--font={font}", *PANGO_ARGS, *extra,
        "--margin=56", "--dpi=72", "-q", "-o", str(out), str(src))


def check_text_map(name: str, page: int, body: str, text: str) -> None:
    """Every line of a page's Pango source must come back in its pdftotext text (spaces ignored)."""
    back = squash(text)
    for line in MARKUP_TAG.sub("", body).splitlines():
        want = squash(line)
        if want and want not in back:
            raise PdfMakingError(f"{name} page {page}: pdftotext does not give back {line!r}")


def pango_pdf(bodies: list[str], out: Path, header: str) -> None:
    """Pages of Pango markup -> one PDF: the header line on top, "MADE UP (काल्पनिक) पृष्ठ N / M" below.

    Each page's text is checked to come back out with pdftotext (a wrong map garbles vowel signs).
    """
    with tempfile.TemporaryDirectory() as tmp:
        parts = []
        for n, body in enumerate(bodies, start=1):
            markup = (f'<span size="small" foreground="#444444">{header}</span>\n\n'
                      f"{body.strip()}\n\n\n"
                      f'<span size="small">MADE UP (काल्पनिक)    पृष्ठ {n} / {len(bodies)}</span>\n')
            txt, pdf = Path(tmp) / f"p{n}.txt", Path(tmp) / f"p{n:03d}.pdf"
            txt.write_text(markup, encoding="utf-8")
            pango_page(txt, pdf)
            pin_dates(pdf)
            parts.append(pdf)
        merge(parts, out)
    pin_dates(out)
    for n, (body, text) in enumerate(zip(bodies, page_texts(out), strict=True), start=1):
        check_text_map(out.name, n, body, text)


def rasterize(pdf: Path, dpi: int) -> list[Image.Image]:
    """Every page of a PDF as a grey image at ``dpi`` dots per inch (pdftoppm)."""
    from PIL import Image

    with tempfile.TemporaryDirectory() as tmp:
        run("pdftoppm", "-r", str(dpi), "-gray", str(pdf), str(Path(tmp) / "page"))  # PGM: no compression time
        return [Image.open(p).convert("L").copy() for p in sorted(Path(tmp).glob("page*.pgm"))]


def scanned(img: Image.Image, *, seed: int, skew: float, turn: int, noise: float) -> Image.Image:
    """A page as a scanner gives it back: turned (degrees), slightly skewed, grey speckle and blur."""
    import numpy as np
    from PIL import Image, ImageFilter

    img = img.rotate(skew, expand=True, fillcolor=255, resample=Image.BICUBIC)
    if turn:
        img = img.rotate(turn, expand=True, fillcolor=255)
    rng = np.random.default_rng(seed)
    arr = np.asarray(img, dtype=np.int16)
    arr = arr + rng.normal(0, noise, arr.shape).astype(np.int16) - 10
    arr[rng.random(arr.shape) < 0.002] = 40
    return Image.fromarray(np.clip(arr, 0, 255).astype(np.uint8)).filter(ImageFilter.GaussianBlur(0.6))


def save_scan(images: list[Image.Image], out: Path, dpi: int, title: str) -> None:
    """Images -> an image-only PDF (JPEG pages, no text layer) with fixed dates."""
    fixed = time.gmtime(FIXED_TIME)
    images[0].save(out, "PDF", resolution=dpi, quality=60, title=title, creationDate=fixed, modDate=fixed,
                   **({"save_all": True, "append_images": images[1:]} if len(images) > 1 else {}))


def has_text_layer(pdf: Path) -> bool:
    return any(text.strip() for text in page_texts(pdf))
