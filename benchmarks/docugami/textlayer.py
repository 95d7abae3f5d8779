"""Answer phrases copied from another extractor, checked against seamcut's text (issue 38 point 2):
people copy a test set's answers from a PDF viewer or another tool's text, and a phrase seamcut's
text does not hold can never hit. This takes lines of poppler's ``pdftotext -layout`` text of
seeded random pages of the docugami filings (real 10-Qs, never used to tune seamcut's reader),
each as a question's ``must_contain`` with its filing and page, and runs ``seamcut questions
check``'s check on them: how many seamcut's text holds (and on the stated page), how many it does
not but the page's own text layer (pdfium) does, which the check then says, and how many
neither holds.

    .venv/bin/python benchmarks/docugami/textlayer.py [--phrases 100] [--seed 0]
        [--json results/YYYY-MM-DD-textlayer.json]

A line is taken where it has at least 4 words and 25 characters after its runs of spaces are
made one (``pdftotext -layout`` pads columns with spaces; the hit test reads any run of
whitespace as one space, and a table cell's bar as a space).
"""
from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(HERE.parent / "common"))

import pypdfium2 as pdfium  # noqa: E402
import record  # noqa: E402
from data import DOCUGAMI_DOCS as DOCS  # noqa: E402
from seamcut.evaluate.questions import Question  # noqa: E402
from seamcut.evaluate.questions_check import check_questions  # noqa: E402
from seamcut.pipeline.corpus import read_corpus  # noqa: E402

OUTCOMES = ("found on its page", "found, another page", "not found; the text layer has it",
            "not found anywhere")


def page_lines(pdf: Path, page: int) -> list[str]:
    """``pdftotext -layout``'s lines of one page (1-based) with at least 4 words and 25
    characters, runs of spaces made one."""
    out = subprocess.run(["pdftotext", "-layout", "-f", str(page), "-l", str(page), str(pdf), "-"],
                         capture_output=True, text=True, check=True).stdout
    lines = [re.sub(r"\s+", " ", line).strip() for line in out.splitlines()]
    return [line for line in lines if len(line) >= 25 and len(line.split()) >= 4]


def sample(files: list[Path], n: int, seed: int) -> list[Question]:
    """``n`` questions, each one line of a random page of a random filing."""
    rng = random.Random(seed)
    pages = {f: len(pdfium.PdfDocument(str(f))) for f in files}
    out: list[Question] = []
    while len(out) < n:
        f = rng.choice(files)
        page = rng.randint(1, pages[f])
        lines = page_lines(f, page)
        if lines:
            out.append(Question(f"tl-{len(out) + 1:03d}", f"line of {f.name} p. {page}",
                                (rng.choice(lines),), source=f.name, page=page))
    return out


def outcome(check: Any) -> str:
    if check.in_source:
        return OUTCOMES[1] if check.wrong_page else OUTCOMES[0]
    return OUTCOMES[2] if check.in_text_layer else OUTCOMES[3]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--docs", type=Path, default=DOCS)
    ap.add_argument("--phrases", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    files = sorted(args.docs.glob("*.pdf"))
    questions = sample(files, args.phrases, args.seed)
    corpus = read_corpus(files, progress=False)
    report = check_questions(questions, corpus.documents)
    rows = [{"id": c.question.id, "file": c.question.source, "page": c.question.page,
             "phrase": c.question.must_contain[0], "outcome": outcome(c), "problems": c.problems()}
            for c in report.checks]
    counts = Counter(r["outcome"] for r in rows)
    first = Counter(r["outcome"] for r in rows[:25])
    print(f"{len(rows)} lines of pdftotext -layout, {len(files)} filings (seed {args.seed}):")
    for o in OUTCOMES:
        print(f"  {o}: {counts[o]} (of the first 25: {first[o]})")
    for r in rows:
        if r["outcome"] != OUTCOMES[0]:
            print(f"  {r['id']} {r['file']} p. {r['page']}: {r['outcome']}: {r['phrase']!r}")
    if args.json is not None:
        record.write_json(args.json, {"phrases": len(rows), "seed": args.seed, "counts": dict(counts),
                                      "first_25": dict(first), "rows": rows})
        print(f"wrote {args.json}", file=sys.stderr)


if __name__ == "__main__":
    main()
