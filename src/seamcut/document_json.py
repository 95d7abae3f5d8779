"""A ``Document`` as JSON and back, exactly: the parse cache's format (never a pickle, so a cache
file planted or torn can be wrong, but can never run code).

JSON has no tuples, no non-string keys and no read-only mappings, and documents hold all three
(page offsets, table row spans, page notes by page number), so those are written tagged and read
back as they were: ``Document`` in, an equal ``Document`` out. A string holding surrogate code
points (a PDF's text can: ``\udb82\udc54`` as two code points) is written as its bytes, because
a JSON reader joins an escaped surrogate pair into one code point and offsets would shift.
"""
from __future__ import annotations

import base64
import json
import math
import re
from dataclasses import fields
from types import MappingProxyType
from typing import Any, Mapping

from .model import Document, Element
from .errors import ConfigError, ConfigTypeError

#: the format of what ``dumps`` writes; a file of another version is not read
VERSION = 1
_TUPLE, _MAP, _FLOAT, _SURROGATES = "\x00tuple", "\x00map", "\x00float", "\x00utf8-surrogatepass"
_SURROGATE = re.compile("[\ud800-\udfff]")


def _encode(value: Any) -> Any:
    if isinstance(value, str) and _SURROGATE.search(value):
        return {_SURROGATES: base64.b64encode(value.encode("utf-8", "surrogatepass")).decode("ascii")}
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {_FLOAT: repr(value)}
    if isinstance(value, tuple):
        return {_TUPLE: [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, (dict, MappingProxyType)):
        if all(isinstance(k, str) and not k.startswith("\x00") and not _SURROGATE.search(k)
               for k in value):
            return {k: _encode(v) for k, v in value.items()}
        return {_MAP: [[_encode(k), _encode(v)] for k, v in value.items()]}
    if hasattr(value, "item") and callable(value.item):  # a numpy scalar
        return _encode(value.item())
    raise ConfigTypeError(f"cannot store a {type(value).__name__} in a document's JSON")


def _decode(value: Any) -> Any:
    if isinstance(value, list):
        return [_decode(v) for v in value]
    if isinstance(value, dict):
        if len(value) == 1:
            (key, inner), = value.items()
            if key == _TUPLE:
                return tuple(_decode(v) for v in inner)
            if key == _MAP:
                return {_hashable(_decode(k)): _decode(v) for k, v in inner}
            if key == _FLOAT:
                return float(inner)
            if key == _SURROGATES:
                return base64.b64decode(inner).decode("utf-8", "surrogatepass")
        return {k: _decode(v) for k, v in value.items()}
    return value


def _hashable(key: Any) -> Any:
    return tuple(key) if isinstance(key, list) else key


def _element(d: Mapping[str, Any]) -> Element:
    return Element(**{**d, "metadata": _decode(d.get("metadata", {}))})


def dumps(doc: Document) -> str:
    """``doc`` as one JSON text, to be written as UTF-8 (a string with surrogates in it is
    written as its bytes, so the rest encodes)."""
    elements = [{f.name: _encode(getattr(e, f.name)) for f in fields(Element)} for e in doc.elements]
    data = {f.name: _encode(getattr(doc, f.name)) for f in fields(Document) if f.name != "elements"}
    return json.dumps({"seamcut_document": VERSION, **data, "elements": elements},
                      ensure_ascii=False, separators=(",", ":"))


def loads(raw: str | bytes) -> Document:
    """The ``Document`` that ``dumps`` wrote; ``ConfigError`` (a ``ValueError``) for anything else."""
    data = json.loads(raw)
    if not isinstance(data, dict) or data.pop("seamcut_document", None) != VERSION:
        raise ConfigError("not a seamcut document of this version")
    elements = tuple(_element(e) for e in data.pop("elements"))
    plain = {k: _decode(v) for k, v in data.items()}
    return Document(**plain, elements=elements)
