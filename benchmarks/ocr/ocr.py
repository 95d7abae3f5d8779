"""OCR cost and accuracy, the code of another revision beside this checkout's, in one run.

    .venv/bin/python benchmarks/ocr/ocr.py [--before REV] [--sets helpline,tune,heldout,docling]
                                       [--tune-corpus DIR] [--heldout-corpus DIR] [--limit N]
                                       [--json OUT.json]

Each page of a scanned PDF goes through ``seamcut.readers.pdf.scans.ocr_page`` (render, then OCR
with the page's languages detected), as a build reads a scan, once with the code of ``--before``
(default ``4172341``, the code before issue 36; its ``src`` is taken out of git with ``git
archive`` into a temporary folder) and once with this checkout's ``src``. Each side runs in its own
long-lived process with ``OMP_THREAD_LIMIT=1``; the pages alternate between them (before first on
one page, after first on the next), so a busy spell on the shared machine falls on both.

Per page: **CPU seconds** (the worker's own user + system time and its children's, Tesseract runs
as a child process; model loading is done before the first page and not counted), the **CER**
(Levenshtein distance over the length of the truth, both NFC with all whitespace removed, as
``tests/test_helpline.py`` counts it), the **WER** (the same over words split at whitespace: the
CER does not see two words read as one, a search does; the corpus truth splits a few Devanagari
words where pdftotext does, the same for both sides) and whether OCR labelled the page with its language (the
first Tesseract language it reports, against the language the page was printed in).

Page sets (``--sets``):

- ``helpline``: the three scans of examples/helpline (English, Hindi, Marathi), truth in
  examples/helpline-src/NAME.truth.txt;
- ``tune``: the scanned pages of a corpus made by ``scripts/make_corpus.py --pages 300 --out DIR``
  (``--tune-corpus``; truth in its ``scan-truth.json``): the pages settings were chosen on;
- ``heldout``: the scanned pages of another corpus (``--heldout-corpus``, made with
  ``scripts/make_corpus.py --pages 1000 --seed 36 --out DIR``), files that are also in the tune
  corpus left out: the pages the numbers are reported on;
- ``docling``: ../shared/data/pdfs/docling/ocr/ocr_test.pdf (a real English scan; truth: its
  reference ``groundtruth/ocr_test.nemotron_ocr.full_page.md``).

Writes the JSON (default benchmarks/ocr/results/YYYY-MM-DD.json, today UTC), a markdown table beside it (``.md``) and,
where matplotlib is installed, a plot (``.png``); ``--report OUT.json`` measures nothing and
writes the table and plot of a saved JSON again.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import re
import resource
import subprocess
import sys
import tarfile
import tempfile
import unicodedata
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
HELPLINE = REPO / "examples" / "helpline"
sys.path.insert(0, str(REPO))
sys.path.insert(0, str(HERE.parent / "common"))
import record  # noqa: E402
from tests.helpers.levenshtein import levenshtein  # noqa: E402

DOCLING_OCR = REPO.parent / "shared" / "data" / "pdfs" / "docling" / "ocr"
#: the code before issue 36 (the OCR that reads a page twice)
BEFORE = "4172341"
SETS = ("helpline", "tune", "heldout", "docling")
LANGUAGES = ("en", "hi", "mr")


# ------------------------------------------------------------------------------------ pages


def _norm(text: str) -> str:
    return re.sub(r"\s+", "", unicodedata.normalize("NFC", text))


def _words(text: str) -> list[str]:
    return unicodedata.normalize("NFC", text).split()


def corpus_pages(folder: Path, skip: set[str] = frozenset()) -> list[dict]:
    """The scanned pages of a corpus made by scripts/make_corpus.py, with their printed text."""
    truth_file = folder / "scan-truth.json"
    if not truth_file.is_file():
        raise SystemExit(f"{truth_file}: no such file (make it: scripts/make_corpus.py --out {folder})")
    truth = json.loads(truth_file.read_text(encoding="utf-8"))
    with open(folder / "catalog.csv", encoding="utf-8") as f:
        language = {row.split(",")[0]: row.strip().split(",")[-1] for row in f}
    return [{"name": f"{name}#{i + 1}", "language": language[name], "path": str(folder / name),
             "index": i, "truth": text}
            for name, texts in sorted(truth.items()) if name not in skip
            for i, text in enumerate(texts)]


def page_sets(args: argparse.Namespace) -> dict[str, list[dict]]:
    sets: dict[str, list[dict]] = {}
    for name in args.sets:
        if name == "helpline":
            sets[name] = [{"name": stem, "language": lang, "path": str(HELPLINE / f"{stem}.pdf"),
                           "index": 0, "truth": (HELPLINE.parent / "helpline-src" / f"{stem}.truth.txt")
                           .read_text(encoding="utf-8")}
                          for stem, lang in (("seed-subsidy-circular-2019-scan", "en"),
                                             ("soybean-notice-hi-scan", "hi"),
                                             ("orange-notice-mr-scan", "mr"))]
        elif name == "tune":
            sets[name] = corpus_pages(args.tune_corpus)
        elif name == "heldout":
            tuned = set(json.loads((args.tune_corpus / "scan-truth.json").read_text(encoding="utf-8")))
            sets[name] = corpus_pages(args.heldout_corpus, skip=tuned)
        elif name == "docling":
            truth = DOCLING_OCR / "groundtruth" / "ocr_test.nemotron_ocr.full_page.md"
            sets[name] = [{"name": "ocr_test", "language": "en", "path": str(DOCLING_OCR / "ocr_test.pdf"),
                           "index": 0, "truth": truth.read_text(encoding="utf-8")}]
        else:
            raise SystemExit(f"unknown set {name!r} (choose from {', '.join(SETS)})")
    if args.limit:  # the first N pages of each language in each set
        for name, pages in sets.items():
            kept, seen = [], {}
            for p in pages:
                seen[p["language"]] = seen.get(p["language"], 0) + 1
                if seen[p["language"]] <= args.limit:
                    kept.append(p)
            sets[name] = kept
    return sets


# ------------------------------------------------------------------------------------ workers


def _cpu() -> float:
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def worker(src: str) -> None:
    """Read jobs (JSON lines: path, index) from stdin; OCR each page with the seamcut in ``src``;
    write one JSON line each: CPU seconds, text, OCR languages, rotation."""
    sys.path.insert(0, src)
    import pypdfium2 as pdfium

    import seamcut
    from seamcut.text.language import detect
    from seamcut.readers.ocr import TESSERACT_TO_ISO, _check_tesseract
    from seamcut.readers.pdf.scans import ocr_page

    assert Path(seamcut.__file__).resolve().is_relative_to(Path(src).resolve()), seamcut.__file__
    detect("a sentence to load the language model before the clock starts")
    _check_tesseract(["eng", "hin", "mar"])
    for line in sys.stdin:
        job = json.loads(line)
        pdoc = pdfium.PdfDocument(job["path"])
        start = _cpu()
        plain = ocr_page(pdoc, job["index"], None) or []
        cpu = _cpu() - start
        pdoc.close()
        meta = plain[0][2] if plain else {}
        codes = meta.get("languages") or []
        print(json.dumps({"cpu_s": round(cpu, 3), "text": "\n\n".join(t for _, t, _ in plain),
                          "language": TESSERACT_TO_ISO.get(codes[0]) if codes else None,
                          "codes": codes, "rotation": meta.get("rotation", 0)}), flush=True)


class Worker:
    def __init__(self, src: Path) -> None:
        env = {**os.environ, "OMP_THREAD_LIMIT": "1", "PYTHONPATH": str(src)}
        self.proc = subprocess.Popen([sys.executable, __file__, "--worker", str(src)], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, page: dict) -> dict:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(json.dumps({"path": page["path"], "index": page["index"]}) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the OCR worker stopped on {page['name']}")
        return json.loads(line)

    def close(self) -> None:
        assert self.proc.stdin
        self.proc.stdin.close()
        self.proc.wait()


def source_of(rev: str) -> Path:
    """``src`` of git revision ``rev``, taken out into a temporary folder."""
    folder = Path(tempfile.gettempdir()) / f"seamcut-src-{rev}"
    if not (folder / "src" / "seamcut").is_dir():
        blob = subprocess.run(["git", "-C", str(REPO), "archive", rev, "src"], check=True,
                              capture_output=True).stdout
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile() as f:
            f.write(blob)
            f.seek(0)
            with tarfile.open(fileobj=f) as tar:
                tar.extractall(folder, filter="data")
    return folder / "src"


# ------------------------------------------------------------------------------------ report


def summarise(rows: list[dict], variants: list[str]) -> list[dict]:
    """Per set and language (and per set overall): pages, CPU s/page, CER and WER (edits over
    truth characters or words, all pages together) of each variant, and pages labelled with
    their language."""
    out = []
    for set_name in dict.fromkeys(r["set"] for r in rows):
        in_set = [r for r in rows if r["set"] == set_name]
        for lang in [*LANGUAGES, "all"]:
            group = [r for r in in_set if lang in ("all", r["language"])]
            if not group or (lang == "all" and len({r["language"] for r in in_set}) < 2):
                continue
            entry = {"set": set_name, "language": lang, "pages": len(group)}
            for v in variants:
                chars, words = sum(r["truth_chars"] for r in group), sum(r["truth_words"] for r in group)
                entry[v] = {"cpu_s_per_page": round(sum(r[v]["cpu_s"] for r in group) / len(group), 3),
                            "cer": round(sum(r[v]["edits"] for r in group) / chars, 5),
                            "wer": round(sum(r[v]["word_edits"] for r in group) / words, 5),
                            "labelled_right": sum(r[v]["language"] == r["language"] for r in group)}
            entry["cpu_ratio"] = round(entry["after"]["cpu_s_per_page"] / entry["before"]["cpu_s_per_page"], 3)
            out.append(entry)
    return out


def markdown(summary: list[dict], meta: dict) -> str:
    lines = [f"OCR, {meta['date']}: before = {meta['before']}, after = this checkout "
             f"({meta['after_commit']}); CPU s per page (own + Tesseract's), CER and WER over all pages of the row",
             "",
             "| set | language | pages | CPU s/page before | CPU s/page after | ratio | CER before | "
             "CER after | WER before | WER after | language right before | after |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for e in summary:
        b, a = e["before"], e["after"]
        lines.append(f"| {e['set']} | {e['language']} | {e['pages']} | {b['cpu_s_per_page']:.2f} | "
                     f"{a['cpu_s_per_page']:.2f} | {e['cpu_ratio']:.2f} | {b['cer']:.2%} | {a['cer']:.2%} | "
                     f"{b['wer']:.2%} | {a['wer']:.2%} | "
                     f"{b['labelled_right']}/{e['pages']} | {a['labelled_right']}/{e['pages']} |")
    return "\n".join(lines) + "\n"


def plot(summary: list[dict], path: Path) -> bool:
    try:
        import matplotlib
    except ImportError:
        return False
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [e for e in summary if e["language"] != "all"]
    labels = [f"{e['set']} {e['language']}" for e in rows]
    x = range(len(rows))
    fig, axes = plt.subplots(1, 3, figsize=(max(12, len(rows) * 1.5), 4.5))
    for ax, key, label, factor in zip(axes, ("cpu_s_per_page", "cer", "wer"),
                                      ("CPU s per page", "CER, %", "WER, %"), (1, 100, 100)):
        for offset, v in ((-0.2, "before"), (0.2, "after")):
            ax.bar([i + offset for i in x], [factor * e[v][key] for e in rows], 0.4, label=v)
        ax.set_ylabel(label)
        ax.set_xticks(list(x), labels, fontsize=8, rotation=40, ha="right")
        ax.legend()
    fig.suptitle("OCR per scanned page, before and after (one thread)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--before", default=BEFORE, help=f"git revision of the code before (default {BEFORE})")
    ap.add_argument("--sets", default=",".join(SETS), type=lambda s: [x for x in s.split(",") if x])
    ap.add_argument("--tune-corpus", type=Path, default=Path("/tmp/corpus-300"))
    ap.add_argument("--heldout-corpus", type=Path, default=Path("/tmp/corpus-1000-s36"))
    ap.add_argument("--limit", type=int, default=0, help="at most N pages per language in each set")
    ap.add_argument("--json", type=Path, default=record.result_path(HERE))
    ap.add_argument("--report", type=Path, help="measure nothing: the table and plot of a saved --json")
    args = ap.parse_args()
    if args.worker:
        worker(args.worker)
        return
    if args.report:
        saved = record.read_json(args.report)
        write_report(saved["summary"], saved["meta"], args.report)
        return

    sets = page_sets(args)
    srcs = {"before": source_of(args.before), "after": REPO / "src"}
    workers = {v: Worker(src) for v, src in srcs.items()}
    rows = []
    try:
        for set_name, pages in sets.items():
            for page in pages:
                order = ["before", "after"] if len(rows) % 2 == 0 else ["after", "before"]
                row = {"set": set_name, "name": page["name"], "language": page["language"],
                       "truth_chars": len(_norm(page["truth"])), "truth_words": len(_words(page["truth"]))}
                for v in order:
                    got = workers[v].run(page)
                    text = got.pop("text")
                    got["edits"] = levenshtein(_norm(text), _norm(page["truth"]))
                    got["word_edits"] = levenshtein(_words(text), _words(page["truth"]))
                    row[v] = got
                rows.append(row)
                print(f"{set_name:8} {page['language']} {page['name'][:48]:48} " + "  ".join(
                    f"{v} {row[v]['cpu_s']:5.2f} s CER {row[v]['edits'] / row['truth_chars']:6.2%} "
                    f"WER {row[v]['word_edits'] / row['truth_words']:6.2%} "
                    f"{row[v]['language']}" for v in ("before", "after")), flush=True)
    finally:
        for w in workers.values():
            w.close()
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    dirty = bool(subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "src"],
                                capture_output=True, text=True).stdout.strip())
    meta = {"date": _dt.date.today().isoformat(), "before": args.before,
            "after_commit": commit + ("+changes" if dirty else ""), "sets": args.sets,
            "tune_corpus": str(args.tune_corpus), "heldout_corpus": str(args.heldout_corpus),
            "limit": args.limit, "command": " ".join(sys.argv)}
    summary = summarise(rows, ["before", "after"])
    record.write_json(args.json, {"meta": meta, "summary": summary, "pages": rows}, indent=1, ensure_ascii=True)
    write_report(summary, meta, args.json)


def write_report(summary: list[dict], meta: dict, path: Path) -> None:
    """The markdown table (printed, and beside ``path`` as .md) and the plot (.png)."""
    table = markdown(summary, meta)
    path.with_suffix(".md").write_text(table, encoding="utf-8")
    print(table)
    if not plot(summary, path.with_suffix(".png")):
        print("matplotlib is not installed: no plot")


if __name__ == "__main__":
    main()
