"""The limits every chunk's text keeps, and the counts that check them."""
from __future__ import annotations

from typing import Callable, Union

from ..errors import ConfigError
from ..tokens import Measure, Sizer, load_sizer, require_offsets, unit_sizer
from .config import SizeConfig


#: units of ``size`` kept free in a chunk: a number, or a function of where the chunk starts (the
#: room of the context that chunk will have: ``context.Contexts.reserve_at``)
Reserve = Union[int, Callable[[int], int]]


def room(reserve: Reserve, a: int) -> int:
    """The units ``reserve`` keeps free in a chunk starting at ``a``."""
    return reserve if isinstance(reserve, int) else reserve(a)


def plus(reserve: Reserve, n: int) -> Reserve:
    """``reserve`` and ``n`` units more."""
    if isinstance(reserve, int):
        return reserve + n
    return lambda a: reserve(a) + n


class SizeLimit:
    """The limits every chunk's text keeps: ``size`` in the configured unit and, where the model
    states one, its maximum input in tokens. ``reserve``, where a method takes it, is how many units
    of ``size`` to keep free (for overlap or a context put in front; a ``Reserve``, asked at the
    chunk's start ``a``); it never applies to the model's maximum input."""

    def __init__(self, text: str, cfg: SizeConfig, embedded: bool = True,
                 like: "SizeLimit | None" = None) -> None:
        """``embedded=False``: chunks that are never embedded (parents sent to the model as
        context), so the embedding model's maximum input does not bound them. ``like``: a limit
        of the same text and tokenizer (another size of the same document), whose measure and
        real counts are reused instead of tokenizing the document again."""
        self.text = text
        if like is not None and like.text is text:
            self.token_sizer: Sizer = like.token_sizer
            self.token_measure: Measure = like.token_measure
            self.counted: dict[tuple[int, int, str], int] = like.counted
        else:
            self.token_sizer = load_sizer(cfg.tokenizer)
            self.token_measure = require_offsets(self.token_sizer).measure(text)
            self.counted = {}  # real token counts, by (start, end, context)
        max_input_tokens = self.token_sizer.max_input_tokens if embedded else None
        if cfg.unit == "tokens":
            if max_input_tokens is not None and cfg.size > max_input_tokens:
                raise ConfigError(f"size {cfg.size} tokens is over the model's maximum input of "
                                  f"{max_input_tokens} tokens ({self.token_sizer.name})")
            self.unit_sizer, self.unit_measure = self.token_sizer, self.token_measure
            self.limits: list[tuple[Sizer, Measure, int]] = [
                (self.token_sizer, self.token_measure, cfg.size)]
        else:
            if like is not None and like.text is text and like.unit_sizer.unit == cfg.unit:
                self.unit_sizer, self.unit_measure = like.unit_sizer, like.unit_measure
            else:
                self.unit_sizer = unit_sizer(cfg.unit)
                self.unit_measure = self.unit_sizer.measure(text)
            self.limits = [(self.unit_sizer, self.unit_measure, cfg.size)]
            if max_input_tokens is not None:
                self.limits.append((self.token_sizer, self.token_measure, max_input_tokens))
        room = cfg.size - self.unit_measure.overhead
        if room <= cfg.overlap:
            raise ConfigError(f"size {cfg.size} {cfg.unit} leaves {room} beside the "
                              f"{self.unit_measure.overhead} the model adds to every text: "
                              f"not more than the overlap ({cfg.overlap})")

    def held_by_model(self, a: int) -> int | None:
        """Where the size is in another unit than tokens and, from ``a``, the model's maximum input
        ends a chunk before ``size`` units do: how many units fit in that input from ``a`` (by
        estimate); None where the size is what a chunk from ``a`` reaches first (or the text's end)."""
        if len(self.limits) < 2:
            return None
        (_, units, size), (_, tokens, max_input_tokens) = self.limits[0], self.limits[1]
        by_model = tokens.max_end(a, max_input_tokens)
        if by_model >= units.max_end(a, size):
            return None
        return units.count(a, by_model)

    def fits(self, a: int, b: int, reserve: Reserve = 0) -> bool:
        """Whether ``text[a:b]`` fits by estimate, ``reserve`` units kept free."""
        limits = self.limits
        _, m, lim = limits[0]
        if m.count(a, b) > lim - room(reserve, a):
            return False
        return all(m.count(a, b) <= lim for _, m, lim in limits[1:])

    def max_end(self, a: int, reserve: Reserve = 0) -> int:
        """The farthest end, cut at a unit boundary, at which ``text[a:end]`` fits by estimate,
        ``reserve`` units kept free."""
        reserve = room(reserve, a)
        return min(m.max_end(a, lim - reserve if i == 0 else lim)
                   for i, (_, m, lim) in enumerate(self.limits))

    def confirm(self, a: int, b: int, reserve: Reserve = 0) -> bool:
        """Whether ``text[a:b]`` fits, ``reserve`` units kept free, with a real count wherever
        the estimate could be off."""
        reserve = room(reserve, a)
        for i, (sizer, m, lim) in enumerate(self.limits):
            lim = lim - reserve if i == 0 else lim
            est = m.count(a, b)
            if est > lim:
                return False
            if m.needs_check(a, b, est, lim):
                real = self.real(a, b) if sizer is self.token_sizer else sizer.count(self.text[a:b])
                if real > lim:
                    return False
        return True

    def real(self, a: int, b: int, context: str = "") -> int:
        """The model's real token count of ``context + text[a:b]``, counted once per span and
        context (packers ask again, and the chunk factory asks for the chunks they keep)."""
        key = (a, b, context)
        got = self.counted.get(key)
        if got is None:
            got = self.counted[key] = self.token_sizer.count(context + self.text[a:b])
        return got

    def tokens(self, a: int, b: int, context: str = "") -> int:
        """The model's token count of ``context + text[a:b]`` on its own (real where one was
        made, and always with a context)."""
        if context or (a, b, "") in self.counted:
            return self.real(a, b, context)
        m = self.token_measure
        est = m.count(a, b)
        if m.margin or m.needs_check(a, b, est, 1 << 30):
            return self.real(a, b)
        return est
