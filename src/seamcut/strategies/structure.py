"""Structure-aware chunking: cut along the document's own headings, lists and tables.

The guide's rules: a new chunk at every heading, so two sections never share a chunk; a table kept
whole when it fits, else split by rows with the header row repeated on top of every piece (as
context); a list kept together, split between items only when too long, with its lead-in line as
context; the heading path ("Cotton manual / Pests / Whitefly", title first) on top of every chunk's
text, counted in its size; recursive splitting only inside a section still too long. A document
without elements (plain text) degrades to paragraphs.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..model import Chunk, Document, Element, stable_hash
from ..outline import Outline
from ..text import is_blank, paragraph_spans
from .config import SizeConfig, StructureConfig
from .engine import RECURSIVE_LEVELS, Budget, add_overlap, merge, no_barrier, split


@dataclass
class _Block:
    """A unit the packer keeps whole where it can: an element, a whole list, a whole table."""

    start: int
    end: int
    kind: str
    elements: list[Element] = field(default_factory=list)
    lead_in: str = ""


@dataclass
class _Section:
    start: int
    end: int
    path: tuple[str, ...]
    parent: tuple[str, ...]
    blocks: list[_Block]


def _sections(doc: Document, outline: Outline) -> list[_Section]:
    els = list(doc.elements) or [
        Element("paragraph", a, b) for a, b in paragraph_spans(doc.text)]
    sections: list[_Section] = []
    current: list[Element] = []

    def close() -> None:
        if not current:
            return
        # the path of the section's own text: under the last of the headings that open it
        body = next((e for e in current if e.kind not in ("title", "heading")), current[-1])
        path = outline.path_at(body.start)
        head = current[0].kind in ("title", "heading")
        sections.append(_Section(current[0].start, current[-1].end, path,
                                 path[:-1] if head else path, _blocks(doc, current)))
        current.clear()

    for el in els:
        if el.kind in ("title", "heading") and any(e.kind not in ("title", "heading") for e in current):
            close()
        current.append(el)  # a heading with nothing under it yet joins the next one's section
    close()
    return sections


def _blocks(doc: Document, els: list[Element]) -> list[_Block]:
    out: list[_Block] = []
    for el in els:
        if el.kind == "list_item" and out and out[-1].kind == "list":
            out[-1].end = el.end
            out[-1].elements.append(el)
        elif el.kind == "list_item":
            lead = ""
            if out and out[-1].kind == "paragraph":
                prev = doc.text[out[-1].start:out[-1].end].strip()
                if prev.endswith(":") and "\n" not in prev:
                    lead = prev
            out.append(_Block(el.start, el.end, "list", [el], lead))
        elif el.kind == "table":
            out.append(_Block(el.start, el.end, "table", [el]))
        else:
            out.append(_Block(el.start, el.end, el.kind, [el]))
    return out


class _Packer:
    """Packs one section's blocks into chunks whose text is context + body."""

    def __init__(self, doc: Document, budget: Budget, cfg: SizeConfig) -> None:
        self.doc, self.budget, self.cfg = doc, budget, cfg
        self.sizer = budget.unit_sizer
        self.out: list[tuple[int, int, str, tuple[str, ...]]] = []  # (start, end, context, path)
        self.path: tuple[str, ...] = ()  # of the section being packed

    def cost(self, context: str) -> int:
        """Units a context adds in front of a body (the model's overhead counted once)."""
        if not context:
            return 0
        return self.sizer.count(context) - self.budget.unit_measure.overhead

    def fits(self, a: int, b: int, context: str) -> bool:
        """Real check of context + body against every limit."""
        text = context + self.doc.text[a:b]
        for sizer, _, lim in self.budget.limits:
            if sizer.count(text) > lim:
                return False
        return True

    def roughly_fits(self, a: int, b: int, context: str) -> bool:
        return self.budget.fits(a, b, reserve=self.cost(context))

    def emit(self, a: int, b: int, context: str) -> None:
        if not is_blank(self.doc.text, a, b):
            self.out.append((a, b, context, self.path))

    def split_text(self, a: int, b: int, context: str) -> None:
        """A block too long on its own: recursive splitting inside it, overlap inside it."""
        budget, cost = self.budget, self.cost(context)
        pieces = split(budget, RECURSIVE_LEVELS, a, b, 0, self.doc.language,
                       reserve=cost + self.cfg.overlap)
        spans = merge(budget, pieces, no_barrier, reserve=cost + self.cfg.overlap)
        spans = add_overlap(budget, spans, self.cfg.overlap, reserve=cost)
        for s, e in spans:
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
            pieces_spans = [(a, mid), (mid, b)]
        else:
            pieces_spans = [(p.start, p.end) for p in pieces]
        for s, e in pieces_spans:
            self.emit_checked(s, e, context)

    def table(self, block: _Block, context: str) -> None:
        """Row groups; the first holds the header rows as written, the others get them as context."""
        el = block.elements[0]
        rows = el.metadata.get("row_spans") or []
        header_rows = int(el.metadata.get("header_rows", 0) or 0)
        if len(rows) <= header_rows + 1 or header_rows == 0:
            self.split_text(block.start, block.end, context)
            return
        text = self.doc.text
        header_ctx = context + "\n".join(text[a:b] for a, b in rows[:header_rows]) + "\n"
        if self.cost(header_ctx) > self.cfg.size * 3 // 4:  # a header too big to repeat
            self.split_text(block.start, block.end, context)
            return
        body_rows = rows[header_rows:]
        start, ctx, i = block.start, context, 0
        while i < len(body_rows):
            j = i
            while j + 1 < len(body_rows) and self.fits(start, body_rows[j + 1][1], ctx):
                j += 1
            if not self.fits(start, body_rows[j][1], ctx):  # one row alone is too long
                self.split_text(start, body_rows[j][1], ctx)
            else:
                self.emit(start, body_rows[j][1], ctx)
            i = j + 1
            start, ctx = body_rows[j][1], header_ctx  # the line break before a row opens its chunk

    def listing(self, block: _Block, context: str) -> None:
        ctx = context + (block.lead_in + "\n" if block.lead_in else "")
        if self.cost(ctx) > self.cfg.size // 2:  # a lead-in too long to repeat
            ctx = context
        items = block.elements
        start, i = block.start, 0
        while i < len(items):
            j = i
            while j + 1 < len(items) and self.fits(start, items[j + 1].end, ctx):
                j += 1
            if not self.fits(start, items[j].end, ctx):
                self.split_text(start, items[j].end, ctx)
            else:
                self.emit(start, items[j].end, ctx)
            i = j + 1
            if i < len(items):
                start = items[j].end

    def section(self, sec: _Section, context: str, start: int) -> None:
        """Pack a section's blocks, from ``start`` (the end of the chunk before, so whitespace
        between them opens this one), greedily; a block that does not fit alone is split. A
        heading is never a chunk of its own: it opens the chunk of what follows it."""
        cur: tuple[int, int] | None = None
        heads_only = False
        pos = start
        join = getattr(self.cfg, "join_blocks", True)
        for block in sec.blocks:
            a = cur[0] if cur else pos
            if ((join or cur is None or heads_only) and self.roughly_fits(a, block.end, context)
                    and self.fits(a, block.end, context)):
                heads_only = (cur is None or heads_only) and block.kind in ("title", "heading")
                cur = (a, block.end)
                continue
            if cur and not heads_only:
                self.emit(cur[0], cur[1], context)
                pos = cur[1]
            cur, heads_only = None, False
            if self.fits(pos, block.end, context):
                cur = (pos, block.end)
                heads_only = block.kind in ("title", "heading")
            elif block.kind == "table":
                self.table(_Block(pos, block.end, "table", block.elements), context)
                pos = block.end
            elif block.kind == "list":
                self.listing(_Block(pos, block.end, "list", block.elements, block.lead_in), context)
                pos = block.end
            else:
                self.split_text(pos, block.end, context)
                pos = block.end
        if cur:
            self.emit(cur[0], cur[1], context)


def structure(document: Document | str, config: SizeConfig = StructureConfig()) -> list[Chunk]:
    """Cut along headings, lists and tables; the heading path on top of every chunk."""
    return structure_chunks(document, config, "structure")


def structure_chunks(document: Document | str, config: SizeConfig, name: str,
                     embedded: bool = True) -> list[Chunk]:
    """The structure strategy's chunks under another strategy ``name`` (parent-child uses it
    for parents, which are not embedded: ``embedded=False``)."""
    doc = Document.from_text(document) if isinstance(document, str) else document
    if is_blank(doc.text):
        return []
    cfg = config if isinstance(config, StructureConfig) else StructureConfig(
        size=config.size, overlap=config.overlap, unit=config.unit, tokenizer=config.tokenizer)
    budget = Budget(doc.text, cfg, embedded=embedded)
    outline = Outline(doc)
    packer = _Packer(doc, budget, cfg)
    sections = _sections(doc, outline)
    if cfg.merge_siblings:
        sections = _merge_siblings(sections, packer, cfg)
    pos = 0
    for n, sec in enumerate(sections):
        context = _context(sec.path, cfg, packer)
        start = pos if n else 0
        packer.path = sec.path
        packer.section(sec, context, start)
        pos = packer.out[-1][1] if packer.out else sec.end
    fp = cfg.fingerprint(name, budget.token_sizer)
    text = doc.text
    meta = {**doc.metadata, "config": fp}
    chunks = []
    for a, b, ctx, path in packer.out:
        body = text[a:b]
        full = ctx + body
        chunks.append(Chunk(
            id=stable_hash(doc.id, a, b, fp, full), doc_id=doc.id, source=doc.source, start=a,
            end=b, context=ctx, text=full, tokens=budget.token_sizer.count(full),
            pages=doc.pages_of(a, b), heading_path=path,
            language=outline.language_of(a, b), strategy=name, metadata=meta))
    return chunks


def _context(path: tuple[str, ...], cfg: StructureConfig, packer: _Packer) -> str:
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
    words = path[-1].split()
    while words and packer.cost(" ".join(words) + " …\n") > room:
        words = words[:max(1, len(words) // 2)] if len(words) > 1 else []
    return (" ".join(words) + " …\n") if words else ""


def _merge_siblings(sections: list[_Section], packer: _Packer,
                    cfg: StructureConfig) -> list[_Section]:
    """Join neighbouring sections with the same parent while the joined text fits."""
    out: list[_Section] = []
    for sec in sections:
        prev = out[-1] if out else None
        if prev is not None and prev.parent == sec.parent and prev.parent:
            context = cfg.path_separator.join(prev.parent) + "\n"
            if packer.fits(prev.start, sec.end, context):
                out[-1] = _Section(prev.start, sec.end, prev.parent, prev.parent,
                                   prev.blocks + sec.blocks)
                continue
        out.append(sec)
    return out
