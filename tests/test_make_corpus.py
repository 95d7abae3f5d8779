"""scripts/make_corpus.py (issue 12's scale corpus) on a small slice: the mix, the shared manual
template, every question's answer on its page and on no other, the same bytes from the same
arguments, and seamcut reading every file (the scans through OCR).

The slice is made once per module into a temporary folder (``--pages 60``: about 100 pages, since
a slice keeps two English manuals and one Devanagari manual of 20 pages or more).
"""
from __future__ import annotations

import csv
import hashlib
import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"
sys.path.insert(0, str(SCRIPTS))
from make_corpus import LENGTHS  # noqa: E402
from pdfmaking import missing_tools, norm, page_texts, squash  # noqa: E402

from tests.helpers.data import DATA  # noqa: E402

PAGES = 60
REAL = DATA / "pdfs"

_missing = missing_tools() + [m for m in ("weasyprint",) if importlib.util.find_spec(m) is None]
pytestmark = pytest.mark.skipif(bool(_missing), reason=f"{', '.join(_missing)} not installed "
                                "(bash scripts/setup.sh --test installs them)")


def make(out: Path, *extra: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    return subprocess.run([sys.executable, str(SCRIPTS / "make_corpus.py"), "--pages", str(PAGES),
                           "--out", str(out), "--real", str(REAL), *extra], env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    if not REAL.is_dir():
        pytest.skip(f"{REAL} (the real PDFs mixed in) is not there")
    out = tmp_path_factory.mktemp("corpus") / f"scale-{PAGES}"
    done = make(out, "--workers", "2")
    assert done.returncode == 0, done.stderr
    assert "generation time:" in done.stdout
    return out


@pytest.fixture(scope="module")
def catalog(corpus) -> dict[str, dict]:
    with open(corpus / "catalog.csv", encoding="utf-8") as fh:
        return {row["file"]: row for row in csv.DictReader(fh)}


@pytest.fixture(scope="module")
def texts(corpus) -> dict[str, list[str]]:
    """pdftotext per page; for scans, the text each page was printed from."""
    truth = json.loads((corpus / "scan-truth.json").read_text(encoding="utf-8"))
    return {p.name: truth.get(p.name) or page_texts(p) for p in sorted(corpus.glob("*.pdf"))}


def digests(folder: Path) -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())
            if p.name != "timing.json"}


def test_files_match_the_catalog_and_the_manifest(corpus, catalog, texts):
    manifest = json.loads((corpus / "manifest.json").read_text(encoding="utf-8"))
    assert sorted(catalog) == sorted(texts) == manifest["files"]
    assert manifest["pages"] == sum(len(t) for t in texts.values())
    assert {r["doc_type"] for r in catalog.values()} == {"manual", "faq", "scheme notice", "advisory", "reference"}


def test_the_mix(corpus, catalog, texts):
    pages = {name: len(t) for name, t in texts.items()}
    total = sum(pages.values())
    assert PAGES <= total <= 2 * PAGES
    dev = sum(n for name, n in pages.items() if catalog[name]["language"] in ("hi", "mr"))
    assert dev >= 0.2 * total
    scans = [name for name in pages if name.endswith("-scan.pdf")]
    assert sum(pages[s] for s in scans) >= 0.05 * total
    for name in scans:  # image only: no text layer
        assert not any(t.strip() for t in page_texts(corpus / name)), name
    for name, row in catalog.items():
        if row["doc_type"] in LENGTHS:
            lo, hi = LENGTHS[row["doc_type"]]
            assert lo <= pages[name] <= hi, (name, pages[name])
            assert "MADE UP" in texts[name][0], name
    assert any(name.startswith("real-") for name in pages)
    assert {r["language"] for r in catalog.values()} >= {"en", "hi", "mr"}


def _headings(text: str) -> list[str]:
    return re.findall(r"^\d+\. [A-Z][a-z ]+$", text, flags=re.M)


def test_english_manuals_share_one_template_with_different_values(catalog, texts):
    manuals = [n for n, r in catalog.items() if r["doc_type"] == "manual" and r["language"] == "en"]
    assert len(manuals) >= 2
    layouts, doses = set(), []
    for name in manuals:
        text = "\n".join(texts[name])
        layouts.add(tuple(_headings(text)) + tuple(h for h in ("Pest", "Spray (per litre of water)", "Repeat after",
                                                              "Threshold", "Sowing window", "Water per irrigation")
                                                   if h in text))
        doses.append(set(re.findall(r"\d\.\d\d ml per litre", norm(text))))
    assert len(layouts) == 1 and len(next(iter(layouts))) >= 17
    assert all(doses) and not set.intersection(*doses)


def test_every_answer_on_its_page_and_no_other(corpus, texts):
    rows = yaml.safe_load((corpus / "questions.yaml").read_text(encoding="utf-8"))
    assert len({r["id"] for r in rows}) == len(rows) >= 10
    # whitespace ignored: pdftotext puts stray spaces inside some Devanagari words (हेक्टे यर)
    pages = [(name, i, squash(t)) for name, ts in texts.items() for i, t in enumerate(ts, start=1)]
    kinds = set()
    for r in rows:
        must = [r["must_contain"]] if isinstance(r["must_contain"], str) else r["must_contain"]
        if not must:
            assert r["source"] is None and r["page"] is None
            kinds.add("none")
            continue
        assert squash(must[0]) in squash(texts[r["source"]][r["page"] - 1]), r
        for alt in must:
            assert len([1 for _, _, t in pages if squash(alt) in t]) == 1, (r["id"], alt)
        kinds.add("scan" if r["source"].endswith("-scan.pdf") else r["source"].split("-")[0])
    assert {"none", "scan", "advisory"} <= kinds
    languages = {"devanagari" if re.search("[\u0900-\u097f]", r["question"]) else "en" for r in rows}
    assert languages == {"en", "devanagari"}


def test_same_arguments_same_bytes_and_a_cached_rerun(corpus, tmp_path):
    before = digests(corpus)
    again = make(corpus)  # same folder: the manifest says it is up to date
    assert again.returncode == 0 and "up to date" in again.stdout, again.stderr
    assert digests(corpus) == before
    other = make(tmp_path / "again", "--workers", "1")  # made anew, in one process
    assert other.returncode == 0, other.stderr
    assert digests(tmp_path / "again") == before


def test_seamcut_reads_every_file(corpus, catalog, texts):
    from seamcut.pipeline.catalog import load_catalog
    from seamcut.pipeline.corpus import read_corpus

    read = read_corpus([corpus], catalog=load_catalog(corpus / "catalog.csv"), workers=2, cache=False,
                       progress=False)
    assert not read.failures, read.failures
    docs = {Path(d.source).name: d for d in read.documents}
    assert sorted(docs) == sorted(catalog)
    for name, doc in docs.items():
        assert doc.text.strip(), name
        if name.endswith("-scan.pdf"):  # OCR gives back most of the words the page was printed from
            printed = set(norm("\n".join(texts[name])).casefold().split())
            got = set(norm(doc.text).casefold().split())
            assert len(printed & got) >= 0.8 * len(printed), name
