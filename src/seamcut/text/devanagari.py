"""Repairs for Devanagari text that PDF extractors take apart.

poppler's ``pdftotext`` puts a space before some dependent vowel signs ("दे खभाल" for "देखभाल"):
a combining sign never starts a word, so a space right before one is always an extraction
artefact. Only such spaces are removed; nothing else is changed.
"""
from __future__ import annotations

import re

#: combining signs of the Devanagari block: candrabindu, anusvara, visarga, nukta, dependent
#: vowel signs, virama and the other marks that only ever follow a letter
SIGNS = "\u0900-\u0903\u093a-\u093c\u093e-\u094f\u0951-\u0957\u0962\u0963"
_SPACE_BEFORE_SIGN = re.compile(f"(?<=[\u0900-\u097f]) +(?=[{SIGNS}])")


def join_split_signs(text: str) -> tuple[str, int]:
    """``text`` without spaces before Devanagari combining signs, and how many were removed."""
    return _SPACE_BEFORE_SIGN.subn("", text)
