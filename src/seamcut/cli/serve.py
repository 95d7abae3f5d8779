"""``seamcut serve``: an index as an HTTP JSON service."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer


def serve_command(
    db: Annotated[Path, typer.Argument(help="Index folder (made by `seamcut index`).")],
    host: Annotated[str, typer.Option(
        "--host", help="Address to listen on; anything but this machine's loopback needs --api-key.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="Port to listen on.")] = 8000,
    api_key: Annotated[Optional[str], typer.Option(
        "--api-key", envvar="SEAMCUT_API_KEY", show_envvar=True,
        help="Key every request but /health must send (X-API-Key, or Authorization: Bearer).")] = None,
    workers: Annotated[int, typer.Option(
        "--workers", min=1, help="Processes serving at once, each with the index open (one core each).")] = 1,
    log_queries: Annotated[bool, typer.Option(
        "--log-queries", help="Log each query's text too (default: its id, path, status and time only).")] = False,
) -> None:
    """Serve an index over HTTP: POST /search, GET /health, GET /stats, the API at /docs.

    Each search reads the state `seamcut index` last published: updates are served without a
    restart, and a batch half written is never seen."""
    from ..index import Index
    from ..serve import Settings, run
    from ..serve.run import check
    settings = Settings(db, api_key, log_queries)
    check(settings, host)
    Index(db)  # no index there: say so now, not in a worker
    typer.echo(f"serving {db} on http://{host}:{port} (API: http://{host}:{port}/docs)", err=True)
    run(settings, host, port, workers)
