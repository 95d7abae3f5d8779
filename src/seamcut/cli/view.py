"""``seamcut view``: static pages that show where every cut falls, in the text and on the page."""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, List, Optional

import typer

from ..errors import ConfigError
from ..strategies import DEFAULT_STRATEGY
from .errors import fail
from .options import (Flags, Model, Overlap, Paths, ReadFlags, Size, StrategyFlags, Tokenizer, Unit,
                      UnitOption)
from .render import err, print_failures, print_warnings


@dataclass(frozen=True)
class ViewOut(Flags):
    """Where ``view`` writes its pages, and whether it serves them with a search page."""
    out: Annotated[Path, typer.Option("--out", "-o", help="Folder for the pages.")] = Path("out/view")
    serve: Annotated[bool, typer.Option(
        "--serve", help="Also index the documents (OUT/index/STRATEGY) and serve OUT with a search "
                        "page on http://127.0.0.1:PORT.")] = False
    port: Annotated[int, typer.Option("--port", help="Port for --serve.")] = 8765


@dataclass(frozen=True)
class SizeFlags(Flags):
    """The sizes ``view`` cuts every strategy to, and the model they are counted in."""
    size: Size = None
    overlap: Overlap = None
    unit: UnitOption = Unit.tokens
    tokenizer: Tokenizer = None
    model: Model = "default"

    def options(self) -> dict[str, Any]:
        """The strategy options the flags set, as ``StrategyFlags.options`` gives them."""
        return StrategyFlags(size=self.size, overlap=self.overlap, unit=self.unit,
                             tokenizer=self.tokenizer).options()


def view_command(
    paths: Paths,
    strategy: Annotated[Optional[List[str]], typer.Option(
        "--strategy", "-s", help="A strategy or variant (NAME:OPTION=VALUE:...) to draw; repeat it "
                                 f"for several (default: {DEFAULT_STRATEGY}).")] = None,
    compare: Annotated[Optional[Path], typer.Option(
        "--compare", help="A `seamcut compare --json` file: draw its strategies and write "
                          "questions.html (what each question got back).")] = None,
    output: ViewOut = ViewOut(),
    sizing: SizeFlags = SizeFlags(),
    reading: ReadFlags = ReadFlags(),
) -> None:
    """Write pages that show each document's text with every chunk drawn where it is (tokens,
    labels, overlap, inspect's findings), and for PDFs the page images with element and chunk
    boxes: click a chunk to see its boxes, a box to see its chunk. Open OUT/index.html."""
    from ..pipeline.corpus import moved, read_corpus
    from ..pipeline.jobs import model_sized, sized_spec
    from ..embed import load_embedder
    from ..report.view import build_view, cut_all, named_as_in_run, run_sources, strategies_of, strategies_of_run
    run, model, out = None, sizing.model, output.out
    if compare is not None:
        if strategy:
            fail("--compare draws the run's own strategies: leave out --strategy")
        try:
            run = json.loads(compare.read_text(encoding="utf-8"))
            specs = strategies_of_run(run)
        except FileNotFoundError:
            fail(f"{compare}: no such file")
        except (json.JSONDecodeError, UnicodeDecodeError, ConfigError) as exc:  # not JSON, not a run
            fail(f"{compare}: {exc}")
        if model == "default" and isinstance(run.get("model"), str):
            model = run["model"]
    else:
        try:
            specs = strategies_of(strategy or [DEFAULT_STRATEGY], model_sized(sizing.options(), model))
        except ConfigError as exc:
            fail(str(exc))
    # sized and, for semantic, embedded as compare and index do: the same chunks and ids
    specs = [sized_spec(s, model) for s in specs]
    embedder = (load_embedder(None if model == "default" else model, cache=True)
                if output.serve or any(s.name == "semantic" for s in specs) else None)
    corpus = read_corpus(paths, options=reading.options(), catalog=reading.load_catalog())
    print_failures(corpus.failures, len(corpus.documents) + len(corpus.failures))
    if not corpus.documents:
        fail("no document read")
    documents = list(corpus.documents)
    if run is not None:  # each document by the name the run read it by: its chunk ids are made from it
        named = named_as_in_run(paths, run)
        documents = [moved(d, named[d.source]) if d.source in named else d for d in documents]
        elsewhere = sorted(run_sources(run) - {d.source for d in documents})
        if elsewhere:
            print_warnings([f"the run read {len(elsewhere)} file(s) by names no document here has "
                            f"(e.g. {elsewhere[0]}): their results are not drawn; give view the files the "
                            f"run read"])
    notes = [w for doc in documents for w in doc.metadata.get("warnings", ())]
    chunkings = cut_all(documents, specs, notes, embedder)
    print_warnings(notes)
    sizer = sizing.tokenizer or (None if model == "default" else model_sized({}, model).get("tokenizer"))
    index = build_view(out, documents, specs, chunkings, compare=run, search=output.serve,
                       model=sizer, password=reading.password)
    err.print(f"view → {index}")
    if output.serve:
        _serve(out, paths, specs, model, embedder, reading, output.port)


def _serve(out: Path, paths: list[Path], specs: list[Any], model: str, embedder: Any,
           reading: ReadFlags, port: int) -> None:
    """Each strategy indexed under OUT/index/SLUG as compare indexes it (reused when the files
    are unchanged), then OUT served with the search page."""
    from ..evaluate.indexes import Digests, index_files
    from ..evaluate.options import Ready
    from ..pipeline.local import LocalEngine
    from ..pipeline.options import BuildOptions
    from ..readers import expand
    from ..report.view.serve import serve
    files = [str(f) for f in expand(list(paths))]
    digests = Digests(files)
    build = BuildOptions(read_options=reading.options(), catalog=reading.load_catalog())
    indexes = {}
    with LocalEngine().series(build.limits, len(files)) as engine:
        for s in specs:
            index, _, _ = index_files(out / "index" / s.slug, s, files, Ready(embedder, out, model, build, engine),
                                      digests)
            indexes[s.label] = index
    serve(out, indexes, port)
