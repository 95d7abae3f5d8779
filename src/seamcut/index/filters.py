"""Structured filters on an index's fields, turned into the SQL ``where`` the tables take.

A filter names a ``field`` (a column a chunk can be filtered on: ``source``, ``file``,
``language``, ``page_start``, ``page_end``, ``heading`` and the documents' catalog fields such as
``crop`` or ``year``), an ``op`` (``eq``, ``ne``, ``lt``, ``lte``, ``gt``, ``gte``, ``in``) and a
``value`` of the field's kind (a list of them for ``in``). Nothing else reaches the SQL: the
field must be one of the index's filter columns, the operator one of these, and the value is
written as a literal of the column's type, so a request can name no other table or column and
cannot write SQL of its own.

A file is named in ``source`` as it was given when indexed (``../mydocs/R-data.pdf``); a filter
on ``source`` (``eq``, ``ne``, ``in``) names it by that, by its absolute path, by its file name
(``R-data.pdf``) or by the last parts of its path (``mydocs/R-data.pdf``): ``sources_named``.
"""
from __future__ import annotations

import math
import os
from pathlib import PurePosixPath
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from ..errors import ConfigError
from .rows import sql_str

#: the operators and their SQL
OPS = {"eq": "=", "ne": "!=", "lt": "<", "lte": "<=", "gt": ">", "gte": ">=", "in": "IN"}
#: operators that order values (not for a true/false field)
_ORDERED = ("lt", "lte", "gt", "gte")
#: the most values one ``in`` may list
MAX_IN = 100
#: chunk columns that are the index's own bookkeeping, never filtered on
NOT_FILTERS = frozenset({"id", "doc_id", "start", "end", "strategy", "parent_id", "role", "tokens", "text",
                         "chunk", "vector"})


class FilterError(ConfigError):
    """A filter the index cannot take: an unknown field or operator, or a value of the wrong kind."""


class WhereError(FilterError):
    """An SQL ``where`` the index's tables refuse (it does not parse, or names no column): the
    ``where`` and the ``reason`` LanceDB gives, its first line."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"where {where!r}: {reason}")
        self.where, self.reason = where, reason

    def __reduce__(self) -> tuple:
        return type(self), (self.where, self.reason)


@dataclass(frozen=True)
class Filter:
    """``field op value``: e.g. ``Filter("year", "gte", 2025)``, ``Filter("crop", "in", ["cotton", "soybean"])``."""
    field: str
    op: str = "eq"
    value: Any = None


def filter_kind(arrow_type: Any) -> str | None:
    """The kind of value a column of this Arrow type is filtered with: ``text``, ``integer``,
    ``number`` or ``boolean`` (None: not a filter column, e.g. a list or a vector)."""
    import pyarrow as pa
    if pa.types.is_string(arrow_type) or pa.types.is_large_string(arrow_type):
        return "text"
    if pa.types.is_boolean(arrow_type):
        return "boolean"
    if pa.types.is_integer(arrow_type):
        return "integer"
    if pa.types.is_floating(arrow_type):
        return "number"
    return None


def to_where(filters: Sequence[Filter], fields: Mapping[str, str],
             sources: Mapping[str, str] | None = None) -> str | None:
    """The SQL ``where`` of ``filters`` joined by AND (None for no filter), given the index's filter
    ``fields`` (name: kind, as ``filter_kind`` says) and, for a filter on ``source``, the
    ``sources`` the index holds (source as stored: the file's absolute path; None: a source is
    matched as stored only). Raises ``FilterError`` naming what is wrong."""
    return " AND ".join(_one(f, fields, sources) for f in filters) or None


def sources_named(value: str, sources: Mapping[str, str]) -> list[str]:
    """The sources of ``sources`` (source as stored: the file's absolute path) that ``value``
    names: the source itself, else every one that is the same file by its absolute path or whose
    path ends with ``value``'s parts (its file name, ``mydocs/R-data.pdf``); [] where none."""
    if value in sources:
        return [value]
    want, absolute = _parts(value), os.path.abspath(value)
    return [s for s, path in sources.items() if path == absolute or (want and _parts(s)[-len(want):] == want)]


def _parts(path: str) -> tuple[str, ...]:
    """A path's parts, ``/`` or ``\\`` between them, without ``.`` ones."""
    return tuple(p for p in PurePosixPath(path.replace("\\", "/")).parts if p != ".")


def _one(f: Filter, fields: Mapping[str, str], sources: Mapping[str, str] | None = None) -> str:
    kind = fields.get(f.field)
    if kind is None:
        known = ", ".join(sorted(fields)) or "none"
        raise FilterError(f"unknown field {f.field!r}; this index's fields: {known}")
    if f.op not in OPS:
        raise FilterError(f"unknown operator {f.op!r} for {f.field!r}; one of {', '.join(OPS)}")
    if kind == "boolean" and f.op in _ORDERED:
        raise FilterError(f"{f.field!r} is true or false: {f.op!r} does not apply (eq, ne or in)")
    if f.op == "in":
        if not isinstance(f.value, (list, tuple)) or not f.value or len(f.value) > MAX_IN:
            raise FilterError(f"{f.field!r} in: the value is a list of 1 to {MAX_IN} values")
    values = list(f.value) if f.op == "in" else [f.value]
    literals = [_literal(f.field, kind, v) for v in values]  # each value's kind checked first
    if f.field == "source" and sources is not None and f.op in ("eq", "ne", "in"):
        named = list(dict.fromkeys(s for v in values for s in sources_named(v, sources) or [v]))
        return f"`source` {'NOT IN' if f.op == 'ne' else 'IN'} (" + ", ".join(map(sql_str, named)) + ")"
    if f.op == "in":
        return f"`{f.field}` IN (" + ", ".join(literals) + ")"
    # quoted: a field may be named as an SQL word ("order") or in capitals, which SQL folds
    return f"`{f.field}` {OPS[f.op]} {literals[0]}"


def _literal(field: str, kind: str, value: Any) -> str:
    """``value`` as an SQL literal of ``kind``; anything else is refused, never converted."""
    if kind == "text" and isinstance(value, str):
        return sql_str(value)
    if kind == "boolean" and isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if kind == "integer" and isinstance(value, int) and not isinstance(value, bool):
        return str(int(value))
    if kind == "number" and isinstance(value, (int, float)) and not isinstance(value, bool) \
            and math.isfinite(value):
        return repr(float(value))
    raise FilterError(f"{field!r} holds {kind} values, not {value!r}")


def holds(filters: Sequence[Filter], fields: Mapping[str, Any]) -> bool:
    """Whether a document of these ``fields`` (its metadata's values, ``source``, ``file``,
    ``language``) passes every one of ``filters``, as the index's SQL would: a field it lacks
    fails (SQL's NULL); ``source`` is named as ``sources_named`` names it."""
    return all(_holds(f, fields) for f in filters)


def _holds(f: Filter, fields: Mapping[str, Any]) -> bool:
    have = fields.get(f.field)
    if have is None:
        return False
    values = list(f.value) if f.op == "in" else [f.value]
    if f.field == "source":
        named = any(sources_named(str(v), {str(have): os.path.abspath(str(have))}) for v in values)
        return named != (f.op == "ne")
    if f.op in ("eq", "in"):
        return have in values
    if f.op == "ne":
        return have != f.value
    try:
        return {"lt": have < f.value, "lte": have <= f.value, "gt": have > f.value, "gte": have >= f.value}[f.op]
    except TypeError:
        return False

