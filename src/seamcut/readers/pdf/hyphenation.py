"""The lines of one block joined into a paragraph, with words hyphenated across a line break
joined again; ``join_line_spans`` also says where each line landed in the paragraph."""
from __future__ import annotations

import re
from collections import Counter
from typing import Iterable, Mapping, Sequence

#: first halves of hyphenated compounds whose hyphen stays when a line breaks after it
COMPOUND_PREFIXES = frozenset("""
self well non co multi anti ex pre post semi cross high low long short full half all one two
three four five six ten first second third built user high-level so quasi mid part right left
state time cost data real""".split())

#: second halves of hyphenated compounds ("drought-" + "prone"): the hyphen stays; a word is
#: rarely split before one of these, and joined they make no word ("droughtprone")
COMPOUND_SUFFIXES = frozenset("""
prone based related free term wide level scale owned specific dependent friendly oriented like
sized driven resistant tolerant borne fed made grown run wise bound proof rich poor sensitive
affected linked""".split())

_HYPHENS = "-\u2010\u2011"
_LAST_WORD = re.compile(r"(\w+)[-\u2010\u2011]$")
_FIRST_WORD = re.compile(r"\w+")
_LETTERS = re.compile(r"[^\W\d_]+")


def vocabulary(texts: Iterable[str]) -> Counter[str]:
    """How often each word (letters only, lower case) occurs in ``texts``: what tells a compound
    broken at its hyphen ("credit-" + "financing": both words stand alone elsewhere, the two
    joined nowhere) from a word hyphenated to fit a line ("fertil-" + "izer")."""
    return Counter(w.lower() for t in texts for w in _LETTERS.findall(t))


def _compound(first: str, second: str, words: Mapping[str, int] | None) -> bool:
    """Whether ``first-`` at a line's end and ``second`` at the next line's start are the two
    halves of a hyphenated compound, whose hyphen stays: a known prefix or suffix, or (given the
    document's ``words``) two words that each occur elsewhere (counting this line break's own
    once) where the two joined occur nowhere."""
    if first in COMPOUND_PREFIXES or second in COMPOUND_SUFFIXES:
        return True
    if not words or first + second in words:
        return False
    return words.get(first, 0) >= 2 and words.get(second, 0) >= 2


def join_lines(lines: Sequence[str], words: Mapping[str, int] | None = None) -> str:
    """Join the lines of one block into a paragraph; words hyphenated across a line break are
    joined ("fertil-" + "izer" -> "fertilizer") unless the next line starts with an uppercase
    letter or digit, or the halves are a compound's (``_compound``: a known prefix "self-" +
    "locking" or suffix "drought-" + "prone"; with the document's ``words``, ``vocabulary``'s
    counts, two words found elsewhere, "credit-" + "financing", joined nowhere)."""
    return join_line_spans(lines, words)[0]


def join_line_spans(lines: Sequence[str], words: Mapping[str, int] | None = None
                    ) -> tuple[str, list[tuple[int, int] | None]]:
    """``join_lines(lines, words)`` and, for each of ``lines``, its span ``(start, end)`` in the
    joined text (code points; None for a line that adds nothing). A hyphen or soft hyphen removed
    at a join leaves its line's span one shorter; the spans are in order and do not overlap."""
    out = ""
    spans: list[tuple[int, int] | None] = []
    last = -1  # index in ``spans`` of the line written last
    for raw in lines:
        line = " ".join(raw.replace("\u00ad\n", "").split())
        if not line:
            spans.append(None)
            continue
        if not out:
            out = line
        elif out.endswith("\u00ad"):
            out = out[:-1] + line
        elif out[-1] in _HYPHENS and len(out) >= 3 and out[-2].isalpha():
            m = _LAST_WORD.search(out)
            first = m.group(1).lower() if m else ""
            after = _FIRST_WORD.match(line)
            second = after.group(0).lower() if after else ""
            if line[0].islower() and len(first) >= 2 and not _compound(first, second, words):
                out = out[:-1]
            out = out + line
        else:
            out = out + " "
            out = out + line
        start = len(out) - len(line)
        if last >= 0:  # the line before ends where its text now does
            a, b = spans[last]  # type: ignore[misc]
            spans[last] = (a, min(b, start)) if min(b, start) > a else None
        spans.append((start, len(out)))
        last = len(spans) - 1
    return out, spans
