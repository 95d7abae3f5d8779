"""`seamcut serve`'s API (in process, through FastAPI's test client, on a real index of the
three small documents with the default model): the same results as `seamcut search`, structured
filters only, every bad request a 4xx with its reason, the API key, a new published state
served without a restart, and the request log."""
from __future__ import annotations

import json
import logging
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import seamcut
from seamcut.errors import ConfigError
from seamcut.index import Index
from seamcut.index.filters import Filter, FilterError, to_where
from seamcut.pipeline.catalog import load_catalog
from seamcut.pipeline.corpus import read_corpus
from seamcut.serve import Settings, make_app
from seamcut.serve.run import check, is_loopback
from tests.helpers.small_docs import write_docs

CATALOG = ("file,crop,year,doc_type\ncotton.md,cotton,2024,manual\nsoybean-hi.md,soybean,2025,manual\n"
           "orange.md,orange,2026,notice\n")


def _read(folder: Path):
    return read_corpus([folder / "docs"], catalog=load_catalog(folder / "catalog.csv"), cache=False,
                       progress=False, workers=1)


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("serve")
    write_docs(folder)
    (folder / "catalog.csv").write_text(CATALOG, encoding="utf-8")
    c = _read(folder)
    ix = Index(folder / "db", strategy="structure", options={}, model="default")
    ix.update(c.documents, lambda d: seamcut.chunk(d, strategy="structure"), c.hashes)
    return folder / "db"


@pytest.fixture(scope="module")
def client(db):
    with TestClient(make_app(Settings(db), warm=False)) as c:
        yield c


def test_search_answers_as_seamcut_search_does(client, db):
    ix = Index(db)
    for mode in ("hybrid", "vector", "text"):
        r = client.post("/search", json={"query": "whitefly dose on cotton", "k": 3, "mode": mode})
        assert r.status_code == 200, r.text
        body = r.json()
        want = [h.to_dict() for h in ix.search("whitefly dose on cotton", 3, mode=mode)]
        assert body["results"] == json.loads(json.dumps(want)), mode  # the JSON `seamcut search --json` prints
        assert body["state"] == ix.store.view().state_id and re.fullmatch(r"[0-9a-f]{32}", body["state"])
        assert r.headers["x-request-id"] == body["request_id"]
    assert body["results"][0]["chunk"]["heading_path"][-1] == "Whitefly"


def test_structured_filters(client):
    r = client.post("/search", json={"query": "when should I spray?", "filters": [
        {"field": "crop", "op": "eq", "value": "orange"}]})
    assert r.status_code == 200 and r.json()["results"]
    assert {h["chunk"]["metadata"]["crop"] for h in r.json()["results"]} == {"orange"}
    r = client.post("/search", json={"query": "seed", "k": 10, "filters": [
        {"field": "year", "op": "gte", "value": 2025}, {"field": "crop", "op": "in", "value": ["soybean", "orange"]}]})
    got = r.json()["results"]
    assert got and all(h["chunk"]["metadata"]["year"] >= 2025 for h in got)
    r = client.post("/search", json={"query": "cotton", "filters": [{"field": "crop", "value": "wheat"}]})
    assert r.status_code == 200 and r.json()["results"] == []
    assert r.json()["warnings"] == ["crop = 'wheat' matches no chunk of the index; crop holds 'cotton', "
                                    "'orange', 'soybean'"]  # said, not silently nothing
    r = client.post("/search", json={"query": "spray", "k": 10, "filters": [{"field": "source", "value": "cotton.md"}]})
    got = r.json()  # a file indexed by its absolute path, named by its file name
    assert got["results"] and {Path(h["chunk"]["source"]).name for h in got["results"]} == {"cotton.md"}
    assert got["warnings"] == []
    stats = client.get("/stats").json()
    assert stats["fields"]["crop"] == "text" and stats["fields"]["year"] == "integer"
    assert {"source", "file", "language", "page_start", "heading"} <= set(stats["fields"])
    assert not {"text", "chunk", "vector", "id"} & set(stats["fields"])  # the index's own columns


@pytest.mark.parametrize(("body", "status", "reason"), [
    ({"query": ""}, 422, "at least 1 character"),
    ({"query": "   "}, 422, "the query is blank"),
    ({"query": "x" * 2001}, 422, "at most 2000 characters"),
    ({"query": "x", "k": 0}, 422, "greater than or equal to 1"),
    ({"query": "x", "k": 101}, 422, "less than or equal to 100"),
    ({"query": "x", "mode": "fuzzy"}, 422, "'hybrid', 'vector' or 'text'"),
    ({"query": "x", "where": "1=1"}, 422, "Extra inputs are not permitted"),  # refused, not ignored
    ({"query": "x", "filters": [{"field": "crop", "op": "like", "value": "c%"}]}, 422, "'eq', 'ne'"),
    ({"query": "x", "filters": [{"field": "crop", "value": "x", "sql": "1"}]}, 422, "Extra inputs"),
    ({"query": "x", "filters": [{"field": "crop; DROP TABLE chunks", "value": "x"}]}, 400, "unknown field"),
    ({"query": "x", "filters": [{"field": "text", "value": "x"}]}, 400, "unknown field 'text'"),
    ({"query": "x", "filters": [{"field": "year", "value": "2025"}]}, 400, "holds integer values, not '2025'"),
    ({"query": "x", "filters": [{"field": "year", "op": "in", "value": 2025}]}, 400, "a list of 1 to 100"),
    ({"query": "x", "max_tokens": 0}, 422, "greater than or equal to 1"),
    ({"query": "x", "budget": 0}, 422, "greater than or equal to 1"),
    ({"query": "x", "budget": 9, "max_tokens": 9}, 422, "give budget or max_tokens (its old name, deprecated), not both"),
])
def test_bad_requests_get_a_4xx_with_the_reason(client, body, status, reason):
    r = client.post("/search", json=body)
    assert r.status_code == status, r.text
    assert reason in r.text


def test_malformed_and_huge_bodies(client):
    r = client.post("/search", content=b'{"query": "x",', headers={"content-type": "application/json"})
    assert r.status_code == 422 and "JSON decode error" in r.text
    r = client.post("/search", content=b"[1, 2]", headers={"content-type": "application/json"})
    assert r.status_code == 422
    r = client.post("/search", content=b"x" * 70000, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "over 65536 bytes" in r.text


def test_budget_of_tokens(client):
    full = client.post("/search", json={"query": "spray dose", "k": 4}).json()["results"]
    tokens = [h["chunk"]["tokens"] for h in full]
    budget = tokens[0] + tokens[1]
    r = client.post("/search", json={"query": "spray dose", "k": 4, "budget": budget}).json()
    got = r["results"]
    assert [h["chunk"]["id"] for h in got] == [h["chunk"]["id"] for h in full][:len(got)]
    assert len(got) >= 2 and sum(h["chunk"]["tokens"] for h in got) <= budget and r["warnings"] == []
    one = client.post("/search", json={"query": "spray dose", "k": 4, "budget": 1}).json()["results"]
    assert len(one) == 1  # the first always comes
    # its old name, for a release: the same results, and a warning in the answer
    old = client.post("/search", json={"query": "spray dose", "k": 4, "max_tokens": budget}).json()
    assert old["results"] == got
    assert old["warnings"] == ["max_tokens is deprecated: send budget (the same tokens); max_tokens goes in a "
                               "coming release"]
    schema = client.get("/openapi.json").json()["components"]["schemas"]["SearchIn"]["properties"]
    assert schema["max_tokens"]["deprecated"] is True and "deprecated" not in schema["budget"]


def test_api_key(db):
    with TestClient(make_app(Settings(db, api_key="s3cret"), warm=False)) as c:
        assert c.get("/health").json() == {"status": "ok"}  # for a load balancer, no key
        for path, call in (("/search", lambda **kw: c.post("/search", json={"query": "x"}, **kw)),
                           ("/stats", lambda **kw: c.get("/stats", **kw))):
            assert call().status_code == 401, path
            assert call(headers={"X-API-Key": "wrong"}).status_code == 401, path
            assert call(headers={"X-API-Key": "s3cret"}).status_code == 200, path
            assert call(headers={"Authorization": "Bearer s3cret"}).status_code == 200, path
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.4")
    check(Settings(db), "127.0.0.1")
    with pytest.raises(ConfigError, match="--host 0.0.0.0 reaches other machines: give an API key"):
        check(Settings(db), "0.0.0.0")
    check(Settings(db, api_key="k"), "0.0.0.0")


def test_openapi_and_docs_page(client):
    schema = client.get("/openapi.json").json()
    assert {"/search", "/health", "/stats"} <= set(schema["paths"])
    assert "where" not in schema["components"]["schemas"]["SearchIn"]["properties"]
    page = client.get("/docs").text
    assert "POST /search" in page and "SearchIn" in page
    assert "<script" not in page and "http" not in page.replace("/openapi.json", "")  # nothing from elsewhere


def test_a_new_published_state_is_served_without_a_restart(tmp_path):
    write_docs(tmp_path)
    (tmp_path / "catalog.csv").write_text(CATALOG, encoding="utf-8")
    ix = Index(tmp_path / "db", strategy="structure", options={}, model="default")
    c = _read(tmp_path)
    ix.update(c.documents, lambda d: seamcut.chunk(d, strategy="structure"), c.hashes)
    ask = {"query": "tur pigeonpea wilt resistant variety", "mode": "text", "k": 2}
    with TestClient(make_app(Settings(tmp_path / "db"), warm=False)) as client:
        before = client.post("/search", json=ask).json()
        assert not any("pigeonpea" in h["chunk"]["text"] for h in before["results"])
        (tmp_path / "docs" / "tur.md").write_text(
            "# Tur manual\n\n## Varieties\n\nFor wilt, sow the pigeonpea variety BDN-716, resistant to wilt.\n",
            encoding="utf-8")
        c = _read(tmp_path)
        Index(tmp_path / "db").update(c.documents, lambda d: seamcut.chunk(d, strategy="structure"), c.hashes)
        after = client.post("/search", json=ask).json()
        assert after["state"] != before["state"]
        assert "pigeonpea" in after["results"][0]["chunk"]["text"]
        cotton = str(tmp_path / "docs" / "cotton.md")
        assert Index(tmp_path / "db").remove([cotton, str(tmp_path / "docs" / "never.md")]) == [cotton]
        gone = client.post("/search", json={"query": "whitefly dose on cotton", "k": 10}).json()
        assert gone["state"] != after["state"]
        assert gone["results"] and not any(h["chunk"]["source"] == cotton for h in gone["results"])


def test_the_log_has_each_request_not_its_query(db, caplog):
    caplog.set_level(logging.INFO, logger="seamcut.serve")
    with TestClient(make_app(Settings(db), warm=False)) as c:
        r = c.post("/search", json={"query": "secret crop question"}, headers={"X-Request-ID": "req-42"})
        c.post("/search", json={"query": ""})
    lines = [rec.getMessage() for rec in caplog.records]
    assert any(re.fullmatch(r"req-42 POST /search 200 [\d.]+ ms", m) for m in lines), lines
    assert any(re.fullmatch(r"[0-9a-f]{32} POST /search 422 [\d.]+ ms", m) for m in lines), lines
    assert not any("secret crop question" in m for m in lines)
    caplog.clear()
    with TestClient(make_app(Settings(db, log_queries=True), warm=False)) as c:
        c.post("/search", json={"query": "secret crop question"})
    assert any("secret crop question" in rec.getMessage() for rec in caplog.records)


def test_filters_are_sql_only_as_literals():
    fields = {"crop": "text", "year": "integer", "area": "number", "organic": "boolean", "Order": "text"}
    assert to_where([Filter("crop", "eq", "it's")], fields) == "`crop` = 'it''s'"
    assert to_where([Filter("year", "gte", 2025), Filter("area", "lt", 2)], fields) == "`year` >= 2025 AND `area` < 2.0"
    assert to_where([Filter("crop", "in", ["a", "b"])], fields) == "`crop` IN ('a', 'b')"
    assert to_where([Filter("Order", "ne", "x")], fields) == "`Order` != 'x'"
    assert to_where([], fields) is None
    for bad, why in ((Filter("organic", "lt", True), "does not apply"), (Filter("year", "eq", True), "not True"),
                     (Filter("area", "eq", float("nan")), "not nan"), (Filter("year", "eq", 2.5), "not 2.5"),
                     (Filter("crop", "in", []), "a list of 1"), (Filter("crop", "like", "x"), "unknown operator")):
        with pytest.raises(FilterError, match=why):
            to_where([bad], fields)


def _ids(hits) -> list[str]:
    return [h.chunk.id for h in hits]


def test_the_retrievers_return_what_seamcut_search_does(db):
    from seamcut.integrations.langchain import SeamcutRetriever as LangChainRetriever
    from seamcut.integrations.llamaindex import SeamcutRetriever as LlamaIndexRetriever
    ix = Index(db)
    for question in ("whitefly dose on cotton", "बीज उपचार", "when does the insurance scheme close?"):
        want = _ids(ix.search(question, 3))
        docs = LangChainRetriever(db=db, k=3).invoke(question)
        assert [d.metadata["chunk_id"] for d in docs] == want, question
        nodes = LlamaIndexRetriever(db=db, k=3).retrieve(question)
        assert [n.node.metadata["chunk_id"] for n in nodes] == [n.node.id_ for n in nodes] == want, question
    top = ix.search("whitefly dose on cotton", 1)[0]
    doc = LangChainRetriever(db=db, k=1).invoke("whitefly dose on cotton")[0]
    assert doc.page_content == top.chunk.text and doc.metadata["heading_path"] == list(top.chunk.heading_path)
    assert doc.metadata["crop"] == "cotton" and doc.metadata["rank"] == 1 and doc.metadata["score"] == top.score
    only = [{"field": "crop", "op": "eq", "value": "orange"}]
    want = _ids(ix.search("when should I spray?", 4, filters=[Filter("crop", "eq", "orange")], budget=200))
    assert [d.metadata["chunk_id"] for d in LangChainRetriever(db=db, filters=only, budget=200).invoke(
        "when should I spray?")] == want
    assert [n.node.id_ for n in LlamaIndexRetriever(db=db, filters=only, budget=200).retrieve(
        "when should I spray?")] == want
    # budget's old name, for a release: warned at the caller
    with pytest.warns(DeprecationWarning, match="max_tokens is deprecated") as caught:
        old = [LangChainRetriever(db=db, filters=only, max_tokens=200),
               LlamaIndexRetriever(db=db, filters=only, max_tokens=200)]
    assert [w.filename for w in caught] == [__file__, __file__]
    assert [d.metadata["chunk_id"] for d in old[0].invoke("when should I spray?")] == want
    assert [n.node.id_ for n in old[1].retrieve("when should I spray?")] == want
    with pytest.raises(ValueError, match="give budget or max_tokens"):
        LangChainRetriever(db=db, budget=200, max_tokens=200)
    with pytest.raises(ValueError, match="one of db"):  # pydantic wraps ConfigError (a ValueError)
        LangChainRetriever(k=2)


def test_worker_processes_build_their_app_from_the_environment(db, monkeypatch):
    """``--workers N``: uvicorn's processes build the app from what ``run`` put in the
    environment (the key by a variable of its own)."""
    from seamcut.serve.app import from_env
    monkeypatch.delenv(Settings.ENV, raising=False)
    monkeypatch.delenv(Settings.ENV + "_KEY", raising=False)
    Settings(db, api_key="k2", log_queries=True).to_env()
    assert Settings.from_env() == Settings(db, "k2", True)
    with TestClient(from_env()) as c:
        assert c.get("/stats").status_code == 401
        assert c.get("/stats", headers={"X-API-Key": "k2"}).json()["index"] == str(db)


def test_the_command_serves_and_refuses_the_network_without_a_key(db):
    import os
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    from tests.helpers.cli import run
    r = run("serve", str(db), "--host", "0.0.0.0")
    assert r.returncode == 2 and "reaches other machines: give an API key" in r.stderr
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    # two processes, each on a socket of its own (SO_REUSEPORT), each logging its requests
    proc = subprocess.Popen([sys.executable, "-m", "seamcut.cli", "serve", str(db), "--port", str(port),
                             "--api-key", "k1", "--workers", "2"], stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "OMP_NUM_THREADS": "1"})
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 120
        while True:
            try:
                with urllib.request.urlopen(url + "/health", timeout=2) as resp:
                    assert json.loads(resp.read()) == {"status": "ok"}
                    break
            except OSError:
                assert proc.poll() is None and time.monotonic() < deadline, "the service did not start"
                time.sleep(0.3)
        for _ in range(2):
            req = urllib.request.Request(url + "/search", data=json.dumps({"query": "whitefly dose", "k": 2}).encode(),
                                         headers={"Content-Type": "application/json", "X-API-Key": "k1"})
            with urllib.request.urlopen(req, timeout=60) as resp:
                body = json.loads(resp.read())
            assert [h["chunk"]["id"] for h in body["results"]] == \
                [h.chunk.id for h in Index(db).search("whitefly dose", 2)]
        stats = urllib.request.Request(url + "/stats", headers={"Authorization": "Bearer k1"})
        with urllib.request.urlopen(stats, timeout=60) as resp:
            assert json.loads(resp.read())["state"] == Index(db).store.view().state_id
        # the retrievers over the service: what they give over the folder
        from seamcut.integrations.langchain import SeamcutRetriever as LangChainRetriever
        from seamcut.integrations.llamaindex import SeamcutRetriever as LlamaIndexRetriever
        want = _ids(Index(db).search("बीज उपचार", 3))
        assert [d.metadata["chunk_id"] for d in LangChainRetriever(url=url, k=3, api_key="k1").invoke("बीज उपचार")] == want
        assert [n.node.id_ for n in LlamaIndexRetriever(url=url, k=3, api_key="k1").retrieve("बीज उपचार")] == want
        with pytest.raises(ConfigError, match="answered 401"):
            LangChainRetriever(url=url, k=3).invoke("x")
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=60)
    lines = [line.split() for line in err.splitlines()]
    assert len({x[2] for x in lines if x[3:5] == ["INFO", "serving"]}) == 2, err  # date, time, pid, level
    served = [x for x in lines if x[5:8] == ["POST", "/search", "200"]]  # ... request id, method, path, status
    assert len(served) >= 2 and all(len(x[4]) == 32 for x in served), err
    assert "whitefly" not in err  # no query text unless --log-queries


def test_each_worker_listens_on_a_socket_of_its_own():
    """``--workers N``: each process unpickles ``ReusePort`` as a TCP socket of its own on the
    one port (SO_REUSEPORT), listening; the parent's socket, bound only, holds the port and takes
    no connection; a port another program holds is refused with its reason."""
    import pickle
    import socket

    from seamcut.serve.run import REUSE_PORT, ReusePort, listening_socket
    if not REUSE_PORT:
        pytest.skip("no SO_REUSEPORT here: the workers share one socket")
    held = listening_socket("127.0.0.1", 0, listen=False)
    port = held.getsockname()[1]
    workers = [pickle.loads(pickle.dumps(ReusePort("127.0.0.1", port, 16))) for _ in range(2)]
    try:
        for w in workers:
            assert isinstance(w, socket.socket) and w.getsockname() == ("127.0.0.1", port)
            assert w.proto == socket.IPPROTO_TCP  # asyncio turns Nagle off on such sockets only
            assert w.getsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT) == 1
            assert w.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN) == 1
        assert held.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN) == 0
        for w in workers:
            w.settimeout(0)
        accepted = 0
        for _ in range(20):
            with socket.create_connection(("127.0.0.1", port), timeout=5):
                for w in workers:
                    try:
                        w.accept()[0].close()
                        accepted += 1
                    except BlockingIOError:
                        pass
        assert accepted == 20  # every connection reached a listening worker's socket
    finally:
        for sock in (held, *workers):
            sock.close()
    with socket.socket() as other:  # a program of another kind on the port
        other.bind(("127.0.0.1", 0))
        with pytest.raises(ConfigError, match=f"cannot listen on 127.0.0.1:{other.getsockname()[1]}"):
            listening_socket("127.0.0.1", other.getsockname()[1])
