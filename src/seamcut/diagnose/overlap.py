"""Overlap between neighbouring chunks: measured from placements, offsets or a suffix/prefix
match (``measure_pair``), and whether overlap was asked for at all (``strategy_overlaps``,
``infer_overlap``)."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..errors import ConfigError
from ..model import Document
from ..text.space import SPACE_SET, WORD, count_words, is_blank
from ..tokens import Sizer
from .findings import OVERLAP_FREE, Pair
from .records import ChunkRecord


def suffix_cap(a: ChunkRecord, b: ChunkRecord, target: int | None, unit: str,
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


def measure_pair(i: int, records: list[ChunkRecord], placements: list, approx: set[int],
                 docs: Sequence[Document], unit: str, count_tokens: Any, cap: int) -> Pair:
    """The overlap and gap between chunks ``i`` and ``i + 1``: from their placements in the
    sources, else their own offsets, else a suffix/prefix match of at most ``cap`` characters."""
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


def strategy_overlaps(name: str, options: Mapping[str, Any] | None = None) -> bool:
    """Whether the registered strategy ``name`` with ``options`` (its defaults for the rest)
    repeats text between neighbours. Raises ValueError for an unknown strategy or option."""
    from ..strategies import REGISTRY

    if name not in REGISTRY:
        raise ConfigError(f"unknown strategy {name!r}; choose from {', '.join(REGISTRY)}")
    if name in OVERLAP_FREE:
        return False
    return REGISTRY[name][1](**dict(options or {})).overlap > 0


def infer_overlap(records: Sequence[ChunkRecord], sizer: Sizer) -> tuple[bool | None, int | None, str | None]:
    """What seamcut chunks say of their overlap, from their own records: ``(asked, configured,
    strategy)``. ``strategy``: the one seamcut strategy every record names (None: other tools'
    chunks, or several). ``configured``: that strategy's overlap, in the model's tokens, where
    every record's config fingerprint is the strategy's defaults' (None: options the chunks do not
    carry). ``asked``: whether neighbours are meant to share text: never for a strategy that cuts
    at units (``OVERLAP_FREE``: its overlap is repeated only between the pieces of a block split
    for length), what the defaults say where they were used, else unknown (None)."""
    from ..strategies import REGISTRY

    answers: set[bool | None] = set()
    configured: set[int | None] = set()
    defaults: dict[str, tuple[str, int]] = {}
    for r in records:
        known = r.strategy in REGISTRY and bool(r.config)
        if known and r.strategy not in defaults:
            config = REGISTRY[r.strategy][1]()
            defaults[r.strategy] = (config.fingerprint(r.strategy, sizer), config.overlap)
        at_defaults = known and r.config == defaults[r.strategy][0]
        configured.add(defaults[r.strategy][1] if at_defaults else None)
        if r.strategy in OVERLAP_FREE:
            answers.add(False)
        else:
            answers.add(strategy_overlaps(r.strategy) if at_defaults else None)
    names = {r.strategy for r in records}
    strategy = names.pop() if len(names) == 1 and next(iter(names)) in REGISTRY else None
    overlap = configured.pop() if strategy and len(configured) == 1 else None
    asked = True if True in answers else False if answers == {False} else None
    return asked, overlap, strategy
