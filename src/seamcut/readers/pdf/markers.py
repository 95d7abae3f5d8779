"""List markers: bullet glyphs, numbers and letters in front of a list item."""
from __future__ import annotations

import re

#: bullet glyphs: dots, squares, dashes; check boxes (☐ ☑ ☒ ❏ ❐ ❑ ❒ □); and the codes a
#: symbol font (Wingdings, Symbol) without a Unicode map gives its glyphs: C1 controls and
#: private-use code points (a Wingdings check box comes out as U+0084)
_BULLET_CHARS = ("\u2022\u25aa\u25a0\u25cf\u25e6\u2023\u2043\u2219\u00b7\u2013\u2014*>\\-"
                 "\u2610-\u2612\u274f-\u2752\u25a1\u0080-\u009f\ue000-\uf8ff")
_BULLET = re.compile(r"^\s*(?:\(cid:\d+\)|[" + _BULLET_CHARS + r"]"
                     r"|\(?\d{1,3}[.)]|\(?[a-zA-Z][.)]|\(?[ivxIVX]{1,4}[.)])(?:\s+|$)")
_GLYPH_BULLET = re.compile(r"^\s*(?:\(cid:\d+\)|[" + _BULLET_CHARS + r"])\s*")


def list_marker(text: str) -> str | None:
    m = _BULLET.match(text)
    return m.group(0).strip() if m else None


def strip_glyph_bullet(text: str) -> tuple[str, str | None]:
    m = _GLYPH_BULLET.match(text)
    if not m:
        return text, None
    return text[m.end():], m.group(0).strip()
