"""Parent-child chunking: search small chunks, hand the model the section each came from.

Parents are the document's sections (the structure strategy at ``parent_size``, so a long
section is split along its own structure), or with ``parents="blocks"`` its single paragraphs,
tables and lists; children are the structure strategy at ``size`` (a
table row group with its header, a short paragraph), cut again wherever one would cross a
parent's border, so every child lies inside one parent and carries its ``parent_id``.

The passes: structure drafts at both sizes, ``cut_at`` (children at parents' borders),
``Contexts.finish`` (page labels of the pieces), the chunk factory, then ``group_under_parents``.
"""
from __future__ import annotations

import dataclasses
from bisect import bisect_right

from ..model import Chunk, Document
from ..text import is_blank
from .size_limit import SizeLimit
from .chunks import Draft, as_document, first_word, make_chunks
from .config import ParentChildConfig, SizeConfig, as_config
from .context import Contexts
from .structure import structure_chunks, structure_drafts
from .window_outline import outline_of


def parent_child(document: Document | str, config: SizeConfig = ParentChildConfig()) -> list[Chunk]:
    """Parents and children in document order, each parent before its children;
    ``metadata["role"]`` is ``parent`` or ``child``. Only children are meant to be embedded."""
    doc = as_document(document)
    cfg = as_config(config, ParentChildConfig)
    parent_cfg = dataclasses.replace(cfg, size=cfg.parent_size, overlap=0,
                                     join_blocks=cfg.parents == "sections")
    if is_blank(doc.text):
        return []
    limit = SizeLimit(doc.text, cfg)
    outline = outline_of(doc)
    parents = structure_chunks(doc, parent_cfg, "parent-child", embedded=False, like=limit,
                               outline=outline)
    ctx = Contexts(doc, cfg, limit, outline)
    drafts = ctx.finish(cut_at(doc.text, structure_drafts(ctx, cfg), [p.start for p in parents]))
    fp = cfg.fingerprint("parent-child", limit.token_sizer)
    return group_under_parents(doc.text, parents,
                               make_chunks(doc, drafts, limit, "parent-child", fp, outline))


def cut_at(text: str, drafts: list[Draft], borders: list[int]) -> list[Draft]:
    """Each draft cut at every border inside it (each piece keeps the draft's context and path;
    a piece of only whitespace is dropped)."""
    out = []
    for d in drafts:
        cuts = [s for s in borders if d.start < s < d.end]
        if not cuts:
            out.append(d)
            continue
        bounds = [d.start, *cuts, d.end]
        out.extend(dataclasses.replace(d, start=a, end=b) for a, b in zip(bounds, bounds[1:])
                   if not is_blank(text, a, b))
    return out


def group_under_parents(text: str, parents: list[Chunk], children: list[Chunk]) -> list[Chunk]:
    """Each parent followed by the children whose first word lies in it (``parent_id`` set,
    ``metadata["role"]`` ``child``; the parent's ``role`` and count of ``children``)."""
    starts = [p.start for p in parents]
    by_parent: dict[int, list[Chunk]] = {i: [] for i in range(len(parents))}
    for child in children:
        i = max(0, bisect_right(starts, first_word(text, child.start, child.end)) - 1)
        by_parent[i].append(dataclasses.replace(child, parent_id=parents[i].id, metadata={
            **child.metadata, "role": "child"}))
    out: list[Chunk] = []
    for i, parent in enumerate(parents):
        out.append(dataclasses.replace(parent, metadata={**parent.metadata, "role": "parent",
                                                         "children": len(by_parent[i])}))
        out.extend(by_parent[i])
    return out
