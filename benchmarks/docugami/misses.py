"""Why each strategy misses the docugami questions it misses (issue 38 point 3): reads the
compare's JSON (``benchmarks/context/context.py --json``) and the indexes it built, and sorts
every question missed within the compared budget of tokens sent into one of:

- **never whole in a chunk**: no chunk of the index (of the named filing, where the question
  names one) holds any of the answer phrases: the reading or the cut parted them;
- **ranked past the budget**: a chunk holding it is among the 50 results, after the budget ran out;
- **not in the top 50**: a chunk holds it, but the search does not rank it near the top.

and, for the questions that name one filing, where the results sent within the budget came from:
that filing, the same company's other quarters (a 10-Q prints last year's figures as the
comparison column, so the next one prints them again), or other companies.

    .venv/bin/python benchmarks/docugami/misses.py results/DATE-docugami-compare.json.gz \\
        --out out/docugami [--md results/DATE-misses.md]
"""
from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(HERE.parent / "common"))

import lancedb  # noqa: E402
import record  # noqa: E402
from seamcut.evaluate.budget import Ranked  # noqa: E402
from seamcut.evaluate.questions import normalise  # noqa: E402
from seamcut.strategies.spec import slug  # noqa: E402

KINDS = ("never whole in a chunk", "ranked past the budget", "not in the top 50")
PLACES = ("the named filing", "its other quarters", "other companies")
_TICKER = re.compile(r"\b(AAPL|AMZN|INTC|MSFT|NVDA)\b")


def ticker(source: str) -> str:
    m = _TICKER.search(Path(source).name)
    return m.group(1) if m else Path(source).name


def sent_texts(db: Path) -> list[tuple[str, str]]:
    """(file name, normalised text) of every chunk the index can send: parents where a
    parent-child index has them (the text sent in place of the children), chunks otherwise."""
    table = lancedb.connect(str(db / "lance")).open_table("chunks")
    rows = table.to_arrow().select(["source", "role", "text"]).to_pylist()
    if any(r["role"] == "parent" for r in rows):
        rows = [r for r in rows if r["role"] == "parent"]
    return [(Path(r["source"]).name, normalise(r["text"])) for r in rows]


def classify(run: dict[str, Any], out: Path, budget: int) -> dict[str, dict[str, Any]]:
    """Per strategy: the missed questions' kinds (``KINDS``) and the places their results sent
    within ``budget`` came from (``PLACES``, for the questions naming one filing)."""
    found: dict[str, dict[str, Any]] = {}
    for s in run["strategies"]:
        texts = sent_texts(out / "index" / slug(s["name"]))
        kinds: Counter[str] = Counter()
        places: Counter[str] = Counter()
        missed = []
        for q in s["per_question"]:
            if q.get("deep_tokens") is None:
                continue
            ranked = Ranked(tuple(q["deep_tokens"]), q["deep_rank"])
            if ranked.rank_within(budget) is not None:
                continue
            phrases = [normalise(a) for a in q["must_contain"]]
            named = Path(q["source"]).name if q.get("source") and q.get("source_only") else None
            whole = any(p in t for f, t in texts if named is None or f == named for p in phrases)
            kind = KINDS[0] if not whole else KINDS[1] if q["deep_rank"] is not None else KINDS[2]
            kinds[kind] += 1
            missed.append((q["id"], kind))
            if named is not None:
                for r in q["results"][:ranked.sent(budget)]:
                    name = Path(r["source"]).name
                    places[PLACES[0] if name == named else
                           PLACES[1] if ticker(name) == ticker(named) else PLACES[2]] += 1
        found[s["name"]] = {"missed": len(missed), "kinds": dict(kinds), "places": dict(places),
                            "questions": missed}
    return found


def table(found: dict[str, dict[str, Any]], n: int, budget: int) -> str:
    head = ["strategy", f"missed within {budget} tok", *KINDS,
            "results sent for named-filing misses: " + " / ".join(PLACES)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for name, f in found.items():
        places = " / ".join(str(f["places"].get(p, 0)) for p in PLACES)
        lines.append("| " + " | ".join([name, f"{f['missed']}/{n}", *(str(f["kinds"].get(k, 0)) for k in KINDS),
                                         places]) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("compare", type=Path, help="the compare's JSON (.json or .json.gz)")
    ap.add_argument("--out", type=Path, default=REPO / "out" / "docugami", help="the compare's --out")
    ap.add_argument("--budget", type=int, default=None, help="tokens sent (default: the compare's first)")
    ap.add_argument("--md", type=Path, default=None, help="write the table here too")
    args = ap.parse_args()
    run = record.read_json(args.compare)
    budget = args.budget or int(run["budget"])
    found = classify(run, args.out, budget)
    text = table(found, run["questions"], budget)
    print(text)
    if args.md is not None:
        rec = run.get("recorded") or record.stamp()
        args.md.write_text(f"`benchmarks/docugami/misses.py {args.compare.name}`\n\n" + text + "\n"
                           + record.markdown_line(rec), encoding="utf-8")
        record.write_json(args.md.with_suffix(".json"), {"budget": budget, "strategies": found})


if __name__ == "__main__":
    main()
