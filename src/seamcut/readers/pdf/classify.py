"""What each text block is: title, heading with its level, paragraph, list item, caption or code,
from its structure tag (tagged PDFs), its size, weight and slant against the ``HeadingScale``,
its numbering, and what follows it (a layout heading needs body text after it)."""
from __future__ import annotations

import re

from ...text.calendar import MONTHS
from .blocks import Block, same_line
from .headings import HeadingScale, char_sizes
from .layout import is_bold_font
from .markers import list_marker
from .page import Key, Page
from .tags import TAG_KIND
from .words import words_text

#: (element kind, heading level or None)
Kind = tuple[str, int | None]

_CAPTION = re.compile(r"^(?:Figure|Fig\.|Table|Tab\.|Chart|Listing|Exhibit)\s*[\dIVX]+[-.:\d]*\s", re.I)
NUMBERED = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,4})\.?\s+\S")
_SECTION_NUMBER = re.compile(r"\d{1,2}(?:\.\d{1,2}){0,3}\.?")


def classify_all(pages: list[Page], furn: set[Key], scale: HeadingScale) -> dict[Key, Kind]:
    """``classify`` for every text block that is not furniture, then the layout headings that
    are a heading's subtitle, or that no body text follows, are demoted to paragraphs: cover
    pages, back covers and diagram labels (short bold lines followed by more display text or by
    nothing) are not headings. Tagged headings and the title stay."""
    out: dict[Key, Kind] = {}
    seq: list[Key] = []
    for pi, pg in enumerate(pages):
        for bi, b in enumerate(pg.blocks):
            if (pi, bi) in furn:
                continue
            seq.append((pi, bi))
            if b.kind == "table":
                out[(pi, bi)] = ("table", None)
            elif run_in_heading(b):
                out[(pi, bi)] = ("paragraph", None)  # heading + body text
            else:
                out[(pi, bi)] = classify(b, scale, (pi, bi) == scale.title)
    seq = _drop_subtitles(pages, out, seq)  # a heading's subtitle does not part it from its body
    page_body = _page_body_sizes(pages, scale.body)
    dropped = _drop_headings_without_body(pages, out, seq, scale.body, page_body)
    _drop_display_runs(pages, out, seq, dropped)
    return out


def _drop_subtitles(pages: list[Page], out: dict[Key, Kind], seq: list[Key]) -> list[Key]:
    """Layout headings that are the subtitle of a heading become paragraphs; returns ``seq``
    without them."""
    subtitles = set()
    for key in seq:
        b = pages[key[0]].blocks[key[1]]
        if out[key][0] == "heading" and not b.tag and any(
                out.get((key[0], hi), ("",))[0] in ("heading", "title") and _subtitle(h, b)
                for hi, h in enumerate(pages[key[0]].blocks)):
            out[key] = ("paragraph", None)
            subtitles.add(key)
    return [k for k in seq if k not in subtitles]


def _page_body_sizes(pages: list[Page], body: float) -> list[float]:
    """The body size of each page (pt): the document's, except on a page with no text at that
    size and a good deal at its own (a flyer may set all its body text smaller)."""
    out = []
    for pg in pages:
        c = char_sizes(pg.blocks)
        size, n = c.most_common(1)[0] if c else (body, 0)
        out.append(size if n >= 300 and not any(abs(k - body) <= 0.25 for k in c) else body)
    return out


def _body_like(b: Block, kind: str, body: float, page_body: float) -> bool:
    """Whether a block of this kind is body text: a table, or a paragraph or list item of 25
    characters or more at a body size (pt; a little larger where it runs three lines)."""
    if kind == "table":
        return True
    if kind not in ("paragraph", "list_item"):
        return False
    text = " ".join(b.lines)
    if len(text) < 25 or (b.bold > 0.9 and len(b.segments) == 1):
        return False  # a bold line on its own is a label, not body text
    for size in {body, page_body}:
        if abs(b.size - size) <= 0.6 or (size - 0.6 <= b.size <= size + 1.5 and len(b.segments) >= 3):
            return True
    return False


def _drop_headings_without_body(pages: list[Page], out: dict[Key, Kind], seq: list[Key],
                                body: float, page_body: list[float]) -> set[Key]:
    """Layout headings that no body text follows become paragraphs; returns them. A heading
    passes where, among the next two blocks in reading order (the second on the same page; not
    past another heading), there is body text or a lower heading of the same page that itself
    passes (a stack of headings); up to ``LABELS`` blocks on, on its page, where those between
    are labels (a statement's "(In millions)" and "Nine Months Ended" above its table). Only
    small text (figure labels) may sit between a heading and its body."""
    passes = [False] * len(seq)
    dropped: set[Key] = set()
    for i in range(len(seq) - 1, -1, -1):
        key = seq[i]
        kind, level = out[key]
        if kind != "heading" or pages[key[0]].blocks[key[1]].tag:
            continue
        ok = False
        for j in range(i + 1, min(i + 2 + LABELS, len(seq))):
            if j > i + 2 and not all(_label(pages[k[0]].blocks[k[1]], out[k][0], body) for k in seq[i + 1:j]):
                break
            nk = seq[j]
            if j > i + 1 and nk[0] != key[0]:
                break
            nb = pages[nk[0]].blocks[nk[1]]
            if _body_like(nb, out[nk][0], body, page_body[nk[0]]) or (
                    out[nk][0] == "heading" and passes[j] and nk[0] == key[0]
                    and (out[nk][1] or 0) > (level or 0)):
                ok = True
                break
            if out[nk][0] == "heading":
                break  # another heading that does not carry this one: display text
            if nb.size > max(body, page_body[nk[0]]) + 0.6:
                break
        passes[i] = ok
        if not ok:
            out[key] = ("paragraph", None)
            dropped.add(key)
    return dropped


#: the most labels (short lines) that may stand between a heading and its body
LABELS = 4


def _label(b: Block, kind: str, body: float) -> bool:
    """A short line of body size or smaller that is no heading: under 25 characters."""
    return kind == "paragraph" and len(" ".join(b.lines)) < 25 and b.size <= body + 0.6


def _drop_display_runs(pages: list[Page], out: dict[Key, Kind], seq: list[Key],
                       dropped: set[Key]) -> None:
    """A run of like-styled display lines (cover taglines) is not headings, the last one neither:
    a layout heading right after a demoted one of the same page and style is demoted too."""
    for i in range(1, len(seq)):
        key, prev = seq[i], seq[i - 1]
        blocks = pages[key[0]].blocks
        if (out[key][0] == "heading" and not blocks[key[1]].tag and prev[0] == key[0]
                and prev in dropped and _same_style(blocks[prev[1]], blocks[key[1]])):
            out[key] = ("paragraph", None)


def _same_style(a: Block, b: Block) -> bool:
    """Same size (within 0.25 pt), weight and slant."""
    return (abs(a.size - b.size) <= 0.25 and (a.bold > 0.9) == (b.bold > 0.9)
            and (a.italic > 0.9) == (b.italic > 0.9))


def _subtitle(head: Block, b: Block) -> bool:
    """Whether ``b`` is the subtitle of the heading ``head`` right above it: one unnumbered
    italic line, not bold, smaller than the heading, under it within a line's height (pt), in
    the heading's column."""
    text = " ".join(b.lines)
    return (len(b.segments) == 1 and b.italic > 0.9 and b.bold < 0.5 and head.italic < 0.5
            and b.size < head.size - 0.5 and 0 <= b.top - head.bottom < b.size
            and min(head.x1, b.x1) - max(head.x0, b.x0) > 0 and not NUMBERED.match(text))


def run_in_heading(b: Block) -> tuple[str, list[str], int] | None:
    """A numbered bold heading that runs into its paragraph ("5.1 Results We found ..."):
    (heading, remaining lines, how many words of the first line the heading is) or None."""
    if b.tag or b.bold > 0.9 or not b.segments:
        return None
    words = b.segments[0].words
    k = 0
    while k < len(words) and is_bold_font(words[k].fontname):
        k += 1
    if k == 0 or k >= len(words) and len(b.segments) == 1 or k > 14:
        return None
    head = words_text(words[:k])
    if not NUMBERED.match(head) or sum(ch.isalpha() for ch in head) < 3:
        return None
    rest = [words_text(words[k:])] + [s.text for s in b.segments[1:]]
    return head, rest, k


def numbered_level(number: str, bold_level: int) -> int:
    """The level of a bold heading numbered ``number`` ("2.3": one below a bold "2")."""
    return min(6, number.rstrip(".").count(".") + bold_level)


def classify(b: Block, scale: HeadingScale, is_title: bool) -> Kind:
    """What one text block is, on its own (see the module docstring)."""
    text = " ".join(b.lines).strip()
    if b.tag and b.tag in TAG_KIND:
        return _tagged(b.tag, text)
    if is_title:
        return "title", None
    heading = _layout_heading(b, text, scale)
    if heading is not None:
        return heading
    if _CAPTION.match(text):
        return "caption", None
    numbered = NUMBERED.match(text)
    if list_marker(text) and not (numbered and "." in numbered.group(1) and b.bold > 0.5):
        return "list_item", None
    return "paragraph", None


def _tagged(tag: str, text: str) -> Kind:
    kind, level = TAG_KIND[tag]
    if kind in ("list_item", "heading", "title", "caption", "code"):
        return kind, level
    # "P": trust the tag unless the layout says list item
    if list_marker(text):
        return "list_item", None
    return "paragraph", None


#: a statement's units line, "(In Millions; Unaudited)", "($ in thousands)": a table's caption, no heading
_UNITS = re.compile(r"\(\s*(?:\$\s*|dollars\s+|amounts\s+)?in\b", re.IGNORECASE)
#: a figure at the end of a line, "4,827", "(985)", "12.5 %": a table's cells read as a block, no heading
_FIGURE_END = re.compile(r"(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\(\s*\d[\d,.]*\s*\)|\d+\.\d+\s*%)\)?$")
_MONTH = "|".join(sorted((m for m in MONTHS if m.isascii()), key=len, reverse=True))
_DATE = rf"(?:(?:{_MONTH})\.?\s+\d{{1,2}},?\s+\d{{4}}|\d{{1,2}}\s+(?:{_MONTH})\.?,?\s+\d{{4}})"
#: a table's column label set in bold over its figures: a date alone ("October 30, 2022"), or a
#: period ended ("Nine Months Ended", "Three Months Ended Sep 30, 2023", "Year Ended June 30")
_COLUMN_LABEL = re.compile(rf"(?:(?:(?:three|six|nine|twelve)\s+months|(?:fiscal\s+)?years?|quarters?)\s+ended"
                           rf"(?:\s+(?:{_DATE}|(?:{_MONTH})\.?\s+\d{{1,2}}))?|{_DATE})", re.IGNORECASE)


def _layout_heading(b: Block, text: str, scale: HeadingScale) -> Kind | None:
    """A short block set larger than the body, bold, or in italic capitalised words, as a
    heading with its level; None where it is not one, nor where it is a statement's units line,
    ends in a figure or is a column label (the bold cells of a statement's table, read as blocks
    of their own: "(In Millions; Unaudited) Cash and cash equivalents, beginning of period",
    "Oct 1, 2022 4,827" in Intel's 10-Q, "Nine Months Ended" and "October 30, 2022" in Nvidia's)."""
    n_lines = len(b.segments)
    short = n_lines <= 3 and len(text) <= 200
    numbered = NUMBERED.match(text)
    letters = sum(ch.isalpha() for ch in text)
    if not (short and letters >= 2 and not text.endswith((".", ",", ";")) or (short and numbered and letters >= 2)):
        return None
    if _UNITS.match(text) or _FIGURE_END.search(text) or _COLUMN_LABEL.fullmatch(text):
        return None
    body, levels, bold_level = scale.body, scale.levels, scale.bold_level
    if b.size >= body + 1.0 and b.size in levels:
        lvl = levels[b.size]
        if numbered:
            lvl = max(lvl, numbered.group(1).count(".") + 1) if len(levels) <= 1 else lvl
        return "heading", lvl
    if b.bold > 0.9 and b.size >= body - 0.6 and len(text.split()) <= 14:
        if numbered:
            return "heading", numbered_level(numbered.group(1), bold_level)
        return "heading", bold_level
    words = text.split()
    if (b.italic > 0.9 and n_lines == 1 and abs(b.size - body) <= 0.6 and len(words) <= 8
            and sum(w[:1].isupper() for w in words) >= 0.6 * len(words) and not _CAPTION.match(text)):
        return "heading", bold_level + 1
    return None


def number_labels(pages: list[Page], furn: set[Key], cls: dict[Key, Kind]) -> dict[Key, Key]:
    """Section numbers set apart from their heading (in a box to its left, or a large chapter
    number above it): heading key -> number key. The number is a block of its own holding just
    the number, followed in reading order by the heading with only smaller text in between (a
    "Chapter 1." label), on the heading's line to its left or above it at its size or larger."""
    out: dict[Key, Key] = {}
    for pi, pg in enumerate(pages):
        keys = [(pi, bi) for bi in range(len(pg.blocks)) if (pi, bi) not in furn]
        for k, key in enumerate(keys):
            num = pg.blocks[key[1]]
            if (num.kind == "table" or len(num.segments) != 1 or cls.get(key, ("",))[0] != "paragraph"
                    or not _SECTION_NUMBER.fullmatch(num.lines[0].strip())):
                continue
            for nk in keys[k + 1:k + 4]:
                b = pg.blocks[nk[1]]
                if cls.get(nk, ("",))[0] in ("heading", "title"):
                    beside = same_line(num, b) and num.x1 <= b.x0
                    above = num.bottom <= b.top and num.size >= b.size - 0.25
                    if (beside or above) and nk not in out:
                        out[nk] = key
                    break
                if b.kind == "table" or b.size >= num.size:
                    break
    return out
