#!/usr/bin/env python
"""Make the MADE UP scale corpus of issue 12: about 9,000 pages modelled on the guide's farmer helpline.

    .venv/bin/python scripts/make_corpus.py [--pages 9000] [--out DIR] [--workers N] [--seed 12]

Writes, into ``--out`` (default ``$SEAMCUT_CACHE/corpus/scale-<N>``, else
``~/.cache/seamcut/corpus/scale-<N>``; never into the repository):

* crop manuals (20-80 pages; one English manual per crop, 50 crops, all on one section and table
  template with different values: sowing windows by district, varieties, fertiliser, irrigation,
  a pest dose table with a row per pest, diseases, harvest, a crop calendar spanning pages), Hindi
  and Marathi manuals for 30 of the crops, scheme notices (1-4 pages), weekly agromet advisories
  (1-2 pages) and FAQs (5-15 pages), in English, Hindi and Marathi (at least 20% of the pages in
  Devanagari), about 6.5% of the pages scanned (image only, no text layer: seamcut OCRs them);
* the real PDFs of ../shared/data/pdfs, copied in (``real-*.pdf``; no questions on them);
* ``catalog.csv`` (file, doc_type, crop, year, language), ``questions.yaml`` (id, question,
  must_contain, source, page: as examples/helpline/questions.yaml), ``scan-truth.json`` (the text each
  scanned page was printed from), ``manifest.json`` (a digest of this generator's code and
  arguments: a rerun with the same ones returns at once; the counts and shares) and ``timing.json``
  (generation time, the one file that differs between two runs).

``--pages N`` makes a proportional slice (same mix, fewer documents; at least two English manuals
and one Devanagari manual, so a slice can be well over N when N is small). Documents are rendered in
``--workers`` spawned processes (default one per core). The same arguments give the same bytes.

Checks (the script fails naming the file and the reason otherwise): each Devanagari page's text
comes back out with pdftotext, scanned PDFs have no text layer, every generated document says MADE
UP on page 1, every question's must_contain is on its stated page (pdftotext per page, whitespace
ignored since pdftotext splits some Devanagari words; for scanned pages the rendered text) and each
answer occurs on no other page of the corpus, the crops of no-answer questions occur nowhere, and
the Devanagari and scanned shares are met.

Everything here is MADE UP: doses, dates, prices and schemes are invented and are not advice.
"""
from __future__ import annotations

import argparse
import bisect
import csv
import hashlib
import json
import multiprocessing
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus_markup import markup  # noqa: E402
from corpus_plan import FULL_PAGES, Doc, Question, no_answer_questions, plan  # noqa: E402
from corpus_words import ABSENT_CROPS  # noqa: E402
from pdfmaking import (PdfMakingError, html_pdf, missing_tools, page_texts, pango_pdf, rasterize,  # noqa: E402
                       save_scan, scanned, squash)

ROOT = HERE.parent
STYLE_DIR = ROOT / "examples" / "helpline-src"  # style.css of the helpline example
REAL_PDFS = ROOT.parent / "shared" / "data" / "pdfs"
GENERATOR = [HERE / n for n in ("make_corpus.py", "corpus_plan.py", "corpus_markup.py", "corpus_words.py",
                                "pdfmaking.py")] + [STYLE_DIR / "style.css"]
SCAN_DPI = 300
MIN_DEVANAGARI, MIN_SCANNED, MIN_TEMPLATE_CROPS = 0.20, 0.05, 40
#: pages per document of each kind, as the issue asks
LENGTHS = {"manual": (20, 80), "faq": (5, 15), "scheme notice": (1, 4), "advisory": (1, 2)}
#: language of the real PDFs that are not in English
REAL_LANGUAGES = {"right_to_left_01.pdf": "ar"}


class CorpusError(RuntimeError):
    """The corpus failed a check; the message names the file and the reason."""


def default_out(pages: int, seed: int) -> Path:
    cache = Path(os.environ.get("SEAMCUT_CACHE") or Path.home() / ".cache" / "seamcut")
    return cache / "corpus" / (f"scale-{pages}" + ("" if seed == 12 else f"-seed{seed}"))


def digest(pages: int, seed: int) -> str:
    h = hashlib.sha256(json.dumps({"pages": pages, "seed": seed}).encode())
    for path in GENERATOR:
        h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


# -- rendering (in worker processes) -----------------------------------------------------------------
def _worker_init() -> None:
    os.environ["OMP_NUM_THREADS"] = "1"


def render(doc: Doc, folder: str) -> tuple[str, list[str], float]:
    """Write ``doc`` as a PDF into ``folder``: (name, the text of each page, seconds)."""
    try:
        return _render(doc, folder)
    except subprocess.CalledProcessError as err:
        stderr = (err.stderr or b"").decode("utf-8", "replace").strip()[-500:]
        raise PdfMakingError(f"{doc.name}: {err.cmd[0]} failed ({err.returncode}): {stderr}") from None


def _render(doc: Doc, folder: str) -> tuple[str, list[str], float]:
    start = time.perf_counter()
    target = Path(folder) / doc.name
    kind, content = markup(doc)
    with tempfile.TemporaryDirectory() as tmp:
        clean = Path(tmp) / "clean.pdf" if doc.scanned else target
        if kind == "html":
            html_pdf(clean, string=content, base_url=str(STYLE_DIR) + "/")
        else:
            bodies, header = content
            pango_pdf(bodies, clean, header)
        texts = page_texts(clean)
        if doc.scanned:
            rng = random.Random(doc.seed)
            images = [scanned(img, seed=doc.seed + i, skew=rng.uniform(-1.2, 1.2), turn=0, noise=rng.uniform(4, 7))
                      for i, img in enumerate(rasterize(clean, SCAN_DPI))]
            save_scan(images, target, SCAN_DPI, f"{target.stem} (MADE UP, scanned)")
            if any(t.strip() for t in page_texts(target)):
                raise PdfMakingError(f"{doc.name}: has a text layer; a scan must be image-only")
    return doc.name, texts, time.perf_counter() - start


def render_all(docs: list[Doc], folder: Path, workers: int) -> dict[str, list[str]]:
    """Render every document in ``workers`` spawned processes, the longest first; progress on stderr."""
    texts: dict[str, list[str]] = {}
    total, done, last = sum(d.pages for d in docs), 0, time.monotonic()
    by_name = {d.name: d for d in docs}
    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_worker_init) as pool:
        futures = [pool.submit(render, d, str(folder)) for d in sorted(docs, key=lambda d: -d.pages)]
        for future in as_completed(futures):
            try:
                name, pages, _ = future.result()
            except BaseException:
                pool.shutdown(cancel_futures=True)
                raise
            texts[name] = pages
            done += by_name[name].pages
            if time.monotonic() - last > 10:
                last = time.monotonic()
                print(f"  {len(texts)}/{len(docs)} documents, about {done}/{total} pages", file=sys.stderr, flush=True)
    return texts


def copy_real(pages: int, folder: Path, real: Path = REAL_PDFS) -> dict[str, list[str]]:
    """Copy the real PDFs under ``real`` in, the smallest first, about their share of a 9,000-page
    corpus (at least one)."""
    found = sorted(real.rglob("*.pdf"))
    if not found:
        raise CorpusError(f"{real}: no real PDFs to mix in")
    sized = sorted(((len(page_texts(p)), p.name, p) for p in found))
    budget = sum(n for n, _, _ in sized) * pages / FULL_PAGES
    texts: dict[str, list[str]] = {}
    used = 0
    for n, name, path in sized:
        if texts and used + n > budget:
            break
        target = folder / f"real-{name}"
        shutil.copyfile(path, target)
        texts[target.name] = page_texts(target)
        used += n
    return texts


# -- checks ------------------------------------------------------------------------------------------
class PageIndex:
    """Every page's text, squashed (no whitespace, case-folded), to find on which pages a string occurs.

    Without whitespace, a string found once is surely found once with it (the check is stricter).
    """

    def __init__(self, texts: dict[str, list[str]]) -> None:
        self.keys: list[tuple[str, int]] = []
        self.starts: list[int] = []
        parts, at = [], 0
        for name in sorted(texts):
            for page, text in enumerate(texts[name], start=1):
                t = squash(text)
                self.keys.append((name, page))
                self.starts.append(at)
                parts.append(t)
                at += len(t) + 1
        self.text = "\0".join(parts)

    def pages(self, needle: str) -> set[tuple[str, int]]:
        needle = squash(needle)
        found, at = set(), self.text.find(needle)
        while at >= 0:
            found.add(self.keys[bisect.bisect_right(self.starts, at) - 1])
            at = self.text.find(needle, at + 1)
        return found


def locate(questions: list[Question], index: PageIndex) -> list[dict]:
    """questions.yaml rows: each answer's page found and checked (on its source, on no other page)."""
    rows, problems = [], []
    for i, q in enumerate(questions, start=1):
        page = None
        if q.must:
            for alt in q.must:
                where = index.pages(alt)
                if len(where) != 1:
                    problems.append(f"q{i:04d} {q.source}: {alt!r} is on {len(where)} pages "
                                    f"{sorted(where)[:4]} (must be on one)")
            on_source = [p for n, p in index.pages(q.must[0]) if n == q.source]
            if not on_source:
                problems.append(f"q{i:04d} {q.source}: {q.must[0]!r} is not in its text")
            else:
                page = on_source[0]
        rows.append({"id": f"q{i:04d}", "question": q.question,
                     "must_contain": q.must[0] if len(q.must) == 1 else q.must,
                     "source": q.source, "page": page})
    for crop in ABSENT_CROPS:
        if index.pages(crop):
            problems.append(f"{crop!r} (a no-answer question's crop) occurs in {sorted(index.pages(crop))[:3]}")
    if problems:
        raise CorpusError("questions do not check out:\n  " + "\n  ".join(problems[:40]))
    return rows


def check_shares(docs: list[Doc], texts: dict[str, list[str]], full: bool) -> dict:
    """Page counts per kind, language and scan; fails where a share the issue asks for is not met."""
    pages = {name: len(t) for name, t in texts.items()}
    total = sum(pages.values())
    dev = sum(pages[d.name] for d in docs if d.lang in ("hi", "mr"))
    scans = sum(pages[d.name] for d in docs if d.scanned)
    template_crops = len({d.crop for d in docs if d.kind == "manual" and d.lang == "en"})
    problems, odd = [], []
    for d in docs:
        first = texts[d.name][0] if texts[d.name] else ""
        if "MADE UP" not in first:
            problems.append(f"{d.name}: page 1 does not say MADE UP")
        lo, hi = LENGTHS[d.kind]
        if not lo <= pages[d.name] <= hi:  # WeasyPrint decides; reported, not fatal
            odd.append(f"{d.name}: {pages[d.name]} pages ({lo} to {hi} wanted)")
            print(f"warning: {odd[-1]}", file=sys.stderr)
    if dev < MIN_DEVANAGARI * total:
        problems.append(f"Devanagari pages {dev}/{total}: under {MIN_DEVANAGARI:.0%}")
    if scans < MIN_SCANNED * total:
        problems.append(f"scanned pages {scans}/{total}: under {MIN_SCANNED:.0%}")
    if full and template_crops < MIN_TEMPLATE_CROPS:
        problems.append(f"{template_crops} crops with English manuals (at least {MIN_TEMPLATE_CROPS} wanted)")
    if problems:
        raise CorpusError("the corpus does not check out:\n  " + "\n  ".join(problems[:40]))
    kinds = Counter()
    for d in docs:
        kinds[f"{d.kind} {d.lang}{' scan' if d.scanned else ''}"] += pages[d.name]
    return {"pages": total, "documents": len(pages), "devanagari_pages": dev, "scanned_pages": scans,
            "template_crops": template_crops, "pages_by_kind": dict(sorted(kinds.items())), "length_outside": odd}


# -- output ------------------------------------------------------------------------------------------
def write_catalog(docs: list[Doc], real: list[str], folder: Path) -> None:
    with open(folder / "catalog.csv", "w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh, lineterminator="\n")
        out.writerow(["file", "doc_type", "crop", "year", "language"])
        for d in sorted(docs, key=lambda d: d.name):
            out.writerow([d.name, d.kind, d.crop, d.year, d.lang])
        for name in sorted(real):
            out.writerow([name, "reference", "none", "", REAL_LANGUAGES.get(name.removeprefix("real-"), "en")])


def write_questions(rows: list[dict], folder: Path) -> None:
    import yaml

    header = ("# Questions on the MADE UP scale corpus (scripts/make_corpus.py), drawn from its facts.\n"
              "# must_contain: text a good chunk must hold (a list = any of them: the same fact in the crop's\n"
              "# manual in another language; [] = no answer in any document). source/page: where the first\n"
              "# one is (page 1-based, as pdftotext counts). Each answer occurs on one page of the corpus.\n")
    body = yaml.safe_dump(rows, allow_unicode=True, sort_keys=False, width=120)
    (folder / "questions.yaml").write_text(header + body, encoding="utf-8")


def build(pages: int, seed: int, folder: Path, workers: int, real_pdfs: Path = REAL_PDFS) -> dict:
    """Plan, render, check and write the corpus into ``folder`` (empty); returns the manifest."""
    docs = plan(pages, seed)
    texts = render_all(docs, folder, workers)
    real = copy_real(pages, folder, real_pdfs)
    stats = check_shares(docs, texts, full=pages >= FULL_PAGES)
    questions = [q for d in docs for q in d.questions]
    questions += no_answer_questions(max(2, round(6 * pages / FULL_PAGES)), random.Random(seed))
    rows = locate(questions, PageIndex(texts | real))
    write_catalog(docs, list(real), folder)
    write_questions(rows, folder)
    truth = {d.name: texts[d.name] for d in sorted(docs, key=lambda d: d.name) if d.scanned}
    (folder / "scan-truth.json").write_text(json.dumps(truth, ensure_ascii=False, indent=0), encoding="utf-8")
    stats["pages"] += sum(len(t) for t in real.values())
    stats["documents"] += len(real)
    stats["real_pdfs"] = len(real)
    stats["questions"] = len(rows)
    stats["questions_by_kind"] = dict(sorted(Counter(q.kind for q in questions).items()))
    stats["questions_by_language"] = dict(sorted(Counter(q.language for q in questions).items()))
    return {"digest": digest(pages, seed), "pages_asked": pages, "seed": seed, **stats,
            "files": sorted([d.name for d in docs] + list(real))}


def up_to_date(out: Path, pages: int, seed: int) -> dict | None:
    try:
        manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if manifest.get("digest") != digest(pages, seed):
        return None
    if not all((out / name).is_file() for name in manifest["files"] + ["catalog.csv", "questions.yaml"]):
        return None
    return manifest


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pages", type=int, default=FULL_PAGES, help="about this many pages (default 9000)")
    ap.add_argument("--out", type=Path, help="output folder (default: the cache, scale-<pages>)")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: one per core)")
    ap.add_argument("--seed", type=int, default=12)
    ap.add_argument("--real", type=Path, default=REAL_PDFS,
                    help="the folder of real PDFs mixed in (default ../shared/data/pdfs beside the repository)")
    args = ap.parse_args(argv)
    if args.pages < 1 or args.workers < 1:
        ap.error("--pages and --workers must be at least 1")
    missing = missing_tools()
    if missing:
        print(f"error: {', '.join(missing)} not installed (apt-get install pango1.0-tools poppler-utils "
              "fonts-noto-core)", file=sys.stderr)
        return 2
    out = (args.out or default_out(args.pages, args.seed)).resolve()
    manifest = up_to_date(out, args.pages, args.seed)
    if manifest is not None:
        try:
            made = json.loads((out / "timing.json").read_text(encoding="utf-8"))["generation_seconds"]
        except (OSError, ValueError, KeyError):
            made = float("nan")
        print(f"{out}: up to date ({manifest['documents']} documents, {manifest['pages']} pages, "
              f"{manifest['questions']} questions; made in {made:.0f} s)")
        return 0
    if out.exists() and any(out.iterdir()) and not (out / "manifest.json").exists():
        print(f"error: {out} is not empty and holds no corpus manifest; not overwriting it", file=sys.stderr)
        return 2
    out.parent.mkdir(parents=True, exist_ok=True)
    start = time.perf_counter()
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.partial-", dir=out.parent))
    try:
        manifest = build(args.pages, args.seed, tmp, args.workers, args.real)
    except (CorpusError, PdfMakingError) as err:
        shutil.rmtree(tmp, ignore_errors=True)
        print(f"error: {err}", file=sys.stderr)
        return 1
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    seconds = time.perf_counter() - start
    # the workers' CPU time and their tools' (pango-view, pdftotext, pdftoppm), and this process's
    usage = [resource.getrusage(who) for who in (resource.RUSAGE_CHILDREN, resource.RUSAGE_SELF)]
    cpu = sum(u.ru_utime + u.ru_stime for u in usage)
    timing = {"generation_seconds": round(seconds, 1), "cpu_seconds": round(cpu, 1), "workers": args.workers}
    # every other file is the same bytes for the same arguments; the time goes apart
    (tmp / "timing.json").write_text(json.dumps(timing, indent=1), encoding="utf-8")
    (tmp / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=1), encoding="utf-8")
    if out.exists():
        shutil.rmtree(out)
    tmp.rename(out)
    size = sum(p.stat().st_size for p in out.iterdir()) / 2**20
    print(f"{out}: {manifest['documents']} documents ({manifest['real_pdfs']} real), {manifest['pages']} pages, "
          f"{manifest['devanagari_pages'] / manifest['pages']:.1%} Devanagari, "
          f"{manifest['scanned_pages'] / manifest['pages']:.1%} scanned, {manifest['template_crops']} crops on the "
          f"manual template, {manifest['questions']} questions, {size:.0f} MiB")
    print(f"generation time: {seconds:.1f} s with {args.workers} workers ({cpu:.0f} s of CPU time)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
