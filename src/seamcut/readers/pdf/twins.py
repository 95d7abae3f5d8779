"""Letters pdfium drops as overprints, put back.

pdfium leaves out of a page's text a text object that repeats one of the five text objects before
it and stands within 0.9 of a character's width of it: that is how fake bold is drawn (the same run
twice, a fraction of a point apart). A double letter set as two one-letter objects and kerned into
each other looks the same to it. Amazon's 10-Qs set the italic "ff" of "differ" and "Effect" as two
"f"s 2.5 pt apart (13.3 pt type), and pdfium reads "dif er": one "f", then a space it generates
where the second one stood. A one-letter object that pdfium left out and that stands at least
``TWIN_SHIFT`` of its own width to the right of an identical letter it kept is a second letter, and
is read after it; the generated space that followed is dropped where the next letter touches it.

Units: points (1/72 inch) in PDF user space, x growing to the right.
"""
from __future__ import annotations

import ctypes
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Collection

#: a left-out one-letter object this share of its width or more to the right of its twin is a
#: second letter (a kerned "ff" stands about 0.4 to 0.7 of a width apart); less is an overprint
#: (fake bold is drawn a few hundredths of an em apart)
TWIN_SHIFT = 0.25
#: the next letter starts within this share of the font size of a put-back letter's right edge:
#: the space pdfium generated between them is no word space (a word space is about a quarter)
TOUCH = 0.12
#: pdfium compares a text object with the five text objects before it
_LOOK_BACK = 5


@dataclass(frozen=True)
class Twins:
    """``after``: pdfium character index -> x shift, in points, of a copy of that character that
    pdfium left out and that is read right after it; ``bridged``: the indices of the spaces pdfium
    generated between such a copy and the letter that follows it, read as no space."""
    after: dict[int, float] = field(default_factory=dict)
    bridged: frozenset[int] = frozenset()


NO_TWINS = Twins()


@dataclass
class _Obj:
    left: float
    bottom: float
    right: float
    top: float
    size: float


def dropped_twins(page, tp, kept: Collection[int]) -> Twins:
    """The ``Twins`` of a pypdfium2 page and its raw text page ``tp``; ``kept``: the addresses of
    the text objects pdfium read characters from (top-level text objects; upright text on an
    unrotated page: the shift is along user space's x)."""
    import pypdfium2.raw as raw

    after: dict[int, float] = {}
    bridged: set[int] = set()
    recent: deque[tuple[Any, bool]] = deque(maxlen=_LOOK_BACK)  # (object, kept)
    for j in range(raw.FPDFPage_CountObjects(page.raw)):
        handle = raw.FPDFPage_GetObject(page.raw, j)
        if raw.FPDFPageObj_GetType(handle) != raw.FPDF_PAGEOBJ_TEXT:
            continue
        was_kept = ctypes.cast(handle, ctypes.c_void_p).value in kept
        left_out = None if was_kept else _bounds(raw, handle)
        if left_out is not None and left_out.right > left_out.left:
            for other, other_kept in reversed(recent):
                if not other_kept:
                    continue
                twin = _bounds(raw, other)
                if twin is not None and _twin(twin, left_out) and _one_char(raw, other, tp):
                    k = _last_char(raw, tp, other)
                    after[k] = left_out.left - twin.left
                    bridged.update(_bridge(raw, tp, k, left_out))
                    break
        recent.append((handle, was_kept))
    return Twins(after, frozenset(bridged)) if after else NO_TWINS


def _bounds(raw, handle) -> _Obj | None:
    """A text object's bounds and font size in points; None where it is not upright."""
    left, bottom, right, top = (ctypes.c_float() for _ in range(4))
    size = ctypes.c_float()
    matrix = raw.FS_MATRIX()
    if not (raw.FPDFPageObj_GetBounds(handle, left, bottom, right, top)
            and raw.FPDFTextObj_GetFontSize(handle, size) and raw.FPDFPageObj_GetMatrix(handle, matrix)):
        return None
    if abs(matrix.b) > 1e-3 or abs(matrix.c) > 1e-3:
        return None
    return _Obj(left.value, bottom.value, right.value, top.value, size.value * abs(matrix.d))


def _one_char(raw, handle, tp) -> bool:
    """Whether pdfium read one character from the text object (its text may end with a space
    pdfium generated after it)."""
    size = raw.FPDFTextObj_GetText(handle, tp, None, 0)  # bytes, UTF-16 with a terminating zero
    if not 4 <= size <= 16:
        return False
    buf = ctypes.create_string_buffer(size)
    raw.FPDFTextObj_GetText(handle, tp, ctypes.cast(buf, ctypes.POINTER(raw.FPDF_WCHAR)), size)
    return len(buf.raw[:size - 2].decode("utf-16-le", "replace").strip()) == 1


def _last_char(raw, tp, handle) -> int:
    """The index in the text page of the (last) character read from the text object."""
    want = ctypes.cast(handle, ctypes.c_void_p).value
    for i in range(raw.FPDFText_CountChars(tp) - 1, -1, -1):
        if ctypes.cast(raw.FPDFText_GetTextObject(tp, i), ctypes.c_void_p).value == want:
            return i
    raise LookupError("a kept text object has no character")  # pragma: no cover


def _twin(kept: _Obj, dropped: _Obj) -> bool:
    """Whether ``dropped`` is ``kept`` drawn again a letter's share to its right, within its width
    (same size, same baseline, same width; pdfium found the two to draw the same character).
    ``kept``'s width is its glyph's, with any overhang: a share of it, not of its advance."""
    width = kept.right - kept.left
    return (abs(kept.size - dropped.size) < 0.01 and width > 0
            and abs(dropped.bottom - kept.bottom) < 0.05 * kept.size
            and abs((dropped.right - dropped.left) - width) < 0.05 * width
            and TWIN_SHIFT * width <= dropped.left - kept.left <= width)


def _bridge(raw, tp, k: int, twin: _Obj) -> list[int]:
    """The generated spaces after character ``k`` where the next letter touches ``twin``."""
    spaces = []
    n = raw.FPDFText_CountChars(tp)
    j = k + 1
    while j < n and raw.FPDFText_IsGenerated(tp, j) and chr(raw.FPDFText_GetUnicode(tp, j)) == " ":
        spaces.append(j)
        j += 1
    if not spaces or j >= n:
        return []
    rect = raw.FS_RECTF()
    raw.FPDFText_GetLooseCharBox(tp, j, rect)
    return spaces if rect.left - twin.right < TOUCH * twin.size else []


__all__ = ["NO_TWINS", "TOUCH", "TWIN_SHIFT", "Twins", "dropped_twins"]
