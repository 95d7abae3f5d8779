"""Where the retrievers' results come from: an index folder searched in this process, or a
``seamcut serve`` service over HTTP; the same ranking, filters, parents and budget either way."""
from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..errors import ConfigError
from ..index.filters import Filter
from ..index.search import budget_of
from ..renamed import gathered

#: the chunk fields a result's metadata carries (with ``chunk_id`` for the chunk's ``id``)
_FIELDS = ("doc_id", "source", "start", "end", "tokens", "context", "heading_path", "pages", "language",
           "strategy", "parent_id")


@dataclass(frozen=True)
class SearchOptions:
    """How a retriever searches, as ``seamcut search`` takes it: ``k`` (results returned),
    ``mode`` (``vector``, ``text`` or ``hybrid``), ``filters`` (``Filter``s, or mappings of
    ``field``, ``op``, ``value``), ``budget`` (tokens of the model the results hold together at
    most; None: no limit); for a service, ``api_key`` (None: none sent) and ``timeout`` (seconds)."""

    k: int = 4
    mode: str = "hybrid"
    filters: Sequence[Filter | Mapping[str, Any]] = ()
    budget: int | None = None
    api_key: str | None = None
    timeout: float = 60.0


#: the keywords a retriever gathers into its ``SearchOptions`` (``max_tokens``: ``budget``'s old name)
SEARCH_KEYWORDS = ("k", "mode", "filters", "budget", "api_key", "timeout", "max_tokens")


def search_options(where: str, options: SearchOptions | None, keywords: dict[str, Any],
                   stacklevel: int = 4) -> SearchOptions:
    """``options`` (or the defaults) with ``keywords`` (``SearchOptions`` fields, or
    ``max_tokens``, warned ``stacklevel`` frames up from here) over it; another keyword is a
    ``ConfigTypeError``."""
    ours = dict(keywords)
    if "max_tokens" in ours:  # budget's old name, deprecated: warned at the caller
        ours["budget"] = budget_of(ours.get("budget"), ours.pop("max_tokens"), stacklevel)
    return gathered(where, options or SearchOptions(), ours)


class SeamcutSearch:
    """``db``: an index folder (made by ``seamcut index``), or ``url``: a ``seamcut serve``
    service. ``options``: a ``SearchOptions`` (``k``, ``mode``, ``filters``, ``budget``, and
    ``api_key`` and ``timeout`` for a service), whose fields may be given as keywords instead
    (``SeamcutSearch(db, k=4, budget=2000)``); ``max_tokens``: ``budget``'s old name, deprecated."""

    def __init__(self, db: str | Path | None = None, url: str | None = None,
                 options: SearchOptions | None = None, **keywords: Any) -> None:
        if (db is None) == (url is None):
            raise ConfigError("give one of db (an index folder) or url (a seamcut serve service)")
        how = search_options("SeamcutSearch", options, keywords)
        self.db, self.url = db, url.rstrip("/") if url else None
        self.k, self.mode, self.budget = how.k, how.mode, how.budget
        self.filters = [f if isinstance(f, Filter) else Filter(f["field"], f.get("op", "eq"), f["value"])
                        for f in how.filters]
        self.api_key, self.timeout = how.api_key, how.timeout
        self._index: Any = None

    def results(self, query: str) -> list[dict[str, Any]]:
        """The results for ``query`` as ``seamcut search --json`` prints them, best first."""
        if self.db is not None:
            from ..index import Index
            if self._index is None:
                self._index = Index(self.db)
            hits = self._index.search(query, self.k, mode=self.mode, filters=self.filters,  # type: ignore[arg-type]
                                      budget=self.budget)
            return [h.to_dict() for h in hits]
        body = {"query": query, "k": self.k, "mode": self.mode,
                "filters": [{"field": f.field, "op": f.op, "value": f.value} for f in self.filters],
                **({"budget": self.budget} if self.budget is not None else {})}
        headers = {"Content-Type": "application/json", **({"X-API-Key": self.api_key} if self.api_key else {})}
        req = urllib.request.Request(f"{self.url}/search", data=json.dumps(body).encode("utf-8"), headers=headers)
        try:
            with urllib.request.urlopen(req, timeout=self.timeout) as resp:
                return json.loads(resp.read())["results"]
        except urllib.error.HTTPError as exc:
            raise ConfigError(f"{self.url}/search answered {exc.code}: {exc.read().decode('utf-8', 'replace')}") from exc


def hit_metadata(hit: Mapping[str, Any]) -> dict[str, Any]:
    """A result's metadata for a framework document: the document's and chunk's fields, then
    ``chunk_id``, the chunk's place (``source``, ``pages``, ``heading_path``, ...), and the
    search's ``rank``, ``score``, ``similarity`` and matching ``children`` (parent-child)."""
    c = hit["chunk"]
    meta = dict(c.get("metadata") or {})
    meta.update({"chunk_id": c["id"], **{k: c.get(k) for k in _FIELDS}, "rank": hit["rank"],
                 "score": hit["score"], "similarity": hit["similarity"], "children": list(hit["children"])})
    return meta
