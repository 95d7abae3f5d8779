"""An index folder's settings, ``seamcut-index.json``: what the index was built with (strategy and
options, model, embedder, vector dimension), how a parent-child index ranks parents by words, and
its format. Loaded, checked against what a caller asks for, and saved atomically."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Literal, Mapping

from ..errors import ConfigError

SETTINGS_FILE = "seamcut-index.json"
FORMAT = 1
#: what BM25 ranks in a parent-child index: the ``parents`` themselves, or their ``children``
#: (a parent then comes where its best child does)
ParentTextRank = Literal["parents", "children"]
PARENT_TEXT_RANKS = ("parents", "children")


class IndexConfigError(ConfigError):
    """An index folder that cannot be used as asked (another strategy, another model, missing)."""


def parent_text_rank_for(options: Mapping[str, Any]) -> ParentTextRank:
    """The parent text ranking a strategy's options call for: ``parents`` where each parent is
    one block (``parents="blocks"``: a paragraph, table or list, a natural BM25 document), else
    ``children`` (a section is too long for BM25, a 40-token child too short to rank alone but
    fine to place its parent)."""
    return "parents" if options.get("parents") == "blocks" else "children"


@dataclass
class Settings:
    """How one index folder was built. ``dim``: vector dimension. (The files it holds are its
    ``documents`` table's rows: ``Index.files``.)"""
    strategy: str
    options: dict[str, Any]
    model: str = "default"
    embedder: str | None = None
    dim: int | None = None
    parent_text_rank: ParentTextRank = "children"
    format: int = FORMAT

    @classmethod
    def new(cls, strategy: str, options: Mapping[str, Any] | None, model: str | None,
            parent_text_rank: ParentTextRank | None = None) -> "Settings":
        opts = dict(options or {})
        rank = parent_text_rank or parent_text_rank_for(opts)
        _check_rank(rank)
        return cls(strategy, opts, model or "default", parent_text_rank=rank)

    @classmethod
    def load(cls, folder: Path) -> "Settings | None":
        """The folder's settings; None where it holds no index. An index written before
        ``parent_text_rank`` was saved gets the one its options call for."""
        path = folder / SETTINGS_FILE
        if not path.is_file():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except ValueError as exc:  # not UTF-8 or not JSON
            raise IndexConfigError(f"{path}: not an index settings file ({exc}); rebuild the index") from None
        if not isinstance(data, dict):
            raise IndexConfigError(f"{path}: not an index settings file (not a JSON object); rebuild the index")
        if data.get("format") != FORMAT:
            raise IndexConfigError(f"{folder}: index format {data.get('format')} (this seamcut reads {FORMAT}); rebuild it")
        if not isinstance(data.get("strategy"), str) or not isinstance(data.get("options"), dict):
            raise IndexConfigError(f"{path}: not an index settings file (no strategy and options); rebuild the index")
        data.setdefault("parent_text_rank", parent_text_rank_for(data["options"]))
        return cls(**{k: data[k] for k in cls.__dataclass_fields__ if k in data})

    def check(self, folder: Path, strategy: str | None, options: Mapping[str, Any] | None,
              model: str | None, parent_text_rank: ParentTextRank | None = None) -> None:
        """Refuse what differs from how the index was built (None: not asked)."""
        wanted = {"strategy": strategy, "options": dict(options) if options is not None else None,
                  "model": model, "parent_text_rank": parent_text_rank}
        for key, value in wanted.items():
            if value is not None and value != getattr(self, key):
                raise IndexConfigError(f"{folder}: built with {key} {getattr(self, key)!r}, not {value!r}; "
                                       "use another --db folder or --rebuild")

    def check_embedder(self, folder: Path, name: str) -> None:
        """Refuse an embedder other than the one the index was built with."""
        if self.embedder not in (None, name):
            raise IndexConfigError(f"{folder}: built with embedder {self.embedder}, not {name}")

    def save(self, folder: Path) -> None:
        tmp = folder / (SETTINGS_FILE + ".tmp")
        data = {"format": self.format, **{k: v for k, v in asdict(self).items() if k != "format"}}
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        tmp.replace(folder / SETTINGS_FILE)


def _check_rank(rank: str) -> None:
    if rank not in PARENT_TEXT_RANKS:
        raise ConfigError(f"parent_text_rank must be one of {', '.join(PARENT_TEXT_RANKS)}, not {rank!r}")
