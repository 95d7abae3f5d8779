"""``seamcut serve``: an index as an HTTP JSON service, for a bot or a service in any language.

``app``: the API (FastAPI): ``POST /search`` (query, k, mode, structured filters, a budget of
tokens), ``GET /health``, ``GET /stats``, ``GET /openapi.json`` and ``/docs``; ``run``: uvicorn
with one or more worker processes. See ``docs/serve.md``.
"""
from .app import MAX_BODY, MAX_FILTERS, MAX_K, MAX_QUERY, SearchIn, Settings, make_app
from .run import LOOPBACK, run

__all__ = ["make_app", "run", "Settings", "SearchIn", "LOOPBACK", "MAX_QUERY", "MAX_K", "MAX_FILTERS", "MAX_BODY"]
