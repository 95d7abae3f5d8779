"""Filters read from a question, without a language model (issue 54, point 3): the question is
matched against the field values an index holds, and each field it names becomes a ``Filter``.

Words: the question and every value are read as tokens, runs of letters, marks and digits
(Unicode categories L*, M*, N*, so a Devanagari word is not cut at its vowel signs), after NFC,
case folded, any script's digits as ASCII (``२०२६`` is ``2026``); zero-width joiners and soft
hyphens join; a letter run and a digit run are two tokens (``FY2023`` is ``fy 2023``,
``२०२६च्या`` is ``2026 च्या``); a possessive ``'s``/``’s`` is dropped (``Apple's`` names Apple).
A value, or one of its aliases, matches where its tokens occur in the question in a row. Whole
words only: ``Apple`` is not in ``Pineapple``, and an inflected form (Marathi ``कापसाच्या``)
is not ``कापूस`` unless given as an alias.

Never read from a question: a spelling (value or alias) under 2 characters; a function word of
``STOP_WORDS`` (``all``, ``hi``, ``है``, ``आणि``...), alias or not, as a catalog's alias column
that lists a language's code beside its name would otherwise make every "hi" a filter; a
spelling of digits only, unless it is one year (1900 to 2100: page numbers and counts would
misfire); a value of ``any_values``, or its aliases; in the field ``language``, a value of up to
3 characters (an ISO code: ``hi``, ``mar``), named instead by its aliases or ``LANGUAGE_NAMES``
("Hindi", "हिंदी"). The language a question is written in sets no filter: a Hindi question may
be answered by an English document.

Periods: a text value written as a quarter (``2023 Q3``, ``Q3 2023``, ``2023-Q3``, ``FY2023 Q3``,
``Q3 FY23``) matches a question naming that (year, quarter): ``Q3 2023``, ``2023 Q3``, ``Q3'23``,
``Q3 FY23``, ``third quarter of 2023``, ``3rd quarter 2023``, ``the third quarter of fiscal
2023``, ``fiscal 2023 third quarter``, ``2023 की तीसरी तिमाही``, ``तिसरी तिमाही 2023``: a
quarter is paired with the nearest year at most ``NEAR`` tokens before or after it (a tie: the
one after). A fiscal year and a calendar year are not told apart. An ISO date value
(``2023-07-01``) matches ``July 1, 2023``, ``1 July 2023``, ``1st of July 2023``, ``1 जुलाई
2023``, ``2023-07-01`` or ``2023/07/01``. A year alone ("in 2023") or a quarter alone ("Q3")
names no period; a year names a year value of any field (``year`` 2023), also inside a period.

Where values of one field overlap in the question ("Crop insurance" and "insurance"), the
longest wins. One filter per field named, fields in the order given: ``eq`` for one value,
``in`` for several (in the order the question names them, at most ``MAX_IN``); a field whose
values include ones of ``any_values`` (crop ``all``) lists those too, as they hold for every one.
"""
from __future__ import annotations

import datetime
import functools
import re
import unicodedata
from dataclasses import dataclass
from typing import Any, Iterator, Mapping, NamedTuple, Sequence

from ..text.calendar import MONTHS, QUARTER_ORDINALS
from .filters import MAX_IN, Filter

#: values meaning "every one" (crop ``all``): never read from a question, kept by a filter on their field
ANY_VALUES = frozenset({"all", "any", "*", "सर्व", "सभी", "सब"})
#: function words that are never read from a question as a value (English, Hindi, Marathi)
STOP_WORDS = frozenset("""a an the and or of in on at to for by with from is are was be it as all any none
each every other both some no not yes hi en mr me my we us our you he she what which who how when where why
this that do does can may will है हैं और या का की के में से को पर ने भी तो हो था थी थे यह वह सभी सब कोई क्या
कौन लिए आणि किंवा व आहे आहेत सर्व काय कोणते कोणती हे ही ते ती चा ची चे च्या ला ना मध्ये साठी पण नाही""".split())
#: the field of ISO language codes, and the names a question calls them by
LANGUAGE_FIELD = "language"
LANGUAGE_NAMES = {"en": ("english", "अंग्रेजी", "अंग्रेज़ी", "इंग्रजी"), "hi": ("hindi", "हिंदी", "हिन्दी"),
                  "mr": ("marathi", "मराठी")}
#: the most tokens between a quarter and the year it is paired with
NEAR = 3

_JOINERS = frozenset("\u00ad\u200b\u200c\u200d\u2060\ufeff")
_APOSTROPHES = frozenset("'’‘")
_SUFFIXES = frozenset({"st", "nd", "rd", "th"})
_QUARTER_VALUE = (re.compile(r"(?:fy\s*)?(?P<y>\d{4})\s*[-/_ ]?\s*q(?P<q>[1-4])"),
                  re.compile(r"q(?P<q>[1-4])\s*[-/_ ]?\s*(?:fy\s*)?'?(?P<y>\d{4}|\d{2})"))
_DATE_VALUE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


@dataclass(frozen=True)
class FieldValues:
    """What a question is matched against: per field, in the order fields are filtered, the
    values the index holds (text or int) each with its aliases (``{"company": {"Apple":
    ("AAPL",)}}``), and ``any_values``, the text values meaning "every one" (compared case folded)."""
    values: Mapping[str, Mapping[Any, Sequence[str]]]
    any_values: frozenset[str] = ANY_VALUES


@dataclass(frozen=True)
class Asked:
    """A filter read from a question, and ``why``: what in the question named each value, e.g.
    ``'AAPL' is an alias of company 'Apple'``, ``'third quarter of 2023' names period '2023 Q3'``;
    ``words``: where those words are, (start, end) in characters of the question in NFC."""
    filter: Filter
    why: str
    words: tuple[tuple[int, int], ...] = ()


class _Tok(NamedTuple):
    norm: str   # as matched: case folded, digits ASCII
    start: int  # characters in the question, NFC
    end: int


class _Hit(NamedTuple):
    start: int  # tokens
    end: int
    value: Any
    why: str
    words: tuple[int, int]  # characters: the words that name the value


def read_filters(question: str, fields: FieldValues) -> list[Asked]:
    """The filters ``question`` names, one per field, fields in the order of ``fields.values``;
    [] where it names none. Never raises on any text."""
    text, toks = _tokens(question)
    words = [t.norm for t in toks]
    at: dict[str, list[int]] = {}
    for i, w in enumerate(words):
        at.setdefault(w, []).append(i)
    periods = _periods(text, toks)
    anys = {_fold(a) for a in fields.any_values}
    out = []
    for field, values in fields.values.items():
        kept = [v for v in values if isinstance(v, str) and _fold(v) in anys]
        hits: list[_Hit] = []
        for value, aliases in values.items():
            key = _period_key(value)
            if value in kept or isinstance(value, (bool, float)):
                continue
            if key is not None:
                hits += [_Hit(s, e, value, f"'{text[a:b]}' names {field} {_show(value)}", (a, b))
                         for s, e, k, (a, b) in periods if k == key]
                continue
            for spelling, how in _spellings(field, value, aliases):
                want = _words(spelling)
                if _matchable(want):
                    hits += [_Hit(i, i + len(want), value, f"'{text[toks[i].start:toks[i + len(want) - 1].end]}' "
                                  f"{how} {field} {_show(value)}", (toks[i].start, toks[i + len(want) - 1].end))
                             for i in at.get(want[0], ()) if tuple(words[i:i + len(want)]) == want]
        taken = _longest(hits)
        named = _first_of_each(taken)[:max(0, MAX_IN - len(kept))]
        if not named:
            continue
        chosen = [h.value for h in named] + kept
        why = "; ".join(h.why for h in named)
        if kept:
            why += f"; {field} {', '.join(map(_show, kept))} kept: it holds for every one"
        out.append(Asked(Filter(field, "eq", chosen[0]) if len(chosen) == 1 else Filter(field, "in", chosen), why,
                         tuple(h.words for h in taken if h.value in chosen)))
    return out


#: words asking for the newest document ("the latest 10-Q", "the most recent quarter"), in
#: English, Hindi and Marathi
LATEST = ("latest", "most recent", "newest", "नवीनतम", "सबसे नया", "सबसे नई", "सबसे नए", "ताज्या", "ताजा", "ताजी")


def asks_latest(question: str) -> tuple[int, int] | None:
    """Where ``question`` (in NFC) asks for the newest document (``LATEST``, whole words): the
    words' (start, end) in characters; None where it asks for none."""
    _, toks = _tokens(question)
    words = [t.norm for t in toks]
    for spelling in LATEST:
        want = _words(spelling)
        for i in range(len(words) - len(want) + 1):
            if tuple(words[i:i + len(want)]) == want:
                return toks[i].start, toks[i + len(want) - 1].end
    return None


def without(question: str, words: Sequence[tuple[int, int]]) -> str:
    """``question`` (in NFC) without the characters of ``words`` (a possessive ``'s`` after
    them goes too), spaces joined: what is left to search for once they are filters. The question
    itself where nothing would be left of it but punctuation."""
    if not words:
        return question
    text = unicodedata.normalize("NFC", question)
    keep = [True] * len(text)
    for a, b in words:
        if text[b:b + 1] in _APOSTROPHES and text[b + 1:b + 2] in ("s", "S") and not text[b + 2:b + 3].isalnum():
            b += 2
        keep[a:b] = [False] * (b - a)
    left = " ".join("".join(c for c, k in zip(text, keep) if k).split())
    left = re.sub(r"\s+([?.,;:!])", r"\1", left)
    return left if any(c.isalnum() for c in left) else text


def newest(values: Sequence[Any]) -> Any:
    """The newest of a field's ``values`` where every one is a period or a date (``2023 Q3``,
    ``2023-07-01``); None where one is not (a year alone is not: "the latest" manual of a crop
    is not the newest year's scheme notice)."""
    keys = [(_period_key(v), v) for v in values]
    if not keys or any(k is None for k, _ in keys):
        return None
    return max(keys)[1]


def _spellings(field: str, value: Any, aliases: Sequence[str]) -> Iterator[tuple[str, str]]:
    """A value's spellings, each with how it names the value in ``why``."""
    if field == LANGUAGE_FIELD:
        yield from ((n, "is the name of") for n in LANGUAGE_NAMES.get(_fold(str(value)), ()))
    if field != LANGUAGE_FIELD or len(_fold(str(value))) > 3:  # a language's code is not read
        yield str(value), "in the question names"
    yield from ((a, "is an alias of") for a in aliases if isinstance(a, str))


def _matchable(want: tuple[str, ...]) -> bool:
    """Whether a spelling, as tokens, may be read from a question (see the module's notes)."""
    joined = " ".join(want)
    if len(joined) < 2 or joined in STOP_WORDS:
        return False
    return not all(map(_num, want)) or (len(want) == 1 and _year(want[0]) is not None)


def _longest(hits: list[_Hit]) -> list[_Hit]:
    """The longest hits that do not overlap, in the order of the question (a value named twice:
    both)."""
    taken: list[_Hit] = []
    for h in sorted(hits, key=lambda h: (h.start - h.end, h.start)):
        if all(h.end <= t.start or t.end <= h.start for t in taken):
            taken.append(h)
    return sorted(taken, key=lambda h: h.start)


def _first_of_each(hits: list[_Hit]) -> list[_Hit]:
    """The first of ``hits`` naming each value."""
    seen: list[Any] = []
    return [h for h in hits if h.value not in seen and not seen.append(h.value)]


def _tokens(text: str) -> tuple[str, list[_Tok]]:
    """``text`` in NFC and its tokens: runs of letters (with their marks) or of digits."""
    text = unicodedata.normalize("NFC", text)
    toks: list[_Tok] = []
    kind, start, chars = "", 0, []  # the open token: "w" letters, "d" digits, "" none
    for i, c in enumerate(text + " "):
        cat = unicodedata.category(c)[0] if c not in _JOINERS else "J"
        if kind and (cat in "MJ" or (cat == "L") == (kind == "w") and cat in "LN"):
            chars.append("" if cat == "J" else str(unicodedata.decimal(c, c)) if cat == "N" else c)
            continue
        if kind:
            toks.append(_Tok(unicodedata.normalize("NFC", "".join(chars).casefold()), start, i))
        kind, start = ("w" if cat in "LM" else "d" if cat == "N" else ""), i
        chars = [str(unicodedata.decimal(c, c)) if cat == "N" else c]
    # a possessive 's after a word is dropped
    return text, [t for n, t in enumerate(toks)
                  if not (t.norm == "s" and n and text[toks[n - 1].end:t.start] in _APOSTROPHES)]


@functools.lru_cache(maxsize=1 << 16)
def _words(spelling: str) -> tuple[str, ...]:
    """A value's or alias's tokens, as matched (kept: an index's values are read for every question)."""
    return tuple(t.norm for t in _tokens(spelling)[1])


def _fold(s: str) -> str:
    """``s`` as values are compared: NFC, digits ASCII, case folded, trimmed."""
    s = unicodedata.normalize("NFC", s)
    return "".join(str(unicodedata.decimal(c, c)) for c in s).casefold().strip()


def _show(value: Any) -> str:
    return f"'{value}'" if isinstance(value, str) else str(value)


def _num(word: str) -> bool:
    return word.isascii() and word.isdigit()


def _year(word: str) -> int | None:
    return int(word) if len(word) == 4 and _num(word) and 1900 <= int(word) <= 2100 else None


def _period_key(value: Any) -> tuple[int, ...] | None:
    """A text value's period: ``(year, quarter)`` or ``(year, month, day)``; None for any other."""
    if not isinstance(value, str):
        return None
    v = _fold(value)
    for pattern in _QUARTER_VALUE:
        m = pattern.fullmatch(v)
        if m:
            y = int(m["y"]) + (2000 if len(m["y"]) == 2 else 0)
            return (y, int(m["q"])) if 1900 <= y <= 2100 else None
    m = _DATE_VALUE.fullmatch(v)
    return _date(*map(int, m.groups())) if m else None


def _date(y: int, m: int, d: int) -> tuple[int, int, int] | None:
    try:
        datetime.date(y, m, d)
    except ValueError:
        return None
    return y, m, d


def _periods(text: str, toks: list[_Tok]) -> list[tuple[int, int, tuple[int, ...], tuple[int, int]]]:
    """The question's quarters and dates: (first token, after the last, key as ``_period_key``,
    the words that name it as (start, end) in characters). A quarter's tokens are its own,
    without its year's, which "Q2 and Q3 2023" shares: the words run from one to the other."""
    w = [t.norm for t in toks] + ["", "", "", ""]  # read past the end as nothing
    gap = [text[toks[i - 1].end:toks[i].start] if i else " " for i in range(len(toks))] + [" "] * 4
    years = {i: y for i in range(len(toks)) if (y := _year(w[i])) is not None}
    years.update({i: 2000 + int(w[i]) for i in range(1, len(toks)) if len(w[i]) == 2 and _num(w[i])
                  and (w[i - 1] == "fy" or gap[i].strip() in _APOSTROPHES)})  # FY23, Q3'23
    found = []
    for i in range(len(toks)):
        q, e = 0, i
        if w[i] == "q" and w[i + 1] in ("1", "2", "3", "4") and gap[i + 1] == "":
            q, e = int(w[i + 1]), i + 2
        else:
            j = i + 1 if w[i] in QUARTER_ORDINALS else i + 2 if w[i] in ("1", "2", "3", "4") and w[i + 1] in _SUFFIXES else 0
            j += j and w[j] in ("fiscal", "financial")
            if j and (w[j] in ("quarter", "qtr") or w[j].startswith("तिमाही")):
                q, e = QUARTER_ORDINALS.get(w[i]) or int(w[i]), j + 1
        near = [(j - e if j >= e else i - 1 - j, j < i, j) for j in years if j >= e or j < i]
        if q and near and min(near)[0] <= NEAR:
            j = min(near)[2]
            s = j - (w[j - 1] in ("fy", "fiscal", "financial")) if j < i else i  # FY23 Q3, fiscal 2023 Q3
            found.append((i, e, (years[j], q), (toks[s].start, toks[max(e - 1, j)].end)))
        found += [(s, e, key, (toks[s].start, toks[e - 1].end)) for s, e, key in _dates(w, gap, i)]
    return found


def _dates(w: list[str], gap: list[str], i: int) -> list[tuple[int, int, tuple[int, ...]]]:
    """A date that starts at token ``i``: ``July 1(st), 2023``, ``1(st) (of) July 2023``, ``2023-07-01``."""
    if w[i] in MONTHS and _num(w[i + 1]):
        j = i + 2 + (w[i + 2] in _SUFFIXES)
        month, day, year = MONTHS[w[i]], w[i + 1], w[j]
    elif _num(w[i]) and len(w[i]) <= 2:
        j = i + 1 + (w[i + 1] in _SUFFIXES)
        j += w[j] == "of"
        if w[j] not in MONTHS:
            return []
        month, day, year, j = MONTHS[w[j]], w[i], w[j + 1], j + 1
    elif _year(w[i]) and len(w[i + 1]) == len(w[i + 2]) == 2 and gap[i + 1] == gap[i + 2] in ("-", "/") \
            and _num(w[i + 1]) and _num(w[i + 2]):
        month, day, year, j = int(w[i + 1]), w[i + 2], w[i], i + 2
    else:
        return []
    y = _year(year)
    key = _date(y, month, int(day)) if y and _num(day) and len(day) <= 2 else None
    return [(i, j + 1, key)] if key else []
