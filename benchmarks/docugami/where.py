"""For reviewing the rows (``reviewed.yaml``): where a phrase occurs in the filings as seamcut
reads them, a page's text, a question's whole upstream answer.

    .venv/bin/python benchmarks/docugami/where.py "phrase" [--in "2023 Q3 NVDA"]   each place: file, page, context
    .venv/bin/python benchmarks/docugami/where.py --page "2023 Q3 NVDA" 12          that page as seamcut reads it
    .venv/bin/python benchmarks/docugami/where.py --answer dg-013                   the upstream answer and the row

The phrase is matched as the hit test matches (``normalise``d, a substring). The filings are read
once (about 2 min on two cores) and kept in ``--cache``; delete it after a reader change.
"""
from __future__ import annotations

import argparse
import csv
import fnmatch
import pickle
import sys
from bisect import bisect_right
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "src"))

from seamcut.evaluate.questions import normalise  # noqa: E402

DATA = HERE.parents[2] / "shared" / "data" / "docugami-10q"
Filings = dict[str, tuple[str, list[int], list[str]]]  # name: normalised text, page starts in it, raw pages


def filings(cache: Path) -> Filings:
    """Each filing's normalised text, where each page starts in it, and its pages' raw text."""
    if cache.is_file():
        return pickle.loads(cache.read_bytes())
    from seamcut.evaluate.questions_check import _Text
    from seamcut.pipeline.corpus import read_corpus
    corpus = read_corpus([DATA / "docs"], progress=True)
    out: Filings = {}
    for d in corpus.documents:
        t = _Text(d)
        ends = [*d.page_starts[1:], len(d.text)]
        out[Path(d.source).name] = (t.text, t.page_starts, [d.text[a:b] for a, b in zip(d.page_starts, ends)])
    cache.write_bytes(pickle.dumps(out))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("phrase", nargs="?")
    ap.add_argument("--in", dest="within", default="", help="part of the filings' names (default: all 20)")
    ap.add_argument("--page", nargs=2, metavar=("FILING", "PAGE"))
    ap.add_argument("--answer", metavar="ID")
    ap.add_argument("--cache", type=Path, default=Path("/tmp/docugami-filings.pkl"))
    a = ap.parse_args()
    if a.answer:
        with open(DATA / "qna_data.csv", encoding="utf-8-sig", newline="") as fh:
            r = list(csv.DictReader(fh))[int(a.answer.split("-")[1]) - 1]
        print(f"{a.answer} [{r['Question Type']}, {r['Source Chunk Type']}, {r['Source Docs']}]\n"
              f"Q: {r['Question']}\nA: {r['Answer']}\n")
        rows = yaml.safe_load((HERE / "questions.yaml").read_text(encoding="utf-8"))
        print("row:", next((q for q in rows if q["id"] == a.answer), "none (left out)"))
        return
    docs = filings(a.cache)
    if a.page:
        name = next(n for n in sorted(docs) if a.page[0] in n)
        print(f"== {name} page {a.page[1]} ==\n{docs[name][2][int(a.page[1]) - 1]}")
        return
    if not a.phrase:
        ap.error("a phrase, --page or --answer")
    want, n = normalise(a.phrase), 0
    for name, (text, starts, _) in sorted(docs.items()):
        if not fnmatch.fnmatch(name, f"*{a.within}*"):
            continue
        at = text.find(want)
        while at >= 0:
            print(f"{name} p.{max(1, bisect_right(starts, at))}: ...{text[max(0, at - 90):at + len(want) + 90]}...")
            n += 1
            at = text.find(want, at + len(want))
    print(f"{n} place(s)")


if __name__ == "__main__":
    main()
