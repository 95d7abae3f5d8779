"""questions.html: what each question of a real ``seamcut compare`` run on examples/helpline got
back, with miss reasons checked against the chunks, and the cut diff of two chunkings."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from seamcut.api import chunk
from seamcut.pipeline.jobs import model_sized
from seamcut.evaluate.questions import normalise
from seamcut.model import Chunk, Document
from seamcut.report.view.answers import Normalised, find_places
from seamcut.report.view.diff import cuts, diff_chunkings, diff_cuts
from seamcut.report.view.questions import questions_data, write_questions
from seamcut.strategies.spec import parse_spec, slug
from tests.helpers.data import HELPLINE

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
SPLIT = "fixed:overlap=0"  # no overlap: an answer across a cut is in no chunk
STRATEGIES = ["structure", SPLIT]
K = 1  # top 1: the run has misses whose answer ranked below k


def chunkings_of(run: dict[str, Any], documents: list[Document]) -> dict[str, list[Chunk]]:
    """Each strategy of ``run`` cut again from the documents, with the run's options."""
    out = {}
    for s in run["strategies"]:
        spec = parse_spec(s["name"])
        out[s["name"]] = [c for d in documents for c in
                          chunk(d, strategy=spec.name, **model_sized({**s["options"], **spec.options}, run["model"]))]
    return out


def straddling(documents: list[Document]) -> tuple[str, Document, int]:
    """Text of the cotton manual across a cut of ``SPLIT`` between two words (found once in all
    the documents), its document and the cut's offset."""
    doc = next(d for d in documents if d.source.endswith("cotton-manual.pdf"))
    spec = parse_spec(SPLIT)
    pieces = chunk(doc, strategy=spec.name, **spec.options)
    for a, b in zip(pieces, pieces[1:]):
        if a.end == b.start and not doc.text[a.end - 8:a.end + 8].isspace():
            text = " ".join(doc.text[a.end - 20:a.end + 20].split()[1:-1])  # whole words
            if (len(text) > 15 and len(find_places([text], documents)) == 1
                    and normalise(text) not in normalise(a.text) and normalise(text) not in normalise(b.text)):
                return text, doc, a.end
    raise AssertionError("no cut of the cotton manual between words")


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory, helpline_documents) -> dict[str, Any]:
    """``seamcut compare`` on the helpline with the helpline's questions, one whose answer
    straddles a cut of ``SPLIT`` and one whose answer is in no document."""
    tmp = tmp_path_factory.mktemp("compare")
    documents = list(helpline_documents)
    text, doc, cut = straddling(documents)
    asked = yaml.safe_load((HELPLINE / "questions.yaml").read_text(encoding="utf-8"))
    asked += [{"id": "straddle", "question": f"What does the manual say about {text}?",
               "must_contain": text, "source": "cotton-manual.pdf"},
              {"id": "absent", "question": "How many ml of zinc per litre for the banana crop?",
               "must_contain": "banana zinc dose 7 ml per litre"}]
    questions = tmp / "questions.yaml"
    questions.write_text(yaml.safe_dump(asked, allow_unicode=True), encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "seamcut.cli", "compare", str(HELPLINE), "--questions", str(questions),
                          "--strategies", ",".join(STRATEGIES), "-k", str(K), "--out", str(tmp / "out"),
                          "--json", str(tmp / "run.json")],
                         capture_output=True, text=True, env={**os.environ, "OMP_NUM_THREADS": "1"}, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    compared = json.loads((tmp / "run.json").read_text(encoding="utf-8"))
    chunkings = chunkings_of(compared, documents)
    return {"compare": compared, "documents": documents, "chunkings": chunkings, "tmp": tmp, "cut": cut,
            "split_doc": doc, "split_text": text, "data": questions_data(compared, documents, chunkings)}


def test_every_result_links_to_its_chunk_cut_again(run):
    data, chunkings = run["data"], run["chunkings"]
    assert data["warnings"] == []  # every result's chunk is in the chunking cut again
    slugs = {slug(s): s for s in STRATEGIES}
    assert [s["slug"] for s in data["strategies"]] == list(slugs)
    for q in data["questions"]:
        assert set(q["by"]) == set(slugs)
        for sl, o in q["by"].items():
            assert 1 <= len(o["results"]) <= K
            by_id = {c.id: c for c in chunkings[slugs[sl]]}
            for r in o["results"]:
                c = by_id[r["chunk_id"]]
                assert (r["doc_id"], r["start"], r["end"], r["tokens"]) == (c.doc_id, c.start, c.end, c.tokens)
                assert r["href"] == f"docs/{c.doc_id}.html#s={sl}&c={c.id}"


def test_hit_or_miss_agrees_with_the_run_and_the_chunk_text(run):
    data, chunkings = run["data"], run["chunkings"]
    ranks = {(s["name"], q["id"]): q["rank"] for s in run["compare"]["strategies"] for q in s["per_question"]}
    for q in data["questions"]:
        if q["kind"] != "answer":
            continue
        for s in STRATEGIES:
            o = q["by"][slug(s)]
            assert o["rank"] == ranks[(s, q["id"])]
            by_id = {c.id: c for c in chunkings[s]}
            for r in o["results"]:
                held = any(normalise(a) in normalise(by_id[r["chunk_id"]].text) for a in q["must_contain"])
                assert r["holds"] is held
            first = next((r["rank"] for r in o["results"] if r["holds"]), None)
            assert first == o["rank"] and o["hit"] is (first is not None)
            assert (o["reason"] is None) is o["hit"]


def test_answer_places_are_the_answer_text_in_the_documents(run):
    docs = {d.id: d for d in run["documents"]}
    found = 0
    for q in run["data"]["questions"]:
        for p in q["places"]:
            d = docs[p["doc_id"]]
            assert d.text[p["start"]:p["end"]] == p["text"]
            assert normalise(p["text"]) in {normalise(a) for a in q["must_contain"]}
            assert p["pages"] == list(d.pages_of(p["start"], p["end"]))
            found += 1
        if q["source"] and q["places"] and any(q["source"] in d.source for d in docs.values()
                                               if normalise(q["must_contain"][0]) in normalise(d.text)):
            assert q["places"][0]["source"].endswith(q["source"])  # the named document's first
    assert found >= 38
    whitefly = next(q for q in run["data"]["questions"] if q["id"] == "q01")
    assert {Path(p["source"]).name for p in whitefly["places"]} >= {"cotton-manual.pdf"}


def test_an_answer_across_a_cut_is_missed_as_split_at_that_cut(run):
    q = next(q for q in run["data"]["questions"] if q["id"] == "straddle")
    o = q["by"][slug(SPLIT)]
    assert not o["hit"]
    doc, text, cut = run["split_doc"], run["split_text"], run["cut"]
    (place,) = q["places"]
    assert place["doc_id"] == doc.id and place["start"] < cut < place["end"]
    pieces = [c for c in run["chunkings"][SPLIT] if c.doc_id == doc.id]
    a = next(c for c in pieces if c.end == cut)
    b = next(c for c in pieces if c.start == cut)
    # the two chunks hold a part each, their text together the whole
    assert normalise(text) not in normalise(a.text) and normalise(text) not in normalise(b.text)
    assert normalise(text) in normalise(doc.text[a.start:b.end])
    assert o["reason"] == [f"the answer (cotton-manual.pdf {place['start']}-{place['end']}) is split across "
                           f"chunks {a.id} and {b.id} (cut at offset {cut})"]


def test_an_answer_in_no_document_is_said_so(run):
    q = next(q for q in run["data"]["questions"] if q["id"] == "absent")
    assert q["places"] == [] and q["window"] is None
    for s in STRATEGIES:
        assert q["by"][slug(s)]["reason"][0].startswith("the answer text is not in the documents as read")


def test_an_answer_ranked_below_k_names_its_rank_and_chunks(run):
    named = 0
    for q in run["data"]["questions"]:
        for s in STRATEGIES:
            o = q["by"][slug(s)]
            for why in o["reason"] or []:
                m = re.match(r"the answer's chunk ranked (\d+), below k = (\d+) \(chunks holding it: ([0-9a-f, .]+)\)", why)
                if not m:
                    continue
                named += 1
                outcome = next(x for st in run["compare"]["strategies"] if st["name"] == s
                               for x in st["per_question"] if x["id"] == q["id"])
                assert int(m[1]) == outcome["deep_rank"] > K == int(m[2])
                by_id = {c.id: c for c in run["chunkings"][s]}
                for cid in m[3].replace(", ...", "").split(", "):
                    assert any(normalise(a) in normalise(by_id[cid].text) for a in q["must_contain"])
    assert named >= 3  # fixed chunks miss several dose questions at 1 (see the table in docs/getting-started.md)


def test_cut_diff_is_exact_on_a_small_text():
    doc = Document.from_text("One two.  Three four.\n\nFive six. Seven.", source="t.txt")
    text = doc.text

    def span(start: int, end: int, parent: str | None = None) -> Chunk:
        return Chunk(f"{start}-{end}", doc.id, doc.source, start, end, "", text[start:end], 1, parent_id=parent)

    a = [span(0, 8), span(8, 21), span(23, 39)]  # cuts after "two." (the spaces after: 10) and "four." (23)
    b = [span(0, 10), span(10, 32), span(33, 39), span(0, 3, parent="0-10")]  # children are not cuts
    assert cuts(doc, a) == [10, 23]
    assert cuts(doc, b) == [10, 33]
    d = diff_cuts(doc, a, b)
    assert (d.only_a, d.only_b, d.shared) == ((23,), (33,), 1)
    assert text[23:27] == "Five" and text[33:39] == "Seven."
    assert cuts(doc, [span(0, 20), span(16, 39)]) == [16, 20]  # overlap: both ends are cuts
    (same,) = diff_chunkings([doc], a, list(reversed(a)))
    assert (same.only_a, same.only_b, same.shared) == ((), (), 2)


def test_answer_text_is_found_as_the_judge_matches_it():
    text = "Dose:  २.५ ML\nper\u00ad litre; again 2.5 ml per litre."
    norm = Normalised(text)
    spans = norm.find("2.5 ml per litre")
    assert [text[s:e] for s, e in spans] == ["२.५ ML\nper\u00ad litre", "2.5 ml per litre"]
    assert all(normalise(text[s:e]) == "2.5 ml per litre" for s, e in spans)
    row = "| Whitefly|2 ml per litre |"  # through a table's cell bars, spaced or not
    assert [row[s:e] for s, e in Normalised(row).find("whitefly 2 ml")] == ["Whitefly|2 ml"]


def test_a_run_without_results_per_question_or_a_chunking_is_refused(run):
    old = json.loads(json.dumps(run["compare"]))
    for s in old["strategies"]:
        s["per_question"] = [{"id": q["id"], "rank": q["rank"]} for q in s["per_question"]]
    with pytest.raises(ValueError, match="older seamcut compare"):
        questions_data(old, run["documents"], run["chunkings"])
    with pytest.raises(ValueError, match=re.escape(f"no chunking given for the run's strategies {SPLIT}")):
        questions_data(run["compare"], run["documents"], {"structure": run["chunkings"]["structure"]})


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no chromium at {CHROMIUM}")
def test_questions_page_opens_from_disk_with_every_strategys_results(run, tmp_path):
    sync_api = pytest.importorskip("playwright.sync_api")
    page_file = write_questions(tmp_path / "view", run["compare"], run["documents"], run["chunkings"])
    data = run["data"]
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1300, "height": 1000})
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.goto(page_file.as_uri())
        page.wait_for_selector("article.q")
        assert page.locator("article.q").count() == len(data["questions"])
        for q in data["questions"]:
            card = page.locator(f"article.q[data-question-id='{q['id']}']")
            assert card.locator("tr.strategy").count() == len(STRATEGIES)
            for s in STRATEGIES:
                row = card.locator(f"tr.strategy[data-strategy='{slug(s)}']")
                links = row.locator("a.result")
                assert links.count() == len(q["by"][slug(s)]["results"])
                for r, i in zip(q["by"][slug(s)]["results"], range(links.count())):
                    assert links.nth(i).get_attribute("href") == r["href"]
                    assert links.nth(i).get_attribute("data-chunk-id") == r["chunk_id"]
                reason = q["by"][slug(s)]["reason"]
                assert (row.locator(".reason").count() == 1) is (reason is not None)
        straddle = page.locator("article.q[data-question-id='straddle']")
        assert "is split across chunks" in straddle.locator(f"tr[data-strategy='{slug(SPLIT)}'] .reason").inner_text()
        # B chosen in the page: the diff table and the neighbourhoods follow
        page.select_option("#pick-a", slug(SPLIT))
        page.select_option("#pick-b", "structure")
        assert f"Where {SPLIT} (A) and structure (B) cut differently" in page.inner_text("#pair h2")
        cotton = run["split_doc"].id
        first_only_a = page.locator(f"table.diff tr[data-doc-id='{cotton}'] td.a a").first
        assert re.fullmatch(rf"docs/{cotton}\.html#s={re.escape(slug(SPLIT))}&c=[0-9a-f]+",
                            first_only_a.get_attribute("href"))
        straddle.locator("details.around summary").click()
        cut_marks = straddle.locator("details.around .side > div").first.locator(".cut.differs")
        assert cut_marks.count() >= 1
        assert "is split across" in straddle.inner_text()
        straddle.scroll_into_view_if_needed()
        straddle.screenshot(path=str(tmp_path / "questions-straddle.png"))
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(tmp_path / "questions.png"))
        browser.close()
    assert errors == []


def test_compare_json_keeps_every_questions_results_with_their_chunks(run):
    for s in run["compare"]["strategies"]:
        by_id = {c.id: c for c in run["chunkings"][s["name"]]}
        for q in s["per_question"]:
            assert {"id", "rank", "question", "must_contain", "deep_rank", "results"} <= set(q)
            for r in q["results"]:
                assert "text" not in r  # the misses carry it, as before
                c = by_id[r["chunk_id"]]
                assert (r["doc_id"], r["start"], r["end"], r["tokens"]) == (c.doc_id, c.start, c.end, c.tokens)
        for q in s["misses"]:
            assert all(r["text"] == by_id[r["chunk_id"]].text for r in q["results"])
