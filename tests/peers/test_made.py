"""``chunks:PATH``: a file of chunks made anywhere, read line by line with every fault named."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from seamcut.errors import ConfigError, InputError
from seamcut.peers import ChunksSpec, parse_contestant
from seamcut.peers.made import chunks_for


def _write(path: Path, *rows: object) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows), encoding="utf-8")
    return path


def test_chunks_are_found_by_path_or_name_in_order(tmp_path: Path) -> None:
    f = _write(tmp_path / "c.jsonl",
               {"text": "one", "source": "docs/a.pdf", "page": 2},
               {"text": "two", "source": "docs/a.pdf", "pages": [2, 3], "embedded": "A / two"},
               {"text": "three", "source": "b.txt", "headings": ["B", "Part"]})
    spec = parse_contestant(f"chunks:{f}")
    assert isinstance(spec, ChunksSpec) and spec.options == {"path": str(f)}
    got = chunks_for(str(f), "/elsewhere/docs/a.pdf")
    assert [(p.text, p.pages) for p in got] == [("one", (2,)), ("two", (2, 3))]
    assert got[1].metadata == {"embedded": "A / two"}
    assert chunks_for(str(f), "b.txt")[0].metadata == {"headings": ["B", "Part"]}
    assert chunks_for(str(f), "c.pdf") == []


def test_a_name_two_sources_share_matches_neither(tmp_path: Path) -> None:
    f = _write(tmp_path / "c.jsonl", {"text": "x", "source": "2023/a.pdf"}, {"text": "y", "source": "2024/a.pdf"})
    assert chunks_for(str(f), "a.pdf") == []
    assert [p.text for p in chunks_for(str(f), "2024/a.pdf")] == ["y"]


@pytest.mark.parametrize("row, reason", [
    ("{not json", "line 2: not JSON"),
    ('["a list"]', "line 2: not an object"),
    ({"source": "a.pdf"}, "line 2: no 'text'"),
    ({"text": "x"}, "line 2: no 'source'"),
    ({"text": "x", "source": "a.pdf", "pgae": 3}, "line 2: unknown key 'pgae'"),
    ({"text": "x", "source": "a.pdf", "page": 0}, "line 2: page(s) must be whole numbers from 1"),
])
def test_a_bad_line_is_named(tmp_path: Path, row: object, reason: str) -> None:
    f = _write(tmp_path / "bad.jsonl", {"text": "fine", "source": "a.pdf"}, row)
    with pytest.raises(InputError, match=reason.replace("(", r"\(").replace(")", r"\)")) as got:
        parse_contestant(f"chunks:{f}")
    assert str(f) in str(got.value)


def test_a_missing_or_empty_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="chunks:.*nothing.jsonl"):
        parse_contestant(f"chunks:{tmp_path / 'nothing.jsonl'}")
    with pytest.raises(ConfigError, match="give the file"):
        parse_contestant("chunks:")
    with pytest.raises(InputError, match="no chunks"):
        parse_contestant(f"chunks:{_write(tmp_path / 'empty.jsonl', '')}")


def test_a_relative_path_is_kept_absolute(tmp_path: Path, monkeypatch) -> None:
    _write(tmp_path / "c.jsonl", {"text": "x", "source": "a.pdf"})
    monkeypatch.chdir(tmp_path)
    spec = parse_contestant("chunks:c.jsonl")
    assert spec.label == "chunks:c.jsonl" and spec.path == str(tmp_path / "c.jsonl")


def test_a_changed_file_is_read_again(tmp_path: Path) -> None:
    f = _write(tmp_path / "c.jsonl", {"text": "old", "source": "a.pdf"})
    assert [p.text for p in chunks_for(str(f), "a.pdf")] == ["old"]
    _write(f, {"text": "new, longer", "source": "a.pdf"})
    assert [p.text for p in chunks_for(str(f), "a.pdf")] == ["new, longer"]
