"""LlamaIndex's pipeline as its users run it: ``SimpleDirectoryReader(input_files=[path])
.load_data()``, then a node parser's ``get_nodes_from_documents(documents)``.

Reader: ``SimpleDirectoryReader`` picks the reader by suffix (``llama-index-readers-file``): a PDF
goes to ``PDFReader`` (pypdf's ``extract_text``), one document a page in order, so
``pages=(n,)`` counted from 1 (its ``page_label`` metadata is the PDF's own label, kept as it
is); .txt/.md and other text are read whole (one document). The only departure from the user's
call is ``raise_on_error=True``: by default the reader prints a failure and returns nothing,
here it is an ``InputError`` with its message.

Each piece keeps the document's metadata (``file_path``, ``file_name``, dates, ``page_label``)
and, under LlamaIndex's own field names ``excluded_embed_metadata_keys`` and
``excluded_llm_metadata_keys``, what the reader leaves out of the metadata text: both parsers
are metadata-aware (``include_metadata=True``), so the metadata text (``file_path``, which is the
path as given) takes part of each chunk's budget, as it does for LlamaIndex's users.

Chunkers, ``chunk_size`` in tokens of LlamaIndex's global tokenizer (tiktoken's encoding for
gpt-3.5-turbo, cl100k_base, whose file llama-index-core bundles in ``_static/tiktoken_cache``;
with ``TIKTOKEN_CACHE_DIR`` set elsewhere tiktoken looks there and may need a download, which is
a ``MissingError`` offline):

- ``sentence``: ``SentenceSplitter`` (``chunk_size=1024``, ``chunk_overlap=200``; sentences by
  NLTK's punkt, whose data llama-index-core bundles too).
- ``token``: ``TokenTextSplitter`` (``chunk_size=1024``, ``chunk_overlap=20``).
"""
from __future__ import annotations

import os
from typing import Any, Mapping, Sequence

from ..errors import ConfigError, InputError, MissingError
from .base import Library, Piece, plain, signature_options

_PARSERS = {"sentence": "SentenceSplitter", "token": "TokenTextSplitter"}
_EXCLUDED = ("excluded_embed_metadata_keys", "excluded_llm_metadata_keys")


def read(path: str) -> list[Piece]:
    """The documents ``SimpleDirectoryReader`` gives for ``path``, in order."""
    core = LIBRARY.require("llama_index.core", "llama-index-core")
    LIBRARY.require("llama_index.readers.file", "llama-index-readers-file")
    try:
        documents = core.SimpleDirectoryReader(input_files=[path], raise_on_error=True).load_data()
    except ImportError as exc:
        raise MissingError(str(exc), "the llamaindex contestant", LIBRARY.hint()) from exc
    except Exception as exc:  # the reader's own failure, in its words
        cause = exc.__cause__ if exc.__cause__ is not None else exc
        raise InputError(path, f"SimpleDirectoryReader: {type(cause).__name__}: {cause}") from exc
    is_pdf = str(path).lower().endswith(".pdf")
    pieces = []
    for i, doc in enumerate(documents):
        meta: dict[str, Any] = {str(k): plain(v) for k, v in doc.metadata.items()}
        for name in _EXCLUDED:
            meta[name] = tuple(getattr(doc, name))
        pieces.append(Piece(doc.text, (i + 1,) if is_pdf else (), meta))
    return pieces


def _parser_class(chunker: str) -> Any:
    module = LIBRARY.require("llama_index.core.node_parser", "llama-index-core")
    return getattr(module, LIBRARY.named(chunker))


def options(chunker: str) -> dict[str, Any]:
    """The scalar options of ``chunker``'s parser with their defaults, read from its
    ``__init__`` signature (a callable, a callback manager or a list is no spec option)."""
    return signature_options([_parser_class(chunker).__init__])


def _tokenizer() -> None:
    """LlamaIndex's global tokenizer loaded now, or ``MissingError`` where it needs a download."""
    core = LIBRARY.require("llama_index.core", "llama-index-core")
    if core.global_tokenizer is not None:
        return
    LIBRARY.require("tiktoken")
    before = os.environ.get("TIKTOKEN_CACHE_DIR")
    try:
        core.utils.get_tokenizer()
    except Exception as exc:  # tiktoken's download of cl100k_base failed
        if before is None:  # get_tokenizer sets it for the call and leaves it set when it fails
            os.environ.pop("TIKTOKEN_CACHE_DIR", None)
        raise MissingError("tiktoken's cl100k_base", "the llamaindex contestant's default tokenizer",
                           "llama-index-core bundles it, but tiktoken looked in TIKTOKEN_CACHE_DIR and "
                           f"could not download it ({type(exc).__name__}: {exc})") from exc


def cut(chunker: str, pieces: Sequence[Piece], settings: Mapping[str, Any]) -> list[Piece]:
    """``pieces`` as documents, cut by ``chunker``'s parser with ``settings`` (LlamaIndex's
    option names); each chunk keeps its node's metadata and ``start_char_idx``/``end_char_idx``
    into its document's text."""
    LIBRARY.known(chunker, settings)
    core = LIBRARY.require("llama_index.core", "llama-index-core")
    _tokenizer()
    try:
        parser = _parser_class(chunker)(**settings)
    except (ValueError, TypeError) as exc:  # pydantic's ValidationError is a ValueError
        raise ConfigError(f"llamaindex {_PARSERS[chunker]}: {exc}") from exc
    documents, where = [], {}
    for i, piece in enumerate(pieces):
        meta = {k: v for k, v in piece.metadata.items() if k not in _EXCLUDED}
        doc = core.Document(text=piece.text, metadata=meta)
        for name in _EXCLUDED:
            setattr(doc, name, list(piece.metadata.get(name, ())))
        documents.append(doc)
        where[doc.id_] = i
    try:
        nodes = parser.get_nodes_from_documents(documents)
    except ValueError as exc:  # metadata longer than chunk_size, overlap larger than size
        raise ConfigError(f"llamaindex {_PARSERS[chunker]}: {exc}") from exc
    out = []
    for node in nodes:
        meta = {k: plain(v) for k, v in node.metadata.items()}
        meta.update(start_char_idx=node.start_char_idx, end_char_idx=node.end_char_idx)
        source = where.get(node.ref_doc_id)
        out.append(Piece(node.get_content(), pieces[source].pages if source is not None else (), meta))
    return out


LIBRARY = Library(
    name="llamaindex", extra="llamaindex",
    packages=("llama-index-core", "llama-index-readers-file", "pypdf", "tiktoken"),
    reader="SimpleDirectoryReader (PDFReader for PDFs)",
    chunkers=dict(_PARSERS), read=read, cut=cut, options=options)

__all__ = ["LIBRARY", "read", "cut", "options"]
