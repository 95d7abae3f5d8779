"""A strategy with options written as one word, for comparing variants side by side:
``parent-child:parents=blocks:size=48`` is the parent-child strategy with those two options."""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any

from ..errors import ConfigError
from . import REGISTRY

#: options a spec cannot set: objects, not words (the tokenizer is the run's, shared by all)
_NOT_IN_SPECS = {"tokenizer", "embedder"}


@dataclass(frozen=True)
class StrategySpec:
    """``label``: the spec as written (names the strategy in tables and files); ``name``: the
    registry name; ``options``: typed option values that override the strategy's defaults."""

    label: str
    name: str
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def slug(self) -> str:
        return slug(self.label)


def slug(label: str) -> str:
    """A spec as a file or folder name: ``parent-child:parents=blocks`` ->
    ``parent-child_parents-blocks``."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", label.replace("=", "-").replace(":", "_"))


def parse_spec(text: str) -> StrategySpec:
    """``NAME`` or ``NAME:OPTION=VALUE:OPTION=VALUE...``; values are typed by the option's
    default (``true``/``false``, whole numbers, decimals, words). Raises ValueError naming the
    spec and what is wrong: an unknown strategy or option, a missing ``=``, a bad value."""
    label = text.strip()
    name, *pairs = label.split(":")
    if name not in REGISTRY:
        raise ConfigError(f"{label!r}: unknown strategy {name!r}; choose from {', '.join(REGISTRY)}")
    config_cls = REGISTRY[name][1]
    kinds = option_kinds(name)
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"{label!r}: {pair!r} is not OPTION=VALUE")
        if key not in kinds:
            raise ConfigError(f"{label!r}: {name} has no option {key!r}; it has {', '.join(sorted(kinds))}")
        options[key] = _typed(label, key, raw.strip(), kinds[key])
    try:
        config_cls(**options)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{label!r}: {exc}") from None
    return StrategySpec(label, name, options)


def option_kinds(name: str) -> dict[str, type]:
    """The options a spec of the registered strategy ``name`` may set, each with the type its
    value takes (``bool``, ``int``, ``float`` or ``str``)."""
    return {f.name: _kind(f) for f in dataclasses.fields(REGISTRY[name][1]) if f.name not in _NOT_IN_SPECS}


def _kind(f: dataclasses.Field) -> type:
    """The type a spec's word becomes: the default's, or for a None default the annotation's."""
    if f.default is not None:
        return type(f.default)
    hint = str(f.type)
    return next((t for t in (bool, int, float) if t.__name__ in hint), str)


def _typed(label: str, key: str, raw: str, kind: type) -> Any:
    try:
        if kind is bool:
            if raw.lower() not in ("true", "false"):
                raise ValueError
            return raw.lower() == "true"
        if kind in (int, float):
            return kind(raw)
    except ValueError:
        wanted = {bool: "true or false", int: "a whole number", float: "a number"}[kind]
        raise ConfigError(f"{label!r}: {key} must be {wanted}, not {raw!r}") from None
    return raw
