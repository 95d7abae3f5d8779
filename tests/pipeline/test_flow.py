"""The one build loop (``seamcut.pipeline.flow``, issue 52 point 1): no other module of src keeps
a build's bookkeeping, and chunks already made enter a run through the same door as a strategy,
to the same rows."""
from __future__ import annotations

import ast
import warnings
from pathlib import Path

import pytest

import seamcut
import seamcut.index as index_package
from seamcut.index import Index
from seamcut.pipeline.corpus import read_corpus
from seamcut.pipeline.jobs import Made
from seamcut.pipeline.options import BuildOptions
from seamcut.pipeline.report import BuildReport
from seamcut.pipeline.run import build_documents, build_index
from seamcut.strategies.spec import parse_spec
from tests.helpers.build_runs import index_rows
from tests.helpers.small_docs import write_docs

SRC = Path(__file__).resolve().parents[2] / "src" / "seamcut"

#: a build's bookkeeping, each part a call: a file counted as unchanged (``*.unchanged.append``),
#: a batch stored in an index (``index.write``, ``self.index.write``, or ``self.write`` of a
#: list of cuts within ``Index``), a written batch counted (``written``), a file's reading and
#: cutting counted (``account_read``)
PARTS = ("unchanged", "write", "written", "account_read")


def _parts(tree: ast.AST) -> set[str]:
    """Which of ``PARTS`` a module's code calls."""
    found = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id in ("written", "account_read"):
            found.add(f.id)
        elif isinstance(f, ast.Attribute):
            owner = f.value
            if f.attr == "append" and isinstance(owner, ast.Attribute) and owner.attr == "unchanged":
                found.add("unchanged")
            elif f.attr == "write" and node.args and not (isinstance(node.args[0], ast.List)
                                                          and not node.args[0].elts):  # not a removal
                name = owner.attr if isinstance(owner, ast.Attribute) else getattr(owner, "id", "")
                if name in ("index", "self"):
                    found.add("write")
    return found


def build_loops() -> dict[str, set[str]]:
    """The modules of src that keep any of a build's bookkeeping (``PARTS``), with the parts."""
    out = {}
    for f in sorted(SRC.rglob("*.py")):
        parts = _parts(ast.parse(f.read_text(encoding="utf-8")))
        if parts & {"unchanged", "written", "account_read"} or (parts and f.name == "folder.py"):
            out[f.relative_to(SRC).as_posix()] = parts
    return out


def test_one_module_keeps_the_build_loops_bookkeeping():
    """Only ``pipeline/flow.py`` counts files unchanged, stores batches and counts them; the engines
    (``local.py``, ``ray_engine.py``, ``here.py``) and ``Index.update`` say where the stages run and
    call it (before issue 52, local.py, ray_engine.py and index/folder.py each had a copy)."""
    assert build_loops() == {"pipeline/flow.py": set(PARTS)}


@pytest.mark.parametrize("source, parts", [
    ("report.unchanged.append(p)\nindex.write(cuts)\nwritten(i, r, c, k, b, s)", set(PARTS) - {"account_read"}),
    ("self.write([], held)", set()),
    ("self.index.write([c for c, _ in cuts])\naccount_read(r, got)", {"write", "account_read"}),
    ("fh.write('x')\nlines.append(1)", set()),
])
def test_the_bookkeeping_is_found_in_code(source, parts):
    assert _parts(ast.parse(source)) == parts


@pytest.fixture(scope="module")
def docs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("docs")
    write_docs(folder)
    corpus = read_corpus([folder / "docs"], cache=False, progress=False, workers=1)
    return folder / "docs", corpus


def _rows(db):
    """An index's rows, in the order of their ids (a build's batches come in any order)."""
    return {table: sorted(rows, key=lambda r: r["id"] if table == "chunks" else r["doc_id"])
            for table, rows in index_rows(db).items()}


def test_chunks_already_made_give_the_rows_of_a_run_that_cut_them(tmp_path, docs):
    """A run fed chunks already made (``Made``) writes the rows, chunk ids included, of a run that
    cut the same documents with the strategy: in memory (``build_documents``) and from files in
    the reading workers (``build_index``), through the one door (``jobs.Cutting``)."""
    folder, corpus = docs
    spec = parse_spec("recursive:size=64:overlap=0")
    made = Made.of(c for d in corpus.documents for c in seamcut.chunk(d, spec))

    def index(name):
        return Index(tmp_path / name, strategy=spec.name, options=spec.options, model="default")

    cut = build_documents(index("cut"), corpus.documents, spec, corpus.hashes)
    given = build_documents(index("given"), corpus.documents, made, corpus.hashes)
    assert isinstance(cut, BuildReport) and cut.chunks == given.chunks == len([c for cs in made.chunks.values()
                                                                               for c in cs])
    assert sorted(cut.added) == sorted(given.added) and len(cut.added) == 3
    assert _rows(tmp_path / "cut") == _rows(tmp_path / "given")

    how = BuildOptions(progress=False, cache=False)
    from_files = build_index(index("files-cut"), [folder], spec, how)
    from_made = build_index(index("files-given"), [folder], made, how)
    assert from_files.chunks == from_made.chunks == cut.chunks and not from_made.failures
    assert _rows(tmp_path / "files-cut") == _rows(tmp_path / "files-given")
    assert [r["id"] for r in _rows(tmp_path / "files-cut")["chunks"]] == \
           [r["id"] for r in _rows(tmp_path / "cut")["chunks"]]  # the same chunk ids, whichever engine


def test_index_update_is_the_one_loop_and_its_old_report_name_warns(tmp_path, docs):
    _, corpus = docs
    ix = Index(tmp_path / "db", strategy="structure", model="default")
    report = ix.update(corpus.documents, lambda d: seamcut.chunk(d, strategy="structure"), corpus.hashes)
    assert isinstance(report, BuildReport) and len(report.added) == 3 and report.chunks == ix.count()
    assert report.stages["cut"].items == 3 and report.stages["write"].items == report.chunks
    again = ix.update(corpus.documents, lambda d: seamcut.chunk(d, strategy="structure"), corpus.hashes)
    assert len(again.unchanged) == 3 and again.chunks == 0
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        assert index_package.UpdateReport is BuildReport
    assert any(issubclass(w.category, DeprecationWarning) for w in got)
