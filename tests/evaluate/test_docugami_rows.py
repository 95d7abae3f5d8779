"""The docugami benchmark's rows (benchmarks/docugami) are what its hand review says: every upstream
question has a verdict, the rows kept are the ones the review keeps, with the phrases it read.
(That each phrase is in its filing is checked by ``derive.py`` itself, which reads the 20 filings.)"""
from __future__ import annotations

import csv
import functools
import importlib.util
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
HERE = ROOT / "benchmarks" / "docugami"


@functools.cache
def _derive():
    spec = importlib.util.spec_from_file_location("docugami_derive", HERE / "derive.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_every_question_reviewed_and_rows_follow_the_review(data_dir: Path) -> None:
    derive = _derive()
    with open(data_dir / "docugami-10q" / "qna_data.csv", encoding="utf-8-sig", newline="") as fh:
        upstream = len(list(csv.DictReader(fh)))
    reviewed = derive.load_reviewed(HERE / "reviewed.yaml")
    assert sorted(reviewed) == [f"dg-{n:03d}" for n in range(1, upstream + 1)]
    rows = {r["id"]: r for r in yaml.safe_load((HERE / "questions.yaml").read_text(encoding="utf-8"))}
    kept = {q for q, v in reviewed.items() if v["verdict"] in ("ok", "replace", "add")}
    assert set(rows) == kept
    for qid in kept:
        said = reviewed[qid].get("must_contain")
        assert said, f"{qid}: the review pins the phrases it read"
        assert sorted(rows[qid]["must_contain"]) == sorted(said), qid


@pytest.mark.parametrize(("answer", "expected"), [
    ("net sales were $82,959 million", ["82,959"]),
    ("expenses were $122.584 billion", ["122,584"]),  # a table's millions read out as billions
    ("$36.1 billion, 15.7%, June 25, 2022, Item 2", ["36.1 billion", "15.7%"]),
])
def test_figures_as_filings_print_them(answer: str, expected: list[str]) -> None:
    assert _derive().figures(answer) == expected
