"""Where seamcut keeps what it can compute again: ``$SEAMCUT_CACHE`` or ``~/.cache/seamcut``."""
from __future__ import annotations

import os
from pathlib import Path


def cache_root() -> Path:
    """The cache folder: ``$SEAMCUT_CACHE`` if set, else ``~/.cache/seamcut``."""
    env = os.environ.get("SEAMCUT_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "seamcut"


def default_cache_dir(kind: str) -> Path:
    """The folder for one kind of cached thing (``documents``: parsed files, ``embeddings``:
    vectors), under ``cache_root()``; looked up at each call, so ``$SEAMCUT_CACHE`` set later
    counts."""
    return cache_root() / kind
