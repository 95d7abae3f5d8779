"""Another library's pipeline as one validated value, as ``--strategies`` names it:

    langchain:recursive:chunk_size=1000:chunk_overlap=200     its reader and its chunker
    llamaindex:sentence:reader=seamcut                        its chunker on seamcut's reading
    chunks:PATH                                               chunks made anywhere (JSONL)

A ``PeerSpec`` travels to the workers that read and cut, as a ``StrategySpec`` does: it pickles,
and nothing is parsed there. Options go by the library's own names and are typed by its defaults
(``Library.options``); ``reader=seamcut`` is seamcut's own option, the only one.
"""
from __future__ import annotations

import dataclasses
import hashlib
import importlib
from functools import lru_cache
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Union

from ..errors import ConfigError
from ..model import Document
from ..strategies import REGISTRY
from ..strategies import spec as strategy_spec
from ..strategies.spec import StrategySpec, slug, typed_option
from ..readers.found_fields import ALIASES, CATALOG_FIELDS
from .base import Library

#: every library a contestant may name, by the module that adapts it
LIBRARIES = {name: f"seamcut.peers.{name}" for name in
             ("langchain", "llamaindex", "chonkie", "unstructured", "pymupdf4llm", "docling")}
#: how a spec says which reading a peer's chunker cuts: its library's own, or seamcut's
READERS = ("own", "seamcut")


def library(name: str) -> Library:
    """The adapter of the library ``name`` (imports the adapter, not the library)."""
    return importlib.import_module(LIBRARIES[name]).LIBRARY  # type: ignore[no-any-return]


@lru_cache(maxsize=None)
def adapter_code(name: str) -> str:
    """A digest of the code a library's reading goes through in seamcut (its adapter, base.py,
    layout.py), so that a parse cached by other code is not reused."""
    here = Path(__file__).parent
    h = hashlib.sha256()
    for f in (here / f"{name}.py", here / "base.py", here / "layout.py"):
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def is_peer(label: str) -> bool:
    """Whether ``label`` names another library's pipeline or chunks made elsewhere (its first
    word is a library or ``chunks``), not one of seamcut's strategies."""
    first = label.strip().split(":", 1)[0]
    return first in LIBRARIES or first == "chunks"


@dataclass(frozen=True)
class PeerReader:
    """A library's own reader, as ``ReadOptions.reader``: reading a file with it instead of
    seamcut's. Its ``repr`` (the library and its packages' versions) keys the parse cache, so a
    library upgraded is read again."""
    library: str
    versions: tuple[tuple[str, str], ...]
    #: a digest of seamcut's code that reads with it (the adapter, the layout): changed, read again
    code: str = ""

    def read(self, path: str, fields: Mapping[str, Any] | None = None) -> Document:
        """The file as the library's reader gives it: its pieces laid end to end, one element
        each (``seamcut.peers.layout.reading``)."""
        from .layout import reading
        lib = library(self.library)
        return reading(path, lib.read(path), f"{lib.name} {lib.reader}", dict(self.versions), fields)


@dataclass(frozen=True)
class PeerSpec:
    """A contestant from another library (see the module's docstring).

    ``label``: as written; ``library``, ``chunker``: the adapter and its chunker; ``options``:
    the chunker's, by the library's names (units: the library's: LangChain's ``chunk_size`` is
    characters, LlamaIndex's tokens of its own tokenizer); ``reader``: ``own`` or ``seamcut``;
    ``tokenizer``: what counts the model tokens of each chunk (the run's; None: the default
    model's), as a strategy's ``tokenizer`` option; ``versions``: the library's packages',
    taken where the spec was parsed."""
    label: str
    library: str
    chunker: str
    options: dict[str, Any] = field(default_factory=dict)
    reader: str = "own"
    tokenizer: Any = None
    versions: tuple[tuple[str, str], ...] = ()

    @property
    def name(self) -> str:
        """What an index built with it records as its strategy: the library and chunker, and
        the reader where it is seamcut's."""
        return f"{self.library}:{self.chunker}" + (":reader=seamcut" if self.reader == "seamcut" else "")

    @property
    def slug(self) -> str:
        return slug(self.label)

    @property
    def lib(self) -> Library:
        return library(self.library)

    @property
    def reads(self) -> PeerReader | None:
        """The library's reader where the spec reads with it; None: seamcut's reading."""
        return PeerReader(self.library, self.versions, adapter_code(self.library)) if self.reader == "own" else None

    def with_tokenizer(self, tokenizer: Any) -> "PeerSpec":
        return dataclasses.replace(self, tokenizer=tokenizer)

    def with_defaults(self, defaults: Mapping[str, Any]) -> "PeerSpec":
        """Itself: a run's ``size`` and ``overlap`` are seamcut's strategies' (in model
        tokens); a library's chunker keeps its own options, in its own units."""
        return self

    def describe(self) -> dict[str, Any]:
        """What a result records of the contestant: library, versions, reader, chunker, options."""
        lib = self.lib
        return {"library": self.library, "versions": dict(self.versions), "chunker": self.chunker,
                "splitter": lib.chunkers[self.chunker], "options": dict(self.options),
                "reader": f"{lib.name} {lib.reader}" if self.reader == "own" else "seamcut"}

    def cut(self, document: Document) -> tuple[Document, list[Any]]:
        """``document`` (the library's reading, or seamcut's) cut by the library's chunker, its
        chunks laid end to end (``seamcut.peers.layout.laid_out``)."""
        from .layout import laid_out, pieces_of
        lib = self.lib
        chunks = lib.cut(self.chunker, pieces_of(document), self.options)
        return laid_out(document, chunks, self.label, self.tokenizer)


@dataclass(frozen=True)
class ChunksSpec:
    """``chunks:PATH``: chunks made anywhere, read from a JSONL file (``seamcut.peers.made``);
    each file named to compare gets the chunks whose ``source`` names it. ``tokenizer``: as
    ``PeerSpec``'s."""
    label: str
    path: str
    tokenizer: Any = None

    @property
    def name(self) -> str:
        return "chunks"

    @property
    def slug(self) -> str:
        return slug(f"chunks:{Path(self.path).name}")

    @property
    def options(self) -> dict[str, Any]:
        return {"path": self.path}

    @property
    def reads(self) -> PeerReader | None:
        return None

    def with_tokenizer(self, tokenizer: Any) -> "ChunksSpec":
        return dataclasses.replace(self, tokenizer=tokenizer)

    def with_defaults(self, defaults: Mapping[str, Any]) -> "ChunksSpec":
        return self

    def describe(self) -> dict[str, Any]:
        return {"library": None, "versions": {}, "chunker": "chunks", "options": {"path": self.path},
                "reader": "chunks made elsewhere", "splitter": "read"}

    def cut(self, document: Document) -> tuple[Document, list[Any]]:
        from .layout import laid_out
        from .made import chunks_for
        return laid_out(document, chunks_for(self.path, document.source), self.label, self.tokenizer)


#: the specs whose chunks are a contestant's: laid out as a document of their own (``layout``)
CONTESTANTS = (PeerSpec, ChunksSpec)
#: what ``--strategies`` may name: one of seamcut's strategies, or a contestant
AnySpec = Union[StrategySpec, PeerSpec, ChunksSpec]


def is_contestant(spec: Any) -> bool:
    """Whether ``spec`` is a contestant's (``PeerSpec``, ``ChunksSpec``), not a seamcut strategy's."""
    return isinstance(spec, CONTESTANTS)


def described(c: Mapping[str, Any]) -> str:
    """What a contestant is, in one line: its reader, its chunker with its options, the versions."""
    opts = ", ".join(f"{k}={v!r}" for k, v in c["options"].items())
    chunker = c.get("splitter") or c["chunker"]
    versions = ", ".join(f"{p} {v}" for p, v in c["versions"].items())
    fed = c.get("embedded") or {}
    apart = "".join(f"; {fed[k]} of {fed['of']} chunks embedded {how}" for k, how in
                    (("truncated", "from their first tokens (longer than the model's input)"),
                     ("given", "from the text given with them")) if fed.get(k))
    return f"{c['reader']} + {chunker}({opts})" + (f"; {versions}" if versions else "") + apart


def parse_contestant(text: str) -> AnySpec:
    """A ``--strategies`` word: one of seamcut's strategies (``parse_spec``) or another
    library's pipeline, or chunks made elsewhere (``parse_peer``)."""
    if is_peer(text):
        return parse_peer(text)
    first = text.strip().split(":", 1)[0]
    if first not in REGISTRY:
        raise ConfigError(f"{text.strip()!r}: unknown strategy {first!r}; choose from {', '.join(REGISTRY)}, "
                          f"or another library's pipeline ({', '.join(LIBRARIES)}: LIBRARY:CHUNKER) or "
                          "chunks:PATH")
    return strategy_spec.parse_spec(text)  # looked up when called: one parse, wherever it is counted


def parse_peer(text: str) -> PeerSpec | ChunksSpec:
    """``LIBRARY:CHUNKER[:OPTION=VALUE...]`` or ``chunks:PATH`` (see the module's docstring).
    Raises ``ConfigError`` naming the spec and what is wrong (an unknown library, chunker or
    option, a bad value), ``MissingError`` naming the extra where the library is not installed."""
    label = text.strip()
    first, _, rest = label.partition(":")
    if first == "chunks":
        if not rest:
            raise ConfigError(f"{label!r}: give the file of chunks, chunks:PATH")
        from .made import check_file
        check_file(rest)
        return ChunksSpec(label, str(Path(rest).resolve()))  # a run's JSON names it from anywhere
    if first not in LIBRARIES:
        raise ConfigError(f"{label!r}: unknown library {first!r}; choose from {', '.join(LIBRARIES)}")
    lib = library(first)
    chunker, *pairs = rest.split(":") if rest else [""]
    if chunker not in lib.chunkers:
        raise ConfigError(f"{label!r}: {first} has no chunker {chunker!r}; it has {', '.join(lib.chunkers)}"
                          f" (write {first}:CHUNKER)")
    lib.check()
    known = lib.options(chunker)
    options: dict[str, Any] = {}
    reader = "own"
    for pair in pairs:
        key, sep, raw = pair.partition("=")
        key, raw = key.strip(), raw.strip()
        if not sep or not key:
            raise ConfigError(f"{label!r}: {pair!r} is not OPTION=VALUE")
        if key == "reader":
            if raw not in READERS:
                raise ConfigError(f"{label!r}: reader must be one of {', '.join(READERS)}, not {raw!r}")
            reader = raw
            continue
        if key not in known:
            raise ConfigError(f"{label!r}: {lib.chunkers[chunker]} has no option {key!r}; it has "
                              f"{', '.join(sorted(known)) or 'none a spec can set'} (and reader=seamcut)")
        options[key] = _typed(label, key, raw, known[key])
    return PeerSpec(label, first, chunker, options, reader, versions=tuple(sorted(lib.versions().items())))


def _typed(label: str, key: str, raw: str, default: Any) -> Any:
    """``raw`` as the type of the option's ``default`` (``typed_option``, as seamcut's options
    are typed); for a None default, a number where it reads as one, ``true``/``false``/``none``,
    else the word."""
    if default is not None:
        return typed_option(label, key, raw, type(default))
    low = raw.lower()
    if low in ("true", "false", "none"):
        return None if low == "none" else low == "true"
    for kind in (int, float):
        try:
            return kind(raw)
        except ValueError:
            pass
    return raw


def cut_as_judged(spec: "PeerSpec | ChunksSpec", document: Document) -> tuple[Document, list[Any]]:
    """What a contestant's index holds of the file ``document`` was read from (seamcut's reading
    of it): the file read again by the library's own reader where the spec reads with it, then
    cut and laid out (the chunks' own document, and the chunks), as a build does."""
    reads = spec.reads
    if reads is not None:
        fields = {k: document.metadata[k] for k in (*document.metadata.get(CATALOG_FIELDS, ()), ALIASES)
                  if k in document.metadata}
        document = reads.read(document.source, fields)
    return spec.cut(document)
