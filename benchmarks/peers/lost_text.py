"""Text another library's reader keeps and seamcut's reading drops (issue 53 point 4: each is a
reading bug to find and fix, since nothing may be dropped silently).

    .venv/bin/python benchmarks/peers/lost_text.py [--set docugami|helpline] [--peer langchain]
        [--shingle 6] [--show 5] [--json results/YYYY-MM-DD-SET-lost.json]

Reads every file of the set with seamcut (the parse cache) and with the peer's own reader; a
pieces joined), compares them as runs of ``--shingle`` words (each word ``normalise``d as the
hit test matches answers: case, Devanagari digits, spaces): a run of the peer's text that
nowhere occurs in seamcut's is lost there. Consecutive lost runs are joined into passages; the
script prints per file the words lost and the longest passages, and the totals (a word the peer
splits or joins otherwise, a hyphen broken at a line end, is lost at most once a passage).
"""
from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(HERE.parent / "common"))

import record  # noqa: E402
from peers import SETS  # noqa: E402
from seamcut.evaluate.questions import normalise  # noqa: E402
from seamcut.peers import library  # noqa: E402
from seamcut.pipeline.corpus import read_corpus  # noqa: E402
from seamcut.readers import expand  # noqa: E402

_WORD = re.compile(r"\w+(?:[.,%]\w+)*%?")


def words(text: str) -> list[str]:
    """``text``'s words as the hit test sees them (``normalise``d), table bars and dots left out."""
    return _WORD.findall(normalise(text))


def furniture(doc: Any) -> set[tuple[str, ...]]:
    """The lines seamcut's reading set aside as page furniture (running headers and footers,
    page numbers), recorded in its metadata: not lost, kept apart."""
    return {tuple(words(f["text"])) for f in doc.metadata.get("furniture") or () if isinstance(f, dict)}


def _without(w: list[str], apart: set[tuple[str, ...]]) -> list[str]:
    """``w`` less every furniture line it holds (a footer and its page number on one line)."""
    for f in sorted(apart, key=len, reverse=True):
        k = len(f)
        i = 0
        while f and i + k <= len(w):
            if tuple(w[i:i + k]) == f:
                w = w[:i] + w[i + k:]
            else:
                i += 1
    return w


def broken(w: list[str]) -> bool:
    """Whether the peer's line is text its reader broke (half its words one letter long: pypdf
    splits Devanagari at every vowel sign): no text to find in anyone's reading."""
    return sum(len(x) == 1 and not x.isdigit() for x in w) * 2 >= len(w)


def lost_lines(theirs: str, ours: list[str], n: int, apart: set[tuple[str, ...]]) -> list[list[str]]:
    """The lines of the peer's text (as its words) with a run of ``n`` words (the whole line
    where it is shorter) that seamcut's words ``ours`` nowhere hold in a row; lines seamcut
    keeps apart as furniture (``apart``) and lines of fewer than three words are not counted."""
    have: dict[int, set[tuple[str, ...]]] = {}

    def held(run: tuple[str, ...]) -> bool:
        k = len(run)
        if k not in have:
            have[k] = {tuple(ours[i:i + k]) for i in range(max(0, len(ours) - k + 1))}
        return run in have[k]

    out = []
    for line in theirs.splitlines():
        w = words(line)
        if len(w) < 3 or not _without(w, apart) or broken(w):
            continue
        k = min(n, len(w))
        if not all(held(tuple(w[i:i + k])) for i in range(len(w) - k + 1)):
            out.append(w)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", choices=sorted(SETS), default="helpline")
    ap.add_argument("--peer", default="langchain", help="whose reader: a library of seamcut.peers")
    ap.add_argument("--shingle", type=int, default=6, help="words a run holds")
    ap.add_argument("--show", type=int, default=5, help="passages shown per file")
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    corpus, _, _ = SETS[args.set]
    lib = library(args.peer)
    lib.check()
    files = [str(f) for f in expand([corpus])]
    ours = {d.source: d for d in read_corpus(files, progress=False).documents}
    report: list[dict[str, Any]] = []
    total_lost = total = total_broken = 0
    for f in files:
        doc = ours.get(f)
        if doc is None:
            continue
        try:
            pieces = lib.read(f)
            theirs = words("\n".join(p.text for p in pieces))
        except Exception as exc:  # noqa: BLE001 - the peer's failure is a row, not the end
            report.append({"file": f, "error": f"{type(exc).__name__}: {exc}"})
            continue
        lost_here = lost_lines("\n".join(p.text for p in pieces), words(doc.text), args.shingle, furniture(doc))
        lost = sum(len(w) for w in lost_here)
        unreadable = sum(len(w) for w in map(words, "\n".join(p.text for p in pieces).splitlines()) if broken(w))
        total_broken += unreadable
        total_lost, total = total_lost + lost, total + len(theirs)
        longest = sorted(lost_here, key=len, reverse=True)[:args.show]
        report.append({"file": f, "words": len(theirs), "lost": lost, "unreadable": unreadable,
                       "lines": [" ".join(w) for w in lost_here]})
        print(f"{Path(f).name}: {lost} of {len(theirs)} words of {lib.name}'s reading in lines not in seamcut's")
        for w in longest:
            print(f"   [{len(w)}] {' '.join(w)[:300]}")
    print(f"total: {total_lost} of {total} words ({total_lost / max(1, total):.2%}) in lines of "
          f"{lib.name}'s reading that seamcut's lacks (a run of {args.shingle} words not found; furniture apart); "
          f"{total_broken} words in lines {lib.name}'s reader broke (half the words one letter) not compared")
    if args.json:
        record.write_json(args.json, {"set": args.set, "peer": args.peer, "shingle": args.shingle,
                                      "lost": total_lost, "words": total, "files": report})
        print(f"wrote {args.json}", file=sys.stderr)


if __name__ == "__main__":
    main()
