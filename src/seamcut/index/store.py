"""The LanceDB tables of an index folder, on disk under ``lance/``:

* ``chunks``: what is searched: one row per chunk (per child for parent-child), with its vector
  and its text under an ICU full-text index (ICU word breaks keep Devanagari words whole, where a
  split at every non-letter cuts ``प्रति`` at its virama);
* ``parents``: parent-child parents, handed to the model in place of the children that matched;
* ``documents``: each file's hash and document metadata (kept once, not on every chunk row).

Rows are deleted and written per document; the full-text and id indexes are kept up to date.
Searches read a ``View``: the tables as the writer last published them (``Store.publish``, at
each point where the tables agree), so a search running beside a writer never sees a batch half
written (a file's old rows deleted and its new ones not yet added) and never mixes two states.
"""
from __future__ import annotations

import functools
import json
import os
import uuid
from datetime import timedelta
from pathlib import Path
from typing import Any, Iterable, Sequence

import numpy as np

from ..model import Chunk
from ..readers.found_fields import ALIASES
from .filters import NOT_FILTERS, Filter, filter_kind, to_where
from .rows import arrow_table, chunk_from_row, document_fields, fit, schema, sql_in, sql_str

#: filter fields a question's words are not matched against: where a chunk sits, not what its
#: document is
NOT_ASKED = frozenset({"source", "file", "heading", "page_start", "page_end"})

TABLES = ("chunks", "parents", "documents")
#: each table's version that searches read, written by the writer (``Store.publish``)
SNAPSHOT_FILE = "seamcut-snapshot.json"
#: how old a table version must be for ``cleanup`` to delete its files (a reader of a recent
#: version is safe; a long build's early batches go; the version published is never deleted)
OLD_VERSIONS = timedelta(minutes=10)
#: the most chunk rows read for a field's values (``View.values``: what a message names)
VALUES_SCAN = 100_000
#: for an ``optimize`` that must not delete versions (one a search may still be reading)
_KEEP = timedelta(days=36500)
# the columns a search reads back (not the vector, the text or the filter columns: the chunk JSON
# has it all); naming _distance/_score keeps LanceDB from warning about their auto-projection
HIT_COLUMNS = ["id", "doc_id", "parent_id", "chunk"]
_VECTOR_HIT = HIT_COLUMNS + ["_distance"]
_TEXT_HIT = HIT_COLUMNS + ["_score"]


class Store:
    """An index folder's tables, and its rows as chunks (document fields put back)."""

    def __init__(self, folder: Path) -> None:
        import lancedb
        self.folder = folder
        self.db = lancedb.connect(str(folder / "lance"))
        self._doc_fields: dict[str, dict[str, Any]] = {}
        self._view: tuple[str, View] | None = None  # (the snapshot file's text, its view)

    def tables(self) -> set[str]:
        listing = self.db.list_tables()
        return set(getattr(listing, "tables", listing))

    def table(self, name: str) -> Any:
        return self.db.open_table(name)

    def drop_uncommitted(self) -> list[str]:
        """Remove each table whose creation was killed before its first version was committed
        (LanceDB lists its folder, which holds data files and no manifest, yet cannot open it,
        and a write would then fail on it); the tables removed. For the writer, under its lock:
        such a table held no row, and the next write creates it afresh."""
        import shutil
        dropped = []
        for name in sorted(self.tables()):
            folder = self.folder / "lance" / f"{name}.lance"
            if any(folder.glob("_versions/*.manifest")):
                continue
            try:
                self.table(name)
            except ValueError:  # "Table ... was not found": listed, never committed
                shutil.rmtree(folder)
                dropped.append(name)
        return dropped

    # -- writing -------------------------------------------------------------------------------

    def delete(self, doc_ids: Iterable[str]) -> None:
        """Every row of these documents, in every table."""
        ids = sorted(set(doc_ids))
        if not ids:
            return
        present = self.tables()
        for name in ("documents", "chunks", "parents"):  # the commit record first (journal.py)
            if name in present:
                self.table(name).delete(sql_in("doc_id", ids))
        self._doc_fields.clear()  # a replaced file's fields may change

    def write(self, name: str, rows: list[dict[str, Any]], dim: int | None) -> None:
        """Append rows, creating the table or adding the columns they bring (``dim``: vector size)."""
        if not rows:
            return
        if name not in self.tables():
            self.db.create_table(name, data=arrow_table(rows, schema(rows, dim)))
            return
        t = self.table(name)
        have = t.schema
        missing = [f for f in schema(rows, dim) if f.name not in have.names]
        if missing:
            t.add_columns(missing)
            have = t.schema
        t.add(arrow_table([fit(r, have) for r in rows], have))

    def documents(self) -> dict[str, dict[str, Any]]:
        """Each stored document's row by source: ``hash``, ``doc_id``, ``chunks`` and ``path``
        (the file's absolute path when it was indexed; for an index written before it was
        kept, the source's absolute path from here)."""
        if "documents" not in self.tables():
            return {}
        t = self.table("documents")
        columns = [c for c in ("source", "hash", "doc_id", "chunks", "metadata") if c in t.schema.names]
        rows = t.search().select(columns).limit(None).to_list()
        return {r["source"]: {"hash": r["hash"], "doc_id": r["doc_id"], "chunks": r.get("chunks"),
                              "path": _indexed_path(r)} for r in rows}

    def versions(self) -> dict[str, int]:
        """Each table's version now (to go back to with ``restore``)."""
        return {name: self.table(name).version for name in self.tables()}

    def restore(self, versions: dict[str, int]) -> None:
        """Put every table back as it was at ``versions`` (``versions()``'s); a table made since
        is dropped. Each restore is one small LanceDB commit that points at the old files."""
        for name in self.tables():
            if name not in versions:
                self.db.drop_table(name)
            elif self.table(name).version != versions[name]:
                self.table(name).restore(versions[name])
        self._doc_fields.clear()

    def missing_indexes(self, parent_words: bool) -> list[str]:
        """What the tables lack to be searched as ``reindex_text`` leaves them: ``table.kind``
        for each index not made (``FTS``: the full-text index, ``BTree``: the id index), and
        ``table.rows`` where rows were written after its full-text index was (those are searched
        without it, word by word, until folded in)."""
        present = self.tables()
        out = []
        for name in ("chunks", "parents"):
            if name not in present:
                continue
            table = self.table(name)
            indexes = {ix.index_type: ix.name for ix in table.list_indices()}
            if "BTree" not in indexes:
                out.append(f"{name}.BTree")
            if name == "chunks" or parent_words:
                if "FTS" not in indexes:
                    out.append(f"{name}.FTS")
                elif table.index_stats(indexes["FTS"]).num_unindexed_rows:
                    out.append(f"{name}.rows")
        return out

    def is_indexed(self, parent_words: bool = False) -> bool:
        """Whether every table has its indexes and every row is in its full-text index (True
        for no table)."""
        return not self.missing_indexes(parent_words)

    def reindex_text(self, parent_words: bool) -> None:
        """Bring the tables up to date after writing: create the full-text index (on ``chunks``,
        and on ``parents`` where ``parent_words``) and the id index once; afterwards fold new
        rows into them (``optimize``, which costs the new rows only). ``optimize`` also merges
        the small files that batch writes leave; it deletes no version (a search may be reading
        the one published: ``cleanup``, after the next ``publish``). Each step is a LanceDB
        commit: killed at any moment, the tables are as before or after it, and
        ``missing_indexes`` says what is left."""
        from lancedb.index import FTS, BTree
        for name in TABLES:
            if name not in self.tables():
                continue
            table = self.table(name)
            kinds = {ix.index_type for ix in table.list_indices()}
            table.optimize(cleanup_older_than=_KEEP)
            if name == "documents":
                continue
            if "BTree" not in kinds:  # rows are fetched by id (parents, in-memory vector hits)
                table.create_index("id", replace=True, config=BTree())
            if "FTS" not in kinds and (name == "chunks" or parent_words):
                table.create_index("text", replace=True, config=FTS(
                    base_tokenizer="icu", lower_case=True, stem=True, remove_stop_words=True,
                    ascii_folding=False))

    def cleanup(self) -> None:
        """Delete the files of versions older than ``OLD_VERSIONS`` (after ``publish``: the version
        searches read is the latest, and a search that read the one before for a moment is safe
        while that is recent)."""
        for name in self.tables():
            self.table(name).optimize(cleanup_older_than=OLD_VERSIONS)

    # -- reading -------------------------------------------------------------------------------

    def publish(self) -> None:
        """Make each table's version now the state searches read (``view``): the writer calls it
        wherever the tables agree (a batch written, undone or recovered; the text index brought
        up to date). Written to a new file and renamed: a reader sees the old state or the new."""
        tmp = self.folder / (SNAPSHOT_FILE + ".tmp")
        # an id of its own: the same versions published by a rebuilt folder are other tables
        state = {"tables": self.versions(), "id": uuid.uuid4().hex}
        tmp.write_text(json.dumps(state, sort_keys=True), encoding="utf-8")
        tmp.replace(self.folder / SNAPSHOT_FILE)
        self._doc_fields.clear()  # a replaced file's fields may change

    def is_published(self) -> bool:
        """Whether a state is published in a form this code reads (else the writer publishes)."""
        try:
            state = json.loads((self.folder / SNAPSHOT_FILE).read_text(encoding="utf-8"))
            return isinstance(state["tables"], dict)
        except (OSError, ValueError, KeyError, TypeError):
            return False

    def view(self) -> "View":
        """The tables as last published, for one search. Opened again only when another state
        was published since (checking costs one small file read); an index never published (made
        before publishing was) is read as its tables are now."""
        try:
            published = (self.folder / SNAPSHOT_FILE).read_text(encoding="utf-8")
        except FileNotFoundError:
            return self._latest()
        if self._view is None or self._view[0] != published:
            tables = {}
            try:
                for name, version in json.loads(published)["tables"].items():
                    table = self.table(name)
                    table.checkout(version)
                    tables[name] = pinned(table)
            except (ValueError, KeyError, TypeError, OSError, RuntimeError):
                # the version was cleaned up under a reader that looked just before the writer
                # published the next (``cleanup``), or the file is not one this code wrote: the
                # tables as they are now (they agree there as well)
                return self._latest()
            self._doc_fields.clear()
            self._view = (published, View(tables, self._doc_fields, published))
        return self._view[1]


    def _latest(self) -> "View":
        """The tables as they are now, opened afresh (not cached: nothing says when they change)."""
        return View({name: self.table(name) for name in self.tables()}, self._doc_fields)


@functools.lru_cache(maxsize=None)
def _pinned_class(cls: type) -> type:
    class Pinned(cls):  # type: ignore[valid-type,misc]
        @functools.cached_property
        def schema(self) -> Any:
            return super().schema
    Pinned.__name__ = Pinned.__qualname__ = f"Pinned{cls.__name__}"
    return Pinned


def pinned(table: Any) -> Any:
    """``table``, checked out at one version, with its schema read once. LanceDB reads a table's
    schema from its dataset again for every query it builds, three or four times a query (a round
    trip to its background thread each): in ``seamcut serve`` that was 47% of a search's time,
    and at one version the schema cannot change."""
    table.__class__ = _pinned_class(type(table))
    return table


class View:
    """An index's tables at one published state (``Store.view``), and its rows as chunks
    (document fields put back). What one search reads."""

    def __init__(self, tables: dict[str, Any], doc_fields: dict[str, dict[str, Any]],
                 state: str | None = None) -> None:
        self.tables = tables
        self._doc_fields = doc_fields
        #: the published state it is (the snapshot file's text; None: the tables as they were
        #: when opened, never published): the same table versions of a folder built again are
        #: another state
        self.state = state
        self._sources: dict[str, str] | None = None
        self._values: dict[str, list[Any]] = {}
        self._asked: dict[str, dict[Any, list[str]]] | None = None
        self._asked_docs: list[tuple[dict[str, Any], dict[str, Any]]] | None = None

    def __contains__(self, name: str) -> bool:
        return name in self.tables

    def version(self, name: str) -> int:
        return int(self.tables[name].version)

    @property
    def state_id(self) -> str | None:
        """The published state's id (None: never published), the same in every process that
        reads this state."""
        try:
            return json.loads(self.state)["id"] if self.state else None
        except (ValueError, KeyError, TypeError):
            return None

    def filter_fields(self) -> dict[str, str]:
        """The chunk columns a search can be filtered on, and the kind of value each takes
        (``filters.filter_kind``): the place and language columns and the documents' fields."""
        if "chunks" not in self.tables:
            return {}
        fields = {f.name: filter_kind(f.type) for f in self.tables["chunks"].schema}
        return {name: kind for name, kind in fields.items() if kind and name not in NOT_FILTERS}

    def structured(self, filters: Sequence[Filter]) -> str | None:
        """The SQL of structured ``filters`` (``filters.to_where``), checked against this state's
        fields; a filter on ``source`` names files as ``filters.sources_named`` says."""
        if not filters:
            return None
        return to_where(filters, self.filter_fields(),
                        self.sources() if any(f.field == "source" for f in filters) else None)

    def sources(self) -> dict[str, str]:
        """Each file's source as stored, and its absolute path when it was indexed."""
        if self._sources is None:
            rows = self.columns("documents", ["source", "metadata"])
            self._sources = {r["source"]: _indexed_path(r) for r in (rows.to_pylist() if rows is not None else [])}
        return self._sources

    def matches(self, where: str | None) -> int:
        """How many chunks ``where`` (SQL on the chunk columns) holds for."""
        return self.tables["chunks"].count_rows(where) if "chunks" in self.tables else 0

    def values(self, field: str) -> list[Any]:
        """The values a filter field holds, sorted, without nulls (for ``source``, every file's;
        else those of the first ``VALUES_SCAN`` chunk rows)."""
        if field not in self._values:
            if field == "source":
                self._values[field] = sorted(self.sources())
            else:
                import pyarrow.compute as pc
                got = self.tables["chunks"].search().select([field]).limit(VALUES_SCAN).to_arrow()
                self._values[field] = sorted(pc.unique(got.column(field)).drop_null().to_pylist())
        return self._values[field]

    def asked_values(self) -> dict[str, dict[Any, list[str]]]:
        """What a question is matched against (``Reading.asked``): per document field a search
        can be filtered on (not the place columns: ``NOT_ASKED``), the values the documents hold,
        each with its aliases (a catalog's ``Apple|AAPL``: the documents' ``aliases``), read
        once per state from the documents' rows."""
        if self._asked is None:
            out: dict[str, dict[Any, list[str]]] = {}
            for fields, aliases in self.asked_documents():
                for f, v in fields.items():
                    have = out.setdefault(f, {}).setdefault(v, [])
                    have += [a for a in aliases.get(f, ()) if isinstance(a, str) and a not in have]
            order = [f for f in self.filter_fields() if f in out]
            self._asked = {f: out[f] for f in order}
        return self._asked

    def asked_documents(self) -> list[tuple[dict[str, Any], dict[str, Any]]]:
        """Each document's values of the fields a question is matched against (``asked_values``:
        text and whole numbers) and its aliases of them (``{field: [alias, ...]}``), read once
        per state from the documents' rows."""
        if self._asked_docs is None:
            names = [f for f in self.filter_fields() if f not in NOT_ASKED]
            rows = self.columns("documents", ["metadata", "language"])
            self._asked_docs = []
            for r in rows.to_pylist() if rows is not None else []:
                meta = {**json.loads(r["metadata"] or "{}"), "language": r.get("language")}
                aliases = meta.get(ALIASES) if isinstance(meta.get(ALIASES), dict) else {}
                self._asked_docs.append(({f: meta[f] for f in names if isinstance(meta.get(f), (str, int))
                                          and not isinstance(meta.get(f), bool)}, aliases))
        return self._asked_docs

    def count(self) -> int:
        """Rows in the ``chunks`` table: the searchable chunks."""
        return self.tables["chunks"].count_rows() if "chunks" in self.tables else 0

    def vector_rows(self, vector: np.ndarray, where: str | None, n: int) -> list[dict[str, Any]]:
        """The ``n`` chunk rows nearest to ``vector`` by cosine (exact scan), with ``_distance``."""
        q = self.tables["chunks"].search(vector, vector_column_name="vector").distance_type("cosine")
        return _filtered(q.select(_VECTOR_HIT), where).limit(n).to_list()

    def text_rows(self, name: str, text: str, where: str | None, n: int) -> list[dict[str, Any]]:
        """The ``n`` best rows of table ``name`` for ``text`` by BM25, with ``_score``."""
        return text_rows(self.tables[name], text, where, n)

    def vectors(self, dim: int) -> tuple[list[str], np.ndarray]:
        """Every chunk's id and vector (rows of ``dim`` float32)."""
        data = self.tables["chunks"].search().select(["id", "vector"]).limit(None).to_arrow()
        flat = data.column("vector").combine_chunks().values.to_numpy(zero_copy_only=False)
        return data.column("id").to_pylist(), np.asarray(flat, dtype=np.float32).reshape(-1, dim)

    def columns(self, name: str, columns: list[str]) -> Any:
        """Every row of table ``name``, these columns, as an Arrow table (None: no such table)."""
        if name not in self.tables:
            return None
        return self.tables[name].search().select(columns).limit(None).to_arrow()

    def rows(self, name: str, ids: Sequence[str], columns: list[str] | None = None) -> list[dict[str, Any]]:
        """The rows of these ids (in the table's order; every column where ``columns`` is None)."""
        if not ids or name not in self.tables:
            return []
        q = self.tables[name].search().where(sql_in("id", ids))
        return (q.select(columns) if columns else q).limit(len(ids)).to_list()

    def chunk(self, row: dict[str, Any]) -> Chunk:
        """The chunk of a row, with its document's fields."""
        doc_id = row["doc_id"]
        if doc_id not in self._doc_fields:
            found = (self.tables["documents"].search().where(f"doc_id = {sql_str(doc_id)}").limit(1).to_list()
                     if "documents" in self.tables else [])
            self._doc_fields[doc_id] = document_fields(found[0] if found else None)
        return chunk_from_row(row, self._doc_fields[doc_id])

    def all_chunks(self) -> list[Chunk]:
        """Every searchable chunk, in document order."""
        if "chunks" not in self.tables:
            return []
        rows = self.tables["chunks"].search().select(["chunk", "doc_id"]).limit(None).to_list()
        return sorted((self.chunk(r) for r in rows), key=lambda c: (c.source, c.start, c.end))


def text_rows(table: Any, text: str, where: str | None, n: int) -> list[dict[str, Any]]:
    """The ``n`` best rows of ``table`` for ``text`` by BM25, with ``_score`` (none for an empty
    query)."""
    if not text:
        return []
    q = table.search(text, query_type="fts", fts_columns="text").select(_TEXT_HIT)
    return _filtered(q, where).limit(n).to_list()


def _filtered(q: Any, where: str | None) -> Any:
    return q.where(where, prefilter=True) if where else q


def _indexed_path(row: dict[str, Any]) -> str:
    path = json.loads(row.get("metadata") or "{}").get("indexed_path")
    return path or os.path.abspath(row["source"])
