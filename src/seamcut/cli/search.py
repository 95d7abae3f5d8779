"""``seamcut index`` and ``seamcut search``: build an on-disk index, ask it questions."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Optional

import typer

from ..strategies import DEFAULT_STRATEGY
from .errors import fail
from .options import (Batch, EngineFlags, Flags, JsonOut, LimitFlags, Mode, ModeOption, ModelFlags, Paths,
                      ReadFlags, StrategyFlags, model_on_device)
from .render import (err, hits_json, print_build, print_failures, print_hits, print_warnings, results_out,
                     write_json_out)

Db = Annotated[Path, typer.Option("--db", help="Index folder (created by `seamcut index` if missing).")]


@dataclass(frozen=True)
class UpdateFlags(Flags):
    """How ``index`` updates the index folder: from scratch, pruned, and how long it waits for
    another run updating it."""
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Delete the index folder first.")] = False
    prune: Annotated[bool, typer.Option(
        "--prune", help="Also remove the files the index holds that are not among PATHS (deleted or moved "
                        "since), in one step searches see at once.")] = False
    wait: Annotated[Optional[float], typer.Option(
        "--wait", min=0, help="Seconds to wait for another run updating the same index, then give up "
                              "(default: wait until it is done; 0: do not wait).")] = None


@dataclass
class BuildFlags(EngineFlags, Flags):
    """Where ``index``'s build runs (the engine flags), in batches of how many chunks, and where
    its report goes."""
    batch: Batch = 512
    stats: Annotated[Optional[Path], typer.Option(
        "--stats", help="Also write the run's report (files, failures, stages) here as JSON.")] = None


def index_command(
    paths: Paths,
    db: Db,
    cutting: StrategyFlags = StrategyFlags(DEFAULT_STRATEGY),
    embedding: ModelFlags = ModelFlags(),
    reading: ReadFlags = ReadFlags(),
    update: UpdateFlags = UpdateFlags(),
    scale: LimitFlags = LimitFlags(),
    run_on: BuildFlags = BuildFlags(),
) -> None:
    """Read, chunk, embed and store documents in an on-disk index; unchanged files are skipped.

    Files are read and cut in worker processes, embedded and written in batches as they come;
    a stopped run (even killed) resumes where it was when run again. One run updates an index
    at a time: another one waits for it (--wait to give up)."""
    from ..index import Index, remove_index
    from ..pipeline.jobs import sized_spec
    from ..pipeline.options import BuildOptions
    from ..pipeline.run import build_index
    spec = sized_spec(cutting.resolve(), embedding.model)
    engine = run_on.make_engine(embedding.device, embedding.model)
    engine.check()  # before the index is opened: Ray missing is one line saying how to install it
    if update.rebuild:
        remove_index(db, update.wait)
    model, embedder = model_on_device(embedding.model, embedding.device, db / "embeddings", engine.name)
    index = Index(db, strategy=spec.name, options=spec.options, model=model, embedder=embedder, wait=update.wait)
    how = BuildOptions(read_options=reading.options(), catalog=reading.load_catalog(), limits=scale.limits(),
                       batch_texts=run_on.batch, prune=update.prune)
    report = build_index(index, paths, spec, how, engine=engine)
    print_build(report, db, index.count())
    print_warnings([*report.warnings, *report.held])
    if run_on.stats is not None:
        run_on.stats.parent.mkdir(parents=True, exist_ok=True)
        run_on.stats.write_text(json.dumps(report.to_dict(), ensure_ascii=False, indent=1), encoding="utf-8")
    print_failures(report.failures, len(report.failures) + len(report.added) + len(report.replaced)
                   + len(report.unchanged))
    if report.failures:
        raise typer.Exit(1)


@dataclass(frozen=True)
class FilterFlags(Flags):
    """How ``search`` filters: SQL, and the filters read from the question."""
    where: Annotated[Optional[str], typer.Option(
        "--where", help="SQL filter, e.g. \"crop = 'cotton' AND year >= 2025\".")] = None
    read_filters: Annotated[bool, typer.Option(
        "--read-filters", help="Filter on the fields the question names: the values of the documents' "
                               "fields (a catalog's, or found in them: year, period...) and their "
                               "aliases, whole words, periods as people spell them (Q3 2023, third "
                               "quarter of 2023); fewer fields, or none, where they leave fewer than k "
                               "chunks. Said on standard error, and in --json, with why.")] = False


def search_command(
    query: Annotated[str, typer.Argument(help="The question.")],
    db: Db,
    k: Annotated[int, typer.Option("-k", help="How many results.")] = 4,
    mode: ModeOption = Mode.hybrid,
    filtered: FilterFlags = FilterFlags(),
    budget: Annotated[Optional[int], typer.Option(
        "--budget", min=1, help="Tokens sent to the model per question at most: the results, best first, while "
                                "their tokens of the model add up to it (the first always comes; "
                                "parent-child: the parents').")] = None,
    max_tokens: Annotated[Optional[int], typer.Option(
        "--max-tokens", hidden=True, help="Deprecated: --budget's old name.")] = None,
    json_out: JsonOut = None,
) -> None:
    """Print the chunks that best answer a question, with score, source, pages and heading path.

    A --where that matches no chunk is said on standard error, with values its fields hold."""
    from ..index import Index
    from ..index import WhereError
    if max_tokens is not None:
        if budget is not None:
            fail("give --budget or --max-tokens (its old name), not both")
        print_warnings(["--max-tokens is deprecated: it is now --budget (the same tokens); "
                        "--max-tokens goes in a coming release"])
        budget = max_tokens
    where = filtered.where
    index = Index(db)
    asking = index.asked(query, k) if filtered.read_filters else None
    try:
        hits = index.search(asking.query(query) if asking else query, k, mode=mode.value, where=where,
                            budget=budget, filters=asking.filters if asking else ())
    except WhereError as exc:  # SQL the index's tables refuse
        fail(f"--where {exc.where!r}: {exc.reason}")
    if asking is not None:
        err.print(f"filters: {asking.described() or 'none'} ({asking.why or 'the question names no field value'})"
                  + (f"; words searched: {asking.text_query}" if asking.text_query and mode.value != "vector" else ""),
                  soft_wrap=True, markup=False, highlight=False)
    with results_out(json_out):
        print_hits(hits)
    if where and not hits:
        print_warnings([f"--where {line}" for line in index.unmatched(where=where)])
    if json_out:
        write_json_out(json_out, hits_json(hits, asking))
