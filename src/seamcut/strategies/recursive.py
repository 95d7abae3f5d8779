"""Recursive, paragraph and sentence chunking: one engine, three break hierarchies."""
from __future__ import annotations

from ..model import Chunk, Document
from .config import RecursiveConfig, SizeConfig
from .budget import Budget
from .chunks import Draft, as_document, make_chunks
from .engine import (CLAUSE, LINE, PARAGRAPH, RECURSIVE_LEVELS, SENTENCE, WORD, Barrier, Level,
                     keep_split_units_apart, merge, no_barrier, pieces_of, within_top)
from .overlap import add_overlap


def _run(document: Document | str, config: SizeConfig, name: str, levels: tuple[Level, ...],
         barrier: Barrier) -> list[Chunk]:
    doc = as_document(document)
    budget = Budget(doc.text, config)
    # the overlap added afterwards must fit: that much is kept free while packing
    pieces = pieces_of(budget, levels, doc.language, reserve=config.overlap)
    spans = merge(budget, pieces, barrier, reserve=config.overlap)
    spans = add_overlap(budget, spans, config.overlap)
    return make_chunks(doc, [Draft(a, b) for a, b in spans], budget, name,
                       config.fingerprint(name, budget.token_sizer))


def recursive(document: Document | str, config: SizeConfig = RecursiveConfig()) -> list[Chunk]:
    """Cut at the biggest natural break that makes pieces fit: blank line, line break, sentence
    end (danda included), clause punctuation, space, then single units; join small neighbours back
    up to the limit (only inside one paragraph with ``within_paragraph``); overlap built from text.
    """
    within = isinstance(config, RecursiveConfig) and config.within_paragraph
    return _run(document, config, "recursive", RECURSIVE_LEVELS,
                within_top if within else no_barrier)


def paragraph(document: Document | str, config: SizeConfig = SizeConfig()) -> list[Chunk]:
    """Pack whole blank-line paragraphs up to the limit; a paragraph over the limit is cut further
    (line, sentence, clause, space, unit) into chunks of its own."""
    return _run(document, config, "paragraph", RECURSIVE_LEVELS, keep_split_units_apart)


def sentence(document: Document | str, config: SizeConfig = SizeConfig()) -> list[Chunk]:
    """Pack whole sentences up to the limit (a blank line also ends a sentence); a sentence over
    the limit is cut further (clause, space, unit) into chunks of its own."""
    return _run(document, config, "sentence", (SENTENCE, CLAUSE, WORD), keep_split_units_apart)


__all__ = ["recursive", "paragraph", "sentence", "PARAGRAPH", "LINE"]
