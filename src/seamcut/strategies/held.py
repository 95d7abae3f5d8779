"""The report of a size the model's maximum input overrides.

A size in words or characters can be more than the embedding model takes: 300 words of Marathi
are about 600 of multilingual-e5-small's tokens, over its 512. No chunk goes over the model's
input (DESIGN.md, invariant 4), so such chunks hold less than the size asked; the chunk factory
marks each of them (``held_by_model`` in its metadata: the units that fit in the model's input
from its start) and this module says how many there were and what size they got, never silently.
"""
from __future__ import annotations

import statistics
import warnings
from contextlib import contextmanager
from typing import Iterable, Iterator

from ..model import Chunk
from ..tokens import load_sizer
from .config import SizeConfig


class ModelInputWarning(UserWarning):
    """Chunks held below the size asked by the embedding model's maximum input."""


class Held:
    """A tally of chunks, as they come, for ``report``."""

    def __init__(self, config: SizeConfig) -> None:
        self.config = config
        self.fit: list[int] = []  # per held chunk: the units that fit in the model's input
        self.total = 0
        self.source = ""

    def add(self, chunk: Chunk) -> None:
        if chunk.metadata.get("role") == "parent":  # parents are not embedded
            return
        self.total += 1
        self.source = self.source or chunk.source
        if "held_by_model" in chunk.metadata:
            self.fit.append(chunk.metadata["held_by_model"])

    def report(self) -> str | None:
        """One line on the chunks that the model's maximum input held below the size: how many
        of how many, and the size that fit (median and range, in the config's unit); None where
        there were none."""
        if not self.fit:
            return None
        cfg, fit = self.config, self.fit
        sizer = load_sizer(cfg.tokenizer)
        name = sizer.name.split(":", 1)[-1]
        where = f"{self.source}: " if self.source else ""
        if max(fit) == 0:  # one unit (a run of text without spaces) is over the model's input
            got = f"inside one {cfg.unit.rstrip('s')} longer than that"
        elif min(fit) != max(fit):
            got = f"~{round(statistics.median(fit))} {cfg.unit}, median; {min(fit)} to {max(fit)}"
        else:
            got = f"~{fit[0]} {cfg.unit}"
        return (f"{where}size {cfg.size} {cfg.unit} is over {name}'s {sizer.max_input_tokens}-token input "
                f"for {len(fit)} of {self.total} chunk(s): they were cut at {sizer.max_input_tokens} tokens "
                f"({got}), not at {cfg.size} {cfg.unit}")


def held_report(chunks: Iterable[Chunk], config: SizeConfig) -> str | None:
    """``Held.report`` of ``chunks`` (of one document)."""
    held = Held(config)
    for c in chunks:
        held.add(c)
    return held.report()


def warn_held(chunks: Iterable[Chunk], config: SizeConfig) -> Iterator[Chunk]:
    """``chunks`` passed on as they come; after the last, a ``ModelInputWarning`` where the
    model's maximum input held some of them below the size (``Held.report``)."""
    held = Held(config)
    for c in chunks:
        held.add(c)
        yield c
    report = held.report()
    if report:
        warnings.warn(ModelInputWarning(report), stacklevel=3)  # chunk()'s caller


@contextmanager
def held_reports() -> Iterator[list[str]]:
    """Within it, the ``ModelInputWarning`` reports are kept in the list it gives, not shown
    (for a caller that prints or stores them itself); other warnings are passed on."""
    kept: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ModelInputWarning)
        yield kept
    for w in caught:
        if issubclass(w.category, ModelInputWarning):
            kept.append(str(w.message))
        else:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
