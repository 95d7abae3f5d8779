"""The parse cache's JSON format against the pickles it replaced: bytes on disk and seconds to
write and to load, on the real documents of ../shared/data (PDFs read without OCR, the chroma
corpora, FLORES-200 in English, Hindi and Marathi), one process, one thread.

    OMP_NUM_THREADS=1 python benchmarks/parse/parse_cache.py

Pickle appears here only to measure what the change costs; seamcut itself never loads one.
"""
from __future__ import annotations

import os
import pickle
import time
from pathlib import Path

os.environ.setdefault("OMP_NUM_THREADS", "1")

from seamcut import document_json  # noqa: E402
from seamcut.readers import read  # noqa: E402

DATA = Path(__file__).resolve().parents[3] / "shared" / "data"


def _best(fn, repeat: int = 5) -> float:
    """The fastest of ``repeat`` runs of ``fn``, in seconds."""
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def main() -> None:
    files = (sorted((DATA / "pdfs" / "docling").glob("*.pdf")) + sorted((DATA / "pdfs" / "pdfplumber").glob("*.pdf"))
             + sorted((DATA / "chroma_eval" / "corpora").glob("*.md"))
             + [DATA / "flores200" / f"{lang}.dev" for lang in ("eng_Latn", "hin_Deva", "mar_Deva")])
    docs = [read(f, ocr="never") for f in files]
    js = [document_json.dumps(d) for d in docs]
    pk = [pickle.dumps(d, protocol=pickle.HIGHEST_PROTOCOL) for d in docs]
    assert all(document_json.loads(s) == d for s, d in zip(js, docs))
    chars = sum(len(d.text) for d in docs)
    rows = [
        ("JSON", sum(len(s.encode("utf-8")) for s in js), _best(lambda: [document_json.dumps(d) for d in docs]),
         _best(lambda: [document_json.loads(s) for s in js])),
        ("pickle", sum(len(b) for b in pk), _best(lambda: [pickle.dumps(d, protocol=5) for d in docs]),
         _best(lambda: [pickle.loads(b) for b in pk])),
    ]
    print(f"{len(docs)} documents, {chars:,} characters of text, "
          f"{sum(len(d.elements) for d in docs):,} elements")
    print(f"{'format':8} {'MB on disk':>10} {'write s':>8} {'load s':>8}")
    for name, size, write, load in rows:
        print(f"{name:8} {size / 1e6:10.2f} {write:8.3f} {load:8.3f}")


if __name__ == "__main__":
    main()
