"""Structure-aware chunking: cut along the document's own headings, lists and tables.

The guide's rules: a new chunk at every heading, so two sections never share a chunk; a table kept
whole when it fits, else split by rows with the header row repeated on top of every piece (as
context); a list kept together, split between items only when too long, with its lead-in line as
context; the heading path ("Cotton manual / Pests / Whitefly", title first) on top of every chunk's
text, counted in its size; recursive splitting only inside a section still too long. A document
without elements (plain text) degrades to paragraphs.

The passes: ``units.sections`` (the structure pass), ``units.merge_siblings`` (optional), then
``UnitPacker`` packs each section's units into drafts by their rules, and ``make_chunks``.
"""
from __future__ import annotations

from ..model import Chunk, Document
from ..outline import Outline
from ..text import is_blank
from .budget import Budget
from .chunks import Draft, as_document, make_chunks
from .config import SizeConfig, StructureConfig, as_config
from .engine import RECURSIVE_LEVELS, no_barrier, pack, split
from .units import ATTACH, ITEMS, ROWS, Section, Unit, merge_siblings, sections


class UnitPacker:
    """Packs sections' units into drafts whose text (context + body) keeps every limit."""

    def __init__(self, doc: Document, budget: Budget, cfg: StructureConfig) -> None:
        self.doc, self.budget, self.cfg = doc, budget, cfg
        self.sizer = budget.unit_sizer
        self.out: list[Draft] = []
        self.path: tuple[str, ...] = ()  # of the section being packed

    def cost(self, context: str) -> int:
        """Units a context adds in front of a body (the model's overhead counted once)."""
        if not context:
            return 0
        return self.sizer.count(context) - self.budget.unit_measure.overhead

    def fits(self, a: int, b: int, context: str) -> bool:
        """Real check of context + body against every limit."""
        text = context + self.doc.text[a:b]
        return all(sizer.count(text) <= lim for sizer, _, lim in self.budget.limits)

    def emit(self, a: int, b: int, context: str) -> None:
        if not is_blank(self.doc.text, a, b):
            self.out.append(Draft(a, b, context, self.path))

    def split_text(self, a: int, b: int, context: str) -> None:
        """A unit too long on its own: recursive splitting inside it, overlap inside it."""
        cost, overlap = self.cost(context), self.cfg.overlap
        pieces = split(self.budget, RECURSIVE_LEVELS, a, b, 0, self.doc.language,
                       reserve=cost + overlap)
        for s, e in pack(self.budget, pieces, no_barrier, overlap, reserve=cost):
            self.emit_checked(s, e, context)

    def emit_checked(self, a: int, b: int, context: str) -> None:
        """Emit, cutting the body further in the rare case a real count finds it over."""
        if self.fits(a, b, context) or b - a < 2:
            self.emit(a, b, context)
            return
        pieces = split(self.budget, RECURSIVE_LEVELS, a, b, 0, self.doc.language, depth=1,
                       reserve=self.cost(context) + 1)
        if len(pieces) < 2:
            mid = (a + b) // 2
            spans = [(a, mid), (mid, b)]
        else:
            spans = [(p.start, p.end) for p in pieces]
        for s, e in spans:
            self.emit_checked(s, e, context)

    def groups(self, start: int, ends: tuple[int, ...], context: str, head: str) -> None:
        """Runs of parts (rows, items) packed greedily from ``start``; ``ends``: where each part
        ends. The first run has ``context`` in front, the others ``head``; a part too long on its
        own is split as text. The line break before a part opens its run."""
        ctx, i = context, 0
        while i < len(ends):
            j = i
            while j + 1 < len(ends) and self.fits(start, ends[j + 1], ctx):
                j += 1
            if not self.fits(start, ends[j], ctx):
                self.split_text(start, ends[j], ctx)
            else:
                self.emit(start, ends[j], ctx)
            start, ctx, i = ends[j], head, j + 1

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
        cur: tuple[int, int] | None = None
        heads_only = False
        pos = start
        join = self.cfg.join_blocks
        for unit in sec.units:
            a = cur[0] if cur else pos
            if ((join or cur is None or heads_only)
                    and self.budget.fits(a, unit.end, reserve=self.cost(context))
                    and self.fits(a, unit.end, context)):
                heads_only = (cur is None or heads_only) and unit.rule == ATTACH
                cur = (a, unit.end)
                continue
            if cur and not heads_only:
                self.emit(cur[0], cur[1], context)
                pos = cur[1]
            cur, heads_only = None, False
            if self.fits(pos, unit.end, context):
                cur = (pos, unit.end)
                heads_only = unit.rule == ATTACH
            else:
                self.too_long(unit, pos, context)
                pos = unit.end
        if cur:
            self.emit(cur[0], cur[1], context)


def structure(document: Document | str, config: SizeConfig = StructureConfig()) -> list[Chunk]:
    """Cut along headings, lists and tables; the heading path on top of every chunk."""
    return structure_chunks(document, config, "structure")


def structure_drafts(doc: Document, cfg: StructureConfig, budget: Budget,
                     outline: Outline) -> list[Draft]:
    """The structure strategy's drafts: sections (siblings merged where asked), each packed
    under its heading path."""
    packer = UnitPacker(doc, budget, cfg)
    secs = sections(doc, outline)
    if cfg.merge_siblings:
        secs = merge_siblings(secs, lambda a, b, parent: packer.fits(
            a, b, cfg.path_separator.join(parent) + "\n"))
    pos = 0
    for n, sec in enumerate(secs):
        packer.section(sec, _context(sec.path, cfg, packer), pos if n else 0)
        pos = packer.out[-1].end if packer.out else sec.end
    return packer.out


def structure_chunks(document: Document | str, config: SizeConfig, name: str,
                     embedded: bool = True) -> list[Chunk]:
    """The structure strategy's chunks under another strategy ``name`` (parent-child uses it
    for parents, which are not embedded: ``embedded=False``)."""
    doc = as_document(document)
    if is_blank(doc.text):
        return []
    cfg = as_config(config, StructureConfig)
    budget = Budget(doc.text, cfg, embedded=embedded)
    outline = Outline(doc)
    drafts = structure_drafts(doc, cfg, budget, outline)
    return make_chunks(doc, drafts, budget, name, cfg.fingerprint(name, budget.token_sizer), outline)


def _context(path: tuple[str, ...], cfg: StructureConfig, packer: UnitPacker) -> str:
    """The heading path put on top of a section's chunks, at most half the size: where the full
    path is longer, the headings nearest the section are kept (a long heading is cut at a word,
    with "…"); the headings themselves stay whole in the chunks' bodies."""
    if not path:
        return ""
    room = cfg.size // 2
    full = cfg.path_separator.join(path) + "\n"
    if packer.cost(full) <= room:
        return full
    kept: list[str] = []
    for heading in reversed(path):
        trial = cfg.path_separator.join([heading, *kept]) + "\n"
        if packer.cost(trial) > room:
            break
        kept.insert(0, heading)
    if kept:
        return "… " + cfg.path_separator.join(kept) + "\n"
    words = path[-1].split(" ")  # heading_text joins a heading's words with single spaces
    while words and packer.cost(" ".join(words) + " …\n") > room:
        words = words[:max(1, len(words) // 2)] if len(words) > 1 else []
    return (" ".join(words) + " …\n") if words else ""
