"""docling as its users run it: ``DocumentConverter().convert(path).document`` (the standard PDF
pipeline: layout model, TableFormer, OCR), then ``HybridChunker`` (docling-core) with the text
users embed, ``chunker.contextualize(chunk)``, as each chunk's text (``metadata["raw"]``:
``chunk.text``).

Units: ``max_tokens`` is tokens of the chunker's tokenizer (default the Hugging Face tokenizer
``sentence-transformers/all-MiniLM-L6-v2``; None: that tokenizer's own limit).

Offline: docling fetches its models from the Hugging Face hub at first use (layout
``docling-project/docling-layout-heron``, tables ``docling-project/docling-models``, RapidOCR's
models), and HybridChunker its tokenizer; none is on PyPI. Every call here runs with the hub
offline (``HF_HUB_OFFLINE=1``), so nothing is fetched: what is not in the Hugging Face cache or in
``DOCLING_ARTIFACTS_PATH`` (docling's own setting) is refused with a ``MissingError`` naming it,
before any file is converted.
"""
from __future__ import annotations

import contextlib
import os
import re
from typing import Any, Iterator, Mapping, Sequence

from ..errors import ConfigError, InputError, MissingError
from .base import Library, Piece

DEFAULT_TOKENIZER = "sentence-transformers/all-MiniLM-L6-v2"
MODELS_HINT = ("download them where a network is reachable: `docling-tools models download` "
               "(into ~/.cache/docling/models; then set DOCLING_ARTIFACTS_PATH to that folder), "
               "or run docling once online to fill the Hugging Face cache")
TOKENIZER_HINT = ("download it into the Hugging Face cache where a network is reachable: "
                  "`hf download {name}`")


@contextlib.contextmanager
def offline() -> Iterator[None]:
    """The Hugging Face hub switched off for the call (its env variable and, where the hub is
    already imported, its constant), restored afterwards."""
    before = os.environ.get("HF_HUB_OFFLINE")
    os.environ["HF_HUB_OFFLINE"] = "1"
    constants, kept = None, None
    with contextlib.suppress(ImportError):
        from huggingface_hub import constants
        kept, constants.HF_HUB_OFFLINE = constants.HF_HUB_OFFLINE, True
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("HF_HUB_OFFLINE", None)
        else:
            os.environ["HF_HUB_OFFLINE"] = before
        if constants is not None:
            constants.HF_HUB_OFFLINE = kept


def _converter() -> Any:
    """A DocumentConverter whose PDF pipeline has loaded its models, or ``MissingError``."""
    dc = LIBRARY.require("docling.document_converter", "docling")
    base = LIBRARY.require("docling.datamodel.base_models", "docling")
    converter = dc.DocumentConverter()
    try:
        converter.initialize_pipeline(base.InputFormat.PDF)
    except (OSError, RuntimeError, ValueError) as exc:  # FileNotFoundError, LocalEntryNotFoundError
        conf = LIBRARY.require("docling.datamodel.settings", "docling").settings
        where = str(conf.artifacts_path or "the Hugging Face cache")  # env read at import
        said = " ".join(f"{e}" for e in (exc, exc.__cause__, exc.__context__) if e is not None)
        repo = re.search(r"models/([\w.-]+/[\w.-]+)/revision", said)
        what = f"the model {repo.group(1)}" if repo else "docling's models"
        raise MissingError(f"{what} (in {where}: {' '.join(str(exc).split())})",
                           "the docling contestant", MODELS_HINT) from exc
    return converter


def read(path: str) -> list[Piece]:
    """One Piece: the converted document as Markdown (``export_to_markdown``), all its pages, and
    the DoclingDocument itself as plain data in ``metadata["document"]`` (``cut`` chunks it)."""
    with offline():
        converter = _converter()
        if not os.path.isfile(path):
            raise InputError(path, "no such file")
        try:
            doc = converter.convert(str(path)).document
        except Exception as exc:  # docling's ConversionError and the backends' own
            raise InputError(path, f"docling cannot convert it: {type(exc).__name__}: {exc}") from exc
    pages = tuple(sorted(int(n) for n in doc.pages))
    return [Piece(doc.export_to_markdown(), pages, {"document": doc.export_to_dict()})]


def _known(chunker: str) -> None:
    LIBRARY.named(chunker)


def options(chunker: str) -> dict[str, Any]:
    """HybridChunker's scalar fields with their defaults, plus ``tokenizer`` (a Hugging Face
    model name) and ``max_tokens`` (None: the tokenizer's limit)."""
    _known(chunker)
    chunking = LIBRARY.require("docling.chunking", "docling")
    found: dict[str, Any] = {"tokenizer": DEFAULT_TOKENIZER, "max_tokens": None}
    for name, f in chunking.HybridChunker.model_fields.items():
        if name != "tokenizer" and (f.default is None or isinstance(f.default, (int, float, bool, str))):
            found[name] = f.default
    return found


def _tokenizer(name: str, max_tokens: int | None) -> Any:
    hf = LIBRARY.require("docling_core.transforms.chunker.tokenizer.huggingface", "docling-core")
    kwargs = {} if max_tokens is None else {"max_tokens": max_tokens}
    try:
        return hf.HuggingFaceTokenizer.from_pretrained(model_name=name, **kwargs)
    except OSError as exc:
        raise MissingError(f"the tokenizer {name}", "the docling contestant",
                           TOKENIZER_HINT.format(name=name)) from exc


def _pages(chunk: Any) -> tuple[int, ...]:
    return tuple(sorted({p.page_no for item in chunk.meta.doc_items for p in item.prov}))


def cut(chunker: str, pieces: Sequence[Piece], options: Mapping[str, Any]) -> list[Piece]:
    """Each piece's document chunked by HybridChunker; each chunk's text ``contextualize(chunk)``,
    ``metadata["raw"]`` its ``chunk.text``, ``metadata["headings"]`` its headings, its pages those
    of its doc items."""
    known = LIBRARY.known(chunker, options)
    chunking = LIBRARY.require("docling.chunking", "docling")
    types = LIBRARY.require("docling_core.types.doc", "docling-core")
    given = {**known, **dict(options)}
    fields = {k: v for k, v in given.items() if k not in ("tokenizer", "max_tokens")}
    out = []
    with offline():
        tokenizer = _tokenizer(given["tokenizer"], given["max_tokens"])
        try:
            hybrid = chunking.HybridChunker(tokenizer=tokenizer, **fields)
        except ValueError as exc:  # pydantic's ValidationError
            raise ConfigError(f"docling {chunker}: {exc}") from exc
        for i, piece in enumerate(pieces):
            if "document" not in piece.metadata:
                raise ConfigError(f"docling {chunker}: piece {i} has no document "
                                  "(cut takes the pieces docling's read gave)")
            doc = types.DoclingDocument.model_validate(piece.metadata["document"])
            for chunk in hybrid.chunk(dl_doc=doc):
                out.append(Piece(hybrid.contextualize(chunk=chunk), _pages(chunk),
                                 {"raw": chunk.text, "headings": list(chunk.meta.headings or [])}))
    return out



LIBRARY = Library(
    name="docling", extra="docling",
    packages=("docling", "docling-core"),
    reader="DocumentConverter().convert",
    chunkers={"hybrid": "HybridChunker (contextualized)"},
    read=read, cut=cut, options=options)

__all__ = ["LIBRARY", "read", "cut", "options", "offline", "DEFAULT_TOKENIZER"]
