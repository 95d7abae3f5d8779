"""Test sets: the frozen questions a chunking is judged by, read from YAML, JSONL or CSV.

One question each: ``id``, ``question``, ``must_contain`` (one string, or a list of alternatives
any of which counts; empty or missing for a question no document answers), optional ``source``
(the file that answers it) and ``page``, optional ``source_only`` (true: only a chunk of
``source`` holding the answer counts, where the answer text is also in other documents, another
crop's row of the same table say), optional reference spans ``spans``/``references``:
``[{source, start, end}]`` in characters of the document text (``start_index``/``end_index``, the
Chroma evaluation's names, are read too). In CSV, a list is written as JSON.

Answer text is matched after ``normalise``: Unicode NFC, case folded, Devanagari digits as ASCII,
zero-width characters and soft hyphens removed, a table's cell bars (``|``) and every run of
whitespace one space: an answer copied from a table row, cell by cell, matches the row.
"""
from __future__ import annotations

import csv
import json
import re
import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..errors import ConfigError
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

    Raises ``QuestionsError`` naming the file and line of the first malformed entry (missing
    ``question``, a repeated ``id``, a span that is not ``start < end``, ...).
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
    for n, (line, item) in enumerate(items, 1):
        q = _question(p, line, n, item)
        if q.id in seen:
            raise QuestionsError(f"{p}:{line}: id {q.id!r} repeats the question at line {seen[q.id]}")
        seen[q.id] = line
        out.append(q)
    if not out:
        raise QuestionsError(f"{p}: no questions in the file")
    return out


def check_sources(questions: Sequence[Question], sources: Iterable[str], path: str | Path) -> None:
    """Raise ``QuestionsError`` for a question whose ``source`` (or a span's) names a file that is
    not in the corpus (matched by path, path suffix or file name)."""
    known = [s.replace("\\", "/") for s in sources]
    for q in questions:
        for src in [q.source] + [s.source for s in q.spans]:
            if src and not any(source_matches(src, k) for k in known):
                raise QuestionsError(f"{path}:{q.line}: question {q.id!r} points at {src!r}, which "
                                     "is not among the documents read")


def source_matches(named: str, source: str) -> bool:
    """Whether a test set's file name ``named`` means the document ``source``."""
    named = named.replace("\\", "/").lstrip("./")
    source = source.replace("\\", "/")
    return source == named or source.endswith("/" + named) or Path(source).name == named


# -- formats ---------------------------------------------------------------------------------

def _yaml_items(p: Path, text: str) -> list[tuple[int, Any]]:
    import yaml

    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        # where the broken construct opened (an unclosed bracket), else where parsing stopped
        mark = getattr(exc, "context_mark", None) or getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark else ""
        raise QuestionsError(f"{p}{where}: not valid YAML ({getattr(exc, 'problem', exc)})") from None
    if node is None:
        return []
    data = yaml.safe_load(text)
    if isinstance(data, dict) and "questions" in data:
        node = next(v for k, v in node.value if k.value == "questions")
        data = data["questions"]
    if not isinstance(data, list):
        raise QuestionsError(f"{p}: expected a list of questions (or a 'questions:' list)")
    return [(child.start_mark.line + 1, item) for child, item in zip(node.value, data)]


def _jsonl_items(p: Path, text: str) -> list[tuple[int, Any]]:
    items = []
    for i, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                items.append((i, json.loads(line)))
            except json.JSONDecodeError as exc:
                raise QuestionsError(f"{p}:{i}: not valid JSON ({exc.msg})") from None
    return items


def _json_items(p: Path, text: str) -> list[tuple[int, Any]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise QuestionsError(f"{p}:{exc.lineno}: not valid JSON ({exc.msg})") from None
    if isinstance(data, dict) and "questions" in data:
        data = data["questions"]
    if not isinstance(data, list):
        raise QuestionsError(f"{p}: expected a JSON list of questions")
    return [(0, item) for item in data]


def _csv_items(p: Path, text: str) -> list[tuple[int, Any]]:
    reader = csv.DictReader(text.splitlines())
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
        items.append((line, item))
    return items


# -- one question ------------------------------------------------------------------------------

def _question(p: Path, line: int, n: int, item: Any) -> Question:
    where = f"{p}:{line}" if line else f"{p}: question {n}"
    if not isinstance(item, dict):
        raise QuestionsError(f"{where}: expected a mapping with 'question', got {type(item).__name__}")
    question = item.get("question") or item.get("query")
    if not isinstance(question, str) or not question.strip():
        raise QuestionsError(f"{where}: no 'question' text")
    answers = item.get("must_contain", item.get("answer"))
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
    source = item.get("source") or item.get("corpus_id") or None
    spans = _spans(where, item.get("spans", item.get("references")), source)
    qid = str(item.get("id") or f"q{n}")
    only = item.get("source_only", False)
    if isinstance(only, str) and only.strip().lower() in ("true", "false", ""):
        only = only.strip().lower() == "true"  # as a CSV cell
    if not isinstance(only, bool):
        raise QuestionsError(f"{where}: 'source_only' must be true or false, not {only!r}")
    if only and not source:
        raise QuestionsError(f"{where}: 'source_only' needs the 'source' file that answers it")
    return Question(qid, question.strip(), tuple(answers), str(source) if source else None, page,
                    spans, line, only)


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
        start, end = r.get("start", r.get("start_index")), r.get("end", r.get("end_index"))
        source = r.get("source") or default_source
        if not isinstance(start, int) or not isinstance(end, int) or not 0 <= start < end:
            raise QuestionsError(f"{where}: span start/end must be whole numbers with 0 <= start < end, "
                                 f"got {start!r}, {end!r}")
        if not source:
            raise QuestionsError(f"{where}: a span needs the 'source' file it points into")
        out.append(Span(str(source), start, end))
    return tuple(out)
