"""The search space of ``seamcut tune``: chunkings (strategies with their options) times search
modes, read from YAML.

    modes: [vector, text, hybrid]
    strategies:
      recursive: {size: [128, 256, 512], overlap: [0, 32], within_paragraph: [false, true]}
      parent-child: {size: [64, 100], parent_size: [400, 800], parents: [sections, blocks]}
      structure: [{}, {heading_path: false}]      # a list: each mapping is a product of its own

Each strategy's options are multiplied out (a value or a list of values per option; ``{}`` or
nothing: the strategy's defaults). A combination the strategy's config refuses (``overlap`` not
below ``size``, ``parent_size`` below ``size``) is dropped and counted, never an error; an unknown
strategy or option, or a value of the wrong type, is an error naming the file, the line, the key
and the nearest known one. An
option given its default value is left out of the spec, so ``recursive:size=300`` and
``recursive`` are one chunking, judged once. Sizes are in each option's ``unit`` (default: the
embedding model's tokens).
"""
from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..errors import ConfigError
from ..keys import did_you_mean, unknown_key
from ..strategies import REGISTRY
from ..strategies.spec import StrategySpec, option_kinds, parse_spec

#: the search modes an index is searched in (``seamcut.index``'s)
MODES = ("vector", "text", "hybrid")
DEFAULT_SPACE = Path(__file__).with_name("default_space.yaml")


class SpaceError(ConfigError):
    """A space file that cannot be used; the message names the file and the key."""


@dataclass(frozen=True)
class Candidate:
    """One configuration tune judges: a chunking (``spec``) searched in one ``mode``."""
    spec: StrategySpec
    mode: str

    @property
    def label(self) -> str:
        return f"{self.spec.label} @{self.mode}"


@dataclass(frozen=True)
class Space:
    """The chunkings (each built into one index) and the modes each is searched in; ``dropped``:
    combinations refused by a strategy's config; ``source``: the file it was read from."""
    chunkings: tuple[StrategySpec, ...]
    modes: tuple[str, ...] = MODES
    dropped: int = 0
    source: str = "default"

    def candidates(self) -> list[Candidate]:
        """Every chunking in every mode, chunking by chunking, in the file's order."""
        return [Candidate(spec, mode) for spec in self.chunkings for mode in self.modes]


def over_model(spec: StrategySpec, model: str) -> str | None:
    """Why ``spec`` cannot be cut for the embedding ``model`` (``seamcut.pipeline.jobs.model_sized``'s
    spec: "default" or a folder): its chunk size in tokens over the model's maximum input, which
    every embedded chunk must fit; None where it fits. Parents, never embedded, are not bound."""
    from ..pipeline.jobs import model_sized
    from ..tokens import load_sizer
    if spec.name not in REGISTRY:
        return None  # another library's chunker: its chunks over the input are embedded truncated, and said
    options = model_sized(spec.options, model)
    config = REGISTRY[spec.name][1](**options)
    if config.unit != "tokens":
        return None  # bounded by the model's input as it is cut, and reported there
    sizer = load_sizer(config.tokenizer)
    limit = sizer.max_input_tokens
    if limit is None or config.size <= limit:
        return None
    return f"size {config.size} tokens is over the model's maximum input of {limit} tokens ({sizer.name})"


def default_space() -> Space:
    """The space shipped with seamcut (``default_space.yaml``): every registered strategy with
    its defaults, and variants of sizes, overlap, heading path and parents."""
    return load_space(DEFAULT_SPACE)


def load_space(path: str | Path) -> Space:
    """A space from a YAML file. Raises ``SpaceError`` naming the file and the key at fault."""
    import yaml

    from ..keys import load_yaml

    p = Path(path)
    try:
        data, lines = load_yaml(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise SpaceError(f"{p}: cannot read the space file ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise SpaceError(f"{p}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark else ""
        raise SpaceError(f"{p}{where}: not valid YAML ({getattr(exc, 'problem', exc)})") from None
    return parse_space(data, str(p), lines)


def parse_space(data: Any, where: str = "space", lines: dict[tuple[Any, ...], int] | None = None) -> Space:
    """A space from its YAML data (``where`` names it in errors; ``lines``: where each key is
    in the file, ``seamcut.keys.yaml_lines``, for the errors to name the line)."""
    if not isinstance(data, dict):
        raise SpaceError(f"{where}: expected a mapping with 'strategies' (and 'modes')")
    at = _Where(where, lines or {})
    for key in data:
        if key not in ("modes", "strategies"):
            raise SpaceError(f"{at(key)}: {unknown_key(key, ('modes', 'strategies'))}")
    modes = data.get("modes", list(MODES))
    if isinstance(modes, str):
        modes = [modes]
    if not isinstance(modes, list) or not modes:
        raise SpaceError(f"{at('modes')}: 'modes' must be a list of {', '.join(MODES)}")
    for i, m in enumerate(modes):
        if m not in MODES:
            raise SpaceError(f"{at('modes', i)}: modes: unknown search mode {m!r}{did_you_mean(m, MODES)}; "
                             f"choose from {', '.join(MODES)}")
    strategies = data.get("strategies")
    if not isinstance(strategies, dict) or not strategies:
        raise SpaceError(f"{at('strategies')}: 'strategies' must map strategy names to their options")
    specs: dict[str, StrategySpec] = {}
    dropped = 0
    for name, variants in strategies.items():
        if name not in REGISTRY:
            raise SpaceError(f"{at('strategies', name)}: strategies: unknown strategy {name!r}"
                             f"{did_you_mean(name, REGISTRY)}; choose from {', '.join(REGISTRY)}")
        for options in _variants(at, name, variants):
            label = _label(name, options)
            try:
                spec = parse_spec(label)
            except ValueError:  # options the config refuses together: not a chunking
                dropped += 1
                continue
            specs.setdefault(spec.label, spec)
    return Space(tuple(specs.values()), tuple(dict.fromkeys(modes)), dropped, where)


class _Where:
    """``file:line`` of a key of the space file by its path (the line of the nearest key above it
    where its own is not known; the file alone where none is)."""

    def __init__(self, where: str, lines: dict[tuple[Any, ...], int]) -> None:
        self.where, self.lines = where, lines

    def __call__(self, *path: Any) -> str:
        keys = tuple(k if isinstance(k, int) else str(k) for k in path)
        line = next((n for i in range(len(keys), 0, -1) if (n := self.lines.get(keys[:i]))), 0)
        return f"{self.where}:{line}" if line else self.where


def _variants(at: _Where, name: str, given: Any) -> list[dict[str, Any]]:
    """The option combinations one strategy's entry stands for (the cartesian product of each
    mapping's values), each checked against the strategy's options and their types."""
    groups = [{}] if given is None else given if isinstance(given, list) else [given]
    listed = isinstance(given, list)
    kinds = option_kinds(name)
    defaults = {f.name: f.default for f in dataclasses.fields(REGISTRY[name][1])}
    out: list[dict[str, Any]] = []
    for g, group in enumerate(groups):
        group = {} if group is None else group
        path = ("strategies", name, g) if listed else ("strategies", name)
        if not isinstance(group, dict):
            raise SpaceError(f"{at(*path)}: strategies.{name}: expected a mapping of options to values")
        axes: list[list[tuple[str, Any]]] = []
        for key, values in group.items():
            if key not in kinds:
                raise SpaceError(f"{at(*path, key)}: strategies.{name}.{key}: {name} has no option {key!r}"
                                 f"{did_you_mean(key, kinds)}; it has {', '.join(sorted(kinds))}")
            values = values if isinstance(values, list) else [values]
            if not values:
                raise SpaceError(f"{at(*path, key)}: strategies.{name}.{key}: no values")
            for v in values:
                if not _fits(v, kinds[key]):
                    raise SpaceError(f"{at(*path, key)}: strategies.{name}.{key}: {v!r} is not "
                                     f"{_WANTED[kinds[key]]}")
            axes.append([(key, v) for v in values])
        for combo in itertools.product(*axes):
            out.append({k: v for k, v in combo if v is not None and v != defaults.get(k)})
    return out


_WANTED = {bool: "true or false", int: "a whole number", float: "a number", str: "a word"}


def _fits(value: Any, kind: type) -> bool:
    if value is None:  # the strategy's default
        return True
    if kind is bool or isinstance(value, bool):
        return kind is bool and isinstance(value, bool)
    if kind is float:
        return isinstance(value, (int, float))
    return isinstance(value, kind)


def _label(name: str, options: dict[str, Any]) -> str:
    """The spec word of a strategy with options (``recursive:size=256:overlap=32``), the options
    in the order the strategy's config declares them, so a chunking has one label (and one index
    folder) whatever order the space file writes its keys in."""
    order = list(option_kinds(name))
    words = [f"{k}={str(v).lower() if isinstance(v, bool) else v}"
             for k, v in sorted(options.items(), key=lambda kv: order.index(kv[0]))]
    return ":".join([name, *words])
