"""Why a filtered search found nothing: each filter that matches no chunk of the index, said with
values its field does hold (a file named otherwise than the index holds it, a catalog value
spelled otherwise), so an empty answer is not taken for "nothing relevant"."""
from __future__ import annotations

import difflib
import re
from typing import Any, Sequence

from .filters import OPS, Filter
from .store import View

#: how many of a field's values a message names
SHOWN = 5
#: how many of a field's values the nearest to a value are picked from (a similarity each)
CLOSEST_OF = 2000
_QUOTED = re.compile(r"'(?:[^']|'')*'")


def unmatched(view: View, filters: Sequence[Filter] = (), where: str | None = None) -> list[str]:
    """One line per filter of ``filters`` (structured) and for ``where`` (SQL) that matches no
    chunk of ``view``, naming the field, the value and a few values the field holds; where each
    matches some but together they match none, a line saying so; [] where they match a chunk."""
    if "chunks" not in view:
        return []
    fields = view.filter_fields()
    out = [f"{f.field} {OPS.get(f.op, f.op)} {f.value!r} matches no chunk of the index; "
           + _held(view, f.field, fields[f.field], f.value) for f in filters if not view.matches(view.structured([f]))]
    if where and not view.matches(where):
        bare = _QUOTED.sub("''", where)  # the names in it, not its text values
        named = [name for name in fields if re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", bare, re.IGNORECASE)]
        out.append(f"{where!r} matches no chunk of the index"
                   + "".join(f"; {_held(view, name, fields[name], None)}" for name in named))
    if not out and (filters or where):
        sql = " AND ".join(f"({w})" for w in (where, view.structured(filters)) if w)
        if not view.matches(sql):
            out.append("each filter matches some chunks, but no chunk matches them all together")
    return out


def _held(view: View, field: str, kind: str, value: Any) -> str:
    """The values ``field`` holds: all where they are few, else a few (the nearest to ``value``
    for a text), the range of a number."""
    held = view.values(field)
    if not held:
        return f"{field} holds no value"
    if kind in ("integer", "number"):
        return f"{field} holds {held[0]} to {held[-1]}"
    if len(held) <= SHOWN:
        return f"{field} holds " + ", ".join(repr(v) for v in held)
    shown = held[:SHOWN]
    if kind == "text" and value is not None:
        near = str(value[0] if isinstance(value, (list, tuple)) and value else value)
        holding = [v for v in held if near.lower() in v.lower()]  # R-data in ../mydocs/R-data.pdf
        shown = holding[:SHOWN] or difflib.get_close_matches(near, held[:CLOSEST_OF], n=SHOWN, cutoff=0.0)
    return f"{field} holds e.g. " + ", ".join(repr(v) for v in shown) + f" (of {len(held)} values)"
