"""Where the benchmarks find their data: the project's evaluation data beside the checkout
(``../shared/data``, not in the repository: a benchmark that reads it says so) and the bundled
example. A script puts ``benchmarks/common`` on ``sys.path`` and imports this module as ``data``."""
from __future__ import annotations

from pathlib import Path

#: the repository's root (benchmarks/common/data.py -> ..)
ROOT = Path(__file__).resolve().parents[2]
#: the evaluation data beside the checkout
SHARED = ROOT.parent / "shared" / "data"
#: the 20 docugami 10-Q filings, and the 174 reviewed rows of their questions (``benchmarks/docugami``)
DOCUGAMI_DOCS = SHARED / "docugami-10q" / "docs"
DOCUGAMI_QUESTIONS = ROOT / "benchmarks" / "docugami" / "questions.yaml"
#: the bundled example: a farmer helpline's manuals, notices and circulars, with its questions
HELPLINE = ROOT / "examples" / "helpline"
