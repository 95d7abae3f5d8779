"""Sentence and paragraph boundaries for English, Hindi, Marathi and CJK text.

Every offset in this module is a Python ``str`` index, i.e. a count of Unicode
code points (not bytes, not UTF-16 units, not grapheme clusters).

Sentences
    A sentence ends at a terminator run (``.`` ``?`` ``!`` ``…`` ``...``, the
    danda ``।`` and double danda ``॥``, ``|`` used as a danda after Devanagari,
    CJK ``。`` ``！`` ``？``) plus the closing quotes/brackets right after it.
    ``.?!…|`` only end a sentence when whitespace follows; danda and CJK
    terminators end one even when a letter follows directly.  A period does
    not end a sentence after an abbreviation, an initial, a list marker at the
    start of a line, or after an abbreviation when the next word starts lower-case;
    decimals, URLs and e-mail addresses never have whitespace after their
    inner periods, so they are never candidates.  A blank line also ends a
    sentence, so sentence spans always lie inside paragraph spans; a single
    line break does not.

Paragraphs
    Paragraphs are separated by blank lines: ``\\n``, optional spaces/tabs/
    ``\\r``, ``\\n`` (so ``\\r\\n\\r\\n`` works).

Speed: one compiled ``finditer`` pass finds the candidates; each candidate is
decided from a bounded slice before it (at most 24 code points) and the first
characters after it, so the cost is linear in the text length.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .abbreviations import (
    ABBREVIATIONS,
    CAPITALISED_ABBREVIATIONS,
    ETC,
    MAYBE,
    NEVER,
    NUMBER,
    STARTERS,
)
from .space import SPACE, SPACE_CHARS, SPACE_SET

__all__ = ["sentence_breaks", "sentence_spans", "paragraph_breaks", "paragraph_spans"]

_SOFT = ".?!…|"  # need whitespace (or end of text) after them
_HARD = "।॥。！？｡"  # end a sentence even when glued to the next letter
_CLOSERS = "\"'”’»›)]}」』）〉》】"
_OPENERS = "\"'“‘«‹([{「『（"

# terminator run, closers, following whitespace.  Possessive quantifiers: a
# match can never fail once it has started, so there is no backtracking.
_CANDIDATE = re.compile(
    "([%s]++)([%s]*+)([%s]*+)" % (re.escape(_SOFT + _HARD), re.escape(_CLOSERS), SPACE)
)
_HAS_HARD = re.compile("[%s]" % re.escape(_HARD))
# whitespace is seamcut's (text/space.py): U+001C-U+001F, U+0085, form feed are text here
_NON_SPACE = re.compile(f"[^{SPACE}]")
_GAP = re.compile("\n[%s]*+\n[%s]*+" % (SPACE.replace("\n", ""), SPACE))
_NUMERAL_MARKER = re.compile(r"[0-9]{1,3}(?:\.[0-9]{1,3})*|[A-Za-z]|[०-९]{1,3}")
_MARKER_AHEAD = re.compile(r"(?:[a-z]|[ivx]{2,4})[.)]\s")
_ROMAN = frozenset("i ii iii iv v vi vii viii ix x xi xii".split())
_LATIN_MULTI = re.compile(r"(?:[A-Za-z]{1,2}\.)+[A-Za-z]{1,2}")
_DEVA_LETTERS = "\u0900-\u0963\u0971-\u097f"
_DEVA_MULTI = re.compile("(?:[%s]{1,4}\\.)+[%s]{1,4}" % (_DEVA_LETTERS, _DEVA_LETTERS))
_NEXT_WORD = re.compile("[%s]?([A-Z][a-z]{0,20})" % re.escape(_OPENERS))

_LOOKBACK = 24  # code points inspected before a period
_DEVANAGARI_LANGUAGES = frozenset(
    "hi mr ne sa kok mai bho mag awa hne doi brx new bh raj".split()
)


def _is_devanagari(ch: str) -> bool:
    return "\u0900" <= ch <= "\u097f" or "\ua8e0" <= ch <= "\ua8ff"


def _at_line_start(text: str, i: int) -> bool:
    """True if only spaces/tabs (at most 16) lie between a line start and ``i``."""
    k = i
    limit = i - 16
    while k > 0 and k > limit and text[k - 1] in " \t":
        k -= 1
    return k == 0 or text[k - 1] in "\n\r"


def _lower_start(text: str, j: int) -> bool:
    """True if the word at ``j`` starts lower-case; "eBay", "iPhone" and a list
    marker at the start of a line ("b. ", "iv) ") do not count."""
    if not text[j].islower() or text[j + 1 : j + 2].isupper():
        return False
    return not (_MARKER_AHEAD.match(text, j) and _at_line_start(text, j))


def _opens_sentence(text: str, j: int) -> bool:
    """True if the word at ``j`` is a common capitalised sentence opener."""
    m = _NEXT_WORD.match(text, j)
    if m is None:
        return False
    word = m.group(1)
    after = text[m.end() : m.end() + 1]
    if after.isalpha():
        return False
    if len(word) == 1 and after == ".":  # another initial: "J. R. R. Tolkien"
        return False
    return word in STARTERS


def _period_ends(text: str, s: int, c: int, j: int) -> bool:
    """Decide a lone ``.`` at ``s``; closers end at ``c``; next text starts at ``j``.

    After an ordinary word a period ends the sentence whatever follows ("end. word" is two
    sentences, as the guide's recursive demo expects); after an abbreviation or an initial, a
    lower-case next word keeps the sentence going ("approx. two", "Co. ltd")."""
    nx = text[j]
    lo = s - _LOOKBACK if s > _LOOKBACK else 0
    pre = text[lo:s]
    if not pre or pre[-1].isspace():
        return True
    parts = pre.rsplit(None, 1)
    if len(parts) == 1 and lo > 0:  # a long token: a word, not an abbreviation
        return True
    raw = parts[-1]
    tok = raw.lstrip(_OPENERS)
    if not tok:
        return True
    if (
        _NUMERAL_MARKER.fullmatch(tok) or tok.lower() in _ROMAN
    ) and _at_line_start(text, s - len(raw)):
        return False  # "1. Mix", "a. Spray", "iv. Store" at the start of a line
    if "-" in tok:  # "non-U.S." -> "U.S"
        tok = tok.rsplit("-", 1)[1]
        if not tok:
            return True
    if len(tok) == 1 and tok.isupper():
        kind: int | None = MAYBE  # an initial: "J. R. R. Tolkien"
    else:
        low = tok.lower()
        kind = ABBREVIATIONS.get(low)
        if kind is None and tok[0].isupper():
            kind = CAPITALISED_ABBREVIATIONS.get(low)
        if kind is None and "." in tok:
            if _LATIN_MULTI.fullmatch(tok):
                kind = MAYBE  # U.S., Ph.D., B.Sc.
            elif _DEVA_MULTI.fullmatch(tok):
                kind = NEVER  # कि.मी., मि.ली., इ.स.पू.
    if kind is None:
        return True
    if _lower_start(text, j):
        return False
    if kind == NEVER:
        return False
    if kind == NUMBER:
        return not nx.isdigit()
    if c > s + 1:  # closers after the period: "(songs, etc.) Next", "(U.S.) The"
        return True
    if kind == ETC:
        return "\n" in text[c:j]
    return _opens_sentence(text, j)  # MAYBE


def _pipe_is_danda(text: str, s: int, devanagari_hint: bool | None) -> bool:
    """``|`` at ``s`` stands for a danda when Devanagari text precedes it."""
    if devanagari_hint is False:
        return False
    k = s
    limit = s - 4
    while k > 0 and k > limit and text[k - 1].isspace():
        k -= 1
    if k == 0:
        return False
    ch = text[k - 1]
    if _is_devanagari(ch):
        return True
    return bool(devanagari_hint) and (ch.isalnum() or ch in _CLOSERS)


def _devanagari_hint(language: str | None) -> bool | None:
    if not language:
        return None
    base = language.strip().lower().replace("_", "-").split("-")[0]
    return base in _DEVANAGARI_LANGUAGES


@lru_cache(maxsize=8)
def paragraph_gaps(text: str) -> tuple[tuple[int, int], ...]:
    """(end of the paragraph before, start of the next) for each blank-line gap, in code points.
    Cached for the last few texts: the chunker and the tokenizer both ask for a document's."""
    return tuple(_gaps(text))


def _gaps(text: str) -> list[tuple[int, int]]:
    """(end of previous paragraph, start of next) for each blank-line gap."""
    n = len(text)
    out: list[tuple[int, int]] = []
    for m in _GAP.finditer(text):
        j = m.end()
        if j >= n:
            break
        k = m.start()
        while k > 0 and text[k - 1] in SPACE_SET:
            k -= 1
        if k > 0:
            out.append((k, j))
    return out


def sentence_breaks(text: str, language: str | None = None) -> list[int]:
    """Offsets (code-point indices) just after each sentence that is followed
    by another sentence.

    A break lies after the terminator and the closing quotes/brackets that stay
    with it, before the following whitespace.  The end of the text is never a
    break, nor is 0.  ``language`` ('en', 'hi', 'mr', ...) is a hint; with
    ``None``, a ``|`` counts as a danda when a Devanagari character precedes it.
    """
    n = len(text)
    hint = _devanagari_hint(language)
    out: list[int] = []
    append = out.append
    first = _NON_SPACE.search(text)
    opening = first.start() if first else n  # where the current sentence starts
    for m in _CANDIDATE.finditer(text):
        j = m.end()
        if j >= n:
            break
        s = m.start()
        run = m.group(1)
        c = m.end(2)
        if run == ".":
            if j == c or not _period_ends(text, s, c, j):
                continue
        elif _HAS_HARD.search(run):
            pass
        elif j == c or _lower_start(text, j):
            continue  # "a.b?c=1", "Wait... what", '"Why?" she asked'
        elif not run.strip("|") and not _pipe_is_danda(text, s, hint):
            continue
        if s != opening:
            append(c)
        elif out:
            out[-1] = c  # a stray terminator joins the previous sentence: "है। ।"
        # else: a terminator opening the text is no sentence end: "॥ श्री ॥"
        opening = j
    gaps = _gaps(text)
    if gaps:
        out = sorted(set(out).union(end for end, _ in gaps))
    return out


def paragraph_breaks(text: str) -> list[int]:
    """Offsets (code-point indices) where each paragraph after the first starts:
    the first non-whitespace character after a blank-line gap."""
    return [start for _, start in paragraph_gaps(text)]


def _spans(text: str, cuts: list[int]) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    prev = 0
    for cut in (*cuts, len(text)):
        rest = text[prev:cut].lstrip(SPACE_CHARS)  # str's own strip takes U+001C-U+001F too
        if rest:
            start = cut - len(rest)
            spans.append((start, start + len(rest.rstrip(SPACE_CHARS))))
        prev = cut
    return spans


def sentence_spans(text: str, language: str | None = None) -> list[tuple[int, int]]:
    """(start, end) code-point offsets of each sentence, in order.

    Spans exclude surrounding whitespace, do not overlap, and together cover
    every non-whitespace character exactly once (a trailing sentence without a
    terminator is a span too).  Whitespace-only text gives ``[]``.
    """
    return _spans(text, sentence_breaks(text, language))


def paragraph_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) code-point offsets of each blank-line separated paragraph,
    with the same guarantees as :func:`sentence_spans`."""
    return _spans(text, paragraph_breaks(text))


if __name__ == "__main__":  # pragma: no cover - timing helper
    import sys
    import time
    from pathlib import Path

    path = Path(sys.argv[1]) if len(sys.argv) > 1 else (
        Path(__file__).resolve().parents[3].parent / "shared/data/prose/000.txt"
    )
    data = path.read_text(encoding="utf-8")
    for fn in (sentence_breaks, sentence_spans, paragraph_spans):
        best = float("inf")
        for _ in range(5):
            t0 = time.perf_counter()
            result = fn(data)
            best = min(best, time.perf_counter() - t0)
        size_mb = len(data.encode("utf-8")) / 1e6
        print(f"{fn.__name__}: {len(result)} items, {size_mb / best:.1f} MB/s")
