"""``seamcut index`` run as a user runs it, on a folder of small documents of real sentences:
the documents, the options, the process (``os.fork`` refused in it) and the rows it wrote."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .data import DATA


def flores_docs(folder: Path, n: int = 12) -> Path:
    """``n`` small documents of real sentences (FLORES-200, English and Hindi)."""
    folder.mkdir(parents=True, exist_ok=True)
    for lang in ("eng_Latn", "hin_Deva"):
        lines = (DATA / "flores200" / f"{lang}.dev").read_text(encoding="utf-8").splitlines()
        for i in range(n // 2):
            part = lines[i * 8:(i + 1) * 8]
            body = "\n\n".join(" ".join(part[j:j + 2]) for j in range(0, 8, 2))
            (folder / f"{lang[:3]}-{i:02d}.txt").write_text(f"# Part {i}\n\n{body}\n", encoding="utf-8")
    return folder


INDEX = ("-s", "recursive", "--size", "64", "--overlap", "0", "--batch", "8")
# os.fork made to fail: the run must start every worker another way
NO_FORK = ("import os, sys\n"
           "def refuse(*a, **k): raise RuntimeError('seamcut forked a process')\n"
           "os.fork = refuse\n"
           "from seamcut.cli import app\n"
           "sys.argv[0] = 'seamcut'\n"
           "app()\n")


def start_index(*args: str, **kw) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", NO_FORK, "index", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env={**os.environ, "COLUMNS": "200", "OMP_NUM_THREADS": "1"}, **kw)


def index_rows(db: Path) -> dict[str, list[dict]]:
    import lancedb
    conn = lancedb.connect(str(db / "lance"))
    return {name: conn.open_table(name).to_arrow().to_pylist() for name in ("chunks", "documents")}
