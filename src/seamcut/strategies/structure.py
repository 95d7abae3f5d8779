"""Structure-aware chunking: cut along the document's own headings, lists and tables.

The guide's rules: a new chunk at every heading, so two sections never share a chunk; a table kept
whole when it fits, else split by rows with the header row repeated on top of every piece (as
context); a list kept together, split between items only when too long, with its lead-in line as
context; the heading path ("Cotton manual / Pests / Whitefly", title first) on top of every chunk's
text, counted in its size (the ``context`` option's default, ``path``: ``context.Contexts``);
recursive splitting only inside a section still too long. A document without elements (plain
text) degrades to paragraphs.

The passes: ``units.sections`` (the structure pass), ``units.merge_siblings`` (optional), then
``UnitPacker`` packs each section's units into drafts by their rules, ``Contexts.finish`` and
``make_chunks``.
"""
from __future__ import annotations

from ..model import Chunk, Document
from ..outline import Outline
from ..text import is_blank
from .size_limit import SizeLimit
from .chunks import Draft, as_document, make_chunks
from .context import Contexts
from .window_outline import outline_of
from .config import SizeConfig, StructureConfig, as_config
from .pieces import RECURSIVE_LEVELS, Piece, no_barrier, pack, split
from .packer import greedy
from .units import ATTACH, ITEMS, ROWS, Section, Unit, merge_siblings, sections


class UnitPacker:
    """Packs sections' units into drafts whose text (context + body) keeps every limit; the
    contexts, their costs and the real checks are ``ctx``'s."""

    def __init__(self, ctx: Contexts, cfg: StructureConfig) -> None:
        self.ctx, self.cfg = ctx, cfg
        self.doc, self.limit, self.outline = ctx.doc, ctx.limit, ctx.outline
        self.cost, self.fits = ctx.cost, ctx.fits
        self.out: list[Draft] = []
        self.path: tuple[str, ...] = ()  # of the section being packed
        self.anchor = 0  # where the section's path holds from: its text after the opening headings

    def emit(self, a: int, b: int, context: str) -> None:
        if is_blank(self.doc.text, a, b):
            return
        path = self.path
        if b <= self.anchor:
            # a piece of the opening headings alone (they did not fit with what follows): under
            # its own last heading, not the section's deeper path
            path = self.outline.path_at(b - 1)
            own = self.ctx.of(path)
            if own != context and not self.fits(a, b, own) and b - a >= 2:
                self.emit_checked(a, b, own)
                return
            context = own
        self.out.append(Draft(a, b, context, path))

    def split_text(self, a: int, b: int, context: str) -> None:
        """A unit too long on its own: recursive splitting inside it, overlap inside it (beside a
        context, ``Contexts.overlap``)."""
        cost = self.cost(context)
        overlap = self.ctx.overlap(self.cfg.overlap, cost)
        pieces = split(self.limit, RECURSIVE_LEVELS, a, b, 0, self.doc.language,
                       reserve=cost + overlap)
        for s, e in pack(self.limit, pieces, no_barrier, overlap, reserve=cost):
            self.emit_checked(s, e, context)

    def emit_checked(self, a: int, b: int, context: str) -> None:
        """Emit, cutting the body further in the rare case a real count finds it over."""
        for s, e in self.ctx.cut_to_fit(a, b, context):
            self.emit(s, e, context)

    def groups(self, start: int, ends: tuple[int, ...], context: str, head: str) -> None:
        """Runs of parts (rows, items) packed greedily from ``start``; ``ends``: where each part
        ends. The first run has ``context`` in front, the others ``head``; a part too long on its
        own is split as text. The line break before a part opens its run."""
        parts = [Piece(a, b, 0, False) for a, b in zip((start, *ends), ends)]
        greedy(parts, _Groups(self, context, head), start)

    def rows(self, unit: Unit, start: int, context: str) -> None:
        """Row groups; the first holds the header rows as written, the others get them as
        context (a header over three quarters of the size is not repeated: split as text)."""
        header = context + unit.head
        if self.cost(header) > self.cfg.size * 3 // 4:
            self.prose(unit, start, context)
        else:
            self.groups(start, unit.parts, context, header)

    def items(self, unit: Unit, start: int, context: str) -> None:
        """Item groups, each under the lead-in line (unless it takes over half the size)."""
        lead = context + unit.head
        if self.cost(lead) > self.cfg.size // 2:
            lead = context
        self.groups(start, unit.parts, lead, lead)

    def prose(self, unit: Unit, start: int, context: str) -> None:
        self.split_text(start, unit.end, context)

    def too_long(self, unit: Unit, start: int, context: str) -> None:
        """A unit that does not fit in a chunk of its own, split from ``start`` by its rule."""
        split_by = {ROWS: self.rows, ITEMS: self.items}.get(unit.rule, self.prose)
        split_by(unit, start, context)

    def section(self, sec: Section, context: str, start: int) -> None:
        """Pack a section's units, from ``start`` (the end of the chunk before, so whitespace
        between them opens this one), greedily; a unit that does not fit alone is split by its
        rule. A heading is never a chunk of its own: it opens the chunk of what follows it."""
        self.path = sec.path
        self.anchor = next((u.start for u in sec.units if u.rule != ATTACH), sec.units[-1].start)
        greedy(sec.units, _Units(self, context), start)


class _Units:
    """A section's packing: a unit joins the chunk before (with ``join_blocks``, or always after
    headings alone) where it fits by estimate and for real; one too long alone is split by its
    rule from where the chunk opens (headings before it included)."""

    contiguous = True
    first_alone = True

    def __init__(self, packer: UnitPacker, context: str) -> None:
        self.packer, self.context = packer, context
        self.reserve = packer.cost(context)

    def joins(self, a: int, last: Unit, item: Unit, opening: bool) -> bool:
        p = self.packer
        if opening:
            return p.fits(a, item.end, self.context)
        return (p.cfg.join_blocks and p.limit.fits(a, item.end, reserve=self.reserve)
                and p.fits(a, item.end, self.context))

    def fits(self, a: int, b: int) -> bool:
        return self.packer.fits(a, b, self.context)

    def attaches(self, item: Unit) -> bool:
        return item.rule == ATTACH

    def emit(self, a: int, b: int) -> None:
        self.packer.emit(a, b, self.context)

    def too_long(self, a: int, item: Unit) -> tuple[int, list[Unit]]:
        self.packer.too_long(item, a, self.context)
        return item.end, []


class _Groups:
    """Table rows or list items: parts join while they fit for real; the first run has the
    section's context in front, every later one ``head``; a part too long alone is split as text."""

    contiguous = True
    first_alone = False

    def __init__(self, packer: UnitPacker, context: str, head: str) -> None:
        self.packer, self.context, self.head = packer, context, head

    def joins(self, a: int, last: Piece, item: Piece, opening: bool) -> bool:
        return self.packer.fits(a, item.end, self.context)

    def fits(self, a: int, b: int) -> bool:
        return self.packer.fits(a, b, self.context)

    def attaches(self, item: Piece) -> bool:
        return False

    def emit(self, a: int, b: int) -> None:
        self.packer.emit(a, b, self.context)
        self.context = self.head

    def too_long(self, a: int, item: Piece) -> tuple[int, list[Piece]]:
        self.packer.split_text(a, item.end, self.context)
        self.context = self.head
        return item.end, []


def structure(document: Document | str, config: SizeConfig = StructureConfig()) -> list[Chunk]:
    """Cut along headings, lists and tables; the heading path on top of every chunk."""
    return structure_chunks(document, config, "structure")


def structure_drafts(ctx: Contexts, cfg: StructureConfig) -> list[Draft]:
    """The structure strategy's drafts of ``ctx``'s document: sections (siblings merged where
    asked), each packed under its context (``Contexts.of`` its heading path), not yet finished
    (``Contexts.finish``)."""
    packer = UnitPacker(ctx, cfg)
    secs = sections(ctx.doc, ctx.outline)
    if cfg.merge_siblings:
        secs = merge_siblings(secs, lambda a, b, parent: packer.fits(a, b, ctx.of(parent)))
    pos = 0
    for n, sec in enumerate(secs):
        packer.section(sec, ctx.of(sec.path), pos if n else 0)
        pos = packer.out[-1].end if packer.out else sec.end
    return packer.out


def structure_chunks(document: Document | str, config: SizeConfig, name: str,
                     embedded: bool = True, like: SizeLimit | None = None,
                     outline: Outline | None = None) -> list[Chunk]:
    """The structure strategy's chunks under another strategy ``name`` (parent-child uses it
    for parents, which are not embedded: ``embedded=False``, with the measure of its children's
    ``SizeLimit`` and their ``outline``)."""
    doc = as_document(document)
    if is_blank(doc.text):
        return []
    cfg = as_config(config, StructureConfig)
    limit = SizeLimit(doc.text, cfg, embedded=embedded, like=like)
    outline = outline or outline_of(doc)
    ctx = Contexts(doc, cfg, limit, outline)
    drafts = ctx.finish(structure_drafts(ctx, cfg))
    return make_chunks(doc, drafts, limit, name, cfg.fingerprint(name, limit.token_sizer), outline)

