"""What every benchmark result records, and where it goes.

A script puts ``benchmarks/common`` on ``sys.path`` and imports this module as ``record``::

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "common"))
    import record

``stamp()`` is the ``recorded`` block each result carries (the commit measured, whether the tree
differed from it, the UTC time, the machine); ``result_path`` names a new result
``BENCH/results/YYYY-MM-DD[-label].EXT`` (the UTC date it was made); ``latest`` finds the newest
of a label; ``read_json`` reads a result whether or not it is gzipped (``NAME.json.gz``: raw
outputs over 1 MB are kept gzipped, ``gzip -n``).
"""
from __future__ import annotations

import datetime as _dt
import gzip
import json
import os
import platform
import re
import subprocess
from pathlib import Path
from typing import Any

#: the repository's root (benchmarks/common/record.py -> ..)
ROOT = Path(__file__).resolve().parents[2]
#: the files whose changes make a measurement "dirty": the code measured and the benchmarks
_CODE = ["src", "pyproject.toml", ":(glob)benchmarks/**/*.py", ":(glob)benchmarks/**/*.sh"]


def _git(*args: str) -> str | None:
    try:
        p = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return p.stdout.strip() if p.returncode == 0 else None


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown"


def _memory_gib() -> float | None:
    """Total memory in GiB (2**30 bytes), from /proc/meminfo; None where unknown."""
    try:
        for line in Path("/proc/meminfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("MemTotal:"):
                return round(int(line.split()[1]) / 2**20, 1)
    except (OSError, ValueError, IndexError):
        pass
    return None


def _seamcut_version() -> str:
    try:
        import importlib.metadata

        return importlib.metadata.version("seamcut")
    except Exception:  # noqa: BLE001 - not installed: the stamp still goes out
        return "unknown"


def machine() -> dict[str, Any]:
    """The machine a figure was made on: CPU model, cores (all, and usable by this process),
    memory in GiB, Python and seamcut versions."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {"cpu": _cpu_model(), "cores": os.cpu_count(), "usable_cores": usable,
            "memory_gib": _memory_gib(), "python": platform.python_version(),
            "seamcut": _seamcut_version()}


def stamp() -> dict[str, Any]:
    """The ``recorded`` block of a result: ``commit`` (short hash of HEAD, None outside git),
    ``dirty`` (True where src/, pyproject.toml or a benchmark script differs from it), ``date``
    (UTC, ISO 8601, seconds) and ``machine`` (see ``machine()``)."""
    status = _git("status", "--porcelain", "--untracked-files=no", "--", *_CODE)
    return {"commit": _git("rev-parse", "--short", "HEAD"),
            "dirty": None if status is None else bool(status),
            "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "machine": machine()}


def with_stamp(data: dict[str, Any], recorded: dict[str, Any] | None = None) -> dict[str, Any]:
    """``data`` with a ``recorded`` block first (an old one is replaced): ``recorded`` (a
    ``stamp()`` taken when the run started, the code it ran being the code then) or a fresh one."""
    return {"recorded": recorded or stamp(), **{k: v for k, v in data.items() if k != "recorded"}}


def today() -> str:
    """The UTC date, ``YYYY-MM-DD``: the date part of a new result's name."""
    return _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d")


def result_path(bench: Path, label: str = "", suffix: str = ".json") -> Path:
    """``bench/results/YYYY-MM-DD[-label]SUFFIX`` for today (UTC); ``bench`` is the benchmark's
    folder (e.g. ``Path(__file__).parent``). An empty ``suffix`` gives the NAME for NAME.json,
    NAME.md, NAME.png."""
    return bench / "results" / (today() + (f"-{label}" if label else "") + suffix)


def latest(bench: Path, label: str = "", suffix: str = ".json") -> Path | None:
    """The newest ``bench/results/YYYY-MM-DD[-label]SUFFIX`` (or the same gzipped), or None.
    The label must match whole: ``compare`` does not find ``compare-sample4``."""
    pattern = re.compile(r"\d{4}-\d{2}-\d{2}" + (re.escape(f"-{label}") if label else "")
                         + re.escape(suffix) + r"(\.gz)?")
    found = sorted(p for p in (bench / "results").glob("*") if pattern.fullmatch(p.name))
    return found[-1] if found else None


def read_json(path: Path) -> Any:
    """A result's JSON, gzipped or not (``NAME.json.gz`` is read where ``NAME.json`` is asked
    for and only the gzipped one is there)."""
    path = Path(path)
    if not path.exists() and path.with_name(path.name + ".gz").exists():
        path = path.with_name(path.name + ".gz")
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="utf-8") as f:
            return json.load(f)
    return json.loads(path.read_text(encoding="utf-8"))


#: raw outputs larger than this (bytes of JSON) are kept gzipped
GZIP_OVER = 2**20


def write_json(path: Path, data: dict[str, Any], indent: int | None = 1, ensure_ascii: bool = False,
               gzip_over: int | None = None, recorded: dict[str, Any] | None = None) -> Path:
    """Write ``data`` with a ``recorded`` block (``recorded``, else a fresh one) to ``path`` (gzipped where it ends in
    ``.gz``, without a name or time in the gzip header, as ``gzip -n``). With ``gzip_over``
    (bytes, e.g. ``GZIP_OVER``), a larger text goes to ``path`` + ``.gz`` instead and a stale
    ``path`` is removed. Returns the path written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(with_stamp(data, recorded), indent=indent, ensure_ascii=ensure_ascii)
    if gzip_over is not None and path.suffix != ".gz" and len(text.encode("utf-8")) > gzip_over:
        path.unlink(missing_ok=True)
        path = path.with_name(path.name + ".gz")
    if path.suffix == ".gz":
        with open(path, "wb") as raw, gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as f:
            f.write(text.encode("utf-8"))
    else:
        path.write_text(text, encoding="utf-8")
    return path


def markdown_line(rec: dict[str, Any] | None = None) -> str:
    """A one-line record for a Markdown result with no JSON beside it."""
    rec = rec or stamp()
    m = rec.get("machine")
    where = m if isinstance(m, str) else f"{m['cpu']}, {m['cores']} cores, Python {m['python']}, seamcut {m['seamcut']}"
    dirty = " (with changes)" if rec.get("dirty") else ""
    return f"_Recorded: commit {rec.get('commit')}{dirty}, {rec.get('date')}, {where}._\n"
