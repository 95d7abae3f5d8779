"""`seamcut compare` on the scale corpus (issue 12), whole or a stated slice, then its table.

    .venv/bin/python benchmarks/scale_compare.py [--sample N] [--out DIR] [-- more compare flags]

Makes the corpus if it is not in the cache (`scripts/make_corpus.py`), takes every N-th PDF by name
(the same rule as `benchmarks/scale.py --sample`: the mix of kinds, languages and scans is kept)
with the questions whose source is among them (and the no-answer questions), runs
`seamcut compare` on them with the corpus's catalog (e5-torch, budgets 256/512/1024/2048 tokens, all
seven strategies, unless the flags after `--` say otherwise), and writes its JSON, the README table
and plot (`benchmarks/compare_table.py`, with the named-source column) to
`benchmarks/results/scale_compare[_sampleN]`. The compare's own folder (`--out`, default
`/tmp/seamcut-scale-compare-N`) keeps its indexes: a rerun with the same flags reuses them.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pypdfium2
import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

from scale import FULL_PAGES, make_corpus  # noqa: E402

DEFAULT_FLAGS = ["--model", "e5-torch", "--budget", "256,512,1024,2048"]


def take_slice(corpus: Path, sample: int, folder: Path) -> tuple[list[Path], list[dict], int]:
    """Every ``sample``-th PDF of ``corpus`` (linked into ``folder``), the questions on them and
    the no-answer ones, and the slice's page count."""
    folder.mkdir(parents=True, exist_ok=True)
    files = sorted(f for f in corpus.iterdir() if f.suffix == ".pdf")[::sample]
    for f in files:
        link = folder / f.name
        if not link.is_symlink():
            link.symlink_to(f)
    names = {f.name for f in files}
    questions = yaml.safe_load((corpus / "questions.yaml").read_text(encoding="utf-8"))
    kept = [q for q in questions if not q.get("source") or q["source"] in names]
    pages = 0
    for f in files:
        pdf = pypdfium2.PdfDocument(str(f))
        pages += len(pdf)
        pdf.close()
    return files, kept, pages


def run_for_json(cmd: list[str], env: dict[str, str], result: Path) -> int:
    """Run a seamcut command that writes ``result``; its exit code, 0 or 1 (1: some files failed,
    which the JSON names: the results are kept). Exits where it wrote no JSON."""
    result.unlink(missing_ok=True)
    rc = subprocess.run(cmd, env=env).returncode
    if rc not in (0, 1) or not result.is_file():
        sys.exit(f"{' '.join(cmd[2:4])} exited {rc} without writing {result}")
    return rc


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sample", type=int, default=1, help="every n-th file only (a slice; 1: all)")
    ap.add_argument("--corpus", type=Path, help="this folder instead of the scale corpus")
    ap.add_argument("--out", type=Path, help="the compare's folder (indexes, misses)")
    ap.add_argument("--results", type=Path, help="NAME for NAME.json/.md/.png (default benchmarks/results/scale_compare...)")
    ap.add_argument("extra", nargs="*", help="more `seamcut compare` flags, after --")
    a = ap.parse_args()
    corpus = a.corpus or make_corpus(FULL_PAGES)
    out = a.out or Path(f"/tmp/seamcut-scale-compare-{a.sample}")
    results = a.results or ROOT / "benchmarks" / "results" / (
        "scale_compare" if a.sample == 1 else f"scale_compare_sample{a.sample}")
    out.mkdir(parents=True, exist_ok=True)
    files, questions, pages = take_slice(corpus, a.sample, out / "files")
    qfile = out / "questions.yaml"
    qfile.write_text(yaml.safe_dump(questions, allow_unicode=True, sort_keys=False), encoding="utf-8")
    answered = sum(bool(q.get("must_contain")) for q in questions)
    print(f"{'all' if a.sample == 1 else f'every {a.sample}th'} file of {corpus}: {len(files)} files, "
          f"{pages:,} pages; {len(questions)} questions ({answered} with an answer)", flush=True)
    flags = a.extra or DEFAULT_FLAGS
    cmd = [sys.executable, "-m", "seamcut.cli", "compare", str(out / "files"), "--questions", str(qfile),
           "--catalog", str(corpus / "catalog.csv"), "--out", str(out), "--json", str(out / "compare.json"),
           *flags]
    print(" ".join(cmd), flush=True)
    t0 = time.monotonic()
    rc = run_for_json(cmd, {**os.environ, "OMP_NUM_THREADS": "1"}, out / "compare.json")
    wall = time.monotonic() - t0
    run = json.loads((out / "compare.json").read_text(encoding="utf-8"))
    run["slice"] = {"corpus": str(corpus), "sample": a.sample, "files": len(files), "pages": pages,
                    "questions": len(questions), "wall_seconds": round(wall, 1), "flags": flags,
                    "exit_code": rc}
    for strategy in run["strategies"]:  # the misses' texts stay in the compare's own folder
        strategy.pop("misses", None)
    results.parent.mkdir(parents=True, exist_ok=True)
    results.with_suffix(".json").write_text(json.dumps(run, indent=1, ensure_ascii=False), encoding="utf-8")
    subprocess.run([sys.executable, str(ROOT / "benchmarks" / "compare_table.py"), str(results.with_suffix(".json")),
                    "--out", str(results), "--indexes", str(out / "index")], check=True)
    print(f"compare wall time {wall / 60:.1f} min; wrote {results}.json, .md, .png")


if __name__ == "__main__":
    main()
