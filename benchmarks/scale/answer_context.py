"""Does the chunk that holds the answer also hold the document's title? Hit rate split by that,
per strategy, from a finished `seamcut compare` (its JSON and its index folder).

    .venv/bin/python benchmarks/scale/answer_context.py RESULTS.json[.gz] INDEX_DIR [--json OUT]

For each question with a `source`, the chunks of that document whose text holds one of its
`must_contain` answers (whitespace and case folded) are looked up in the strategy's index; the
question counts as "title in the chunk" when one of them also holds the first 40 characters of
the document's first line (its title) in its text (structure's heading path is part of a chunk's
text). Written for the scale corpus (`benchmarks/scale/scale_compare.py`), whose hundreds of advisories,
notices and manuals share a template: there the title (district, week, crop, year) is what tells
one document's "total rainfall of 91.6 mm" from another's. ``--json`` by the scheme:
``benchmarks/scale/results/YYYY-MM-DD-compare[-sampleN]-title.json`` (the counts and a `recorded` block).
"""
from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from pathlib import Path
from typing import Any

import lancedb

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "common"))
import record  # noqa: E402

from seamcut.index.rows import sql_str  # noqa: E402


def fold(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFC", text)).lower()


def split(results: dict[str, Any], index_dir: Path) -> dict[str, dict[str, list[int]]]:
    """Per strategy: [questions, hits] where an answer chunk holds the title, and where none does."""
    out: dict[str, dict[str, list[int]]] = {}
    for strategy in results["strategies"]:
        folder = index_dir / strategy["name"] / "lance"
        if not folder.is_dir():
            continue
        table = lancedb.connect(str(folder)).open_table("chunks")
        by_doc: dict[str, list[str]] = {}
        counts = {"title": [0, 0], "no_title": [0, 0]}
        for q in strategy["per_question"]:
            if not q.get("source"):
                continue
            if q["source"] not in by_doc:
                rows = (table.search().where(f"file = {sql_str(q['source'])}").limit(1_000_000)
                        .select(["text", "start"]).to_pandas().sort_values("start"))
                by_doc[q["source"]] = list(rows["text"])
            texts = by_doc[q["source"]]
            if not texts:
                continue
            title = fold(texts[0].split("\n")[0])[:40]
            holding = [t for t in texts if any(fold(m) in fold(t) for m in q["must_contain"])]
            key = "title" if any(title in fold(t) for t in holding) else "no_title"
            counts[key][0] += 1
            counts[key][1] += bool(q.get("rank"))
        out[strategy["name"]] = counts
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("results", type=Path, help="a compare JSON (per_question kept)")
    ap.add_argument("index_dir", type=Path, help="the compare's index folder (--out DIR/index)")
    ap.add_argument("--json", type=Path, help="write the counts here too")
    a = ap.parse_args()
    counts = split(record.read_json(a.results), a.index_dir)
    print("| strategy | answer chunk holds the title: hits | does not: hits |\n|---|---:|---:|")
    for name, c in counts.items():
        t, n = c["title"], c["no_title"]
        print(f"| {name} | {t[1]}/{t[0]} | {n[1]}/{n[0]} |")
    if a.json:
        record.write_json(a.json, counts, indent=1, ensure_ascii=True)


if __name__ == "__main__":
    main()
