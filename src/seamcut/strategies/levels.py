"""Break levels: where a text may be cut, biggest break first.

A strategy built on the piece packer (``pieces.py``) only says where its boundaries are: an ordered tuple of
``Level``s. ``RECURSIVE_LEVELS`` is the recursive hierarchy; the sentence strategy starts at
``SENTENCE``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from ..text import SPACE, paragraph_gaps, sentence_breaks
from ..text.space import SPACE_SET, strip_space

Cuts = Callable[[str, int, int, "str | None"], list[int]]


@dataclass(frozen=True)
class Level:
    """One kind of break: ``cuts(text, start, end, language)`` gives the offsets strictly inside
    ``(start, end)`` where a new piece starts.

    A cut goes right after the break (the full stop, the comma, the last word of a paragraph),
    so the whitespace that follows opens the next piece. Whitespace before a word costs the same
    tokens there as inside the document, for every tokenizer; whitespace after the last word of a
    text does not (a Unigram tokenizer adds a ``▁`` for it), so this keeps span estimates exact.
    """

    name: str
    cuts: Cuts


def space_start(text: str, p: int, a: int) -> int:
    """The start of the whitespace run that ends at ``p`` (not before ``a``)."""
    while p > a and text[p - 1] in SPACE_SET:
        p -= 1
    return p


def _regex_cuts(pattern: str) -> Cuts:
    """Cuts at the start of each whitespace run that holds a match of ``pattern``."""
    rx = re.compile(pattern)

    def cuts(text: str, a: int, b: int, language: str | None = None) -> list[int]:
        out: list[int] = []
        for m in rx.finditer(text, a, b):
            c = space_start(text, m.start(), a)
            if a < c < b and (not out or c > out[-1]):
                out.append(c)
        return out

    return cuts


def _sentence_cuts(text: str, a: int, b: int, language: str | None = None) -> list[int]:
    # a blank line ends a sentence too (sentence_breaks says so)
    return [a + p for p in sentence_breaks(text[a:b], language) if 0 < p < b - a]


def _paragraph_cuts(text: str, a: int, b: int, language: str | None = None) -> list[int]:
    # at the end of each paragraph, where the blank-line gap starts
    return [a + end for end, _ in paragraph_gaps(text[a:b]) if 0 < end < b - a]


_newline_cuts = _regex_cuts(r"\n")
_LINE_END = frozenset(".?!:;।॥|。！？…\"')]}»”’*-|")


def _line_cuts(text: str, a: int, b: int, language: str | None = None) -> list[int]:
    """Line breaks, unless the text is hard-wrapped prose (most lines long and ending mid-
    sentence, as in e-texts and e-mails wrapped at 70 columns): there a line break is only a
    space, and cutting there would cut sentences."""
    lines = text[a:b].split("\n")[:-1]
    if len(lines) >= 3:
        mid = sum(1 for ln in lines if len(ln) > 40 and strip_space(ln)[-1:] not in _LINE_END)
        if mid * 2 >= len(lines):
            return []
    return _newline_cuts(text, a, b, language)


PARAGRAPH = Level("paragraph", _paragraph_cuts)
LINE = Level("line", _line_cuts)
SENTENCE = Level("sentence", _sentence_cuts)
CLAUSE = Level("clause", _regex_cuts(
    f"(?<=[,;:\u060c\u3001\uff0c\uff1b\uff1a])[{SPACE}]|[{SPACE}][-\u2013\u2014][{SPACE}]"))
WORD = Level("word", _regex_cuts(f"[{SPACE}]+"))

#: The recursive hierarchy: blank line, line break, sentence end (danda included), clause
#: punctuation, space; below the last level, single units (tokens, words or characters).
RECURSIVE_LEVELS: tuple[Level, ...] = (PARAGRAPH, LINE, SENTENCE, CLAUSE, WORD)
#: sentences, cut further where over the limit: clause punctuation, space, single units
SENTENCE_LEVELS: tuple[Level, ...] = (SENTENCE, CLAUSE, WORD)

#: where a whitespace run starts (a cut "at whitespace" goes there)
RUN_START = re.compile(f"(?<![{SPACE}])[{SPACE}]")
