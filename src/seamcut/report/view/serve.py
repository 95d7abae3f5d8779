"""``seamcut view --serve``: the view's folder served on 127.0.0.1, with a search playground.

``GET /api/search?q=&mode=&where=&strategy=&k=`` searches one strategy's index as
``seamcut search`` does (``mode``: vector, text or hybrid, default hybrid; ``where``: an SQL
filter on the chunk columns, as ``--where`` takes it; ``strategy``: a label of ``indexes``,
default the first; ``k``: 1 to ``MOST_K`` results, default 10) and answers
``{"results": [{"rank", "score", "similarity", "doc_id", "chunk_id", "start", "end", "source",
"pages", "heading", "text", "tokens", "href"}]}``, offsets in code points of the document's text,
``tokens`` in the embedding model's tokens, ``href`` the chunk drawn in place. A bad query (no
``q``, an unknown mode or strategy, a bad ``k`` or ``where``) answers 400 with
``{"error": reason}``. ``DIR/search.html`` (written here) calls it. Every other path is a file
of the folder.
"""
from __future__ import annotations

import json
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Mapping
from urllib.parse import parse_qs, urlsplit

from ...errors import ConfigError
from ...index import MODES, Index, WhereError
from ...peers import is_peer
from ...strategies.spec import slug
from ..html import esc
from .questions import chunk_href, copy_static

MOST_K = 100
DEFAULT_K = 10


class QueryError(ConfigError):
    """A search request that cannot be answered; the message names the parameter and why."""


def search_json(indexes: Mapping[str, Index], params: Mapping[str, str],
                lock: threading.Lock | None = None) -> dict[str, Any]:
    """The answer to one ``/api/search`` request (``params``: its query parameters). Raises
    ``QueryError`` naming what is wrong with it."""
    q = params.get("q", "").strip()
    if not q:
        raise QueryError("q: no query given")
    mode = params.get("mode") or "hybrid"
    if mode not in MODES:
        raise QueryError(f"mode: {mode!r} is not one of {', '.join(MODES)}")
    label = params.get("strategy") or next(iter(indexes), "")
    if label not in indexes:
        raise QueryError(f"strategy: {label!r} is not one of {', '.join(indexes) or '(no index)'}")
    try:
        k = int(params.get("k") or DEFAULT_K)
    except ValueError:
        raise QueryError(f"k: {params['k']!r} is not a whole number") from None
    if not 1 <= k <= MOST_K:
        raise QueryError(f"k: {k} is not between 1 and {MOST_K}")
    where = params.get("where", "").strip() or None
    with lock or threading.Lock():
        try:
            hits = indexes[label].search(q, k, mode=mode, where=where)  # type: ignore[arg-type]
        except WhereError as exc:  # SQL the index's tables refuse, as in `seamcut search`
            raise QueryError(str(exc)) from None
    return {"strategy": label, "mode": mode, "k": k, "where": where, "results": [
        {"rank": h.rank, "score": h.score, "similarity": h.similarity, "doc_id": h.chunk.doc_id,
         "chunk_id": h.chunk.id, "start": h.chunk.start, "end": h.chunk.end, "source": h.chunk.source,
         "pages": list(h.chunk.pages), "heading": " / ".join(h.chunk.heading_path), "text": h.chunk.text,
         "tokens": h.chunk.tokens, "href": chunk_href(h.chunk.doc_id, label, h.chunk.id, contestant=is_peer(label))} for h in hits]}


class _Handler(SimpleHTTPRequestHandler):
    """The folder's files, and ``/api/search``."""

    def __init__(self, *args: Any, indexes: Mapping[str, Index], lock: threading.Lock, **kw: Any) -> None:
        self.indexes, self.lock = indexes, lock
        super().__init__(*args, **kw)

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        url = urlsplit(self.path)
        if url.path != "/api/search":
            super().do_GET()
            return
        params = {k: v[-1] for k, v in parse_qs(url.query, keep_blank_values=True).items()}
        try:
            status, body = 200, search_json(self.indexes, params, self.lock)
        except QueryError as exc:
            status, body = 400, {"error": str(exc)}
        except Exception as exc:  # the server goes on; the page shows the reason
            status, body = 500, {"error": f"{type(exc).__name__}: {exc}"}
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass  # one line per request would bury the command's own output


def write_search_page(out: Path, labels: list[str]) -> Path:
    """``out/search.html`` (with ``static/search.js``) for the strategies ``labels``."""
    out.mkdir(parents=True, exist_ok=True)
    copy_static(out / "static", "search.js", "questions.css")
    options = "".join(f"<option value='{esc(label)}'>{esc(label)}</option>" for label in labels)
    modes = "".join(f"<option{' selected' if m == 'hybrid' else ''}>{m}</option>" for m in MODES)
    page = out / "search.html"
    page.write_text(
        "<!doctype html><html><head><meta charset='utf-8'><title>seamcut view: search</title>"
        "<link rel='stylesheet' href='static/questions.css'></head><body>"
        "<nav><a href='index.html'>documents</a></nav><h1>Search</h1>"
        "<form id='search' class='search'><input id='q' name='q' size='50' placeholder='a question' autofocus> "
        f"<select id='mode' name='mode'>{modes}</select> "
        f"<select id='strategy' name='strategy'>{options}</select> "
        "<input id='where' name='where' size='30' placeholder=\"where, e.g. language = 'en'\"> "
        f"k <input id='k' name='k' type='number' min='1' max='{MOST_K}' value='{DEFAULT_K}' style='width:4em'> "
        "<button type='submit'>search</button></form>"
        "<div id='error' class='miss'></div><ol id='results' class='found'></ol>"
        "<script>window.SEAMCUT_SLUGS = " + json.dumps({label: slug(label) for label in labels}) + ";</script>"
        "<script src='static/search.js'></script></body></html>", encoding="utf-8")
    return page


def make_server(out: Path, indexes: Mapping[str, Index], port: int) -> ThreadingHTTPServer:
    """A server for ``out`` and ``/api/search`` on 127.0.0.1:``port`` (0: a free port; the
    server's ``server_address`` says which), ``search.html`` written; not started."""
    out = Path(out)
    write_search_page(out, list(indexes))
    handler = partial(_Handler, indexes=indexes, lock=threading.Lock(), directory=str(out))
    return ThreadingHTTPServer(("127.0.0.1", port), handler)


def serve(out: Path, indexes: Mapping[str, Index], port: int) -> None:
    """Serve ``out`` with ``/api/search`` over ``indexes`` (keyed by strategy label) on
    127.0.0.1:``port`` until interrupted (Ctrl-C)."""
    server = make_server(out, indexes, port)
    host, bound = server.server_address[:2]
    print(f"serving {out} at http://{host}:{bound}/ (search: http://{host}:{bound}/search.html); Ctrl-C stops")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
