"""Parent-child chunking: search small chunks, hand the model the section each came from.

Parents are the document's sections (the structure strategy at ``parent_size``, so a long
section is split along its own structure), or with ``parents="blocks"`` its single paragraphs,
tables and lists; children are the structure strategy at ``size`` (a
table row group with its header, a short paragraph), cut again wherever one would cross a
parent's border, so every child lies inside one parent and carries its ``parent_id``.
"""
from __future__ import annotations

import dataclasses
from bisect import bisect_right

from ..model import Chunk, Document, stable_hash
from ..tokens import Sizer, load_sizer
from .config import ParentChildConfig, SizeConfig
from .structure import structure_chunks


def parent_child(document: Document | str, config: SizeConfig = ParentChildConfig()) -> list[Chunk]:
    """Parents and children in document order, each parent before its children;
    ``metadata["role"]`` is ``parent`` or ``child``. Only children are meant to be embedded."""
    doc = Document.from_text(document) if isinstance(document, str) else document
    cfg = config if isinstance(config, ParentChildConfig) else ParentChildConfig(
        size=config.size, overlap=config.overlap, unit=config.unit, tokenizer=config.tokenizer)
    parent_cfg = dataclasses.replace(cfg, size=cfg.parent_size, overlap=0,
                                     join_blocks=cfg.parents == "sections")
    parents = structure_chunks(doc, parent_cfg, "parent-child", embedded=False)
    children = structure_chunks(doc, cfg, "parent-child")
    starts = [p.start for p in parents]
    sizer = load_sizer(cfg.tokenizer)
    out: list[Chunk] = []
    by_parent: dict[int, list[Chunk]] = {i: [] for i in range(len(parents))}
    for child in children:
        for piece in _inside_parents(child, starts, sizer):
            i = max(0, bisect_right(starts, piece.start + len(piece.body) - len(piece.body.lstrip())) - 1)
            by_parent[i].append(dataclasses.replace(piece, parent_id=parents[i].id, metadata={
                **piece.metadata, "role": "child"}))
    for i, parent in enumerate(parents):
        out.append(dataclasses.replace(parent, metadata={**parent.metadata, "role": "parent",
                                                         "children": len(by_parent[i])}))
        out.extend(by_parent[i])
    return out


def _inside_parents(child: Chunk, starts: list[int], sizer: Sizer) -> list[Chunk]:
    """The child, cut at every parent border inside it (each piece keeps the child's context)."""
    cuts = [s for s in starts if child.start < s < child.end]
    if not cuts:
        return [child]
    pieces = []
    bounds = [child.start, *cuts, child.end]
    for a, b in zip(bounds, bounds[1:]):
        body = child.body[a - child.start:b - child.start]
        if not body.strip():
            continue
        text = child.context + body
        pieces.append(dataclasses.replace(
            child, id=stable_hash(child.id, a, b), start=a, end=b, text=text,
            tokens=sizer.count(text)))
    return pieces
