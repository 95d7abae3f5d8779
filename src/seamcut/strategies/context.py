"""What a strategy puts in front of a chunk's body (the chunk's ``context``), for every strategy.

The ``context`` option names the parts (``SizeConfig.context``): the page label, the document's
title, its fields (``fields_line``: its catalog's, and the date, period and year found in its
text) and the heading path, written in that order, a line each; the whole
is at most about half the size, counted in the size
(``cost``, ``fits``), embedded and full-text indexed with the body, while the chunk's span stays
the body's (``Draft``: the context is no part of ``[start, end)``).

Two ways a strategy uses it. The structure strategies build a section's context (``of``) before
they pack it and check every chunk for real with it (``fits``). The piece-packing strategies (fixed,
sentence, paragraph, recursive, semantic) keep the room of each chunk's context free while they
cut (``reserve``: asked at the chunk's start), then give each span the context of where its
first word stands (``drafts``). Both end in ``finish``: the page label of each span put in front, and a
span that a real count finds over cut further (``cut_to_fit``).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Iterable, Mapping, Sequence

from ..model import Document
from ..readers.found_fields import ALIASES, CATALOG_FIELDS, FOUND_FIELDS
from ..outline import Outline, heading_text
from ..text import SPACE, is_blank
from .chunks import Draft, first_word
from .config import SizeConfig
from .pieces import RECURSIVE_LEVELS, split
from .size_limit import Reserve, SizeLimit

#: the fields found in a document's text (``seamcut.readers.found_fields``) its fields line writes
LINE_FOUND = ("date", "period", "year")
_WORD = re.compile(f"[^{SPACE}]")


def document_title(doc: Document) -> str:
    """The document's title: its metadata's ``title`` (a PDF's), else the text of its first
    ``title`` element (of the whole document where ``doc`` is a window of one), else its file
    name; "" for a text without a source."""
    title = doc.metadata.get("title")
    if isinstance(title, str) and title.strip():
        return " ".join(title.split())
    outline = getattr(doc, "outline", None)
    whole = outline.document if outline is not None else doc
    el = next((e for e in whole.elements if e.kind == "title"), None)
    if el is not None and heading_text(whole, el):
        return heading_text(whole, el)
    return Path(doc.source).name if doc.source else ""


def fields_line(doc: Document) -> str:
    """The document's fields as one line, ``doc_type: manual; crop: cotton (कापूस); date:
    2023-07-01; period: 2023 Q3; year: 2023`` ("" for none): its catalog's, each with its
    aliases in brackets, then those found in its text that tell when it is (``LINE_FOUND``:
    date, period, year). A found title, language or folder is left out: the title is a part of
    its own (``title``), and a language or folder name says little to the model; a field the
    catalog gives is written once, as the catalog's."""
    meta = doc.metadata
    aliases = meta.get(ALIASES) if isinstance(meta.get(ALIASES), Mapping) else {}
    catalog = list(meta.get(CATALOG_FIELDS) or ())
    found = [k for k in (meta.get(FOUND_FIELDS) or ()) if k in LINE_FOUND and k not in catalog]
    parts = []
    for k in catalog + found:
        value = " ".join(str(meta.get(k, "")).split())
        if not value:
            continue
        more = [" ".join(str(a).split()) for a in (aliases.get(k) or ()) if k in catalog]
        parts.append(f"{k}: {value}" + (f" ({', '.join(more)})" if more else ""))
    return "; ".join(parts)


def page_label(pages: Sequence[int]) -> str:
    """``Page 4`` or ``Pages 4-5`` for the pages a span touches ("" for none)."""
    if not pages:
        return ""
    return f"Page {pages[0]}" if len(pages) == 1 else f"Pages {pages[0]}-{pages[-1]}"


class Contexts:
    """The contexts of one document's chunks under one configuration and its ``SizeLimit``."""

    def __init__(self, doc: Document, cfg: SizeConfig, limit: SizeLimit, outline: Outline) -> None:
        self.doc, self.cfg, self.limit, self.outline = doc, cfg, limit, outline
        self.parts = cfg.context_parts
        self.separator: str = getattr(cfg, "path_separator", " / ")
        self.room = cfg.size // 2  # the most a context may take of the size
        self._costs: dict[str, int] = {}
        self._fits: dict[tuple[int, int, str], bool] = {}  # the packing loops ask again
        self._of: dict[tuple[str, ...], str] = {}
        self.page_room = 0  # units kept for a page label, which is known only with the span
        if "page" in self.parts and doc.page_starts:
            n = len(doc.page_starts)
            longest = max((page_label(p) for p in ((n,), (n - 1, n), (1, n))),
                          key=lambda s: self._count(s + "\n"))
            self.page_room = max(0, self._count(longest + "\n"))
            if self.page_room > self.room:  # no room beside the rest: left out
                self.page_room = 0
        self.title = document_title(doc) if "title" in self.parts else ""
        fields = fields_line(doc) if "fields" in self.parts else ""
        self.head = self._shortened(fields, self._shortened(self.title, ""))  # lines before the path

    def _count(self, context: str) -> int:
        return self.limit.unit_sizer.count(context) - self.limit.unit_measure.overhead

    def cost(self, context: str) -> int:
        """Units a context adds in front of a body (the model's overhead counted once), the
        room of a page label included."""
        got = self._costs.get(context)
        if got is None:
            got = self._costs[context] = (self._count(context) if context else 0) + self.page_room
        return got

    def label(self, a: int, b: int) -> str:
        """The page label put in front of the chunk ``[a, b)`` ("" where none is asked)."""
        if not self.page_room:
            return ""
        got = page_label(self.doc.pages_of(a, b))
        return got + "\n" if got else ""

    def fits(self, a: int, b: int, context: str) -> bool:
        """Real check of the page label, ``context`` and the body ``[a, b)`` against every limit."""
        key = (a, b, context)
        got = self._fits.get(key)
        if got is None:
            limit = self.limit
            full = self.label(a, b) + context
            if not full:  # nothing in front (a text with no title or headings): the packers' check
                got = limit.confirm(a, b)
            else:
                got = all((limit.real(a, b, full) if sizer is limit.token_sizer
                           else sizer.count(full + self.doc.text[a:b])) <= lim
                          for sizer, _, lim in limit.limits)
            self._fits[key] = got
        return got

    def overlap(self, overlap: int, cost: int) -> int:
        """The overlap beside a context of ``cost`` units: at most half the room it leaves in the
        size, so each piece moves on by at least the other half (without one, as asked)."""
        return min(overlap, max(0, self.cfg.size - cost) // 2) if cost else overlap

    def of(self, path: tuple[str, ...]) -> str:
        """The context (the page label aside) of a chunk under the heading ``path``: title and
        fields lines, then the path where asked (after the title, without it where it opens the
        path), at most half the size: where the full path is longer, the headings nearest the
        chunk are kept (a long heading is cut at a word, with "…")."""
        got = self._of.get(path)
        if got is None:
            got = self._of[path] = self._context(path)
        return got

    def _context(self, path: tuple[str, ...]) -> str:
        head, sep = self.head, self.separator
        path = path if "path" in self.parts else ()
        if path and self.title and path[0] == self.title:
            path = path[1:]
        if not path:
            return head
        full = head + sep.join(path) + "\n"
        if self.cost(full) <= self.room:
            return full
        kept: list[str] = []
        for heading in reversed(path):
            if self.cost(head + sep.join([heading, *kept]) + "\n") > self.room:
                break
            kept.insert(0, heading)
        if kept:
            return head + "… " + sep.join(kept) + "\n"
        return self._shortened(path[-1], head)

    def _shortened(self, line: str, head: str) -> str:
        """``head`` and the line ``line`` under it where they fit in half the size, else ``line``
        cut at a word with "…" (its words halved until they fit; ``head`` alone where none do)."""
        if not line:
            return head
        if self.cost(head + line + "\n") <= self.room:
            return head + line + "\n"
        words = line.split()
        while words and self.cost(head + " ".join(words) + " …\n") > self.room:
            words = words[:max(1, len(words) // 2)] if len(words) > 1 else []
        return head + (" ".join(words) + " …\n" if words else "")

    def reserve(self) -> tuple[Reserve, int]:
        """What the piece-packing strategies keep free while they cut: the room of each chunk's context
        (``reserve_at``; a number where every chunk's is the same, 0 without a context), and
        the overlap beside the longest context of the document (``overlap``)."""
        if not self.parts:
            return 0, self.cfg.overlap
        if "path" not in self.parts:
            same = self.cost(self.of(()))
            return same, self.overlap(self.cfg.overlap, same)
        paths = {self.outline.path_at(0)} | {self.outline.path_at(e.start) for e in self.doc.elements
                                             if e.kind in ("title", "heading")}
        longest = max(self.cost(self.of(p)) for p in paths)
        return self.reserve_at, self.overlap(self.cfg.overlap, longest)

    def reserve_at(self, a: int) -> int:
        """The room the context of a chunk starting at ``a`` takes: that of the heading path
        where its first word stands (the page label's room included)."""
        word = _WORD.search(self.doc.text, a)
        return self.cost(self.of(self.outline.path_at(word.start() if word else a)))

    def cut_to_fit(self, a: int, b: int, context: str) -> list[tuple[int, int]]:
        """``[a, b)`` where it fits with ``context`` for real, else cut further (recursively, at
        the biggest break; in halves where there is none) into spans that do."""
        if self.fits(a, b, context) or b - a < 2:
            return [(a, b)]
        pieces = split(self.limit, RECURSIVE_LEVELS, a, b, 0, self.doc.language, depth=1,
                       reserve=self.cost(context) + 1)
        if len(pieces) < 2:
            spans = [(a, (a + b) // 2), ((a + b) // 2, b)]
        else:
            spans = [(p.start, p.end) for p in pieces]
        return [s for x, y in spans for s in self.cut_to_fit(x, y, context)]

    def drafts(self, spans: Sequence[tuple[int, int]]) -> list[Draft]:
        """A piece-packing strategy's spans as drafts, each under the context of where its first word
        stands, finished."""
        if not self.parts:
            return [Draft(a, b) for a, b in spans]
        text = self.doc.text
        return self.finish([Draft(a, b, self.of(self.outline.path_at(first_word(text, a, b))))
                            for a, b in spans])

    def finish(self, drafts: Iterable[Draft]) -> list[Draft]:
        """Drafts as chunks are made of them: each checked for real and cut further where over
        (pieces of only whitespace left out), its page label put in front of its context."""
        if not self.parts:
            return list(drafts)
        text, out = self.doc.text, []
        for d in drafts:
            for a, b in self.cut_to_fit(d.start, d.end, d.context):
                if not is_blank(text, a, b):
                    out.append(Draft(a, b, self.label(a, b) + d.context, d.path))
        return out
