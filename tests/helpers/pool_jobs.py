"""Jobs for the worker-pool tests (a module of its own: worker processes import them by name)."""
from __future__ import annotations

import os
import tempfile
import time


_MODEL: list[bytearray] = []


#: the start of the temporary file a "temp" job writes
TEMP_PREFIX = "tess_pool_job_"


def job(kind: str) -> str:
    if kind == "sleep":
        time.sleep(60)
    if kind == "temp":  # as pytesseract does: a named file left for its own cleanup to remove
        # (a prefix of its own: another test's OCR, run at the same time, writes tess_ files too)
        with tempfile.NamedTemporaryFile(prefix=TEMP_PREFIX, delete=False) as f:
            f.write(b"image")
        return f.name
    if kind == "temp-hang":  # ... killed before it can
        job("temp")
        time.sleep(60)
    if kind == "grow":  # resident memory, page by page, well past any cap the tests set
        blocks = []
        for _ in range(400):
            blocks.append(bytearray(b"x" * (4 << 20)))
            time.sleep(0.005)
    if kind == "model":  # loaded once and kept for every later job, as semantic's embedder
        from seamcut.ground.processes import kept_for_good
        with kept_for_good():
            _MODEL.append(bytearray(b"x" * (320 << 20)))
        time.sleep(1)  # then a file read with it, under the watchdog's eye
    if kind == "keep":  # memory a file leaves behind in its worker (allocator arenas, caches)
        _MODEL.append(bytearray(b"x" * (200 << 20)))
        time.sleep(0.5)  # the rest of its reading, under the watchdog's eye
    if kind == "die":
        os._exit(3)
    if kind == "raise":
        raise ValueError("a bug in the job")
    return f"{kind} done in {os.getpid()} ({os.environ.get('SEAMCUT_WORKER')}, omp {os.environ.get('OMP_NUM_THREADS')})"
