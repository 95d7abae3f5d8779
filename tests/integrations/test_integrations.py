"""seamcut inside LangChain and LlamaIndex: the same chunks as seamcut.chunk, with offsets."""
from __future__ import annotations

import pytest

import seamcut

TEXT = ("# Cotton manual\n\n## Pests\n\n### Whitefly\n\nMix 2 ml per litre and spray in the "
        "evening. Check the underside of the leaves again after seven days.\n\n### Aphids\n\n"
        "Mix 3 ml per litre. Mix 2 ml per litre and spray in the evening.\n\n"
        + "Spray neem oil on cotton at dusk when whitefly numbers rise. " * 12)


def same(chunks, texts, spans):
    assert texts == [c.text for c in chunks]
    assert spans == [(c.start, c.end) for c in chunks]


# -- LangChain ------------------------------------------------------------------------------------

def test_langchain_splitter_gives_seamcut_chunks():
    pytest.importorskip("langchain_text_splitters")
    from seamcut.integrations.langchain import SeamcutTextSplitter

    ref = seamcut.chunk(TEXT, strategy="recursive", size=40, overlap=10)
    sp = SeamcutTextSplitter(strategy="recursive", size=40, overlap=10)
    assert sp.split_text(TEXT) == [c.text for c in ref]
    docs = sp.create_documents([TEXT], [{"source": "cotton.md", "crop": "cotton"}])
    ref = seamcut.chunk(seamcut.Document.from_text(TEXT, source="cotton.md"), strategy="recursive",
                        size=40, overlap=10)  # ids hash the source too
    same(ref, [d.page_content for d in docs], [(d.metadata["start"], d.metadata["end"]) for d in docs])
    for d, c in zip(docs, ref):
        assert d.metadata["start_index"] == c.start
        assert d.metadata["chunk_id"] == c.id and d.metadata["tokens"] == c.tokens
        assert d.metadata["crop"] == "cotton" and d.metadata["strategy"] == "recursive"
        assert TEXT[c.start:c.end] == d.page_content[len(d.metadata["context"]):]


def test_langchain_loader_keeps_structure_for_the_splitter(tmp_path):
    pytest.importorskip("langchain_core")
    pytest.importorskip("langchain_text_splitters")
    from seamcut.integrations.langchain import SeamcutLoader, SeamcutTextSplitter

    path = tmp_path / "cotton.md"
    path.write_text(TEXT, encoding="utf-8")
    loaded = SeamcutLoader(tmp_path).load()
    assert len(loaded) == 1 and loaded[0].page_content == TEXT
    assert loaded[0].metadata["source"] == str(path)
    ref = seamcut.chunk(seamcut.read(path), strategy="structure", size=60, overlap=0)
    assert any(c.context for c in ref)  # heading paths: the structure came through
    split = SeamcutTextSplitter(strategy="structure", size=60, overlap=0).split_documents(loaded)
    same(ref, [d.page_content for d in split], [(d.metadata["start"], d.metadata["end"]) for d in split])
    assert split[-1].metadata["heading_path"] == list(ref[-1].heading_path)
    direct = SeamcutLoader(path, strategy="structure", size=60, overlap=0).load()
    assert [d.page_content for d in direct] == [c.text for c in ref]


# -- LlamaIndex -----------------------------------------------------------------------------------

def test_llamaindex_node_parser_gives_seamcut_chunks_and_offsets():
    pytest.importorskip("llama_index.core")
    from llama_index.core.schema import Document as LIDocument, MetadataMode, NodeRelationship

    from seamcut.integrations.llamaindex import SeamcutNodeParser

    # repeated sentences: LlamaIndex alone would re-find offsets with str.find
    ref = seamcut.chunk(TEXT, strategy="recursive", size=40, overlap=10)
    doc = LIDocument(text=TEXT, metadata={"crop": "cotton"})
    nodes = SeamcutNodeParser(strategy="recursive", size=40, overlap=10).get_nodes_from_documents([doc])
    same(ref, [n.text for n in nodes], [(n.start_char_idx, n.end_char_idx) for n in nodes])
    for n, c in zip(nodes, ref):
        assert n.node_id == c.id and n.metadata["tokens"] == c.tokens
        assert n.ref_doc_id == doc.doc_id
        # what LlamaIndex embeds: the user's own metadata, then exactly seamcut's text
        assert n.get_content(MetadataMode.EMBED).endswith(c.text.strip())  # LlamaIndex strips
        assert "chunk_id" not in n.get_content(MetadataMode.EMBED)
    assert nodes[1].relationships[NodeRelationship.PREVIOUS].node_id == nodes[0].node_id


# -- the retrievers' search -----------------------------------------------------------------------

def test_the_search_sends_a_service_the_budget_by_its_name(monkeypatch):
    """``budget`` (tokens of the model the results hold together) goes to ``seamcut serve`` as
    ``budget``; ``max_tokens``, its old name, still works with a DeprecationWarning at the caller."""
    import io
    import json
    import urllib.request

    from seamcut.errors import ConfigError
    from seamcut.integrations.search import SeamcutSearch
    sent = []

    def urlopen(req, timeout):
        sent.append(json.loads(req.data))
        return io.BytesIO(b'{"results": [], "state": null, "request_id": "r", "warnings": []}')
    monkeypatch.setattr(urllib.request, "urlopen", urlopen)
    assert SeamcutSearch(url="http://127.0.0.1:1", budget=300).results("dose") == []
    with pytest.warns(DeprecationWarning, match="max_tokens is deprecated") as caught:
        old = SeamcutSearch(url="http://127.0.0.1:1", max_tokens=300)
    assert caught[0].filename == __file__
    old.results("dose")
    SeamcutSearch(url="http://127.0.0.1:1").results("dose")
    assert [s.get("budget") for s in sent] == [300, 300, None]
    assert not any("max_tokens" in s for s in sent) and "budget" not in sent[2]  # an older service takes it
    with pytest.raises(ConfigError, match="give budget or max_tokens"):
        SeamcutSearch(url="http://127.0.0.1:1", budget=1, max_tokens=1)
