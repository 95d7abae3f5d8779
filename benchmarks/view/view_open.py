"""How fast a large document's `seamcut view` page is usable in Chromium.

    python benchmarks/view/view_open.py [--pdf BIG.pdf] [--pages 620] [--out out/view-bench]
                                        [--json benchmarks/view/results/YYYY-MM-DD.json]

Without --pdf, the largest PDF of 600 pages or more under /work/shared/data is taken; where there
is none, one is made by repeating the pages of pdfplumber's 10-page Federal Register issue
(three-column text) up to --pages pages (pypdfium2's page import, in a temporary folder).

It builds the view (read, cut with structure, render the page images: timed), then opens the
document's page from disk in Debian's chromium (Playwright) five times, cold and warm, and prints:

- ready: navigation start to the page's script done (text and pages laid out as placeholders,
  the first text section and the first pages drawn);
- first contentful paint (the browser's own measure);
- jump: time to select a chunk on the document's last page through the URL hash (its text
  section and page drawn, both highlighted);
- the DOM size after opening (elements), to show that not every page is built up front.
"""
from __future__ import annotations

import os

os.environ.setdefault("OMP_NUM_THREADS", "1")

import argparse  # noqa: E402
import json  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "common"))
import record  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
DATA = Path("/work/shared/data")
SEED = DATA / "pdfs" / "pdfplumber" / "federal-register-2020-17221.pdf"


def big_pdf(pages: int, folder: Path) -> Path:
    """The largest PDF of at least ``pages`` pages in the shared data, else one made of copies
    of ``SEED``'s pages."""
    import pypdfium2 as pdfium
    best = None
    for p in sorted(DATA.rglob("*.pdf"), key=lambda p: -p.stat().st_size)[:40]:
        try:
            n = len(pdfium.PdfDocument(p))
        except Exception:  # a broken test file among the data
            continue
        if n >= pages and (best is None or n > best[1]):
            best = (p, n)
    if best:
        return best[0]
    seed = pdfium.PdfDocument(SEED)
    out = pdfium.PdfDocument.new()
    while len(out) < pages:
        out.import_pages(seed, list(range(min(len(seed), pages - len(out)))))
    path = folder / f"repeated-{pages}-pages.pdf"
    out.save(path)
    return path


def build(pdf: Path, out: Path) -> tuple[str, dict[str, float]]:
    from seamcut.pipeline.corpus import read_corpus
    from seamcut.report.view import build_view, cut_all, strategies_of
    times = {}
    t = time.perf_counter()
    corpus = read_corpus([pdf], cache=False, progress=False)
    if corpus.failures:
        sys.exit(f"{pdf}: {corpus.failures[0]}")
    times["read_s"] = time.perf_counter() - t
    specs = strategies_of(["structure"])
    t = time.perf_counter()
    chunkings = cut_all(corpus.documents, specs)
    times["cut_s"] = time.perf_counter() - t
    t = time.perf_counter()
    build_view(out, corpus.documents, specs, chunkings)
    times["view_s"] = time.perf_counter() - t
    doc = corpus.documents[0]
    times["pages"] = len(doc.page_starts)
    times["chunks"] = len(chunkings["structure"])
    times["data_mb"] = round((out / "docs" / f"{doc.id}.js").stat().st_size / 2 ** 20, 2)
    return doc.id, times


def open_times(out: Path, doc_id: str, runs: int) -> list[dict[str, float]]:
    from playwright.sync_api import sync_playwright
    page_url = (out / "docs" / f"{doc_id}.html").as_uri()
    data = json.loads((out / "docs" / f"{doc_id}.js").read_text(encoding="utf-8")
                      .removeprefix("window.SEAMCUT_DOC = ").rstrip().rstrip(";"))
    rows = data["strategies"][0]["chunks"]
    last = next(r for r in reversed(rows) if r[8]) if any(r[8] for r in rows) else rows[-1]
    got = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        for run in range(runs):
            page = browser.new_page(viewport={"width": 1500, "height": 950})
            t = time.perf_counter()
            page.goto(page_url)
            page.wait_for_function("document.body.dataset.ready === '1' && "
                                   "document.querySelector('#text .sec.drawn') !== null")
            wall = time.perf_counter() - t
            nav = page.evaluate("""() => {
                const fcp = performance.getEntriesByName('first-contentful-paint')[0];
                return {ready: window.seamcutView.readyAt, fcp: fcp ? fcp.startTime : null,
                        dom: document.getElementsByTagName('*').length,
                        drawn_pages: document.querySelectorAll('.page.drawn').length,
                        drawn_sections: document.querySelectorAll('.sec.drawn').length};
            }""")
            t = time.perf_counter()
            page.evaluate(f"location.hash = 's=structure&c={last[0]}'")
            page.wait_for_selector(f'#text [data-chunk-id="{last[0]}"].selected')
            jump = time.perf_counter() - t
            got.append({"run": run, "wall_ready_s": round(wall, 3), "ready_ms": round(nav["ready"]),
                        "fcp_ms": None if nav["fcp"] is None else round(nav["fcp"]),
                        "jump_to_last_ms": round(jump * 1000), "dom_elements": nav["dom"],
                        "drawn_pages": nav["drawn_pages"], "drawn_sections": nav["drawn_sections"]})
            page.close()
        browser.close()
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pdf", type=Path)
    ap.add_argument("--pages", type=int, default=620)
    ap.add_argument("--out", type=Path, default=Path("out/view-bench"))
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--json", type=Path, help="the results (by the scheme: benchmarks/view/results/YYYY-MM-DD.json)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="seamcut-view-bench-") as tmp:
        pdf = args.pdf or big_pdf(args.pages, Path(tmp))
        doc_id, build_times = build(pdf, args.out)
    runs = open_times(args.out, doc_id, args.runs)
    result = {"pdf": str(pdf), **{k: round(v, 2) for k, v in build_times.items()}, "runs": runs,
              "median_ready_ms": statistics.median(r["ready_ms"] for r in runs),
              "median_wall_ready_s": statistics.median(r["wall_ready_s"] for r in runs),
              "median_jump_ms": statistics.median(r["jump_to_last_ms"] for r in runs)}
    print(json.dumps(result, indent=1))
    if args.json:
        record.write_json(args.json, result, indent=1, ensure_ascii=True)


if __name__ == "__main__":
    main()
