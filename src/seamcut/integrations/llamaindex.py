"""seamcut inside LlamaIndex: a ``NodeParser`` backed by seamcut strategies.

    from seamcut.integrations.llamaindex import SeamcutNodeParser

    parser = SeamcutNodeParser(strategy="recursive", size=300, overlap=50)
    nodes = parser.get_nodes_from_documents(documents)        # LlamaIndex Documents in

Each ``TextNode`` has ``text == chunk.text`` (what seamcut sized: ``context`` then the body),
``start_char_idx``/``end_char_idx`` the body's span of the document text (seamcut's offsets, in
code points, kept even where LlamaIndex would re-find them with ``str.find``), and seamcut's
fields in its metadata, left out of what LlamaIndex embeds and shows the model (they are already
in the text or are bookkeeping). Needs ``llama-index-core`` (``pip install seamcut[llamaindex]``).
"""
from __future__ import annotations

from typing import Any, Dict, List, Sequence

from ..errors import MissingError

try:
    from llama_index.core.base.base_retriever import BaseRetriever
    from llama_index.core.node_parser import NodeParser
    from llama_index.core.schema import (BaseNode, Document as LIDocument, NodeRelationship, NodeWithScore,
                                         QueryBundle, TextNode)
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise MissingError("llama-index-core", "seamcut.integrations.llamaindex",
                       "pip install 'seamcut[llamaindex]'") from exc

from pydantic import Field, PrivateAttr

from ..api import chunk as seamcut_chunk
from ..strategies import DEFAULT_STRATEGY
from . import chunk_metadata, document_for
from .search import SEARCH_KEYWORDS, SearchOptions, SeamcutSearch, hit_metadata, search_options


class SeamcutNodeParser(NodeParser):
    """A LlamaIndex ``NodeParser`` that cuts with a seamcut strategy.

    ``strategy``, ``size``, ``overlap``, ``unit``, ``tokenizer`` and ``options`` are those of
    ``seamcut.chunk``: sizes in ``unit`` (``tokens`` of the embedding model by default, special
    tokens included; ``words``; ``chars``), None for the strategy's default (300/50).
    """

    strategy: str = Field(default=DEFAULT_STRATEGY, description="seamcut strategy name")
    size: int | None = Field(default=None, description="most a chunk holds, in unit")
    overlap: int | None = Field(default=None, description="overlap target, in unit")
    unit: str = Field(default="tokens", description="tokens, words or chars")
    tokenizer: Any = Field(default=None, description="seamcut tokenizer spec (None: default)")
    options: Dict[str, Any] = Field(default_factory=dict, description="strategy options")
    _spans: Dict[str, tuple[int, int]] = PrivateAttr(default_factory=dict)

    @classmethod
    def class_name(cls) -> str:
        return "SeamcutNodeParser"

    def _parse_nodes(self, nodes: Sequence[BaseNode], show_progress: bool = False,
                     **kwargs: Any) -> List[BaseNode]:
        out: List[BaseNode] = []
        for node in nodes:
            text = node.get_content()
            meta = dict(node.metadata or {})
            doc = document_for(text, meta)
            chunks = seamcut_chunk(doc, strategy=self.strategy, size=self.size,
                                   overlap=self.overlap, unit=self.unit,
                                   tokenizer=self.tokenizer, **self.options)
            source = node.as_related_node_info()
            for c in chunks:
                cm = chunk_metadata(c, doc)
                ours = [k for k in cm if k not in meta]  # the user's own keys stay as they were
                n = TextNode(id_=c.id, text=c.text, start_char_idx=c.start, end_char_idx=c.end,
                             metadata={**meta, **cm},
                             excluded_embed_metadata_keys=[*node.excluded_embed_metadata_keys,
                                                           *ours],
                             excluded_llm_metadata_keys=[*node.excluded_llm_metadata_keys,
                                                         *ours],
                             relationships={NodeRelationship.SOURCE: source})
                self._spans[n.node_id] = (c.start, c.end)
                out.append(n)
        return out

    def _postprocess_parsed_nodes(self, nodes: List[BaseNode],
                                  parent_doc_map: Dict[str, LIDocument]) -> List[BaseNode]:
        nodes = super()._postprocess_parsed_nodes(nodes, parent_doc_map)
        for n in nodes:  # LlamaIndex re-finds offsets with str.find: put seamcut's back
            span = self._spans.pop(n.node_id, None)
            if span is not None and isinstance(n, TextNode):
                n.start_char_idx, n.end_char_idx = span
        return nodes


class SeamcutRetriever(BaseRetriever):
    """A LlamaIndex retriever over a seamcut index: ``SeamcutRetriever(db=FOLDER, k=4)`` searches
    the folder in this process, ``SeamcutRetriever(url=SERVICE, k=4, api_key=...)`` asks a
    ``seamcut serve`` service; either way the results of ``seamcut search`` (its ranking, each
    parent once for a parent-child index, ``filters``, the ``budget``: tokens of the model the
    results hold together at most; ``max_tokens``, its old name, deprecated), in its order. The
    search's keywords (``k``, ``mode``, ``filters``, ``budget``, ``api_key``, ``timeout``) may come
    as one ``SearchOptions`` (``options=``); the other keywords go to LlamaIndex's ``BaseRetriever``.

    Each ``NodeWithScore`` holds a ``TextNode`` whose ``id_`` is the chunk's id and whose text is
    the chunk's (for parent-child, the parent's), with the search's score; its metadata has
    ``chunk_id``, the chunk's place and fields and ``rank``, left out of what LlamaIndex embeds
    and shows the model."""

    def __init__(self, db: Any = None, url: str | None = None, *, options: SearchOptions | None = None,
                 **kwargs: Any) -> None:
        ours = {name: kwargs.pop(name) for name in SEARCH_KEYWORDS if name in kwargs}
        self._search = SeamcutSearch(db, url, search_options("SeamcutRetriever", options, ours))
        super().__init__(**kwargs)

    def _retrieve(self, query_bundle: QueryBundle) -> List[NodeWithScore]:
        out = []
        for h in self._search.results(query_bundle.query_str):
            meta = hit_metadata(h)
            node = TextNode(id_=h["chunk"]["id"], text=h["chunk"]["text"], metadata=meta,
                            excluded_embed_metadata_keys=list(meta), excluded_llm_metadata_keys=list(meta))
            out.append(NodeWithScore(node=node, score=h["score"]))
        return out


__all__ = ["SeamcutNodeParser", "SeamcutRetriever"]
