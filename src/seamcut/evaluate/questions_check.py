"""A test set checked against the documents as seamcut reads them (``seamcut questions check``).

For each question, every place its answer text occurs in the documents' text, matched as the hit
test matches (``normalise`` on both sides, a substring): the document and the page of each. A
question whose answer occurs nowhere can never hit (``not_found``); one found only outside the
``source`` it names, or one naming a file (its ``source`` or a span's) that is not among the
documents read, points at the wrong file (``wrong_source``); both make it unusable. Found in
more than one place (``ambiguous``: a chunk from another place counts as a hit too) or not on the
``page`` it names (``wrong_page``) are warnings.

An answer found nowhere in seamcut's text of a PDF is looked for in the PDF's own text layer too
(pdfium's text of each page, in the order the page draws it), where a phrase copied from a PDF
viewer or another extractor often comes from: found there (``in_text_layer``), the question is
still unusable, and the check says which page seamcut reads otherwise (another reading order,
table cells joined in rows).
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Any, Sequence

from ..index.filters import holds
from ..index.rows import filter_values
from ..model import Document, pages_touched
from .questions import Question, normalise, source_matches


@dataclass(frozen=True)
class Occurrence:
    """One place an answer occurs: the document ``source``, the 1-based ``pages`` the answer text
    spans (empty where the document has no pages), and the ``answer`` alternative as written."""
    source: str
    pages: tuple[int, ...]
    answer: str


@dataclass(frozen=True)
class QuestionCheck:
    """One question and where its answer text occurs (``occurrences``, in document order)."""
    question: Question
    occurrences: tuple[Occurrence, ...] = ()
    #: the files it names (its ``source``, its spans') that are not among the documents read
    unread: tuple[str, ...] = ()
    #: where a PDF's own text layer holds an answer that seamcut's text of it does not (looked
    #: for only where the answer is found nowhere)
    in_text_layer: tuple[Occurrence, ...] = ()
    #: the occurrences in documents the question's ``where`` lets through (None: no ``where``, or
    #: one written as SQL, which only an index can apply)
    in_filter: tuple[Occurrence, ...] | None = None

    @property
    def outside_filter(self) -> bool:
        """Its answer is found, but only in documents its ``where`` leaves out: filtered as the
        test set says, its search can never find it."""
        return bool(self.counted) and self.in_filter is not None and not any(
            o in self.in_filter for o in self.counted)

    @property
    def no_answer(self) -> bool:
        """No answer text to look for (``must_contain`` empty: a no-answer question, or one
        judged by its reference spans only)."""
        return not self.question.must_contain

    @property
    def in_source(self) -> tuple[Occurrence, ...]:
        """The occurrences in the question's ``source`` (all of them where it names none)."""
        s = self.question.source
        return tuple(o for o in self.occurrences if not s or source_matches(s, o.source))

    @property
    def counted(self) -> tuple[Occurrence, ...]:
        """The occurrences the hit test counts: in the source only for a ``source_only`` one."""
        return self.in_source if self.question.source_only else self.occurrences

    @property
    def not_found(self) -> bool:
        return not self.no_answer and not self.occurrences

    @property
    def source_known(self) -> bool:
        """Every file it names is among the documents read (True where it names none)."""
        return not self.unread

    @property
    def wrong_source(self) -> bool:
        """It names a file that is not among the documents read, or its answer is found but not in
        the ``source`` it names."""
        return bool(self.unread) or (bool(self.occurrences) and bool(self.question.source)
                                     and not self.in_source)

    @property
    def wrong_page(self) -> bool:
        """A stated ``page`` none of the occurrences in the source is on (where they have pages)."""
        page, here = self.question.page, self.in_source
        if page is None or not here or not any(o.pages for o in here):
            return False
        return not any(page in o.pages for o in here)

    @property
    def ambiguous(self) -> bool:
        return len(self.counted) > 1

    @property
    def usable(self) -> bool:
        return not (self.not_found or self.wrong_source or self.outside_filter)

    def problems(self) -> list[str]:
        """What is wrong, one phrase each (errors first, then warnings)."""
        q, out = self.question, []
        if self.not_found and self.in_text_layer:
            out.append(f"not found in seamcut's text, but the PDF's own text layer has it: "
                       f"{_places(self.in_text_layer)} (seamcut reads that page in another order or "
                       f"joins its table cells in rows: copy the answer from `seamcut read`)")
        elif self.not_found:
            out.append("not found: the answer text occurs in no document")
        if self.unread:
            found = f"; found in {_places(self.occurrences)}" if self.occurrences else ""
            out.append(f"wrong source: {', '.join(self.unread)} {'is' if len(self.unread) == 1 else 'are'} "
                       f"not among the documents read{found}")
        elif self.wrong_source:
            out.append(f"wrong source: {q.source} does not hold it; found in {_places(self.occurrences)}")
        if self.outside_filter:
            out.append(f"outside the filter: its where leaves out every place it is found "
                       f"({_places(self.counted)})")
        if self.wrong_page:
            out.append(f"wrong page: not on page {q.page}; found on {_places(self.in_source)}")
        if self.ambiguous:
            out.append(f"ambiguous: {len(self.counted)} places: {_places(self.counted)}")
        return out

    def to_json(self) -> dict[str, Any]:
        q = self.question
        return {"id": q.id, "question": q.question, "must_contain": list(q.must_contain),
                "source": q.source, "page": q.page, "source_only": q.source_only,
                "no_answer": self.no_answer, "usable": self.usable, "not_found": self.not_found,
                "wrong_source": self.wrong_source, "wrong_page": self.wrong_page,
                "outside_filter": self.outside_filter,
                "ambiguous": self.ambiguous, "problems": self.problems(),
                "occurrences": [_occurrence_json(o) for o in self.occurrences],
                "in_text_layer": [_occurrence_json(o) for o in self.in_text_layer]}


def _occurrence_json(o: Occurrence) -> dict[str, Any]:
    return {"source": o.source, "pages": list(o.pages), "answer": o.answer}


@dataclass(frozen=True)
class QuestionsReport:
    """Every question checked (``checks``, in the test set's order) against ``documents`` files."""
    checks: tuple[QuestionCheck, ...]
    documents: int

    def _count(self, flag: str) -> int:
        return sum(bool(getattr(c, flag)) for c in self.checks)

    @property
    def counts(self) -> dict[str, int]:
        """questions, answerable (with answer text), no_answer, usable, not_found, wrong_source,
        wrong_page, ambiguous."""
        n, no = len(self.checks), self._count("no_answer")
        return {"questions": n, "answerable": n - no, "no_answer": no, "usable": self._count("usable"),
                "not_found": self._count("not_found"), "wrong_source": self._count("wrong_source"),
                "outside_filter": self._count("outside_filter"),
                "wrong_page": self._count("wrong_page"), "ambiguous": self._count("ambiguous")}

    @property
    def unusable(self) -> list[QuestionCheck]:
        return [c for c in self.checks if not c.usable]

    @property
    def with_problems(self) -> list[QuestionCheck]:
        return [c for c in self.checks if c.problems()]

    def summary(self) -> str:
        """The counts in one line."""
        n = self.counts
        return (f"{n['questions']} questions against {self.documents} documents: {n['answerable']} "
                f"answerable, {n['no_answer']} no-answer, {n['usable']} usable; not found {n['not_found']}, "
                f"wrong source {n['wrong_source']}, "
                + (f"outside the filter {n['outside_filter']}, " if n['outside_filter'] else "")
                + f"wrong page {n['wrong_page']}, ambiguous {n['ambiguous']}")

    def to_json(self) -> dict[str, Any]:
        return {"documents": self.documents, "counts": self.counts,
                "questions": [c.to_json() for c in self.checks]}


def check_questions(questions: Sequence[Question], documents: Sequence[Document]) -> QuestionsReport:
    """Check ``questions`` against ``documents``: where each question's ``must_contain``
    alternatives occur in the documents' text (after ``normalise``, as ``Question.answered_by``
    matches), on which pages, and whether that makes the question unusable or ambiguous."""
    texts = [_Text(d) for d in documents]
    sources = [d.source for d in documents]
    layers: dict[str, _Text | None] = {}
    checks = []
    for q in questions:
        found = _found(texts, q.must_contain)
        names = dict.fromkeys(s for s in (q.source, *(sp.source for sp in q.spans)) if s)
        unread = tuple(n for n in names if not any(source_matches(n, s) for s in sources))
        layer: tuple[Occurrence, ...] = ()
        if q.must_contain and not found:
            named = [x for x in sources if not q.source or source_matches(q.source, x)]
            for source in named:
                if source not in layers:
                    layers[source] = _text_layer(source)
            layer = _found([t for x in named if (t := layers[x]) is not None], q.must_contain)
        inside = None
        if q.filters and not q.where:
            passing = {d.source for d in documents if holds(q.filters, filter_values(d))}
            inside = tuple(o for o in found if o.source in passing)
        checks.append(QuestionCheck(q, found, unread, layer, inside))
    return QuestionsReport(tuple(checks), len(documents))


def _found(texts: Sequence["_Text"], answers: Sequence[str]) -> tuple[Occurrence, ...]:
    """Every place one of ``answers`` occurs in ``texts``, in document then text order."""
    found = [(i, start, occ) for i, t in enumerate(texts) for start, occ in t.occurrences(answers)]
    return tuple(f[2] for f in sorted(found, key=lambda f: (f[0], f[1])))


def _text_layer(source: str) -> "_Text | None":
    """A PDF's own text layer: pdfium's text of each page, in the order the page draws it, with
    its pages; None for another kind of file, or a PDF pdfium cannot open without a password."""
    if not source.lower().endswith(".pdf") or not Path(source).is_file():
        return None
    import pypdfium2 as pdfium
    try:
        pdf = pdfium.PdfDocument(source)
    except pdfium.PdfiumError:
        return None  # seamcut read it (with a password, or repaired): its own text is what counts
    try:
        pages = []
        for i in range(len(pdf)):
            page = pdf[i]
            text_page = page.get_textpage()
            pages.append(text_page.get_text_range())
            text_page.close()
            page.close()
    finally:
        pdf.close()
    starts = list(accumulate((len(p) + 2 for p in pages[:-1]), initial=0))
    return _Text(Document("\n\n".join(pages), source=source, page_starts=tuple(starts)))


class _Text:
    """A document's text as answers are matched, with where each of its pages starts in it."""

    def __init__(self, doc: Document) -> None:
        self.source = doc.source
        self.text = normalise(doc.text)
        # a page's start in the normalised text: the prefix before it normalised, with a mark
        # after it so that whitespace at the cut is kept as the whole text keeps it
        self.page_starts = [len(normalise(doc.text[:p] + "\x01")) - 1 for p in doc.page_starts]

    def pages(self, start: int, end: int) -> tuple[int, ...]:
        """The pages a span of the normalised text touches (``model.pages_touched``)."""
        return pages_touched(self.page_starts, start, end)

    def occurrences(self, answers: Sequence[str]) -> list[tuple[int, Occurrence]]:
        """Each place one of ``answers`` occurs, by its start; an alternative inside a place
        already found (a shorter answer within a longer one) is the same place."""
        spans: list[tuple[int, int, str]] = []
        for answer in answers:
            needle = normalise(answer)
            if not needle:
                continue
            at = self.text.find(needle)
            while at >= 0:
                end = at + len(needle)
                if not any(a <= at and end <= b for a, b, _ in spans):
                    spans = [s for s in spans if not (at <= s[0] and s[1] <= end)]
                    spans.append((at, end, answer))
                at = self.text.find(needle, end)
        return [(a, Occurrence(self.source, self.pages(a, b), ans)) for a, b, ans in sorted(spans)]


def _places(occurrences: Sequence[Occurrence]) -> str:
    """``a.pdf p. 4, b.md (2 times)``: each document once, the pages the answer is on in it, and how
    many times it occurs there where more than once."""
    by: dict[str, list[int]] = {}
    times: dict[str, int] = {}
    for o in occurrences:
        times[o.source] = times.get(o.source, 0) + 1
        by.setdefault(o.source, []).extend(p for p in o.pages if p not in by[o.source])
    return ", ".join(_name(s) + (f" p. {', '.join(map(str, sorted(ps)))}" if ps else "")
                     + (f" ({times[s]} times)" if times[s] > 1 else "") for s, ps in by.items())


def _name(source: str) -> str:
    return source.replace("\\", "/").rsplit("/", 1)[-1]
