"""The keys of the files seamcut reads settings from (test sets, catalogs, tune's space): an
unknown key is refused in one phrase naming it, the nearest known key where one is close, and
the keys known; and where each key of a YAML file stands, so that the refusal names its line.
"""
from __future__ import annotations

import difflib
from typing import Any, Iterable


def nearest(key: object, known: Iterable[str]) -> str | None:
    """The known key closest to ``key`` (case aside), where one is close enough to be a typing
    slip (``must_contains``, ``sourse``, ``Question``); None where none is."""
    names = sorted(known)
    folded = {n.casefold(): n for n in names}
    close = difflib.get_close_matches(str(key).casefold(), list(folded), n=1, cutoff=0.75)
    return folded[close[0]] if close else None


def did_you_mean(key: object, known: Iterable[str]) -> str:
    """`` (did you mean 'must_contain'?)`` where a known key is close to ``key``, else ""."""
    near = nearest(key, known)
    return f" (did you mean {near!r}?)" if near else ""


def unknown_key(key: object, known: Iterable[str], what: str = "key") -> str:
    """``unknown key 'must_contains' (did you mean 'must_contain'?); known keys: id, ...``, the
    known keys sorted; ``what`` names a key of another kind (``column``)."""
    names = sorted(known)
    return f"unknown {what} {key!r}{did_you_mean(key, names)}; known {what}s: {', '.join(names)}"


def yaml_lines(node: Any) -> dict[tuple[Any, ...], int]:
    """Where each key and list item of a composed YAML document stands (1-based lines), by its
    path from the top: ``("questions", 3, "source")``, list items by index, keys as written."""
    import yaml

    out: dict[tuple[Any, ...], int] = {}
    stack: list[tuple[Any, tuple[Any, ...], frozenset[int]]] = [(node, (), frozenset())]
    while stack:
        n, path, above = stack.pop()
        if id(n) in above:  # an alias of a node that holds it: a loop, walked once
            continue
        inside = above | {id(n)}
        if isinstance(n, yaml.MappingNode):
            for k, v in n.value:
                at = (*path, getattr(k, "value", None))
                out.setdefault(at, k.start_mark.line + 1)
                stack.append((v, at, inside))
        elif isinstance(n, yaml.SequenceNode):
            for i, v in enumerate(n.value):
                out.setdefault((*path, i), v.start_mark.line + 1)
                stack.append((v, (*path, i), inside))
    return out


def load_yaml(text: str) -> tuple[Any, dict[tuple[Any, ...], int]]:
    """A YAML document's data (safe types only) and where each of its keys and list items stands
    (``yaml_lines``), from one parse. Raises ``yaml.YAMLError`` as ``yaml.safe_load`` does."""
    import yaml

    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None, {}
        return loader.construct_document(node), yaml_lines(node)
    finally:
        loader.dispose()
