"""Running the service: uvicorn on a host and port, with one process or several."""
from __future__ import annotations

import ipaddress
import logging

from ..errors import ConfigError
from .app import Settings, make_app

#: host names that reach this machine only
LOOPBACK = ("localhost",)


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable from this machine only (127.0.0.0/8, ::1, localhost)."""
    if host in LOOPBACK:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check(settings: Settings, host: str) -> None:
    """Refuse to serve beyond this machine without an API key."""
    if not is_loopback(host) and not settings.api_key:
        raise ConfigError(f"--host {host} reaches other machines: give an API key (--api-key or the "
                          f"SEAMCUT_API_KEY environment variable)")


def run(settings: Settings, host: str = "127.0.0.1", port: int = 8000, workers: int = 1) -> None:
    """Serve ``settings.db`` until stopped (Ctrl-C). ``workers``: processes, each with the index
    open and one search at a time (1 thread each for the model's numbers)."""
    import uvicorn
    check(settings, host)
    logging.getLogger("seamcut.serve").setLevel(logging.INFO)
    if workers == 1:
        uvicorn.run(make_app(settings), host=host, port=port, access_log=False, log_level="warning")
    else:
        settings.to_env()
        uvicorn.run("seamcut.serve.app:from_env", factory=True, host=host, port=port, workers=workers,
                    access_log=False, log_level="warning")
