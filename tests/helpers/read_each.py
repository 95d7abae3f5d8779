"""Read files with ``seamcut.read`` in this process and print one JSON line per file.

``python -m tests.helpers.read_each [--memory-cap MB] PATH...``: each line holds the path, the
outcome (``text``: a document with text; ``error``: an ``InputError``; ``crash``: any other
exception, with its traceback), the characters read or the message, the seconds it took and
the process's peak resident memory so far in MiB (Tesseract's included). The memory cap is
seamcut's own worker watchdog: a process over it exits with code 86. Used by the robustness
tests and by ``benchmarks/badfiles/badfiles.py``.
"""
from __future__ import annotations

import argparse
import json
import resource
import sys
import time
import traceback


def peak_mb() -> float:
    """This process's and its children's peak resident memory, in MiB (the larger of the two)."""
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return max(own, kids) / 1024


def read_one(path: str) -> dict:
    """The outcome of reading ``path`` (see the module docstring)."""
    from seamcut.errors import InputError
    from seamcut.readers import read

    t0 = time.perf_counter()
    try:
        doc = read(path)
        out = {"outcome": "text", "chars": len(doc.text)}
    except InputError as exc:
        out = {"outcome": "error", "message": str(exc)}
    except Exception as exc:  # what the tests look for: any exception but InputError
        out = {"outcome": "crash", "message": f"{type(exc).__name__}: {exc}"[:2000],
               "traceback": traceback.format_exc()[-4000:]}
    return {"path": path, **out, "seconds": round(time.perf_counter() - t0, 3), "peak_mb": round(peak_mb(), 1)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--memory-cap", type=int, default=None, help="MiB resident; over it: exit 86")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args(argv)
    from seamcut.ground.processes import worker_init
    worker_init(args.memory_cap)
    for path in args.paths:
        print(json.dumps(read_one(path), ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
