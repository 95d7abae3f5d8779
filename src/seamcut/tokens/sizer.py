"""The sizer protocol: count a text in the unit a chunk size is given in.

A size is always counted on the exact string that is embedded, special tokens and model prefixes
included (``[CLS]``/``[SEP]``, ``passage: ``), because they take room in the model's maximum input.
Every sizer counts; a sizer that can also say where each unit ends (for counting spans of a
document without re-tokenizing) is ``Measurable`` as well (``tokens.measure``).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Literal, Sequence

Unit = Literal["tokens", "words", "chars"]
UNITS: tuple[str, ...] = ("tokens", "words", "chars")


class Sizer(ABC):
    """Counts text in one unit (``unit``: model tokens, words or characters)."""

    #: what messages and reports call the sizer (a tokenizer file's path, say)
    name: str = ""
    unit: Unit = "tokens"
    #: the model's maximum input in tokens, special tokens included (None: unknown / no model)
    max_input: int | None = None
    #: things the loader changed or noticed that a user should know (e.g. truncation switched off)
    notes: tuple[str, ...] = ()
    #: units the model adds to any non-empty text on its own: special tokens and a prefix such as
    #: ``passage: `` (0 for characters and words)
    overhead: int = 0

    @abstractmethod
    def count(self, text: str) -> int:
        """The real size of ``text`` embedded on its own, in ``unit``, overhead included."""

    @property
    def identity(self) -> str:
        """What chunk ids depend on (part of every chunk config's fingerprint): the same on every
        machine for the same tokenizer, wherever its file lies. ``name`` unless a backend knows
        better."""
        return self.name

    def count_many(self, texts: Sequence[str]) -> list[int]:
        """``count`` of each text, in order."""
        return [self.count(t) for t in texts]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.name!r})"
