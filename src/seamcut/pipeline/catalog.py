"""Document fields from a catalog file: what a team knows about each document.

A catalog is CSV (a header row with ``file`` and any other columns) or YAML (a list of mappings
with ``file``, or a mapping from file to fields), e.g. ``file, doc_type, crop, year, language``.
Fields land on the document's metadata and so on every chunk; ``language`` also sets the
document's language, ``title`` its title. A catalog's field overrides the one seamcut finds in
the text under the same name (``title``, ``date``, ``period``, ``year``, ``folder``:
``seamcut.readers.found_fields``) and extends them with its others.

A cell may hold alternatives separated by ``|`` (``Apple|AAPL``, ``cotton|कापूस|कपास``): the
first is the field's value, the others its aliases, kept on the document's metadata under
``aliases`` (``{"company": ["AAPL"]}``) and written after the value in a chunk's ``fields``
context (``company: Apple (AAPL)``). ``|`` always separates; an empty alternative (``Apple|``,
``a||b``) is an error naming the row and the field.

A catalog names files of its own folder (the corpus folder) and below: a row that points elsewhere
(``../../etc/passwd``, an absolute path outside, a symlink out of the folder) is an error naming
the row, so a catalog handed over with a corpus cannot reach other files.

What a catalog cannot mean is an error naming the file, the line and the entry, the key and why:
a row without ``file`` (a ``File`` or ``path`` column in its place), a YAML row that is not a
mapping, a column with no name or twice, a cell beyond the header, a file named twice, and a
field under a name seamcut sets itself (``RESERVED``), which would overwrite it or be overwritten.
"""
from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..keys import nearest
from ..readers.found_fields import ALIASES

#: a field name seamcut sets itself, with why a catalog field cannot have it: it would overwrite
#: what seamcut put there or be overwritten, or search filters on seamcut's own in its place
RESERVED: dict[str, str] = {
    **dict.fromkeys(("format", "extractor", "pages", "page_extractors", "page_sizes", "page_notes",
                     "body_font_size", "ocr_rotation", "ocr_languages", "furniture", "warnings"),
                    "seamcut's reader sets it on the document"),
    **dict.fromkeys(("catalog_fields", "indexed_path", "found_fields"),
                    "seamcut keeps a note of its own under it"),
    "aliases": "a catalog's alternatives of its fields go under it ('Apple|AAPL' in a cell)",
    **dict.fromkeys(("config", "role", "children", "held_by_model", "boxes", "semantic"),
                    "seamcut sets it on each chunk"),
    **dict.fromkeys(("id", "doc_id", "source", "start", "end", "page_start", "page_end", "heading",
                     "strategy", "parent_id", "tokens", "text", "chunk", "vector"),
                    "it is a column of the index, which `search --where` filters on in its place"),
    **dict.fromkeys(("chunk_id", "start_index", "context", "heading_path"),
                    "a LangChain or LlamaIndex chunk carries seamcut's own under it"),
}
#: names a column or key naming each row's file may have been given in place of ``file``
_FILE_LIKE = ("path", "filename", "file_name", "filepath", "file_path", "name", "document", "doc")


class Catalog:
    """Fields per file, looked up by path (relative to the catalog's folder or as given), then
    by file name."""

    def __init__(self, entries: dict[str, dict[str, Any]], base: Path) -> None:
        self.entries = entries
        self.base = base
        self._by_name: dict[str, dict[str, Any]] = {}
        for key, fields in entries.items():
            self._by_name.setdefault(Path(key).name, fields)

    def fields_for(self, path: str | Path) -> dict[str, Any]:
        p = Path(path)
        for key in (str(p), p.as_posix()):
            if key in self.entries:
                return dict(self.entries[key])
        try:
            rel = p.resolve().relative_to(self.base.resolve()).as_posix()
            if rel in self.entries:
                return dict(self.entries[rel])
        except ValueError:
            pass
        return dict(self._by_name.get(p.name, {}))


def _clean(value: Any) -> Any:
    if isinstance(value, str):
        v = value.strip()
        if v.isdigit():
            return int(v)
        return v
    return value


def _alternatives(catalog: Path, at: str, name: str, value: Any) -> tuple[Any, list[str]]:
    """A cell's value and its aliases: ``Apple|AAPL`` gives ``("Apple", ["AAPL"])`` (the value
    as ``_clean`` makes it, the aliases as text); ``InputError`` for an empty alternative."""
    if not isinstance(value, str) or "|" not in value:
        return _clean(value), []
    parts = [v.strip() for v in value.split("|")]
    if not all(parts):
        raise InputError(catalog, f"{at}: field {name!r} has an empty alternative in {value!r} "
                                  "('|' separates a value from its aliases, as in 'Apple|AAPL')")
    return _clean(parts[0]), parts[1:]


def _inside(catalog: Path, at: str, name: str) -> None:
    """Raise ``InputError`` where the file ``name`` of the row ``at`` is not in the catalog's
    folder (links followed)."""
    base = catalog.parent.resolve()
    try:
        target = (base / name).resolve()
    except (OSError, RuntimeError) as exc:  # a symlink loop
        raise InputError(catalog, f"{at} (file {name!r}) cannot be resolved: {exc}") from None
    if not target.is_relative_to(base):
        raise InputError(catalog, f"{at} (file {name!r}) points outside the catalog's folder "
                                  f"{base} (to {target}); list only files of the corpus folder")


def _no_file(keys: list[Any]) -> str:
    """Why a row or header without ``file`` cannot be read, naming a key that may have been meant."""
    near = next((k for k in keys if isinstance(k, str) and (k.strip().casefold() in _FILE_LIKE
                                                              or nearest(k.strip(), ["file"]))), None)
    hint = f"; rename {near!r} to 'file' if it names the files" if near is not None else ""
    return f"no 'file' (the file each row gives fields of){hint}"


def _field(catalog: Path, at: str, key: Any) -> str:
    """The field name ``key`` of the row ``at``, stripped; ``InputError`` for one seamcut cannot
    take (not a word, or ``RESERVED``)."""
    if not isinstance(key, str):
        raise InputError(catalog, f"{at}: field name {key!r} is not a word")
    if not key.strip():
        raise InputError(catalog, f"{at}: a field with no name")
    name = key.strip()
    if name in RESERVED:
        raise InputError(catalog, f"{at}: field {name!r} is a name seamcut sets itself ({RESERVED[name]}); "
                                  "give the field another name")
    return name


def _csv_rows(p: Path, raw: str) -> list[tuple[int, dict[str, Any]]]:
    """The rows of a CSV catalog with the line each ends on, its header checked (line 1)."""
    reader = csv.DictReader(raw.splitlines())
    if reader.fieldnames is None:
        return []
    header = [h.strip() for h in reader.fieldnames]
    if "file" not in header:
        raise InputError(p, f"line 1: {_no_file(header)}; columns: {', '.join(header)}")
    for i, name in enumerate(header):
        if name != "file":
            _field(p, f"line 1, column {i + 1}", name)
        if header.index(name) < i:
            raise InputError(p, f"line 1: column {name!r} is there twice")
    rows = []
    for row in reader:
        if None in row:
            raise InputError(p, f"line {reader.line_num}: more cells than the header has columns")
        rows.append((reader.line_num, {k.strip(): v for k, v in row.items()}))
    return rows


def _yaml_rows(p: Path, raw: str) -> list[tuple[int, Any]]:
    """The rows of a YAML catalog (a list of mappings, or a mapping from file to fields) with the
    line each starts on."""
    import yaml

    from ..keys import load_yaml

    try:
        data, lines = load_yaml(raw)
    except yaml.YAMLError as exc:
        raise InputError(p, f"not valid YAML: {exc}") from None
    if isinstance(data, list):
        return [(lines.get((i,), 0), item) for i, item in enumerate(data)]
    if not isinstance(data, dict):
        raise InputError(p, "a catalog is a list of entries with a 'file' field")
    rows = []
    for n, (name, fields) in enumerate(data.items(), 1):
        line = lines.get((str(name),), 0)
        if not isinstance(fields, (dict, type(None))):
            raise InputError(p, f"line {line}, entry {n} ({name!r}): a catalog maps each file to its "
                                "fields (a mapping)")
        if fields and "file" in fields:
            raise InputError(p, f"line {line}, entry {n} ({name!r}): 'file' among its fields; the key "
                                "it is under is its file")
        rows.append((line, {"file": name, **(fields or {})}))
    return rows


def load_catalog(path: str | Path) -> Catalog:
    """Read a CSV or YAML catalog; a malformed one, or one with a row or field seamcut cannot
    take, raises ``InputError`` naming the file, the line and the entry."""
    p = Path(path)
    try:
        raw = p.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise InputError(p, exc.strerror or str(exc)) from None
    except UnicodeDecodeError as exc:
        raise InputError(p, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    rows = _yaml_rows(p, raw) if p.suffix.lower() in (".yaml", ".yml") else _csv_rows(p, raw)
    entries: dict[str, dict[str, Any]] = {}
    first: dict[str, str] = {}
    for n, (line, item) in enumerate(rows, 1):
        at = f"line {line}, entry {n}" if line else f"entry {n}"
        if not isinstance(item, dict):
            raise InputError(p, f"{at} is a {type(item).__name__}, not a mapping of fields with 'file'")
        if not item.get("file"):
            raise InputError(p, f"{at} has {_no_file([k for k in item if k != 'file'])}")
        name = str(item["file"]).strip()
        _inside(p, at, name)
        if name in first:
            raise InputError(p, f"{at} names {name!r} again ({first[name]} did); give each file one row")
        first[name] = at
        entries[name] = _fields(p, at, item)
    return Catalog(entries, p.parent)


def _fields(catalog: Path, at: str, item: dict[Any, Any]) -> dict[str, Any]:
    """The fields of the row ``at`` (``file`` and empty cells left out), with their aliases
    under ``ALIASES`` where a cell gives some."""
    fields: dict[str, Any] = {}
    aliases: dict[str, list[str]] = {}
    for k, v in item.items():
        if k == "file" or v in (None, ""):
            continue
        key = _field(catalog, at, k)
        fields[key], more = _alternatives(catalog, at, key, v)
        if more:
            aliases[key] = more
    if aliases:
        fields[ALIASES] = aliases
    return fields
