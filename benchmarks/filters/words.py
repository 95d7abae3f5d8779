"""Which ranking should search without the words that named a filter (issue 54)? Once a
question's filter is read from its words ("Apple's gross margin in Q3 2023": company 'Apple',
period '2023 Q3'), every result holds those values; this script searches each docugami question
four ways, with the filter read from the question, and counts the hits within the budget:

- ``whole``: both rankings search the question as asked;
- ``both``: both rankings search it without the filter's words;
- ``vector``: only the vector ranking does (the word ranking searches the question whole);
- ``words``: only the word ranking (BM25) does, as seamcut searches (``Asking.query``).

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/filters/words.py \\
        [--strategies structure,semantic,recursive,paragraph,sentence,fixed] [--budget 1024]

Each strategy's index of the 20 filings (``../shared/data/docugami-10q``, with this folder's
catalog) is built once under ``out/filters/words/`` (``seamcut index``; kept for the next run).
Hybrid search, RRF of the two rankings as ``Index`` fuses them, 50 deep; a hit is an answer
phrase of the question in a result sent within the budget (a question naming its filing: in a
result of that filing). Writes ``results/YYYY-MM-DD-words.md``.
"""
from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(HERE.parent / "common"))

import record  # noqa: E402
from data import DOCUGAMI_DOCS as DOCS  # noqa: E402
from data import DOCUGAMI_QUESTIONS as QUESTIONS  # noqa: E402
from seamcut.evaluate.budget import DEPTH, Ranked  # noqa: E402
from seamcut.evaluate.questions import load_questions, source_matches  # noqa: E402
from seamcut.index import Index, Query  # noqa: E402
from seamcut.index.asked import FieldValues, read_filters, without  # noqa: E402

CATALOG = HERE / "docugami-catalog.csv"
WAYS = ("whole", "both", "vector", "words")


def build(strategy: str, out: Path) -> Path:
    """The strategy's index of the filings (built where missing)."""
    db = out / strategy
    if not (db / "seamcut-index.json").exists():
        subprocess.run([sys.executable, "-m", "seamcut.cli", "index", str(DOCS), "--db", str(db), "-s", strategy,
                        "--catalog", str(CATALOG)], check=True)
    return db


def judge(db: Path, budget: int) -> dict[str, dict[str, int]]:
    """Per way: hits within ``budget`` on the questions naming their filing and on the others."""
    index = Index(db)
    values = FieldValues(index.store.view().asked_values())
    out = {w: {"named": 0, "others": 0} for w in WAYS}
    for q in (q for q in load_questions(QUESTIONS) if q.answerable):
        asking = index.asked(q.question, 4)
        kept = {f.field for f in asking.filters}
        # the words of the filters kept that hold one value (as Index.asked leaves them out),
        # "the latest" left in: it is read after these, of the index's periods
        gone = without(q.question, [w for a in read_filters(q.question, values) if a.filter.field in kept
                                    and a.filter.op == "eq" for w in a.words])
        texts = {"whole": (q.question, q.question), "both": (gone, gone), "vector": (gone, q.question),
                 "words": (q.question, gone)}
        for way, (v, w) in texts.items():
            # hybrid: the vector ranking reads v, the word ranking searches w, 50 deep
            chunks = [h.chunk for h in index.search(Query(v, w), DEPTH, filters=asking.filters)]
            first = next((n for n, c in enumerate(chunks, 1) if q.answered_in(c.source, c.text)
                          and (not q.source or source_matches(q.source, c.source))), None)
            hit = Ranked(tuple(c.tokens for c in chunks), first).rank_within(budget) is not None
            out[way]["named" if q.source else "others"] += hit
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--strategies", default="structure,semantic,recursive,paragraph,sentence,fixed")
    ap.add_argument("--budget", type=int, default=1024, help="tokens sent per question")
    ap.add_argument("--out", type=Path, default=REPO / "out" / "filters" / "words")
    args = ap.parse_args()
    started = record.stamp()
    rows = []
    for strategy in args.strategies.split(","):
        got = judge(build(strategy, args.out), args.budget)
        rows.append(f"| `{strategy}` | " + " | ".join(f"{got[w]['named']} / {got[w]['others']}" for w in WAYS) + " |")
        print(rows[-1], flush=True)
    md = (f"`benchmarks/filters/words.py --strategies {args.strategies} --budget {args.budget}` (174 reviewed "
          f"docugami rows: hits within {args.budget} tokens on the 111 naming their filing / the 63 others; "
          f"hybrid, the filter read from the question)\n\n"
          f"| strategy | {' | '.join(WAYS)} |\n|---|{'---|' * len(WAYS)}\n" + "\n".join(rows) + "\n\n"
          + record.markdown_line(started))
    path = record.result_path(HERE, "words", ".md")
    path.write_text(md, encoding="utf-8")
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
