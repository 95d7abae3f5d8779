"""A contestant as one value (``seamcut.peers.spec``): parsed once, every fault named, options
typed by the library's own defaults, and the same pickled value in a worker."""
from __future__ import annotations

import pickle

import pytest

from seamcut.errors import ConfigError, MissingError
from seamcut.peers import LIBRARIES, PeerSpec, is_peer, library, parse_contestant
from seamcut.peers.spec import PeerReader, adapter_code
from seamcut.strategies.spec import StrategySpec


def test_a_library_spec_keeps_its_own_option_names_and_types() -> None:
    spec = parse_contestant("langchain:recursive:chunk_size=1000:chunk_overlap=200:strip_whitespace=false")
    assert isinstance(spec, PeerSpec) and spec.name == "langchain:recursive" and spec.reader == "own"
    assert spec.options == {"chunk_size": 1000, "chunk_overlap": 200, "strip_whitespace": False}
    assert dict(spec.versions)["langchain-text-splitters"] == library("langchain").versions()["langchain-text-splitters"]
    assert spec.reads == PeerReader("langchain", spec.versions, adapter_code("langchain"))
    assert pickle.loads(pickle.dumps(spec)) == spec
    assert spec.describe()["splitter"] == "RecursiveCharacterTextSplitter"


def test_reader_seamcut_cuts_seamcut_reading() -> None:
    spec = parse_contestant("langchain:recursive:reader=seamcut")
    assert spec.reader == "seamcut" and spec.reads is None and spec.options == {}
    assert spec.describe()["reader"] == "seamcut"


def test_seamcut_words_stay_seamcut_strategies() -> None:
    assert isinstance(parse_contestant("parent-child:parents=blocks"), StrategySpec)
    assert not is_peer("structure") and is_peer("chunks:x.jsonl") and is_peer("chonkie:recursive")
    assert set(LIBRARIES) == {"langchain", "llamaindex", "chonkie", "unstructured", "pymupdf4llm", "docling"}


@pytest.mark.parametrize("text, message", [
    ("langchain", "has no chunker ''"),
    ("lanchain:recursive", "unknown strategy 'lanchain'; choose from .*langchain, llamaindex"),
    ("langchain:recursve", "has no chunker 'recursve'; it has recursive"),
    ("langchain:recursive:chunk_sise=10", "has no option 'chunk_sise'"),
    ("langchain:recursive:chunk_size", "is not OPTION=VALUE"),
    ("langchain:recursive:chunk_size=big", "chunk_size must be a whole number, not 'big'"),
    ("langchain:recursive:strip_whitespace=maybe", "strip_whitespace must be true or false"),
    ("langchain:recursive:reader=pypdf", "reader must be one of own, seamcut"),
])
def test_a_bad_spec_is_named(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message) as got:
        parse_contestant(text)
    assert repr(text) in str(got.value)


def test_a_library_missing_is_one_line_naming_its_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib import metadata
    real = metadata.version

    def version(name: str) -> str:
        if name == "langchain-text-splitters":
            raise metadata.PackageNotFoundError(name)
        return real(name)
    monkeypatch.setattr(metadata, "version", version)
    with pytest.raises(MissingError) as got:
        parse_contestant("langchain:recursive")
    assert str(got.value) == ("the langchain contestant needs langchain-text-splitters: "
                              "pip install 'seamcut[langchain]'")


@pytest.mark.parametrize("name", sorted(LIBRARIES))
def test_every_library_parses_or_names_its_extra(name: str) -> None:
    """Each adapter's first chunker: parsed where its library is installed, else one line naming
    the pip extra (never an ImportError's traceback)."""
    lib = library(name)
    chunker = next(iter(lib.chunkers))
    try:
        spec = parse_contestant(f"{name}:{chunker}")
    except MissingError as exc:
        assert f"pip install 'seamcut[{lib.extra}]'" in str(exc) and "\n" not in str(exc)
        assert any(v == "missing" for v in lib.versions().values())
    else:
        assert spec.describe()["versions"] == lib.versions() and "missing" not in lib.versions().values()
