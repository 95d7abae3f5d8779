"""What each rule of ``seamcut.readers.found_fields`` finds on three sets, and how often it is right.

The sets, read without a catalog (so every field is the rules' own):

- ``docugami``: the 20 10-Q filings (``../shared/data/docugami-10q/docs``). Truth: the period
  of ``benchmarks/docugami/catalog.csv`` (the data set's own labels: a fiscal quarter for Apple
  and Nvidia, a calendar one for Amazon and Intel, neither for two of Microsoft's), the year of
  the file name, the company of the catalog for the title (right where the title names it:
  a 10-Q's title element is its registrant's name), the cover's period end for the date
  (``truth.csv``, read by eye), English.
- ``helpline``: ``examples/helpline`` (10 PDFs, 3 of them scans). Truth: the year and language
  of its ``catalog.csv``; the title as each first line prints it (``truth.csv``, by eye); none
  states a date or a quarter.
- ``docling``: docling's test PDFs (``../shared/data/pdfs/docling``). Truth: the title from
  ``groundtruth/*.md``'s first heading, judged by eye (``truth.csv`` says where and why it
  differs); the date, year and language by eye.

A truth of ``-`` means the document states none (a value found is wrong); ``?`` or no truth,
not judged. For each field and rule: documents it found a value for, how many were right, and
per field the documents with a true value none found (missed). Writes
``results/YYYY-MM-DD-found.{json,md}`` with the commit.

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/fields/found.py
"""
from __future__ import annotations

import argparse
import csv
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks" / "common"))

import record  # noqa: E402

HERE = Path(__file__).parent
DATA = ROOT.parent / "shared" / "data"
SETS = {"docugami": DATA / "docugami-10q" / "docs", "helpline": ROOT / "examples" / "helpline",
        "docling": DATA / "pdfs" / "docling"}
FIELDS = ("title", "date", "period", "year", "language", "folder")
NONE, UNJUDGED = "-", "?"


def _norm(value: Any) -> str:
    return " ".join(unicodedata.normalize("NFC", str(value)).casefold().split())


def _catalog(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8") as f:
        return {row["file"]: row for row in csv.DictReader(f)}


def truths() -> dict[tuple[str, str], dict[str, str]]:
    """(set, file) -> {field: true value, ``-`` for none, ``?`` not judged}."""
    out: dict[tuple[str, str], dict[str, str]] = defaultdict(dict)
    for row in _catalog(ROOT / "benchmarks" / "docugami" / "catalog.csv").values():
        out["docugami", row["file"]].update(
            title=row["company"], period=row["period"], year=row["file"][:4], language="en")
    for row in _catalog(ROOT / "examples" / "helpline" / "catalog.csv").values():
        out["helpline", row["file"]].update(year=row["year"], language=row["language"],
                                            date=NONE, period=NONE)
    for pdf in sorted(SETS["docling"].glob("*.pdf")):
        out["docling", pdf.name].update(date=NONE, period=NONE, year=NONE, language="en")
    with (HERE / "truth.csv").open(encoding="utf-8") as f:
        for row in csv.DictReader(f):
            out[row["set"], row["file"]][row["field"]] = row["value"]
    return out


def right(set_name: str, field: str, found: Any, truth: str, folder: str) -> bool:
    """Whether a found value is right: equal once case and spaces are set aside; a filing's
    title where it names the company; a folder where it is the file's folder's name."""
    if field == "folder":
        return found == folder
    if set_name == "docugami" and field == "title":
        return _norm(truth).split()[0] in _norm(found)
    return _norm(found) == _norm(truth)


def judge(set_name: str, docs: list[Any], truth: dict[tuple[str, str], dict[str, str]]) -> dict[str, Any]:
    """Per field and rule: found, right; per field: judged documents, with a value, missed."""
    from seamcut.readers.found_fields import find_fields, without_found_fields
    rules: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: {"found": 0, "right": 0, "judged": 0})
    fields = {f: {"documents": 0, "with_value": 0, "found": 0, "right": 0, "missed": 0,
                  "found_where_none": 0} for f in FIELDS}
    rows = []
    for doc in docs:
        name = Path(doc.source).name
        folder = Path(doc.source).parent.name
        found = find_fields(without_found_fields(doc))  # as read: a title found before is no reader's
        want = dict(truth.get((set_name, name), {}), folder=folder)
        row: dict[str, Any] = {"file": name}
        for field in FIELDS:
            t = want.get(field, UNJUDGED)
            got = found.get(field)
            judged = t != UNJUDGED
            ok = got is not None and judged and t != NONE and right(set_name, field, got.value, t, folder)
            row[field] = {"value": got.value if got else None, "rule": got.rule if got else None,
                          "truth": t, "right": ok if judged and got is not None else None}
            if not judged:
                continue
            stats = fields[field]
            stats["documents"] += 1
            stats["with_value"] += t != NONE
            if got is not None:
                r = rules[field, got.rule]
                r["found"] += 1
                r["judged"] += 1
                r["right"] += ok
                stats["found"] += 1
                stats["right"] += ok
                stats["found_where_none"] += t == NONE
            elif t != NONE:
                stats["missed"] += 1
        rows.append(row)
    return {"documents": len(docs), "fields": fields,
            "rules": [{"field": f, "rule": r, **v} for (f, r), v in sorted(rules.items(), key=lambda kv: (FIELDS.index(kv[0][0]), kv[0][1]))],
            "rows": rows}


def _cell(c: dict[str, Any]) -> str:
    """A document's field in the table: the value found, ✓ or ✗, and the truth where it was
    wrong or missed."""
    truth = "states none" if c["truth"] == NONE else f"truth: {c['truth']}"
    if c["value"] is None:
        return f"— (missed; {truth})" if c["truth"] not in (NONE, UNJUDGED) else ""
    shown = str(c["value"]).replace("|", "\\|")
    if c["right"] is None:
        return shown
    return f"{shown} ✓" if c["right"] else f"{shown} ✗ ({truth})"


def markdown(results: dict[str, Any], rec: dict[str, Any]) -> str:
    lines = ["# Fields found without a catalog", "",
             "Per set: each rule, the documents it found a value for and how many were right; per "
             "field, the documents judged, those whose truth has a value, found, right, missed "
             "(a true value none found) and found where the document states none.", ""]
    for set_name, res in results.items():
        lines += [f"## {set_name} ({res['documents']} documents)", "",
                  "| field | rule | found | right |", "|---|---|---|---|"]
        lines += [f"| {r['field']} | {r['rule']} | {r['found']} | {r['right']} |" for r in res["rules"]]
        lines += ["", "| field | judged | with a value | found | right | missed | found where none |",
                  "|---|---|---|---|---|---|---|"]
        lines += [f"| {f} | {s['documents']} | {s['with_value']} | {s['found']} | {s['right']} | "
                  f"{s['missed']} | {s['found_where_none']} |" for f, s in res["fields"].items()]
        lines += ["", "| file | " + " | ".join(FIELDS) + " |", "|---" * (len(FIELDS) + 1) + "|"]
        for row in res["rows"]:
            cells = [_cell(row[f]) for f in FIELDS]
            lines.append(f"| {row['file']} | " + " | ".join(cells) + " |")
        lines.append("")
    lines.append(record.markdown_line(rec))
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=None, help="results name without suffix "
                    "(default results/YYYY-MM-DD-found)")
    args = ap.parse_args()
    from seamcut.pipeline.corpus import read_corpus
    rec = record.stamp()
    truth = truths()
    results = {}
    for set_name, folder in SETS.items():
        files = sorted(folder.glob("*.pdf"))
        corpus = read_corpus(files, progress=False)
        for f in corpus.failures:
            print(f"failed: {f}", file=sys.stderr)
        docs = sorted(corpus.documents, key=lambda d: Path(d.source).name)
        results[set_name] = judge(set_name, docs, truth)
    out = args.out or record.result_path(HERE, "found", "")
    record.write_json(out.with_suffix(".json"), {"sets": results}, recorded=rec)
    text = markdown(results, rec)
    out.with_suffix(".md").write_text(text, encoding="utf-8")
    print(text)
    print(f"written: {out}.json, {out}.md", file=sys.stderr)


if __name__ == "__main__":
    main()
