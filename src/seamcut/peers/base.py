"""What an adapter of another library's pipeline gives seamcut: texts (``Piece``), the library's
reader and chunkers (``Library``), and the one contract every adapter module keeps.

An adapter module (``seamcut.peers.langchain``, ...) imports its library only inside its
functions (``seamcut.errors.require``, naming the pip extra), so that listing the peers costs
nothing and a missing library is a one-line ``MissingError``. It defines one ``LIBRARY``:

    LIBRARY = Library(
        name="langchain", extra="langchain",
        packages=("langchain-community", "langchain-text-splitters", "pypdf"),
        reader="PyPDFLoader",                      # the reader its users call, in words
        chunkers={"recursive": "RecursiveCharacterTextSplitter", ...},
        read=read,                                 # (path) -> list[Piece]
        cut=cut,                                   # (chunker, pieces, options) -> list[Piece]
        options=options)                           # (chunker) -> {name: default}

``read(path)`` reads a file as the library's users read it (its own loader, its own defaults)
and gives the texts that loader gives (a PDF: usually a page each, ``pages=(n,)``), in order; a
file it cannot read raises ``InputError`` naming the file. ``cut(chunker, pieces, options)``
cuts them as the library's users cut a loader's output (``split_documents``: each piece on its
own; a chunker given one text: the pieces joined as the library joins them), with the
library's own option names and its defaults for every option not given; each chunk a ``Piece``
with the pages it came from where the library says. ``options(chunker)`` names the options a
spec may set, each with its default (None where the library's default is None), read from the
library's own signature; it imports the library.
"""
from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field
from importlib import metadata as _metadata
from typing import Any, Callable, Iterable, Mapping, Sequence

from ..errors import ConfigError, MissingError, require


@dataclass(frozen=True)
class Piece:
    """A text another library's reader or chunker gave: ``text`` as it gave it, the 1-based
    ``pages`` it came from where known, and the library's metadata kept as plain data."""
    text: str
    pages: tuple[int, ...] = ()
    metadata: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Library:
    """One library's pipeline as its users run it (see the module's docstring)."""
    name: str
    extra: str
    packages: tuple[str, ...]
    reader: str
    chunkers: Mapping[str, str]
    read: Callable[[str], list[Piece]]
    cut: Callable[[str, Sequence[Piece], Mapping[str, Any]], list[Piece]]
    options: Callable[[str], dict[str, Any]]

    def named(self, chunker: str) -> str:
        """The library's own name of ``chunker`` (its class or function); ``ConfigError`` naming
        the chunkers it has where it has no such."""
        if chunker not in self.chunkers:
            raise ConfigError(f"the {self.name} contestant has no chunker {chunker!r}; it has "
                              f"{', '.join(sorted(self.chunkers))}")
        return self.chunkers[chunker]

    def known(self, chunker: str, settings: Mapping[str, Any]) -> dict[str, Any]:
        """The options ``chunker`` takes with their defaults (``options``); ``ConfigError`` naming
        an option among ``settings`` it does not take, and those it does."""
        known = self.options(chunker)
        unknown = sorted(set(settings) - set(known))
        if unknown:
            raise ConfigError(f"{self.name} {self.named(chunker)} has no option {', '.join(unknown)}; "
                              f"it has {', '.join(sorted(known))}")
        return known

    def hint(self) -> str:
        return f"pip install 'seamcut[{self.extra}]'"

    def require(self, module: str, what: str | None = None) -> Any:
        """``module`` imported, or a ``MissingError`` naming this library's extra."""
        return require(module, f"the {self.name} contestant", self.hint(), what)

    def versions(self) -> dict[str, str]:
        """The installed version of each of ``packages`` ("missing" where one is not)."""
        out = {}
        for p in self.packages:
            try:
                out[p] = _metadata.version(p)
            except _metadata.PackageNotFoundError:
                out[p] = "missing"
        return out

    def check(self) -> None:
        """``MissingError`` where a package of ``packages`` is not installed."""
        missing = [p for p, v in self.versions().items() if v == "missing"]
        if missing:
            raise MissingError(", ".join(missing), f"the {self.name} contestant", self.hint())


#: annotations of parameters a word in a spec cannot give (callables, collections, managers)
_NOT_SCALAR = re.compile(r"Callable|Manager|Set|Collection|List|list\[|Dict|dict\[|Sequence|Iterable")


def scalar(value: Any) -> bool:
    """Whether ``value`` is a word, a number, a truth value or None: what a spec can give."""
    return value is None or isinstance(value, (str, int, float, bool))


def plain(value: Any) -> Any:
    """``value`` as a spec or a cache keeps it: itself where ``scalar``, else its ``str``."""
    return value if scalar(value) else str(value)


def signature_options(functions: Iterable[Callable[..., Any]], skip: Iterable[str] = (),
                      keyword_only: bool = False) -> dict[str, Any]:
    """The parameters of ``functions`` (a library's constructors or chunking functions) that a
    spec may set, with their defaults (None where a parameter has none): those whose default is
    ``scalar`` and whose annotation is no callable or collection. A name several functions take
    is decided by the first that takes it (a subclass's ``__init__`` before its base's); ``skip``:
    names left out; ``keyword_only``: keyword-only parameters alone."""
    out: dict[str, Any] = {}
    seen = set(skip) | {"self"}
    for fn in functions:
        for name, p in inspect.signature(fn).parameters.items():
            if name in seen or p.kind in (p.VAR_KEYWORD, p.VAR_POSITIONAL):
                continue
            if keyword_only and p.kind is not p.KEYWORD_ONLY:
                continue
            seen.add(name)
            default = None if p.default is p.empty else p.default
            if scalar(default) and not _NOT_SCALAR.search(str(p.annotation)):
                out[name] = default
    return out


__all__ = ["Piece", "Library", "plain", "scalar", "signature_options"]
