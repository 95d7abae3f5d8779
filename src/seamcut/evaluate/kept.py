"""Whether each answer survives reading and cutting at all: is it in some chunk of its document?

A question missed where no chunk holds its answer was lost before search (the reader dropped
the text, or the chunker cut the answer apart); one missed where a chunk holds it was lost in
search. ``answers_kept`` tells them apart for any index, a contestant's as seamcut's.
"""
from __future__ import annotations

from typing import Sequence

from ..index import Index
from .questions import Question, normalise, source_matches

#: what joins a document's chunks when they are searched at once (no answer holds it)
_APART = "\x00"


def answers_kept(index: Index, questions: Sequence[Question]) -> list[bool | None]:
    """For each question, whether one chunk of the index holds one of its answers whole (by
    answer text, after ``normalise``; a question naming its ``source``: a chunk of that
    document); None for a question with no answer text (scored by spans alone)."""
    rows = index.store.view().columns("chunks", ["source", "text"])
    by_source: dict[str, list[str]] = {}
    if rows is not None:
        for source, text in zip(rows.column("source").to_pylist(), rows.column("text").to_pylist()):
            by_source.setdefault(source, []).append(normalise(text))
    joined = {s: _APART.join(texts) for s, texts in by_source.items()}
    out: list[bool | None] = []
    for q in questions:
        if not q.must_contain:
            out.append(None)
            continue
        named = q.source
        texts = [t for s, t in joined.items() if named is None or source_matches(named, s)]
        answers = [normalise(a) for a in q.must_contain]
        out.append(any(a in t for t in texts for a in answers))
    return out


def embedded_apart(index: Index) -> dict[str, int]:
    """What the model was fed for the index's chunks, where that is not the text sent: ``of``
    chunks, ``truncated`` of them embedded from their first tokens (longer than the model's
    input: ``seamcut.peers.layout``), ``given`` embedded from a text given with them (chunks
    made elsewhere)."""
    rows = index.store.view().columns("chunks", ["chunk"])
    out = {"of": 0, "truncated": 0, "given": 0}
    if rows is None:
        return out
    for raw in rows.column("chunk").to_pylist():
        out["of"] += 1
        if '"embedded_from_tokens"' in raw:
            out["truncated"] += 1
        elif '"embedded"' in raw:
            out["given"] += 1
    return out
