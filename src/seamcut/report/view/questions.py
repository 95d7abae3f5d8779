"""``DIR/questions.html``: what each question of a ``compare`` run got back, per strategy.

Per question: where the answer is (each place its text is found in the documents, with offsets
and pages, or its reference spans), each strategy's top k with rank, score and whether each
result holds the answer, and for a miss the reason read off the chunks (``answers.miss_reason``);
two strategies chosen in the page side by side, with the places where their cuts differ
(``diff``) and the answer's neighbourhood under both cuttings. Every result links to its chunk
in place: ``docs/<doc_id>.html#s=<strategy slug>&c=<chunk id>``.

A contestant's chunks (another library's, or chunks made elsewhere: a strategy of the run with a
``contestant`` record) are a text of their own, not spans of seamcut's reading: they are left out
of what is placed by spans (the answer's places and the chunks covering them, the cut diffs, the
neighbourhoods); each of their results carries its chunk's ``text`` and links to the contestant's
own page of the document (``contestants.page_href``).

The page opens from disk: its data is a script (``questions-data.js``, setting
``window.SEAMCUT_QUESTIONS``) beside it, drawn by ``static/questions.js``.
"""
from __future__ import annotations

import json
import shutil
from importlib import resources
from itertools import combinations
from pathlib import Path
from typing import Any, Mapping, Sequence

from ...errors import ConfigError
from ...evaluate.questions import normalise, source_matches
from ...model import Chunk, Document
from ...strategies.spec import slug
from ..html import esc
from .answers import MOST_PLACES, Finder, Place, holds, miss_reason
from .contestants import page_href
from .diff import CutDiff, diff_chunkings, returned, settle

#: characters of text shown on either side of an answer in its neighbourhood
AROUND = 400
DATA_FILE = "questions-data.js"


def chunk_href(doc_id: str, strategy: str, chunk_id: str, contestant: bool = False) -> str:
    """The link to a chunk drawn in place in its document's page (``strategy``: a label); a
    contestant's: in its own page of the document."""
    if contestant:
        return page_href(doc_id, strategy, chunk_id)
    return f"docs/{doc_id}.html#s={slug(strategy)}&c={chunk_id}"


def copy_static(folder: Path, *names: str) -> None:
    """Copy the package's static files ``names`` into ``folder`` (made where missing)."""
    folder.mkdir(parents=True, exist_ok=True)
    here = resources.files("seamcut.report.view") / "static"
    for name in names:
        with resources.as_file(here / name) as src:
            shutil.copyfile(src, folder / name)


class Strategy:
    """One strategy's chunking as the questions need it: returned chunks per document (in
    document order), every chunk by id, and the returned chunks' normalised texts (made once).
    ``contestant``: whether its chunks are a contestant's (spans of their own laid-out text)."""

    def __init__(self, label: str, chunks: Sequence[Chunk], contestant: bool = False) -> None:
        self.label, self.slug, self.contestant = label, slug(label), contestant
        self.by_id = {c.id: c for c in chunks}
        self.by_doc: dict[str, list[Chunk]] = {}
        for c in returned(chunks):
            self.by_doc.setdefault(c.doc_id, []).append(c)
        for cs in self.by_doc.values():
            cs.sort(key=lambda c: (c.start, c.end))
        self._normal: dict[str, str] = {}
        self._at: dict[str, dict[int, str]] = {}

    def covering(self, place: Place) -> Chunk | None:
        """The first returned chunk that covers ``place``, else the first that overlaps it."""
        over = [c for c in self.by_doc.get(place.doc_id, ()) if c.start < place.end and place.start < c.end]
        return next((c for c in over if c.start <= place.start and place.end <= c.end), over[0] if over else None)

    def at_cut(self, document: Document, offset: int) -> str | None:
        """The id of the returned chunk that starts (else ends) at the cut ``offset``, as
        ``diff.cuts`` places cuts."""
        if document.id not in self._at:
            at: dict[int, str] = {}
            for c in reversed(self.by_doc.get(document.id, [])):
                at[settle(document.text, c.end)] = c.id
            for c in reversed(self.by_doc.get(document.id, [])):
                at[settle(document.text, c.start)] = c.id
            self._at[document.id] = at
        return self._at[document.id].get(offset)

    def holders(self, question: Mapping[str, Any]) -> list[Chunk]:
        """The returned chunks that hold the question's answer, in document order (a contestant's:
        by answer text only, its spans being no reading's)."""
        out: list[Chunk] = []
        if self.contestant and not question["must_contain"]:
            return out
        for cs in self.by_doc.values():
            for c in cs:
                if c.id not in self._normal and question["must_contain"]:
                    self._normal[c.id] = normalise(c.text)
                if holds(question, c, self._normal.get(c.id)):
                    out.append(c)
        return out


def questions_data(compare: Mapping[str, Any], documents: Sequence[Document],
                   chunkings: Mapping[str, Sequence[Chunk]]) -> dict[str, Any]:
    """What ``questions.html`` shows, as plain data (see ``write_questions``). Raises
    ValueError naming what is missing: a strategy of the run without a chunking, or a run
    written by a seamcut whose ``compare --json`` kept no results per question."""
    runs = compare.get("strategies") or []
    if not runs:
        raise ConfigError("the compare run has no strategies")
    cut_as = [s.get("strategy") or s["name"] for s in runs]  # a filtered row is its strategy's chunking
    missing = list(dict.fromkeys(c for c in cut_as if c not in chunkings))
    if missing:
        raise ConfigError(f"no chunking given for the run's strategies {', '.join(missing)}")
    if any("results" not in q for s in runs for q in s["per_question"]):
        raise ConfigError("the compare run has no results per question (written by an older seamcut "
                          "compare --json): run compare again")
    k, depth = int(compare["k"]), int(compare.get("depth") or 0)
    strategies = [Strategy(s["name"], chunkings[c], bool(s.get("contestant"))) for s, c in zip(runs, cut_as)]
    ours = [st for st, s in zip(strategies, runs) if not st.contestant and s.get("filters", "none") == "none"]
    docs = {d.id: d for d in documents}
    warnings: list[str] = []
    asked = [(q, "answer") for q in runs[0]["per_question"]] + [(q, "no_answer") for q in runs[0]["no_answer"]]
    outcomes = [{q["id"]: q for q in s["per_question"] + s["no_answer"]} for s in runs]
    questions = []
    finder = Finder(documents)
    for q, kind in asked:
        places = _places(q, documents, finder)
        window = _window(places[0], docs[places[0].doc_id]) if places else None
        by = {}
        for st, got in zip(strategies, outcomes):
            o = got.get(q["id"])
            if o is None:
                warnings.append(f"{st.label}: question {q['id']} not in the run")
                continue
            by[st.slug] = _outcome(q, kind, o, st, places, window, k, depth, warnings)
        questions.append({"id": q["id"], "question": q["question"], "kind": kind,
                          "must_contain": q["must_contain"], "source": q.get("source"),
                          "page": q.get("page"), "spans": q.get("spans", []),
                          "places": [{**p.to_dict(), "chunks": _covering(p, ours)}
                                     for p in places[:MOST_PLACES]],
                          "place_count": len(places), "window": window, "by": by})
    diffs = {f"{a.slug}|{b.slug}": [_diff_row(d, docs[d.doc_id], a, b)
                                    for d in diff_chunkings(documents, chunkings[a.label], chunkings[b.label])]
             for a, b in combinations(ours, 2)}
    return {"k": k, "mode": compare.get("mode"), "model": compare.get("model"), "depth": depth,
            "best": compare.get("best"),
            "strategies": [{"label": s["name"], "slug": st.slug, "hits": s["hits"],
                            "questions": len(s["per_question"]), "mrr": s["mrr"],
                            "answer_kept": s.get("answer_kept"), "contestant": s.get("contestant")}
                           for s, st in zip(runs, strategies)],
            "documents": {d.id: {"source": d.source, "name": Path(d.source).name or d.id,
                                 "length": len(d.text)} for d in documents},
            "questions": questions, "diffs": diffs, "warnings": warnings}


def _places(q: Mapping[str, Any], documents: Sequence[Document], finder: Finder) -> list[Place]:
    """Where the answer is: its text found in the documents, or its reference spans."""
    if q["must_contain"]:
        return finder.places(q["must_contain"], q.get("source"))
    out = []
    for s in q.get("spans", []):
        for d in documents:
            if source_matches(s["source"], d.source):
                out.append(Place(d.id, d.source, s["start"], s["end"], d.pages_of(s["start"], s["end"]),
                                 d.text[s["start"]:s["end"]]))
    return out


def _covering(place: Place, strategies: Sequence[Strategy]) -> dict[str, str]:
    """Per strategy slug, the id of its chunk covering ``place`` (where one overlaps it)."""
    out = {}
    for st in strategies:
        c = st.covering(place)
        if c is not None:
            out[st.slug] = c.id
    return out


def _diff_row(d: CutDiff, doc: Document, a: Strategy, b: Strategy) -> dict[str, Any]:
    """A document's cut differences, each cut with the chunk of its strategy that starts (or
    ends) there: ``[offset, chunk id]``."""
    return {"doc_id": d.doc_id, "shared": d.shared,
            "only_a": [[at, a.at_cut(doc, at)] for at in d.only_a],
            "only_b": [[at, b.at_cut(doc, at)] for at in d.only_b]}


def _window(place: Place, doc: Document) -> dict[str, Any]:
    """The text around an answer's first place (``AROUND`` characters either side)."""
    start, end = max(0, place.start - AROUND), min(len(doc.text), place.end + AROUND)
    return {"doc_id": doc.id, "start": start, "end": end, "text": doc.text[start:end],
            "answer": [place.start, place.end]}


def _outcome(q: Mapping[str, Any], kind: str, o: Mapping[str, Any], st: Strategy, places: list[Place],
             window: Mapping[str, Any] | None, k: int, depth: int, warnings: list[str]) -> dict[str, Any]:
    """One strategy's results for one question, each marked holding the answer or not, the
    reason for a miss, whether some chunk holds the answer at all (the run's ``kept``), and its
    chunks around the answer (none for a contestant, whose chunks are no spans of the reading:
    its results carry their text instead)."""
    results = []
    for r in o["results"]:
        chunk = st.by_id.get(r["chunk_id"])
        if chunk is None:
            warnings.append(f"{st.label}: chunk {r['chunk_id']} (question {q['id']}, rank {r['rank']}) "
                            "is not in the chunking given: the documents or options differ from the run's")
        unknown = chunk is None or kind != "answer" or (st.contestant and not q["must_contain"])
        results.append({**{f: r.get(f) for f in ("rank", "score", "similarity", "doc_id", "chunk_id",
                                                 "start", "end", "pages", "tokens", "heading", "source")},
                        "holds": None if unknown else holds(q, chunk),
                        "href": chunk_href(r["doc_id"], st.label, r["chunk_id"], st.contestant)})
        if st.contestant:
            results[-1]["text"] = chunk.text if chunk is not None else None
    around = []
    if window is not None and not st.contestant:
        around = [{"id": c.id, "start": c.start, "end": c.end, "tokens": c.tokens,
                   "href": chunk_href(c.doc_id, st.label, c.id)}
                  for c in st.by_doc.get(window["doc_id"], ())
                  if c.start < window["end"] and window["start"] < c.end]
    reason = None
    if kind == "answer" and o["rank"] is None:
        reason = (_contestant_miss(q, o, st, k, depth) if st.contestant
                  else miss_reason(q, o, places, st.holders(q), st.by_doc, k, depth))
    return {"rank": o.get("rank"), "hit": kind == "answer" and o.get("rank") is not None,
            "best_similarity": o.get("best_similarity"), "results": results, "reason": reason,
            "around": around, "kept": o.get("kept"), "filter": o.get("filter")}


def _contestant_miss(q: Mapping[str, Any], o: Mapping[str, Any], st: Strategy, k: int, depth: int) -> list[str]:
    """Why a contestant missed: read off its chunks' text (no place in the reading, no cut)."""
    if not q["must_contain"]:
        return ["scored by reference spans of seamcut's reading, which a contestant's chunks are not spans of"]
    holders = st.holders(q)
    if not holders:
        return [f"no chunk of {st.label} holds the answer whole: lost in reading or cutting, not in search"]
    return miss_reason(q, o, [], holders, st.by_doc, k, depth)


def write_questions(out: Path, compare: dict, documents: Sequence[Document],
                    chunkings: Mapping[str, Sequence[Chunk]]) -> Path:
    """Write ``out/questions.html``, its data (``out/questions-data.js``) and its static files
    for the ``compare`` run (as ``seamcut compare --json`` writes it); ``chunkings``: each
    strategy's chunks of ``documents``, keyed by the run's strategy labels. Returns the page."""
    out = Path(out)
    data = questions_data(compare, documents, chunkings)
    out.mkdir(parents=True, exist_ok=True)
    (out / DATA_FILE).write_text("window.SEAMCUT_QUESTIONS = " + json.dumps(data, ensure_ascii=False)
                                 + ";\n", encoding="utf-8")
    copy_static(out / "static", "questions.js", "questions.css")
    title = f"seamcut view: {len(data['questions'])} questions, top {data['k']} by {data['mode']} search"
    page = out / "questions.html"
    page.write_text(
        "<!doctype html><html><head><meta charset='utf-8'>"
        f"<title>{esc(title)}</title><link rel='stylesheet' href='static/questions.css'></head><body>"
        f"<nav><a href='index.html'>documents</a></nav><h1>{esc(title)}</h1>"
        "<div id='summary'></div><section id='pair'></section><div id='questions'></div>"
        "<noscript>This page draws its data with JavaScript.</noscript>"
        f"<script src='{DATA_FILE}'></script><script src='static/questions.js'></script>"
        "</body></html>", encoding="utf-8")
    return page
