"""Hugging Face tokenizers: a ``tokenizer.json`` (counts and offsets), and a ``transformers``
tokenizer with no such file (counts only)."""
from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from ..errors import ConfigError
from ..renamed import renamed_keyword
from .measure import Measure, Trust
from .pieces import piece_ends, split_pieces
from .sizer import Sizer

log = logging.getLogger(__name__)


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

    def __init__(self, tokenizer: Any, name: str = "", max_input_tokens: int | None = None,
                 prefix: str = "", **old: Any) -> None:
        from tokenizers import Tokenizer

        max_input_tokens = renamed_keyword(old, "max_input", "max_input_tokens", max_input_tokens,
                                           "HFTokenizerSizer")
        if isinstance(tokenizer, (str, Path)):
            path = Path(tokenizer)
            if path.is_dir():
                path = path / "tokenizer.json"
            if not path.is_file():
                raise FileNotFoundError(f"{path}: no tokenizer.json there")
            try:
                tok = Tokenizer.from_file(str(path))
            except Exception as exc:  # tokenizers raises a bare Exception for a file it cannot parse
                raise ConfigError(f"{path}: not a tokenizer.json that tokenizers can load ({exc})") from None
            name = name or f"hf:{path.resolve()}"
            max_input_tokens = max_input_tokens or _max_input_tokens_near(path)
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
        self._identity = f"hf:{stable_tokenizer_hash(tok)}"
        self.max_input_tokens = max_input_tokens
        self.prefix = prefix
        self.notes = tuple(notes)
        pre = _pretokenizer_names(tok.pre_tokenizer)
        self._margin = 0 if pre & _WHITESPACE_PRETOKENIZERS else 3
        self._trailing_exact = bool(pre & _SPACE_DROPPING_PRETOKENIZERS)
        probe = "hello"
        self.overhead = self.count(probe) - len(tok.encode(probe, add_special_tokens=False).ids)

    @property
    def identity(self) -> str:
        """The tokenizer's content (its JSON, counting settings applied), not its file's path."""
        return self._identity

    def count(self, text: str) -> int:
        return len(self.tokenizer.encode(self.prefix + text).ids)

    def count_many(self, texts: Sequence[str]) -> list[int]:
        p = self.prefix
        return [len(e.ids) for e in self.tokenizer.encode_batch([p + t for t in texts])]

    def measure(self, text: str) -> Measure:
        seg, seams, pieces = split_pieces(text)
        encs = self.tokenizer.encode_batch(pieces, add_special_tokens=False)
        if self._trailing_exact:  # no whitespace tokens: each token's own offsets serve
            return _EncodingMeasure(text, seg, encs, overhead=self.overhead, margin=self._margin,
                                    trust=Trust(exact_midword=False, checkpoints=tuple(seams)))

        ends = [piece_ends(piece, start, e.offsets) for start, piece, e in zip(seg, pieces, encs)]
        return Measure.packed(text, seg, ends, overhead=self.overhead, margin=self._margin,
                              trust=Trust(exact_midword=False, exact_trailing_space=False,
                                          checkpoints=tuple(seams)))


def stable_tokenizer_hash(tok: Any) -> str:
    from ..model import stable_hash

    return stable_hash(tok.to_str())


def _max_input_tokens_near(path: Path) -> int | None:
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


class TransformersCountSizer(Sizer):
    """Counts with a ``transformers`` tokenizer (a sentence-transformers model's, where its folder
    has no ``tokenizer.json``). It counts whole texts only: it is not ``Measurable``."""

    def __init__(self, tokenizer: Any, prefix: str = "", max_input_tokens: int | None = None,
                 name: str = "st-tokenizer", **old: Any) -> None:
        max_input_tokens = renamed_keyword(old, "max_input", "max_input_tokens", max_input_tokens,
                                           "TransformersCountSizer")
        self.tokenizer, self.prefix, self.name = tokenizer, prefix, name
        self.max_input_tokens = max_input_tokens
        self.overhead = self.count("")  # special tokens and the prefix, added to any text

    def count(self, text: str) -> int:
        return len(self.tokenizer(self.prefix + text)["input_ids"])
