"""What ``compare`` and ``tune`` take beside the documents, the questions and the strategies, as
option objects: how the indexes they judge are built (``Indexing``, with the pipeline's
``BuildOptions`` for how the files are read), how ``compare`` judges (``Judging``) and how
``tune`` searches (``TuneOptions``). ``seamcut.compare`` and ``seamcut.tune`` gather their keyword
arguments into these; nothing below them takes loose ones."""
from __future__ import annotations

import tempfile
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, Sequence

from ..errors import ConfigError
from ..index import DEFAULT_MODE
from ..pipeline.local import LocalEngine
from ..pipeline.options import BuildOptions

if TYPE_CHECKING:
    from ..embed import Embedder
    from ..pipeline.engine import Engine
    from .space import Space


@dataclass(frozen=True)
class Indexing:
    """How ``compare`` and ``tune`` build the indexes they judge, and where.

    ``embedder``: embeds every strategy's chunks and every question; give it a cache
    (``load_embedder(..., cache=True)``) so that no text is embedded twice, across strategies,
    rounds and runs. None: ``model`` loaded, with the default embedding cache.
    ``workdir``: the folder the indexes go to (``workdir/index/NAME``; tune's journal too), kept
    so that the next run reuses each index built as asked from the same files. None: a
    temporary folder, removed at the end (nothing is reused).
    ``model``: the embedding model as an index records it (``"default"``: multilingual-e5-small,
    or a sentence-transformers folder, whose ``tokenizer.json`` then counts the sizes in tokens);
    the cutting workers load it for the ``semantic`` strategy, so it must load as ``embedder``'s
    model.
    ``build``: how the files are read and the build shows its work (``BuildOptions``:
    ``read_options``, ``catalog``, ``limits`` in workers, seconds and MiB, ``progress``); its
    ``label`` is set per strategy.
    ``engine``: where the files are indexed (``seamcut.pipeline.LocalEngine()``: this machine's
    worker processes; ``RayEngine``: Ray Data), its workers or Ray cluster started once for all the
    builds of a call.
    """
    embedder: "Embedder | None" = None
    workdir: str | Path | None = None
    model: str = "default"
    build: BuildOptions = BuildOptions()
    engine: "Engine" = LocalEngine()

    @contextmanager
    def ready(self, prefix: str) -> Iterator["Ready"]:
        """These options with an embedder and a workdir for the block: the model loaded where
        none was given, a temporary folder (named ``prefix...``, removed at the block's end)
        where no workdir was."""
        from ..embed import load_embedder
        embedder = self.embedder
        if embedder is None:
            embedder = load_embedder(None if self.model == "default" else self.model, cache=True)
        with tempfile.TemporaryDirectory(prefix=prefix) if self.workdir is None else nullcontext(None) as scratch:
            yield Ready(embedder, Path(scratch or self.workdir), self.model, self.build, self.engine)


@dataclass(frozen=True)
class Ready(Indexing):
    """``Indexing`` with its embedder and workdir set (``Indexing.ready``)."""
    embedder: "Embedder"
    workdir: Path


@dataclass(frozen=True)
class Judging:
    """How ``compare`` judges the strategies.

    ``k``: results per question that count as found (hits at k, a count).
    ``mode``: the search mode, ``hybrid``, ``vector`` or ``text``.
    ``budgets``: tokens of the model sent per question at which every strategy is also scored
    (``score_budgets``), "best" at the first; None: 256, 512, 1,024 and 2,048 tokens and the
    median of the strategies' tokens per question at ``k``, "best" at the median.
    ``filters``: the ways each question's search is filtered, each judged as a row of its own
    (``seamcut.evaluate.filtering.FILTERS``: ``none``, ``where``, ``question``); None: without
    filters, and with the test set's ``where`` too where a question carries one.
    """
    k: int = 4
    mode: str = DEFAULT_MODE
    budgets: Sequence[int] | None = None
    filters: Sequence[str] | None = None

    def __post_init__(self) -> None:
        check_budgets(self.budgets)
        if self.filters is not None:
            from .filtering import check_filters
            if not check_filters(self.filters):
                raise ConfigError("filters: name at least one way (none, where, question)")


@dataclass(frozen=True)
class TuneOptions:
    """How ``tune`` searches.

    ``space``: the chunkings and search modes searched (None: ``default_space()``, every
    strategy with its defaults and variants).
    ``k``: results per question that count as found (a count).
    ``budget``: tokens of the model sent per question "best" is judged at, as ``Judging.budgets``
    (None: the median tokens per question at ``k`` of the first round's candidates).
    ``minutes``: wall-clock minutes the search may take (None: no limit); where they run out it
    stops and reports the best so far.
    ``seed``: the seed of the questions' split and the rounds' samples (a whole number).
    ``held_out``: the share of the answerable questions held out of the search (0 to below 1).
    ``eta``: the factor each halving round grows its questions and documents by and cuts its
    chunkings by (at least 2).
    ``exhaustive``: every candidate on every document and tune question, in one round.
    ``finalists``: how many of the last halving round's best candidates bring their chunking
    (every mode) to the final round (a count).
    ``versus``: the chunking specs the winner is tested against (searched hybrid, judged in the
    final round on everything); None: every strategy's defaults; empty: none.
    ``filters``: how each question's search is filtered (``seamcut.evaluate.filtering.FILTERS``:
    ``none``, ``where``: the test set's, ``question``: read from the question); None: ``where``
    where a question carries one, else ``none``.
    """
    space: "Space | None" = None
    k: int = 4
    budget: int | None = None
    minutes: float | None = None
    seed: int = 0
    held_out: float = 0.3
    eta: int = 3
    exhaustive: bool = False
    finalists: int = 3
    versus: Sequence[str] | None = None
    filters: str | None = None

    def check(self) -> None:
        """``ConfigError`` for a budget or minutes that are not positive, or an unknown way of
        filtering (``tune`` checks them first)."""
        if self.filters is not None:
            from .filtering import check_filters
            check_filters([self.filters])
        if self.budget is not None:
            check_budgets([self.budget])
        if self.minutes is not None and self.minutes <= 0:
            raise ConfigError(f"minutes: {self.minutes} is not a positive number of minutes")


def check_budgets(budgets: Sequence[int] | None) -> None:
    """``ConfigError`` where a budget is not a positive number of tokens."""
    if budgets is not None and any(b < 1 for b in budgets):
        raise ConfigError(f"budget: {min(budgets)} is not a positive number of tokens")
