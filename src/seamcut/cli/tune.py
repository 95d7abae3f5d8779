"""``seamcut tune``: the best way to cut for your own questions, searched, with its cost."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer

from .. import checks
from .errors import fail
from .options import (K, Flags, LimitFlags, ModelFlags, Paths, Questions, ReadFlags, ResultFlags,
                      indexing_of)
from .questions import print_check_summary
from .render import print_failures, print_warnings, results_out, write_json_out, write_outputs
from .render_tune import print_tune

if TYPE_CHECKING:
    from ..evaluate.options import TuneOptions


@dataclass(frozen=True)
class SearchFlags(Flags):
    """How ``tune`` searches: its time, space, k, budget, split, rounds and the defaults the
    winner is tested against."""
    minutes: Annotated[Optional[float], typer.Option(
        "--minutes", help="Minutes the search may take (wall clock); where they run out it stops and "
                          "reports the best so far, saying what was not done. Default: no limit. "
                          "(Before, this was --budget.)")] = None
    space: Annotated[Optional[Path], typer.Option(
        "--space", help="YAML of the chunkings and search modes to search (default: the space "
                        "shipped with seamcut, every strategy with its defaults and variants).")] = None
    k: K = 4
    budget: Annotated[Optional[int], typer.Option(
        "--budget", help="Tokens sent to the model per question 'best' is judged at, as compare's "
                         "--budget (default: the median tokens per question at k of the first round). "
                         "Before, this was --token-budget, and --budget was the time limit, now "
                         "--minutes: a budget under the space's smallest chunk size is refused.")] = None
    held_out: Annotated[float, typer.Option(
        "--held-out", help="Share of the questions held out of the search, to report the winner "
                           "on (seeded; split by language).")] = 0.3
    seed: Annotated[int, typer.Option("--seed", help="Seed of the split and the samples.")] = 0
    eta: Annotated[int, typer.Option(
        "--eta", help="Successive halving: each round grows the questions and documents and keeps "
                      "the best 1/eta.")] = 3
    versus: Annotated[Optional[str], typer.Option(
        "--versus", help="Chunkings the winner is tested against (paired, on the held-out "
                         "questions), comma-separated specs searched hybrid, e.g. "
                         "'structure,fixed:size=512', or another library's pipeline as compare takes it "
                         "('langchain:recursive:chunk_size=1000', chunks:PATH); each is built on every document in the final "
                         "round, which costs an index each. none: no test. Default: every "
                         "strategy's defaults.")] = None
    filters: Annotated[Optional[str], typer.Option(
        "--filters", help="How each question's search is filtered: none (the whole index), where "
                          "(the test set's where, per question) or question (filters read from the "
                          "question's words, as compare --filters). Default: where where a question "
                          "carries one, else none.")] = None
    plan: Annotated[bool, typer.Option(
        "--plan", help="Print the rounds the search would run (questions, documents, candidates) "
                       "and their cost in corpus builds, then stop: nothing is read or embedded.")] = False
    exhaustive: Annotated[bool, typer.Option(
        "--exhaustive", help="Judge every candidate on every document and tune question, in one "
                             "round (to check the halving's winner).")] = False

    def options(self) -> "TuneOptions":
        """The flags as ``TuneOptions`` (the space read: a bad one stops before any work)."""
        from ..evaluate.options import TuneOptions
        from ..evaluate.space import load_space
        chosen = load_space(self.space) if self.space is not None else None
        return TuneOptions(space=chosen, k=self.k, budget=self.budget, minutes=self.minutes, seed=self.seed,
                           held_out=self.held_out, eta=self.eta, exhaustive=self.exhaustive,
                           versus=_versus(self.versus), filters=self.filters)


@dataclass(frozen=True)
class TuneOut(ResultFlags):
    """Where ``tune`` writes (its own ``--out``), and how a question naming its source is judged."""
    out: Annotated[Path, typer.Option(
        "--out", "-o", help="Folder for the indexes, kept so the next run only searches; a search "
                       "stopped before its end is resumed by the next run with the same folder, "
                       "its cost so far carried on.")] = Path("out/tune")


def tune_command(
    paths: Paths,
    questions: Questions,
    search: SearchFlags = SearchFlags(),
    embedding: ModelFlags = ModelFlags(),
    reading: ReadFlags = ReadFlags(),
    scale: LimitFlags = LimitFlags(),
    results: TuneOut = TuneOut(),
) -> None:
    """Search chunkings (strategies x their options) and search modes for the one that serves
    your questions best: successive halving on a tune part of the questions (cheap rounds on a
    sample first, losers dropped by paired tests), the winner reported on the held-out part too,
    against every strategy's defaults; best = most hits within a budget of tokens sent, then MRR.
    Prints the final round's table, the Pareto front of quality against cost, and the winner as
    a ready `seamcut index` command."""
    from ..evaluate import load_questions
    options = search.options()  # a bad space stops before any work
    _check_budget(options.budget, options.space)
    asked = load_questions(questions)  # read once
    if search.plan:
        _print_plan(paths, asked, options, embedding.model, results.json_out)
        return
    result = checks.tune(paths, asked, options=options, indexing=indexing_of(embedding, reading, scale, results.out),
                         named_source=results.named_source)
    print_failures(result.failures, len(result.documents) + len(result.failures))
    print_check_summary(result.questions_check, "questions check: ")
    print_warnings(result.warnings)
    data = result.to_json()
    with results_out(results.json_out):
        print_tune(data)
    write_outputs(results.json_out, lambda: data, results.report,
                  lambda path: _write_report(data, path))
    if result.failures:
        raise typer.Exit(1)


def _write_report(data: dict[str, Any], path: Path) -> None:
    from ..report.tune_html import write_tune_report
    write_tune_report(data, path)


def _check_budget(budget: int | None, space: Any) -> None:
    """``--budget`` is tokens sent to the model per question; it was the time limit in minutes
    before ``--minutes``. A budget under every chunk size in tokens in the ``space`` (None: the
    default one) sends no chunk whole, and judges every candidate at nothing: a number meant as
    minutes, most likely, so it stops here, before any work, saying so."""
    if budget is None:
        return
    from ..evaluate.space import default_space
    from ..strategies import REGISTRY
    configs = [REGISTRY[spec.name][1](**spec.options) for spec in (space or default_space()).chunkings]
    smallest = min((c.size for c in configs if c.unit == "tokens"), default=None)
    if smallest is not None and budget < smallest:
        fail(f"--budget {budget}: tokens sent to the model per question, under the smallest chunk size "
             f"in the space ({smallest} tokens), so no candidate could send one chunk; for a time "
             f"limit in minutes (--budget before), give --minutes {budget}")


def _versus(flag: str | None) -> list[str] | None:
    """``--versus``: None (every strategy's defaults), ``none`` (no test) or the specs given."""
    if flag is None:
        return None
    specs = [part.strip() for part in flag.split(",") if part.strip()]
    return [] if specs == ["none"] else specs


def _print_plan(paths: list[Path], asked: list[Any], options: "TuneOptions", model: str,
                json_out: Path | None) -> None:
    """``--plan``: the search's rounds and their cost, printed (and written to ``--json``)."""
    from ..evaluate.tune_plan import plan
    from .render_tune import print_plan
    data = plan(paths, asked, options, model)
    with results_out(json_out):
        print_plan(data)
    if json_out:
        write_json_out(json_out, data)
