"""Document fields found in a document's own text, without a catalog (issue 54 point 2).

``find_fields(doc)`` gives each field a rule found, as a ``Found`` (the value, and the short
name of the rule that found it); ``with_found_fields(doc)`` puts them on the document's metadata,
their names and rules listed under ``metadata["found_fields"]`` (``FOUND_FIELDS``). A catalog's
field of the same name wins: its value stays and the found one is not listed. What is looked
at is the document's first two pages (at most ``TOP_CHARS`` characters, ``top``): a cover page
says what a document is, its body quotes other dates.

The fields, each rule documented where it is defined:

- ``title`` (text): the first title element's text, else the reader's ``title``, else the
  registrant's name on an SEC filing's cover (``_REGISTRANT``); not the file name, and not a
  line that is no title (a banner, an address, a date, page furniture): ``is_title``.
- ``date`` (ISO text, ``2023-07-01``): the end of the period a filing or statement covers
  (``_period_end``), else a document date on a labelled line (``_dated``).
- ``period`` (text, ``2023 Q3``): the quarter of a quarterly document (``_period``).
- ``year`` (int, 1900-2100): the date's year, else the period's, else a year in the title.
- ``language``: the document's own (``doc.language``, the detector's); found, but not put on
  the metadata: the index's ``language`` column holds it, and a metadata key would repeat it on
  every chunk, where it could disagree with the chunk's own language.
- ``folder`` (text): the name of the folder the file sits in.

Dates are read in these forms, English or Hindi/Marathi month names and any script's digits
(``१२ मार्च २०२४``): ``July 1, 2023``, ``Jul. 1 2023``, ``1 July 2023``, ``1st July, 2023``,
``2023-07-01`` (year first: always year, month, day), and day/month/year in figures
(``01/07/2023``, ``12.03.2024``) only where the order is certain: one of the first two numbers
is over 12, or both are the same; in a Hindi or Marathi document (India writes the day first)
also where both are 12 or under. A year outside 1900-2100 or a day that does not exist
(``February 30``) is no date. Nothing here raises on any text: a rule that finds nothing
finds nothing.
"""
from __future__ import annotations

import dataclasses
import datetime as dt
import os
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Mapping

from ..model import Document
from ..outline import heading_text
from ..text.calendar import MONTHS, QUARTER_ORDINALS

#: where a document's metadata lists the fields found in its text: ``{name: rule}``
FOUND_FIELDS = "found_fields"
#: where a document's metadata lists the fields its catalog gave it
CATALOG_FIELDS = "catalog_fields"
#: where a catalog's alternatives of a field's value go: ``{field: [alias, ...]}``
ALIASES = "aliases"
#: the fields found, in the order they are found and shown
NAMES = ("title", "date", "period", "year", "language", "folder")
#: the found fields put on the document's metadata (``language`` is ``doc.language``)
ON_METADATA = ("title", "date", "period", "year", "folder")
#: the most characters of the first two pages looked at for a date or a quarter
TOP_CHARS = 6000
#: the years a field may hold
YEARS = range(1900, 2101)


@dataclass(frozen=True)
class Found:
    """A field's value found in a document, and the rule that found it (a short name such as
    ``cover: quarterly period ended``)."""
    value: str | int
    rule: str


# -- the text looked at ---------------------------------------------------------------------------

_DEV = "\u0900-\u097f"
_L = rf"(?<![\w{_DEV}])"  # a word's start (Devanagari vowel signs are no ``\w``)
_R = rf"(?![\w{_DEV}])"


def top(doc: Document) -> str:
    """The first two pages of ``doc`` (the whole text where it has fewer), at most
    ``TOP_CHARS`` characters, in the form the rules read: NFC, without the nukta (``फ़`` as
    ``फ``), so that either spelling of a month matches."""
    end = doc.page_starts[2] if len(doc.page_starts) > 2 else len(doc.text)
    return _normal(doc.text[:min(end, TOP_CHARS)])


def _normal(text: str) -> str:
    return unicodedata.normalize("NFC", text).replace("\u093c", "")


# -- dates -------------------------------------------------------------------------------------

_MONTH = "(?:" + "|".join(sorted(map(re.escape, MONTHS), key=len, reverse=True)) + rf")\.?{_R}"
_DAY = r"(?<!\d)\d{1,2}(?:st|nd|rd|th)?(?!\d)"
_YEAR = r"(?<!\d)\d{4}(?!\d)"
_NUM = r"(?<!\d)\d{1,2}(?!\d)"
#: the forms of a date, each with named parts
_FORMS = (
    re.compile(rf"{_L}(?P<month>{_MONTH})\s+(?P<day>{_DAY}),?\s+(?P<year>{_YEAR})", re.I),
    re.compile(rf"(?P<day>{_DAY})[\s-]+(?:of\s+)?(?P<month>{_MONTH})[\s,-]+(?P<year>{_YEAR})", re.I),
    re.compile(rf"(?P<year>{_YEAR})(?P<sep>[-/.])(?P<month>{_NUM})(?P=sep)(?P<day>{_NUM})"),
    re.compile(rf"(?P<a>{_NUM})(?P<sep>[-/.])(?P<b>{_NUM})(?P=sep)(?P<year>{_YEAR})"),
)
#: a date in any of the forms (to find one before a Hindi or Marathi phrase)
_ANY_DATE = "(?:" + "|".join(re.sub(r"\(\?P<(\w+)>", "(?:", f.pattern).replace("(?P=sep)", "[-/.]")
                             for f in _FORMS) + ")"


def _digits(s: str) -> int:
    """The number written in ``s`` (any script's digits), its ordinal ending left out."""
    return int(re.sub(r"\D", "", s))


def date_at(text: str, pos: int = 0, *, day_first: bool = False) -> dt.date | None:
    """The date written at ``text[pos:]`` in one of the forms the module's docstring lists
    (``day_first``: figures in an order that could be either are day, month, year), or None."""
    for form in _FORMS:
        m = form.match(text, pos)
        if m is None:
            continue
        got = _date_of(m.groupdict(), day_first)
        if got is not None:
            return got
    return None


def _date_of(parts: Mapping[str, str | None], day_first: bool) -> dt.date | None:
    try:
        year = _digits(parts["year"] or "")
        if parts.get("month") is not None:
            month_text = (parts["month"] or "").rstrip(".").casefold()
            month = MONTHS[month_text] if month_text in MONTHS else _digits(month_text)
            day = _digits(parts["day"] or "")
        else:
            a, b = _digits(parts["a"] or ""), _digits(parts["b"] or "")
            if a > 12 or a == b or (day_first and b <= 12):
                day, month = a, b
            elif b > 12:
                day, month = b, a
            else:
                return None  # 01/07/2023: 1 July or January 7
        if year not in YEARS:
            return None
        return dt.date(year, month, day)
    except (ValueError, KeyError, TypeError):
        return None


# -- the date a document covers or bears -------------------------------------------------------

QUARTER, ANNUAL, ANY = "quarter", "year", "period"
#: what introduces the end of the period a document covers (English), with the period's kind;
#: the first that a date follows wins
_ENDS = (
    ("quarterly period ended", r"quarterly\s+period\s+end(?:ed|ing)", QUARTER),
    ("three months ended", r"three\s+months\s+end(?:ed|ing)", QUARTER),
    ("fiscal year ended", r"(?:fiscal|financial)\s+year\s+end(?:ed|ing)", ANNUAL),
    ("quarter ended", r"quarter\s+end(?:ed|ing)", QUARTER),
    ("year ended", r"year\s+end(?:ed|ing)", ANNUAL),
    ("period ended", r"period\s+end(?:ed|ing)", ANY),
)
_END_RE = re.compile("(?:" + "|".join(f"(?P<e{i}>{p})" for i, (_, p, _) in enumerate(_ENDS))
                     + r")[\s:,–-]*", re.I)
#: Hindi and Marathi write the date first: "31 मार्च 2024 को समाप्त तिमाही",
#: "31 मार्च 2024 रोजी संपलेल्या तिमाही..."
_END_AFTER = re.compile(
    rf"({_ANY_DATE})\s*(?:को|रोजी)\s+(समाप्त(?:\s+होने\s+वाली|\s+हुई)?|संपलेल्या|संपणाऱ्या|संपलेली|संपलेले)"
    rf"\s+(तिमाही|वर्ष|अवधि|कालावधी|कालावधि)", re.I)
_END_AFTER_KIND = {"तिमाही": QUARTER, "वर्ष": ANNUAL}
#: words that make a labelled date a deadline or another day, not the document's date
_NOT_ITS_DATE = {"last", "closing", "due", "expiry", "end", "start", "opening", "effective", "birth",
                 "अंतिम", "अन्तिम", "आखिरी", "अखेरची", "शेवटची", "शेवटचा"}
#: a document date's label: capitalised in English (a label, not "dated" in a sentence that
#: cites another paper), or दिनांक / दि. / तारीख
_LABEL = re.compile(rf"{_L}(Dated|DATED|Date|DATE|दिनांक|दि\.|तारीख)(?:\s*[:ः：\-–.])?\s*")


def _day_first(doc: Document) -> bool:
    return (doc.language or "") in ("hi", "mr")


def _period_end(text: str, day_first: bool) -> tuple[dt.date, str, str] | None:
    """The end of the period the document covers (the date after "for the quarterly period
    ended", "fiscal year ended", "period ended" ... or before "को समाप्त तिमाही"), its rule
    and its kind (``QUARTER``, ``ANNUAL``, ``ANY``); the first in the text wins."""
    found: list[tuple[int, dt.date, str, str]] = []
    for m in _END_RE.finditer(text):
        got = date_at(text, m.end(), day_first=day_first)
        if got is not None:
            i = next(int(k[1:]) for k, v in m.groupdict().items() if v is not None)
            name, _, kind = _ENDS[i]
            found.append((m.start(), got, f"cover: {name}", kind))
            break
    for m in _END_AFTER.finditer(text):
        got = date_at(m.group(1), 0, day_first=True)
        if got is not None:
            words = " ".join(text[m.end(1):m.end()].split())
            found.append((m.start(), got, f"cover: {words}", _END_AFTER_KIND.get(m.group(3), ANY)))
            break
    if not found:
        return None
    _, day, rule, kind = min(found, key=lambda f: f[0])
    return day, rule, kind


def _dated(text: str, day_first: bool) -> tuple[dt.date, str] | None:
    """The document's date on a labelled line ("Date: 12 March 2024", "Dated 1 July 2023",
    "दिनांक १२ मार्च २०२४", "दि. 12/03/2024"), where the word before the label does not make it
    another day ("Last Date: ..."); the first wins."""
    for m in _LABEL.finditer(text):
        words = text[max(0, m.start() - 24):m.start()].split("\n")[-1].split()
        if words and words[-1].strip(".,:;").casefold() in _NOT_ITS_DATE:
            continue
        got = date_at(text, m.end(), day_first=day_first)
        if got is not None:
            return got, f"first pages date: {m.group(1)}"
    return None


# -- quarters ------------------------------------------------------------------------------------

_ORD_RE = "(?P<ord>" + "|".join(sorted(map(re.escape, QUARTER_ORDINALS), key=len, reverse=True)) + ")"
_FY = r"(?:(?:fiscal|financial)\s+(?:year\s+)?|FY\s*'?)"
_Y4 = r"(?P<year>(?<!\d)\d{4}(?!\d))"
#: how a text states a quarter: "Q3 2023", "Q3 FY23", "2023 Q3", "third quarter of fiscal 2023",
#: "fiscal 2023 third quarter", "2023 की तीसरी तिमाही", "तिसऱ्या तिमाही 2023"
_QUARTERS = (
    re.compile(rf"{_L}Q(?P<q>[1-4])\s*(?:of\s+)?(?:{_FY}?{_Y4}|FY\s*'?(?P<yy>\d{{2}})(?!\d)){_R}", re.I),
    re.compile(rf"{_L}{_FY}?{_Y4}\s*Q(?P<q>[1-4]){_R}", re.I),
    re.compile(rf"{_L}{_ORD_RE}\s+quarter\s+(?:of\s+)?(?:the\s+)?{_FY}?{_Y4}", re.I),
    re.compile(rf"{_L}{_FY}?{_Y4}\s+{_ORD_RE}\s+quarter{_R}", re.I),
    re.compile(rf"{_Y4}\s*(?:की|के|का|च्या|ची|चे)?\s*{_ORD_RE}\s+तिमाही"),
    re.compile(rf"{_ORD_RE}\s+तिमाही\S*\s*,?\s*(?:वर्ष\s*)?{_Y4}"),
)


def stated_quarter(text: str) -> str | None:
    """The first quarter ``text`` states (``2023 Q3``; a fiscal year's quarter as written), or
    None."""
    best: tuple[int, str] | None = None
    for form in _QUARTERS:
        m = form.search(text)
        if m is None or (best is not None and m.start() >= best[0]):
            continue
        parts = m.groupdict()
        q = int(parts["q"]) if parts.get("q") else QUARTER_ORDINALS[parts["ord"].casefold()]
        year = _digits(parts["year"]) if parts.get("year") else 2000 + _digits(parts["yy"] or "")
        if year in YEARS:
            best = (m.start(), f"{year} Q{q}")
    return best[1] if best else None


def calendar_quarter(end: dt.date) -> str:
    """The calendar quarter most of the three months ending on ``end`` lie in: that of the day
    45 days before it (June 25, 2022: 2022 Q2; October 30, 2022: 2022 Q3). A company whose
    fiscal year is not the calendar's numbers its quarters otherwise (Apple's quarter ended
    June 25, 2022 is its fiscal 2022 Q3): this rule gives the calendar's."""
    mid = end - dt.timedelta(days=45)
    return f"{mid.year} Q{(mid.month - 1) // 3 + 1}"


def _running_quarter(doc: Document) -> str | None:
    """The quarter that the running headers or footers state, where two or more say the same
    ("Apple Inc. | Q3 2022 Form 10-Q | 5"): a document's label of itself on its pages."""
    furniture = doc.metadata.get("furniture")
    if not isinstance(furniture, (list, tuple)):
        return None
    said = Counter(q for item in furniture if isinstance(item, Mapping)
                   for q in [stated_quarter(_normal(str(item.get("text", ""))))] if q)
    if not said:
        return None
    q, n = said.most_common(1)[0]
    return q if n >= 2 else None


def _period(doc: Document, text: str, title: Found | None,
            end: tuple[dt.date, str, str] | None) -> Found | None:
    """The quarter of a quarterly document, by the first rule that finds one: stated in its title;
    stated near the top of a document whose cover says it covers a quarter ("quarterly period
    ended"); stated by its running headers; else the calendar quarter of the quarter's end
    (``calendar_quarter``). A document not known to cover a quarter has none."""
    if title is not None:
        q = stated_quarter(_normal(str(title.value)))
        if q:
            return Found(q, "quarter in the title")
    quarterly = end is not None and end[2] == QUARTER
    if quarterly:
        q = stated_quarter(text)
        if q:
            return Found(q, "quarter stated near the top")
    q = _running_quarter(doc)
    if q:
        return Found(q, "quarter in the running header")
    if quarterly and end is not None:
        return Found(calendar_quarter(end[0]), "calendar quarter of the period end")
    return None


# -- title ---------------------------------------------------------------------------------------

#: lines that stand at the top of a page and are no title
BANNERS = ("for immediate release", "immediate release", "press release", "news release",
           "media release", "confidential", "strictly confidential", "draft", "table of contents",
           "contents", "index", "front cover", "cover page", "mark one", "for internal use only",
           "internal use only", "not for distribution", "embargoed", "private and confidential",
           "urgent", "notice", "memorandum", "untitled", "abstract")
_ADDRESS_WORDS = re.compile(r"(?i)\b(street|st\.|road|rd\.|avenue|ave\.|suite|floor|building|"
                            r"p\.?\s?o\.?\s+box|boulevard|blvd\.?|lane|marg|nagar)\b")
_POSTCODE = re.compile(r"(?<!\d)\d{5}(?:-\d{4})?(?!\d)|(?<!\d)\d{3}\s?\d{3}(?!\d)")
_PAGE = re.compile(r"(?i)^(?:page|p\.|pg\.?)?\s*\d+\s*(?:(?:of|/)\s*\d+)?$")
_LINK = re.compile(r"(?i)https?://|www\.|\S+@\S+\.\w")
_LETTER = re.compile(r"[^\W\d_]")


def is_title(text: str) -> bool:
    """Whether a title element's text can be a document's title: two letters or more, at most
    30 words, and not a banner (``BANNERS``: "FOR IMMEDIATE RELEASE", "Table of Contents"), a
    page number ("Page 3 of 10"), a link or e-mail address, a postal address (a street word, or
    a postcode after a comma: "Washington, D.C. 20549"), or a date alone."""
    line = " ".join(text.split())
    if len(_LETTER.findall(line)) < 2 or len(line.split()) > 30:
        return False
    bare = re.sub(r"[^\w\s]", " ", line.casefold())
    bare = " ".join(bare.split())
    if bare in BANNERS or any(bare.startswith(b + " ") and len(bare.split()) <= len(b.split()) + 2
                              for b in BANNERS if len(b.split()) > 1):
        return False
    if _PAGE.match(line) or _LINK.search(line):
        return False
    if (_ADDRESS_WORDS.search(line) and re.search(r"\d", line)) or (
            "," in line and _POSTCODE.search(line)):
        return False
    label = _LABEL.match(line)
    rest = line[label.end():] if label else line
    day = date_at(_normal(rest), 0, day_first=True)
    if day is not None and len(_LETTER.findall(rest)) <= 12:  # a date alone, its month's letters
        return False
    return True


#: an SEC filing's cover names the company on the line above this one
_REGISTRANT = re.compile(r"([^\n]+?)\s*\n?\s*(?:#+\s*)?\(Exact name of registrant as specified in its charter\)",
                         re.IGNORECASE)


def _title(doc: Document) -> Found | None:
    """The first title element's text (``title element``), else the reader's ``title`` (a
    reader that sets one without an element), else the registrant's name on an SEC filing's
    cover (its first page), where ``is_title`` takes it; never the file name."""
    el = next((e for e in doc.elements if e.kind == "title"), None)
    if el is not None:
        text = heading_text(doc, el)
        return Found(text, "title element") if text and is_title(text) else None
    title = doc.metadata.get("title")
    if (isinstance(title, str) and title.strip() and is_title(title)
            and "title" not in (doc.metadata.get(CATALOG_FIELDS) or ())):
        return Found(" ".join(title.split()), "reader's title")
    first = doc.text[:doc.page_starts[1]] if len(doc.page_starts) > 1 else doc.text[:5000]
    m = _REGISTRANT.search(first)
    name = " ".join(m.group(1).split()) if m else ""
    return Found(name, "cover: name of registrant") if name and is_title(name) else None


# -- year, language, folder ----------------------------------------------------------------------

_TITLE_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")


def _year(date: Found | None, period: Found | None, title: Found | None) -> Found | None:
    """The date's year, else the period's, else the first year (1900-2100) in the title."""
    if date is not None:
        return Found(int(str(date.value)[:4]), "year of the date")
    if period is not None:
        return Found(int(str(period.value)[:4]), "year of the period")
    if title is not None:
        for m in _TITLE_YEAR.finditer(_normal(str(title.value))):
            if _digits(m.group(1)) in YEARS:
                return Found(_digits(m.group(1)), "year in the title")
    return None


def _language(doc: Document) -> Found | None:
    lang = doc.language
    if not lang or lang == "und" or "language" in (doc.metadata.get(CATALOG_FIELDS) or ()):
        return None
    return Found(lang, "language detector")


def _folder(doc: Document) -> Found | None:
    """The name of the folder ``doc.source`` names (``manuals/cotton.pdf``: ``manuals``), else,
    for a file there is, that of the folder it sits in."""
    source = doc.source
    if not source or "://" in source:
        return None
    name = Path(source).parent.name
    if not name and os.path.isfile(source):
        name = Path(os.path.abspath(source)).parent.name
    return Found(name, "folder") if name else None


# -- all of them ---------------------------------------------------------------------------------

def find_fields(doc: Document) -> dict[str, Found]:
    """The fields found in ``doc`` (of ``NAMES``; those no rule finds are left out), each with
    the rule that found it. Never raises: a rule that fails on odd text finds nothing."""
    out: dict[str, Found] = {}
    text = _safe(lambda: top(doc), "")
    day_first = _day_first(doc)
    title = _safe(lambda: _title(doc), None)
    end = _safe(lambda: _period_end(text, day_first), None)
    date: Found | None = None
    if end is not None:
        date = Found(end[0].isoformat(), end[1])
    else:
        dated = _safe(lambda: _dated(text, day_first), None)
        if dated is not None:
            date = Found(dated[0].isoformat(), dated[1])
    period = _safe(lambda: _period(doc, text, title, end), None)
    found = {"title": title, "date": date, "period": period,
             "year": _safe(lambda: _year(date, period, title), None),
             "language": _safe(lambda: _language(doc), None),
             "folder": _safe(lambda: _folder(doc), None)}
    for name in NAMES:
        if found[name] is not None:
            out[name] = found[name]  # type: ignore[assignment]
    return out


def _safe(rule: Callable[[], Any], default: Any) -> Any:
    try:
        return rule()
    except Exception:  # noqa: BLE001 - a rule's bug on odd text must not stop the reading
        return default


def without_found_fields(doc: Document) -> Document:
    """``doc`` with the fields found in it before taken off its metadata (a reader's ``title``
    kept), as read."""
    meta = dict(doc.metadata)
    for name, rule in (meta.pop(FOUND_FIELDS, None) or {}).items():
        if name != "title" or rule != "reader's title":
            meta.pop(name, None)
    return dataclasses.replace(doc, metadata=meta)


def with_found_fields(doc: Document) -> Document:
    """``doc`` with the fields found in it (``find_fields``) on its metadata, but those its catalog
    gives (``catalog_fields``) and ``language`` (``doc.language``), their rules listed under
    ``FOUND_FIELDS`` (``{name: rule}``). Fields found before by other rules (a document read
    again from the cache) are found again: the earlier ones are taken off first
    (``without_found_fields``). ``doc`` itself where nothing is found."""
    base = without_found_fields(doc)
    meta = dict(base.metadata)
    catalog = set(meta.get(CATALOG_FIELDS) or ())
    found = {k: f for k, f in find_fields(base).items() if k in ON_METADATA and k not in catalog}
    if not found:
        return base if FOUND_FIELDS in doc.metadata else doc
    meta.update({k: f.value for k, f in found.items()})
    meta[FOUND_FIELDS] = {k: f.rule for k, f in found.items()}
    return dataclasses.replace(doc, metadata=meta)


def field_sources(doc: Document) -> dict[str, tuple[Any, str]]:
    """Every field of ``doc`` with where it came from: the catalog's (``catalog``; with its
    aliases, ``catalog, aliases: AAPL``), then those found (the rule), then its language
    (``catalog``, else ``language detector``) where neither lists it."""
    meta = doc.metadata
    aliases = meta.get(ALIASES) if isinstance(meta.get(ALIASES), Mapping) else {}
    out: dict[str, tuple[Any, str]] = {}
    for name in meta.get(CATALOG_FIELDS) or ():
        if name in meta:
            more = aliases.get(name) or ()
            out[name] = (meta[name], "catalog" + (f", aliases: {', '.join(map(str, more))}" if more else ""))
    for name, rule in (meta.get(FOUND_FIELDS) or {}).items():
        if name in meta and name not in out:
            out[name] = (meta[name], str(rule))
    if "language" not in out and doc.language and doc.language != "und":
        out["language"] = (doc.language, "language detector")
    return out


__all__ = ["Found", "find_fields", "with_found_fields", "without_found_fields", "field_sources", "is_title", "date_at",
           "stated_quarter", "calendar_quarter", "top", "FOUND_FIELDS", "ALIASES", "NAMES",
           "ON_METADATA", "BANNERS", "TOP_CHARS"]
