"""Recursive, paragraph and sentence chunking: one piece packer, three break hierarchies.

Each is a ``Plan`` over the same passes: cut into pieces at the plan's levels, pack the pieces up
to the limit (the overlap's room and the context's kept free), add the overlap, put each chunk's
context in front (``context.Contexts``), make the chunks.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..model import Chunk, Document
from .size_limit import SizeLimit, plus
from .window_outline import outline_of
from .chunks import as_document, make_chunks
from .config import ParagraphConfig, RecursiveConfig, SentenceConfig, SizeConfig
from .context import Contexts
from .pieces import (LINE, PARAGRAPH, RECURSIVE_LEVELS, SENTENCE_LEVELS, Barrier, Level,
                     keep_split_units_apart, no_barrier, pack, pieces_of, within_top)


@dataclass(frozen=True)
class Plan:
    """A text strategy as a configuration of the piece packer: its break levels, biggest first, and
    which neighbouring pieces may not share a chunk."""

    levels: tuple[Level, ...]
    barrier: Barrier


RECURSIVE = Plan(RECURSIVE_LEVELS, no_barrier)
RECURSIVE_WITHIN_PARAGRAPH = Plan(RECURSIVE_LEVELS, within_top)
PARAGRAPHS = Plan(RECURSIVE_LEVELS, keep_split_units_apart)
SENTENCES = Plan(SENTENCE_LEVELS, keep_split_units_apart)


def run_plan(document: Document | str, config: SizeConfig, name: str, plan: Plan) -> list[Chunk]:
    """The chunks of ``plan`` under the strategy name ``name``."""
    doc = as_document(document)
    limit = SizeLimit(doc.text, config)
    ctx = Contexts(doc, config, limit, outline_of(doc))
    reserve, overlap = ctx.reserve()
    # the overlap added afterwards and the context must fit: that much is kept free while cutting
    pieces = pieces_of(limit, plan.levels, doc.language, reserve=plus(reserve, overlap))
    spans = pack(limit, pieces, plan.barrier, overlap, reserve=reserve)
    return make_chunks(doc, ctx.drafts(spans), limit, name, config.fingerprint(name, limit.token_sizer),
                       ctx.outline)


def recursive(document: Document | str, config: SizeConfig = RecursiveConfig()) -> list[Chunk]:
    """Cut at the biggest natural break that makes pieces fit: blank line, line break, sentence
    end (danda included), clause punctuation, space, then single units; join small neighbours back
    up to the limit (only inside one paragraph with ``within_paragraph``); overlap built from text.
    """
    within = isinstance(config, RecursiveConfig) and config.within_paragraph
    return run_plan(document, config, "recursive", RECURSIVE_WITHIN_PARAGRAPH if within else RECURSIVE)


def paragraph(document: Document | str, config: SizeConfig = ParagraphConfig()) -> list[Chunk]:
    """Pack whole blank-line paragraphs up to the limit; a paragraph over the limit is cut further
    (line, sentence, clause, space, unit) into chunks of its own."""
    return run_plan(document, config, "paragraph", PARAGRAPHS)


def sentence(document: Document | str, config: SizeConfig = SentenceConfig()) -> list[Chunk]:
    """Pack whole sentences up to the limit (a blank line also ends a sentence); a sentence over
    the limit is cut further (clause, space, unit) into chunks of its own."""
    return run_plan(document, config, "sentence", SENTENCES)


__all__ = ["recursive", "paragraph", "sentence", "Plan", "run_plan", "PARAGRAPH", "LINE"]
