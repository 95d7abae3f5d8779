"""The one greedy packing loop (``strategies.packer.greedy``) on a toy packing: items of a text
whose chunks may hold at most ``limit`` characters."""
from __future__ import annotations

from dataclasses import dataclass

from seamcut.strategies.packer import greedy


@dataclass(frozen=True)
class Item:
    start: int
    end: int
    heading: bool = False


class Toy:
    """Chunks of at most ``limit`` characters; ``estimate_slack``: characters the estimate lets
    through over the limit (so the real check has to give items back)."""

    first_alone = False

    def __init__(self, limit: int, contiguous: bool = False, estimate_slack: int = 0,
                 barrier=lambda last, item: False) -> None:
        self.limit, self.contiguous, self.slack, self.barrier = limit, contiguous, estimate_slack, barrier
        self.out: list[tuple[int, int]] = []
        self.too_long_at: list[tuple[int, int]] = []

    def joins(self, a, last, item, opening):
        return not self.barrier(last, item) and item.end - a <= self.limit + self.slack

    def fits(self, a, b):
        return b - a <= self.limit

    def attaches(self, item):
        return item.heading

    def emit(self, a, b):
        self.out.append((a, b))

    def too_long(self, a, item):
        """Cut at the limit: that part is a chunk, the rest is packed next."""
        self.too_long_at.append((a, item.end))
        cut = a + self.limit
        if cut >= item.end:
            self.emit(a, item.end)
            return item.end, []
        self.emit(a, cut)
        return cut, [Item(cut, item.end)]


def _items(*ends: int) -> list[Item]:
    return [Item(a, b) for a, b in zip((0, *ends), ends)]


def test_items_join_up_to_the_limit():
    toy = Toy(10)
    greedy(_items(4, 8, 12, 20, 22), toy)
    assert toy.out == [(0, 8), (8, 12), (12, 22)]


def test_the_real_check_gives_items_back_to_the_next_chunk():
    toy = Toy(10, estimate_slack=5)  # the estimate lets (0, 12) and (0, 14) through
    greedy(_items(4, 8, 12, 14, 30), toy)
    assert toy.out == [(0, 8), (8, 14), (14, 24), (24, 30)]


def test_an_item_too_long_alone_hands_its_rest_back():
    toy = Toy(10)
    greedy(_items(3, 25, 28), toy)
    assert toy.too_long_at == [(3, 25), (13, 25)]
    # the rest of the long item (13, 25) is packed next, and joins what follows
    assert toy.out == [(0, 3), (3, 13), (13, 23), (23, 28)]


def test_a_barrier_parts_neighbours_that_would_fit():
    toy = Toy(100, barrier=lambda last, item: item.start == 8)
    greedy(_items(4, 8, 12), toy)
    assert toy.out == [(0, 8), (8, 12)]


def test_contiguous_chunks_open_where_the_chunk_before_ended():
    toy = Toy(10, contiguous=True)
    greedy([Item(2, 6), Item(7, 12), Item(13, 15)], toy, start=1)
    assert toy.out == [(1, 6), (6, 15)]


def test_a_heading_opens_the_chunk_of_what_follows():
    toy = Toy(10)
    items = [Item(0, 4), Item(4, 6, heading=True), Item(6, 12), Item(12, 13)]
    greedy(items, toy)
    assert toy.out == [(0, 6), (6, 13)]  # the heading joins the chunk before where it fits
    toy = Toy(10, barrier=lambda last, item: item.heading)
    greedy(items, toy)
    assert toy.out == [(0, 4), (4, 13)]  # else it goes with what follows, never alone


def test_headings_before_an_item_too_long_go_with_it():
    toy = Toy(10)
    greedy([Item(0, 3, heading=True), Item(3, 5, heading=True), Item(5, 30), Item(30, 32)], toy)
    assert toy.too_long_at[0] == (0, 30)  # from the first heading
    assert toy.out[0] == (0, 10)


def test_headings_at_the_end_make_a_chunk():
    toy = Toy(10)
    greedy([Item(0, 20), Item(20, 23, heading=True)], toy)
    assert toy.out[-1] == (20, 23)
