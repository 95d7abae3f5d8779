"""What ``inspect_chunks`` reports, as plain dataclasses: sizes, neighbour pairs and their
overlap, coverage of the sources, and the whole ``Inspection`` with its JSON form."""
from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from ..embed import LongInput
from ..renamed import renamed_attribute
from ..text.ranges import Span


#: seamcut strategies that cut at units (headings, blocks): their overlap is repeated only between
#: the pieces of a block split for length, never across blocks, so their neighbours share nothing
#: by design whatever the ``overlap`` option says
OVERLAP_FREE = frozenset({"structure", "parent-child"})


@dataclass(frozen=True)
class SizeStats:
    """Sizes of the chunks' embedded text in one unit; ``over`` counts chunks above ``limit``
    (None: no limit stated). ``edges``/``counts``: a histogram."""

    unit: str
    min: int
    median: float
    max: int
    mean: float
    limit: int | None = None
    over: int = 0
    share_over: float = 0.0
    edges: tuple[float, ...] = ()
    counts: tuple[int, ...] = ()


@dataclass(frozen=True)
class Pair:
    """Two neighbouring chunks of one document: ``index`` and ``index + 1``.

    ``overlap_chars``/``overlap_words``/``overlap_tokens`` measure the text both hold (tokens:
    the model's, without special tokens); ``overlap_units`` the same in the configured unit.
    ``gap_chars`` is the source text between them (0 where they touch or overlap). ``method``
    says how it was found: ``offsets``, ``located`` (exact text in the source), ``normalised``
    (found only after case and spacing were ignored), ``suffix-prefix``, or ``unknown``.
    """

    index: int
    overlap_chars: int
    overlap_words: int
    overlap_tokens: int
    overlap_units: int | None
    gap_chars: int
    method: str


@dataclass(frozen=True)
class Uncovered(Span):
    """Text of a source document that no chunk holds: a ``Span`` with a short excerpt."""

    excerpt: str


@dataclass(frozen=True)
class Foreign:
    """A chunk holding text that is not in its source: ``chars`` of it (``unlocated``: the chunk
    could not be placed at all)."""

    index: int
    chars: int
    unlocated: bool
    excerpt: str


@dataclass(frozen=True)
class Coverage:
    """What of the sources no chunk holds (``uncovered_chars``: non-whitespace code points), and
    what of the chunks no source holds (``foreign_chars``)."""

    source_chars: int
    uncovered_chars: int
    uncovered: tuple[Uncovered, ...]
    foreign_chars: int
    foreign: tuple[Foreign, ...]


@dataclass(frozen=True)
class Inspection:
    """Everything ``inspect_chunks`` found. Sizes and limits are in the model's tokens unless
    a field says otherwise."""

    chunks: int
    model: str
    max_input_tokens: int | None
    sizes: dict[str, SizeStats]
    chunk_sizes: tuple[tuple[int, int, int], ...]  # (chars, words, tokens) per chunk
    pairs: tuple[Pair, ...]
    zero_overlap_pairs: tuple[int, ...]
    overlap_target: int | None
    unit: str
    over_limit: tuple[LongInput, ...]
    tokens_lost: int
    coverage: Coverage | None
    traps: tuple[str, ...]
    notes: tuple[str, ...] = ()
    placements: tuple[tuple[str, int, int] | None, ...] = field(default=(), repr=False)
    overlap_asked: bool | None = None
    overlap_from: str | None = None
    strategy: str | None = None

    #: deprecated: ``max_input_tokens``'s old name (the model's input limit)
    max_input = renamed_attribute("max_input", "max_input_tokens")

    @property
    def missing_overlap_pairs(self) -> tuple[int, ...]:
        """Pairs that share nothing although overlap was asked for (``overlap_asked``): the
        guide's zero-overlap trap. Empty where no overlap was asked for (structure chunks end at
        units by design) or where nobody says (``overlap_asked`` None)."""
        return self.zero_overlap_pairs if self.overlap_asked else ()

    @property
    def short_overlap_pairs(self) -> tuple[int, ...]:
        """Pairs sharing less than half the configured overlap (empty without a target, or
        where neighbours are not meant to share text)."""
        if not (self.overlap_target and self.overlap_asked):
            return ()
        half = self.overlap_target / 2
        return tuple(p.index for p in self.pairs
                     if p.overlap_units is not None and p.overlap_units < half)

    def overlap_said(self) -> str:
        """The overlap the chunks were made with, in words: what ``overlap_target`` (in
        ``unit``), ``overlap_from`` (``stated``, ``strategy default`` or None), ``overlap_asked``
        and ``strategy`` say, and nothing more. The text and HTML reports print it, the JSON
        holds it as ``overlap_said``: one truth in all three."""
        amount = f"{self.overlap_target} {self.unit}"
        whose = "stated" if self.overlap_from == "stated" else f"the {self.strategy} strategy's default"
        known = f"configured {amount}, {whose}" if self.overlap_target is not None else ""
        if self.overlap_asked:
            return known or f"overlap asked for; how much, in {self.unit}, not stated (--overlap)"
        if self.overlap_asked is None:
            return "the overlap they were made with is not stated (--overlap)"
        if self.strategy in OVERLAP_FREE and self.overlap_from != "stated":
            if self.overlap_target == 0:
                return f"no overlap configured, {whose}; {self.strategy} cuts end between blocks"
            return (f"{known or 'whatever overlap configured'}, repeated only between the pieces "
                    f"of a block split for length: {self.strategy} cuts otherwise end between "
                    "blocks, so neighbours share nothing by design")
        return f"no overlap configured, {whose}" if self.overlap_target == 0 else "no overlap asked for"

    def to_json(self) -> dict[str, Any]:
        """Plain data: ``chunks`` (count), ``pairs``, ``zero_overlap_pairs``, ``over_limit``,
        ``tokens_lost``, ``uncovered_chars``, ``foreign_chars`` and the rest."""
        cov = self.coverage
        return {
            "chunks": self.chunks,
            "model": self.model,
            "max_input_tokens": self.max_input_tokens,
            "sizes": {u: asdict(s) for u, s in self.sizes.items()},
            "chunk_sizes": [{"index": i, "chars": c, "words": w, "tokens": t}
                            for i, (c, w, t) in enumerate(self.chunk_sizes)],
            "overlap_target": self.overlap_target,
            "unit": self.unit,
            "pairs": [asdict(p) for p in self.pairs],
            "zero_overlap_pairs": list(self.zero_overlap_pairs),
            "overlap_asked": self.overlap_asked,
            "overlap_from": self.overlap_from,
            "overlap_said": self.overlap_said(),
            "strategy": self.strategy,
            "missing_overlap_pairs": list(self.missing_overlap_pairs),
            "short_overlap_pairs": list(self.short_overlap_pairs),
            "over_limit": [asdict(x) for x in self.over_limit],
            "tokens_lost": self.tokens_lost,
            "uncovered_chars": cov.uncovered_chars if cov else None,
            "foreign_chars": cov.foreign_chars if cov else None,
            "uncovered": [asdict(s) for s in cov.uncovered] if cov else None,
            "foreign": [asdict(f) for f in cov.foreign] if cov else None,
            "traps": list(self.traps),
            "notes": list(self.notes),
        }
