"""The HTTP JSON API over one index (FastAPI): ``POST /search``, ``GET /health``, ``GET /stats``,
``GET /openapi.json`` and ``GET /docs`` (the same schema as a page, with no script from anywhere).

A search answers with the same results ``seamcut search --json`` prints for the same question
(``Hit.to_dict``), the id of the published state they come from, the request's id and its
``warnings`` (a filter that matched no chunk, with values its field holds; a deprecated key). Each
process opens the index once and searches it one request at a time (a search keeps a core busy;
more processes serve more at once: ``seamcut serve --workers``); every search reads the state
last published, so an index that ``seamcut index`` updates is served without a restart, and a
batch it has half written is never seen.
"""
from __future__ import annotations

import hmac
import html
import json
import logging
import os
import re
import threading
import time
import uuid
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, AsyncIterator, Literal, Union

from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from pydantic import (BaseModel, ConfigDict, Field, StrictBool, StrictFloat, StrictInt, StrictStr, field_validator,
                      model_validator)

from .. import __version__
from ..index import Index
from ..index.filters import MAX_IN, Filter, FilterError
from ..errors import ConfigError

log = logging.getLogger("seamcut.serve")

#: the longest query, in characters (a question, not a document)
MAX_QUERY = 2000
#: the most results one search returns
MAX_K = 100
#: the most filters one search takes
MAX_FILTERS = 20
#: the largest request body, in bytes
MAX_BODY = 64 * 1024
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")

Scalar = Union[StrictStr, StrictInt, StrictFloat, StrictBool]


class FilterIn(BaseModel):
    """One filter: ``field`` (a field of the index: ``GET /stats`` lists them), ``op`` and
    ``value`` (a list for ``in``)."""
    model_config = ConfigDict(extra="forbid")
    field: str = Field(max_length=64, description="a field of the index (GET /stats: fields)")
    op: Literal["eq", "ne", "lt", "lte", "gt", "gte", "in"] = "eq"
    value: Union[Scalar, list[Scalar]] = Field(description=f"a value of the field's kind; for in, 1 to {MAX_IN}")


class SearchIn(BaseModel):
    """A search. Keys other than these are refused (a ``where`` sent by mistake is not ignored)."""
    model_config = ConfigDict(extra="forbid")
    query: str = Field(min_length=1, max_length=MAX_QUERY, description=f"the question, 1 to {MAX_QUERY} characters")
    k: int = Field(4, ge=1, le=MAX_K, description="how many results")
    mode: Literal["hybrid", "vector", "text"] = "hybrid"
    filters: list[FilterIn] = Field(default_factory=list, max_length=MAX_FILTERS,
                                    description="all must hold (AND)")
    read_filters: bool = Field(False, description="filter on the field values the query names (the documents' "
                                                  "fields and their aliases, periods as people spell them), "
                                                  "none where they leave fewer than k chunks; each result "
                                                  "says which filter and why (filter)")
    budget: int | None = Field(None, ge=1, description="tokens of the model the results hold together at most, "
                                                       "best first (the first always comes)")
    max_tokens: int | None = Field(None, ge=1, deprecated="max_tokens is budget's old name: send budget",
                                   description="budget's old name, taken for a release; not with budget")

    @model_validator(mode="before")
    @classmethod
    def _one_budget(cls, data: Any) -> Any:
        if isinstance(data, dict) and data.get("budget") is not None and data.get("max_tokens") is not None:
            raise ConfigError("give budget or max_tokens (its old name, deprecated), not both")
        return data

    def tokens_sent(self) -> int | None:
        """The budget: ``budget``, or ``max_tokens`` where the client sent its old name (read
        past pydantic's deprecation warning, which is the client's to heed, not the server's)."""
        return self.budget if self.budget is not None else self.__dict__["max_tokens"]

    def notes(self) -> list[str]:
        """What the client should change: a deprecated key it sent."""
        return (["max_tokens is deprecated: send budget (the same tokens); max_tokens goes in a coming release"]
                if "max_tokens" in self.model_fields_set else [])

    @field_validator("query")
    @classmethod
    def _not_blank(cls, v: str) -> str:
        if not v.strip():
            raise ConfigError("the query is blank")
        return v


@dataclass
class Settings:
    """What a service process serves and how: the index folder ``db``; ``api_key`` (None: no
    key asked, only for a service on this machine's loopback); ``log_queries``: the query text
    in the log too (else only each request's id, path, status and time)."""
    db: Path
    api_key: str | None = None
    log_queries: bool = False

    ENV = "SEAMCUT_SERVE"

    def to_env(self) -> None:
        """For the worker processes uvicorn starts (they build their app from ``from_env``); the
        key goes by its own variable, read once and removed."""
        os.environ[self.ENV] = json.dumps({"db": str(self.db), "log_queries": self.log_queries})
        if self.api_key:
            os.environ[self.ENV + "_KEY"] = self.api_key

    @classmethod
    def from_env(cls) -> "Settings":
        got = json.loads(os.environ[cls.ENV])
        return cls(Path(got["db"]), os.environ.get(cls.ENV + "_KEY"), bool(got["log_queries"]))


class Service:
    """One process's index and counters."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.index = Index(settings.db)
        self.lock = threading.Lock()  # one search at a time in a process: an Index is not shared
        self.started = time.time()
        self.requests = 0
        self.failed = 0

    def warm(self) -> None:
        """Load the model and the vectors before the first request (two searches: the second
        loads the in-memory vectors)."""
        for _ in range(2):
            self.search(SearchIn(query="warm up", k=1))

    def search(self, req: SearchIn) -> tuple[list[dict[str, Any]], str | None, list[str]]:
        """The results, the state they come from, and the warnings: ``req.notes`` and, where
        filters found nothing, each filter that matches no chunk (``Index.unmatched``)."""
        filters = [Filter(f.field, f.op, f.value) for f in req.filters]
        with self.lock:
            asking = self.index.asked(req.query, req.k) if req.read_filters else None
            hits, state = self.index.search_state(asking.query(req.query) if asking else req.query, req.k,
                                                  mode=req.mode, filters=[*filters, *(asking.filters if asking else ())],
                                                  budget=req.tokens_sent())
            warnings = req.notes() + (self.index.unmatched(filters) if filters and not hits else [])
        said = {"filter": asking.to_dict()} if asking is not None else {}
        return [{**h.to_dict(), **said} for h in hits], state, warnings

    def stats(self) -> dict[str, Any]:
        with self.lock:
            s = self.index.settings
            return {"index": str(self.settings.db), "state": self.index.store.view().state_id, "chunks": self.index.count(),
                    "files": len(self.index.files), "strategy": s.strategy, "model": s.model,
                    "embedder": s.embedder, "fields": self.index.filter_fields(),
                    "process": {"pid": os.getpid(), "requests": self.requests, "failed": self.failed,
                                "up_seconds": round(time.time() - self.started, 1)},
                    "version": __version__}


class RequestLog:
    """Each HTTP request: its id (the client's ``X-Request-ID`` where it is a plain token, else a
    new one; sent back in the same header and kept as ``request.state.id``), a body over
    ``MAX_BODY`` refused (413), the process's counters, and one log line (id, method, path,
    status, milliseconds). Plain ASGI: Starlette's ``BaseHTTPMiddleware`` ran every request in a
    task of its own and streamed the response through it."""

    def __init__(self, app: Any, box: dict[str, "Service"]) -> None:
        self.app, self.box = app, box

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        rid = headers.get(b"x-request-id", b"").decode("latin-1")
        rid = rid if _REQUEST_ID.match(rid) else uuid.uuid4().hex
        scope.setdefault("state", {})["id"] = rid
        t0 = time.perf_counter()
        status = 500  # what the client gets where the app fails before it answers

        async def send_with_id(message: dict[str, Any]) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", []), (b"x-request-id", rid.encode("latin-1"))]
            await send(message)

        try:
            size = headers.get(b"content-length", b"")
            if size.isdigit() and int(size) > MAX_BODY:
                await JSONResponse({"detail": f"the body is over {MAX_BODY} bytes"}, status_code=413)(
                    scope, receive, send_with_id)
            else:
                await self.app(scope, receive, send_with_id)
        finally:
            if "service" in self.box:
                self.box["service"].requests += 1
                self.box["service"].failed += status >= 400
            log.info("%s %s %s %d %.1f ms", rid, scope["method"], scope["path"], status,
                     (time.perf_counter() - t0) * 1000)


def log_lines() -> None:
    """The service's log (``seamcut.serve``, INFO): plain lines on standard error, with the time
    and the process, in every process that serves (``run``, and uvicorn's workers through
    ``from_env``; their spawned processes had no handler, and logged nothing). Not the CLI's rich
    handler: it laid out each line as a table, a third of the event loop's time under load."""
    if log.handlers:
        return
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(process)d %(levelname)s %(message)s"))
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False


def make_app(settings: Settings, warm: bool = True) -> FastAPI:
    """The service over ``settings.db`` (the index is opened, and warmed where ``warm``, when
    the app starts)."""
    box: dict[str, Service] = {}

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        box["service"] = Service(settings)
        if warm:
            box["service"].warm()
        log.info("serving %s (state %s)", settings.db, box["service"].index.store.view().state_id)
        yield

    app = FastAPI(title="seamcut", version=__version__, lifespan=lifespan, docs_url=None, redoc_url=None,
                  description="Search a seamcut index: the chunks that best answer a question.")
    key_header = APIKeyHeader(name="X-API-Key", auto_error=False)
    bearer = HTTPBearer(auto_error=False)

    def service() -> Service:
        return box["service"]

    def authorised(key: str | None = Depends(key_header),
                   token: HTTPAuthorizationCredentials | None = Depends(bearer)) -> None:
        if settings.api_key is None:
            return
        given = key or (token.credentials if token else None)
        # compared in constant time: how long a wrong key takes says nothing of the right one
        if given is None or not hmac.compare_digest(given.encode("utf-8"), settings.api_key.encode("utf-8")):
            raise HTTPException(401, "an API key is needed: the X-API-Key header or Authorization: Bearer KEY",
                                headers={"WWW-Authenticate": "Bearer"})

    app.add_middleware(RequestLog, box=box)

    @app.post("/search", dependencies=[Depends(authorised)])
    def search(req: SearchIn, request: Request, svc: Service = Depends(service)) -> JSONResponse:
        """The ``k`` best results for ``query``, as ``seamcut search --json`` prints them, from one
        published state of the index (``state``), and ``warnings``: each filter that matched no
        chunk where none was found (with values its field holds), a deprecated key sent."""
        if svc.settings.log_queries:
            log.info("%s query %r k=%d mode=%s filters=%s", request.state.id, req.query, req.k, req.mode,
                     [f.model_dump() for f in req.filters])
        try:
            results, state, warnings = svc.search(req)
        except FilterError as exc:
            raise HTTPException(400, str(exc)) from exc
        # a response of its own: the results are plain JSON already, and FastAPI would walk
        # every value of them again (jsonable_encoder) before encoding them
        return JSONResponse({"results": results, "state": state, "request_id": request.state.id,
                             "warnings": warnings})

    @app.get("/health")
    def health() -> dict[str, Any]:
        """Whether the service answers (no key needed; says nothing of the index's content)."""
        return {"status": "ok"}

    @app.get("/stats", dependencies=[Depends(authorised)])
    def stats(svc: Service = Depends(service)) -> dict[str, Any]:
        """The index (folder, published state, chunks, files, strategy, model, the fields filters
        may name and their kinds) and this process's counters."""
        return svc.stats()

    @app.get("/docs", response_class=HTMLResponse, include_in_schema=False)
    def docs() -> str:
        return api_page(app.openapi())

    return app


def from_env() -> FastAPI:
    """The app of a worker process uvicorn started (``Settings.to_env``)."""
    log_lines()
    return make_app(Settings.from_env())


def api_page(schema: dict[str, Any]) -> str:
    """The OpenAPI schema as one page: each path, its method and description, and the schemas,
    with no script or style from elsewhere (the machines this serves on may reach nothing)."""
    out = [f"<!doctype html><meta charset=utf-8><title>{html.escape(schema['info']['title'])} API</title>",
           "<style>body{font:15px system-ui,sans-serif;max-width:60em;margin:2em auto}pre{background:#f4f4f4;"
           "padding:.8em;overflow:auto}</style>",
           f"<h1>{html.escape(schema['info']['title'])} {html.escape(schema['info']['version'])}</h1>",
           f"<p>{html.escape(schema['info'].get('description', ''))} The schema: <a href=/openapi.json>"
           "/openapi.json</a>.</p>"]
    for path, methods in schema["paths"].items():
        for method, op in methods.items():
            out.append(f"<h2>{method.upper()} {html.escape(path)}</h2><p>{html.escape(op.get('description', ''))}</p>")
    for name, body in schema.get("components", {}).get("schemas", {}).items():
        out.append(f"<h3>{html.escape(name)}</h3><pre>{html.escape(json.dumps(body, indent=1))}</pre>")
    return "\n".join(out)
