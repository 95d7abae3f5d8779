"""Parse-quality benchmark for the born-digital PDF reader (``seamcut.readers.pdf.read_pdf``).

For each PDF in ``shared/data/pdfs/docling/*.pdf`` (reference: ``groundtruth/NAME.md``) and
``shared/data/pdfs/pdfplumber/*.pdf`` (reference only where ``comparisons/NAME.txt`` exists):

* headings: precision / recall / F1 of our heading+title elements against the ``#`` lines
  (normalised text, each reference heading matched at most once; a section number at the end
  equals one in front, and a ``#`` line of just a section number joins the next ``#`` line);
* list items: recall of the ``- `` / ``1. `` lines among our ``list_item`` elements;
* table rows: recall of the reference ``|`` rows among the rows of our tables (same non-empty
  cells in order after normalising; runs of a repeated cell, which is how the reference writes a
  spanning cell, count once); ``table R~`` also counts a row whose cells are each the same or
  nearly so (difflib ratio >= 0.9, as for list items); both against the reference with the
  corrections in ``parse_errata.json`` applied (rows that do not say what the page says), and
  ``table R raw`` against the reference as it is;
* text: ``difflib.SequenceMatcher`` ratio on the normalised *word sequences* (order-sensitive, so
  reading order counts), plus a bag-of-words token F1;
* speed: pages per second, and the same text similarity and speed for pdfplumber's plain
  ``page.extract_text()`` and for ``pdftotext`` (no structure: headings/lists/tables are n/a).

Usage: ``.venv/bin/python benchmarks/parse/parse.py [--json OUT] [--only NAME,...] [--rounds N]``.
"""
from __future__ import annotations

import argparse
import difflib
import json
import re
import shutil
import subprocess
import sys
import time
import unicodedata
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks" / "common"))
DATA = ROOT.parent / "shared" / "data" / "pdfs"

import record  # noqa: E402
from seamcut.readers.pdf import read_pdf  # noqa: E402

_LIST = re.compile(r"^\s*(?:[-*+•▪]\s+|\d{1,3}[.)]\s+|\(?[a-z][.)]\s+)")


def norm(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).replace("\\", "").lower()
    return " ".join(re.findall(r"\w+", text))


def words(text: str) -> list[str]:
    return norm(text).split()


def strip_marker(text: str) -> str:
    return _LIST.sub("", text, count=1)


_SECTION_NO = re.compile(r"\d{1,2}(?:\.\d{1,2}){0,3}\.?")


def parse_reference(md: str) -> dict:
    """Headings, list items, table rows and the text of a reference conversion. A heading line
    holding only a section number is joined with the heading line right after it (the reference
    writes a boxed or large chapter number as a heading of its own: "## 1" + "## Securing ...");
    bullet glyphs the reference spells out (see ``bullet_tokens``) are taken off list items and
    table cells."""
    heads, items, rows, body = [], [], [], []
    last_head_number = False
    for line in md.splitlines():
        s = line.strip()
        if not s or s.startswith("<!--"):
            continue
        if s.startswith("#"):
            t = s.lstrip("#").strip()
            if heads and last_head_number:
                heads[-1] = heads[-1] + " " + t
            else:
                heads.append(t)
            last_head_number = bool(_SECTION_NO.fullmatch(t))
            body.append(t)
            continue
        elif s.startswith("|"):
            cells = [c.strip() for c in s.strip("|").split("|")]
            if all(re.fullmatch(r":?-+:?", c) or not c for c in cells):
                continue
            rows.append(cells)
            body.append(" ".join(cells))
        elif _LIST.match(s) and not re.match(r"^\d+\.\d", s):
            items.append(strip_marker(s))
            body.append(s)
        else:
            body.append(s)
        last_head_number = False
    glyphs = bullet_tokens(items)
    items = [strip_bullet_tokens(t, glyphs) for t in items]
    rows = [[drop_glyph_names(c, glyphs) for c in r] for r in rows]
    return {"headings": heads, "items": items, "rows": rows, "text": "\n".join(body)}


def bullet_tokens(items: list[str], least: int = 3) -> set[str]:
    """Bullet glyphs that the reference writes as text: a token that opens ``least`` or more
    list items (after the markdown marker) and is one character (a symbol-font bullet given as
    its code, "r" for a Wingdings box) or letters then digits (the name of a glyph without a
    Unicode mapping, "SM590000"). A bullet is not item text: we keep ours in metadata."""
    first = Counter(t.split()[0] for t in items if t.split())
    return {tok for tok, n in first.items()
            if n >= least and (len(tok) == 1 or re.fullmatch(r"[A-Za-z]+\d{3,}", tok))}


def strip_bullet_tokens(text: str, glyphs: set[str]) -> str:
    parts = text.split()
    while parts and parts[0] in glyphs:
        parts.pop(0)
    return " ".join(parts)


def drop_glyph_names(cell: str, glyphs: set[str]) -> str:
    """A table cell without the glyph names among ``glyphs`` (bullets of a list inside a cell);
    one-character bullet tokens stay, a cell may hold a single letter as text."""
    return " ".join(t for t in cell.split() if len(t) == 1 or t not in glyphs)


ERRATA = Path(__file__).with_name("parse_errata.json")


def corrected_rows(doc: str, rows: list[list[str]], errata: list[dict]) -> list[list[str]]:
    """The reference rows of ``doc`` with the corrections in ``parse_errata.json`` applied: a
    row listed there is replaced by its fix (the rows the rendered page has; none where the
    reference made a table of something else), a cell text listed there is replaced."""
    mine = [e for e in errata if e["doc"] == doc]
    cells = {norm(e["cell"]): e["fix"] for e in mine if "cell" in e}
    fixes = {row_key(e["row"]): e["fix"] for e in mine if "row" in e}
    out = []
    for r in rows:
        k = row_key(r)
        if k in fixes:
            out.extend(fixes[k])
        else:
            out.append([cells.get(norm(c), c) for c in r])
    return out


def row_key(cells) -> tuple:
    out = []
    for c in cells:
        n = norm(c)
        if n and (not out or out[-1] != n):
            out.append(n)
    return tuple(out)


def rows_close(ref: tuple, ours: tuple, cut: float = 0.9) -> bool:
    """Same number of non-empty cells, each the same or nearly (difflib ratio >= ``cut``, the
    list-item rule): forgives a glyph the reference spells differently (docling writes some
    bullets as their glyph name, "SM590000") in an otherwise identical row."""
    return len(ref) == len(ours) and all(
        a == b or difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() >= cut
        for a, b in zip(ref, ours))


def heading_key(text: str) -> str:
    """A heading's normalised text with a section number at its end moved to the front: the
    reference writes a number set in a box left of the heading after it ("들어가며 1")."""
    k = norm(text)
    m = re.fullmatch(r"(.*\D) ((?:\d{1,2} ){0,3}\d{1,2})", k)
    return f"{m.group(2)} {m.group(1)}" if m else k


def prf(found: list[str], ref: list[str]) -> tuple[int, int, int]:
    """(matched, found, reference) with normalised exact matching, each reference used once."""
    pool = Counter(heading_key(r) for r in ref)
    hit = 0
    for f in found:
        k = heading_key(f)
        if pool[k] > 0:
            pool[k] -= 1
            hit += 1
    return hit, len(found), len(ref)


def recall_fuzzy(found: list[str], ref: list[str], cut: float = 0.9) -> tuple[int, int]:
    got = [norm(strip_marker(f)) for f in found]
    exact = Counter(got)
    hit = 0
    for r in ref:
        k = norm(r)
        if exact[k] > 0:
            exact[k] -= 1
            hit += 1
            continue
        if any(difflib.SequenceMatcher(None, k, g, autojunk=False).ratio() >= cut for g in got
               if abs(len(g) - len(k)) <= 0.2 * max(len(k), 1)):
            hit += 1
    return hit, len(ref)


def text_scores(ours: str, ref: str) -> tuple[float, float]:
    a, b = words(ours), words(ref)
    seq = difflib.SequenceMatcher(None, a, b, autojunk=False).ratio() if a or b else 1.0
    ca, cb = Counter(a), Counter(b)
    common = sum((ca & cb).values())
    p = common / max(sum(ca.values()), 1)
    r = common / max(sum(cb.values()), 1)
    return seq, (2 * p * r / (p + r) if p + r else 0.0)


def plumber_text(path: Path) -> tuple[str, int]:
    import pdfplumber

    out = []
    with pdfplumber.open(str(path)) as pdf:
        n = len(pdf.pages)
        for page in pdf.pages:
            out.append(page.extract_text() or "")
            page.close()
    return "\n".join(out), n


def pdftotext_text(path: Path) -> str:
    r = subprocess.run(["pdftotext", "-enc", "UTF-8", str(path), "-"], capture_output=True)
    return r.stdout.decode("utf-8", "replace")


def timed(fn, rounds: int):
    best, res = None, None
    for _ in range(rounds):
        t = time.perf_counter()
        res = fn()
        dt = time.perf_counter() - t
        best = dt if best is None else min(best, dt)
    return res, best


def bench_one(path: Path, ref: dict | None, rounds: int) -> dict:
    doc, t_ours = timed(lambda: read_pdf(path), rounds)
    pages = doc.metadata.get("pages", len(doc.page_starts)) or 1
    (ptext, _), t_plumb = timed(lambda: plumber_text(path), rounds)
    r = {"doc": f"{path.parent.name}/{path.name}", "pages": pages,
         "ours_s": t_ours, "plumber_s": t_plumb}
    if shutil.which("pdftotext"):
        ttext, t_ptt = timed(lambda: pdftotext_text(path), rounds)
        r["pdftotext_s"] = t_ptt
    else:
        ttext = None
    if ref is None:
        return r
    els = doc.elements
    heads = [doc.text[e.start:e.end] for e in els if e.kind in ("heading", "title")]
    items = [doc.text[e.start:e.end] for e in els if e.kind == "list_item"]
    our_rows = {row_key(row) for e in els if e.kind == "table" for row in e.metadata["rows"]}
    r["h_hit"], r["h_found"], r["h_ref"] = prf(heads, ref["headings"])
    r["l_hit"], r["l_ref"] = recall_fuzzy(items, ref["items"])
    raw_rows = [row_key(c) for c in ref["rows"] if row_key(c)]
    r["t_hit_raw"], r["t_ref_raw"] = sum(1 for k in raw_rows if k in our_rows), len(raw_rows)
    ref_rows = [row_key(c) for c in ref.get("fixed_rows", ref["rows"]) if row_key(c)]
    r["t_hit"], r["t_ref"] = sum(1 for k in ref_rows if k in our_rows), len(ref_rows)
    r["t_hit_fuzzy"] = sum(1 for k in ref_rows if k in our_rows or any(
        rows_close(k, o) for o in our_rows))
    r["sim"], r["tokf1"] = text_scores(doc.text, ref["text"])
    r["plumber_sim"], r["plumber_tokf1"] = text_scores(ptext, ref["text"])
    if ttext is not None:
        r["pdftotext_sim"], r["pdftotext_tokf1"] = text_scores(ttext, ref["text"])
    return r


def fmt(x, digits=2):
    return "n/a" if x is None else f"{x:.{digits}f}"


def ratio(a, b):
    return a / b if b else None


def f1(hit, found, ref):
    p, rr = ratio(hit, found), ratio(hit, ref)
    if p is None or rr is None:
        return p, rr, None
    return p, rr, (2 * p * rr / (p + rr) if p + rr else 0.0)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", help="write the per-document and overall results here "
                    "(by the scheme: benchmarks/parse/results/YYYY-MM-DD[-label].json)")
    ap.add_argument("--only", help="comma-separated file names (without .pdf) to run")
    ap.add_argument("--rounds", type=int, default=1, help="timing rounds (best of N)")
    args = ap.parse_args(argv)
    if not DATA.is_dir():
        print(f"no data at {DATA}", file=sys.stderr)
        return 2
    jobs = []
    errata = json.loads(ERRATA.read_text("utf-8"))["errata"] if ERRATA.exists() else []
    for path in sorted((DATA / "docling").glob("*.pdf")):
        md = DATA / "docling" / "groundtruth" / (path.stem + ".md")
        ref = parse_reference(md.read_text("utf-8")) if md.exists() else None
        if ref is not None:
            ref["fixed_rows"] = corrected_rows(path.stem, ref["rows"], errata)
        jobs.append((path, ref))
    for path in sorted((DATA / "pdfplumber").glob("*.pdf")):
        txt = DATA / "pdfplumber" / "comparisons" / (path.stem + ".txt")
        ref = {"headings": [], "items": [], "rows": [], "text": txt.read_text("utf-8")} if txt.exists() else None
        jobs.append((path, ref))
    if args.only:
        keep = set(args.only.split(","))
        jobs = [j for j in jobs if j[0].stem in keep]
    results = []
    for path, ref in jobs:
        try:
            results.append(bench_one(path, ref, args.rounds))
        except Exception as exc:  # report and go on
            results.append({"doc": f"{path.parent.name}/{path.name}", "error": f"{type(exc).__name__}: {exc}"})
    cols = ["doc", "pg", "head P/R/F1", "list R", "table R", "table R~", "table R raw", "sim", "tokF1",
            "plumber sim", "pdftotext sim", "ours p/s", "plumber p/s", "pdftotext p/s"]
    lines = []
    for r in results:
        if "error" in r:
            lines.append([r["doc"], "ERROR " + r["error"]] + [""] * (len(cols) - 2))
            continue
        p, rr, ff = f1(r.get("h_hit", 0), r.get("h_found", 0), r.get("h_ref", 0)) if "h_ref" in r else (None,) * 3
        hs = "n/a" if "h_ref" not in r or not r["h_ref"] else f"{fmt(p)}/{fmt(rr)}/{fmt(ff)}"
        lines.append([r["doc"], str(r["pages"]), hs,
                      fmt(ratio(r["l_hit"], r["l_ref"])) if r.get("l_ref") else "n/a",
                      fmt(ratio(r["t_hit"], r["t_ref"])) if r.get("t_ref") else "n/a",
                      fmt(ratio(r["t_hit_fuzzy"], r["t_ref"])) if r.get("t_ref") else "n/a",
                      fmt(ratio(r["t_hit_raw"], r["t_ref_raw"])) if r.get("t_ref_raw") else "n/a",
                      fmt(r.get("sim")), fmt(r.get("tokf1")), fmt(r.get("plumber_sim")),
                      fmt(r.get("pdftotext_sim")), fmt(ratio(r["pages"], r["ours_s"]), 1),
                      fmt(ratio(r["pages"], r["plumber_s"]), 1),
                      fmt(ratio(r["pages"], r.get("pdftotext_s")), 1) if r.get("pdftotext_s") else "n/a"])
    ok = [r for r in results if "error" not in r]
    dl = [r for r in ok if r["doc"].startswith("docling/") and "h_ref" in r]
    tot = lambda key, rs=dl: sum(r.get(key, 0) for r in rs)  # noqa: E731
    hp, hr, hf = f1(tot("h_hit"), tot("h_found"), tot("h_ref"))
    sims = [r["sim"] for r in ok if "sim" in r]
    overall = {
        "docs": len(ok), "pages": tot("pages", ok),
        "heading_precision": hp, "heading_recall": hr, "heading_f1": hf,
        "list_recall": ratio(tot("l_hit"), tot("l_ref")),
        "table_row_recall": ratio(tot("t_hit"), tot("t_ref")),
        "table_row_recall_fuzzy": ratio(tot("t_hit_fuzzy"), tot("t_ref")),
        "table_row_recall_raw_reference": ratio(tot("t_hit_raw"), tot("t_ref_raw")),
        "text_similarity": sum(sims) / len(sims) if sims else None,
        "text_tokf1": (lambda v: sum(v) / len(v) if v else None)([r["tokf1"] for r in ok if "tokf1" in r]),
        "plumber_similarity": (lambda v: sum(v) / len(v) if v else None)([r["plumber_sim"] for r in ok if "plumber_sim" in r]),
        "pdftotext_similarity": (lambda v: sum(v) / len(v) if v else None)([r["pdftotext_sim"] for r in ok if "pdftotext_sim" in r]),
        "ours_pages_per_s": ratio(tot("pages", ok), tot("ours_s", ok)),
        "plumber_pages_per_s": ratio(tot("pages", ok), tot("plumber_s", ok)),
        "pdftotext_pages_per_s": ratio(tot("pages", ok), tot("pdftotext_s", ok)),
    }
    overall["speed_vs_plumber"] = ratio(overall["ours_pages_per_s"], overall["plumber_pages_per_s"])
    lines.append(["OVERALL (docling: structure)", str(overall["pages"]),
                  f"{fmt(hp)}/{fmt(hr)}/{fmt(hf)}", fmt(overall["list_recall"]),
                  fmt(overall["table_row_recall"]), fmt(overall["table_row_recall_fuzzy"]),
                  fmt(overall["table_row_recall_raw_reference"]),
                  fmt(overall["text_similarity"]),
                  fmt(overall["text_tokf1"]), fmt(overall["plumber_similarity"]),
                  fmt(overall["pdftotext_similarity"]), fmt(overall["ours_pages_per_s"], 1),
                  fmt(overall["plumber_pages_per_s"], 1), fmt(overall["pdftotext_pages_per_s"], 1)])
    widths = [max(len(c), *(len(l[i]) for l in lines)) for i, c in enumerate(cols)]
    print("  ".join(c.ljust(w) for c, w in zip(cols, widths)))
    for l in lines:
        print("  ".join(x.ljust(w) for x, w in zip(l, widths)))
    print(f"\nspeed vs pdfplumber extract_text: {fmt(overall['speed_vs_plumber'])}x  "
          "(sim = difflib ratio on normalised word sequences; tokF1 = bag-of-words F1)")
    if args.json:
        record.write_json(Path(args.json), {"documents": results, "overall": overall}, indent=2, ensure_ascii=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
