"""What counts as whitespace where chunks are cut, sized and compared: the one definition.

Python's ``str.isspace`` (and so ``str.split()``, ``str.strip()`` and ``\\s`` in ``re``) also says
yes to characters that tokenizers keep as text (U+0085, the line and paragraph separators for BERT)
or drop as control characters (vertical tab, form feed, U+001C-U+001F), which glues the words on
either side together. A cut is only "at whitespace" where the common tokenizers agree that it is:
tab, line feed, carriage return, space and the Unicode space separators (category Zs). A word is
a run of characters that are not whitespace by this definition.
"""
from __future__ import annotations

import re

import numpy as np

#: the whitespace characters, as a regex character-class body
SPACE = "\t\n\r \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000"
SPACE_SET = frozenset("\t\n\r \u00a0\u1680\u202f\u205f\u3000"
                      + "".join(chr(c) for c in range(0x2000, 0x200B)))
_CONTENT = re.compile(f"[^{SPACE}]")
#: a word: a run of characters that are not whitespace
WORD = re.compile(f"[^{SPACE}]+")
_SPACE_CODES = np.array(sorted(map(ord, SPACE_SET)), dtype="<u4")


def is_blank(text: str, start: int = 0, end: int | None = None) -> bool:
    """Whether ``text[start:end]`` holds nothing but whitespace."""
    return _CONTENT.search(text, start, len(text) if end is None else end) is None


#: the whitespace characters as a string, for ``str.strip`` (whose default also strips controls)
SPACE_CHARS = "".join(sorted(SPACE_SET))


def strip_space(text: str) -> str:
    """``text`` without whitespace at either end."""
    return text.strip(SPACE_CHARS)


def count_words(text: str) -> int:
    """The number of words (runs of non-whitespace characters) in ``text``."""
    return len(WORD.findall(text))


def code_points(text: str) -> np.ndarray:
    """The code points of ``text``, one ``uint32`` each (lone surrogates included)."""
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")


def space_mask(text: str) -> np.ndarray:
    """One bool per code point of ``text``: True where it is whitespace."""
    return np.isin(code_points(text), _SPACE_CODES)


def solid_prefix(text: str) -> np.ndarray:
    """Non-whitespace characters before each offset of ``text``: ``len(text) + 1`` counts, the
    first 0, so ``text[a:b]`` holds ``out[b] - out[a]`` of them."""
    return np.concatenate(([0], np.cumsum(~space_mask(text), dtype=np.int64)))
