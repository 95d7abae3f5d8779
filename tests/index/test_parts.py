"""The index's parts on their own, without LanceDB or a model: settings, fusion, the in-memory
vector matrix and rankings grouped by parent."""
from __future__ import annotations

import json

import numpy as np
import pytest

from seamcut.index import SETTINGS_FILE, IndexConfigError, ReciprocalRankFusion, Scored
from seamcut.index.matrix import Matrix, fits
from seamcut.index.search import by_parent, combine
from seamcut.index.settings import Settings


def test_settings_derive_the_parent_text_rank_save_it_and_refuse_another(tmp_path):
    assert Settings.new("parent-child", {"parents": "blocks"}, None).parent_text_rank == "parents"
    assert Settings.new("parent-child", {}, None).parent_text_rank == "children"
    s = Settings.new("parent-child", {"size": 40}, "default", parent_text_rank="parents")
    s.save(tmp_path)
    saved = json.loads((tmp_path / SETTINGS_FILE).read_text())
    assert saved["parent_text_rank"] == "parents" and saved["format"] == 1
    assert Settings.load(tmp_path) == s
    with pytest.raises(IndexConfigError, match="built with parent_text_rank 'parents', not 'children'"):
        s.check(tmp_path, None, None, None, "children")
    with pytest.raises(ValueError, match="parent_text_rank must be one of"):
        Settings.new("parent-child", {}, None, parent_text_rank="both")  # type: ignore[arg-type]


def test_settings_written_before_the_parent_text_rank_open_as_their_options_say(tmp_path):
    """An index saved without the field ranks as it did: parents by BM25 for parents=blocks."""
    for parents, rank in (("blocks", "parents"), ("sections", "children")):
        folder = tmp_path / parents
        folder.mkdir()
        old = {"format": 1, "strategy": "parent-child", "options": {"parents": parents},
               "model": "default", "embedder": "e5", "dim": 384, "files": {}}
        (folder / SETTINGS_FILE).write_text(json.dumps(old))
        assert Settings.load(folder).parent_text_rank == rank
    (tmp_path / "v2").mkdir()
    (tmp_path / "v2" / SETTINGS_FILE).write_text(json.dumps({**old, "format": 2}))
    with pytest.raises(IndexConfigError, match="index format 2"):
        Settings.load(tmp_path / "v2")
    assert Settings.load(tmp_path / "none") is None


def _ranking(ids, sims=None):
    return [Scored(i, {"id": i}, 1.0, None if sims is None else sims[n]) for n, i in enumerate(ids)]


def test_reciprocal_rank_fusion_by_hand():
    vector = _ranking(["a", "b", "d"], [0.9, 0.8, 0.7])
    text = _ranking(["b", "c", "e"])
    fused = ReciprocalRankFusion().fuse(vector, text)
    assert [s.id for s in fused] == ["b", "a", "c", "d", "e"]  # a (1/61) and c (1/62) before d (1/63)
    assert fused[0].score == pytest.approx(1 / 62 + 1 / 61)
    assert [s.similarity for s in fused] == [0.8, 0.9, None, 0.7, None]
    # a tie goes to the higher similarity, then to the id
    tied = ReciprocalRankFusion().fuse(_ranking(["x"], [0.1]), _ranking(["y"]))
    assert [s.id for s in tied] == ["x", "y"]
    assert [s.id for s in ReciprocalRankFusion().fuse([], _ranking(["z", "y"]))] == ["z", "y"]
    assert combine("text", vector, text, ReciprocalRankFusion()) == text


def test_by_parent_keeps_each_parent_where_its_best_child_is():
    rows = [Scored("c1", {"id": "c1", "parent_id": "p1"}, 3.0, 0.5),
            Scored("c2", {"id": "c2", "parent_id": "p2"}, 2.0, None),
            Scored("c3", {"id": "c3", "parent_id": "p1"}, 1.0, 0.9),
            Scored("c4", {"id": "c4", "parent_id": None}, 0.5, 0.1)]
    assert [(s.id, s.score, s.similarity) for s in by_parent(rows)] == [
        ("p1", 3.0, 0.5), ("p2", 2.0, None), ("c4", 0.5, 0.1)]


def test_matrix_nearest_is_the_exact_cosine_order():
    rng = np.random.default_rng(1)
    vectors = rng.standard_normal((50, 8)).astype(np.float32)
    vectors[7] = vectors[3] * 2  # same direction: a tie, kept in row order
    m = Matrix.of(1, [f"id{i}" for i in range(50)], vectors)
    q = vectors[3] + 0.01
    sims = (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)) @ (q / np.linalg.norm(q))
    got = m.nearest(q, 5)
    assert [i for i, _ in got] == [f"id{i}" for i in np.argsort(-sims, kind="stable")[:5]]
    assert [s for _, s in got] == pytest.approx(sorted(sims, reverse=True)[:5], abs=1e-6)
    assert len(m.nearest(q, 80)) == 50
    assert fits(1000, 384, 1000 * 384 * 4) and not fits(1001, 384, 1000 * 384 * 4) and not fits(1, 0)


def test_sources_named_by_name_path_or_absolute_path():
    import os

    from seamcut.index.filters import sources_named
    held = {"../mydocs/R-data.pdf": os.path.abspath("../mydocs/R-data.pdf"), "b/R-data.pdf": "/srv/b/R-data.pdf",
            "c\\d\\x.pdf": "/w/c/d/x.pdf"}
    assert sources_named("../mydocs/R-data.pdf", held) == ["../mydocs/R-data.pdf"]  # as stored
    assert sources_named("R-data.pdf", held) == ["../mydocs/R-data.pdf", "b/R-data.pdf"]  # every file of the name
    assert sources_named("mydocs/R-data.pdf", held) == sources_named("./mydocs/R-data.pdf", held) == [
        "../mydocs/R-data.pdf"]
    assert sources_named("/srv/b/R-data.pdf", held) == ["b/R-data.pdf"]  # the same file, absolute
    assert sources_named("d/x.pdf", held) == ["c\\d\\x.pdf"]  # a Windows path's parts
    assert sources_named("data.pdf", held) == sources_named("", held) == sources_named(".", held) == []


def test_a_field_of_many_values_is_said_by_the_nearest_few():
    from seamcut.index.filters import Filter
    from seamcut.index.unmatched import unmatched

    class Held:  # a View's answers, without LanceDB
        def __contains__(self, name):
            return True

        def filter_fields(self):
            return {"crop": "text", "year": "integer"}

        def structured(self, filters):
            return " AND ".join(f"{f.field}={f.value}" for f in filters)

        def matches(self, where):
            return 0

        def values(self, field):
            return [2019, 2026] if field == "year" else sorted(f"crop{i:02}" for i in range(40)) + ["cotton", "wheat"]
    said = unmatched(Held(), [Filter("crop", "eq", "Cotton"), Filter("crop", "eq", "weat"), Filter("year", "gt", 2030)])
    assert said[0] == "crop = 'Cotton' matches no chunk of the index; crop holds e.g. 'cotton' (of 42 values)"
    assert said[1].startswith("crop = 'weat' matches no chunk of the index; crop holds e.g. 'wheat', ")  # nearest first
    assert said[1].count(", '") == 4 and said[1].endswith(" (of 42 values)")  # five of them
    assert said[2] == "year > 2030 matches no chunk of the index; year holds 2019 to 2026"
