"""Issue 14's check on the scale corpus: is `seamcut tune`'s winner at least as good at hit@k as
every default strategy (or tied within noise)? Pairs the winner, question by question, with
`benchmarks/scale/scale_compare.py`'s run on the same slice, without building the defaults again.

    .venv/bin/python benchmarks/scale/scale_tune_check.py [--sample 4] [--tune-dir DIR] [--tune FILE] [--compare FILE]

Reads the latest `benchmarks/scale/results/YYYY-MM-DD-tune[-sampleN].json` (the winner and its index folder, built again
by `seamcut index` where it is gone) and the latest `YYYY-MM-DD-compare[-sampleN].json[.gz]` (every default's outcome per
question); searches the winner's index for every answerable question of the slice in the
winner's own search mode and in the compare's mode (the same search method as the defaults:
like with like), and writes `benchmarks/scale/results/YYYY-MM-DD-tune[-sampleN]-check.json` and `.md` (today, UTC): per
pair the hits at k, the questions only one of them answers, the exact McNemar p-value and the
bootstrap interval of the difference (`seamcut.evaluate.significance.compare_hits`), and each
side's tokens sent per question. All questions (tune and held out) are used: the defaults were
never tuned on them, and the winner's held-out-only figure is in the tune's own results.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(HERE.parent / "common"), str(ROOT / "src")]

import record  # noqa: E402

from seamcut.pipeline.report import BuildReport  # noqa: E402
from seamcut.evaluate.budget import Ranked  # noqa: E402
from seamcut.evaluate.judge import judge  # noqa: E402
from seamcut.evaluate.options import Judging  # noqa: E402
from seamcut.evaluate.questions import load_questions  # noqa: E402
from seamcut.evaluate.significance import compare_hits  # noqa: E402
from seamcut.index import Index  # noqa: E402


def winner_outcomes(index_dir: Path, questions: list, k: int, mode: str) -> tuple[dict[str, dict[str, Any]], Any]:
    """Per question id: whether the winner's index answers it in its top ``k`` (``mode``) and
    the tokens those ``k`` results send; and the whole result (``compare.judge``'s, for the
    budgets)."""
    res = judge("winner", {}, Index(index_dir), questions, Judging(k, mode), BuildReport(), False)
    return {o.question.id: {"hit": o.rank is not None, "tokens": o.tokens} for o in res.outcomes}, res


def default_outcomes(strategy: dict[str, Any], k: int) -> dict[str, dict[str, Any]]:
    """Per question id, as ``winner_outcomes``, from a compare JSON's strategy entry."""
    return {q["id"]: {"hit": q["rank"] is not None and q["rank"] <= k,
                      "tokens": sum(r["tokens"] for r in q["results"][:k])}
            for q in strategy["per_question"]}


def winner_index(tune: dict[str, Any], folder: Path) -> Path:
    """The winner's index folder; where it is gone (the tune took its final round from a journal
    carried from another machine), built again by `seamcut index` from the tune's files, with
    the corpus's catalog and the tune's model, into ``folder``/winner-index."""
    kept = Path(tune["winner"]["index"])
    if kept.is_dir():
        return kept
    db = folder / "winner-index"
    corpus = Path(tune["slice"]["corpus"])
    cmd = [sys.executable, "-m", "seamcut.cli", "index", str(folder / "files"), "--db", str(db),
           "--strategy", tune["winner"]["spec"], "--model", tune["model"], "--catalog", str(corpus / "catalog.csv")]
    print(f"{kept} is gone: building the winner's index again\n" + " ".join(cmd), flush=True)
    subprocess.run(cmd, check=True, env={**os.environ, "OMP_NUM_THREADS": "1"})
    return db


def default_within(strategy: dict[str, Any], budget: int) -> dict[str, bool] | None:
    """Per question id, whether a compare JSON's strategy sends an answer within ``budget``
    tokens (from its kept deep list; None: the JSON is older than those lists)."""
    if any("deep_tokens" not in q for q in strategy["per_question"]):
        return None
    return {q["id"]: Ranked(tuple(q["deep_tokens"]), q["deep_rank"]).rank_within(budget) is not None
            for q in strategy["per_question"]}


def check(tune: dict[str, Any], compare: dict[str, Any], questions: list) -> dict[str, Any]:
    k, winner = tune["k"], tune["winner"]
    if compare["k"] != k:
        raise SystemExit(f"the tune searched top {k}, the compare top {compare['k']}")
    asked = [q for q in questions if q.answerable]
    ids = {q["id"] for q in compare["strategies"][0]["per_question"]}
    if {q.id for q in asked} != ids:
        raise SystemExit(f"the tune's slice has {len(asked)} answerable questions, the compare's {len(ids)}: "
                         "not the same questions")
    modes = list(dict.fromkeys([winner["mode"], compare["mode"]]))
    pairs, budgets = [], {s["name"] + " @" + compare["mode"]: s["budgets"] for s in compare["strategies"]}
    at_budget: list[dict[str, Any]] = []
    for mode in modes:
        mine, res = winner_outcomes(Path(winner["index"]), asked, k, mode)
        label = f"{winner['spec']} @{mode}"
        budgets[label] = {str(b): res.at_budget(b).to_dict() for b in compare["budgets"]}
        if mode == compare["mode"]:  # paired at equal tokens sent, at the same search method
            for b in compare["budgets"]:
                within = {o.question.id: o.deep.rank_within(b) is not None for o in res.outcomes}
                for s in compare["strategies"]:
                    theirs = default_within(s, b)
                    if theirs is None:
                        continue
                    order = sorted(within)
                    c = compare_hits(label, [within[i] for i in order], f"{s['name']} @{compare['mode']}",
                                     [theirs[i] for i in order])
                    at_budget.append({**c.to_dict(), "budget": b,
                                      "at_least_as_good": not (c.significant and c.ci_high < 0)})
        for s in compare["strategies"]:
            theirs = default_outcomes(s, k)
            order = sorted(mine)
            c = compare_hits(label, [mine[i]["hit"] for i in order],
                             f"{s['name']} @{compare['mode']}", [theirs[i]["hit"] for i in order])
            pairs.append({**c.to_dict(), "same_search": mode == compare["mode"],
                          "winner_tokens_per_question": round(sum(m["tokens"] for m in mine.values()) / len(mine), 1),
                          "other_tokens_per_question": round(sum(t["tokens"] for t in theirs.values()) / len(theirs), 1),
                          "at_least_as_good": not (c.significant and c.ci_high < 0)})
    return {"k": k, "questions": len(asked), "winner": winner["label"], "compare_mode": compare["mode"],
            "model": {"tune": tune["model"], "compare": compare["model"]}, "pairs": pairs,
            "budgets": budgets, "pairs_at_budget": at_budget,
            "holds": all(p["at_least_as_good"] for p in pairs if p["same_search"])}


def table(result: dict[str, Any]) -> str:
    out = [f"Tune's winner ({result['winner']}) against every default strategy of `scale_compare.py`'s run "
           f"on the same slice: all {result['questions']} answerable questions, top {result['k']}, paired "
           f"(exact McNemar test, 95% bootstrap interval of the difference). Rows at the defaults' search "
           f"method ({result['compare_mode']}) compare like with like; a row at another search method says so.", "",
           "| winner | default | hits@k winner | default | only winner | only default | p | interval | tokens/question winner | default | verdict |",
           "|---|---|---:|---:|---:|---:|---:|---|---:|---:|---|"]
    for p in result["pairs"]:
        note = "" if p["same_search"] else " (other search method)"
        out.append(f"| {p['best']}{note} | {p['other']} | {p['best_hits']} | {p['other_hits']} | {p['only_best']} | "
                   f"{p['only_other']} | {p['p_value']:.3g} | {p['ci'][0]:+.1%} to {p['ci'][1]:+.1%} | "
                   f"{p['winner_tokens_per_question']:,.0f} | {p['other_tokens_per_question']:,.0f} | {p['verdict']} |")
    names = list(result["budgets"])
    sizes = list(result["budgets"][names[0]])
    paired = result.get("pairs_at_budget") or []
    out += ["", "Hits at equal tokens sent (each may send its ranked results while they fit in T tokens "
                "per question" + ("; paired below" if paired else
                                  "; not paired: the compare's JSON keeps no deep list per question") + "):", "",
            "| T tokens | " + " | ".join(names) + " |", "|---:|" + "---:|" * len(names)]
    for t in sizes:
        out.append(f"| {int(t):,} | " + " | ".join(str(result["budgets"][n][t]["hits"]) for n in names) + " |")
    if paired:
        out += ["", "Paired at equal tokens sent, the same search method:", "",
                "| T tokens | winner | default | hits winner | default | only winner | only default | p | verdict |",
                "|---:|---|---|---:|---:|---:|---:|---:|---|"]
        out += [f"| {p['budget']:,} | {p['best']} | {p['other']} | {p['best_hits']} | {p['other_hits']} | "
                f"{p['only_best']} | {p['only_other']} | {p['p_value']:.3g} | {p['verdict']} |" for p in paired]
    out += ["", "At the same search method the winner is " + (
        "at least as good as every default (ahead, or tied within noise)." if result["holds"]
        else "worse than a default by more than noise: see the rows above.")]
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, default=4, help="the slice both runs took (every n-th file)")
    ap.add_argument("--tune-dir", type=Path, help="the tune's folder (default /tmp/seamcut-scale-tune-N): "
                                                   "its questions.yaml")
    ap.add_argument("--tune", type=Path, help="the tune's results JSON (default: the latest of the sample)")
    ap.add_argument("--compare", type=Path, help="the compare's results JSON (default: the latest of the sample)")
    a = ap.parse_args()
    name = "" if a.sample == 1 else f"-sample{a.sample}"
    paths = {"tune": a.tune or record.latest(HERE, f"tune{name}"),
             "compare": a.compare or record.latest(HERE, f"compare{name}")}
    for what, path in paths.items():
        if path is None:
            sys.exit(f"no results/YYYY-MM-DD-{what}{name}.json: run scale_{what}.py --sample {a.sample} first")
    tune, compare = record.read_json(paths["tune"]), record.read_json(paths["compare"])
    folder = a.tune_dir or Path(f"/tmp/seamcut-scale-tune-{a.sample}")
    tune["winner"]["index"] = str(winner_index(tune, folder))
    result = check(tune, compare, load_questions(folder / "questions.yaml"))
    out = record.result_path(HERE, f"tune{name}-check", "")
    record.write_json(out.with_name(out.name + ".json"), result, indent=1)
    out.with_name(out.name + ".md").write_text(table(result), encoding="utf-8")
    print(table(result) + f"wrote {out}.json, .md")


if __name__ == "__main__":
    main()
