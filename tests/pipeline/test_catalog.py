"""A catalog refuses what it cannot mean: a row without `file`, a row that is not a mapping, a
column with no name or twice, a file named twice, a field under a name seamcut sets itself; each
error names the file, the line and entry, the key and why."""
from __future__ import annotations

from pathlib import Path

import pytest

import seamcut
from seamcut.errors import InputError
from seamcut.pipeline.catalog import RESERVED, load_catalog

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name, text, says", [
    # no `file`: the column or key that looks meant for it is named
    ("File.csv", "File,crop\ncotton.md,cotton\n",
     "line 1: no 'file' (the file each row gives fields of); rename 'File' to 'file' if it names the files; "
     "columns: File, crop"),
    ("path.yaml", "- {file: cotton.md, crop: cotton}\n- {path: orange.md, crop: orange}\n",
     "line 2, entry 2 has no 'file' (the file each row gives fields of); rename 'path' to 'file'"),
    ("notmap.yaml", "- {file: cotton.md}\n- orange.md\n", "line 2, entry 2 is a str, not a mapping of fields"),
    ("inner.yaml", "cotton.md: {crop: cotton}\norange.md: {file: other.md}\n",
     "line 2, entry 2 ('orange.md'): 'file' among its fields"),
    # a field under a name seamcut sets itself: overwritten, overwriting, or not the one filtered on
    ("source.csv", "file,source,crop\ncotton.md,ministry,cotton\n",
     "line 1, column 2: field 'source' is a name seamcut sets itself (it is a column of the index, which "
     "`search --where` filters on in its place); give the field another name"),
    ("format.yaml", "- file: cotton.md\n  crop: cotton\n- file: orange.md\n  format: leaflet\n",
     "line 3, entry 2: field 'format' is a name seamcut sets itself (seamcut's reader sets it on the document)"),
    ("config.csv", "file,config\ncotton.md,a\n", "field 'config' is a name seamcut sets itself (seamcut sets it on each chunk)"),
    # the CSV's shape
    ("blank.csv", "file,,crop\ncotton.md,x,cotton\n", "line 1, column 2: a field with no name"),
    ("twice.csv", "file,crop,crop\ncotton.md,cotton,okra\n", "line 1: column 'crop' is there twice"),
    ("wide.csv", "file,crop\ncotton.md,cotton\norange.md,orange,2026\n", "line 3: more cells than the header has columns"),
    # the same file twice: which row's fields count is not for seamcut to guess
    ("again.csv", "file,crop\ncotton.md,cotton\norange.md,orange\ncotton.md,okra\n",
     "line 4, entry 3 names 'cotton.md' again (line 2, entry 1 did); give each file one row"),
    ("number.yaml", "- {file: cotton.md, 2025: yes}\n", "line 1, entry 1: field name 2025 is not a word"),
])
def test_what_a_catalog_cannot_mean_is_an_error_naming_the_line(tmp_path, name, text, says):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as e:
        load_catalog(p)
    assert str(e.value).startswith(f"{p}: ") and says in str(e.value), str(e.value)


def test_the_fields_a_catalog_may_give_load(tmp_path):
    """``language`` and ``title`` are fields seamcut takes on purpose; any other name of the user's
    is a field; the repository's catalogs load."""
    p = tmp_path / "catalog.yaml"
    p.write_text("- {file: cotton.md, crop: cotton, language: en, title: Cotton manual, path: crops/cotton}\n",
                 encoding="utf-8")
    assert load_catalog(p).fields_for("cotton.md") == {"crop": "cotton", "language": "en",
                                                       "title": "Cotton manual", "path": "crops/cotton"}
    (tmp_path / "map.yaml").write_text("cotton.md: {crop: cotton}\norange.md:\n", encoding="utf-8")
    assert load_catalog(tmp_path / "map.yaml").entries == {"cotton.md": {"crop": "cotton"}, "orange.md": {}}
    (tmp_path / "empty.csv").write_text("", encoding="utf-8")
    assert load_catalog(tmp_path / "empty.csv").entries == {}
    (tmp_path / "spaced.csv").write_text(" file , crop \ncotton.md,cotton\n", encoding="utf-8")
    assert load_catalog(tmp_path / "spaced.csv").entries == {"cotton.md": {"crop": "cotton"}}
    for catalog in (ROOT / "examples" / "helpline" / "catalog.csv", ROOT / "benchmarks" / "docugami" / "catalog.csv"):
        assert load_catalog(catalog).entries


def test_the_reserved_names_are_those_seamcut_sets():
    """Every name seamcut itself puts on a document's or a chunk's metadata (a PDF read, chunks
    cut by parent-child), on an index row or on a LangChain/LlamaIndex chunk is reserved: a catalog
    field under it would be overwritten, overwrite seamcut's, or not be the one filtered on."""
    from seamcut.index.rows import _CORE
    from seamcut.integrations import CHUNK_KEYS
    from seamcut.strategies.chunks import DOCUMENT_ONLY

    from seamcut.readers.found_fields import ON_METADATA
    # the catalog's key; fields seamcut takes on purpose: the language, and those it finds in the
    # text (title, date, period, year, folder), which a catalog's field overrides
    taken = {"file", "language", *ON_METADATA}
    doc = seamcut.read(ROOT / "examples" / "helpline" / "cotton-manual.pdf", fields={"crop": "cotton"})
    chunks = seamcut.chunk(doc, strategy="parent-child")
    set_by_seamcut = (set(doc.metadata) | {k for c in chunks for k in c.metadata}) - {"crop"}
    assert set_by_seamcut - taken <= set(RESERVED), set_by_seamcut - taken - set(RESERVED)
    assert (set(_CORE) | set(DOCUMENT_ONLY) | set(CHUNK_KEYS)) - taken <= set(RESERVED)
    assert not taken & set(RESERVED)
