"""What a filter does to retrieval (issue 54): one ``seamcut compare`` per set, each strategy
searched three ways, as rows of their own: the whole index (``none``), the filter the bot would
apply from what it knows (``where``: here the file the question names, written in by this
script, the best a filter can do), and the filters read from the question's own words
(``question``: the catalog's and the documents' own field values and aliases it names, with the
fall-back to fewer fields or the whole index).

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/filters/filters.py --set docugami   # ../shared/data
    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/filters/filters.py --set helpline   # examples/helpline
    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/filters/filters.py --set scale --strategies structure
                                      # every 10th file of the scale corpus (scripts/make_corpus.py, cached)
        [--strategies structure,semantic] [--budget 1024,512] [--no-catalog] [--from RESULT.json[.gz]]

Writes ``results/YYYY-MM-DD-SET[-nocatalog].{md,png}`` and the compare's JSON beside them. The
table: hits within each budget on every question, on the questions that name their file (a
``source``: the docugami rows over one filing) and on the others, each filtered row's McNemar p
against the same strategy on the whole index; then, for the filters read from the question,
how many questions got one, how many of those let the named file through (its catalog fields
pass the filter), and how many fell back.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(HERE.parent / "common"))

import record  # noqa: E402
from compare_run import run_compare  # noqa: E402
from data import DOCUGAMI_DOCS, DOCUGAMI_QUESTIONS, HELPLINE  # noqa: E402
from paired import hits_within, interval  # noqa: E402
from seamcut.evaluate.significance import mcnemar_exact  # noqa: E402
from seamcut.index.filters import Filter, holds  # noqa: E402

#: the sets: the files, the questions, the catalog with aliases, compare's flags
SETS = {
    "docugami": (DOCUGAMI_DOCS, DOCUGAMI_QUESTIONS, HERE / "docugami-catalog.csv",
                 ["--named-source"]),
    "helpline": (HELPLINE, HELPLINE / "questions.yaml", HERE / "helpline-catalog.csv", []),
    "scale": (None, None, None, []),  # scale_slice
}
WAYS = ("none", "where", "question")
#: the scale corpus (``scripts/make_corpus.py``, in the cache), every ``SCALE_SAMPLE``-th file
SCALE = Path.home() / ".cache" / "seamcut" / "corpus" / "scale-9000"
SCALE_SAMPLE = 10


def scale_slice(tmp: Path) -> tuple[Path, Path, Path]:
    """The scale corpus's slice (its files, its questions) and its catalog, as
    ``benchmarks/scale/scale_compare.py --sample 10`` takes them."""
    sys.path.insert(0, str(REPO / "benchmarks" / "scale"))
    from scale_compare import take_slice
    _, questions, _ = take_slice(SCALE, SCALE_SAMPLE, tmp / "files")
    (tmp / "questions.yaml").write_text(yaml.safe_dump(questions, allow_unicode=True, sort_keys=False),
                                        encoding="utf-8")
    return tmp / "files", tmp / "questions.yaml", SCALE / "catalog.csv"


def with_where(questions: Path, out: Path) -> None:
    """The test set with ``where: {file: SOURCE}`` on every question that names its file."""
    rows = yaml.safe_load(questions.read_text(encoding="utf-8"))
    for q in rows:
        if q.get("source"):
            q["where"] = {"file": Path(q["source"]).name}
    out.write_text(yaml.safe_dump(rows, allow_unicode=True, sort_keys=False, width=200), encoding="utf-8")


def files_filter_values(corpus: Path, catalog_file: Path | None) -> dict[str, dict[str, Any]]:
    """Each file's fields as a filter sees them (its catalog's and those found in its text), by
    file name, read as ``compare`` reads the files (the parse cache makes it quick)."""
    from seamcut.index.rows import filter_values
    from seamcut.pipeline.catalog import load_catalog
    from seamcut.pipeline.corpus import read_corpus
    read = read_corpus([corpus], catalog=load_catalog(catalog_file) if catalog_file else None, progress=False)
    return {Path(d.source).name: filter_values(d) for d in read.documents}


def run_set(corpus: Path, questions: Path, args: argparse.Namespace, catalog: Path | None, flags: list[str],
            raw: Path) -> None:
    run_compare([str(corpus), "--questions", str(questions), "--strategies", args.strategies,
                 "--budget", args.budget, "--filters", ",".join(WAYS), "--workers", str(args.workers),
                 "--out", str(args.out / args.set), *flags, *(["--catalog", str(catalog)] if catalog else [])], raw)


def _p(a: dict[str, bool], b: dict[str, bool], ids: list[str]) -> str:
    """McNemar's exact p of ``b`` against ``a`` on ``ids``, with the questions only each hits."""
    only_a = sum(a[q] and not b[q] for q in ids)
    only_b = sum(b[q] and not a[q] for q in ids)
    return f"{mcnemar_exact(only_a, only_b):.2g} (+{only_b} / -{only_a})" if only_a or only_b else "same"


def table(run: dict[str, Any], fields: dict[str, dict[str, Any]]) -> str:
    first = int(run["budget"])
    budgets = [first] + sorted(int(b) for b in run["budgets"] if int(b) != first)
    rows = run["strategies"]
    asked = rows[0]["per_question"]
    named = [q["id"] for q in asked if q.get("source")]
    other = [q["id"] for q in asked if not q.get("source")]
    whole = {s["strategy"]: s for s in rows if s.get("filters", "none") == "none"}
    head = (["row", f"all ≤ {first} tok", "95% interval", f"naming their file ≤ {first} ({len(named)})",
             f"p vs whole index, naming", f"the others ≤ {first} ({len(other)})", "p vs whole index, others"]
            + [f"all ≤ {b}" for b in budgets[1:]] + [f"hits@{run['k']}"])
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for s in rows:
        h = {b: hits_within(s, b) for b in budgets}
        base = hits_within(whole[s["strategy"]], first)
        n = len(h[first])
        filtered = s.get("filters", "none") != "none"
        cells = [f"`{s['name']}`", f"{sum(h[first].values())}/{n}", interval(list(h[first].values())),
                 f"{sum(h[first][q] for q in named)}", _p(base, h[first], named) if filtered else "",
                 f"{sum(h[first][q] for q in other)}", _p(base, h[first], other) if filtered else ""]
        cells += [f"{sum(h[b].values())}" for b in budgets[1:]] + [f"{s['hits']}"]
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", read_filters(rows, fields)]
    return "\n".join(lines) + "\n"


def read_filters(rows: list[dict[str, Any]], fields: dict[str, dict[str, Any]]) -> str:
    """What the filters read from the questions were: per question once (the first strategy's
    row; they depend on the index's field values only), and for the questions naming their file,
    whether its ``fields`` pass them (not known for a set whose ``fields`` are not read)."""
    row = next((s for s in rows if s.get("filters") == "question"), None)
    if row is None:
        return ""
    got = fell = through = named = 0
    kinds: dict[str, int] = {}
    for q in row["per_question"]:
        f = q.get("filter") or {}
        filters = [Filter(x["field"], x["op"], x["value"]) for x in f.get("filters", [])]
        if filters:
            got += 1
            key = "+".join(x.field for x in filters)
            kinds[key] = kinds.get(key, 0) + 1
            if q.get("source"):
                named += 1
                through += holds(filters, fields.get(Path(q["source"]).name, {}))
        elif f.get("why"):
            fell += 1
    n = len(row["per_question"])
    by = ", ".join(f"{k} {v}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1]))
    said = (f"Filters read from the question: {got} of {n} questions got one ({by}); {fell} named a field "
            f"value whose filter left fewer than k chunks (the whole index searched)")
    if not fields:
        return said + "."
    return said + f"; of the {named} with a filter that name their file, the filter let that file through for {through}."


def plot(run: dict[str, Any], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    first = int(run["budget"])
    rows = run["strategies"]
    named = [q["id"] for q in rows[0]["per_question"] if q.get("source")]
    fig, ax = plt.subplots(figsize=(9, 0.45 * len(rows) + 1.5))
    colours = {"none": "#aaaaaa", "where": "#2b7bb9", "question": "#e08a1e"}
    for i, s in enumerate(rows):
        h = hits_within(s, first)
        ax.barh(i, sum(h[q] for q in named) / max(len(named), 1), color=colours[s.get("filters", "none")])
    ax.set_yticks(range(len(rows)), [s["name"] for s in rows], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel(f"share of the {len(named)} questions naming their file answered within {first} tokens sent")
    ax.set_title("whole index (grey), the file's filter (blue), filters read from the question (orange)", fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", choices=sorted(SETS), default="helpline")
    ap.add_argument("--strategies", default="structure,semantic")
    ap.add_argument("--budget", default="1024,512", help="tokens sent per question; the first is compared")
    ap.add_argument("--no-catalog", action="store_true", help="only the fields seamcut finds in the documents")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=REPO / "out" / "filters", help="the compare's indexes")
    ap.add_argument("--from", dest="source", type=Path, default=None, help="a compare JSON already made")
    args = ap.parse_args()
    corpus, questions, catalog_file, flags = SETS[args.set]
    if args.set == "scale":
        corpus, questions, catalog_file = scale_slice(Path(tempfile.mkdtemp(prefix="filters-scale-")))
    catalog_file = None if args.no_catalog else catalog_file
    catalog = files_filter_values(corpus, catalog_file) if args.set != "scale" else {}
    label = args.set + ("-nocatalog" if args.no_catalog else "")
    name = record.result_path(HERE, label, suffix="")
    if args.source is not None:
        run = record.read_json(args.source)
    else:
        started = record.stamp()
        with tempfile.TemporaryDirectory() as tmp:
            asked, raw = Path(tmp) / "questions.yaml", Path(tmp) / "compare.json"
            with_where(questions, asked)
            run_set(corpus, asked, args, catalog_file, flags, raw)
            run = record.read_json(raw)
        written = record.write_json(name.with_name(name.name + "-compare.json"), run,
                                    gzip_over=record.GZIP_OVER, recorded=started)
        run = record.read_json(written)
    text = table(run, catalog)
    print(text)
    cmd = (f"benchmarks/filters/filters.py --set {args.set} --strategies {args.strategies} --budget {args.budget}"
           + (" --no-catalog" if args.no_catalog else ""))
    name.with_suffix(".md").write_text(
        f"`{cmd}` ({run['questions']} questions, {run['documents']} documents, {run['mode']} search, k = {run['k']}, "
        f"model {run['model']}, catalog {catalog_file.name if catalog_file else 'none'})\n\n" + text + "\n"
        + record.markdown_line(run.get("recorded") or record.stamp()), encoding="utf-8")
    plot(run, name.with_suffix(".png"))
    print(f"wrote {name.with_suffix('.md')}, .png", file=sys.stderr)


if __name__ == "__main__":
    main()
