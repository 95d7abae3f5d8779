"""The sizer protocol: count a text in the unit a chunk size is given in.

A size is always counted on the exact string that is embedded, special tokens and model prefixes
included (``[CLS]``/``[SEP]``, ``passage: ``), because they take room in the model's maximum input.
Every sizer counts; a sizer that can also say where each unit ends (for counting spans of a
document without re-tokenizing) is ``Measurable`` as well (``tokens.measure``).
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Literal, Sequence

from ..renamed import renamed_attribute, warn_renamed

Unit = Literal["tokens", "words", "chars"]
UNITS: tuple[str, ...] = ("tokens", "words", "chars")


class Sizer(ABC):
    """Counts text in one unit (``unit``: model tokens, words or characters)."""

    #: what messages and reports call the sizer (a tokenizer file's path, say)
    name: str = ""
    unit: Unit = "tokens"
    #: the model's maximum input in tokens, special tokens included (None: unknown / no model)
    max_input_tokens: int | None = None
    #: ``max_input_tokens``' old name, deprecated
    max_input = renamed_attribute("max_input", "max_input_tokens")
    #: things the loader changed or noticed that a user should know (e.g. truncation switched off)
    notes: tuple[str, ...] = ()
    #: units the model adds to any non-empty text on its own: special tokens and a prefix such as
    #: ``passage: `` (0 for characters and words)
    overhead: int = 0

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A sizer class that still sets ``max_input`` (the old name) sets ``max_input_tokens``."""
        super().__init_subclass__(**kwargs)
        old = cls.__dict__.get("max_input")
        if old is not None and not isinstance(old, property):
            warn_renamed(f"{cls.__name__}.max_input", "max_input_tokens")
            cls.max_input_tokens = old
            del cls.max_input

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
