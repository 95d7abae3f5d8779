"""Turn docugami-10q's 195 questions (answers written in prose, no pages) into hit-test rows:
``must_contain`` phrases, ``source`` and ``page``, found in the filings as seamcut reads them.

For each question, the filings its ``Source Docs`` glob names are searched (seamcut's text,
``normalise``d as the hit test matches) for what its answer quotes:
- figures: amounts and percentages in the answer ("$82,959 million" is looked for as "82,959",
  "15.7%" as "15.7%" or "15.7 %", "$36.1 billion" as "36.1 billion"); years, days and numbers
  under 100 are left out (they occur everywhere);
- where no figure is found (an answer in words): the longest run of 6 to 12 of the answer's words
  that occurs in a filing.
A question whose glob names one filing gets that ``source`` and, where every place the phrases
occur is on one page, that ``page``; one over several filings (multi-doc) gets no source, and
its phrases from every filing as alternatives (a hit is a chunk holding any one). A question
where nothing is found is left out, with the reason, in the review file.

Then the hand review (``reviewed.yaml``, a person's verdict on each question) is applied: ``ok``
keeps the phrases the reviewer read (and says where the script now derives others), ``replace``
and ``add`` put the reviewer's phrases in their place, ``drop`` and ``left_out`` leave the
question out; the pages are then found for the phrases kept.

Writes ``questions.yaml`` (the rows) and ``review.md`` (each question, the answer's start, the
phrases chosen, the review's verdict and each place with its context, for a person to read) into
``--out``.

    .venv/bin/python benchmarks/docugami/derive.py [--out benchmarks/docugami]
"""
from __future__ import annotations

import argparse
import csv
import fnmatch
import json
import re
import sys
from dataclasses import replace
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks" / "common"))

import record  # noqa: E402

from seamcut.evaluate.questions import Question, load_questions, normalise  # noqa: E402
from seamcut.evaluate.questions_check import check_questions  # noqa: E402
from seamcut.model import Document  # noqa: E402
from seamcut.pipeline.corpus import read_corpus  # noqa: E402

DATA = ROOT.parent / "shared" / "data" / "docugami-10q"
#: an amount or a percentage as an answer writes it: "$82,959 million", "15.7%", "$36.1 billion"
FIGURE = re.compile(r"\$?\s?(\d{1,3}(?:,\d{3})+|\d+\.\d+|\d+)(\s?%|\s(?:million|billion))?")
MONTHS = re.compile(r"(january|february|march|april|may|june|july|august|september|october|november|"
                    r"december)\s*$", re.I)
REVIEWED = Path(__file__).with_name("reviewed.yaml")
#: what a reviewer may say of a question (``reviewed.yaml``)
VERDICTS = ("ok", "replace", "drop", "left_out", "add")
WORDS = (12, 6)  # the longest and the shortest run of an answer's words looked for
MOST = 3  # phrases kept per question (the rarest first)


def figures(answer: str) -> list[str]:
    """The amounts and percentages of ``answer`` as a filing would print them, rarest-looking
    first (more digits), without years, days of a month or numbers under 100 without a unit."""
    out: list[str] = []
    for m in FIGURE.finditer(answer):
        number, unit = m.group(1), (m.group(2) or "").strip()
        plain = number.replace(",", "")
        if MONTHS.search(answer[:m.start()]) or (unit == "" and float(plain) < 100):
            continue  # "June 25", "Item 2", "IDM 2.0", a small count
        if unit == "" and "," not in number and "." not in number and 1990 <= int(plain) <= 2030:
            continue  # a year
        if unit == "billion" and re.fullmatch(r"\d{1,3}\.\d{3}", number):
            # "$122.584 billion" is a table's 122,584 "(In millions)" read out by the answer's writer
            out.append(number.replace(".", ","))
        elif unit in ("million", "billion"):
            # "$82,959 million" is printed as 82,959 in a table "(In millions)"; "$36.1 billion" in prose
            out.append(number if "," in number else f"{number} {unit}")
        elif unit == "%":
            out.append(f"{number}%")
        else:
            out.append(number)
    return sorted(dict.fromkeys(out), key=lambda f: -len(f))


def variants(figure: str) -> list[str]:
    """The ways a filing prints ``figure``: a percentage with or without a space; an amount in
    words with its dollar sign too, joined or spaced (where the bare one is inside a longer
    number: "$5.4 billion" is not in "$45.4 billion")."""
    if figure.endswith("%"):
        return [figure, figure.replace("%", " %")]
    if figure.endswith(("million", "billion")):
        return [figure, f"${figure}", f"$ {figure}"]
    return [figure]


def word_run(answer: str, texts: list[str]) -> str | None:
    """The longest run of 6 to 12 of ``answer``'s words (30 characters or more) found in one of
    ``texts`` (normalised), earliest first among runs of one length."""
    words = normalise(answer).split()
    for n in range(WORDS[0], WORDS[1] - 1, -1):
        for i in range(len(words) - n + 1):
            run = " ".join(words[i:i + n]).strip(".,;:()\"'")
            if len(run) >= 30 and any(run in t for t in texts):
                return run
    return None


def places(phrase: str, plain: str) -> list[str]:
    """Each place ``phrase`` occurs in a normalised text ``plain``, with 60 characters either side."""
    out, want = [], normalise(phrase)
    at = plain.find(want)
    while at >= 0:
        out.append(plain[max(0, at - 60):at + len(want) + 60])
        at = plain.find(want, at + len(want))
    return out


def inside_a_number(phrase: str, texts: list[str]) -> bool:
    """Whether ``phrase`` (a figure) occurs inside a longer number in any of ``texts``
    ("5.4 billion" in "45.4 billion"): the hit test, a substring match, would count that chunk."""
    want = re.escape(normalise(phrase))
    return any(re.search(rf"[\d.,]{want}|{want}\d", t) for t in texts)


def derive(rows: list[dict[str, str]], docs: list[Document],
           reviewed: dict[str, dict] | None = None) -> tuple[list[dict], list[str], dict[str, int]]:
    """The test set rows, the review's sections (one per question) and the review's counts
    (verdicts, and ``stale``: ``ok`` rows whose derivation changed since they were read)."""
    reviewed = reviewed or {}
    plain = {d.source: normalise(d.text) for d in docs}
    everything = list(plain.values())
    kept, review = [], []
    counts = {v: 0 for v in (*VERDICTS, "unreviewed", "stale")}
    for n, row in enumerate(rows, 1):
        qid = f"dg-{n:03d}"
        named = [d for d in docs if fnmatch.fnmatch(Path(d.source).name, row["Source Docs"])]
        answer = row["Answer"]
        kind, phrases = derived(answer, named, plain, everything)
        head = f"## {qid} ({row['Question Type']}, {row['Source Chunk Type']}, {row['Source Docs']})\n\n" \
               f"**Q:** {row['Question']}\n\n**A:** {answer[:400].strip()}{' ...' if len(answer) > 400 else ''}\n"
        verdict = reviewed.get(qid, {})
        said = verdict.get("verdict", "unreviewed")
        counts[said] += 1
        seen = f"\n**review:** {said}" + (f": {verdict['note']}" if verdict.get("note") else "") + "\n"
        if said in ("replace", "add"):
            phrases, kind = list(verdict["must_contain"]), "review"
        elif said == "ok" and verdict.get("must_contain") and set(verdict["must_contain"]) != set(phrases):
            counts["stale"] += 1
            seen += f"\n**derived now:** {phrases} (read as ok: {verdict['must_contain']}; kept)\n"
            phrases = list(verdict["must_contain"])
        if said in ("drop", "left_out") or not phrases:
            why = "left out by the review" if said in ("drop", "left_out") else \
                "no figure and no run of 6 words of the answer is in the filings"
            review.append(head + f"\n**left out:** {why}" + (f" (derived: {phrases})" if phrases else "") + "\n" + seen)
            continue
        item: dict = {"id": qid, "question": row["Question"], "must_contain": phrases}
        if len(named) == 1:
            item["source"] = Path(named[0].source).name
            # the pages as the check finds them (seamcut's pages of the matched text)
            (checked,) = check_questions([Question(qid, row["Question"], tuple(phrases))], named).checks
            pages = {p for o in checked.occurrences for p in o.pages}
            if len(pages) == 1:
                item["page"] = pages.pop()
        kept.append(item)
        lines = [f"- `{x}` in {Path(d.source).name}: ...{c}..." for x in phrases for d in named
                 for c in places(x, plain[d.source])[:3]]
        review.append(head + f"\n**kept ({kind}):** {phrases}" + (f", page {item['page']}" if "page" in item else "")
                      + "\n" + seen + "\n" + "\n".join(lines) + "\n")
    return kept, review, counts


def derived(answer: str, named: list[Document], plain: dict[str, str], everything: list[str]) -> tuple[str, list[str]]:
    """How the script finds ``answer`` in the ``named`` filings (``figures`` or ``words``) and the
    phrases it keeps, the rarest first (none where nothing is found)."""
    found: list[tuple[str, Document, list[str]]] = []
    for fig in figures(answer):
        for v in variants(fig):
            if inside_a_number(v, everything):
                continue
            hits = [(v, d, p) for d in named if (p := places(v, plain[d.source]))]
            if hits:
                found.extend(hits)
                break
    kind = "figures"
    if not found:
        run = word_run(answer, [plain[d.source] for d in named])
        kind = "words"
        if run:
            found = [(run, d, p) for d in named if (p := places(run, plain[d.source]))]
    # rarest first; ties in the order found (a set's order would change from run to run)
    return kind, sorted(dict.fromkeys(f[0] for f in found), key=lambda f: sum(len(p) for x, _, p in found if x == f))[:MOST]


def load_reviewed(path: Path = REVIEWED) -> dict[str, dict]:
    """The hand review: question id to its verdict (``VERDICTS``), ``must_contain`` where the
    reviewer gives phrases (for ``ok``: the phrases read), an optional ``note``."""
    if not path.is_file():
        return {}
    got = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    for qid, v in got.items():
        if v.get("verdict") not in VERDICTS:
            sys.exit(f"{path}: {qid}: verdict {v.get('verdict')!r} is not one of {', '.join(VERDICTS)}")
        if v["verdict"] in ("replace", "add") and not v.get("must_contain"):
            sys.exit(f"{path}: {qid}: a {v['verdict']} verdict needs must_contain")
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=Path(__file__).parent)
    args = ap.parse_args()
    with open(DATA / "qna_data.csv", encoding="utf-8-sig", newline="") as fh:
        rows = list(csv.DictReader(fh))
    corpus = read_corpus([DATA / "docs"], progress=True)
    if corpus.failures:
        sys.exit(f"filings not read: {corpus.failures}")
    kept, review, verdicts = derive(rows, corpus.documents, load_reviewed())
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "questions.yaml").write_text(
        f"# derived from docugami-10q's qna_data.csv by benchmarks/docugami/derive.py: {len(kept)} of "
        f"{len(rows)} questions (MIT, Docugami)\n" + yaml.safe_dump(kept, allow_unicode=True, sort_keys=False,
                                                                    width=100), encoding="utf-8")
    asked = load_questions(args.out / "questions.yaml")
    check = check_questions(asked, corpus.documents)  # as `seamcut questions check` does
    named = check_questions([replace(q, source_only=True) for q in asked], corpus.documents)
    counts = {"questions": len(rows), "kept": len(kept), "by_figures": sum("(figures)" in r for r in review),
              "by_words": sum("(words)" in r for r in review), "by_review": sum("(review)" in r for r in review),
              "with_page": sum("page" in k for k in kept),
              "single_doc": sum("source" in k for k in kept), "check": check.counts,
              "ambiguous_in_own_source": named.counts["ambiguous"], "review": verdicts}
    path = record.result_path(Path(__file__).parent, "derive")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"recorded": record.stamp(), **counts}, indent=1), encoding="utf-8")
    print(json.dumps(counts), f"-> {path}")
    (args.out / "review.md").write_text(
        f"# docugami-10q: the derived rows, for review\n\n{len(kept)} of {len(rows)} questions kept; "
        "each with the answer's start and where its phrases occur (normalised text, page).\n\n"
        + "\n".join(review), encoding="utf-8")
    print(f"{len(kept)} of {len(rows)} questions kept: {args.out / 'questions.yaml'}, {args.out / 'review.md'}")
    if check.unusable:
        sys.exit("unusable rows (a phrase in reviewed.yaml not found in its filing?): "
                 + "; ".join(f"{c.question.id}: {c.problems()[0]}" for c in check.unusable))


if __name__ == "__main__":
    main()
