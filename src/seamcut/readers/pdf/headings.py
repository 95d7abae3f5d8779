"""Heading ranks from font sizes: the body text size, the document's title, and a level for each
distinct size clearly larger than the body that short blocks use. Units: points."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .blocks import Block
from .page import Key, Page


@dataclass(frozen=True)
class HeadingScale:
    """``body``: the size most text has, pt; ``levels``: heading level (1 = top) of each larger
    size; ``bold_level``: the level of a bold heading at body size (below every sized one);
    ``title``: the block that is the document's title, if one is."""
    body: float
    levels: dict[float, int]
    bold_level: int
    title: Key | None


def char_sizes(blocks: list[Block]) -> Counter[float]:
    """Font size (pt) -> how many characters of the blocks' lines are set in it."""
    c: Counter[float] = Counter()
    for b in blocks:
        for s in b.segments:
            c[s.size] += len(s.text)
    return c


def body_size(pages: list[Page]) -> float:
    """The font size (pt) most characters of the laid-out pages have; 10 where there are none."""
    c = char_sizes([b for pg in pages for b in pg.blocks])
    return c.most_common(1)[0][0] if c else 10.0


def short(b: Block) -> bool:
    """A block short enough to be a heading or title: three lines, 200 characters at most."""
    t = " ".join(b.lines)
    return len(b.segments) <= 3 and 1 < len(t) <= 200


def heading_scale(pages: list[Page], furn: set[Key], body: float) -> HeadingScale:
    """The title and the heading levels of sizes ``body`` + 1 pt and larger."""
    title = _title(pages, furn, body)
    sizes = sorted({b.size for pi, pg in enumerate(pages) for bi, b in enumerate(pg.blocks)
                    if b.kind != "table" and short(b) and b.size >= body + 1.0
                    and (pi, bi) != title}, reverse=True)
    return HeadingScale(body, {s: i + 1 for i, s in enumerate(sizes)}, len(sizes) + 1, title)


def _title(pages: list[Page], furn: set[Key], body: float) -> Key | None:
    """The largest text of several words on the first page, where no heading elsewhere is as
    large (a one-word logo such as a series name set huge is not the title)."""
    if not pages or not pages[0].blocks:
        return None
    big = [(b.size, -bi) for bi, b in enumerate(pages[0].blocks)
           if b.kind != "table" and short(b) and (0, bi) not in furn and b.size >= body + 1.5
           and len(" ".join(b.lines).split()) >= 2]
    if not big:
        return None
    tsize, neg_bi = max(big)  # the first of equally large blocks
    rivals = sum(1 for pg in pages for b in pg.blocks
                 if b.kind != "table" and short(b) and b.size >= tsize - 0.25
                 and len(" ".join(b.lines).split()) >= 2)
    return (0, -neg_bi) if rivals == 1 else None
