"""Contestants in the view: other libraries' pipelines and chunks made elsewhere
(``seamcut.peers``), drawn over their own text, never over seamcut's reading.

A contestant's chunks are texts laid end to end into a document of their own
(``seamcut.peers.layout``): the same source and id as seamcut's reading of the file, another
``text``. Each chunk's span points into that laid-out text, so it is rebuilt here from the chunks
(``laid_out_document``: their texts laid end to end in order, checked against every span) and
drawn on a page of its own, ``docs/<doc_id>--<slug>.html``, by the same ``write_document`` as
seamcut's pages, without page images or boxes (the laid-out text has no pages).
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...errors import ConfigError
from ...model import Chunk, Document
from ...peers.layout import lay
from ...peers.spec import is_contestant
from ...strategies.spec import slug
from ..html import esc

#: metadata of seamcut's reading that does not hold for a laid-out text (its pages, boxes)
NOT_LAID_OUT = ("page_sizes", "page_starts", "pages", "page_extractors", "furniture")


def page_name(doc_id: str, label: str) -> str:
    """The file name (without ``.html``) of contestant ``label``'s page of the document ``doc_id``."""
    return f"{doc_id}--{slug(label)}"


def page_href(doc_id: str, label: str, chunk_id: str | None = None) -> str:
    """The link (from the view's folder) to contestant ``label``'s page of ``doc_id``, a chunk
    chosen where ``chunk_id`` is given."""
    return f"docs/{page_name(doc_id, label)}.html#s={slug(label)}" + (f"&c={chunk_id}" if chunk_id else "")


def laid_out_document(doc: Document, chunks: Sequence[Chunk], label: str) -> Document:
    """The text contestant ``label``'s ``chunks`` of ``doc`` (seamcut's reading) were laid into
    (``seamcut.peers.layout.laid_out``): their texts laid end to end in order (``lay``), with
    ``doc``'s source and id, title and language. Raises ``ConfigError`` where a chunk's span is not its
    text there (chunks not laid out by ``cut_as_judged``)."""
    ordered = sorted(chunks, key=lambda c: c.start)
    text, spans = lay([c.text for c in ordered])
    for c, span in zip(ordered, spans):
        if span != (c.start, c.end):
            raise ConfigError(f"{label}: chunk {c.id} of {doc.source} is not laid out at {c.start}-{c.end}: "
                              "its chunks did not come from cut_as_judged")
    meta = {k: v for k, v in doc.metadata.items() if k not in NOT_LAID_OUT}
    meta.update({"laid_out": "chunks", "contestant": label})
    return Document(text, source=doc.source, id=doc.id, language=doc.language, metadata=meta)


def laid_out_note(label: str) -> str:
    """The line a contestant's page says what its text is."""
    return (f"{label}'s chunks laid end to end, one blank line between two: a text of their own, not "
            "seamcut's reading of the file (offsets count in it; no pages, no boxes).")


def contestant_record(spec: Any, run: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """What the index says of a contestant: the run's ``contestant`` record of it where the run
    has one (the versions it ran with), else the spec's ``describe()``."""
    for s in (run or {}).get("strategies") or ():
        if isinstance(s, Mapping) and s.get("name") == spec.label and isinstance(s.get("contestant"), Mapping):
            return dict(s["contestant"])
    return dict(spec.describe())


def contestant_item(label: str, info: Mapping[str, Any]) -> str:
    """One contestant as a list item of the index: library and versions, reader, chunker and
    its options."""
    versions = ", ".join(f"{k} {v}" for k, v in sorted((info.get("versions") or {}).items()))
    options = ", ".join(f"{k}={v}" for k, v in (info.get("options") or {}).items())
    if not info.get("library"):
        path = (info.get("options") or {}).get("path", "?")
        return (f'<li class="contestant" data-strategy="{esc(slug(label))}"><b>{esc(label)}</b>: '
                f'<span class="library">chunks made elsewhere</span>, read as they are from {esc(str(path))}</li>')
    library = info["library"]
    splitter = info.get("splitter") or info.get("chunker") or ""
    return (f'<li class="contestant" data-strategy="{esc(slug(label))}"><b>{esc(label)}</b>: '
            f'library <span class="library">{esc(library)}</span>'
            f"{' (' + esc(versions) + ')' if versions else ''}"
            f" · reader {esc(info.get('reader') or '?')}"
            f" · chunker {esc(splitter)}{'(' + esc(options) + ')' if options else ''}</li>")


__all__ = ["NOT_LAID_OUT", "is_contestant", "page_name", "page_href", "laid_out_document", "laid_out_note",
           "contestant_record", "contestant_item"]
