"""The helpline's view in a real browser (Playwright driving Debian's chromium): the drawn chunks
cover each document exactly, a click on a chunk highlights its page boxes and a click on a box its
chunk, the URL hash selects a chunk, parent and children are linked. Screenshots are kept under
/tmp/seamcut-view-*.png for a person to look at."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from seamcut.report.view import build_view, cut_all, strategies_of

CHROMIUM = "/usr/bin/chromium"
ROOT = Path(__file__).resolve().parents[2]
LABELS = ["structure", "recursive", "parent-child"]

pytestmark = pytest.mark.skipif(not Path(CHROMIUM).exists(),
                                reason=f"no chromium at {CHROMIUM} (Debian package `chromium`)")


@pytest.fixture(scope="module")
def view(tmp_path_factory, helpline_documents):
    out = tmp_path_factory.mktemp("view")
    documents = list(helpline_documents)
    specs = strategies_of(LABELS)
    chunkings = cut_all(documents, specs)
    build_view(out, documents, specs, chunkings)
    return out, documents, chunkings


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def open_doc(browser, out: Path, doc_id: str, fragment: str = ""):
    tab = browser.new_page(viewport={"width": 1500, "height": 950})
    tab.errors = []
    tab.on("console", lambda m: tab.errors.append(m.text) if m.type == "error" else None)
    tab.on("pageerror", lambda e: tab.errors.append(str(e)))
    tab.goto((out / "docs" / f"{doc_id}.html").as_uri() + fragment)
    tab.wait_for_function("document.body.dataset.ready === '1'")
    return tab


DRAWN = """() => Array.from(document.querySelectorAll('#text [data-chunk-id]')).map(e => ({
    id: e.dataset.chunkId, start: +e.dataset.start, end: +e.dataset.end, from: +e.dataset.from,
    to: +e.dataset.to, tokens: +e.dataset.tokens, strategy: e.dataset.strategy,
    role: e.classList.contains('parent') ? 'parent' : '', text: e.textContent}))"""


def test_the_drawn_chunks_cover_each_document_exactly(view, browser):
    out, docs, chunkings = view
    for doc in docs:
        tab = open_doc(browser, out, doc.id, "#s=structure")
        tab.evaluate("window.seamcutView.drawAll()")
        drawn = tab.evaluate(DRAWN)
        gaps = tab.evaluate("() => Array.from(document.querySelectorAll('#text .gap.uncovered'))"
                            ".map(e => [+e.dataset.start, +e.dataset.end])")
        assert tab.errors == []
        tab.close()
        mine = [c for c in chunkings["structure"] if c.doc_id == doc.id]
        assert [d["id"] for d in drawn] == [c.id for c in mine] and mine, doc.source
        assert all(d["strategy"] == "structure" for d in drawn)
        assert [d["tokens"] for d in drawn] == [c.tokens for c in mine]
        # structure has no overlap: the spans tile [0, len(text)), apart from whitespace-only gaps
        # and the uncovered text that inspect reports (drawn as gaps of its own)
        from seamcut.diagnose import inspect_chunks
        ins = inspect_chunks(mine, sources=[doc])
        reported = [(u.start, u.end) for u in ins.coverage.uncovered]
        assert sorted(map(tuple, gaps)) == reported
        pos = 0
        for d in drawn:
            assert d["start"] >= pos, d
            hole = doc.text[pos:d["start"]]
            assert hole.strip() == "" or any(a >= pos and b <= d["start"] for a, b in reported), hole
            # the element's text is the document's text there (its label is CSS, not text)
            assert d["text"] == doc.text[d["from"]:d["to"]]
            assert doc.text[d["start"]:d["from"]].strip() == "" and doc.text[d["to"]:d["end"]].strip() == ""
            pos = d["end"]
        assert doc.text[pos:].strip() == "" or reported


def test_overlap_is_drawn_once_and_shaded(view, browser):
    out, docs, chunkings = view
    doc = next(d for d in docs if d.source.endswith("cotton-manual.pdf"))
    tab = open_doc(browser, out, doc.id, "#s=recursive")
    tab.evaluate("window.seamcutView.drawAll()")
    drawn = tab.evaluate(DRAWN)
    shaded = tab.evaluate("() => Array.from(document.querySelectorAll('#text .ov')).map(e => e.textContent)")
    full = tab.evaluate("() => document.getElementById('text').textContent")
    tab.close()
    mine = [c for c in chunkings["recursive"] if c.doc_id == doc.id]
    assert [d["id"] for d in drawn] == [c.id for c in mine]
    shared = [doc.text[b.start:a.end].strip() for a, b in zip(mine, mine[1:]) if b.start < a.end]
    assert shared and [s.strip() for s in shaded] == shared
    # every character of the document is on the page once: overlap is not drawn twice
    assert "".join(full.split()) == "".join(doc.text.split())


def test_parent_and_children_are_linked(view, browser):
    out, docs, chunkings = view
    doc = next(d for d in docs if d.source.endswith("cotton-manual.pdf"))
    rows = [c for c in chunkings["parent-child"] if c.doc_id == doc.id]
    child = next(c for c in rows if c.parent_id and sum(x.parent_id == c.parent_id for x in rows) > 1)
    tab = open_doc(browser, out, doc.id, "#s=parent-child")
    tab.evaluate(f"window.seamcutView.select('{child.id}')")  # its section drawn and in view
    tab.click(f'#text [data-chunk-id="{child.id}"] > .lab')
    assert tab.get_attribute(f'#text [data-chunk-id="{child.id}"]', "class").split().count("selected") == 1
    parent_cls = tab.get_attribute(f'#text [data-chunk-id="{child.parent_id}"]', "class").split()
    assert "related" in parent_cls and "parent" in parent_cls
    tab.click(f'#text [data-chunk-id="{child.parent_id}"] > .lab')  # the parent: its children outlined
    siblings = [c.id for c in rows if c.parent_id == child.parent_id]
    outlined = tab.evaluate("() => Array.from(document.querySelectorAll('#text .chunk.related'))"
                            ".map(e => e.dataset.chunkId)")
    assert sorted(outlined) == sorted(siblings)
    assert tab.errors == []
    tab.close()


def test_the_hash_selects_a_chunk_and_its_strategy(view, browser):
    out, docs, chunkings = view
    doc = next(d for d in docs if d.source.endswith("soybean-manual.pdf"))
    last = [c for c in chunkings["recursive"] if c.doc_id == doc.id][-1]
    tab = open_doc(browser, out, doc.id, f"#s=recursive&c={last.id}")
    sel = tab.locator("#text [data-chunk-id].selected")
    assert sel.count() == 1 and sel.get_attribute("data-chunk-id") == last.id
    assert tab.evaluate("document.getElementById('strategy').value") == "recursive"
    # its first words, drawn once as overlap at the end of the chunk before, are highlighted too
    mine = [c for c in chunkings["recursive"] if c.doc_id == doc.id]
    assert mine[-1].start < mine[-2].end
    assert tab.locator(f'#text .ov.selected[data-with="{last.id}"]').count() == 1
    assert sel.is_visible() and tab.evaluate(
        "(() => { const r = document.querySelector('#text [data-chunk-id].selected')"
        ".getBoundingClientRect();"
        " return r.top < innerHeight && r.bottom > 0; })()")
    # clicking another chunk puts it in the hash, for a link to share
    first = [c for c in chunkings["recursive"] if c.doc_id == doc.id][0]
    tab.click(f'#text [data-chunk-id="{first.id}"] > .lab')
    assert tab.evaluate("location.hash") == f"#s=recursive&c={first.id}"
    assert tab.errors == []
    tab.close()


def test_pages_are_drawn_with_their_images(view, browser):
    out, docs, _ = view
    doc = next(d for d in docs if d.source.endswith("cotton-manual.pdf"))
    tab = open_doc(browser, out, doc.id)
    tab.wait_for_function("document.querySelector('.page.drawn img') && "
                          "document.querySelector('.page.drawn img').complete")
    pages = tab.evaluate("document.querySelectorAll('#pages .page').length")
    width = tab.evaluate("document.querySelector('.page.drawn img').naturalWidth")
    tab.close()
    assert pages == len(doc.metadata.get("page_sizes") or doc.page_starts) and width > 500


needs_boxes = pytest.mark.skipif(importlib.util.find_spec("seamcut.boxes") is None,
                                 reason="this build records no boxes (seamcut.boxes is missing)")


@needs_boxes
def test_a_chunk_and_its_page_boxes_select_each_other(view, browser, tmp_path):
    out, docs, chunkings = view
    doc = next(d for d in docs if d.source.endswith("cotton-manual.pdf"))
    mine = [c for c in chunkings["structure"] if c.doc_id == doc.id]
    boxed = [c for c in mine if c.metadata.get("boxes")]
    assert boxed, "the helpline's born-digital PDF has boxes"
    crossing = [c for c in boxed if len({b[0] for b in c.metadata["boxes"]}) > 1]
    pick = boxed[len(boxed) // 2]
    tab = open_doc(browser, out, doc.id, "#s=structure")
    tab.click(f'#text [data-chunk-id="{pick.id}"] > .lab')
    boxes = tab.locator(f'#pages .chunk-box[data-chunk-id="{pick.id}"]')
    assert boxes.count() == len(pick.metadata["boxes"])
    assert all("selected" in boxes.nth(i).get_attribute("class").split() for i in range(boxes.count()))
    assert {int(boxes.nth(i).get_attribute("data-page")) for i in range(boxes.count())} == \
        {b[0] for b in pick.metadata["boxes"]}
    tab.screenshot(path="/tmp/seamcut-view-chunk.png")
    # and back: a box of another chunk, clicked on the page, selects that chunk in the text
    other = boxed[0]
    tab.evaluate(f"document.querySelector('#pages .page[data-page=\"{other.metadata['boxes'][0][0]}\"]')"
                 ".scrollIntoView()")
    box = tab.locator(f'#pages .chunk-box[data-chunk-id="{other.id}"]').first
    box.click()
    assert "selected" in tab.get_attribute(f'#text [data-chunk-id="{other.id}"]', "class").split()
    assert "selected" in box.get_attribute("class").split()
    assert tab.locator("#text [data-chunk-id].selected").count() == 1
    if crossing:  # a chunk over a page break shows on both pages
        c = crossing[0]
        tab.evaluate(f"window.seamcutView.select('{c.id}')")
        pages = tab.evaluate(f"() => Array.from(new Set(Array.from(document.querySelectorAll("
                             f"'#pages .chunk-box[data-chunk-id=\"{c.id}\"]')).map(e => e.dataset.page)))")
        assert len(pages) > 1
    assert tab.errors == []
    tab.close()


def test_a_screenshot_of_the_view(view, browser):
    out, docs, chunkings = view
    doc = next(d for d in docs if d.source.endswith("cotton-manual.pdf"))
    pick = [c for c in chunkings["structure"] if c.doc_id == doc.id][4]
    tab = open_doc(browser, out, doc.id, f"#s=structure&c={pick.id}")
    tab.wait_for_timeout(300)
    tab.screenshot(path="/tmp/seamcut-view-helpline.png")
    assert tab.errors == []
    tab.close()
    assert Path("/tmp/seamcut-view-helpline.png").stat().st_size > 20_000
