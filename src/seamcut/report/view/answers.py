"""Where a question's answer is in the documents, which chunks hold it, and why a strategy's
top k missed it: facts read off the chunks, never guessed.

Answer text is matched as the judge matches it (``seamcut.evaluate.questions.normalise``: NFC,
case folded, Devanagari digits as ASCII, invisible characters dropped, whitespace runs as one
space), and each match is mapped back to its span of the original text. Offsets are code points
of ``Document.text``.
"""
from __future__ import annotations

import unicodedata
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from ...evaluate.questions import AS_SPACE, normalise, source_matches
from ...model import Chunk, Document

#: answer places kept per question (the count of all is kept beside them)
MOST_PLACES = 20


@dataclass(frozen=True)
class Place:
    """One occurrence of an answer: ``document.text[start:end]``, on ``pages`` (1-based)."""
    doc_id: str
    source: str
    start: int
    end: int
    pages: tuple[int, ...]
    text: str

    def to_dict(self) -> dict[str, Any]:
        return {"doc_id": self.doc_id, "source": self.source, "start": self.start, "end": self.end,
                "pages": list(self.pages), "text": self.text}


class Normalised:
    """A text as answers are matched (``normalise``), with each character's span in the original."""

    def __init__(self, text: str) -> None:
        chars: list[str] = []
        starts, ends = array("q"), array("q")  # 8 bytes a character, not a Python int's 28
        i, n = 0, len(text)
        space = True  # a leading run of whitespace is dropped, as normalise's strip does
        while i < n:
            j = i + 1
            while j < n and unicodedata.combining(text[j]):  # a letter with its marks: NFC's unit
                j += 1
            for ch in normalise_piece(text[i:j]):
                if ch.isspace():
                    if space:
                        continue
                    ch, space = " ", True
                else:
                    space = False
                chars.append(ch)
                starts.append(i)
                ends.append(j)
            i = j
        self.text = "".join(chars)
        self._starts, self._ends = starts, ends

    def find(self, needle: str) -> list[tuple[int, int]]:
        """Every span of the original text whose normalised form holds ``needle`` (normalised),
        not overlapping, in order."""
        want = normalise(needle)
        out: list[tuple[int, int]] = []
        if not want:
            return out
        at = self.text.find(want)
        while at >= 0:
            out.append((self._starts[at], self._ends[at + len(want) - 1]))
            at = self.text.find(want, at + len(want))
        return out


def normalise_piece(piece: str) -> str:
    """One letter with its marks as ``normalise`` makes it; whitespace as one space (folded
    over the whole text by ``Normalised``)."""
    return " " if piece.isspace() or piece in AS_SPACE else normalise(piece)


class Finder:
    """Finds answers in a set of documents. Each document's text is normalised once (for a
    quick test), and mapped back to its offsets only where an answer is in it."""

    def __init__(self, documents: Sequence[Document]) -> None:
        self.documents = list(documents)
        self._plain: dict[str, str] = {}
        self._mapped: dict[str, Normalised] = {}

    def places(self, answers: Sequence[str], source: str | None = None) -> list[Place]:
        """Every occurrence of any of ``answers``; those in the document ``source`` names
        first, then in document order, each document's in text order."""
        wanted = [normalise(a) for a in answers if normalise(a)]
        ordered = sorted(self.documents, key=lambda d: not (source and source_matches(source, d.source)))
        places = []
        for d in ordered:
            if d.id not in self._plain:
                self._plain[d.id] = normalise(d.text)
            if not any(w in self._plain[d.id] for w in wanted):
                continue
            if d.id not in self._mapped:
                self._mapped[d.id] = Normalised(d.text)
            spans = sorted({sp for a in answers for sp in self._mapped[d.id].find(a)})
            places += [Place(d.id, d.source, st, en, d.pages_of(st, en), d.text[st:en]) for st, en in spans]
        return places


def find_places(answers: Sequence[str], documents: Sequence[Document],
                source: str | None = None) -> list[Place]:
    """Every occurrence of any of ``answers`` in ``documents`` (``Finder.places``)."""
    return Finder(documents).places(answers, source)


def holds(question: Mapping[str, Any], chunk: Chunk, normalised: str | None = None) -> bool:
    """Whether ``chunk`` holds ``question``'s answer as the judge decides: its text holds one of
    ``must_contain`` (``normalised``: the chunk's text already normalised), or, for a question
    with reference spans only, it overlaps one of them."""
    if question["must_contain"]:
        t = normalise(chunk.text) if normalised is None else normalised
        return any(normalise(a) in t for a in question["must_contain"])
    return any(source_matches(s["source"], chunk.source) and chunk.start < s["end"] and s["start"] < chunk.end
               for s in question["spans"])


def miss_reason(question: Mapping[str, Any], outcome: Mapping[str, Any], places: Sequence[Place],
                holders: Sequence[Chunk], chunks_by_doc: Mapping[str, Sequence[Chunk]], k: int,
                depth: int) -> list[str]:
    """Why ``outcome`` (one strategy's results for ``question``, none of its top ``k`` holding an
    answer) missed: sentences read off the chunks, the main reason first. ``holders``: the
    strategy's returned chunks that hold the answer; ``chunks_by_doc``: its returned chunks per
    document id, in document order; ``depth``: how deep the run searched for the budgets."""
    if not holders:
        if not places:
            if question["must_contain"]:
                return ["the answer text is not in the documents as read (none of "
                        + ", ".join(repr(a) for a in question["must_contain"]) + " found in any text)"]
            return ["no chunk overlaps the question's reference spans"]
        return [_split(p, chunks_by_doc.get(p.doc_id, ())) for p in places[:1]]
    reasons = []
    answer_docs = {c.doc_id: c.source for c in holders}
    results = outcome["results"]
    if not any(r.get("doc_id") in answer_docs for r in results):
        names = ", ".join(sorted({Path(s).name for s in answer_docs.values()}))
        reasons.append(f"no chunk of the answer's document ({names}) in the top {k}")
    deep = outcome.get("deep_rank")
    ids = ", ".join(c.id for c in holders[:3]) + (", ..." if len(holders) > 3 else "")
    if deep is not None and deep > k:
        reasons.append(f"the answer's chunk ranked {deep}, below k = {k} (chunks holding it: {ids})")
    elif deep is not None:
        reasons.append(f"the answer's chunk ranked {deep} in the search {depth} deep, but not in "
                       f"the top {k} of the search at k (the deeper search fuses longer lists)")
    else:
        reasons.append(f"no chunk holding the answer ({ids}) in the top {depth}")
    if len(reasons) == 2 and reasons[0].startswith("no chunk of"):
        return reasons
    others = [str(r["rank"]) for r in results if r.get("doc_id") in answer_docs]
    if others:
        reasons.append(f"the top {k} has chunks of the answer's document that do not hold it "
                       f"(rank {', '.join(others)})")
    return reasons


def _split(place: Place, chunks: Sequence[Chunk]) -> str:
    """Why no chunk holds an answer found at ``place``: the chunks it straddles and the cuts."""
    over = [c for c in chunks if c.start < place.end and place.start < c.end]
    at = f"{Path(place.source).name} {place.start}-{place.end}"
    if not over:
        return f"the answer's text ({at}) is in no chunk"
    if len(over) == 1:
        return (f"chunk {over[0].id} covers the answer's text ({at}) but not as one string "
                "(its text differs from the document's there)")
    cut = sorted({c.end for c in over if place.start < c.end < place.end}
                 | {c.start for c in over if place.start < c.start < place.end})
    names = " and ".join(c.id for c in over) if len(over) == 2 else ", ".join(c.id for c in over)
    return (f"the answer ({at}) is split across chunks {names} (cut at offset "
            f"{', '.join(map(str, cut))})")
