"""Structured filters on an index's fields, turned into the SQL ``where`` the tables take.

A filter names a ``field`` (a column a chunk can be filtered on: ``source``, ``file``,
``language``, ``page_start``, ``page_end``, ``heading`` and the documents' catalog fields such as
``crop`` or ``year``), an ``op`` (``eq``, ``ne``, ``lt``, ``lte``, ``gt``, ``gte``, ``in``) and a
``value`` of the field's kind (a list of them for ``in``). Nothing else reaches the SQL: the
field must be one of the index's filter columns, the operator one of these, and the value is
written as a literal of the column's type, so a request can name no other table or column and
cannot write SQL of its own.
"""
from __future__ import annotations

import math
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


def to_where(filters: Sequence[Filter], fields: Mapping[str, str]) -> str | None:
    """The SQL ``where`` of ``filters`` joined by AND (None for no filter), given the index's filter
    ``fields`` (name: kind, as ``filter_kind`` says). Raises ``FilterError`` naming what is wrong."""
    return " AND ".join(_one(f, fields) for f in filters) or None


def _one(f: Filter, fields: Mapping[str, str]) -> str:
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
        return f"`{f.field}` IN (" + ", ".join(_literal(f.field, kind, v) for v in f.value) + ")"
    # quoted: a field may be named as an SQL word ("order") or in capitals, which SQL folds
    return f"`{f.field}` {OPS[f.op]} {_literal(f.field, kind, f.value)}"


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
