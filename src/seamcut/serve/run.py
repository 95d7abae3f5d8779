"""Running the service: uvicorn on a host and port, with one process or several."""
from __future__ import annotations

import ipaddress
import socket
import sys
from typing import Any

from ..errors import ConfigError
from .app import Settings, log_lines, make_app

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
    open and one search at a time (1 thread each for the model's numbers), each listening on a
    socket of its own where the system can share a port (``ReusePort``)."""
    import uvicorn
    check(settings, host)
    log_lines()
    if workers == 1:
        uvicorn.run(make_app(settings), host=host, port=port, access_log=False, log_level="warning")
        return
    settings.to_env()
    app, common = "seamcut.serve.app:from_env", {"factory": True, "host": host, "port": port, "workers": workers,
                                                 "access_log": False, "log_level": "warning"}
    if not REUSE_PORT:
        uvicorn.run(app, **common)
        return
    from uvicorn.supervisors import Multiprocess
    config = uvicorn.Config(app, **common)
    held = listening_socket(host, port, listen=False)  # the port taken now, or said now to be taken
    try:
        Multiprocess(config, sockets=[ReusePort(host, port, config.backlog)]).run()  # type: ignore[list-item]
    finally:
        held.close()


#: whether several sockets may listen on one port, the kernel spreading connections over them
REUSE_PORT = sys.platform == "linux" and hasattr(socket, "SO_REUSEPORT")


class ReusePort:
    """A listening socket of its own for each worker process, made as the worker unpickles it
    (``SO_REUSEPORT``: the kernel spreads new connections over the workers' sockets by address).
    Given to uvicorn's supervisor in place of the one socket it binds and shares: all workers
    took from one queue, and the one that woke first took every connection waiting (16 clients
    that keep their connection: one worker busy, the other idle)."""

    def __init__(self, host: str, port: int, backlog: int) -> None:
        self.host, self.port, self.backlog = host, port, backlog

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return listening_socket, (self.host, self.port, True, self.backlog)


def listening_socket(host: str, port: int, listen: bool = True, backlog: int = 2048) -> socket.socket:
    """A TCP socket bound to ``host``:``port`` with ``SO_REUSEPORT`` (listening where ``listen``:
    a socket only bound takes no connection, it holds the port)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    # the protocol named: asyncio turns Nagle's algorithm off only on sockets that say TCP, and
    # with it on an answer sent in two writes waited for the client's delayed ACK (40 ms)
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise ConfigError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
    if listen:
        sock.listen(backlog)
    sock.set_inheritable(True)
    return sock
