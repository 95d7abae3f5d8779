"""``seamcut.evaluate.compare`` as the evaluation tests call it: strategy words parsed once
here, the embedder, workdir, k and progress put in their option objects (``Indexing``,
``Judging``), as ``seamcut.compare`` does for its keywords."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from seamcut.evaluate import CompareResult, Question, compare
from seamcut.evaluate.options import Indexing, Judging
from seamcut.pipeline.options import BuildOptions
from seamcut.peers import parse_contestant


def compared(documents: Sequence[Any], questions: Sequence[Question], strategies: Sequence[str], embedder: Any,
             workdir: str | Path, k: int = 4, filters: Sequence[str] | None = None) -> CompareResult:
    """``strategies`` (spec words) compared on ``documents`` at ``k``, quietly (no progress),
    each question's search filtered the ways ``filters`` names (None: the default)."""
    return compare(documents, questions, [parse_contestant(s) for s in strategies],
                   Indexing(embedder, workdir, build=BuildOptions(progress=False)), Judging(k=k, filters=filters))
