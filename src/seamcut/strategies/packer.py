"""The one greedy packing loop: items (pieces of text, or structure units) joined into chunks up to
the limit. What differs between strategies is passed in as a ``Packing``: which neighbours may
join and whether they fit, the real check, what to do with an item that does not fit even alone,
and which items only open a chunk (headings).

The loop, for each chunk: open it at the next item (where the chunk before ended, or where the
item starts); let items join while ``joins`` says so; give items back from the end until the real
check ``fits`` passes; an item too long on its own goes to ``too_long``, which may hand items back
to be packed next (a piece cut in two). A chunk holding only items that ``attaches`` is not closed
while items follow: the next item goes in with it, or, where it does not fit, to ``too_long``
from the chunk's start.
"""
from __future__ import annotations

from typing import Protocol, Sequence, TypeVar


class Item(Protocol):
    """What the loop packs: ``[start, end)`` of the text, in code points."""

    @property
    def start(self) -> int: ...

    @property
    def end(self) -> int: ...


T = TypeVar("T", bound=Item)


class Packing(Protocol[T]):
    """How the loop packs one kind of item (offsets in code points of the text)."""

    #: a chunk opens where the chunk before ended (True) or where its first item starts (False)
    contiguous: bool
    #: test the first item alone with ``fits`` before others may join it
    first_alone: bool

    def joins(self, a: int, last: T, item: T, opening: bool) -> bool:
        """Whether ``item`` may join the chunk from ``a`` whose last item is ``last`` (the fit
        here may be an estimate; ``opening``: the chunk holds only attaching items so far)."""
        ...

    def fits(self, a: int, b: int) -> bool:
        """Whether the chunk ``[a, b)`` fits for real."""
        ...

    def attaches(self, item: T) -> bool:
        """Whether ``item`` only opens a chunk (a heading): never a chunk of its own."""
        ...

    def emit(self, a: int, b: int) -> None:
        """Take the chunk ``[a, b)``."""
        ...

    def too_long(self, a: int, item: T) -> tuple[int, list[T]]:
        """``item``, from ``a``, does not fit in a chunk of its own: handle it. Returns where the
        text it took ends and the items to pack in its place (none where it took all of it)."""
        ...


def greedy(items: Sequence[T], packing: Packing[T], start: int = 0) -> None:
    """Pack ``items`` in order into chunks by ``packing``; the first chunk opens at ``start``
    where ``packing.contiguous``."""
    items = list(items)
    k, prev = 0, start
    while k < len(items):
        a = prev if packing.contiguous else items[k].start
        if packing.first_alone and not packing.fits(a, items[k].end):
            prev, items[k:k + 1] = packing.too_long(a, items[k])
            continue
        j, opening = k, packing.attaches(items[k])
        while j + 1 < len(items) and packing.joins(a, items[j], items[j + 1], opening):
            j += 1
            opening = opening and packing.attaches(items[j])
        ok = packing.fits(a, items[j].end)
        while not ok and j > k:  # give items back until the chunk fits for real
            j -= 1
            ok = packing.fits(a, items[j].end)
            opening = all(packing.attaches(x) for x in items[k:j + 1])
        if not ok:
            prev, items[k:k + 1] = packing.too_long(a, items[k])
        elif opening and j + 1 < len(items):  # the item after the headings goes with them
            prev, items[j + 1:j + 2] = packing.too_long(a, items[j + 1])
            k = j + 1
        else:
            packing.emit(a, items[j].end)
            prev, k = items[j].end, j + 1
