"""OCR for scanned pages: Tesseract (via pytesseract) with rotation and language detection.

``ocr_pages`` turns page images into text, paragraph by paragraph with Tesseract's mean word
confidence; ``read_image`` reads a PNG/JPEG/TIFF scan (multi-page TIFF too) as a ``Document``.

Per page (in grey; each image goes to Tesseract as an uncompressed PGM file, as PNG compression
costs more CPU than reading):

1. rotation: Tesseract's orientation detection (OSD, ``image_to_osd``) says how far the page is
   turned; the page is turned back. Where OSD fails (a sparse page, too few characters) the page
   is read at 0 and at 180 degrees and the reading with the higher mean confidence is kept;
2. scale: ``line_height`` measures the page's text lines in pixels and the page is scaled down so
   that they are ``LINE_HEIGHT`` pixels high (``reading_scale``): Tesseract's LSTM reads a line
   at a fixed height, so larger text costs layout analysis and no accuracy;
3. languages: the user's (ISO ``en``/``hi``/``mr`` or Tesseract ``eng``/``hin``/``mar``), or
   detected: by OSD's script, Latin pages are read in English and Devanagari pages once in
   ``mar+hin+eng`` (Hindi and Marathi alike); ``page_language`` on the text (line by line) then
   says which language the page is in, and it comes first in ``OcrPage.languages``. A page of
   unknown script is read in ``eng+hin`` and, where it turns out to be Marathi, read again;
4. paragraphs: ``image_to_data`` words grouped by Tesseract's block and paragraph numbers; each
   line's box (the union of its words' boxes) kept, in pixels of the page as given (the turn
   and the scale undone).

Pages run in parallel in worker processes, each with ``OMP_THREAD_LIMIT=1`` so Tesseract's own
threads do not fight the pool.
"""
from __future__ import annotations

import os
import re
import tempfile
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, NamedTuple

from ..ground.processes import in_worker, start_context, usable_cpus, worker_init
from ..ground.progress import Steps
from ..errors import InputError, MissingError, require
from ..model import Document

if TYPE_CHECKING:  # pragma: no cover
    import numpy as np
    from PIL import Image

#: ISO 639-1 codes -> Tesseract language codes
ISO_TO_TESSERACT = {"en": "eng", "hi": "hin", "mr": "mar"}
TESSERACT_TO_ISO = {v: k for k, v in ISO_TO_TESSERACT.items()}
#: the languages a Devanagari page is read in, once, Hindi or Marathi: Marathi first (its model
#: reads Hindi nearly as well as Hindi's, which misreads Marathi's ळ), English for the Latin
#: words such pages carry (benchmarks/ocr/README.md)
_DEVANAGARI = ["mar", "hin", "eng"]
#: the languages a page is read in, by its script as OSD tells it
_SCRIPT_LANGUAGES = {"Latin": ["eng"], "Devanagari": _DEVANAGARI}
#: the languages a page is read in, by the language ``page_language`` finds
_PAGE_LANGUAGES = {"en": ["eng"], "hi": _DEVANAGARI, "mr": _DEVANAGARI}
#: first pass where nothing is known about the page
_FIRST_PASS = ["eng", "hin"]
#: the height, in pixels, text lines are scaled down to for reading (as ``line_height`` measures
#: them: ascenders to descenders, about 35-50 pixels for 10-12 pt text at 300 dpi). Tesseract's
#: LSTM reads each line at a fixed height whatever its size, so larger text only costs layout
#: analysis; of 12 to 24 pixels, 14 read the tuning pages best, ruled tables above all
#: (benchmarks/ocr/README.md)
LINE_HEIGHT = 14
_SETUP_HINT = "run scripts/setup.sh"
#: OSD orientation confidence below which its turn is checked against the page as it is
_SURE_ORIENTATION = 2.0
#: a box in pixels: (x0, top, x1, bottom), ``top`` growing downwards
PixelBox = tuple[float, float, float, float]


@dataclass
class OcrPage:
    """One page's OCR: its text (paragraphs separated by a blank line), each paragraph with its
    mean word confidence (0-100) in reading order, the rotation that was corrected (degrees the
    page was turned, 0/90/180/270), the Tesseract language codes it was read with (the page's
    language first, where it was detected), and ``line_boxes``: for each paragraph, the box of
    each of its lines (its text's ``\n``-separated lines) in pixels of the image given to
    ``ocr_page``."""

    text: str
    blocks: list[tuple[str, float]] = field(default_factory=list)
    rotation: int = 0
    languages: list[str] = field(default_factory=list)
    line_boxes: list[list[PixelBox]] = field(default_factory=list)

    @property
    def confidence(self) -> float:
        """Mean block confidence weighted by block length (0.0 for a page without text)."""
        total = sum(len(t) for t, _ in self.blocks)
        return sum(len(t) * c for t, c in self.blocks) / total if total else 0.0


# --------------------------------------------------------------------------- checks


def _tesseract_codes(languages: list[str] | None) -> list[str] | None:
    if languages is None:
        return None
    codes: list[str] = []
    for lang in languages:
        for part in str(lang).replace("+", ",").split(","):
            part = part.strip().lower()
            if part:
                code = ISO_TO_TESSERACT.get(part, part)
                if code not in codes:
                    codes.append(code)
    return codes or None


def _check_tesseract(needed: list[str]) -> set[str]:
    """The installed language data; raises ``MissingError`` where Tesseract or ``needed`` is missing."""
    pytesseract = require("pytesseract", "OCR", f"pip install pytesseract, or {_SETUP_HINT}")
    try:
        pytesseract.get_tesseract_version()
        installed = set(pytesseract.get_languages(config=""))
    except pytesseract.TesseractNotFoundError:
        raise MissingError("Tesseract (no `tesseract` program on PATH)", "OCR",
                           f"apt-get install tesseract-ocr, or {_SETUP_HINT}") from None
    missing = [c for c in needed if c not in installed]
    if missing:
        packages = " ".join(f"tesseract-ocr-{c.lower().replace('_', '-')}" for c in missing)
        raise MissingError(f"Tesseract's language data {', '.join(missing)}", "OCR",
                           f"apt-get install {packages}, or {_SETUP_HINT}")
    return installed


# --------------------------------------------------------------------------- one page


@contextmanager
def _thread_limit() -> Iterator[None]:
    old = os.environ.get("OMP_THREAD_LIMIT")
    os.environ["OMP_THREAD_LIMIT"] = "1"
    try:
        yield
    finally:
        if old is None:
            os.environ.pop("OMP_THREAD_LIMIT", None)
        else:
            os.environ["OMP_THREAD_LIMIT"] = old


def _grey(image: "Image.Image") -> "Image.Image":
    """``image`` in 8-bit grey, transparency laid on white."""
    if image.mode in ("RGBA", "LA", "P", "PA"):
        from PIL import Image as _Image

        rgba = image.convert("RGBA")
        image = _Image.alpha_composite(_Image.new("RGBA", rgba.size, (255, 255, 255, 255)), rgba)
    return image if image.mode == "L" else image.convert("L")


@contextmanager
def _image_file(image: "Image.Image") -> Iterator[str]:
    """``image`` (grey) in a temporary PGM file for Tesseract. pytesseract would write a PNG for
    each call, and PNG compression costs more CPU than Tesseract's layout analysis (1.6 s for an
    A4 page at 300 dpi in colour); an uncompressed file costs a copy."""
    fd, path = tempfile.mkstemp(prefix="seamcut-ocr-", suffix=".pgm")
    os.close(fd)
    try:
        image.save(path, format="PPM")
        yield path
    finally:
        os.unlink(path)


def _osd(image: "Image.Image") -> tuple[int, str, float] | None:
    """(degrees to turn the page clockwise, script, orientation confidence), or None."""
    import pytesseract

    try:
        with _image_file(image) as path:
            out = pytesseract.image_to_osd(path, config="--psm 0 -c min_characters_to_try=10")
    except pytesseract.TesseractError:
        return None
    rotate = re.search(r"Rotate:\s*(\d+)", out)
    script = re.search(r"Script:\s*(\S+)", out)
    conf = re.search(r"Orientation confidence:\s*([\d.]+)", out)
    if not rotate:
        return None
    return (int(rotate.group(1)) % 360, script.group(1) if script else "",
            float(conf.group(1)) if conf else 0.0)


def _turn(image: "Image.Image", rotation: int) -> "Image.Image":
    """``image`` turned ``rotation`` degrees clockwise (PIL turns anticlockwise)."""
    return image.rotate(-rotation, expand=True, fillcolor="white") if rotation else image


def line_height(image: "Image.Image", across: bool = False) -> float | None:
    """The median height, in pixels, of the text lines of a page image: the runs of inked rows
    (pixels darker than Otsu's threshold) in vertical strips a tenth of the page wide, narrow so
    that a slightly skewed page keeps its gaps between lines. A row of a strip with ink in fewer
    than 2% of its pixels is a gap (speckle); runs under 3 pixels are left out. About a line's
    height from its ascenders to its descenders. ``across``: the columns' runs instead (text
    turned 90 or 270 degrees). None where no line is found (a blank page)."""
    import numpy as np

    grey = np.asarray(_grey(image))
    if across:
        grey = grey.T
    threshold = _otsu(grey)
    if threshold is None:
        return None
    ink = grey < threshold
    strip = max(16, ink.shape[1] // 10)
    runs = []
    for x in range(0, ink.shape[1] - strip + 1, strip):
        inked = ink[:, x:x + strip].sum(axis=1) >= max(2, strip // 50)
        edges = np.diff(np.concatenate(([0], inked.astype(np.int8), [0])))
        runs.append(np.flatnonzero(edges == -1) - np.flatnonzero(edges == 1))
    lengths = np.concatenate(runs) if runs else np.zeros(0)
    lengths = lengths[lengths >= 3]
    return float(np.median(lengths)) if lengths.size else None


def _otsu(grey: "np.ndarray") -> int | None:
    """Otsu's threshold of an 8-bit grey array (the grey level that best splits it in two
    classes), or None for an image of one level."""
    import numpy as np

    counts = np.bincount(grey.ravel(), minlength=256).astype(np.float64)
    p = counts / counts.sum()
    below = np.cumsum(p)[:-1]
    mean_below = np.cumsum(p * np.arange(256))[:-1]
    total_mean = mean_below[-1] + 255 * p[-1]
    spread = below * (1 - below)
    if not spread.any():
        return None
    between = np.zeros_like(spread)
    ok = spread > 0
    between[ok] = (total_mean * below[ok] - mean_below[ok]) ** 2 / spread[ok]
    return int(np.argmax(between)) + 1


def reading_scale(height: float | None) -> float:
    """The factor that brings text lines ``height`` pixels high to ``LINE_HEIGHT`` pixels; at
    most 1 (a page of smaller text is read as it is) and 1 where the height is not known."""
    return min(1.0, LINE_HEIGHT / height) if height else 1.0


class _Paragraph(NamedTuple):
    """One paragraph as Tesseract read it: its lines joined by ``\n``, its mean word confidence,
    and each line's box in pixels of the image read."""
    text: str
    conf: float
    lines: list[PixelBox]


def _read(image: "Image.Image", codes: list[str]) -> list[_Paragraph]:
    """Paragraphs in Tesseract's reading order."""
    import pytesseract

    with _image_file(image) as path:
        data = pytesseract.image_to_data(path, lang="+".join(codes),
                                         output_type=pytesseract.Output.DICT)
    paragraphs: dict[tuple[int, int, int], dict[int, list[tuple[str, float, PixelBox]]]] = {}
    for i, word in enumerate(data["text"]):
        word = (word or "").strip()
        conf = float(data["conf"][i])
        if not word or conf < 0:
            continue
        key = (data["page_num"][i], data["block_num"][i], data["par_num"][i])
        x, y = float(data["left"][i]), float(data["top"][i])
        box = (x, y, x + float(data["width"][i]), y + float(data["height"][i]))
        paragraphs.setdefault(key, {}).setdefault(data["line_num"][i], []).append((word, conf, box))
    blocks = []
    for lines in paragraphs.values():
        words = [w for line in lines.values() for w in line]
        text = "\n".join(" ".join(w[0] for w in line) for line in lines.values())
        boxes = [(min(w[2][0] for w in line), min(w[2][1] for w in line),
                  max(w[2][2] for w in line), max(w[2][3] for w in line)) for line in lines.values()]
        blocks.append(_Paragraph(text, round(sum(w[1] for w in words) / len(words), 2), boxes))
    return blocks


def _mean_conf(blocks: list[_Paragraph]) -> float:
    total = sum(len(p.text) for p in blocks)
    return sum(len(p.text) * p.conf for p in blocks) / total if total else 0.0


def _join(blocks: list[_Paragraph]) -> str:
    return "\n\n".join(p.text for p in blocks)


def _unturn(box: PixelBox, rotation: int, width: int, height: int) -> PixelBox:
    """A box on the page turned ``rotation`` degrees clockwise, on the page as it was
    (``width`` x ``height`` pixels)."""
    x0, t, x1, b = box
    if rotation == 90:  # turned: (x, y) -> (height - y, x)
        x0, t, x1, b = t, height - x1, b, height - x0
    elif rotation == 180:
        x0, t, x1, b = width - x1, height - b, width - x0, height - t
    elif rotation == 270:  # turned: (x, y) -> (y, width - x)
        x0, t, x1, b = width - b, x0, width - t, x1
    return x0, t, x1, b


def page_language(text: str) -> str | None:
    """The language (ISO code) of most of the letters of an OCR'd page, each line detected on
    its own: the detector reads only the first 80 characters of what it is given, and a page's
    title alone may not tell Marathi from Hindi. None where no line can be told."""
    from ..text.language import detect

    votes: Counter[str] = Counter()
    try:
        for line in text.splitlines():
            lang = detect(line)
            if lang:
                votes[lang] += len(line)
    except Exception:  # a missing or broken language model must not stop OCR
        return None
    return votes.most_common(1)[0][0] if votes else None


def _language_first(codes: list[str], lang: str | None) -> list[str]:
    """``codes`` with ``lang``'s Tesseract code first, where it is among them."""
    code = ISO_TO_TESSERACT.get(lang or "")
    return [code, *(c for c in codes if c != code)] if code in codes else list(codes)


def ocr_page(image: "Image.Image", languages: list[str] | None = None,
             use_osd: bool = True) -> OcrPage:
    """One page (in this process); see ``ocr_pages``."""
    from PIL import Image as _Image

    codes = _tesseract_codes(languages)
    with _thread_limit():
        grey = _grey(image)
        osd = _osd(grey) if use_osd else None
        rotation = osd[0] if osd else 0
        scale = reading_scale(line_height(grey, across=rotation in (90, 270)))
        if scale < 1:
            size = (max(1, round(grey.width * scale)), max(1, round(grey.height * scale)))
            grey = grey.resize(size, _Image.BILINEAR)
        first = codes or _SCRIPT_LANGUAGES.get(osd[1] if osd else "", _FIRST_PASS)
        if osd is None:
            # sparse page: OSD cannot tell; keep whichever of 0 and 180 degrees reads better
            upright = _read(grey, first)
            flipped = _read(_turn(grey, 180), first) if upright else []
            if flipped and _mean_conf(flipped) > _mean_conf(upright) + 5:
                rotation, blocks = 180, flipped
            else:
                blocks = upright
        else:
            blocks = _read(_turn(grey, rotation), first)
            if rotation and osd[2] < _SURE_ORIENTATION:
                # OSD is unsure: keep its turn only where it reads better than the page as it is
                upright = _read(grey, first)
                if _mean_conf(upright) >= _mean_conf(blocks):
                    rotation, blocks = 0, upright
        used = first
        if codes is None and blocks:
            lang = page_language(_join(blocks))
            if lang in _PAGE_LANGUAGES and ISO_TO_TESSERACT[lang] not in first:
                used = _PAGE_LANGUAGES[lang]
                blocks = _read(_turn(grey, rotation), used)
            used = _language_first(used, lang)
    w, h = grey.size
    return OcrPage(text=_join(blocks), blocks=[(p.text, p.conf) for p in blocks],
                   rotation=rotation, languages=used,
                   line_boxes=[[_scaled(_unturn(box, rotation, w, h), 1 / scale) for box in p.lines]
                               for p in blocks])


def _scaled(box: PixelBox, factor: float) -> PixelBox:
    """``box`` with each coordinate times ``factor``."""
    return (box[0] * factor, box[1] * factor, box[2] * factor, box[3] * factor)


def _worker(args: tuple["Image.Image", list[str] | None, bool]) -> OcrPage:
    os.environ["OMP_THREAD_LIMIT"] = "1"
    return ocr_page(*args)


# --------------------------------------------------------------------------- many pages


def ocr_pages(images: list["Image.Image"], languages: list[str] | None = None,
              progress: bool = True) -> list[OcrPage]:
    """OCR each page image; pages in parallel across processes (one per CPU).

    ``languages``: ISO (``en``/``hi``/``mr``) or Tesseract (``eng``/``hin``/``mar``) codes, or
    None to detect them per page. Raises ``MissingError`` where Tesseract or its language data is
    not installed.
    """
    codes = _tesseract_codes(languages)
    installed = _check_tesseract(codes if codes is not None else ["eng", "hin", "mar"])
    use_osd = "osd" in installed
    images = list(images)
    if not images:
        return []
    jobs = [(img, codes, use_osd) for img in images]
    if len(images) == 1 or in_worker():  # a batch's worker is already one per core
        with Steps(len(images), "OCR", progress and not in_worker()) as bar:
            done = []
            for job in jobs:
                done.append(ocr_page(*job))
                bar.advance()
            return done
    results: list[OcrPage | None] = [None] * len(images)
    workers = max(1, min(usable_cpus(), len(images)))
    with ProcessPoolExecutor(max_workers=workers, mp_context=start_context(),
                             initializer=worker_init) as pool:
        futures = {pool.submit(_worker, job): i for i, job in enumerate(jobs)}
        with Steps(len(images), "OCR", progress) as bar:
            for fut in as_completed(futures):
                results[futures[fut]] = fut.result()
                bar.advance()
    return [r for r in results if r is not None]


# --------------------------------------------------------------------------- image files


#: the most pixels an image file's pages may hold together (Pillow refuses one frame over
#: ``Image.MAX_IMAGE_PIXELS`` * 2, about 179 million, itself)
MAX_PIXELS = 400_000_000


def _load_pages(path: Path) -> list["Image.Image"]:
    from PIL import Image, ImageSequence, UnidentifiedImageError

    try:
        with Image.open(path) as img:
            pages, pixels = [], 0
            for frame in ImageSequence.Iterator(img):
                pixels += frame.width * frame.height
                if pixels > MAX_PIXELS:
                    raise InputError(path, f"the image's pages hold over {MAX_PIXELS:,} pixels "
                                           "together (a decompression bomb?)")
                pages.append(frame.copy())
    except FileNotFoundError:
        raise InputError(path, "no such file") from None
    except Image.DecompressionBombError as exc:
        raise InputError(path, f"the image is too large to read ({exc})") from None
    except UnidentifiedImageError:
        raise InputError(path, "is not an image that can be read (PNG, JPEG or TIFF)") from None
    except (OSError, ValueError, SyntaxError) as exc:
        raise InputError(path, f"cannot read the image: {exc}") from None
    if not pages:
        raise InputError(path, "the image has no pages")
    return pages


def read_image(path: str | Path, languages: list[str] | None = None,
               progress: bool = True) -> Document:
    """A scanned page image (PNG, JPEG, TIFF; each frame of a multi-page TIFF is a page) as a
    ``Document``: one paragraph element per OCR block, with its confidence in the metadata."""
    from .builder import DocumentBuilder

    p = Path(path)
    pages = ocr_pages(_load_pages(p), languages=languages, progress=progress)
    builder = DocumentBuilder(str(p))
    for number, page in enumerate(pages, start=1):
        builder.new_page(number)
        for text, conf in page.blocks:
            builder.add("paragraph", text, page=number,
                        metadata={"ocr_confidence": conf, "extractor": "ocr"})
    return builder.build(format="image", extractor="ocr",
                         ocr_rotation=[pg.rotation for pg in pages],
                         ocr_languages=[list(pg.languages) for pg in pages])
