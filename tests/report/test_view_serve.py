"""``seamcut view --serve``: /api/search over real helpline indexes, bad queries answered 400,
and search.html driving it in chromium."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Any, Iterator

import pytest

from seamcut.index import Index
from seamcut.report.view.serve import make_server
from tests.helpers.data import HELPLINE

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
STRATEGIES = ("structure", "fixed")


@pytest.fixture(scope="module")
def indexes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Index]:
    """The helpline indexed by ``seamcut index`` with each strategy."""
    tmp = tmp_path_factory.mktemp("indexes")
    out = {}
    for s in STRATEGIES:
        run = subprocess.run([sys.executable, "-m", "seamcut.cli", "index", str(HELPLINE), "--db", str(tmp / s),
                              "-s", s], capture_output=True, text=True, timeout=900,
                             env={**os.environ, "OMP_NUM_THREADS": "1"})
        assert run.returncode == 0, run.stderr[-3000:]
        out[s] = Index(tmp / s)
    return out


@pytest.fixture(scope="module")
def server(indexes: dict[str, Index], tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """The server on a free port, in a thread."""
    out = tmp_path_factory.mktemp("view")
    srv = make_server(out, indexes, 0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    host, port = srv.server_address[:2]
    yield {"url": f"http://{host}:{port}", "out": out, "indexes": indexes}
    srv.shutdown()
    srv.server_close()
    thread.join()


def get(server: dict[str, Any], **params: Any) -> tuple[int, dict[str, Any]]:
    url = f"{server['url']}/api/search?{urllib.parse.urlencode(params)}"
    try:
        with urllib.request.urlopen(url, timeout=120) as r:
            return r.status, json.load(r)
    except urllib.error.HTTPError as e:
        return e.code, json.load(e)


def test_binds_to_localhost_and_serves_the_folder(server):
    assert server["url"].startswith("http://127.0.0.1:")
    with urllib.request.urlopen(server["url"] + "/search.html", timeout=30) as r:
        page = r.read().decode("utf-8")
    assert "static/search.js" in page and all(f"value='{s}'" in page for s in STRATEGIES)
    with urllib.request.urlopen(server["url"] + "/static/search.js", timeout=30) as r:
        assert b"api/search" in r.read()


@pytest.mark.parametrize("mode", ["vector", "text", "hybrid"])
def test_search_answers_as_the_index_does(server, mode):
    query = "How many ml of spray per litre for whitefly on cotton?"
    for s in STRATEGIES:
        status, body = get(server, q=query, mode=mode, strategy=s, k=5)
        assert status == 200
        hits = server["indexes"][s].search(query, 5, mode=mode)
        assert [r["chunk_id"] for r in body["results"]] == [h.chunk.id for h in hits]
        assert [r["rank"] for r in body["results"]] == list(range(1, len(hits) + 1))
        for r, h in zip(body["results"], hits):
            c = h.chunk
            assert (r["doc_id"], r["start"], r["end"], r["source"], r["pages"], r["text"], r["tokens"]) == \
                   (c.doc_id, c.start, c.end, c.source, list(c.pages), c.text, c.tokens)
            assert r["score"] == pytest.approx(h.score)
            assert r["href"] == f"docs/{c.doc_id}.html#s={s}&c={c.id}"
    assert len(body["results"]) == 5


def test_where_filters_as_seamcut_search_does(server):
    status, body = get(server, q="dose per litre", mode="hybrid", where="file = 'orange-manual.pdf'", k=4)
    assert status == 200 and body["results"]
    assert {Path(r["source"]).name for r in body["results"]} == {"orange-manual.pdf"}
    assert body["strategy"] == STRATEGIES[0]  # the first index when none is named


@pytest.mark.parametrize("params, reason", [
    ({"q": "dose", "mode": "fuzzy"}, "mode: 'fuzzy' is not one of vector, text, hybrid"),
    ({"q": "dose", "where": "crop = 'cotton'"}, "where \"crop = 'cotton'\": "),
    ({"q": "dose", "where": "start >"}, "where 'start >': "),
    ({"q": "dose", "strategy": "semantic"}, "strategy: 'semantic' is not one of structure, fixed"),
    ({"q": "dose", "k": "0"}, "k: 0 is not between 1 and 100"),
    ({"q": "dose", "k": "four"}, "k: 'four' is not a whole number"),
    ({"q": "  "}, "q: no query given"),
])
def test_bad_queries_answer_400_naming_the_reason(server, params, reason):
    status, body = get(server, **params)
    assert status == 400
    assert body["error"].startswith(reason)
    if "crop" in reason:
        assert "crop" in body["error"]  # LanceDB's own words: no such column


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no chromium at {CHROMIUM}")
def test_search_page_shows_ranked_chunks_linking_to_their_place(server, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server["url"] + "/search.html")
        page.fill("#q", "Whitefly dose per litre of water")
        page.select_option("#mode", "text")
        page.select_option("#strategy", "fixed")
        page.fill("#k", "3")
        page.click("button[type=submit]")
        page.wait_for_selector("li.found a.result")
        links = page.locator("li.found a.result")
        assert links.count() == 3
        hits = server["indexes"]["fixed"].search("Whitefly dose per litre of water", 3, mode="text")
        for i, h in enumerate(hits):
            href = links.nth(i).get_attribute("href")
            assert href == f"docs/{h.chunk.doc_id}.html#s=fixed&c={h.chunk.id}"
            assert re.fullmatch(r"docs/[0-9a-f]+\.html#s=fixed&c=[0-9a-f]+", href)
        assert hits[0].chunk.text[:200].strip() in page.locator("li.found pre").first.inner_text()
        page.screenshot(path=str(tmp_path / "search.png"))
        page.fill("#where", "nosuch = 1")
        page.click("button[type=submit]")
        page.wait_for_function("document.getElementById('error').textContent.length > 0")
        assert page.inner_text("#error").startswith("where 'nosuch = 1': ")
        assert page.locator("li.found").count() == 0
        browser.close()
    assert errors == []


def test_a_contestants_results_link_to_its_own_page_of_the_document(tmp_path: Path) -> None:
    """A contestant's chunks are drawn over its own laid-out text (``docs/ID--SLUG.html``), never
    over seamcut's reading: the search's links go there."""
    from seamcut.report.view.serve import search_json
    label = "langchain:recursive:chunk_size=800"
    run = subprocess.run([sys.executable, "-m", "seamcut.cli", "index", str(HELPLINE / "cotton-manual.pdf"),
                          "--db", str(tmp_path / "db"), "-s", label], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "OMP_NUM_THREADS": "1"})
    assert run.returncode == 0, run.stderr[-3000:]
    got = search_json({label: Index(tmp_path / "db")}, {"q": "whitefly dose", "k": "2"})
    assert got["results"] and all(re.fullmatch(r"docs/\w+--langchain_recursive_chunk_size-800\.html#s=.*&c=\w+",
                                                r["href"]) for r in got["results"])
