"""pymupdf4llm as its users run it for RAG: ``pymupdf4llm.to_markdown(path)`` (here with
``page_chunks=True``: the same Markdown, a page at a time), then LangChain's
``MarkdownHeaderTextSplitter`` on the headers ``#`` to ``######`` and a
``RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=200)`` over its sections (the
pattern LangChain's and PyMuPDF's guides show).

Units: ``chunk_size`` and ``chunk_overlap`` are characters (``len``). Their defaults here are the
pipeline's 1000/200, not the splitter's own 4000/200.

Offline: pymupdf 2.x bundles pymupdf4llm and its layout models (ONNX files inside the wheel, run
by onnxruntime); nothing is fetched. A page without text is OCR'd with Tesseract where the
``tesseract`` program is installed (pymupdf4llm's own choice; without it the page stays empty).
"""
from __future__ import annotations

import inspect
from typing import Any, Mapping, Sequence

from ..errors import ConfigError, InputError
from .base import Library, Piece, scalar, signature_options

#: the pipeline's sizes (characters), which differ from RecursiveCharacterTextSplitter's 4000/200
PIPELINE_DEFAULTS = {"chunk_size": 1000, "chunk_overlap": 200}
#: the header levels the pipeline splits on, with LangChain's metadata names
HEADERS = [("#" * n, f"Header {n}") for n in range(1, 7)]
_NOT_OPTIONS = {"self", "headers_to_split_on", "custom_header_patterns", "separators",
                "length_function", "kwargs", "add_start_index"}


def _splitters() -> tuple[Any, Any]:
    lts = LIBRARY.require("langchain_text_splitters", "langchain-text-splitters")
    return lts.MarkdownHeaderTextSplitter, lts.RecursiveCharacterTextSplitter


def _known(chunker: str) -> None:
    LIBRARY.named(chunker)


def read(path: str) -> list[Piece]:
    """One Piece a page: ``to_markdown(path, page_chunks=True)``'s ``text`` with its 1-based page
    number and the page's metadata (the file's metadata plus ``page_number``)."""
    pymupdf4llm = LIBRARY.require("pymupdf4llm")
    try:
        pages = pymupdf4llm.to_markdown(str(path), page_chunks=True)
    except Exception as exc:  # pymupdf raises its own types (FileDataError, FileNotFoundError...)
        raise InputError(path, f"pymupdf4llm cannot read it: {type(exc).__name__}: {exc}") from exc
    out = []
    for i, page in enumerate(pages):
        meta = {k: v for k, v in dict(page.get("metadata") or {}).items() if scalar(v)}
        number = int(meta.get("page_number") or i + 1)
        out.append(Piece(page["text"], (number,), meta))
    return out


def options(chunker: str) -> dict[str, Any]:
    """The scalar options of MarkdownHeaderTextSplitter and RecursiveCharacterTextSplitter (and
    its TextSplitter base) with their defaults, ``chunk_size``/``chunk_overlap`` the pipeline's."""
    _known(chunker)
    header, recursive = _splitters()
    found = signature_options([header.__init__, recursive.__init__, recursive.__mro__[1].__init__], skip=_NOT_OPTIONS)
    found.update(PIPELINE_DEFAULTS)
    return found


def _page_of_lines(pieces: Sequence[Piece]) -> list[tuple[str, tuple[int, ...]]]:
    """Each stripped line of the joined Markdown with the page(s) it lies on."""
    lines: list[tuple[str, tuple[int, ...]]] = []
    carry = ""
    carry_pages: tuple[int, ...] = ()
    for piece in pieces:
        parts = piece.text.split("\n")
        parts[0] = carry + parts[0]
        first_pages = tuple(sorted(set(carry_pages) | set(piece.pages))) if carry else piece.pages
        for j, line in enumerate(parts[:-1]):
            lines.append((line.strip(), first_pages if j == 0 else piece.pages))
        carry, carry_pages = parts[-1], first_pages if len(parts) == 1 else piece.pages
    if carry:
        lines.append((carry.strip(), carry_pages))
    return lines


def _pages(text: str, lines: list[tuple[str, tuple[int, ...]]], start: int) -> tuple[tuple[int, ...], int]:
    """The pages of ``text``'s lines, found in ``lines`` in order from ``start``; and where the
    chunk's first line was found (the next chunk, overlapping, starts there or later)."""
    pages: set[int] = set()
    cursor, first = start, None
    for want in (w.strip() for w in text.split("\n")):
        if not want:
            continue
        for k in range(cursor, len(lines)):
            if lines[k][0] and (want in lines[k][0] or lines[k][0] in want):
                pages.update(lines[k][1])
                first = k if first is None else first
                cursor = k
                break
    return tuple(sorted(pages)), start if first is None else first


def cut(chunker: str, pieces: Sequence[Piece], options: Mapping[str, Any]) -> list[Piece]:
    """The pages joined as ``to_markdown`` joins them (concatenated), split on Markdown headers,
    the sections cut with ``split_documents``; each chunk with its header metadata and the pages
    its lines come from."""
    _known(chunker)
    header_cls, recursive_cls = _splitters()
    options_ = {**PIPELINE_DEFAULTS, **dict(options)}
    LIBRARY.known(chunker, options_)
    header_names = set(inspect.signature(header_cls.__init__).parameters)
    h_opts = {k: v for k, v in options_.items() if k in header_names}
    r_opts = {k: v for k, v in options_.items() if k not in header_names}
    try:
        header = header_cls(headers_to_split_on=HEADERS, **h_opts)
        recursive = recursive_cls(**r_opts)
    except (TypeError, ValueError) as exc:
        raise ConfigError(f"pymupdf4llm markdown: {exc}") from exc
    text = "".join(p.text for p in pieces)
    docs = recursive.split_documents(header.split_text(text))
    lines = _page_of_lines(pieces)
    out, start = [], 0
    for doc in docs:
        pages, start = _pages(doc.page_content, lines, start)
        out.append(Piece(doc.page_content, pages, dict(doc.metadata)))
    return out



LIBRARY = Library(
    name="pymupdf4llm", extra="pymupdf4llm",
    packages=("pymupdf", "pymupdf4llm", "langchain-text-splitters"),
    reader="pymupdf4llm.to_markdown(page_chunks=True)",
    chunkers={"markdown": "MarkdownHeaderTextSplitter (# to ######) + "
                          "RecursiveCharacterTextSplitter(1000, 200)"},
    read=read, cut=cut, options=options)

__all__ = ["LIBRARY", "read", "cut", "options", "PIPELINE_DEFAULTS", "HEADERS"]
