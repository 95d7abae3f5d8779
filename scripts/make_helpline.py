#!/usr/bin/env python
"""Build the made-up helpline example corpus: examples/helpline-src/* -> examples/helpline/*.pdf.

Everything in the corpus is MADE UP (doses, dates, schemes); it imitates the farmer helpline of
the chunking guide so that seamcut can be run and evaluated on realistic PDFs.

Run:  .venv/bin/python scripts/make_helpline.py     (re-runnable; rewrites every output)

Dependencies (stated here because this script is not part of the package):
  * WeasyPrint (pip install weasyprint): the English manuals and scheme notices, from HTML + CSS
    (`helpline-src/style.css`: tables with ruling lines, `@page` running header and "Page N of M" footer);
  * Debian pango1.0-tools (`pango-view`) and fonts-noto-core: the Hindi and Marathi manuals, one
    pango-view call per page from Pango markup (`helpline-src/*.pango`, pages split at `---page---`),
    because WeasyPrint, fpdf2 and reportlab write a wrong text map for Devanagari (the vowel
    sign ि comes out after its consonant); pages are joined with pypdfium2;
  * poppler-utils (`pdftotext`, `pdftoppm`, `pdfinfo`): checks and the scanned page;
  * Pillow, numpy: the scanned page (rendered, turned 90 degrees plus a small skew, noise added,
    saved as an image-only PDF with no text layer);
  * Tesseract (eng) + seamcut.readers.ocr: checks that the scanned page's answers can be OCR'd;
  * PyYAML: writes questions.yaml.

Checks (the script fails loudly otherwise): every Devanagari page round-trips through pdftotext
(the text of each source line comes back), and every question's ``must_contain`` string appears in
the pdftotext text of its page (whitespace collapsed; for the scanned page, in its OCR text).

Output is deterministic, byte for byte: PDF dates are pinned and SOURCE_DATE_EPOCH is set.
The PDF making itself (WeasyPrint, pango-view pages, scans, pinned dates) is scripts/pdfmaking.py,
shared with scripts/make_corpus.py.
"""
from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from pdfmaking import (MARKUP_TAG, PdfMakingError, html_pdf, missing_tools, norm, page_count, page_text,
                       pango_page, pango_pdf, rasterize, save_scan, scanned)

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "examples" / "helpline"
SRC = ROOT / "examples" / "helpline-src"  # beside the corpus, so reading the corpus folder reads only the PDFs

#: English PDFs made with WeasyPrint: output name -> source
HTML_DOCS = {
    "cotton-manual.pdf": "cotton-manual.html",
    "soybean-manual.pdf": "soybean-manual.html",
    "orange-manual.pdf": "orange-manual.html",
    "crop-insurance-2024.pdf": "crop-insurance-2024.html",
    "crop-insurance-2026.pdf": "crop-insurance-2026.html",
}
#: Devanagari PDFs made with pango-view: output name -> (source, running header)
PANGO_DOCS = {
    "orange-manual-mr.pdf": ("orange-manual-mr.pango",
                             "संत्रा बाग व्यवस्थापन पुस्तिका (काल्पनिक) - MADE UP"),
    "soybean-manual-hi.pdf": ("soybean-manual-hi.pango",
                              "सोयाबीन फसल देखभाल पुस्तिका (काल्पनिक) - MADE UP"),
}
SCAN_DOC = ("seed-subsidy-circular-2019-scan.pdf", "old-seed-subsidy-circular.html")
#: Devanagari notices printed and scanned (image only): output name -> (Pango source, OCR language)
DEVANAGARI_SCANS = {
    "soybean-notice-hi-scan.pdf": ("soybean-notice-hi-scan.pango", "hin"),
    "orange-notice-mr-scan.pdf": ("orange-notice-mr-scan.pango", "mar"),
}

#: (question, must_contain, source, page); must_contain "" = no answer in any document
QUESTIONS: list[tuple[str, object, str | None, int | None]] = [
    # cotton manual: the dose table and the advice under it
    ("Whiteflies are on my cotton. How many ml of spray should I mix per litre of water?",
     "2 ml per litre", "cotton-manual.pdf", 4),
    ("After how many days should I repeat the whitefly spray on cotton?", "7 days", "cotton-manual.pdf", 4),
    ("What is the dose for aphids on cotton per litre of water?", "3 ml per litre", "cotton-manual.pdf", 4),
    ("Cotton leaves have jassids (leafhoppers). What dose should I spray?", "1.5 ml per litre",
     "cotton-manual.pdf", 4),
    ("How much spray per litre for thrips in cotton?", "2.5 ml per litre", "cotton-manual.pdf", 4),
    ("At what time of day should I spray cotton, and how long to wait before the next spray?",
     ["wait seven days before spraying again", "Spray in the evening"], "cotton-manual.pdf", 4),
    ("How many pheromone traps per acre for pink bollworm?", "5 traps per acre", "cotton-manual.pdf", 6),
    ("After how many days should the pink bollworm spray be repeated?", "15 days", "cotton-manual.pdf", 6),
    ("How much fungicide for treating cotton seed before sowing?", "2 g per kg of seed",
     "cotton-manual.pdf", 2),
    ("What spacing should I keep between cotton rows on medium soil?", "90 cm between rows",
     "cotton-manual.pdf", 2),
    ("Cotton leaves are turning red late in the season. What should I spray?",
     "magnesium sulphate at 10 g per litre", "cotton-manual.pdf", 7),
    # soybean manual
    ("When should soybean be sown?", "last week of June", "soybean-manual.pdf", 2),
    ("Girdle beetle in soybean: what is the spray dose?", "1.5 ml per litre", "soybean-manual.pdf", 4),
    ("Whitefly on soybean, how many ml per litre?", "1 ml per litre", "soybean-manual.pdf", 4),
    ("Brown pustules under soybean leaves (rust). What should I spray?", "hexaconazole at 1 ml per litre",
     "soybean-manual.pdf", 5),
    ("How much Rhizobium culture per kg of soybean seed?", "25 g per kg of seed", "soybean-manual.pdf", 2),
    # orange manual
    ("What is the dose for citrus psylla on orange trees?", "0.5 ml per litre", "orange-manual.pdf", 4),
    ("What distance should be kept between orange trees when planting?", "6 metres by 6 metres",
     "orange-manual.pdf", 2),
    ("How often should orange trees be watered in summer when fruit is setting?",
     "Water twice a week in summer", "orange-manual.pdf", 3),
    ("Gum is coming out of the bark of my orange tree. What should I do?", "Bordeaux paste",
     "orange-manual.pdf", 5),
    ("What should I spray against orange fruit drop in August?", "carbendazim at 1 g per litre",
     "orange-manual.pdf", 5),
    # scheme notices: 2024 and 2026 differ
    ("What is the last date to enrol in the crop insurance scheme for kharif 2026?", "15 July 2026",
     "crop-insurance-2026.pdf", 1),
    ("What was the last date for crop insurance enrolment in kharif 2024?", "31 July 2024",
     "crop-insurance-2024.pdf", 1),
    ("What is the last date to apply for crop insurance this year (2026)?", "15 July 2026",
     "crop-insurance-2026.pdf", 1),
    ("In 2024, what share of the premium did a farmer pay for kharif food grains?",
     "2 percent of sum insured", "crop-insurance-2024.pdf", 1),
    ("How much premium does a farmer pay for soybean under the 2026 crop insurance scheme?",
     "1 rupee per application", "crop-insurance-2026.pdf", 1),
    ("What premium share is paid for horticultural crops in the 2026 crop insurance scheme?",
     "5 percent of sum insured", "crop-insurance-2026.pdf", 1),
    ("Which new document is needed to apply for crop insurance in 2026?",
     "Farmer ID (Agristack registration number)", "crop-insurance-2026.pdf", 2),
    ("Which documents did I need to apply for crop insurance in 2024?",
     ["Sowing certificate from the village officer", "Land record (7/12 extract)"],
     "crop-insurance-2024.pdf", 2),
    ("Hail destroyed my crop. Within how many hours must I report it for the insurance claim?",
     "within 72 hours", "crop-insurance-2026.pdf", 3),
    # Marathi
    ("संत्र्यावर सिट्रस सायला दिसल्यास किती मिली औषध प्रति लिटर फवारावे?", "0.5 मिली प्रति लिटर",
     "orange-manual-mr.pdf", 3),
    ("उन्हाळ्यात संत्र्याच्या झाडांना किती वेळा पाणी द्यावे?", "आठवड्यातून दोन वेळा",
     "orange-manual-mr.pdf", 2),
    ("संत्र्यावर मावा किडीसाठी फवारणीची मात्रा किती आहे?", "2 मिली प्रति लिटर", "orange-manual-mr.pdf", 3),
    ("संत्र्याच्या खोडातून डिंक येत आहे, काय उपाय करावा?", "बोर्डो पेस्ट", "orange-manual-mr.pdf", 4),
    # Hindi
    ("सोयाबीन में सफेद मक्खी के लिए कितनी दवा प्रति लीटर छिड़कें?", "1 मिली प्रति लीटर",
     "soybean-manual-hi.pdf", 3),
    ("सोयाबीन के बीज का उपचार कैसे करें?", "3 ग्राम फफूंदनाशक प्रति किलो बीज", "soybean-manual-hi.pdf", 1),
    ("सोयाबीन की बुवाई कब करनी चाहिए?", "जून के आखिरी हफ्ते", "soybean-manual-hi.pdf", 1),
    # the scanned page (no text layer)
    ("What subsidy was given on certified soybean seed in the 2019 circular?", "50 percent",
     SCAN_DOC[0], 1),
    # no answer in any document
    ("What is the subsidy for drip irrigation on banana?", [], None, None),
    ("How many kg of urea does sugarcane need per acre?", [], None, None),
]


def make_html(src: Path, out: Path) -> None:
    html_pdf(out, filename=src)


def make_pango(src: Path, out: Path, header: str) -> None:
    try:
        pango_pdf(src.read_text(encoding="utf-8").split("---page---\n"), out, header)
    except PdfMakingError as err:
        sys.exit(str(err))


def make_scan(src: Path, out: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "clean.pdf"
        html_pdf(pdf, filename=src)
        truth = page_text(pdf, 1)
        [img] = rasterize(pdf, 150)
    # a page fed sideways into the scanner
    img = scanned(img, seed=2019, skew=1.2, turn=90, noise=12)
    save_scan([img], out, 150, "Seed Subsidy Circular 2019 (MADE UP, scanned)")
    (SRC / (out.stem + ".truth.txt")).write_text(truth, encoding="utf-8")


def make_devanagari_scan(src: Path, out: Path, seed: int) -> None:
    """A Devanagari notice rendered with pango-view, printed and scanned at 200 dpi."""
    with tempfile.TemporaryDirectory() as tmp:
        pdf = Path(tmp) / "clean.pdf"
        pango_page(src, pdf, font="Noto Sans Devanagari 13", subpixel=False)
        [img] = rasterize(pdf, 200)
    img = scanned(img, seed=seed, skew=0.8, turn=0, noise=8)
    save_scan([img], out, 200, f"{out.stem} (MADE UP, scanned)")
    truth = MARKUP_TAG.sub("", src.read_text(encoding="utf-8"))
    (SRC / (out.stem + ".truth.txt")).write_text(truth, encoding="utf-8")


def scan_text(pdf: Path) -> str:
    """The OCR text of the scanned page (seamcut's own OCR reader)."""
    import pypdfium2 as pdfium

    sys.path.insert(0, str(ROOT / "src"))
    from seamcut.readers.ocr import ocr_pages

    doc = pdfium.PdfDocument(str(pdf))
    images = [doc[i].render(scale=300 / 72).to_pil() for i in range(len(doc))]
    doc.close()
    pages = ocr_pages(images, languages=["eng"], progress=False)
    print(f"  scan: OCR rotation {pages[0].rotation}, confidence {pages[0].confidence:.1f}")
    return pages[0].text


def write_questions(texts: dict[tuple[str, int], str]) -> None:
    import yaml

    rows, problems = [], []
    for i, (question, must, source, page) in enumerate(QUESTIONS, start=1):
        alts = [must] if isinstance(must, str) else list(must)
        if source is not None:
            have = norm(texts[(source, page)])
            missing = [a for a in alts if norm(a) not in have]
            if missing:
                problems.append(f"q{i:02d} {source} p{page}: {missing} not in the page text")
        rows.append({"id": f"q{i:02d}", "question": question,
                     "must_contain": alts[0] if len(alts) == 1 else alts,
                     "source": source, "page": page})
    if len(rows) != 40:
        problems.append(f"{len(rows)} questions, not 40")
    if problems:
        sys.exit("questions.yaml not written:\n  " + "\n  ".join(problems))
    header = ("# 40 evaluation questions for the MADE UP helpline corpus (scripts/make_helpline.py).\n"
              "# must_contain: text a good chunk must hold (a list = any of them; [] = no answer in\n"
              "# any document). source/page: where the answer is (page 1-based, as pdftotext counts).\n")
    body = yaml.safe_dump(rows, allow_unicode=True, sort_keys=False, width=100)
    (OUT / "questions.yaml").write_text(header + body, encoding="utf-8")


def main() -> None:
    for tool in missing_tools():
        sys.exit(f"{tool} is not installed (apt-get install pango1.0-tools poppler-utils fonts-noto-core)")
    # the corpus folder holds only generated PDFs and questions.yaml
    for old in OUT.iterdir():
        if old.is_file() and old.suffix in (".md", ".txt", ".pdf"):
            old.unlink()
    pages: dict[str, int] = {}
    for name, src in HTML_DOCS.items():
        make_html(SRC / src, OUT / name)
        pages[name] = page_count(OUT / name)
    for name, (src, header) in PANGO_DOCS.items():
        make_pango(SRC / src, OUT / name, header)
        pages[name] = page_count(OUT / name)
    make_scan(SRC / SCAN_DOC[1], OUT / SCAN_DOC[0])
    pages[SCAN_DOC[0]] = page_count(OUT / SCAN_DOC[0])
    for seed, (name, (src, _)) in enumerate(DEVANAGARI_SCANS.items(), start=7):
        make_devanagari_scan(SRC / src, OUT / name, seed)
        pages[name] = page_count(OUT / name)

    texts: dict[tuple[str, int], str] = {}
    for name, n in pages.items():
        if name == SCAN_DOC[0] or name in DEVANAGARI_SCANS:
            if page_text(OUT / name, 1).strip():
                sys.exit(f"{name} has a text layer; it must be image-only")
            if name == SCAN_DOC[0]:
                texts[(name, 1)] = scan_text(OUT / name)
            continue
        for p in range(1, n + 1):
            texts[(name, p)] = page_text(OUT / name, p)
        if "MADE UP" not in texts[(name, 1)]:
            sys.exit(f"{name}: page 1 does not say MADE UP")
    write_questions(texts)
    total = sum(pages.values())
    size = sum((OUT / n).stat().st_size for n in pages)
    for name, n in pages.items():
        print(f"  {name}: {n} pages, {(OUT / name).stat().st_size / 1024:.0f} KiB")
    print(f"{len(pages)} PDFs, {total} pages, {size / 1024 / 1024:.2f} MiB; questions.yaml: {len(QUESTIONS)}")
    if not 30 <= total <= 60:
        sys.exit(f"{total} pages: the corpus should have 30 to 60")


if __name__ == "__main__":
    main()
