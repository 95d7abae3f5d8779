"""A sentence-transformers model from a local folder: ``SentenceTransformerEmbedder`` (optional:
needs sentence-transformers and torch)."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Sequence

import numpy as np

from ..errors import require
from ..model import stable_hash
from ..tokens import HFTokenizerSizer, TransformersCountSizer
from .base import Embedder, Kind, OnLong


class SentenceTransformerEmbedder(Embedder):
    """A sentence-transformers model from a local folder (nothing is downloaded).

    The maximum input is the model's ``max_seq_length`` (where sentence-transformers would cut
    silently); the sizer is the folder's ``tokenizer.json`` with its truncation and padding
    switched off, with the model's passage prompt (if it declares one) counted in.
    """

    overflow = "truncate"

    def __init__(self, path: str | os.PathLike[str], *, device: str = "cpu", batch_size: int = 32,
                 on_long: OnLong = "error") -> None:
        super().__init__(on_long)
        folder = Path(path).expanduser()
        if not folder.is_dir():
            raise FileNotFoundError(f"{folder}: not a folder holding a sentence-transformers model")
        os.environ.setdefault("HF_HUB_OFFLINE", "1")
        os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
        st = require("sentence_transformers", "SentenceTransformerEmbedder",
                     "pip install 'seamcut[st]' (a CPU torch is enough)", "sentence-transformers and torch")
        self.model = st.SentenceTransformer(str(folder), device=device, local_files_only=True)
        self.path = folder.resolve()
        self.batch_size = batch_size
        prompts = dict(getattr(self.model, "prompts", None) or {})
        self.passage_prompt = prompts.get("passage") or prompts.get("document") or ""
        self.query_prompt = prompts.get("query") or ""
        get_dim = (getattr(self.model, "get_embedding_dimension", None)
                   or self.model.get_sentence_embedding_dimension)
        self.dim = int(get_dim())
        self.max_input_tokens = int(self.model.max_seq_length)
        tok_file = folder / "tokenizer.json"
        if tok_file.is_file():
            self.sizer = HFTokenizerSizer(tok_file, max_input_tokens=self.max_input_tokens,
                                          prefix=self.passage_prompt)
            self._query_sizer = HFTokenizerSizer(self.sizer.tokenizer,
                                                 name=self.sizer.name + ":query",
                                                 max_input_tokens=self.max_input_tokens,
                                                 prefix=self.query_prompt)
        else:
            self.sizer = TransformersCountSizer(self.model.tokenizer, self.passage_prompt,
                                                self.max_input_tokens)
            self._query_sizer = TransformersCountSizer(self.model.tokenizer, self.query_prompt,
                                                       self.max_input_tokens)
        self.name = f"st:{folder.resolve().name}:{_folder_fingerprint(folder)}"

    def count_tokens(self, texts: Sequence[str], kind: Kind = "passage") -> list[int]:
        return (self._query_sizer if kind == "query" else self.sizer).count_many(texts)

    def _embed(self, texts: list[str], kind: Kind) -> np.ndarray:
        prompt = self.query_prompt if kind == "query" else self.passage_prompt
        return self.model.encode(texts, prompt=prompt or None, batch_size=self.batch_size,
                                 convert_to_numpy=True, normalize_embeddings=True,
                                 show_progress_bar=False)


def _folder_fingerprint(folder: Path) -> str:
    """A short hash of a model folder: the config files' content and every file's size."""
    parts: list[str] = []
    for f in sorted(folder.rglob("*")):
        if f.is_file():
            rel = f.relative_to(folder).as_posix()
            if f.suffix in (".json", ".txt") and f.stat().st_size < 1_000_000:
                parts.append(rel + "=" + hashlib.blake2b(f.read_bytes(), digest_size=8).hexdigest())
            else:
                parts.append(f"{rel}:{f.stat().st_size}")
    return stable_hash(*parts, length=12)


__all__ = ["SentenceTransformerEmbedder"]
