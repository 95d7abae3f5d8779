"""Optional packages some tests need, skipped with the reason and the way to install them."""
from __future__ import annotations

from types import ModuleType

import pytest

#: why the e5-torch tests are skipped where torch is missing
NO_TORCH = ("torch is not installed: bash scripts/setup.sh --test installs it where its CPU build lies "
            "on this disk, and --torch installs it anyway (from the package index, perhaps as a CUDA "
            "build of several GB)")


def need_torch() -> ModuleType:
    """torch, or the calling test (or module, at its import) skipped with ``NO_TORCH``."""
    return pytest.importorskip("torch", reason=NO_TORCH)
