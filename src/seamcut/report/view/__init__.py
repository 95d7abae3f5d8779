"""``seamcut view``: the cuts drawn in place, PDF pages with element and chunk boxes
(``build``, ``data``, ``pages``), and, from the ``questions`` part, per-question results and the
search playground; a run's contestants (``contestants``) drawn over their own laid-out text.
Static files that open from disk."""
from __future__ import annotations

from .build import (ViewOptions, asks_overlap, build_view, cut_all, named_as_in_run, run_sources, strategies_of,
                    strategies_of_run)

__all__ = ["ViewOptions", "asks_overlap", "build_view", "cut_all", "named_as_in_run", "run_sources",
           "strategies_of", "strategies_of_run"]
