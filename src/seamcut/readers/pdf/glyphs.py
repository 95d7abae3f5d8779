"""Word breaks in Indic (Devanagari and the other Brahmic scripts) PDF text, from glyph geometry.

pdfium guesses word breaks from the gap between one character's box and the next. In Indic text
the character before a break is often a combining mark (a vowel sign, anusvara, candrabindu) whose
box sits above or below its base letter, not at the cluster's right edge, so the guess goes wrong
both ways: a space after "फफूं" inside "फफूंदनाशक", none between "मात्राएँ" and "और". Here the
characters are grouped into clusters (a base letter with its marks, and letters joined by a virama),
each cluster's extent is taken from its spacing glyphs, and a break between two clusters on one line
is decided by the horizontal gap between them: a real word space is about a quarter of the font
size, letters of one word touch or overlap.

Units: points (1/72 inch) in PDF user space, x growing to the right, y growing upwards.
"""
from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Iterator

#: a gap between two clusters wider than this share of the font size is a word break (a word space
#: in Devanagari fonts is about 0.26 of the size; glyphs of one word overlap by a little)
BREAK_GAP = 0.12
#: Brahmic scripts, Devanagari (U+0900) to Sinhala (U+0DFF), and Devanagari Extended
_INDIC = re.compile(r"[\u0900-\u0DFF\uA8E0-\uA8FF]")
_JOINERS = frozenset("\u200c\u200d")
#: the characters that end a word in a PDF's text layer; narrower than ``text.space.SPACE_SET``
#: on purpose: a thin or other Zs space stays inside a word here, as it always has
PDF_SPACES = frozenset(" \t\r\n\u00a0\u3000")


@dataclass
class Char:
    """One character of a pdfium text page. ``left``/``right``/``bottom``/``top``: its loose box,
    in points; ``size``: font size in points; ``space``: a space or line break (``generated``:
    inserted by pdfium, not in the content stream)."""
    index: int
    ch: str
    left: float
    right: float
    bottom: float
    top: float
    size: float
    space: bool
    generated: bool


@dataclass
class Cluster:
    """A base character and the marks that attach to it. ``chars``: indices into the page's list
    of ``Char``; ``left``/``right``/``bottom``/``top``: extent of its spacing glyphs, in points."""
    chars: list[int]
    left: float
    right: float
    bottom: float
    top: float
    size: float
    indic: bool


def is_indic(ch: str) -> bool:
    return bool(_INDIC.match(ch))


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch) in ("Mn", "Mc", "Me")


def _joins_next(ch: str) -> bool:
    """Whether the character after ``ch`` belongs to ``ch``'s cluster (a virama, a joiner)."""
    return ch in _JOINERS or unicodedata.combining(ch) == 9


def pdf_chars(raw: Any, tp: Any) -> Iterator[tuple[int, int, str]]:
    """``(index, UTF-16 unit, text)`` of each character of pdfium text page ``tp``. pdfium gives
    a character outside the BMP as two, a surrogate pair: they are one code point, at the first
    one's index; an unpaired surrogate (no character at all, and text no encoder takes) is
    U+FFFD; 0 gives ""."""
    count = raw.FPDFText_CountChars(tp)
    i = 0
    while i < count:
        u = raw.FPDFText_GetUnicode(tp, i)
        low = raw.FPDFText_GetUnicode(tp, i + 1) if 0xD800 <= u < 0xDC00 and i + 1 < count else 0
        if 0xDC00 <= low < 0xE000:
            yield i, u, chr(0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00))
            i += 2
            continue
        yield i, u, "\ufffd" if 0xD800 <= u < 0xE000 else chr(u) if 0 < u < 0x110000 else ""
        i += 1


def read_chars(textpage) -> list[Char]:
    """Every character of a pypdfium2 ``PdfTextPage`` with its loose box and font size."""
    import pypdfium2.raw as raw

    tp = textpage.raw
    rect, mat = raw.FS_RECTF(), raw.FS_MATRIX()
    out = []
    for i, u, ch in pdf_chars(raw, tp):
        generated = bool(raw.FPDFText_IsGenerated(tp, i))
        space = not ch or ch in PDF_SPACES or u == 0xFFFE
        if space or generated:
            out.append(Char(i, ch, 0.0, 0.0, 0.0, 0.0, 0.0, True, generated))
            continue
        raw.FPDFText_GetLooseCharBox(tp, i, rect)
        raw.FPDFText_GetMatrix(tp, i, mat)
        size = raw.FPDFText_GetFontSize(tp, i) * math.hypot(mat.c, mat.d)
        out.append(Char(i, ch, rect.left, rect.right, rect.bottom, rect.top, size, False, False))
    return out


def clusters(chars: list[Char]) -> list[Cluster]:
    """The non-space characters grouped into clusters, in content order. A cluster's extent
    leaves out its non-spacing marks (their boxes can hang past the base letter) unless it has
    nothing else (see ``_spacing``)."""
    groups: list[list[int]] = []
    prev: Char | None = None
    for k, c in enumerate(chars):
        if c.space:
            prev = None if not c.generated or c.ch in "\r\n" else prev
            continue
        attach = (prev is not None and (_is_mark(c.ch) or _joins_next(prev.ch))
                  and _near(prev, c))
        if attach and groups:
            groups[-1].append(k)
        else:
            groups.append([k])
        prev = c
    return [_cluster(chars, g) for g in groups]


def _near(a: Char, b: Char) -> bool:
    """Whether ``b`` is drawn close enough to ``a`` to be part of its cluster (within a font size
    of it both ways: not on the next line, not in another column)."""
    size = max(a.size, b.size)
    return (b.left <= a.right + size and b.right >= a.left - size
            and abs((a.bottom + a.top) - (b.bottom + b.top)) / 2 <= size)


def _spacing(chars: list[Char], members: list[int]) -> list[Char]:
    """The members of a cluster that take room on the line: all but the non-spacing marks set
    over or under the letter before them. A non-spacing mark whose box starts where the one
    before it ends is a share of a ligature's box (pdfium splits a glyph that stands for several
    characters into equal parts), and counts."""
    out = []
    for j, k in enumerate(members):
        c = chars[k]
        if j and unicodedata.category(c.ch) == "Mn":
            prev = chars[members[j - 1]]
            if c.left < prev.right - 0.02 * max(c.size, prev.size):
                continue
        out.append(c)
    return out


def _cluster(chars: list[Char], members: list[int]) -> Cluster:
    boxes = _spacing(chars, members)
    return Cluster(members, min(c.left for c in boxes), max(c.right for c in boxes),
                   min(c.bottom for c in boxes), max(c.top for c in boxes),
                   max(c.size for c in boxes), any(is_indic(chars[k].ch) for k in members))


def _same_line(a: Cluster, b: Cluster) -> bool:
    """Whether ``b`` follows ``a`` on the same horizontal line (left to right)."""
    overlap = min(a.top, b.top) - max(a.bottom, b.bottom)
    height = min(a.top - a.bottom, b.top - b.bottom)
    return height > 0 and overlap > 0.5 * height and b.left > a.left


def gap(a: Cluster, b: Cluster) -> float:
    """Horizontal gap from cluster ``a`` to the next cluster ``b``, in points (negative: overlap)."""
    return b.left - a.right


def word_breaks(chars: list[Char]) -> dict[int, bool]:
    """pdfium character index -> whether a word break goes there, for the places this module
    decides: each character inside an Indic cluster (False), the first character of a cluster
    that follows an Indic one on the same line or is followed by one (True where the gap
    between them is over ``BREAK_GAP`` of the font size), and the spaces pdfium generated
    between such clusters (False where they are not breaks). A space written in the PDF stays a
    break; places not in the map are left to the caller."""
    out: dict[int, bool] = {}
    cl = clusters(chars)
    for c in cl:
        if c.indic:  # its marks, and any space pdfium put among them
            out.update((chars[k].index, False) for k in range(c.chars[0] + 1, c.chars[-1] + 1))
    for a, b in zip(cl, cl[1:]):
        if not (a.indic or b.indic) or not _same_line(a, b):
            continue
        between = chars[a.chars[-1] + 1:b.chars[0]]
        if any(not c.generated for c in between):
            continue  # a space in the content stream, or a character that is not a space
        brk = gap(a, b) > BREAK_GAP * max(a.size, b.size, 1e-3)
        out[chars[b.chars[0]].index] = brk
        out.update((c.index, False) for c in between if not brk)
    return out


def page_word_breaks(textpage) -> dict[int, bool]:
    """``word_breaks`` of a pypdfium2 text page; empty (and cheap) for a page without Indic text."""
    try:
        text = textpage.get_text_range()
    except Exception:
        return {}
    if not _INDIC.search(text):
        return {}
    return word_breaks(read_chars(textpage))


__all__ = ["BREAK_GAP", "PDF_SPACES", "Char", "Cluster", "clusters", "gap", "is_indic", "page_word_breaks",
           "pdf_chars", "read_chars", "word_breaks"]
