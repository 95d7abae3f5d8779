"""``seamcut view --compare`` on a run with contestants: LangChain's recursive splitter on its own
reading, and chunks made elsewhere (``chunks:PATH``). A contestant's chunks are a text of their
own (``seamcut.peers.layout``): each document's are drawn on a page of their own over that
laid-out text, never over seamcut's reading; questions.html shows their results with their text
and whether the answer was kept, and leaves them out of what it places by spans."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from seamcut.api import chunk
from seamcut.chunks_jsonl import write_document
from seamcut.evaluate.questions import normalise
from seamcut.peers import parse_contestant
from seamcut.peers.spec import cut_as_judged
from seamcut.pipeline.jobs import sized_spec
from seamcut.report.view.contestants import page_name
from seamcut.strategies.spec import slug
from tests.helpers.cli import run as seamcut
from tests.helpers.data import HELPLINE

CHROMIUM = "/usr/bin/chromium"
FILES = ("cotton-manual.pdf", "orange-manual.pdf")
LANGCHAIN = "langchain:recursive:chunk_size=1000:chunk_overlap=200"


def _script_data(path: Path, name: str) -> Any:
    """The JSON a view's data script sets ``window.NAME`` to."""
    text = path.read_text(encoding="utf-8")
    head = f"window.{name} = "
    assert text.startswith(head) and text.rstrip().endswith(";")
    return json.loads(text[len(head):].rstrip().rstrip(";"))


@pytest.fixture(scope="module")
def view(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """compare on two helpline manuals with structure, LangChain and chunks made elsewhere
    (seamcut's paragraph chunks of them, written as ``seamcut chunk --jsonl`` writes them), then
    ``seamcut view --compare`` of the run."""
    pytest.importorskip("langchain_text_splitters")
    from seamcut.pipeline.corpus import read_corpus
    tmp = tmp_path_factory.mktemp("contestants")
    files = [HELPLINE / f for f in FILES]
    documents = list(read_corpus(files, progress=False).documents)
    assert len(documents) == len(FILES)
    made = tmp / "made.jsonl"
    with made.open("w", encoding="utf-8") as sink:
        for doc in documents:
            write_document(sink, doc, chunk(doc, strategy="paragraph"))
    asked = [q for q in yaml.safe_load((HELPLINE / "questions.yaml").read_text(encoding="utf-8"))
             if q.get("source") in FILES]
    questions = tmp / "questions.yaml"
    questions.write_text(yaml.safe_dump(asked, allow_unicode=True), encoding="utf-8")
    labels = ["structure", LANGCHAIN, f"chunks:{made}"]
    got = seamcut("compare", *map(str, files), "--questions", str(questions), "--strategies", ",".join(labels),
                  "--out", str(tmp / "compare"), "--json", str(tmp / "run.json"), env={"OMP_NUM_THREADS": "1"})
    assert got.returncode == 0, got.stderr[-3000:]
    out = tmp / "view"
    got = seamcut("view", *map(str, files), "--compare", str(tmp / "run.json"), "--out", str(out),
                  env={"OMP_NUM_THREADS": "1"})
    assert got.returncode == 0, got.stderr[-3000:]
    run = json.loads((tmp / "run.json").read_text(encoding="utf-8"))
    # what each contestant's index holds, cut again as the judge cut it
    cut = {label: {d.id: cut_as_judged(sized_spec(parse_contestant(label), run["model"]), d) for d in documents}
           for label in labels[1:]}
    return {"out": out, "run": run, "documents": documents, "labels": labels, "cut": cut, "asked": asked}


def test_the_run_holds_the_contestants(view):
    by = {s["name"]: s for s in view["run"]["strategies"]}
    assert by["structure"]["contestant"] is None
    assert by[LANGCHAIN]["contestant"]["library"] == "langchain"
    assert by[view["labels"][2]]["contestant"]["chunker"] == "chunks"


def test_the_index_lists_each_contestant_with_its_library_and_links_its_own_pages(view):
    index = (view["out"] / "index.html").read_text(encoding="utf-8")
    lc = view["run"]["strategies"][1]["contestant"]
    item = index[index.index(f'<li class="contestant" data-strategy="{slug(LANGCHAIN)}">'):]
    item = item[:item.index("</li>")]
    assert '<span class="library">langchain</span>' in item
    assert lc["reader"] in item and "chunk_size=1000" in item and "chunk_overlap=200" in item
    assert all(f"{k} {v}" in item for k, v in lc["versions"].items()) and lc["versions"]
    assert f'data-strategy="{slug(view["labels"][2])}"' in index and "chunks made elsewhere" in index
    for doc in view["documents"]:
        for label in view["labels"][1:]:
            n = len(view["cut"][label][doc.id][1])
            assert f'<a href="docs/{page_name(doc.id, label)}.html#s={slug(label)}">{n}</a>' in index
            assert (view["out"] / "docs" / f"{page_name(doc.id, label)}.html").is_file()


def test_a_contestants_page_draws_its_chunks_over_its_own_laid_out_text(view):
    for doc in view["documents"]:
        for label in view["labels"][1:]:
            laid, chunks = view["cut"][label][doc.id]
            data = _script_data(view["out"] / "docs" / f"{page_name(doc.id, label)}.js", "SEAMCUT_DOC")
            assert data["laid_out"] is True and data["contestant"] == label
            assert data["text"] == laid.text != doc.text
            assert data["pages"] == [] and data["pages_url"] == "" and data["elements"] == []
            (strategy,) = data["strategies"]
            assert strategy["label"] == label and strategy["slug"] == slug(label)
            rows = strategy["chunks"]
            assert [r[0] for r in rows] == [c.id for c in chunks] and rows
            for r, c in zip(rows, chunks):
                assert data["text"][r[1]:r[2]] == c.text  # each span is exactly its chunk's text
                assert r[8] == []  # no boxes
            assert all(f["kind"] != "uncovered" for f in strategy["findings"])
        # seamcut's own page of the document holds seamcut's reading and its strategies only
        own = _script_data(view["out"] / "docs" / f"{doc.id}.js", "SEAMCUT_DOC")
        assert own["text"] == doc.text and [s["label"] for s in own["strategies"]] == ["structure"]
    # the chunks made elsewhere are seamcut's paragraph chunks: their texts, laid end to end
    doc = view["documents"][0]
    _, made = view["cut"][view["labels"][2]][doc.id]
    assert [c.text for c in made] == [c.text for c in chunk(doc, strategy="paragraph") if c.text.strip()]


def test_questions_show_a_contestants_results_with_their_text_and_kept_flag(view):
    data = _script_data(view["out"] / "questions-data.js", "SEAMCUT_QUESTIONS")
    assert data["warnings"] == []
    runs = {s["name"]: s for s in view["run"]["strategies"]}
    peers = {slug(label): label for label in view["labels"][1:]}
    listed = {s["slug"]: s for s in data["strategies"]}
    for sl, label in peers.items():
        assert listed[sl]["contestant"] == runs[label]["contestant"]
        assert listed[sl]["answer_kept"] == runs[label]["answer_kept"]
    assert all("|" in key and not set(key.split("|")) & set(peers) for key in data["diffs"])
    kept = {(s["name"], q["id"]): q["kept"] for s in view["run"]["strategies"] for q in s["per_question"]}
    holding = 0
    for q in data["questions"]:
        for p in q["places"]:
            assert not set(p["chunks"]) & set(peers)  # placed in seamcut's reading: no contestant there
        for sl, label in peers.items():
            o = q["by"][sl]
            assert o["kept"] is kept[(label, q["id"])]
            assert o["around"] == []
            by_id = {c.id: c for cs in view["cut"][label].values() for c in cs[1]}
            assert o["results"]
            for r in o["results"]:
                c = by_id[r["chunk_id"]]
                assert r["text"] == c.text and r["doc_id"] == c.doc_id
                assert r["holds"] is any(normalise(a) in normalise(c.text) for a in q["must_contain"])
                assert r["href"] == f"docs/{page_name(c.doc_id, label)}.html#s={sl}&c={c.id}"
                holding += r["holds"]
            first = next((r["rank"] for r in o["results"] if r["holds"]), None)
            assert o["rank"] == first and (o["reason"] is None) is o["hit"]
        assert "text" not in q["by"]["structure"]["results"][0]
    assert holding >= len(data["questions"])  # most questions: a contestant's result holds it


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no chromium at {CHROMIUM}")
def test_the_pages_open_without_errors_and_draw_the_laid_out_text(view):
    sync_api = pytest.importorskip("playwright.sync_api")
    out, doc = view["out"], view["documents"][0]
    laid, chunks = view["cut"][LANGCHAIN][doc.id]
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])

        def open_page(path: Path, fragment: str = ""):
            tab = browser.new_page(viewport={"width": 1400, "height": 900})
            tab.on("pageerror", lambda e: errors.append(f"{path.name}: {e}"))
            tab.on("console", lambda m: errors.append(f"{path.name}: {m.text}") if m.type == "error" else None)
            tab.goto(path.as_uri() + fragment)
            return tab

        tab = open_page(out / "index.html")
        assert tab.locator("li.contestant").count() == 2
        tab.close()
        page = out / "docs" / f"{page_name(doc.id, LANGCHAIN)}.html"
        tab = open_page(page, f"#s={slug(LANGCHAIN)}&c={chunks[1].id}")
        tab.wait_for_function("document.body.dataset.ready === '1'")
        tab.evaluate("window.seamcutView.drawAll()")
        drawn = tab.evaluate("() => Array.from(document.querySelectorAll('#text [data-chunk-id]'))"
                             ".map(e => [e.dataset.chunkId, +e.dataset.start, +e.dataset.end])")
        assert drawn == [[c.id, c.start, c.end] for c in chunks]
        assert chunks[0].text.strip().splitlines()[0].strip() in tab.locator("#text").inner_text()
        assert "laid end to end" in tab.inner_text(".laid-out") and "No pages" in tab.inner_text("#pages")
        assert tab.locator("#pages img, #pages .box").count() == 0
        assert tab.locator(f"#text .selected[data-chunk-id='{chunks[1].id}']").count() >= 1
        tab.screenshot(path=str(out / "contestant-page.png"))
        tab.close()
        tab = open_page(out / "docs" / f"{doc.id}.html")
        tab.wait_for_function("document.body.dataset.ready === '1'")
        tab.close()
        tab = open_page(out / "questions.html")
        tab.wait_for_selector("article.q")
        assert "Contestants" in tab.inner_text("p.contestants")
        q = tab.locator("article.q").first
        row = q.locator(f"tr.strategy.contestant[data-strategy='{slug(LANGCHAIN)}']")
        assert row.locator("a.result").count() >= 1 and row.locator(".kept").count() == 1
        row.locator("details.texts summary").click()
        assert row.locator("details.texts pre").first.inner_text().strip()
        assert [o.get_attribute("value") for o in tab.locator("#pick-a option").all()] == ["structure"]
        q.scroll_into_view_if_needed()
        tab.screenshot(path=str(out / "contestant-questions.png"))
        browser.close()
    assert errors == []
