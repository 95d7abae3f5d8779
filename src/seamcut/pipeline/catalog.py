"""Document fields from a catalog file: what a team knows about each document.

A catalog is CSV (a header row with ``file`` and any other columns) or YAML (a list of mappings
with ``file``, or a mapping from file to fields), e.g. ``file, doc_type, crop, year, language``.
Fields land on the document's metadata and so on every chunk; ``language`` also sets the
document's language.

A catalog names files of its own folder (the corpus folder) and below: a row that points elsewhere
(``../../etc/passwd``, an absolute path outside, a symlink out of the folder) is an error naming
the row, so a catalog handed over with a corpus cannot reach other files.
"""
from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from ..errors import InputError


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


def _inside(catalog: Path, n: int, name: str) -> None:
    """Raise ``InputError`` where row ``n``'s file ``name`` is not in the catalog's folder (links
    followed)."""
    base = catalog.parent.resolve()
    try:
        target = (base / name).resolve()
    except (OSError, RuntimeError) as exc:  # a symlink loop
        raise InputError(catalog, f"entry {n} (file {name!r}) cannot be resolved: {exc}") from None
    if not target.is_relative_to(base):
        raise InputError(catalog, f"entry {n} (file {name!r}) points outside the catalog's folder "
                                  f"{base} (to {target}); list only files of the corpus folder")


def load_catalog(path: str | Path) -> Catalog:
    """Read a CSV or YAML catalog; a malformed one raises ``InputError`` naming it."""
    p = Path(path)
    try:
        raw = p.read_text(encoding="utf-8-sig")
    except OSError as exc:
        raise InputError(p, exc.strerror or str(exc)) from None
    except UnicodeDecodeError as exc:
        raise InputError(p, f"not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    entries: dict[str, dict[str, Any]] = {}
    if p.suffix.lower() in (".yaml", ".yml"):
        import yaml

        try:
            data = yaml.safe_load(raw)
        except yaml.YAMLError as exc:
            raise InputError(p, f"not valid YAML: {exc}") from None
        if isinstance(data, dict) and not all(isinstance(v, (dict, type(None))) for v in data.values()):
            raise InputError(p, "a catalog maps each file to its fields (a mapping)")
        items = ([{"file": k, **(v or {})} for k, v in data.items()] if isinstance(data, dict)
                 else data if isinstance(data, list) else None)
        if items is None:
            raise InputError(p, "a catalog is a list of entries with a 'file' field")
    else:
        items = list(csv.DictReader(raw.splitlines()))
    for n, item in enumerate(items, 1):
        if not isinstance(item, dict) or not item.get("file"):
            raise InputError(p, f"entry {n} has no 'file'")
        _inside(p, n, str(item["file"]).strip())
        fields = {k.strip(): _clean(v) for k, v in item.items()
                  if k and k.strip() != "file" and v not in (None, "")}
        entries[str(item["file"]).strip()] = fields
    return Catalog(entries, p.parent)
