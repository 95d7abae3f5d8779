"""A `seamcut compare --json` run as the README's table and a plot: per strategy hits@k, hits@1,
MRR, chunks, tokens sent per question, hits within each budget of tokens, and the index's build
time (wall clock, summed over the runs that built it, a resumed build included).

    .venv/bin/python benchmarks/common/compare_table.py RUN.json[.gz] [--out benchmarks/BENCH/results/NAME]
        [--indexes COMPARE_OUT/index]

With ``--indexes`` (the compare's ``--out`` folder's ``index``), also hits@k from the named
source: a hit as the guide scores it counts a top-k chunk of any document holding the answer
text; where the answer text is in several documents (the same template, another crop's value
that happens to match), this column counts only a chunk of the document the question names.

Writes NAME.md (the table) and NAME.png (hit rate at k and within each budget against tokens
sent per question, one point per strategy).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import record  # noqa: E402


def rows(run: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per strategy, from the run's JSON."""
    out = []
    for s in run["strategies"]:
        asked = [q for q in s["per_question"] if q.get("rank") is not None or q.get("deep_rank") is not None
                 or q.get("results") is not None]
        build = s.get("index_build") or s.get("build") or {}
        out.append({"name": s["name"], "hits": s["hits"], "n": len(asked) or run["questions"],
                    "hits1": sum(q.get("rank") == 1 for q in s["per_question"]), "mrr": s["mrr"],
                    "chunks": s["chunks"], "tokens": s["tokens_per_question"],
                    "budgets": {int(t): b for t, b in (s.get("budgets") or {}).items()},
                    "build_s": build.get("seconds"), "runs": build.get("runs"),
                    "embed_cpu_s": ((build.get("stages") or {}).get("embed") or {}).get("cpu_seconds")})
    return out


def source_hits(run: dict[str, Any], indexes: Path) -> dict[str, tuple[int, int]]:
    """Per strategy: (questions with a top-k chunk of their named document holding the answer,
    questions that name a document), the texts of the chunks (and parents) returned read back from
    each strategy's index."""
    import lancedb

    from seamcut.evaluate.questions import Question, source_matches
    from seamcut.strategies.spec import slug

    out = {}
    for s in run["strategies"]:
        db = lancedb.connect(str(indexes / slug(s["name"]) / "lance"))
        # parent-child returns parents: their texts are in the parents table
        tables = [db.open_table("chunks")]
        try:
            tables.append(db.open_table("parents"))
        except (ValueError, FileNotFoundError):  # no parents table: not parent-child
            pass
        named = [q for q in s["per_question"] if q.get("source") and q.get("must_contain")]
        wanted = {r["chunk_id"] for q in named for r in q.get("results") or []
                  if source_matches(q["source"], r["source"])}
        texts = {}
        ids = sorted(wanted)
        for i in range(0, len(ids), 500):
            where = "id IN (" + ", ".join(f"'{x}'" for x in ids[i:i + 500]) + ")"
            for table in tables:
                for row in table.search().where(where).select(["id", "text"]).limit(None).to_list():
                    texts[row["id"]] = row["text"]
        hits = 0
        for q in named:
            asked = Question(q["id"], q["question"], tuple(q["must_contain"]), q["source"], source_only=True)
            hits += any(asked.answered_in(r["source"], texts.get(r["chunk_id"], ""))
                        for r in (q.get("results") or [])[:run["k"]])
        out[s["name"]] = (hits, len(named))
    return out


def _hms(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    m, s = divmod(int(round(seconds)), 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


def table(run: dict[str, Any], strict: dict[str, tuple[int, int]] | None = None) -> str:
    """The markdown table: hits as n/N and %, the best figure of each column in bold; with
    ``strict`` (``source_hits``), a column of hits@k from the named source."""
    rs = rows(run)
    k = run["k"]
    budgets = sorted({t for r in rs for t in r["budgets"]})
    head = (["strategy", f"hits@{k}"] + ([f"hits@{k}, named source"] if strict else [])
            + ["hits@1", "MRR", "chunks", "tokens/question"]
            + [f"hits ≤ {t} tok" for t in budgets] + ["build (wall)"])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    best = {"hits": max(r["hits"] for r in rs), "hits1": max(r["hits1"] for r in rs),
            "mrr": max(r["mrr"] for r in rs)}
    for t in budgets:
        best[t] = max(r["budgets"].get(t, {}).get("hits", 0) for r in rs)

    def cell(n: int, total: int, top: int) -> str:
        text = f"{n}/{total} ({100 * n / total:.1f}%)"
        return f"**{text}**" if n == top else text

    top_strict = max(h for h, _ in strict.values()) if strict else 0
    for r in rs:
        cells = [r["name"], cell(r["hits"], r["n"], best["hits"])]
        if strict:
            cells.append(cell(*strict[r["name"]], top_strict))
        cells += [cell(r["hits1"], r["n"], best["hits1"]),
                 f"**{r['mrr']:.3f}**" if r["mrr"] == best["mrr"] else f"{r['mrr']:.3f}",
                 f"{r['chunks']:,}", f"{r['tokens']:,.0f}"]
        cells += [cell(r["budgets"][t]["hits"], r["n"], best[t]) if t in r["budgets"] else "" for t in budgets]
        runs = f" ({r['runs']} runs)" if r["runs"] and r["runs"] > 1 else ""
        cells.append(_hms(r["build_s"]) + runs)
        lines.append("| " + " | ".join(cells) + " |")
    said = [*run.get("failures", []), *run.get("warnings", [])]
    if said:
        lines += ["", "Files that failed, and strategies judged on different files:", ""] + [f"- {x}" for x in said]
    return "\n".join(lines) + "\n"


def plot(run: dict[str, Any], path: Path) -> None:
    """Hit rate at k and within each budget against tokens sent per question."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rs = rows(run)
    budgets = sorted({t for r in rs for t in r["budgets"]})
    fig, ax = plt.subplots(figsize=(8, 5))
    for r in rs:
        xs = [r["budgets"][t]["tokens_per_question"] for t in budgets if t in r["budgets"]]
        ys = [100 * r["budgets"][t]["hit_rate"] for t in budgets if t in r["budgets"]]
        line, = ax.plot(xs, ys, marker="o", label=r["name"])
        ax.plot([r["tokens"]], [100 * r["hits"] / r["n"]], marker="*", markersize=14, linestyle="",
                color=line.get_color())
    ax.set_xlabel(f"tokens sent per question (dots: within each budget; stars: the top {run['k']})")
    ax.set_ylabel("questions whose answer was sent (%)")
    ax.set_title(f"{run['questions']} questions, {run['documents']} documents, {run['mode']} search, "
                 f"k = {run['k']}")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("run", type=Path)
    ap.add_argument("--out", type=Path, default=None, help="NAME: writes NAME.md and NAME.png")
    ap.add_argument("--indexes", type=Path, default=None,
                    help="the compare's --out folder's index/: adds hits@k from the named source")
    args = ap.parse_args()
    run = record.read_json(args.run)
    text = table(run, source_hits(run, args.indexes) if args.indexes else None)
    print(text)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.with_suffix(".md").write_text(text, encoding="utf-8")
        plot(run, args.out.with_suffix(".png"))
        print(f"wrote {args.out.with_suffix('.md')} and .png")


if __name__ == "__main__":
    main()
