"""A strategy with options written as one word, for comparing variants side by side:
``parent-child:parents=blocks:size=48`` is the parent-child strategy with those two options."""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..errors import ConfigError
from . import REGISTRY
from .config import SizeConfig

#: options a spec cannot set: objects, not words (the tokenizer is the run's, shared by all)
_NOT_IN_SPECS = {"tokenizer", "embedder"}


@dataclass(frozen=True)
class StrategySpec:
    """A strategy as one validated value, from the command line to the worker that cuts with it
    (it pickles: a worker process or a Ray task gets it whole, and parses nothing).

    ``label``: the spec as written (names the strategy in tables, files and folders); ``name``:
    the registry name; ``options``: typed option values that override the strategy's defaults
    (sizes in the config's ``unit``: ``tokens`` of the model, ``words`` or ``chars``; a run's
    ``tokenizer`` and, for ``semantic``, its ``embedder`` may be among them, as objects);
    ``config``: the strategy's typed config made of them (``SizeConfig`` or its subclass), built
    once, here: an option the strategy refuses raises its ``ConfigError`` (``parse_spec`` puts
    the label in front)."""

    label: str
    name: str
    options: dict[str, Any] = field(default_factory=dict)
    config: SizeConfig = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "config", _registered(self.label, self.name)(**self.options))

    @property
    def slug(self) -> str:
        return slug(self.label)

    def with_options(self, options: Mapping[str, Any]) -> "StrategySpec":
        """This spec with ``options`` over its own (the same label), validated again."""
        return StrategySpec(self.label, self.name, {**self.options, **options}) if options else self

    def with_defaults(self, defaults: Mapping[str, Any]) -> "StrategySpec":
        """This spec with ``defaults`` under its own options (a run's ``size`` for every strategy:
        a spec's own ``size=48`` wins), validated again."""
        return StrategySpec(self.label, self.name, {**defaults, **self.options}) if defaults else self


def run_sizes(size: int | None = None, overlap: int | None = None, unit: str | None = None) -> dict[str, Any]:
    """The options a run's ``size`` and ``overlap`` (in ``unit``) set for every strategy, to put
    under each spec's own (``StrategySpec.with_defaults``): None, or the default unit
    ``tokens``, sets nothing."""
    given = {"size": size, "overlap": overlap, "unit": None if unit == "tokens" else unit}
    return {k: v for k, v in given.items() if v is not None}


def slug(label: str) -> str:
    """A spec as a file or folder name: ``parent-child:parents=blocks`` ->
    ``parent-child_parents-blocks``."""
    return re.sub(r"[^A-Za-z0-9._-]+", "_", label.replace("=", "-").replace(":", "_"))


def parse_spec(text: str) -> StrategySpec:
    """``NAME`` or ``NAME:OPTION=VALUE:OPTION=VALUE...``; values are typed by the option's
    default (``true``/``false``, whole numbers, decimals, words). Raises ``ConfigError`` (a
    ``ValueError``) naming the spec and what is wrong: an unknown strategy or option, a missing
    ``=``, a bad value."""
    label = text.strip()
    name, *pairs = label.split(":")
    _registered(label, name)
    kinds = option_kinds(name)
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ConfigError(f"{label!r}: {pair!r} is not OPTION=VALUE")
        if key not in kinds:
            raise ConfigError(f"{label!r}: {name} has no option {key!r}; it has {', '.join(sorted(kinds))}")
        options[key] = typed_option(label, key, raw.strip(), kinds[key])
    try:
        return StrategySpec(label, name, options)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"{label!r}: {exc}") from None


def _registered(label: str, name: str) -> type[SizeConfig]:
    """The config class of the registered strategy ``name``; ``ConfigError`` naming ``label``
    for an unknown one."""
    if name not in REGISTRY:
        raise ConfigError(f"{label!r}: unknown strategy {name!r}; choose from {', '.join(REGISTRY)}")
    return REGISTRY[name][1]


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


def typed_option(label: str, key: str, raw: str, kind: type) -> Any:
    """The word ``raw`` given for option ``key`` of the spec ``label`` as ``kind`` (``bool``:
    ``true``/``false``; ``int``, ``float``; anything else: the word); ``ConfigError`` naming
    the spec, the option and what it must be."""
    if kind is bool and raw.lower() in ("true", "false"):
        return raw.lower() == "true"
    if kind not in (bool, int, float):
        return raw
    if kind is not bool:
        try:
            return kind(raw)
        except ValueError:
            pass
    wanted = {bool: "true or false", int: "a whole number", float: "a number"}[kind]
    raise ConfigError(f"{label!r}: {key} must be {wanted}, not {raw!r}")
