"""unstructured as its users run it: ``partition_pdf(filename=path, strategy="fast")`` (pdfminer's
text, no layout model) for a PDF, ``partition(filename=path)`` for any other file; then
``chunk_by_title(elements, **options)`` ("by_title") or ``chunk_elements`` ("basic").

Units: ``max_characters``, ``new_after_n_chars``, ``overlap`` and ``combine_text_under_n_chars``
are characters; ``max_tokens``/``new_after_n_tokens`` are tokens of ``tokenizer`` (tiktoken).
Defaults are unstructured's own (the chunkers' parameters default to None, meaning "the
library's default": 500 characters for ``max_characters``).

Offline: unstructured (0.18 on) classifies text with the spaCy model ``en_core_web_sm`` and,
where it is not installed, downloads it from GitHub at run time and installs it into
site-packages; ``read`` refuses first with a ``MissingError`` instead. It also sends a
telemetry ping at import unless ``DO_NOT_TRACK``/``SCARF_NO_ANALYTICS`` is set: both are set
here before it is imported. ``partition_pdf`` imports ``unstructured_inference`` (the ``pdf``
extra, which brings torch), even for the "fast" strategy.
"""
from __future__ import annotations

import os
from typing import Any, Mapping, Sequence

from ..errors import ConfigError, InputError, MissingError
from .base import Library, Piece, signature_options

#: the spaCy model unstructured's text classifier loads, and how to get it where a network is
SPACY_MODEL = "en_core_web_sm"
SPACY_HINT = ("install it where a network is reachable: python -m spacy download en_core_web_sm "
              "(unstructured pins en_core_web_sm 3.8.0, a wheel from github.com/explosion/"
              "spacy-models releases; it is not on PyPI)")
_CHUNKERS = {"by_title": ("unstructured.chunking.title", "chunk_by_title"),
             "basic": ("unstructured.chunking.basic", "chunk_elements")}


def _quiet() -> None:
    """No telemetry ping and no advertisement, before unstructured is imported."""
    for name in ("DO_NOT_TRACK", "SCARF_NO_ANALYTICS", "UNSTRUCTURED_DISABLE_NOTICE"):
        os.environ.setdefault(name, "1")


def _require(module: str) -> Any:
    _quiet()
    return LIBRARY.require(module, "unstructured[pdf]")


def _chunker(chunker: str) -> Any:
    LIBRARY.named(chunker)
    module, name = _CHUNKERS[chunker]
    return getattr(_require(module), name)


def check_model() -> None:
    """``MissingError`` where the spaCy model unstructured would download is not installed."""
    spacy = _require("spacy")
    if not spacy.util.is_package(SPACY_MODEL):
        raise MissingError(f"the spaCy model {SPACY_MODEL}", "the unstructured contestant",
                           SPACY_HINT)


def read(path: str) -> list[Piece]:
    """One Piece an element, in order: its text, its page and, in ``metadata["element"]``, the
    element as ``Element.to_dict()`` gives it (its class's name in ``type``, from which ``cut``
    rebuilds it); ``metadata["category"]`` is its category."""
    check_model()
    if str(path).lower().endswith(".pdf"):
        partition, kwargs = _require("unstructured.partition.pdf").partition_pdf, {"strategy": "fast"}
    else:
        partition, kwargs = _require("unstructured.partition.auto").partition, {}
    if not os.path.isfile(path):
        raise InputError(path, "no such file")
    try:
        elements = partition(filename=str(path), **kwargs)
    except MissingError:
        raise
    except ImportError as exc:
        raise MissingError(getattr(exc, "name", None) or str(exc), "the unstructured contestant",
                           LIBRARY.hint()) from exc
    except Exception as exc:  # unstructured and pdfminer raise many kinds on a bad file
        raise InputError(path, f"unstructured cannot read it: {type(exc).__name__}: {exc}") from exc
    out = []
    for element in elements:
        data = element.to_dict()
        page = element.metadata.page_number
        out.append(Piece(element.text, (page,) if page else (),
                         {"category": element.category, "element": data}))
    return out


def options(chunker: str) -> dict[str, Any]:
    """The chunker's keyword options with their defaults (None: unstructured's own default)."""
    return signature_options([_chunker(chunker)], keyword_only=True)


def _pages(chunk: Any) -> tuple[int, ...]:
    orig = getattr(chunk.metadata, "orig_elements", None) or []
    pages = {e.metadata.page_number for e in orig if e.metadata.page_number}
    if not pages and chunk.metadata.page_number:
        pages = {chunk.metadata.page_number}
    return tuple(sorted(pages))


def cut(chunker: str, pieces: Sequence[Piece], options: Mapping[str, Any]) -> list[Piece]:
    """The elements rebuilt from the pieces (``elements_from_dicts``, unstructured's own class
    registry) and chunked in one call, as users chunk a partition's output; each chunk's pages are
    those of the elements it combined (``orig_elements``), else its ``page_number``."""
    fn = _chunker(chunker)
    LIBRARY.known(chunker, options)
    missing = [i for i, p in enumerate(pieces) if "element" not in p.metadata]
    if missing:
        raise ConfigError(f"unstructured {chunker}: piece {missing[0]} has no element "
                          "(cut takes the pieces unstructured's read gave)")
    staging = _require("unstructured.staging.base")
    elements = staging.elements_from_dicts([dict(p.metadata["element"]) for p in pieces])
    try:
        chunks = fn(elements, **dict(options))
    except ValueError as exc:  # unstructured's own check of the options
        raise ConfigError(f"unstructured {chunker}: {exc}") from exc
    out = []
    for chunk in chunks:
        out.append(Piece(chunk.text, _pages(chunk),
                         {"category": chunk.category, "type": type(chunk).__name__}))
    return out



LIBRARY = Library(
    name="unstructured", extra="unstructured",
    packages=("unstructured", "unstructured-inference", "pdfminer.six", "spacy"),
    reader='partition_pdf(strategy="fast") / partition',
    chunkers={"by_title": "chunk_by_title", "basic": "chunk_elements"},
    read=read, cut=cut, options=options)

__all__ = ["LIBRARY", "read", "cut", "options", "check_model", "SPACY_MODEL"]
