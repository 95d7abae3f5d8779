"""Sentence and paragraph boundaries (offsets are code-point ``str`` indices)."""

from .segment import (paragraph_breaks, paragraph_gaps, paragraph_spans, sentence_breaks,
                      sentence_spans)

__all__ = ["sentence_breaks", "sentence_spans", "paragraph_breaks", "paragraph_gaps",
           "paragraph_spans"]

from .space import SPACE, is_blank, strip_space

__all__ += ["SPACE", "is_blank", "strip_space"]
