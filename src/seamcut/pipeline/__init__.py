"""The build: files read, cut, embedded and written into an index, at any scale.

    corpus.py          files read into documents (limits, parse cache) ; catalog.py: fields per file
    jobs.py            what travels between the stages (CutJob, CutFile) and the door chunks come
                       through (Cutting: a StrategySpec, or chunks already made, Made)
    stages.py          each stage's work, whichever engine runs it (read and cut, embed, write)
    flow.py            the one build loop (run_stages) and its bookkeeping (Run), for every engine
    report.py          BuildReport, STAGES and the report saved in the index folder
    options.py         BuildOptions: how a build reads, batches and shows its work
    local.py           LocalEngine: the stages in worker processes and threads on this machine
    ray_engine.py      RayEngine: the stages on Ray Data
    here.py            the stages in this process, for documents already in memory
    engine.py          the Engine interface and engine_from(name, address, gpus)
    run.py             build_index (files) and build_documents (documents in memory): one build,
                       under the index's write lock

The names below are imported on first use (``import seamcut.pipeline`` stays light); the code
of seamcut imports them from their modules.
"""
from __future__ import annotations

from importlib import import_module
from typing import Any

#: public name -> the module of this package that defines it
_LAZY = {"build_index": "run", "build_documents": "run", "Made": "jobs", "BuildOptions": "options", "BuildReport": "report", "Stage": "report",
         "STAGES": "report", "saved_report": "report", "Engine": "engine", "ENGINES": "engine",
         "engine_from": "engine", "LocalEngine": "local", "cutting_pool": "local", "RayEngine": "ray_engine",
         "CutJob": "jobs", "CutFile": "jobs", "model_sized": "jobs",
         "Limits": "corpus", "ReadOptions": "corpus", "read_corpus": "corpus", "Catalog": "catalog",
         "load_catalog": "catalog"}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'seamcut.pipeline' has no attribute {name!r}")
    value = getattr(import_module(f".{_LAZY[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
