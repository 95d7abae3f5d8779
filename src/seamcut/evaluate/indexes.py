"""The indexes ``compare`` and ``tune`` judge: built once per strategy, and reused.

Files are indexed by ``seamcut.pipeline.run.build_index`` (``index_files``); an index an earlier
run left is reused where it was built with the same options, model, embedder, reading inputs
(``inputs_digest``: reading options, catalog fields and ``code_version``) from files all still
named, and not built at all where it holds every file as it is now (``Digests``). Documents
given in memory are cut in this process into a fresh index instead (``index_documents``: the
same loop, ``build_documents``). Also: which
files each index lacks, and the warning where strategies were judged on different files.
"""
from __future__ import annotations

import hashlib
import json
import time
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..embed import CachedEmbedder, Embedder
from ..index import Index, IndexConfigError, remove_index
from ..model import Document
from ..pipeline.catalog import Catalog
from ..pipeline.corpus import ReadOptions, file_hash
from ..pipeline.jobs import sized_spec
from ..pipeline.report import BuildReport
from ..pipeline.run import build_documents, build_index
from ..embed.worker import WorkerEmbedder
from ..peers import AnySpec
from .options import Ready

#: what an index folder built by ``compare`` was built from, beside its ``seamcut-index.json``
INPUTS_FILE = "seamcut-compare.json"


def index_documents(folder: Path, spec: AnySpec, documents: Sequence[Document], indexing: Ready,
                    hashes: Mapping[str, str] | None) -> tuple[Index, BuildReport]:
    """Documents in memory cut with ``spec`` into a fresh index at ``folder`` (``indexing``'s
    embedder and model; ``hashes``: the documents' files' hashes by source), by the build's one
    loop in this process (``build_documents``)."""
    embedder, model = indexing.embedder, indexing.model
    spec = sized_spec(spec, model)
    cut_spec = spec.with_options({"embedder": embedder}) if needs_embedder(spec) else spec
    remove_index(folder)
    index = Index(folder, strategy=spec.name, options=plain_options(spec.options), model=model, embedder=embedder)
    return index, build_documents(index, documents, cut_spec, hashes)


def needs_embedder(spec: AnySpec) -> bool:
    """Whether cutting with ``spec`` embeds (``semantic``) and it names no embedder of its own."""
    return spec.name == "semantic" and "embedder" not in spec.options


def index_files(folder: Path, spec: AnySpec, paths: Sequence[str], indexing: Ready,
                digests: "Digests") -> tuple[Index, BuildReport, str | None]:
    """Files (``paths``, folders expanded) cut with ``spec`` and indexed at ``folder`` by
    ``build_index`` as ``indexing`` says (its engine: one of a ``series``, reading workers or a
    Ray cluster kept open across several calls), the index there reused where it can be; the
    index, the build's report, and why an index found there was rebuilt (None: it was not). An
    index that holds every file as it is now is not built at all (no worker started)."""
    t0 = time.perf_counter()
    embedder, model, how = indexing.embedder, indexing.model, indexing.build
    spec = sized_spec(spec, model)
    plain = plain_options(spec.options)
    inputs = inputs_digest(paths, how.read_options, how.catalog)
    index, rebuilt = _open_or_rebuild(folder, spec.name, plain, model, embedder, inputs, paths)
    (folder / INPUTS_FILE).write_text(json.dumps({"inputs": inputs}), encoding="utf-8")
    if index.files and index.is_finished() and digests.current(index):
        return index, BuildReport(unchanged=list(index.files), seconds=time.perf_counter() - t0), None
    if needs_embedder(spec):
        cache = embedder.cache.folder if isinstance(embedder, CachedEmbedder) else None
        spec = spec.with_options({"embedder": WorkerEmbedder(model, embedder.name, None if cache is None else str(cache))})
    report = build_index(index, paths, spec, replace(how, label=f"indexing {spec.label}"), engine=indexing.engine)
    return index, report, rebuilt


def _open_or_rebuild(folder: Path, strategy: str, options: dict[str, Any], model: str,
                     embedder: Embedder, inputs: str, paths: Sequence[str]) -> tuple[Index, str | None]:
    """The index at ``folder`` if it was built as asked from files all still among ``paths``;
    else a new one in its place, with the reason the old one could not be used."""
    def fresh() -> Index:
        return Index(folder, strategy=strategy, options=options, model=model, embedder=embedder)

    try:
        index = fresh()
    except IndexConfigError as exc:
        remove_index(folder)
        return fresh(), str(exc)
    if not index.files:
        return index, None
    why = None
    stamp = folder / INPUTS_FILE
    try:
        built_from = json.loads(stamp.read_text(encoding="utf-8")).get("inputs")
    except (OSError, ValueError):
        built_from = None
    named = set(paths)
    gone = [source for source in index.files if source not in named]
    if index.settings.embedder not in (None, embedder.name):
        why = f"built with embedder {index.settings.embedder}, not {embedder.name}"
    elif built_from != inputs:
        why = "built with other reading options, catalog fields or seamcut code"
    elif gone:
        why = f"built with {len(gone)} file(s) no longer named ({gone[0]}, ...)"
    if why is None:
        return index, None
    remove_index(folder)
    return fresh(), f"{folder}: {why}"


class Digests:
    """The files' SHA-256 digests, taken once per run and only when an index could use them."""

    def __init__(self, paths: Sequence[str]) -> None:
        self.paths = paths
        self._digests: dict[str, str | None] | None = None

    def current(self, index: Index) -> bool:
        """Whether ``index`` holds exactly the files, each with the bytes it has now."""
        held = {source: v["hash"] for source, v in index.files.items()}
        return held == self.all()

    def all(self) -> dict[str, str | None]:
        """Each file's digest (None: it cannot be read)."""
        if self._digests is None:
            self._digests = {p: _digest(p) for p in self.paths}
        return self._digests


def _digest(path: str) -> str | None:
    try:
        return file_hash(path)
    except OSError:
        return None


def inputs_digest(paths: Sequence[str], read_options: ReadOptions, catalog: Catalog | None) -> str:
    """A digest of what an index's rows depend on beyond its settings and its files' bytes: the
    reading options, each file's catalog fields, and the code that reads, cuts and stores."""
    h = hashlib.sha256(repr(read_options).encode())
    if catalog is not None:
        for f in paths:
            h.update(repr((f, sorted(catalog.fields_for(f).items()))).encode("utf-8", "surrogatepass"))
    h.update(code_version().encode())
    return h.hexdigest()[:32]


@lru_cache(maxsize=2)
def code_version(judging: bool = False) -> str:
    """A digest of seamcut's code but the parts that only judge or show (evaluation, reports,
    the command line): another version may read, cut or store otherwise. ``judging``: with the
    evaluation's code too (another version may also score otherwise)."""
    root = Path(__file__).resolve().parents[1]
    skipped = ("report", "cli", "integrations") if judging else ("evaluate", "report", "cli", "integrations")
    h = hashlib.sha256()
    for f in sorted(root.rglob("*.py")):
        if f.relative_to(root).parts[0] not in skipped:
            h.update(f.read_bytes())
    return h.hexdigest()[:16]


def plain_options(opts: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in opts.items() if isinstance(v, (str, int, float, bool)) or v is None}


def missing_files(index: Index, paths: Sequence[str]) -> list[str]:
    """The files of ``paths`` that ``index`` does not hold (failed, or cut to nothing)."""
    held = {str(Path(f["path"]).resolve()) for f in index.files.values() if f.get("path")}
    return [p for p in paths if str(Path(p).resolve()) not in held]


def different_files(missing: Mapping[str, list[str]], total: int) -> str | None:
    """A warning where the indexes, named by label with the files each lacks of ``total``, do
    not hold the same files (a file read for one strategy and failed for another): their scores
    are then not over the same documents. None where they do."""
    sets = [tuple(m) for m in missing.values()]
    if len(set(sets)) < 2:
        return None
    fewest = min(len(m) for m in sets)
    # the others: the commonest of the fullest sets (two sets of the same size can differ)
    usual = max((m for m in sets if len(m) == fewest), key=sets.count)
    short = "; ".join(f"{label}: {total - len(m)} ({_names(m)} missing)"
                      for label, m in missing.items() if tuple(m) != usual)
    return (f"judged on different files, of {total}: {short}; the others on {total - fewest}"
            + (f" ({_names(usual)} missing)" if usual else ""))


def _names(paths: Sequence[str]) -> str:
    return ", ".join(Path(f).name for f in paths)
