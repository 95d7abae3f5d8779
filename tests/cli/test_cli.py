"""The `seamcut chunk` command, run as a user runs it."""
from __future__ import annotations

import json
import re
import os
import subprocess
import sys
from pathlib import Path

from seamcut.chunks_jsonl import is_document_line
from seamcut.strategies import DEFAULT_STRATEGY

ROOT = Path(__file__).resolve().parents[2]
FIELDS = {"id", "doc_id", "source", "start", "end", "context", "text", "tokens", "pages",
          "heading_path", "language", "strategy", "parent_id", "metadata"}


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "250"}
    return subprocess.run([sys.executable, "-m", "seamcut.cli", *args], capture_output=True,
                          text=True, cwd=cwd, timeout=300, env=env)


def chunk_lines(out: Path | str) -> list[dict]:
    """The chunk lines of ``seamcut chunk``'s JSONL (a file, or the text it printed), without
    the documents' lines."""
    text = out.read_text(encoding="utf-8") if isinstance(out, Path) else out
    return [row for row in map(json.loads, text.splitlines()) if not is_document_line(row)]


def test_chunk_example_folder_writes_every_field(tmp_path):
    out = tmp_path / "chunks.jsonl"
    r = run("chunk", str(ROOT / "examples" / "helpline"), "--strategy", "recursive", "-o", str(out))
    assert r.returncode == 0, r.stderr
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    rows = [x for x in lines if not is_document_line(x)]  # a document's line opens its chunks
    assert rows and all(set(row) == FIELDS for row in rows)
    assert {x["source"] for x in lines if is_document_line(x)} == {row["source"] for row in rows}
    by_source: dict[str, str] = {}
    for row in rows:
        if Path(row["source"]).suffix not in (".txt", ".md"):
            continue
        text = by_source.setdefault(row["source"], Path(row["source"]).read_text(encoding="utf-8"))
        assert text[row["start"]:row["end"]] == row["text"]  # offsets are file offsets
        assert row["tokens"] <= 300 and row["strategy"] == "recursive"
    assert "helpline" in r.stderr  # the summary table


def test_chunk_jsonl_holds_a_documents_metadata_once(tmp_path):
    """Issue 51 point 4: every chunk's line repeated its document's furniture and page extractors
    (78% of a 2.2 MB file). Now a document's line holds them once, before its chunks' lines, which
    keep only their own metadata; read back, the chunks are whole again, and a file of the old
    layout reads as before. (The helpline folder: 180,250 bytes of structure chunks before,
    93,262 after.)"""
    import seamcut
    from seamcut.chunks_jsonl import read_chunks
    from seamcut.diagnose import load_chunks
    pdfs = [ROOT / "examples" / "helpline" / name for name in ("cotton-manual.pdf", "orange-manual.pdf")]
    out = tmp_path / "chunks.jsonl"
    r = run("chunk", *map(str, pdfs), "--strategy", "recursive", "-o", str(out))
    assert r.returncode == 0, r.stderr
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    documents = [x for x in lines if is_document_line(x)]
    assert [d["source"] for d in documents] == [str(p) for p in pdfs]
    assert all({"furniture", "page_extractors", "format"} <= set(d["metadata"]) for d in documents)
    opened = None
    for x in lines:
        if is_document_line(x):
            opened = x["doc_id"]
            continue
        assert x["doc_id"] == opened  # under its document's line
        assert "config" in x["metadata"] and not {"furniture", "page_extractors", "format"} & set(x["metadata"])
    made = [c for p in pdfs for c in seamcut.chunk(seamcut.read(p), strategy="recursive")]
    assert list(read_chunks(out)) == made
    assert [c.text for c in load_chunks(out)] == [c.text for c in made]  # what inspect reads
    old = tmp_path / "old.jsonl"  # chunk lines alone, each with its document's metadata
    old.write_text("".join(json.dumps(c.to_dict(), ensure_ascii=False) + "\n" for c in made), encoding="utf-8")
    assert list(read_chunks(old)) == made and len(load_chunks(old)) == len(made)


def test_bad_inputs_are_named_and_the_rest_still_chunked(tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("Whitefly: 2 ml per litre. Spray in the evening.\n", encoding="utf-8")
    binary = tmp_path / "image.txt"
    binary.write_bytes(b"\x00\x01\x02binary\x00")
    late = tmp_path / "late-binary.md"  # text for 10,000 bytes, then binary data
    late.write_bytes(b"Whitefly dose.\n" * 667 + b"\x00\x01PNG")
    broken = tmp_path / "latin1.txt"
    broken.write_bytes("caf\xe9 au lait".encode("latin-1"))
    pdf = tmp_path / "manual.txt"
    pdf.write_bytes(b"%PDF-1.7\n...")
    empty = tmp_path / "empty.md"
    empty.write_text("", encoding="utf-8")
    folder = tmp_path / "nothing-here"
    folder.mkdir()
    missing = tmp_path / "missing.txt"
    out = tmp_path / "out.jsonl"
    r = run("chunk", str(missing), str(binary), str(good), str(broken), str(pdf), str(empty),
            str(folder), str(late), "-o", str(out))
    assert r.returncode == 1
    err = " ".join(r.stderr.split())
    assert f"{missing}: no such file" in err
    assert f"{binary}: binary file" in err
    assert f"{broken}: not valid utf-8 text: byte 3 (0xe9)" in err
    assert re.search(re.escape(f"{pdf}: ") + r"[^✗]*PDF", err)  # a damaged PDF, named
    assert f"{empty}: empty file" in err
    assert f"{folder}: is a directory" in err
    assert f"{late}: a NUL character at character 10005" in err
    assert "7 of 8 file(s) failed" in err
    assert {row["source"] for row in chunk_lines(out)} == {str(good)}


def test_encoding_option_reads_latin1(tmp_path):
    f = tmp_path / "latin1.txt"
    f.write_bytes("café au lait".encode("latin-1"))
    r = run("chunk", str(f), "--encoding", "latin-1", "--unit", "words", "--size", "50",
            "--overlap", "5")
    assert r.returncode == 0, r.stderr
    row = chunk_lines(r.stdout)[0]
    assert row["text"][len(row["context"]):] == "café au lait"  # recursive: the file's name in front


def test_bad_options_are_refused(tmp_path):
    f = tmp_path / "a.txt"
    f.write_text("some text", encoding="utf-8")
    r = run("chunk", str(f), "--strategy", "magic")
    assert r.returncode == 2 and "unknown strategy" in r.stderr
    r = run("chunk", str(f), "--size", "600")
    assert r.returncode == 2 and "maximum input of 512" in r.stderr
    r = run("chunk", str(f), "--size", "100", "--overlap", "100")
    assert r.returncode == 2 and "overlap" in r.stderr
    r = run("chunk", str(f), "--strategy", "parent-child", "--parents", "pages")
    assert r.returncode == 2 and "parents must be one of sections, blocks" in r.stderr


def test_parent_child_parents_option(tmp_path):
    f = tmp_path / "manual.md"
    f.write_text("# Manual\n\n## Pests\n\nWhitefly: 2 ml per litre.\n\nAphid: 3 ml per litre.\n",
                 encoding="utf-8")
    counts = {}
    for parents in ("sections", "blocks"):
        out = tmp_path / f"{parents}.jsonl"
        r = run("chunk", str(f), "--strategy", "parent-child", "--parents", parents, "-o", str(out))
        assert r.returncode == 0, r.stderr
        rows = chunk_lines(out)
        counts[parents] = sum(row["metadata"]["role"] == "parent" for row in rows)
    assert counts == {"sections": 1, "blocks": 2}
    # the same as a variant spec, as `compare --strategies` takes it; a flag beats the spec
    out = tmp_path / "spec.jsonl"
    r = run("chunk", str(f), "--strategy", "parent-child:parents=blocks:size=30", "--size", "20",
            "-o", str(out))
    assert r.returncode == 0, r.stderr
    rows = chunk_lines(out)
    assert sum(row["metadata"]["role"] == "parent" for row in rows) == 2
    assert all(row["tokens"] <= 20 for row in rows if row["metadata"]["role"] == "child")
    r = run("chunk", str(f), "--strategy", "fixed:unit=words:size=3:overlap=0", "-o", str(out))
    rows = chunk_lines(out)
    assert r.returncode == 0 and all(len(row["text"].split()) <= 3 for row in rows)


def test_context_flag_and_spec_put_the_parts_in_front_of_every_chunk(tmp_path):
    f = tmp_path / "manual.md"
    f.write_text("# Manual\n\n## Pests\n\nWhitefly: 2 ml per litre.\n\nAphid: 3 ml per litre.\n",
                 encoding="utf-8")
    (tmp_path / "catalog.csv").write_text("file,crop\nmanual.md,cotton\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    for how in (["--strategy", "fixed", "--context", "title+fields"], ["--strategy", "fixed:context=fields+title"]):
        r = run("chunk", str(f), *how, "--catalog", str(tmp_path / "catalog.csv"), "-o", str(out))
        assert r.returncode == 0, r.stderr
        rows = chunk_lines(out)
        text = f.read_text(encoding="utf-8")
        assert rows and all(row["context"] == "Manual\ncrop: cotton\n" for row in rows)
        assert all(row["text"] == row["context"] + text[row["start"]:row["end"]] for row in rows)
    r = run("chunk", str(f), "--context", "title+chapter")
    assert r.returncode == 2 and "unknown part 'chapter'" in r.stderr
    assert "page, title, fields, path" in " ".join(r.stderr.split())


def test_chunk_cuts_as_index_does_when_no_strategy_is_named(tmp_path):
    """One default: `seamcut chunk`, `seamcut index` and `seamcut.chunk` cut with the same
    strategy when none is named (``DEFAULT_STRATEGY``, structure)."""
    import seamcut
    from seamcut.readers import read

    f = tmp_path / "manual.md"
    f.write_text("# Manual\n\n## Pests\n\nWhitefly: 2 ml per litre.\n\n## Sowing\n\nSow after rain.\n",
                 encoding="utf-8")
    r = run("chunk", str(f), "-o", str(tmp_path / "chunks.jsonl"))
    assert r.returncode == 0, r.stderr
    rows = chunk_lines(tmp_path / "chunks.jsonl")
    assert {row["strategy"] for row in rows} == {DEFAULT_STRATEGY} == {"structure"}
    assert [row["id"] for row in rows] == [c.id for c in seamcut.chunk(read(f), DEFAULT_STRATEGY)] == \
        [c.id for c in seamcut.chunk(read(f))]
    r = run("chunk", str(f), "--within-paragraph")
    assert r.returncode == 2 and "add --strategy recursive" in r.stderr


def test_every_command_keeps_its_flags_and_defaults():
    """The flags declared once (``seamcut.cli.options``) reach every command that takes them."""
    import typer

    from seamcut.cli import app

    read = {"--encoding", "--catalog", "--ocr", "--languages", "--password"}
    scale = {"--workers", "--timeout", "--memory-cap"}
    engine = {"--engine", "--address", "--ray-gpus"}
    cut = {"--strategy", "-s", "--size", "--overlap", "--parent-size", "--parents", "--context", "--unit",
           "--tokenizer"}
    expected = {
        "chunk": {"paths", "--within-paragraph", "--out", "-o"} | cut | read,
        "read": {"path", "--format", "-f"} | read,
        "inspect": {"args", "--source", "--model", "--size", "--overlap", "--unit", "--json", "--report",
                    "--explain"},
        "index": {"paths", "--db", "--model", "--device", "--rebuild", "--prune", "--wait", "--batch",
                  "--stats"} | cut | read | scale | engine,
        "search": {"query", "--db", "-k", "--mode", "--where", "--read-filters", "--budget", "--max-tokens", "--json"},
        "serve": {"db", "--host", "--port", "--api-key", "--workers", "--log-queries"},
        "compare": {"paths", "--questions", "-q", "--strategies", "-k", "--budget", "--mode", "--filters", "--size",
                    "--overlap", "--unit", "--model", "--device", "--out", "-o", "--named-source", "--json",
                    "--report"} | read | scale | engine,
        "tune": {"paths", "--questions", "-q", "--minutes", "--space", "-k", "--budget", "--held-out",
                 "--seed", "--eta", "--exhaustive", "--versus", "--filters", "--plan", "--model", "--device", "--out", "-o",
                 "--named-source", "--json",
                 "--report"} | read | scale,
        "view": {"paths", "--strategy", "-s", "--compare", "--out", "-o", "--serve", "--port", "--size", "--overlap",
                 "--unit", "--tokenizer", "--model"} | read,
        "questions check": {"questions", "paths", "--named-source", "--json"} | read | scale,
    }
    group = typer.main.get_command(app)
    commands = {}
    for name, command in group.commands.items():  # a group's commands as "group command"
        subs = getattr(command, "commands", None)
        commands.update({f"{name} {s}": c for s, c in subs.items()} if subs else {name: command})
    assert list(commands) == list(expected)
    for name, flags in expected.items():
        params = commands[name].params
        assert {o for p in params for o in p.opts} == flags, name
    # one flag, one spelling: a long flag's short form is the same in every command that has both
    short: dict[str, set[str]] = {}
    for command in commands.values():
        for p in command.params:
            longs = [o for o in p.opts if o.startswith("--")]
            shorts = [o for o in p.opts if not o.startswith("--")]
            for o in longs:
                short.setdefault(o, set()).add(shorts[0] if shorts else "")
    assert short["--out"] == {"-o"}, short["--out"]
    # one flag, one meaning: --json and --report take a FILE (--json also -) and say the same in
    # every command; --budget is the tokens sent to the model per question wherever it is taken
    for flag in ("--json", "--report"):
        same = [p for c in commands.values() for p in c.params if flag in p.opts]
        assert len({p.help for p in same}) == 1 and not any(p.is_flag for p in same), flag
    assert all(p.help.startswith("Tokens sent to the model per question") for c in commands.values()
               for p in c.params if "--budget" in p.opts)
    assert all(len(forms - {""}) <= 1 for forms in short.values()), short
    defaults = {p.name: p.default for p in group.commands["chunk"].params}
    assert defaults["spec"] == DEFAULT_STRATEGY == "structure" and defaults["ocr"] == "auto"  # one default
    assert {p.name: p.default for p in group.commands["index"].params}["spec"] == DEFAULT_STRATEGY
    # one word: the tokens sent per question are --budget; --max-tokens, its old name, is hidden
    assert [p.hidden for p in group.commands["search"].params if "--max-tokens" in p.opts] == [True]
