"""Chonkie's pipeline as its users run it: a text read from the file, then a chunker called on
that one text (``chunker(text)``).

Reader: Chonkie 1.x reads no PDF itself without a service or an extra program (its ``LiteParse``
chef needs the ``liteparse`` package and runs OCR by default; ``MistralOCR`` is Mistral's API),
so PDFs are read the way the usual "pypdf + Chonkie" pipeline reads them:
``PdfReader(path).pages[i].extract_text()``, a piece a page (``pages=(i + 1,)``). .txt and .md
are read by Chonkie's own ``TextChef`` (utf-8, the file's text as it is: no markdown parsing).

Chonkie chunks one text: ``cut`` joins the pieces with one newline, as
``"\\n".join(page.extract_text() for page in reader.pages)`` does, and gives the chunker that
text. Chonkie's ``start_index``/``end_index`` are exact offsets into it, so each chunk's pages
are the pages whose text it overlaps.

Chunkers, each with ``tokenizer="character"`` by default (offline: ``chunk_size`` counts
characters; a named tokenizer such as ``gpt2`` is fetched from the Hugging Face hub, which offline
is a ``MissingError``, never a quiet change to another tokenizer):

- ``recursive``: ``RecursiveChunker`` (``chunk_size=2048``, its default rules: paragraphs,
  sentences, punctuation, words, characters).
- ``token``: ``TokenChunker`` (``chunk_size=2048``, ``chunk_overlap=0``: an int counts tokens,
  a float below 1 is a share of ``chunk_size``).
- ``sentence``: ``SentenceChunker`` (``chunk_size=2048``, ``chunk_overlap=0`` tokens).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

from ..errors import ConfigError, InputError, MissingError
from .base import Library, Piece, signature_options

_CHUNKERS = {"recursive": "RecursiveChunker", "token": "TokenChunker", "sentence": "SentenceChunker"}
JOIN = "\n"  #: what ``cut`` puts between pieces (pypdf users' "\n".join of the pages' texts)


def read(path: str) -> list[Piece]:
    """A piece a page (pypdf) for a PDF; Chonkie's ``TextChef`` for .txt and .md."""
    suffix = Path(path).suffix.lower()
    if suffix == ".pdf":
        pypdf = LIBRARY.require("pypdf")
        try:
            reader = pypdf.PdfReader(path)
            return [Piece(page.extract_text(), (i + 1,)) for i, page in enumerate(reader.pages)]
        except Exception as exc:  # pypdf's own failure, in its words
            raise InputError(path, f"pypdf: {type(exc).__name__}: {exc}") from exc
    if suffix in (".txt", ".md"):
        chef = LIBRARY.require("chonkie.chef", "chonkie")
        try:
            document = chef.TextChef().process(path)
        except Exception as exc:
            raise InputError(path, f"chonkie TextChef: {type(exc).__name__}: {exc}") from exc
        return [Piece(document.content, (), dict(document.metadata))]
    raise InputError(path, "the chonkie contestant reads .pdf (pypdf), .txt and .md only")


def _chunker_class(chunker: str) -> Any:
    return getattr(LIBRARY.require("chonkie"), LIBRARY.named(chunker))


def options(chunker: str) -> dict[str, Any]:
    """The options of ``chunker``'s class whose defaults are scalars (or None), read from its
    ``__init__`` signature (``rules`` and ``delim`` are objects and lists: no spec options)."""
    return signature_options([_chunker_class(chunker).__init__])


def _make(chunker: str, settings: Mapping[str, Any]) -> Any:
    cls = _chunker_class(chunker)
    try:
        return cls(**settings)
    except Exception as exc:
        text = f"{type(exc).__name__}: {exc}"
        if "download" in text.lower() or "huggingface" in text.lower():
            raise MissingError(f"tokenizer {settings.get('tokenizer')!r}", f"chonkie {cls.__name__}",
                               f"Chonkie fetches it from the Hugging Face hub and could not ({text[:300]}); "
                               "tokenizer=character (its default) works offline") from exc
        raise ConfigError(f"chonkie {cls.__name__}: {text}") from exc


def _pages(starts: list[int], pieces: Sequence[Piece], start: int, end: int) -> tuple[int, ...]:
    """The pages of the pieces whose text overlaps ``[start, end)`` of the joined text."""
    pages: set[int] = set()
    for at, piece in zip(starts, pieces):
        if at < end and start < at + len(piece.text):
            pages.update(piece.pages)
    return tuple(sorted(pages))


def cut(chunker: str, pieces: Sequence[Piece], settings: Mapping[str, Any]) -> list[Piece]:
    """``pieces`` joined by ``JOIN`` and cut by ``chunker`` with ``settings`` (Chonkie's option
    names); each chunk's metadata holds Chonkie's ``start_index``, ``end_index`` (into the joined
    text) and ``token_count``."""
    LIBRARY.known(chunker, settings)
    splitter = _make(chunker, settings)
    starts, at = [], 0
    for piece in pieces:
        starts.append(at)
        at += len(piece.text) + len(JOIN)
    text = JOIN.join(piece.text for piece in pieces)
    try:
        chunks = splitter(text)
    except (ValueError, TypeError) as exc:
        raise ConfigError(f"chonkie {_CHUNKERS[chunker]}: {exc}") from exc
    return [Piece(c.text, _pages(starts, pieces, c.start_index, c.end_index),
                  {"start_index": c.start_index, "end_index": c.end_index, "token_count": c.token_count})
            for c in chunks]


LIBRARY = Library(
    name="chonkie", extra="chonkie", packages=("chonkie", "pypdf"),
    reader="pypdf's extract_text (PDF), Chonkie's TextChef (text)",
    chunkers=dict(_CHUNKERS), read=read, cut=cut, options=options)

__all__ = ["LIBRARY", "JOIN", "read", "cut", "options"]
