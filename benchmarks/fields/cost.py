"""What finding the fields costs on the reading's hot path: CPU seconds of ``find_fields``
against those of reading the same files in this process (no parse cache; OCR's Tesseract runs
in a child process and is not counted, so a scanned file's reading counts less than it costs).

    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/fields/cost.py
"""
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "src"))


def main():
    from seamcut.readers import read
    from seamcut.readers.found_fields import find_fields
    for name, folder in (("docugami", REPO.parent / "shared" / "data" / "docugami-10q" / "docs"), ("helpline", REPO / "examples" / "helpline")):
        read_cpu = found = 0.0
        files = sorted(Path(folder).glob("*.pdf"))
        for f in files:
            t = time.process_time()
            doc = read(f, found=False)
            read_cpu += time.process_time() - t
            t = time.process_time()
            find_fields(doc)
            found += time.process_time() - t
        print(f"{name}: {len(files)} files; reading {read_cpu:.1f} CPU s; find_fields {found:.3f} CPU s; "
              f"ratio {found / read_cpu:.4f}", flush=True)


if __name__ == "__main__":
    main()
