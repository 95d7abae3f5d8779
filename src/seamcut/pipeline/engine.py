"""Where a build runs: the ``Engine`` interface, its two implementations' names (``ENGINES``)
and ``engine_from``, which makes one from the command line's ``--engine``, ``--address`` and
``--ray-gpus`` (or ``seamcut.compare``'s keywords)."""
from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, ContextManager, Protocol, Sequence

from ..errors import ConfigError
from .corpus import Limits
from .local import LocalEngine
from .options import BuildOptions
from .ray_engine import RayEngine
from .report import BuildReport
from .jobs import Cutting

if TYPE_CHECKING:
    from ..index import Index

#: the engines ``engine_from`` knows: this machine's processes, or Ray Data
ENGINES = ("local", "ray")


class Engine(Protocol):
    """How a build's stages are scheduled (``LocalEngine``, ``RayEngine``); ``name``: one of
    ``ENGINES``."""
    name: str

    def check(self) -> None:
        """Raise, before any work, where this engine cannot run here (Ray not installed)."""

    def series(self, limits: Limits, files: int) -> ContextManager["Engine"]:
        """This engine, ready for a series of builds of up to ``files`` files under ``limits``:
        what it starts (reading workers, a Ray cluster) started once for all, stopped at the
        block's end."""

    def build(self, index: "Index", paths: Sequence[str | Path], spec: Cutting,
              how: BuildOptions) -> BuildReport:
        """``build_index``'s work: the one loop (``flow.run_stages``) with the stages where this
        engine runs them, every file read, cut with ``spec`` (or its chunks already made),
        embedded and written into ``index``, whose write lock the caller holds."""


def engine_from(name: str = "local", address: str | None = None, gpus: float = 0) -> Engine:
    """The engine ``name`` (one of ``ENGINES``): ``local``, or ``ray`` with the cluster at
    ``address`` (None: a local cluster) and ``gpus`` GPUs per embedding actor (0: none).
    ``ValueError`` for another name."""
    if name not in ENGINES:
        raise ConfigError(f"unknown engine {name!r}; choose from {', '.join(ENGINES)}")
    return RayEngine(address, gpus) if name == "ray" else LocalEngine()
