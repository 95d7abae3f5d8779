"""Test sets: the frozen questions a chunking is judged by, read from YAML, JSONL or CSV.

One question each: ``id``, ``question``, ``must_contain`` (one string, or a list of alternatives
any of which counts; empty or missing for a question no document answers), optional ``source``
(the file that answers it) and ``page``, optional ``source_only`` (true: only a chunk of
``source`` holding the answer counts, where the answer text is also in other documents, another
crop's row of the same table say), optional reference spans ``spans``/``references``:
``[{source, start, end}]`` in characters of the document text (``start_index``/``end_index``, the
Chroma evaluation's names, are read too, and its ``content``, the span's text, is left). In CSV, a
list is written as JSON. ``query``, ``answer``, ``corpus_id`` and ``references`` are read as
``question``, ``must_contain``, ``source`` and ``spans``; both names of one key is an error.

Any other key is an error naming the file, the line, the key, the nearest known key and the
keys known (in CSV, any other column: line 1): a misspelt ``must_contains`` would otherwise make
an answerable question a no-answer one.

Answer text is matched after ``normalise``: Unicode NFC, case folded, Devanagari digits as ASCII,
zero-width characters and soft hyphens removed, a table's cell bars (``|``) and every run of
whitespace one space: an answer copied from a table row, cell by cell, matches the row.
"""
from __future__ import annotations

import csv
import json
import re
import unicodedata
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Sequence

from ..errors import ConfigError
from ..index.filters import MAX_IN, OPS, Filter
from ..keys import unknown_key
from .spans import Span

_DIGITS = str.maketrans("०१२३४५६७८९", "0123456789")
_INVISIBLE = dict.fromkeys(map(ord, "\u00ad\u200b\u200c\u200d\u2060\ufeff"))
_WS = re.compile(r"\s+")
#: read as whitespace when answers are matched: the bar seamcut writes between a table's cells
#: (" | ") and Markdown tables write around them, so an answer copied from a row, cell by cell,
#: matches the row as seamcut reads it
AS_SPACE = "|"
_AS_SPACE = dict.fromkeys(map(ord, AS_SPACE), " ")


class QuestionsError(ConfigError):
    """A test set that cannot be used; the message names the file and the line."""


def normalise(text: str) -> str:
    """Text as answers are matched: NFC, case folded, Devanagari digits as ASCII, invisible
    characters (soft hyphen, zero-width space/joiners, BOM) removed, table cell bars
    (``AS_SPACE``) and whitespace runs one space."""
    t = unicodedata.normalize("NFC", text).translate(_INVISIBLE).translate(_DIGITS).translate(_AS_SPACE)
    t = t.casefold()
    return _WS.sub(" ", t).strip()


@dataclass(frozen=True)
class Question:
    """One test question. ``must_contain``: answer alternatives as written (matched after
    ``normalise``); empty when no document answers it. ``line``: where it starts in its file
    (0 where the format has no lines). ``source_only``: a result answers it only where it is a
    chunk of ``source`` (the guide's hit@k counts answer text in any document)."""
    id: str
    question: str
    must_contain: tuple[str, ...] = ()
    source: str | None = None
    page: int | None = None
    spans: tuple[Span, ...] = ()
    line: int = 0
    source_only: bool = False
    where: str | None = None
    filters: tuple[Filter, ...] = ()

    @property
    def filtered(self) -> bool:
        """Whether the test set gives the filter its search applies (``where``)."""
        return bool(self.where or self.filters)

    @property
    def answerable(self) -> bool:
        return bool(self.must_contain) or bool(self.spans)

    def answered_by(self, text: str) -> bool:
        """Whether ``text`` holds one of the answers (after ``normalise`` on both)."""
        t = normalise(text)
        return any(normalise(a) in t for a in self.must_contain)

    def answered_in(self, source: str, text: str) -> bool:
        """Whether a chunk of the document ``source`` reading ``text`` answers it: ``text`` holds
        an answer (``answered_by``) and, for a question ``source_only``, ``source`` is its own."""
        if self.source_only and self.source and not source_matches(self.source, source):
            return False
        return self.answered_by(text)


def load_questions(path: str | Path) -> list[Question]:
    """Read a test set (``.yaml``/``.yml``, ``.jsonl``/``.json`` or ``.csv``).

    Raises ``QuestionsError`` naming the file and line of the first malformed entry (an unknown
    key, missing ``question``, a repeated ``id``, a span that is not ``start < end``, ...).
    """
    p = Path(path)
    if not p.is_file():
        raise QuestionsError(f"{p}: no such file")
    suffix = p.suffix.lower()
    try:
        text = p.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise QuestionsError(f"{p}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    if suffix in (".yaml", ".yml"):
        items = _yaml_items(p, text)
    elif suffix in (".jsonl", ".ndjson"):
        items = _jsonl_items(p, text)
    elif suffix == ".json":
        items = _json_items(p, text)
    elif suffix == ".csv":
        items = _csv_items(p, text)
    else:
        raise QuestionsError(f"{p}: unknown test-set format {suffix or '(no suffix)'}; "
                             "use .yaml, .jsonl, .json or .csv")
    out: list[Question] = []
    seen: dict[str, int] = {}
    for n, item in enumerate(items, 1):
        q = _question(p, n, item)
        if q.id in seen:
            raise QuestionsError(f"{p}:{q.line}: id {q.id!r} repeats the question at line {seen[q.id]}")
        seen[q.id] = q.line
        out.append(q)
    if not out:
        raise QuestionsError(f"{p}: no questions in the file")
    return out


def source_matches(named: str, source: str) -> bool:
    """Whether a test set's file name ``named`` means the document ``source``."""
    named = named.replace("\\", "/").lstrip("./")
    source = source.replace("\\", "/")
    return source == named or source.endswith("/" + named) or Path(source).name == named


# -- formats ---------------------------------------------------------------------------------

#: the keys a question may have, and the other names read for some of them (the Chroma
#: evaluation's ``query``, ``corpus_id``, ``references``; ``answer``)
KEYS = ("id", "question", "must_contain", "source", "page", "source_only", "spans", "where")
ALIASES = {"query": "question", "answer": "must_contain", "corpus_id": "source", "references": "spans"}
#: a span's keys and other names; ``content`` (Chroma's copy of the span's text) is read and left
SPAN_KEYS = ("source", "start", "end", "content")
SPAN_ALIASES = {"start_index": "start", "end_index": "end"}


@dataclass(frozen=True)
class _Item:
    """One entry of a test set as read: the line it starts on (0: the format has no lines), the
    entry, and the line of each of its keys where the format says (YAML)."""
    line: int
    value: Any
    key_lines: dict[str, int] = field(default_factory=dict)


def _yaml_items(p: Path, text: str) -> list[_Item]:
    import yaml

    from ..keys import load_yaml

    try:
        data, lines = load_yaml(text)
    except yaml.YAMLError as exc:
        # where the broken construct opened (an unclosed bracket), else where parsing stopped
        mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark else ""
        raise QuestionsError(f"{p}{where}: not valid YAML ({getattr(exc, 'problem', exc)})") from None
    if data is None:
        return []
    top: tuple[Any, ...] = ()
    if isinstance(data, dict) and "questions" in data:
        _only_questions(p, data, lines)
        data, top = data["questions"], ("questions",)
    if not isinstance(data, list):
        raise QuestionsError(f"{p}: expected a list of questions (or a 'questions:' list)")
    return [_Item(lines.get((*top, i), 0), item,
                  {str(k): lines.get((*top, i, str(k)), 0) for k in item} if isinstance(item, dict) else {})
            for i, item in enumerate(data)]


def _only_questions(p: Path, data: dict, lines: dict[tuple[Any, ...], int]) -> None:
    """Refuse a key beside ``questions`` in a test set written as a mapping."""
    for key in data:
        if key != "questions":
            at = lines.get((str(key),), 0)
            raise QuestionsError(f"{p}{f':{at}' if at else ''}: {unknown_key(key, ['questions'])}")


def _jsonl_items(p: Path, text: str) -> list[_Item]:
    items = []
    for i, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                items.append(_Item(i, json.loads(line)))
            except json.JSONDecodeError as exc:
                raise QuestionsError(f"{p}:{i}: not valid JSON ({exc.msg})") from None
    return items


def _json_items(p: Path, text: str) -> list[_Item]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise QuestionsError(f"{p}:{exc.lineno}: not valid JSON ({exc.msg})") from None
    if isinstance(data, dict) and "questions" in data:
        _only_questions(p, data, {})
        data = data["questions"]
    if not isinstance(data, list):
        raise QuestionsError(f"{p}: expected a JSON list of questions")
    return [_Item(0, item) for item in data]


def _csv_items(p: Path, text: str) -> list[_Item]:
    reader = csv.DictReader(text.splitlines())
    header = [h.strip() for h in reader.fieldnames or []]
    for i, name in enumerate(header, 1):
        if not name:
            raise QuestionsError(f"{p}:1: column {i} has no name; known columns: "
                                 f"{', '.join(sorted(KEYS + tuple(ALIASES)))}")
        if name not in KEYS and name not in ALIASES:
            raise QuestionsError(f"{p}:1: {unknown_key(name, KEYS + tuple(ALIASES), 'column')}")
        if header.index(name) < i - 1:
            raise QuestionsError(f"{p}:1: column {name!r} is there twice")
    items = []
    for row in reader:
        line = reader.line_num
        item: dict[str, Any] = {}
        for k, v in row.items():
            if k is None:
                raise QuestionsError(f"{p}:{line}: more cells than the header has columns")
            v = (v or "").strip()
            if v.startswith(("[", "{")):
                try:
                    v = json.loads(v)
                except json.JSONDecodeError as exc:
                    raise QuestionsError(f"{p}:{line}: column {k!r}: not valid JSON ({exc.msg})") from None
            item[k.strip()] = v
        items.append(_Item(line, item))
    return items


# -- one question ------------------------------------------------------------------------------

def _question(p: Path, n: int, raw: _Item) -> Question:
    where = f"{p}:{raw.line}" if raw.line else f"{p}: question {n}"
    if not isinstance(raw.value, dict):
        raise QuestionsError(f"{where}: expected a mapping with 'question', got {type(raw.value).__name__}")
    for key in raw.value:
        if key not in KEYS and key not in ALIASES:
            at = raw.key_lines.get(str(key))
            raise QuestionsError(f"{f'{p}:{at}' if at else where}: {unknown_key(key, KEYS + tuple(ALIASES))}")
    item = _canonical(where, raw.value, ALIASES)
    question = item.get("question")
    if not isinstance(question, str) or not question.strip():
        raise QuestionsError(f"{where}: no 'question' text")
    answers = item.get("must_contain")
    if answers is None or answers == "":
        answers = []
    elif isinstance(answers, (str, int, float)):
        answers = [str(answers)]
    if not isinstance(answers, list) or not all(isinstance(a, (str, int, float)) for a in answers):
        raise QuestionsError(f"{where}: 'must_contain' must be a string or a list of strings")
    answers = [str(a) for a in answers if str(a).strip()]
    page = item.get("page")
    if page not in (None, ""):
        try:
            page = int(page)
        except (TypeError, ValueError):
            raise QuestionsError(f"{where}: 'page' must be a whole number, not {page!r}") from None
    else:
        page = None
    source = item.get("source") or None
    spans = _spans(where, item.get("spans"), source)
    qid = str(item.get("id") or f"q{n}")
    only = item.get("source_only", False)
    if isinstance(only, str) and only.strip().lower() in ("true", "false", ""):
        only = only.strip().lower() == "true"  # as a CSV cell
    if not isinstance(only, bool):
        raise QuestionsError(f"{where}: 'source_only' must be true or false, not {only!r}")
    if only and not source:
        raise QuestionsError(f"{where}: 'source_only' needs the 'source' file that answers it")
    sql, filters = _where(where, item.get("where"))
    return Question(qid, question.strip(), tuple(answers), str(source) if source else None, page,
                    spans, raw.line, only, sql, filters)


#: the keys of one filter in a ``where`` list (``/search``'s)
FILTER_KEYS = ("field", "op", "value")


def _where(where: str, raw: Any) -> tuple[str | None, tuple[Filter, ...]]:
    """A question's ``where`` as SQL text or structured filters (the fields are checked against
    an index's when it is searched: ``Index.search``)."""
    if raw in (None, "", [], {}):
        return None, ()
    if isinstance(raw, str):
        return raw.strip(), ()
    if isinstance(raw, dict):
        raw = [{"field": str(k), "op": "in" if isinstance(v, list) else "eq", "value": v} for k, v in raw.items()]
    if not isinstance(raw, list):
        raise QuestionsError(f"{where}: 'where' is SQL text, a mapping of fields to values or a list of "
                             f"{{field, op, value}}, not {type(raw).__name__}")
    out = []
    for f in raw:
        if not isinstance(f, dict):
            raise QuestionsError(f"{where}: a 'where' filter is a mapping {{field, op, value}}, not {f!r}")
        for key in f:
            if key not in FILTER_KEYS:
                raise QuestionsError(f"{where}: a 'where' filter's {unknown_key(key, FILTER_KEYS)}")
        name, op, value = f.get("field"), f.get("op", "eq"), f.get("value")
        if not isinstance(name, str) or not name.strip():
            raise QuestionsError(f"{where}: a 'where' filter names no field")
        if op not in OPS:
            raise QuestionsError(f"{where}: 'where' on {name!r}: unknown operator {op!r}; one of {', '.join(OPS)}")
        values = value if isinstance(value, list) else [value]
        if (op == "in") != isinstance(value, list) or not values or len(values) > MAX_IN or \
                not all(isinstance(v, (str, int, float, bool)) for v in values):
            raise QuestionsError(f"{where}: 'where' on {name!r}: {'a list of 1 to %d values' % MAX_IN if op == 'in' else 'one value'} "
                                 f"for {op!r}, not {value!r}")
        out.append(Filter(name.strip(), op, list(value) if op == "in" else value))
    return None, tuple(out)


def _canonical(where: str, item: dict[str, Any], aliases: dict[str, str]) -> dict[str, Any]:
    """``item`` with each key written under another name (``aliases``) under its own; both
    given (neither empty) is an error: which one was meant is not for seamcut to guess."""
    out = dict(item)
    for alias, name in aliases.items():
        if alias not in out:
            continue
        value = out.pop(alias)
        if value in (None, ""):
            continue
        if out.get(name) not in (None, ""):
            raise QuestionsError(f"{where}: both {name!r} and {alias!r} (another name for it) are given; "
                                 "keep one")
        out[name] = value
    return out


def only_named_source(questions: Sequence[Question]) -> list[Question]:
    """The questions, each that names its ``source`` made ``source_only`` (``--named-source``)."""
    return [replace(q, source_only=True) if q.source else q for q in questions]


def _spans(where: str, raw: Any, default_source: Any) -> tuple[Span, ...]:
    if raw in (None, "", []):
        return ()
    if isinstance(raw, dict):
        raw = [raw]
    if not isinstance(raw, list):
        raise QuestionsError(f"{where}: 'spans' must be a list of {{source, start, end}}")
    out = []
    for r in raw:
        if not isinstance(r, dict):
            raise QuestionsError(f"{where}: a span must be a mapping {{source, start, end}}")
        for key in r:
            if key not in SPAN_KEYS and key not in SPAN_ALIASES:
                raise QuestionsError(f"{where}: a span's {unknown_key(key, SPAN_KEYS + tuple(SPAN_ALIASES))}")
        r = _canonical(where, r, SPAN_ALIASES)
        start, end = r.get("start"), r.get("end")
        source = r.get("source") or default_source
        if not isinstance(start, int) or not isinstance(end, int) or not 0 <= start < end:
            raise QuestionsError(f"{where}: span start/end must be whole numbers with 0 <= start < end, "
                                 f"got {start!r}, {end!r}")
        if not source:
            raise QuestionsError(f"{where}: a span needs the 'source' file it points into")
        out.append(Span(str(source), start, end))
    return tuple(out)
