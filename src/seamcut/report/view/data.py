"""What one document's view draws, as plain data: its text, pages and elements, and for each
strategy its chunks (spans, tokens, label, parent, boxes) cut into sections that the page draws
as they scroll into view, with ``inspect``'s findings placed on them.

Everything here is JSON-ready; ``build`` writes it into a per-document ``<script>`` file that
sets a global, so the page opens from disk (file://) without fetching anything. Offsets are
code-point indexes into ``Document.text``; box coordinates are PDF points from the page's
top-left corner (the ``boxes`` contract), page sizes in points.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from ...diagnose import Inspection, inspect_chunks
from ...model import Chunk, Document
from ...index.rows import searchable
from ...strategies.spec import slug as spec_slug

#: a text section holds at least this many code points (the page draws a section at a time)
SECTION_CHARS = 6000

#: the fields of one chunk row in the data, in order (the page reads them by position)
#: ``from``/``to``: the part of the span the text pane draws as this chunk's own: after the text it
#: shares with the chunk before (drawn once, in that chunk, as overlap), without the whitespace it
#: starts or ends with (drawn between chunks)
CHUNK_FIELDS = ("id", "start", "end", "from", "tokens", "head", "parent", "role", "boxes", "flags", "to")


@dataclass(frozen=True)
class Chunking:
    """One strategy's chunks of one document. ``label``: the spec as written (compare's name);
    ``overlap_asked``: whether the strategy was asked to repeat text between neighbours (only
    then is a pair sharing nothing a finding); ``model``: the tokenizer ``inspect`` counts with
    (None: the default model)."""

    label: str
    chunks: Sequence[Chunk]
    overlap_asked: bool
    model: Any = None
    slug: str = field(default="")

    def __post_init__(self) -> None:
        if not self.slug:
            object.__setattr__(self, "slug", spec_slug(self.label))


def document_data(doc: Document, chunkings: Sequence[Chunking], pages_url: str = "",
                  page_sizes: Sequence[Sequence[float]] | None = None) -> dict[str, Any]:
    """The view's data for ``doc``: ``text``, ``pages`` (``[[width, height, first offset], ...]``
    in points, empty without pages or sizes), ``pages_url`` (folder of the page images, relative
    to the document's page; empty: none), ``elements`` (``[kind, start, end, page, bbox or
    null]``), ``laid_out`` (whether the text is a contestant's chunks laid end to end, and
    ``contestant``: its label) and ``strategies`` (``strategy_data`` of each). ``page_sizes``: the pages' sizes
    in points where the document does not carry them (``page_sizes`` in its metadata)."""
    sizes = doc.metadata.get("page_sizes") or page_sizes or []
    starts = list(doc.page_starts)
    pages = [[float(w), float(h), starts[i] if i < len(starts) else None]
             for i, (w, h) in enumerate(sizes)]
    elements = [[e.kind, e.start, e.end, e.page, list(e.metadata["bbox"])
                 if e.metadata.get("bbox") else None] for e in doc.elements]
    return {"id": doc.id, "source": doc.source, "title": doc.metadata.get("title") or doc.source,
            "text": doc.text, "pages": pages, "page_count": len(sizes) or len(starts),
            "pages_url": pages_url if sizes else "", "elements": elements,
            "laid_out": doc.metadata.get("laid_out") == "chunks", "contestant": doc.metadata.get("contestant"),
            "strategies": [strategy_data(doc, c) for c in chunkings]}


def strategy_data(doc: Document, chunking: Chunking) -> dict[str, Any]:
    """One strategy's chunks of ``doc`` as rows (``CHUNK_FIELDS``), its ``sections``
    (``[first chunk, last chunk + 1, text start, text end]`` over the top-level chunks), and
    ``findings`` from ``inspect`` (``findings``)."""
    chunks = sorted(chunking.chunks, key=lambda c: (c.start, c.metadata.get("role") != "parent", c.end))
    index = {c.id: i for i, c in enumerate(chunks)}
    searched = searchable(chunks)
    ins = inspect_chunks(searched, sources=[doc], model=chunking.model,
                         overlap_asked=chunking.overlap_asked)
    found = findings(ins, searched)
    flags: dict[str, list[str]] = {}
    for f in found:
        for cid in f["chunks"]:
            flags.setdefault(cid, []).append(f["kind"])
    rows = []
    text = doc.text
    drawn_to: dict[str | None, int] = {}  # where the text drawn so far ends, per parent
    for c in chunks:
        parent = c.parent_id if c.parent_id in index else None
        # overlap is drawn once, inside the chunk before: this chunk's own text starts after it
        a, b = min(max(c.start, drawn_to.get(parent, 0)), c.end), c.end
        drawn_to[parent] = max(drawn_to.get(parent, 0), c.end)
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        role = c.metadata.get("role") or ""
        rows.append([c.id, c.start, c.end, a, c.tokens, head(c),
                     index[parent] if parent is not None else -1, role,
                     [list(x) for x in c.metadata.get("boxes") or ()], sorted(set(flags.get(c.id, ()))), b])
    return {"slug": chunking.slug, "label": chunking.label, "overlap_asked": chunking.overlap_asked,
            "max_input_tokens": ins.max_input_tokens, "model": ins.model, "chunks": rows,
            "sections": sections(rows, len(doc.text)), "findings": found,
            "leaves": len(searched)}


def head(c: Chunk) -> str:
    """The label drawn before a chunk: its context (the heading path a strategy put in front of
    its text), on one line; empty where it has none."""
    return " ".join(c.context.split()) or " / ".join(c.heading_path)


def sections(rows: Sequence[Sequence[Any]], length: int, size: int = SECTION_CHARS) -> list[list[int]]:
    """The top-level chunk rows grouped into runs of at least ``size`` code points of text, each
    ``[first row, last row + 1, text start, text end]``; together the runs cover ``[0, length)``
    (text before, between and after chunks included) and split only between top-level chunks."""
    out: list[list[int]] = []
    top = [i for i, r in enumerate(rows) if r[6] == -1]
    first, begin = 0, 0
    for n, i in enumerate(top):
        nxt = top[n + 1] if n + 1 < len(top) else None
        end_row = nxt if nxt is not None else len(rows)
        if nxt is None:
            out.append([first, end_row, begin, length])
        elif rows[nxt][3] - begin >= size:
            out.append([first, end_row, begin, rows[nxt][3]])
            first, begin = nxt, rows[nxt][3]
    if not out:
        out.append([0, len(rows), 0, length])
    return out


def findings(ins: Inspection, chunks: Sequence[Chunk]) -> list[dict[str, Any]]:
    """``inspect``'s findings placed on the text: ``{"kind", "chunks" (ids), "start", "end",
    "text"}``, kind one of ``over-limit`` (a chunk over the model's maximum input; tokens lost),
    ``uncovered`` (non-whitespace text in no chunk), ``no-overlap`` (neighbours that share nothing
    although overlap was asked for)."""
    out: list[dict[str, Any]] = []
    for x in ins.over_limit:
        c = chunks[x.index]
        out.append({"kind": "over-limit", "chunks": [c.id], "start": c.start, "end": c.end,
                    "text": f"{x.tokens} tokens: {x.lost} over the model's maximum input of "
                            f"{x.max_input_tokens}, never embedded"})
    if ins.coverage is not None:
        for u in ins.coverage.uncovered:
            out.append({"kind": "uncovered", "chunks": [], "start": u.start, "end": u.end,
                        "text": f"in no chunk: {u.excerpt}"})
    for i in ins.missing_overlap_pairs:
        a, b = chunks[i], chunks[i + 1]
        out.append({"kind": "no-overlap", "chunks": [a.id, b.id], "start": b.start, "end": b.start,
                    "text": "these neighbours share nothing, although overlap was asked for"})
    out.sort(key=lambda f: (f["start"], f["kind"]))
    return out


__all__ = ["Chunking", "CHUNK_FIELDS", "SECTION_CHARS", "document_data", "strategy_data", "sections",
           "findings", "head"]
