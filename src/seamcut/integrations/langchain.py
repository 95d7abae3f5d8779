"""seamcut inside LangChain: a ``TextSplitter`` and a document loader backed by seamcut.

    from seamcut.integrations.langchain import SeamcutLoader, SeamcutTextSplitter

    docs = SeamcutLoader(["manuals/"]).load()                 # one Document per file
    splitter = SeamcutTextSplitter(strategy="structure", size=300, overlap=50)
    chunks = splitter.split_documents(docs)                   # seamcut's chunks, as Documents

Each chunk ``Document`` has ``page_content == chunk.text`` (what is embedded: seamcut's
``context``, e.g. the heading path, then the body) and seamcut's fields in its metadata
(``start``/``end`` and LangChain's ``start_index``: the body's span of the document text, in code
points; ``chunk_id``, ``tokens``, ``heading_path``, ...). Needs ``langchain-core`` and
``langchain-text-splitters`` (``pip install seamcut[langchain]``).
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence

from ..errors import MissingError

try:
    from langchain_core.callbacks import CallbackManagerForRetrieverRun
    from langchain_core.document_loaders import BaseLoader
    from langchain_core.documents import Document as LCDocument
    from langchain_core.retrievers import BaseRetriever
    from langchain_text_splitters import TextSplitter
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise MissingError("langchain-core and langchain-text-splitters", "seamcut.integrations.langchain",
                       "pip install 'seamcut[langchain]'") from exc

from ..api import chunk as seamcut_chunk
from ..strategies import DEFAULT_STRATEGY
from ..model import Chunk, Document
from . import chunk_metadata, document_for, remember
from ..index.search import budget_of
from .search import SeamcutSearch, hit_metadata


class SeamcutTextSplitter(TextSplitter):
    """A LangChain ``TextSplitter`` that cuts with a seamcut strategy.

    ``strategy``, ``size``, ``overlap``, ``unit``, ``tokenizer`` and other keyword options are
    those of ``seamcut.chunk``: sizes in ``unit`` (``tokens`` of the embedding model by default,
    special tokens included; ``words``; ``chars``), None for the strategy's default (300/50).
    """

    def __init__(self, strategy: str = DEFAULT_STRATEGY, size: int | None = None,
                 overlap: int | None = None, unit: str = "tokens", tokenizer: Any = None,
                 **options: Any) -> None:
        # LangChain's own checks and fields; seamcut does the sizing, in its own unit
        super().__init__(chunk_size=size or 300, chunk_overlap=overlap or 0,
                         add_start_index=False, strip_whitespace=False)
        self.strategy, self.size, self.overlap, self.unit = strategy, size, overlap, unit
        self.tokenizer, self.options = tokenizer, options

    def chunks(self, document: str | Document) -> list[Chunk]:
        """seamcut's chunks of ``document`` with this splitter's settings."""
        return seamcut_chunk(document, strategy=self.strategy, size=self.size,
                             overlap=self.overlap, unit=self.unit, tokenizer=self.tokenizer,
                             **self.options)

    def split_text(self, text: str) -> list[str]:
        """Each chunk's embedded text (``context + body``)."""
        return [c.text for c in self.chunks(text)]

    def create_documents(self, texts: list[str], metadatas: list[dict[Any, Any]] | None = None
                         ) -> list[LCDocument]:
        """One ``Document`` per chunk, with the input's metadata and seamcut's fields."""
        metas = metadatas or [{}] * len(texts)
        out = []
        for text, meta in zip(texts, metas):
            doc = document_for(text, meta)
            for c in self.chunks(doc):
                out.append(LCDocument(page_content=c.text,
                                      metadata={**meta, **chunk_metadata(c, doc)}))
        return out

    def split_documents(self, documents: Iterable[LCDocument]) -> list[LCDocument]:
        docs = list(documents)
        return self.create_documents([d.page_content for d in docs],
                                     [dict(d.metadata) for d in docs])


class SeamcutLoader(BaseLoader):
    """A LangChain document loader reading files with ``seamcut.read`` (PDF with OCR, Word, HTML,
    Markdown, text, scanned images; folders recursively).

    With ``strategy=None`` it yields one ``Document`` per file (``page_content`` the document
    text; metadata ``source``, ``doc_id``, ``language``, ``page_count`` and the document's fields);
    ``SeamcutTextSplitter`` then cuts it along the structure seamcut read. With a ``strategy``
    it yields the chunks directly (options as for ``seamcut.chunk``).
    """

    def __init__(self, paths: str | Path | Sequence[str | Path], strategy: str | None = None,
                 **options: Any) -> None:
        self.paths = [paths] if isinstance(paths, (str, Path)) else list(paths)
        self.strategy, self.options = strategy, options

    def lazy_load(self) -> Iterator[LCDocument]:
        from ..readers import expand, read

        for path in expand(self.paths):
            doc = read(path)
            remember(doc)
            meta = {k: v for k, v in doc.metadata.items()
                    if isinstance(v, (str, int, float, bool, type(None)))}
            if self.strategy is None:
                yield LCDocument(page_content=doc.text, metadata={
                    **meta, "source": doc.source, "doc_id": doc.id, "language": doc.language,
                    "page_count": len(doc.page_starts)})
                continue
            for c in seamcut_chunk(doc, strategy=self.strategy, **self.options):
                yield LCDocument(page_content=c.text, metadata=chunk_metadata(c, doc))


class SeamcutRetriever(BaseRetriever):
    """A LangChain retriever over a seamcut index: ``SeamcutRetriever(db=FOLDER, k=4)`` searches
    the folder in this process, ``SeamcutRetriever(url=SERVICE, k=4, api_key=...)`` asks a
    ``seamcut serve`` service; either way the results of ``seamcut search`` (its ranking, each
    parent once for a parent-child index, ``filters``, the ``budget``: tokens of the model the
    results hold together at most; ``max_tokens``, its old name, deprecated), in its order.

    Each ``Document``'s ``page_content`` is the chunk's text (for parent-child, the parent's);
    its metadata has ``chunk_id``, the chunk's place and fields, ``rank`` and ``score``."""

    db: Any = None
    url: Any = None
    k: int = 4
    mode: str = "hybrid"
    filters: list = []
    budget: Any = None
    api_key: Any = None
    timeout: float = 60.0
    _search: Any = None

    def __init__(self, **data: Any) -> None:
        if "max_tokens" in data:  # budget's old name, deprecated: warned at the caller
            data["budget"] = budget_of(data.get("budget"), data.pop("max_tokens"))
        super().__init__(**data)

    def model_post_init(self, context: Any) -> None:
        self._search = SeamcutSearch(self.db, self.url, k=self.k, mode=self.mode, filters=self.filters,
                                     budget=self.budget, api_key=self.api_key, timeout=self.timeout)

    def _get_relevant_documents(self, query: str, *, run_manager: CallbackManagerForRetrieverRun) -> list[LCDocument]:
        return [LCDocument(page_content=h["chunk"]["text"], metadata=hit_metadata(h))
                for h in self._search.results(query)]


__all__ = ["SeamcutTextSplitter", "SeamcutLoader", "SeamcutRetriever"]
