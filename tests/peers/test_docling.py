"""The docling contestant's refusals: with the hub offline and an empty artifacts folder, reading
names the missing model and HybridChunker names its missing tokenizer; nothing is fetched.

Skipped where docling is not installed: it is not in the test environment (it brings torch,
transformers, opencv and scipy: about 1.8 GB with CPU torch). Where docling's models and the
tokenizer are in the Hugging Face cache, the chunk test compares with HybridChunker called
directly."""
from __future__ import annotations

import os

import pytest

from seamcut.errors import ConfigError, MissingError
from tests.helpers.data import DATA

pytest.importorskip("docling")
from seamcut.peers import docling as peer  # noqa: E402

PDF = DATA / "pdfs" / "docling" / "multi_page.pdf"


def test_refuses_with_an_empty_artifacts_folder(tmp_path, monkeypatch):
    from docling.datamodel.settings import settings  # docling reads DOCLING_ARTIFACTS_PATH at import
    monkeypatch.setenv("DOCLING_ARTIFACTS_PATH", str(tmp_path))
    monkeypatch.setattr(settings, "artifacts_path", tmp_path)
    before = os.environ.get("HF_HUB_OFFLINE")
    with pytest.raises(MissingError, match="docling-tools models download") as err:
        peer.read(str(PDF))
    assert str(tmp_path) in str(err.value)
    assert list(tmp_path.iterdir()) == []  # nothing was fetched into it
    assert os.environ.get("HF_HUB_OFFLINE") == before  # the offline switch is the call's only


def test_refuses_a_tokenizer_not_in_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HOME", str(tmp_path))  # an empty Hugging Face cache
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    from huggingface_hub import constants
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    with pytest.raises(MissingError, match="sentence-transformers/all-MiniLM-L6-v2"):
        peer.cut("hybrid", [], {})
    assert not (tmp_path / "hub").exists() or not any((tmp_path / "hub").iterdir())


def test_options_are_hybridchunkers_fields():
    from docling.chunking import HybridChunker
    opts = peer.options("hybrid")
    assert opts["tokenizer"] == peer.DEFAULT_TOKENIZER and opts["max_tokens"] is None
    assert opts["merge_peers"] == HybridChunker.model_fields["merge_peers"].default
    with pytest.raises(ConfigError, match="hybrid"):
        peer.options("hierarchical")
    with pytest.raises(ConfigError, match="max_tokes"):
        peer.cut("hybrid", [], {"max_tokes": 5})


def test_chunks_equal_hybridchunker_called_directly():
    try:
        pieces = peer.read(str(PDF))
        got = peer.cut("hybrid", pieces, {"max_tokens": 128})
    except MissingError as exc:
        pytest.skip(f"docling's models are not installed here: {exc}")
    from docling.chunking import HybridChunker
    from docling.document_converter import DocumentConverter
    from docling_core.transforms.chunker.tokenizer.huggingface import HuggingFaceTokenizer
    with peer.offline():
        doc = DocumentConverter().convert(str(PDF)).document
        chunker = HybridChunker(tokenizer=HuggingFaceTokenizer.from_pretrained(
            model_name=peer.DEFAULT_TOKENIZER, max_tokens=128))
        want = list(chunker.chunk(dl_doc=doc))
    assert [c.text for c in got] == [chunker.contextualize(chunk=w) for w in want]
    assert [c.metadata["raw"] for c in got] == [w.text for w in want]
    assert all(c.pages for c in got) and got[-1].pages[-1] == 5
