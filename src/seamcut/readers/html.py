"""HTML: the page's blocks in document order, written out by the document builder.

selectolax (the lexbor parser) walks the DOM; headings, paragraphs, list items, tables (rows of
cells, header rows from ``th``/``thead``), captions and preformatted code become elements.
Scripts, styles and templates are dropped; ``nav`` and page-level ``header``/``footer`` are kept
out of the text as furniture.
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..errors import InputError
from .builder import DocumentBuilder
from .text import decode

_SKIP = {"script", "style", "noscript", "template", "svg", "head", "iframe", "object"}
_FURNITURE = {"nav": "page_header", "header": "page_header", "footer": "page_footer"}
_HEADINGS = {f"h{i}": i for i in range(1, 7)}
_BLOCK_TEXT = {"p": "paragraph", "li": "list_item", "dt": "paragraph", "dd": "paragraph",
               "blockquote": "paragraph", "figcaption": "caption", "caption": "caption",
               "pre": "code", "address": "paragraph"}
#: the deepest nesting of elements read; deeper pages are refused before parsing (lexbor's tree
#: construction takes time growing with the square of the depth: 44 s at 100,000 levels), and the
#: walk below recurses once per level. Browsers flatten the DOM beyond 512 levels (Blink).
MAX_DEPTH = 512
#: elements that never hold others, or whose end tag may be left out (closed by the next one)
_NO_DEPTH = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
             "track", "wbr", "p", "li", "dt", "dd", "tr", "td", "th", "thead", "tbody", "tfoot",
             "option", "optgroup", "rb", "rt", "rp", "colgroup", "caption", "html", "head", "body"}
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9-]*)[^<>]*?(/?)>")  # [^<>]: one scan, never quadratic
_INLINE = {"a", "abbr", "b", "bdi", "bdo", "br", "cite", "code", "data", "dfn", "em", "font", "i",
           "img", "kbd", "label", "mark", "q", "s", "samp", "small", "span", "strong", "sub",
           "sup", "time", "u", "var", "wbr", "del", "ins"}


def _text(node: Any) -> str:
    """A node's text: inline elements run together as written, blocks and ``br`` apart."""
    parts: list[str] = []

    def collect(n: Any) -> None:
        for child in n.iter(include_text=True):
            tag = child.tag
            if tag == "-text":
                parts.append(child.text_content or "")
            elif tag in _SKIP or tag == "-comment":
                continue
            elif tag == "br":
                parts.append(" ")
            elif tag in _INLINE:
                collect(child)
            else:
                parts.append(" ")
                collect(child)
                parts.append(" ")

    collect(node)
    return " ".join("".join(parts).split())


def _table_rows(table: Any) -> tuple[list[list[str]], int]:
    rows, header_rows = [], 0
    for tr in table.css("tr"):
        if tr.parent is not None and tr.parent.tag == "table" and tr.parent is not table:
            continue
        cells = [c for c in tr.iter() if c.tag in ("td", "th")]
        if not cells:
            continue
        if all(c.tag == "th" for c in cells) or (tr.parent is not None and tr.parent.tag == "thead"):
            if header_rows == len(rows):
                header_rows += 1
        rows.append([_text(c) for c in cells])
    return rows, header_rows


def nesting_depth(html: str, stop: int = MAX_DEPTH) -> int:
    """How deep the page's elements nest, counted from its tags before parsing (elements that
    close themselves or whose end tag may be left out are not counted); stops counting once it
    passes ``stop``."""
    depth = deepest = 0
    for m in _TAG.finditer(html):
        closing, name, self_closing = m.group(1), m.group(2).lower(), m.group(3)
        if name in _NO_DEPTH or self_closing:
            continue
        if closing:
            depth = max(0, depth - 1)
        else:
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > stop:
                    break
    return deepest


def html_document(html: str, source: str) -> Any:
    """A ``Document`` from HTML text; an ``InputError`` naming ``source`` for elements nested
    deeper than ``MAX_DEPTH``."""
    from selectolax.lexbor import LexborHTMLParser

    if nesting_depth(html) > MAX_DEPTH:
        raise InputError(source, f"HTML elements nested more than {MAX_DEPTH} deep (seamcut reads "
                                 f"at most {MAX_DEPTH} levels)")
    tree = LexborHTMLParser(html)
    b = DocumentBuilder(source)
    title = tree.css_first("title")
    if title is not None and _text(title):
        b.add("title", _text(title))

    def walk(node: Any) -> None:
        run: list[str] = []  # inline text between blocks: one paragraph

        def flush() -> None:
            if run:
                b.add("paragraph", " ".join("".join(run).split()))
                run.clear()

        for child in node.iter(include_text=True):
            tag = child.tag
            if tag == "-text":
                run.append(child.text_content or "")
                continue
            if tag in _SKIP or tag == "-comment":
                continue
            if tag in _INLINE:
                run.append(" " if tag == "br" else _text(child))
                continue
            flush()
            if tag in _FURNITURE and node.tag in ("body", "html"):
                if _text(child):
                    b.add_furniture(_FURNITURE[tag], _text(child), page=1)
            elif tag in _HEADINGS:
                text = _text(child)
                b.add("heading", text, level=_HEADINGS[tag], metadata={"text": text})
            elif tag == "table":
                rows, header_rows = _table_rows(child)
                b.add_table(rows, header_rows=header_rows)
            elif tag in _BLOCK_TEXT and (tag != "li" or child.css_first("ul, ol, p, table, div") is None):
                b.add(_BLOCK_TEXT[tag], _text(child))
            else:
                walk(child)  # a container: its blocks and inline runs
        flush()

    body = tree.body or tree.root
    if body is not None:
        try:
            walk(body)
        except RecursionError:  # a tree deeper than its tags said (elements the parser added)
            raise InputError(source, f"HTML elements nested too deep to read (over {MAX_DEPTH} "
                                     "levels once parsed)") from None
    return b.build(format="html")


def read_html(path: str | Path, encoding: str | None = None) -> Any:
    """Read an HTML file (UTF-8 unless ``encoding`` or a BOM says otherwise)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise InputError(p, exc.strerror or str(exc)) from None
    doc = html_document(decode(data, p, encoding), str(p))
    if not doc.text.strip():
        raise InputError(p, "an HTML page with no text")
    return doc
