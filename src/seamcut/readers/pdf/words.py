"""The words of a PDF page: from pypdfium2's text page (one pass over its characters, about four
times faster than pdfplumber's page parse), or from pdfplumber for a page pdfium cannot decode;
and, from the same pass, the characters pdfplumber's table finder reads.

Units: points (1/72 inch); ``x`` grows to the right, ``top``/``bottom`` grow downwards from the
top-left corner of the displayed page (pdfplumber's convention), the page's /Rotate applied: of
the page as pypdfium2 renders it (its crop box within its media box, wherever they stand).
"""
from __future__ import annotations

import ctypes
import math
from dataclasses import dataclass
from typing import Any, Callable

from .artifacts import ArtifactReader
from .glyphs import PDF_SPACES, page_word_breaks, pdf_chars
from .twins import NO_TWINS, TOUCH, Twins, dropped_twins


@dataclass(slots=True)
class Word:
    """One word of a page. ``x0``/``x1``/``top``/``bottom``: its box in points; ``fontname``: the
    font of its first character; ``size``: font size in points; ``upright``: set horizontally;
    ``mcid``: its marked-content id in a tagged PDF (None: untagged); ``pagination``: drawn inside
    a pagination artifact (a running header or footer, as the producer marks it: ``artifacts``);
    ``glued``: it touches the word before it on the line with no space between (a word cut in two
    only because its font, size or marked content changes, as "$" + "7.5" or "2022" + "."), so its
    text follows that word's without a space (``words_text``)."""
    text: str
    x0: float
    top: float
    x1: float
    bottom: float
    fontname: str = ""
    size: float = 0.0
    upright: bool = True
    mcid: int | None = None
    pagination: bool = False
    glued: bool = False


#: the widest gap, as a share of the font size, between two words cut by a change of style that
#: still touch (set with no space between: a space is a quarter of the size or more)
GLUE_GAP = 0.05


def words_text(words: list[Word]) -> str:
    """The words' text as read: a space between two words, none before a ``glued`` one."""
    return "".join(w.text if i == 0 or w.glued else " " + w.text for i, w in enumerate(words))


def _touches(a: Word, b: Word) -> bool:
    """Whether ``b`` starts where ``a`` ends on the same baseline, with no room for a space (a
    raised or lowered word, such as a footnote mark, is not on it: "Center" + "1" stays apart)."""
    size = max(a.size or 0.0, b.size or 0.0) or 10.0
    return (-0.5 <= b.x0 - a.x1 <= GLUE_GAP * size and a.upright and b.upright
            and abs(a.bottom - b.bottom) <= 0.15 * size)


def plumber_words(page, tagged: bool) -> list[Word]:
    """The non-blank words of a pdfplumber page (``extract_words`` with font name and size, and
    the marked-content id where ``tagged``)."""
    attrs = ["fontname", "size"] + (["mcid"] if tagged else [])
    words = [Word(w["text"], w["x0"], w["top"], w["x1"], w["bottom"], w.get("fontname", ""),
                  w.get("size"), w.get("upright", True), w.get("mcid"))
             for w in page.extract_words(extra_attrs=attrs, keep_blank_chars=False) if w["text"].strip()]
    for a, b in zip(words, words[1:]):  # a space always leaves a gap: touching words were cut by style
        b.glued = _touches(a, b)
    return words


#: (font name, size in pt, upright, marked-content id or -1, in a pagination artifact): what a
#: word keeps the same
_Style = tuple[str, float, bool, int, bool]
#: (text, x0, top, x1, bottom) of one character
_Glyph = tuple[str, float, float, float, float]


def pdfium_words(page, textpage, chars: list[dict[str, Any]] | None = None,
                 mcid: bool = False) -> list[Word]:
    """The words of a pypdfium2 page, as pdfplumber's ``extract_words`` would give them (the box of
    a character being its font size tall above its descent, as pdfminer draws it). A word ends at a
    space (pdfium's generated spaces included: it sees word gaps in tightly set text that a fixed
    tolerance misses), a gap over 3 pt, a change of line, font, size or direction; in Indic text
    where ``glyphs.page_word_breaks`` says. ``chars``, where given, gets the characters
    (pdfplumber's char dicts, the keys its table extraction reads). ``mcid``: words also carry
    their marked-content id (tagged PDFs), and end where it changes, and where a pagination
    artifact starts or ends (artifacts are marked in tagged PDFs: untagged, none is looked for).
    A letter pdfium left out as an overprint of the one before it, where it is a second letter
    (``twins``: a kerned "ff"), is read again."""
    tp = textpage.raw
    glyph = _GlyphReader(page, tp, mcid)
    breaks = page_word_breaks(textpage)
    start = len(chars) if chars is not None else 0
    words, tight = _read_words(tp, glyph, breaks, chars, NO_TWINS)
    try:
        twins = dropped_twins(page, tp, glyph.fonts.keys()) if tight and not glyph.rot else NO_TWINS
    except Exception:  # a malformed text object should not lose the page's words
        twins = NO_TWINS
    if twins.after:  # rare: read again, with the letters put back
        if chars is not None:
            del chars[start:]
        words = _read_words(tp, glyph, breaks, chars, twins)[0]
    return words


def _read_words(tp, glyph: _GlyphReader, breaks: dict[int, bool], chars: list[dict[str, Any]] | None,
                twins: Twins) -> tuple[list[Word], bool]:
    """``pdfium_words``' one pass over the characters of the raw text page ``tp``: the words, and
    whether a space pdfium generated stands between two letters that touch (where it may have
    left out a letter as an overprint: ``twins``)."""
    import pypdfium2.raw as raw

    words: list[Word] = []
    cur: list[_Glyph] = []
    style: _Style = ("", 0.0, True, -1, False)
    space = False  # a space since the last character (for ``chars``)
    spaced = True  # a space (or nothing) since the last word ended: the next word is not glued
    glue = False  # the word being read was cut from the one before by a change of style alone
    generated = tight = False  # a generated space since the last word; one between touching letters
    for i, u, ch, shift in _with_twins(pdf_chars(raw, tp), twins.after):
        ch = "-" if u == 2 else ch  # 2: pdfium's line-end hyphen
        if not ch or ch in PDF_SPACES or u == 0xFFFE or raw.FPDFText_IsGenerated(tp, i):
            if breaks.get(i) is not False and i not in twins.bridged:
                _end_word(words, cur, style, glue)
                space = spaced = True
                generated = generated or bool(ch) and raw.FPDFText_IsGenerated(tp, i)
            continue
        left, top, right, bottom, s = glyph.read(i)
        if shift:
            left, right = left + shift, right + shift
        brk = breaks.get(i)
        space = space or bool(brk)
        if cur:  # does this character start a new word? (inline: it runs for every character)
            if brk is not None:  # one word may mix fonts (a Latin colon after Devanagari)
                ends = brk or s[1:] != style[1:]
            else:  # another style, a gap over 3 pt, a step back, or another line
                _, px0, ptop, px1, pbottom = cur[-1]
                h = max(bottom - top, 0.1)
                ends = (s != style or left - px1 > 3 or left < px0 - 1
                        or min(bottom, pbottom) - max(top, ptop) < 0.5 * min(h, pbottom - ptop))
            if ends:
                _end_word(words, cur, style, glue)
        if not cur:
            if generated and words and not tight:
                tight = (left - words[-1].x1 < TOUCH * s[1] and abs(bottom - words[-1].bottom) < 0.1 * s[1])
            style = s
            glue, spaced, generated = not (spaced or brk), False, False
        cur.append((ch, left, top, right, bottom))
        if chars is not None:
            _add_table_char(chars, ch, left, top, right, bottom, s, space)
            space = False
    _end_word(words, cur, style, glue)
    return words, tight


def _with_twins(chars, after: dict[int, float]):
    """``(index, unit, text, shift)`` of each character of ``chars`` (``pdf_chars``), shift 0; a
    character in ``after`` again right after it, shifted by its value in points."""
    for i, u, ch in chars:
        yield i, u, ch, 0.0
        if i in after:
            yield i, u, ch, after[i]


class _GlyphReader:
    """The box and style of each character of a pdfium text page, in display coordinates."""

    def __init__(self, page, tp, mcid: bool) -> None:
        import pypdfium2.raw as raw

        self.raw, self.tp, self.mcid = raw, tp, mcid
        self.to_display, self.rot = display_map(page)
        self.origin = self.to_display(0.0, 0.0)
        self.rect, self.mat = raw.FS_RECTF(), raw.FS_MATRIX()
        self.buf = ctypes.create_string_buffer(256)
        self.flags = ctypes.c_int()
        self.artifacts = ArtifactReader()
        #: per text object: (font name, mcid, in a pagination artifact)
        self.fonts: dict[Any, tuple[str, int, bool]] = {}

    def read(self, i: int) -> tuple[float, float, float, float, _Style]:
        """(left, top, right, bottom, style) of character ``i``: its loose box, font size tall."""
        raw, tp, rect, mat, rot = self.raw, self.tp, self.rect, self.mat, self.rot
        raw.FPDFText_GetLooseCharBox(tp, i, rect)
        raw.FPDFText_GetMatrix(tp, i, mat)
        size = round(raw.FPDFText_GetFontSize(tp, i) * math.hypot(mat.c, mat.d), 3)
        if rot:
            (ax, ay), (bx, by) = self.to_display(rect.left, rect.bottom), self.to_display(rect.right, rect.top)
            left, right, bottom = min(ax, bx), max(ax, bx), max(ay, by)
        else:  # (x, y) -> (x - crop left, crop top - y)
            ox, oy = self.origin
            left, right, bottom = rect.left + ox, rect.right + ox, oy - rect.bottom
        obj = ctypes.cast(raw.FPDFText_GetTextObject(tp, i), ctypes.c_void_p).value
        got = self.fonts.get(obj)
        if got is None:
            k = raw.FPDFText_GetFontInfo(tp, i, self.buf, 256, self.flags)
            tobj = raw.FPDFText_GetTextObject(tp, i)
            mc = raw.FPDFPageObj_GetMarkedContentID(tobj) if self.mcid else -1
            got = self.fonts[obj] = (self.buf.raw[:max(0, k - 1)].decode("utf-8", "replace"), mc,
                                     self.mcid and self.artifacts.pagination(tobj))
        angle = (raw.FPDFText_GetCharAngle(tp, i) + rot) % (2 * math.pi)
        upright = angle < 0.01 or angle > 2 * math.pi - 0.01
        return left, bottom - size, right, bottom, (got[0], size, upright, got[1], got[2])


def _end_word(words: list[Word], cur: list[_Glyph], style: _Style, glue: bool = False) -> None:
    """The characters in ``cur`` become a word (none where one has no Unicode mapping: such
    glyphs come out as control characters), ``glued`` where ``glue`` (no space since the word
    before) and the two touch; ``cur`` is emptied."""
    if cur and not any(c[0] < " " for c in cur):
        w = Word("".join(c[0] for c in cur), min(c[1] for c in cur), min(c[2] for c in cur),
                 max(c[3] for c in cur), max(c[4] for c in cur), style[0], style[1], style[2],
                 style[3] if style[3] >= 0 else None, style[4])
        w.glued = glue and bool(words) and _touches(words[-1], w)
        words.append(w)
    cur.clear()


def _add_table_char(chars: list[dict[str, Any]], ch: str, left: float, top: float, right: float,
                    bottom: float, s: _Style, space: bool) -> None:
    """Append a character to ``chars`` for the table finder, after a space character where a
    space came before it on the same line (rotated text: a zero-width space)."""
    font, size, upright = s[:3]
    if space and chars and (not upright or chars[-1]["x1"] < left
                            and abs(chars[-1]["bottom"] - bottom) < 0.5 * size):
        chars.append(_table_char(" ", chars[-1]["x1"] if upright else left, top, left, bottom, size,
                                 upright, font))
    chars.append(_table_char(ch, left, top, right, bottom, size, upright, font))


def _table_char(text: str, x0: float, top: float, x1: float, bottom: float, size: float,
                upright: bool, font: str) -> dict[str, Any]:
    return {"text": text, "x0": x0, "x1": x1, "top": top, "bottom": bottom, "doctop": top,
            "height": bottom - top, "width": x1 - x0, "size": size, "upright": upright,
            "fontname": font}


def display_map(page) -> tuple[Callable[[float, float], tuple[float, float]], float]:
    """(map, rotation in radians): ``map(x, y)`` takes PDF user space (y up) to the displayed
    page's (x, top) with ``top`` growing downwards from its top-left corner, applying the page's
    /Rotate (clockwise) as pdfminer does; the displayed page is what pdfium renders, its
    bounding box (the crop box cut to the media box)."""
    import pypdfium2.raw as raw

    box = raw.FS_RECTF()
    if raw.FPDF_GetPageBoundingBox(page.raw, box):
        left, bottom, right, top = box.left, box.bottom, box.right, box.top
    else:  # pragma: no cover - pdfium gives every loaded page one
        left, bottom = 0.0, 0.0
        right, top = page.get_width(), page.get_height()
    rot = page.get_rotation() % 360
    if rot == 90:
        return (lambda x, y: (y - bottom, x - left)), math.pi / 2
    if rot == 180:
        return (lambda x, y: (right - x, y - bottom)), math.pi
    if rot == 270:
        return (lambda x, y: (top - y, right - x)), 3 * math.pi / 2
    return (lambda x, y: (x - left, top - y)), 0.0
