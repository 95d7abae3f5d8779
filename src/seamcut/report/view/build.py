"""``seamcut view``'s files: an index page, one page per document with its cuts drawn in place
(and for PDFs its page images with element and chunk boxes), one CSS and one JS file shared by
all. Everything opens from disk: a document's data is a ``<script src>`` file that sets a global
(Chromium does not let a file:// page fetch JSON).

    DIR/index.html               the documents, their chunk counts per strategy, the strategies
    DIR/view.css, DIR/view.js    the page's style and code (copied from this package)
    DIR/docs/<doc_id>.html       one document; ``#s=<strategy slug>&c=<chunk id>`` selects a chunk
    DIR/docs/<doc_id>.js         its data (``data.document_data``) as ``window.SEAMCUT_DOC``
    DIR/docs/<doc_id>--<slug>.html, .js   a contestant's chunks of it, over their own laid-out
                                 text (``contestants``): never drawn over seamcut's reading
    DIR/pages/<doc_id>/<n>.png   PDF page images (``pages.render_pages``)
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from ...errors import ConfigError
from ...renamed import gathered
from ...diagnose import strategy_overlaps
from ...model import Chunk, Document
from ...strategies import REGISTRY
from ...strategies.spec import StrategySpec, parse_spec
from ..html import esc
from .contestants import (contestant_item, contestant_record, is_contestant, laid_out_document, laid_out_note,
                          page_href, page_name)
from .data import Chunking, document_data
from .questions import copy_static, write_questions

#: the files copied into DIR/ beside index.html
STATIC_FILES = ("view.css", "view.js")


def asks_overlap(spec: Any) -> bool:
    """Whether ``spec``'s options ask for overlap between neighbours (never a contestant's: its
    laid-out chunks share no text, whatever its options)."""
    if is_contestant(spec):
        return False
    fields = REGISTRY[spec.name][1].__dataclass_fields__
    return strategy_overlaps(spec.name, {k: v for k, v in spec.options.items()
                                         if k in fields and k not in ("tokenizer", "embedder")})


def strategies_of(labels: Sequence[str], options: Mapping[str, Any] | None = None) -> list[Any]:
    """Specs (``NAME`` or ``NAME:OPTION=VALUE...``) with ``options`` (``--size`` and the like,
    what ``seamcut.chunk`` takes) under each spec's own; a contestant (``LIBRARY:CHUNKER...``,
    ``chunks:PATH``) as ``parse_contestant`` gives it (its options are its library's own).
    Raises ConfigError for a bad spec."""
    from ...peers import is_peer, parse_contestant
    out: list[Any] = []
    for label in labels:
        if is_peer(label):
            out.append(parse_contestant(label))
            continue
        spec = parse_spec(label)
        out.append(StrategySpec(spec.label, spec.name, {**(options or {}), **spec.options}))
    return out


def strategies_of_run(run: Mapping[str, Any]) -> list[Any]:
    """The strategies of a ``seamcut compare --json`` run, each with the options it ran with;
    its contestants (those with a ``contestant`` record, or a name ``is_peer`` knows) as
    ``parse_contestant`` gives them."""
    from ...peers import is_peer, parse_contestant
    try:
        # a row filtered another way is its strategy's chunking searched otherwise: cut once
        listed = [s for s in run["strategies"] if s.get("filters", "none") == "none"]
        return [parse_contestant(s["name"]) if s.get("contestant") or is_peer(s["name"]) else
                StrategySpec(s["name"], parse_spec(s["name"]).name, dict(s.get("options") or {}))
                for s in listed]
    except (KeyError, TypeError, AttributeError) as exc:
        raise ConfigError(f"not a seamcut compare --json file: no strategies with names ({exc})") from None


def run_sources(run: Mapping[str, Any]) -> set[str]:
    """The documents a ``compare --json`` run returned results from, by the names it read them by."""
    return {r["source"] for s in run.get("strategies") or []
            for q in [*s.get("per_question", []), *s.get("no_answer", [])]
            for r in q.get("results", []) if isinstance(r.get("source"), str)}


def named_as_in_run(paths: Sequence[str | Path], run: Mapping[str, Any]) -> dict[str, str]:
    """The files of ``paths`` (folders expanded) that the ``run`` (a ``compare --json``) named
    otherwise, each with the run's name: a document's and its chunks' ids are made from the name
    it was read by, so the view gives each document the run's name to find the run's chunks
    (``pipeline.corpus.moved``). The run's name is the same file's (``/srv/examples/a.pdf`` for
    ``examples/a.pdf``), else the one run source whose path ends as the file's, where that path
    is a file here too (the view draws its pages from it). A file the run read from a copy
    that is not here keeps its own name, and the view says its chunks are not found."""
    from ...index.filters import sources_named
    from ...readers import expand
    sources = {source: os.path.abspath(source) for source in sorted(run_sources(run))}
    same = {path: source for source, path in sources.items()}
    out = {}
    for f in map(str, expand(list(paths))):
        ends = sources_named(f, sources)
        name = same.get(os.path.abspath(f)) or (ends[0] if len(ends) == 1 and os.path.isfile(ends[0]) else f)
        if name != f:
            out[f] = name
    return out


def cut_all(documents: Sequence[Document], strategies: Sequence[Any],
            notes: list[str] | None = None, embedder: Any = None) -> dict[str, list[Chunk]]:
    """Every document cut with every strategy: chunks keyed by strategy label, in document order
    (the same chunks and ids an index built with these options holds). A contestant's chunks are
    ``cut_as_judged``'s: spans of their own laid-out text, not of the document given
    (``contestants.laid_out_document`` rebuilds it). ``notes``: where the model's reports of
    chunks held below a size in words or characters go, one per strategy and document, and a
    contestant's warnings (None: they are warned as usual). ``embedder``: the sentence vectors
    of semantic (the index's own model, cached; None: the default model)."""
    from ...api import chunk
    from ...evaluate.indexes import needs_embedder
    from ...peers.spec import cut_as_judged
    from ...strategies.held import held_reports
    out: dict[str, list[Chunk]] = {}
    for s in strategies:
        if is_contestant(s):
            got = []
            for doc in documents:
                laid, chunks = cut_as_judged(s, doc)
                got += chunks
                if notes is not None:
                    known = set(doc.metadata.get("warnings", ()))
                    notes.extend(w for w in laid.metadata.get("warnings", ()) if w not in known)
            out[s.label] = got
            continue
        spec = s.with_options({"embedder": embedder}) if needs_embedder(s) and embedder is not None else s
        got: list[Chunk] = []
        for doc in documents:
            if notes is None:
                got += chunk(doc, spec)
                continue
            with held_reports() as held:
                got += chunk(doc, spec)
            notes.extend(f"{s.label}: {n}" for n in held)
        out[s.label] = got
    return out


@dataclass(frozen=True)
class ViewOptions:
    """How ``build_view`` writes a view: ``search``: link ``search.html`` (``--serve``);
    ``model``: the tokenizer sizes are checked with (None: the default model); ``page_images``:
    render PDF pages (False: the pages drawn without images); ``password``: the PDFs' password
    (None: none)."""

    search: bool = False
    model: Any = None
    page_images: bool = True
    password: str | None = None


def build_view(out: str | Path, documents: Sequence[Document], strategies: Sequence[Any],
               chunkings: Mapping[str, Sequence[Chunk]] | None = None, *,
               compare: Mapping[str, Any] | None = None, options: ViewOptions | None = None,
               **keywords: Any) -> Path:
    """Write the view of ``documents`` cut by ``strategies`` into ``out``; returns
    ``out/index.html``. ``chunkings``: the chunks by strategy label (None: ``cut_all``);
    ``compare``: a ``seamcut compare --json`` run, written as ``questions.html`` by the
    ``questions`` part's ``write_questions``; ``options``: a ``ViewOptions``, whose fields may
    be given as keywords too (``search=True``). A contestant's chunks of a document are drawn on
    a page of their own over their laid-out text (``contestants``), never on the document's."""
    how = gathered("build_view", options or ViewOptions(), keywords)
    search, model, page_images, password = how.search, how.model, how.page_images, how.password
    root = Path(out)
    (root / "docs").mkdir(parents=True, exist_ok=True)
    copy_static(root, *STATIC_FILES)
    if chunkings is None:
        chunkings = cut_all(documents, strategies)
    by_doc: dict[str, dict[str, list[Chunk]]] = {}
    for label, chunks in chunkings.items():
        for c in chunks:
            by_doc.setdefault(c.doc_id, {}).setdefault(label, []).append(c)
    sizes = {d.id: page_sizes(d, password) for d in documents} if page_images else {}
    if page_images:
        render_document_pages(root, documents, sizes, password=password)
    counts: dict[str, dict[str, int]] = {}
    ours = [s for s in strategies if not is_contestant(s)]
    for doc in documents:
        mine = by_doc.get(doc.id, {})
        views = [Chunking(s.label, mine.get(s.label, []), asks_overlap(s), model) for s in ours]
        counts[doc.id] = {s.label: len(mine.get(s.label, [])) for s in strategies}
        write_document(root, doc, views, sizes.get(doc.id))
        for s in strategies:
            if is_contestant(s):
                theirs = mine.get(s.label, [])
                laid = laid_out_document(doc, theirs, s.label)
                write_document(root, laid, [Chunking(s.label, theirs, False, model)], name=page_name(doc.id, s.label))
    if compare is not None:
        write_questions(root, dict(compare), documents, chunkings)
    index = root / "index.html"
    peers = {s.label: contestant_record(s, compare) for s in strategies if is_contestant(s)}
    index.write_text(index_page(documents, strategies, counts, questions=compare is not None,
                                search=search, contestants=peers), encoding="utf-8")
    return index


def page_sizes(doc: Document, password: str | None = None) -> list[list[float]]:
    """A PDF's page sizes in points, ``[[width, height], ...]``: the reader's (``page_sizes``)
    where it recorded them, else PDFium's; empty for other formats or a PDF no longer there."""
    if doc.metadata.get("page_sizes"):
        return [list(map(float, s)) for s in doc.metadata["page_sizes"]]
    if doc.metadata.get("format") != "pdf" or not Path(doc.source).is_file():
        return []
    import pypdfium2 as pdfium
    pdf = pdfium.PdfDocument(doc.source, password=password)
    try:
        return [[round(w, 1), round(h, 1)] for w, h in (pdf.get_page_size(i) for i in range(len(pdf)))]
    finally:
        pdf.close()


def render_document_pages(root: Path, documents: Sequence[Document],
                          sizes: Mapping[str, Sequence[Any]], password: str | None = None) -> int:
    """Render the pages of every PDF among ``documents`` (those with ``sizes``) into
    ``root/pages/<doc_id>/``; returns the pages written."""
    from .pages import render_pages
    jobs = [(d.source, root / "pages" / d.id, len(sizes[d.id])) for d in documents if sizes.get(d.id)]
    return render_pages(jobs, password=password)


def write_document(root: Path, doc: Document, views: Sequence[Chunking],
                   sizes: Sequence[Sequence[float]] | None = None, name: str | None = None) -> Path:
    """``root/docs/<name>.html`` and its data file ``<name>.js`` (``name``: the document's id
    where not given; ``sizes``: the PDF's page sizes in points, where the document does not
    carry them). A laid-out document (a contestant's chunks) gets no pages."""
    name = name or doc.id
    laid = doc.metadata.get("laid_out") == "chunks"
    data = document_data(doc, views, pages_url="" if laid else f"../pages/{doc.id}/",
                         page_sizes=None if laid else sizes)
    js = root / "docs" / f"{name}.js"
    js.write_text("window.SEAMCUT_DOC = " + json.dumps(data, ensure_ascii=False, separators=(",", ":"))
                  + ";\n", encoding="utf-8")
    page = root / "docs" / f"{name}.html"
    page.write_text(document_page(doc, data, name), encoding="utf-8")
    return page


def document_page(doc: Document, data: Mapping[str, Any], name: str | None = None) -> str:
    """The light HTML shell of one document's page (the script draws the rest); ``name``: its
    data file's name without ``.js`` (the document's id where not given)."""
    title = data["title"]
    laid = data.get("laid_out")
    note = (f'<p class="laid-out note">{esc(laid_out_note(str(data.get("contestant"))))} '
            f'<a href="{esc(doc.id)}.html">seamcut\'s reading of this file</a></p>\n' if laid else "")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(title)} · seamcut view</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="../view.css"></head>
<body class="document">
<header>
 <a class="back" href="../index.html">← documents</a>
 <h1 title="{esc(doc.source)}">{esc(title)}</h1>
 <label>strategy <select id="strategy"></select></label>
 <label class="toggle"><input type="checkbox" id="show-elements"> element boxes</label>
 <span id="summary"></span>
</header>
{note}<div id="info" class="info">Click a chunk in the text or a box on a page.</div>
<main>
 <section id="text" class="pane" aria-label="text with the cuts"></section>
 <section id="pages" class="pane" aria-label="pages"></section>
 <aside id="findings" class="pane" aria-label="findings"></aside>
</main>
<script src="{esc(name or doc.id)}.js"></script>
<script src="../view.js"></script>
</body></html>
"""


def index_page(documents: Sequence[Document], strategies: Sequence[Any],
               counts: Mapping[str, Mapping[str, int]], questions: bool = False,
               search: bool = False, contestants: Mapping[str, Mapping[str, Any]] | None = None) -> str:
    """``DIR/index.html``: each document with its chunk count per strategy (a link into the
    document with that strategy chosen; a contestant's: into its own page of the document), the
    strategies with their options, and the contestants (``contestants``: by label, what
    ``contestants.contestant_record`` says of each) with library, versions, reader and options."""
    contestants = contestants or {}
    head = "".join(f'<th class="contestant">{esc(s.label)}</th>' if is_contestant(s) else f"<th>{esc(s.label)}</th>"
                   for s in strategies)
    rows = []
    for d in documents:
        pages = len(d.metadata.get("page_sizes") or ()) or len(d.page_starts)
        cells = "".join((f'<td class="contestant"><a href="{esc(page_href(d.id, s.label))}">' if is_contestant(s) else
                         f'<td><a href="docs/{esc(d.id)}.html#s={esc(s.slug)}">')
                        + f"{counts.get(d.id, {}).get(s.label, 0)}</a></td>" for s in strategies)
        rows.append(f'<tr><td class="l"><a href="docs/{esc(d.id)}.html">{esc(d.source or d.id)}</a></td>'
                    f"<td>{pages or '–'}</td><td>{len(d.text):,}</td>{cells}</tr>")
    links = []
    if questions:
        links.append('<a href="questions.html">what each question got back</a>')
    if search:
        links.append('<a href="search.html">search</a>')
    ours = [s for s in strategies if not is_contestant(s)]
    specs = "".join(f"<li><b>{esc(s.label)}</b>: {esc(s.name)} "
                    f"{esc(json.dumps(_plain(s.options), ensure_ascii=False)) if s.options else '(defaults)'}"
                    f"{' · overlap between neighbours' if asks_overlap(s) else ' · no overlap'}</li>"
                    for s in ours)
    peers = "".join(contestant_item(s.label, contestants.get(s.label) or contestant_record(s))
                    for s in strategies if is_contestant(s))
    if peers:
        specs += ("</ul><h2>Contestants</h2><p class=\"note\">Other libraries' pipelines and chunks made "
                  "elsewhere, as the run judged them: each document's chunks are drawn on a page of their "
                  f"own, over their text laid end to end (not seamcut's reading).</p><ul>{peers}")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>seamcut view</title>
<link rel="stylesheet" href="view.css"></head>
<body class="index">
<h1>seamcut view</h1>
<p>{len(documents)} document(s), {len(ours)} strateg{'y' if len(ours) == 1 else 'ies'}{f", {len(strategies) - len(ours)} contestant(s)" if len(ours) < len(strategies) else ""}.
{' · '.join(links)}</p>
<table class="docs"><tr><th class="l">document</th><th>pages</th><th>characters</th>{head}</tr>
{''.join(rows)}</table>
<p class="note">Numbers are chunks per strategy (parents included); click one to see that strategy's cuts.</p>
<h2>Strategies</h2><ul>{specs}</ul>
</body></html>
"""


def _plain(options: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v if isinstance(v, (str, int, float, bool)) or v is None else str(v)
            for k, v in options.items()}


__all__ = ["asks_overlap", "STATIC_FILES", "build_view", "cut_all", "named_as_in_run", "run_sources", "strategies_of",
           "strategies_of_run",
           "write_document", "document_page", "index_page", "page_sizes", "render_document_pages"]
