"""A tagged PDF's structure tree: which tag (H1, P, LI, ...) each marked-content id on a page
falls under, and the tag each block gets from its words."""
from __future__ import annotations

import ctypes
from collections import Counter

from .blocks import Block

#: structure tag -> (element kind, heading level)
TAG_KIND = {"H": ("heading", 1), "H1": ("heading", 1), "H2": ("heading", 2), "H3": ("heading", 3),
            "H4": ("heading", 4), "H5": ("heading", 5), "H6": ("heading", 6), "Title": ("title", None),
            "P": ("paragraph", None), "LI": ("list_item", None), "LBody": ("list_item", None),
            "Lbl": ("list_item", None), "L": ("list_item", None), "Caption": ("caption", None),
            "Code": ("code", None)}
HEADING_TAGS = ("H", "H1", "H2", "H3", "H4", "H5", "H6", "Title")
#: tags that name no element kind but hold their own content (a table's cells do not take the
#: tag of the paragraph or heading the table sits in)
_CONTAINERS = ("Table", "TR", "TD", "TH", "Figure")


def _meaningful(tag: str | None) -> bool:
    return tag in TAG_KIND or tag in _CONTAINERS


def plumber_tag_map(page) -> dict[int, str]:
    """MCID -> the nearest meaningful structure tag on this pdfplumber page."""
    try:
        tree = page.structure_tree
    except Exception:
        return {}
    out: dict[int, str] = {}

    def walk(node, tag):
        t = node.get("type")
        if _meaningful(t):
            tag = t
        for m in node.get("mcids") or ():
            if tag:
                out[m] = tag
        for ch in node.get("children") or ():
            walk(ch, tag)

    for n in tree or ():
        walk(n, None)
    return out


def pdfium_tag_map(page) -> dict[int, str]:
    """MCID -> the nearest meaningful structure tag on this pypdfium2 page."""
    import pypdfium2.raw as raw

    tree = raw.FPDF_StructTree_GetForPage(page.raw)
    if not tree:
        return {}
    out: dict[int, str] = {}
    buf = ctypes.create_string_buffer(256)

    def walk(elem, tag, depth):
        if not elem or depth > 64:
            return
        k = raw.FPDF_StructElement_GetType(elem, buf, 256)
        t = buf.raw[:max(0, k - 2)].decode("utf-16-le", "replace") if k > 2 else ""
        if _meaningful(t):
            tag = t
        if tag:
            for j in range(max(0, raw.FPDF_StructElement_GetMarkedContentIdCount(elem))):
                m = raw.FPDF_StructElement_GetMarkedContentIdAtIndex(elem, j)
                if m >= 0:
                    out[m] = tag
        for j in range(max(0, raw.FPDF_StructElement_CountChildren(elem))):
            walk(raw.FPDF_StructElement_GetChildAtIndex(elem, j), tag, depth + 1)

    try:
        for j in range(max(0, raw.FPDF_StructTree_CountChildren(tree))):
            walk(raw.FPDF_StructTree_GetChildAtIndex(tree, j), None, 0)
    finally:
        raw.FPDF_StructTree_Close(tree)
    return out


def tag_blocks(blocks: list[Block], tag_of: dict[int, str]) -> list[Block]:
    """``blocks``, each text block tagged with the tag most of its words fall under."""
    for b in blocks if tag_of else ():
        c = Counter(tag_of.get(w.mcid) for s in b.segments for w in s.words)
        c.pop(None, None)
        if c:
            b.tag = c.most_common(1)[0][0]
    return blocks


def drop_paragraph_only_tags(blocks: list[Block]) -> None:
    """A document tagged without headings (everything "P", as some converters write it): the
    tags say nothing about structure, the layout does, so its "P" tags are dropped."""
    if any(b.tag in HEADING_TAGS for b in blocks):
        return
    for b in blocks:
        if b.tag == "P":
            b.tag = None
