"""Text quality of an extracted text layer: whether it is garbled (a font without a usable
Unicode map, impossible Devanagari), so the next extractor is tried."""
from __future__ import annotations

import re
import unicodedata

_DEV_SIGNS = set(range(0x093E, 0x094D)) | {0x0962, 0x0963}  # dependent vowel signs
_DEV_VIRAMA = 0x094D
_CID = re.compile(r"\(cid:\d+\)")


def _is_dev(ch: str) -> bool:
    return 0x0900 <= ord(ch) <= 0x097F


def garble_score(text: str) -> tuple[int, int]:
    """``(bad, letters)``: how many suspicious code points/sequences ``text`` has, and how many
    letters. Suspicious: U+FFFD, private-use characters, pdfminer's ``(cid:N)``, and impossible
    Devanagari (a dependent vowel sign, virama or nukta at a word start; two dependent vowel signs
    in a row; a virama straight after a vowel sign)."""
    bad = 0
    letters = 0
    prev = ""
    for ch in text:
        o = ord(ch)
        if o == 0xFFFD or 0xE000 <= o <= 0xF8FF or 0xF0000 <= o:
            bad += 1
        elif _is_dev(ch):
            if o in _DEV_SIGNS or o == _DEV_VIRAMA or o == 0x093C:
                if not prev or not _is_dev(prev):
                    bad += 1  # sign with no consonant in front of it
                elif o in _DEV_SIGNS and ord(prev) in _DEV_SIGNS:
                    bad += 1  # two dependent vowel signs in a row
                elif o == _DEV_VIRAMA and ord(prev) in _DEV_SIGNS:
                    bad += 1
            else:
                letters += 1
        elif ch.isalpha():
            letters += 1
        prev = ch
    return bad, letters


def is_garbled(text: str) -> bool:
    """Whether an extracted text layer looks broken (see ``garble_score``), or is mostly
    non-letters (a font without a usable ToUnicode map)."""
    bad, letters = garble_score(text)
    cids = len(_CID.findall(text))
    if cids and cids / max(letters, 1) > 0.02:
        return True  # glyphs with no Unicode mapping (a few bullets are fine)
    if bad >= 3 or (bad and bad / max(letters, 1) > 0.005):
        return True
    visible = sum(1 for ch in text if not ch.isspace())
    if visible >= 80 and letters / visible < 0.25:
        # digits and punctuation are legitimate (tables of numbers); control characters are not
        ctrl = sum(1 for ch in text if unicodedata.category(ch) in ("Cc", "Co", "Cn") and not ch.isspace())
        return ctrl / visible > 0.05
    return False

