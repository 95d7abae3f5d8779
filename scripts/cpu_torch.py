"""Print the requirement for a CPU build of torch that lies on this machine's disk, or nothing.

scripts/setup.sh --test runs it: torch serves only the e5-torch tests, and on an ordinary Linux
machine pip takes torch from the package index as its CUDA build with its CUDA libraries (several
GB). So the tests get torch only where a CPU build is at hand: a wheel whose version says ``+cpu``
in one of the local folders pip is pointed at (``--find-links``, ``PIP_FIND_LINKS``,
``UV_FIND_LINKS``, pip's configured ``find-links``) that this Python can install. Prints e.g.
``torch==2.13.0+cpu`` (the newest such wheel) and exits 0; prints nothing where there is none.

    python scripts/cpu_torch.py [--find-links DIR ...]
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path


def _configured() -> list[str]:
    """The find-links folders pip and uv are told about in the environment and pip's configuration."""
    found = []
    for name in ("PIP_FIND_LINKS", "UV_FIND_LINKS"):
        found += os.environ.get(name, "").split()
    try:
        said = subprocess.run([sys.executable, "-m", "pip", "config", "get", "global.find-links"],
                              capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        said = ""
    return found + said.split()


def cpu_torch(folders: list[str]) -> str | None:
    """The requirement (``torch==VERSION``) of the newest CPU build of torch among the wheels in
    ``folders`` that this interpreter can install, or None."""
    try:
        from packaging.tags import sys_tags
        from packaging.utils import InvalidWheelFilename, parse_wheel_filename
    except ImportError:  # pip vendors packaging where the environment has none of its own
        from pip._vendor.packaging.tags import sys_tags
        from pip._vendor.packaging.utils import InvalidWheelFilename, parse_wheel_filename
    ours = set(sys_tags())
    best = None
    for folder in folders:
        path = Path(folder.removeprefix("file://"))
        if not path.is_dir():
            continue  # a URL or a missing folder: nothing on this disk
        for wheel in path.glob("torch-*.whl"):
            try:
                name, version, _build, tags = parse_wheel_filename(wheel.name)
            except InvalidWheelFilename:
                continue
            if name == "torch" and version.local == "cpu" and ours & set(tags):
                best = version if best is None or version > best else best
    return None if best is None else f"torch=={best}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--find-links", action="append", default=None,
                    help="a folder of wheels to look in (default: the ones pip and uv are told about)")
    args = ap.parse_args(argv)
    found = cpu_torch(args.find_links if args.find_links is not None else _configured())
    if found:
        print(found)
    return 0


if __name__ == "__main__":
    sys.exit(main())
