"""Issue 38 point 4's check on a finished `seamcut tune`: which winner and search mode the judge
picks when a lead the paired test cannot tell from noise is a tie, from the tune's journal alone
(nothing built or searched again).

    .venv/bin/python benchmarks/scale/scale_tune_judge.py [--journal FILE] [--tune FILE] [--results NAME]

The journal (`seamcut-tune.json`, kept gzipped beside the results as `YYYY-MM-DD-tune.journal.json.gz`)
holds every candidate's outcome per question in every round: the rank of its first hit at k, the
tokens its top k send, and its deep ranked list (each result's tokens and the first hit's rank),
tune questions first, then, in the final round, the held-out ones. From those this scores each
round's candidates at the tune's budget as tune does, and names the winner the old rule took
(most hits within the budget, then MRR, then fewest tokens: `tune_judged.quality`) and the one
the judge takes now (`tune_judged.winner`: the group tied with the leader within noise, and of
it the cheaper and simpler), with both ones' held-out figures. Writes
`benchmarks/scale/results/YYYY-MM-DD-tune-judge.json` and `.md` (today, UTC; `--results NAME`
names them NAME.json/.md), stamped with the commit and the machine. Defaults: the latest
`YYYY-MM-DD-tune.json` and its journal.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(HERE.parent / "common"), str(ROOT / "src")]

import record  # noqa: E402

from seamcut.evaluate.judge import Outcome, StrategyResult  # noqa: E402
from seamcut.evaluate.questions import Question  # noqa: E402
from seamcut.evaluate.significance import compare_hits  # noqa: E402
from seamcut.evaluate.space import Candidate  # noqa: E402
from seamcut.evaluate.tune_judged import _Judged, _split, quality, winner  # noqa: E402
from seamcut.evaluate.tune_result import tune_tie_line  # noqa: E402
from seamcut.strategies.spec import parse_spec  # noqa: E402


def round_judged(piece: list[dict[str, Any]], tune_questions: int) -> list[_Judged]:
    """A round's candidates from the journal's finished pieces of it (one per chunking): each one's
    outcomes split into the first ``tune_questions`` and the held-out rest."""
    out = []
    for kept in piece:
        for got in kept["candidates"]:
            spec, mode = got["label"].rsplit(" @", 1)
            records = got["outcomes"]
            asked = [Question(r[0], "", ("?",)) for r in records]  # the id is all an outcome needs
            res = StrategyResult(got["label"], {}, int(kept["chunks"]), [], 0.0, 0.0, 0.0,
                                 outcomes=[Outcome.from_record(q, r) for q, r in zip(asked, records)])
            out.append(_split(Candidate(parse_spec(spec), mode), res, tune_questions, asked[tune_questions:],
                              int(kept["index_bytes"]), float(got["seconds"]), Path(kept["folder"]),
                              int(kept["files"])))
    return out


def figures(j: _Judged, budget: int) -> dict[str, Any]:
    """A candidate's tune and held-out hits within ``budget`` tokens, and its tokens per question at k."""
    def at(res: StrategyResult | None) -> dict[str, Any] | None:
        if res is None or not res.outcomes:
            return None
        score = res.at_budget(budget)
        return {"hits": score.hits, "questions": score.questions, "hit_rate": score.hit_rate}
    return {"label": j.label, "tune": at(j.tune), "held_out": at(j.held),
            "tokens_per_question": round(j.tune.tokens_per_question, 1)}


def check(journal: dict[str, Any], tune: dict[str, Any]) -> dict[str, Any]:
    k, budget = tune["k"], tune["budget"]
    pieces: dict[int, list[dict[str, Any]]] = {}
    for name, kept in journal["results"].items():  # "round N: CHUNKING"
        pieces.setdefault(int(name.split(":")[0].split()[1]), []).append(kept)
    final = max(pieces)
    rounds = []
    for number in sorted(pieces):
        asked = tune["questions"]["tune"] if number == final else len(pieces[number][0]["candidates"][0]["outcomes"])
        judged = round_judged(pieces[number], asked)
        old = max(judged, key=lambda j: quality(j.tune, k, budget))
        new = winner(judged, k, budget)
        chosen = next(j for j in judged if j.label == new.chosen)
        held = None
        if number == final and old.held is not None and chosen is not old:
            held = compare_hits(chosen.label, chosen.held.hits_within(budget), old.label,
                                old.held.hits_within(budget)).to_dict()
        rounds.append({"round": number, "candidates": len(judged), "questions": asked,
                       "old": figures(old, budget), "new": figures(chosen, budget), "pick": new.to_dict(),
                       "tied": [figures(next(j for j in judged if j.label == t), budget) for t in new.tied],
                       "held_out_new_against_old": held})
    return {"k": k, "budget": budget, "questions": tune["questions"], "tune_winner": tune["winner"]["label"],
            "rounds": rounds}


def _hits(f: dict[str, Any] | None) -> str:
    return "-" if f is None else f"{f['hits']}/{f['questions']} ({f['hit_rate']:.1%})"


def table(result: dict[str, Any]) -> str:
    b = result["budget"]
    last = result["rounds"][-1]
    out = [f"The judge on the tune's own outcomes (its journal; nothing rebuilt): hits within {b} tokens sent "
           f"per question, top {result['k']}; {result['questions']['tune']} tune and "
           f"{result['questions']['held_out']} held-out questions in the final round.", "",
           f"Final round: the old rule (most hits within {b} tokens, then MRR, then fewest tokens) picked "
           f"**{last['old']['label']}** (the tune's JSON: {result['tune_winner']}); the judge picks "
           f"**{last['new']['label']}**.", ""]
    tie = tune_tie_line({"pick": last["pick"], "budget": b})
    if tie:
        out += [tie + ".", ""]
    out += ["| final round candidate | tune hits within budget | held out | tokens/question at k | |",
            "|---|---:|---:|---:|---|"]
    for f in last["tied"]:
        notes = [n for n, who in (("new winner", last["new"]), ("old winner", last["old"])) if who["label"] == f["label"]]
        note = ", ".join(notes)
        out.append(f"| {f['label']} | {_hits(f['tune'])} | {_hits(f['held_out'])} | {f['tokens_per_question']:,.0f} | "
                   f"{note or 'tied'} |")
    if last["held_out_new_against_old"]:
        out += ["", "Held out, the new winner against the old: " + last["held_out_new_against_old"]["verdict"] + "."]
    out += ["", "Every round's best by each rule (the halving's cut itself is unchanged):", "",
            "| round | candidates | tune questions | old rule | judge | tied within noise |", "|---:|---:|---:|---|---|---:|"]
    for r in result["rounds"]:
        out.append(f"| {r['round']} | {r['candidates']} | {r['questions']} | {r['old']['label']} | {r['new']['label']} | "
                   f"{len(r['pick']['tied'])} |")
    return "\n".join(out) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tune", type=Path, help="the tune's results JSON (default: the latest YYYY-MM-DD-tune.json)")
    ap.add_argument("--journal", type=Path, help="its journal (default: the same name, .journal.json.gz)")
    ap.add_argument("--results", type=Path, help="NAME for NAME.json/.md (default results/YYYY-MM-DD-tune-judge)")
    a = ap.parse_args()
    tune_path = a.tune or record.latest(HERE, "tune")
    if tune_path is None:
        sys.exit("no results/YYYY-MM-DD-tune.json: run scale_tune.py first")
    journal_path = a.journal or tune_path.with_name(tune_path.name.replace(".json", ".journal.json.gz"))
    result = check(record.read_json(journal_path), record.read_json(tune_path))
    result["inputs"] = {"tune": tune_path.name, "journal": journal_path.name}
    out = a.results or record.result_path(HERE, "tune-judge", "")
    record.write_json(out.with_name(out.name + ".json"), result, indent=1)
    stamp = record.stamp()
    text = table(result) + (f"\nRecorded {stamp['date']}, commit {stamp['commit']}"
                            f"{' (tree differs)' if stamp['dirty'] else ''}, {stamp['machine']['cpu']}; "
                            f"`{' '.join(['benchmarks/scale/scale_tune_judge.py', *sys.argv[1:]])}`.\n")
    out.with_name(out.name + ".md").write_text(text, encoding="utf-8")
    print(text + f"wrote {out}.json, .md")


if __name__ == "__main__":
    main()
