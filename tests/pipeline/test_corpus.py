"""Reading a batch: processes, the parsed-document cache, and failures kept in order."""
from __future__ import annotations

from seamcut.pipeline.corpus import ReadOptions, read_corpus


def test_cache_serves_unchanged_files_and_rereads_changed_ones(tmp_path):
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nWhitefly: 2 ml per litre.\n", encoding="utf-8")
    (docs / "b.txt").write_text("Aphid: 3 ml per litre.\n", encoding="utf-8")
    cache = tmp_path / "cache"
    first = read_corpus([docs], cache=cache, progress=False, workers=2)
    assert [d.source.rsplit("/", 1)[-1] for d in first.documents] == ["a.md", "b.txt"]
    assert len(list(cache.glob("*.json"))) == 2 and set(first.hashes) == {d.source for d in first.documents}
    again = read_corpus([docs], cache=cache, progress=False, workers=1)
    assert again.documents == first.documents and again.hashes == first.hashes
    (docs / "b.txt").write_text("Aphid: 4 ml per litre.\n", encoding="utf-8")
    third = read_corpus([docs], cache=cache, progress=False)
    assert "4 ml" in third.documents[1].text and third.documents[0] == first.documents[0]
    assert third.hashes[third.documents[1].source] != first.hashes[first.documents[1].source]
    assert len(list(cache.glob("*.json"))) == 3
    # another reading option is another cache entry, not a stale hit
    read_corpus([docs / "a.md"], options=ReadOptions(encoding="latin-1"), cache=cache, progress=False)
    assert len(list(cache.glob("*.json"))) == 4


def test_a_moved_corpus_is_served_from_the_cache_as_a_fresh_read_gives_it(tmp_path):
    import shutil
    docs = tmp_path / "docs"
    docs.mkdir()
    (docs / "a.md").write_text("# A\n\nWhitefly: 2 ml per litre.\n", encoding="utf-8")
    (docs / "page.txt").write_text("<!doctype html><p>Aphid: 3 ml per litre.</p>\n", encoding="utf-8")
    cache = tmp_path / "cache"
    read_corpus([docs], cache=cache, progress=False, workers=1)
    assert len(list(cache.glob("*.json"))) == 2
    moved = tmp_path / "elsewhere" / "docs"
    shutil.copytree(docs, moved)
    got = read_corpus([moved], cache=cache, progress=False, workers=1)
    assert len(list(cache.glob("*.json"))) == 2  # both served from the cache, no new entry
    fresh = read_corpus([moved], cache=False, progress=False, workers=1)
    assert got.documents == fresh.documents and got.hashes == fresh.hashes
    warning = got.documents[1].metadata["warnings"][0]
    assert warning.startswith(f"{moved / 'page.txt'}: named .txt") and str(docs) not in warning
    # the name counts (its ending can choose the reader): a renamed copy is read again
    (moved / "page.txt").rename(moved / "page.html")
    read_corpus([moved / "page.html"], cache=cache, progress=False, workers=1)
    assert len(list(cache.glob("*.json"))) == 3


def test_failures_are_listed_and_the_rest_read(tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("Spray in the evening.\n", encoding="utf-8")
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"")
    corpus = read_corpus([tmp_path / "missing.txt", empty, good], cache=False, progress=False, workers=2)
    assert [d.source for d in corpus.documents] == [str(good)]
    reasons = [str(f) for f in corpus.failures]
    assert reasons[0] == f"{tmp_path / 'missing.txt'}: no such file"
    assert reasons[1].startswith(f"{empty}: empty file")
