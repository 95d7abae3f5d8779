"""The extractors tried on each page, in order, until one gives good text (``EXTRACTORS``).

pypdfium2 reads every page first: its words, and where it draws rules its ruled tables through
pdfplumber's table finder on pdfium's edges and characters. A page without a text layer waits
for OCR (with the other scanned pages, ``scans.ocr_pending``); with ``ocr="always"`` every page
is OCR'd; a right-to-left script takes its character order from ``pdftotext``; a garbled text
layer is read again with pdfplumber (pdfminer decodes some fonts pdfium cannot), then
``pdftotext``, then OCR.
"""
from __future__ import annotations

import re
import shutil
import subprocess
import unicodedata
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any, Callable

from .blocks import Block, shift_blocks
from .edges import pdfium_edges
from .layout import layout_page
from .opening import LazyPlumber
from .page import Page, Plain, page_text, plain_paragraphs
from .quality import is_garbled
from .scans import OCR_PENDING, has_images, has_marks, invisible_text, ocr_page
from .tables import PdfiumTablePage, ruled_tables
from .tags import pdfium_tag_map, plumber_tag_map, tag_blocks
from .words import Word, pdfium_words, plumber_words

#: share of a page's letters in a right-to-left script above which pdftotext orders them
RTL_SHARE = 0.3


@dataclass
class PageSource:
    """One page and what its extractors read: the file and its options, the pypdfium2 page
    (``page``, open while the extractors run), its words, and the notes they leave."""
    path: Path
    pdoc: Any
    page: Any
    index: int
    ocr: str
    languages: list[str] | None
    password: str | None
    tagged: bool
    plumber: LazyPlumber
    notes: list[str] = field(default_factory=list)
    #: the page's size in points, its words and ruling lines, and the characters for the table
    #: finder (pages with four edges or more): read when the source is made
    width: float = field(init=False)
    height: float = field(init=False)
    words: list[Word] = field(init=False)
    edges: list[dict[str, Any]] = field(init=False)
    chars: list[dict[str, Any]] | None = field(init=False)

    def __post_init__(self) -> None:
        self.width, self.height = float(self.page.get_width()), float(self.page.get_height())
        self.edges = pdfium_edges(self.page)
        self.chars = [] if len(self.edges) >= 4 else None
        textpage = self.page.get_textpage()
        try:
            self.words = pdfium_words(self.page, textpage, self.chars, mcid=self.tagged)
        finally:
            textpage.close()

    @property
    def number(self) -> int:
        return self.index + 1

    def plain(self, extractor: str, elements: list[Plain]) -> Page:
        return Page(self.number, self.width, self.height, extractor, plain=elements)

    def ocr_now(self, unavailable: str) -> Page | None:
        """The page OCR'd now; None, noting ``unavailable``, where OCR is not available."""
        got = ocr_page(self.pdoc, self.index, self.languages)
        if got is None:
            self.notes.append(unavailable)
            return None
        return self.plain("ocr", got)

    @cached_property
    def pdfium(self) -> Page:
        """The page laid out from pdfium's words and ruled tables."""
        tag_of = pdfium_tag_map(self.page) if self.tagged else {}
        upright = [w for w in self.words if w.upright]
        tables: list[Block] = []
        if self.chars:
            tables, upright = ruled_tables(PdfiumTablePage(self.width, self.height, self.edges, self.chars),
                                           upright)
        res = Page(self.number, self.width, self.height, "pdfium",
                   blocks=tag_blocks(layout_page(upright, self.width, tables), tag_of))
        if has_images(self.page) and invisible_text(self.page):
            self.notes.append("text layer is invisible (OCR) text")
        return res

    @cached_property
    def pdfium_text(self) -> str:
        return page_text(self.pdfium.blocks)

    def pdfplumber(self) -> Page:
        """The page laid out from pdfplumber's words and ruled tables (rotated text, such as
        margin stamps, stays out of the flow; tables keep theirs), moved from pdfplumber's frame
        (the media box's top-left corner) to the rendered page's (the crop box's, within the
        media box)."""
        page = self.plumber.page(self.index)
        try:
            width = float(page.width)
            upright = [w for w in plumber_words(page, self.tagged) if w.upright]
            tag_of = plumber_tag_map(page) if self.tagged else {}
            tables, rest = ruled_tables(page, upright)
            blocks = tag_blocks(layout_page(rest, width, tables), tag_of)
            crop, media = page.cropbox, page.mediabox
            shift_blocks(blocks, -max(crop[0], media[0]), -max(crop[1], media[1]))
            return Page(self.number, self.width, self.height, "pdfplumber", blocks=blocks)
        finally:
            page.close()

    @cached_property
    def pdftotext_layout(self) -> str | None:
        return pdftotext(self.path, self.number, self.password)


# ----------------------------------------------------------------------------------------------
# the extractors: each gives the page, or None to pass it on to the next


def no_text_layer(src: PageSource) -> Page | None:
    """A page without text: OCR'd later with the other scanned pages, or left empty where OCR
    is off or nothing is drawn on it (no text to find, no OCR time to spend)."""
    if src.words:
        return None
    res = Page(src.number, src.width, src.height, "none")
    if src.ocr == "never":
        src.notes.append("no text layer; OCR off (ocr='never')")
    elif not has_marks(src.page):
        src.notes.append("blank page")
    else:
        res.extractor = OCR_PENDING
    return res


def ocr_every_page(src: PageSource) -> Page | None:
    """``ocr="always"``: OCR, or the text layer where OCR is not available."""
    if src.ocr != "always":
        return None
    text_layer = src.pdfium  # laid out first: its notes go on the OCR'd page too
    return src.ocr_now("OCR unavailable; used the text layer") or text_layer


def right_to_left(src: PageSource) -> Page | None:
    """Right-to-left scripts: pdftotext applies the bidi rules to the character order. Its lines
    go into pdfium's layout where each finds its own, else its paragraphs are the page."""
    if rtl_share(src.pdfium_text) <= RTL_SHARE:
        return None
    text = pdftotext(src.path, src.number, src.password, layout=False)
    if not (text and text.strip()):
        return None
    if logical_lines(src.pdfium.blocks, text):
        src.pdfium.extractor = "pdftotext"
        src.notes.append("right-to-left script: text from pdftotext, layout from pdfium")
        return src.pdfium
    src.notes.append("right-to-left script: used pdftotext")
    return src.plain("pdftotext", plain_paragraphs(text))


def pdfium(src: PageSource) -> Page | None:
    """pdfium's layout, where its text is not garbled."""
    return None if is_garbled(src.pdfium_text) else src.pdfium


def pdfplumber(src: PageSource) -> Page | None:
    """pdfplumber's layout (pdfminer decodes some fonts that pdfium cannot)."""
    try:
        alt = src.pdfplumber()
    except Exception as exc:  # pdfminer's parse errors, its recursion limit: try the next extractor
        src.notes.append(f"pdfplumber failed ({type(exc).__name__}: {str(exc)[:80]})")
        return None
    if alt.blocks and not is_garbled(page_text(alt.blocks)):
        src.notes.append("pdfium text garbled: used pdfplumber")
        return alt
    return None


def pdftotext_clean(src: PageSource) -> Page | None:
    """pdftotext's paragraphs (laid out), where they are not garbled."""
    src.notes.append("text layer garbled")
    text = src.pdftotext_layout
    if text is not None and text.strip() and not is_garbled(text):
        return src.plain("pdftotext", plain_paragraphs(text))
    return None


def ocr_garbled(src: PageSource) -> Page | None:
    """OCR, unless it is off or not available."""
    return None if src.ocr == "never" else src.ocr_now("OCR unavailable")


def pdftotext_garbled(src: PageSource) -> Page | None:
    """pdftotext's paragraphs although they are garbled too."""
    text = src.pdftotext_layout
    if text is not None and text.strip():
        src.notes.append("pdftotext output also garbled")
        return src.plain("pdftotext", plain_paragraphs(text))
    return None


def pdfium_garbled(src: PageSource) -> Page:
    """pdfium's layout, garbled as it is: the last resort."""
    return src.pdfium


#: tried in this order; the first page given is the page
EXTRACTORS: tuple[Callable[[PageSource], Page | None], ...] = (
    no_text_layer, ocr_every_page, right_to_left, pdfium, pdfplumber, pdftotext_clean, ocr_garbled,
    pdftotext_garbled, pdfium_garbled)


def extract(src: PageSource) -> Page:
    """The page from the first extractor that gives one, with the notes they all left."""
    for extractor in EXTRACTORS:
        res = extractor(src)
        if res is not None:
            res.notes = src.notes
            return res
    raise AssertionError("pdfium_garbled always gives a page")


# ----------------------------------------------------------------------------------------------
# pdftotext and right-to-left text


def pdftotext(p: Path, n: int, password: str | None, layout: bool = True) -> str | None:
    """Page ``n`` (1-based) as poppler's ``pdftotext`` reads it; None where it is not installed
    or fails."""
    exe = shutil.which("pdftotext")
    if not exe:
        return None
    cmd = [exe] + (["-layout"] if layout else []) + ["-enc", "UTF-8", "-f", str(n), "-l", str(n)]
    if password:
        cmd += ["-upw", password]
    try:
        r = subprocess.run(cmd + [str(p), "-"], capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    if r.returncode != 0:
        return None
    return r.stdout.decode("utf-8", "replace")


def rtl_share(text: str) -> float:
    """The share of ``text``'s letters in a right-to-left script (Hebrew, Arabic, Syriac, ...)."""
    letters = [ch for ch in text if ch.isalpha()]
    if not letters:
        return 0.0
    return sum(1 for ch in letters if 0x0590 <= ord(ch) <= 0x08FF or 0xFB1D <= ord(ch) <= 0xFEFF) / len(letters)


_BIDI_CONTROLS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _letters_key(text: str) -> str:
    """The letters and digits of ``text`` (NFKC: presentation forms become letters), sorted."""
    return "".join(sorted(ch for ch in unicodedata.normalize("NFKC", text) if ch.isalnum()))


def logical_lines(blocks: list[Block], text: str) -> bool:
    """Right-to-left pages: pdfium gives the characters in visual order, ``pdftotext`` (``text``,
    not laid out) in logical order, line by line. Each line of the text blocks takes the
    pdftotext line with the same letters in any order, as one word (fonts and sizes stay, so
    headings are found as on any page). True when every line found its own; the blocks are left
    alone otherwise (and where the page has a table)."""
    segs = [s for b in blocks for s in b.segments]
    if not segs or any(b.kind == "table" for b in blocks):
        return False
    lines: dict[str, list[str]] = {}
    for raw in text.splitlines():
        # embedding controls stand where the direction changes, often in place of a space
        t = " ".join(_BIDI_CONTROLS.sub(" ", raw).split())
        if t:
            lines.setdefault(_letters_key(t), []).append(t)
    got = []
    for s in segs:
        found = lines.get(_letters_key(s.text))
        if not found:
            return False
        got.append(found.pop(0))
    for s, t in zip(segs, got):
        s.words = [replace(s.words[0], text=t, x0=s.x0, x1=s.x1)]
    return True
