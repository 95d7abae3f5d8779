"""Public names that were renamed, kept for a release under their old name: each use of an old name
warns (``DeprecationWarning``, pointed at the caller's line) and does what the new name does.

- ``renamed_attribute(old, new)``: a property ``old`` reading and writing the attribute ``new``;
- ``renamed_keyword(given, old, new, value)``: a keyword argument's old name, taken from ``**given``;
- ``renamed_in_module(module, name, names, space)``: a module's old names (its ``__getattr__``);
- ``gathered(where, given, keywords)``: the loose keywords a function took before its options
  object, set over that object's fields.
"""
from __future__ import annotations

import warnings
from typing import Any

from .errors import ConfigError, ConfigTypeError


def warn_renamed(old: str, new: str, stacklevel: int = 3) -> None:
    """Warn that ``old`` is ``new``'s old name (``stacklevel`` counted from the caller of this)."""
    warnings.warn(f"{old} is deprecated: it is now {new} (the same thing); {old} goes in a coming release",
                  DeprecationWarning, stacklevel=stacklevel)


def renamed_attribute(old: str, new: str) -> property:
    """A property ``old`` that warns and reads (or writes) the attribute ``new``."""

    def get(self: Any) -> Any:
        warn_renamed(f"{type(self).__name__}.{old}", new)
        return getattr(self, new)

    def put(self: Any, value: Any) -> None:
        warn_renamed(f"{type(self).__name__}.{old}", new)
        setattr(self, new, value)

    return property(get, put, doc=f"Deprecated: ``{new}``'s old name.")


def refuse_unknown(where: str, given: Any, known: Any) -> None:
    """``ConfigTypeError`` for a keyword among ``given`` (a function's ``**`` keywords) that is not
    among ``known``, worded as Python's own."""
    other = sorted(set(given) - set(known))
    if other:
        raise ConfigTypeError(f"{where}() got an unexpected keyword argument {other[0]!r}")


def gathered(where: str, given: Any, keywords: dict[str, Any]) -> Any:
    """The options dataclass ``given`` with ``keywords`` (``where``'s ``**`` keywords, each naming
    one of its fields) set over its own; any other keyword is refused (``ConfigTypeError``)."""
    import dataclasses
    refuse_unknown(where, keywords, [f.name for f in dataclasses.fields(given)])
    return dataclasses.replace(given, **keywords) if keywords else given


def renamed_keyword(given: dict[str, Any], old: str, new: str, value: Any, where: str) -> Any:
    """``value`` (the keyword ``new``), or the keyword ``old`` (its old name: warned) from ``given``,
    a function's ``**`` keywords; any other keyword there is refused, as Python would."""
    refuse_unknown(where, given, {old})
    if old not in given:
        return value
    if value is not None:
        raise ConfigError(f"{where}(): give {new} or {old} (its old name), not both")
    warn_renamed(f"{where}({old}=)", f"{new}=", stacklevel=4)
    return given[old]


def renamed_in_module(module: str, name: str, names: dict[str, str], space: dict[str, Any]) -> Any:
    """A module's ``__getattr__(name)``: the object of ``names[name]`` (the new name) in the
    module's globals ``space``, warned; an ``AttributeError`` for any other name."""
    if name not in names:
        raise AttributeError(f"module {module!r} has no attribute {name!r}")
    warn_renamed(f"{module}.{name}", f"{module}.{names[name]}", stacklevel=4)
    return space[names[name]]
