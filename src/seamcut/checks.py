"""``seamcut.compare``, ``seamcut.tune`` and ``seamcut.inspect``: a chunking checked against
evidence, your questions or the chunks themselves. The top layer beside ``report`` and ``integrations``: it
joins reading, chunking, the index, evaluation and diagnosis, each imported when first called."""
from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence, Union

from .errors import ConfigError
from .model import Document

if TYPE_CHECKING:
    from .diagnose import Inspection
    from .embed import Embedder
    from .evaluate import CompareResult, Question
    from .evaluate.space import Space
    from .evaluate.questions_check import QuestionsReport
    from .evaluate.tune_result import TuneResult
    from .pipeline.catalog import Catalog
    from .pipeline.corpus import Corpus, Limits, ReadOptions
    from .pipeline.engine import Engine

PathLike = Union[str, "os.PathLike[str]"]


def compare(documents: "PathLike | Sequence[PathLike] | Sequence[Document] | Corpus",
            questions: "PathLike | Sequence[Question]", *, strategies: Sequence[str] | None = None,
            k: int = 4, mode: str = "hybrid", model: str = "default",
            embedder: "Embedder | None" = None, size: int | None = None,
            overlap: int | None = None, unit: str = "tokens", workdir: PathLike | None = None,
            progress: bool = True, read_options: "ReadOptions | None" = None,
            catalog: "Catalog | None" = None, limits: "Limits | None" = None,
            budgets: Sequence[int] | None = None, engine: "str | Engine" = "local",
            address: str | None = None, gpus: float = 0, named_source: bool = False) -> "CompareResult":
    """Run chunking strategies on the same documents and questions and judge them: hits at ``k``,
    MRR, chunk counts and sizes, build time and its stages, tokens per question, span scores
    where the questions carry reference spans, and whether the best strategy's lead over each
    other one is more than noise (``seamcut.evaluate.compare``; ``seamcut compare`` on the
    command line).

    ``documents``: files or folders, indexed as ``seamcut index`` does (read and cut in worker
    processes, parsed once for all strategies and cached; ``read_options``, ``catalog`` and
    ``limits`` as ``seamcut.pipeline.run.build_index`` takes them; the files that fail are listed
    in the result's ``failures``); or ``Document``s or a ``seamcut.pipeline.corpus.Corpus``, cut
    in this process. ``questions``: a test set file (YAML, JSONL or CSV) or ``Question``s.
    ``strategies``: names or variants (``"parent-child:parents=blocks"``); None: every
    strategy. ``size`` and ``overlap`` (in ``unit``: ``tokens`` of the model, ``words`` or
    ``chars``) apply to every strategy; None: each strategy's default. ``model``: ``default``
    (multilingual-e5-small) or a sentence-transformers folder, with an embedding cache shared by
    every strategy; ``embedder`` overrides it (for files, ``model`` must name the same model:
    the workers load it for the ``semantic`` strategy). ``mode``: ``hybrid``, ``vector`` or
    ``text`` search. ``workdir``: where the indexes (``workdir/index/NAME``) go, kept for the
    next run, which reuses each one built as asked from the same files; None: a temporary
    folder. ``budgets``: tokens sent to the model per question at which every strategy is also
    scored (``seamcut.evaluate.score_budgets``); "best" is the best at the first one; None:
    256, 512, 1024, 2048 and the median of the strategies' tokens per question at ``k``, "best"
    at the median. ``engine``: where files are indexed, ``local`` (this machine's worker
    processes) or ``ray`` (Ray Data: the cluster at ``address``, else a local runtime, ``gpus``
    per embedding actor; needs ``pip install 'seamcut[ray]'``), or an engine object
    (``seamcut.pipeline.LocalEngine``, ``RayEngine``; ``address`` and ``gpus`` then unused).
    ``named_source``: a question that names its ``source`` is answered only by a chunk of that
    document (``Question.source_only``; the guide's hit@k counts the answer text in any document).

    Raises ``ValueError`` for an unknown strategy or option, a malformed test set, a budget that
    is not a positive number of tokens, or no document read. A question naming a file that is
    not among the documents goes on, unusable (``wrong_source`` in the result's
    ``questions_check``), as every question the check finds unusable does.
    """
    from .embed import load_embedder
    from .evaluate import compare as judge
    from .pipeline.corpus import Corpus, Limits, ReadOptions
    from .pipeline.engine import engine_from
    from .strategies import REGISTRY
    from .strategies.spec import parse_spec

    names = list(strategies) if strategies else list(REGISTRY)
    for name in names:
        parse_spec(name)  # an unknown strategy or option stops before any work
    asked = _asked(questions, named_source)
    items = documents.documents if isinstance(documents, Corpus) else _listed(documents)
    in_memory = isinstance(documents, Corpus) or (bool(items) and all(isinstance(d, Document)
                                                                          for d in items))
    if in_memory:
        if not items:
            failed = getattr(documents, "failures", [])
            raise ConfigError("no documents read: " + "; ".join(map(str, failed[:5])))
    else:
        _files(items)
    checked = _checked(asked, items if in_memory else None, items, read_options, catalog, limits, progress)
    opts: dict[str, Any] = {key: v for key, v in (("size", size), ("overlap", overlap)) if v is not None}
    if unit != "tokens":
        opts["unit"] = unit
    run_on = engine_from(engine, address, gpus) if isinstance(engine, str) else engine
    run_on.check()  # before any work: Ray missing is one line saying how to install it
    emb = embedder or load_embedder(None if model == "default" else model, cache=True)
    with tempfile.TemporaryDirectory(prefix="seamcut-compare-") as scratch:
        result = judge(items, asked, strategies=names, k=k, mode=mode, embedder=emb,
                       model=model, workdir=scratch if workdir is None else workdir,
                       options={n: opts for n in names}, progress=progress,
                       hashes=documents.hashes if isinstance(documents, Corpus) else None,
                       read_options=read_options or ReadOptions(), catalog=catalog,
                       limits=limits or Limits(), budgets=budgets, engine=run_on)
    if isinstance(documents, Corpus):
        result.failures = [str(f) for f in documents.failures] + result.failures
    result.questions_check = checked
    return result


def tune(documents: "PathLike | Sequence[PathLike]", questions: "PathLike | Sequence[Question]", *,
         space: "PathLike | Space | None" = None, minutes: float | None = None, k: int = 4,
         model: str = "default", embedder: "Embedder | None" = None, seed: int = 0,
         held_out: float = 0.3, eta: int = 3, budget: int | None = None,
         exhaustive: bool = False, workdir: PathLike | None = None, progress: bool = True,
         read_options: "ReadOptions | None" = None, catalog: "Catalog | None" = None,
         limits: "Limits | None" = None, named_source: bool = False,
         versus: "Sequence[str] | None" = None) -> "TuneResult":
    """Search a space of chunkings and search modes for the one that serves ``questions`` best
    over ``documents`` (files or folders), by successive halving on a tune part of the questions,
    the winner also scored on the held-out part (``seamcut.evaluate.tune``; ``seamcut tune`` on
    the command line). ``space``: a YAML file or a ``Space`` (None: the default space, every
    strategy with its defaults and variants). ``minutes``: the wall-clock time allowed (None: no
    limit). ``held_out``: the share of the questions held out (seeded by ``seed``);
    ``budget``: the tokens sent to the model per question "best" is judged at, as ``compare``'s
    ``budgets`` (None: the median of the first round's candidates at ``k``); ``exhaustive``: every
    candidate on everything, in one round. ``workdir``: where the indexes go, kept so the next run only searches (None: a
    temporary folder). ``model``/``embedder``, ``read_options``, ``catalog``, ``limits``: as
    ``compare`` takes them, and ``named_source``. ``versus``: the chunking specs the winner is
    tested against (searched hybrid, judged in the final round on everything; None: every
    strategy's defaults; empty: none, and none of their cost). Raises ``ValueError`` as
    ``compare`` does, and for a bad space file or spec.
    """
    from .embed import load_embedder
    from .evaluate.space import load_space
    from .pipeline.corpus import Limits, ReadOptions
    from .evaluate.tune import tune as search

    chosen = load_space(space) if isinstance(space, (str, os.PathLike)) else space
    asked = _asked(questions, named_source)
    items = _listed(documents)
    _files(items)
    checked = _checked(asked, None, items, read_options, catalog, limits, progress)
    emb = embedder or load_embedder(None if model == "default" else model, cache=True)
    with tempfile.TemporaryDirectory(prefix="seamcut-tune-") as scratch:
        result = search(items, asked, embedder=emb, workdir=scratch if workdir is None else workdir,
                      space=chosen, k=k, model=model, seed=seed, held_out=held_out, eta=eta,
                      budget=budget, minutes=minutes, exhaustive=exhaustive,
                      progress=progress, read_options=read_options or ReadOptions(),
                      catalog=catalog, limits=limits or Limits(), defaults=versus)
    result.questions_check = checked
    return result


def _checked(asked: Sequence["Question"], documents: "Sequence[Document] | None", files: Sequence[Any],
             read_options: "ReadOptions | None", catalog: "Catalog | None", limits: "Limits | None",
             progress: bool) -> "QuestionsReport":
    """The test set checked against the documents before anything is judged (``seamcut
    questions check``): ``documents`` where they are in memory, else ``files`` read as the build
    reads them, into the parsed-document cache the build then reads from."""
    from .evaluate.questions_check import check_questions
    from .pipeline.corpus import ReadOptions, read_corpus
    if documents is None:
        documents = read_corpus(files, options=read_options or ReadOptions(), catalog=catalog,
                                limits=limits, progress=progress).documents
    return check_questions(asked, documents)


def _asked(questions: "PathLike | Sequence[Question]", named_source: bool = False) -> list["Question"]:
    """The test set (read where a file is named; with ``named_source``, each question that names
    its source answered only there)."""
    from .evaluate.questions import load_questions, only_named_source
    asked = load_questions(questions) if isinstance(questions, (str, os.PathLike)) else list(questions)
    return only_named_source(asked) if named_source else asked


def _files(items: Sequence[Any]) -> list[str]:
    """The files that files and folders name; ValueError where none is there."""
    from .readers import expand
    sources = [str(f) for f in expand(items)]
    if not any(Path(f).is_file() for f in sources):
        raise ConfigError(f"no documents read from {', '.join(map(str, items))}: no file there")
    return sources


def inspect(chunks: "PathLike | Iterable[Any]",
            sources: "PathLike | Document | Sequence[PathLike | Document] | None" = None, *,
            model: Any = None, size: int | None = None, overlap: int | None = None,
            unit: str = "tokens") -> "Inspection":
    """Check chunks made by any tool (``seamcut.diagnose``; ``seamcut inspect`` on the command line):
    sizes in characters, words and the model's tokens, the real overlap of every neighbour pair,
    chunks over the model's maximum input, source text in no chunk and chunk text in no source,
    tokenizer files with truncation or padding on.

    ``chunks``, in document order: seamcut ``Chunk``s, LangChain ``Document``s, LlamaIndex
    nodes, dicts with a text field, strings; or a JSON/JSONL file of them. ``sources``: the
    documents they were cut from (``Document``s, files or folders); None: overlap by
    suffix/prefix match, coverage not checked. ``model``: None/``"default"``
    (multilingual-e5-small, 512 tokens), a sentence-transformers folder, a ``tokenizer.json`` or
    ``tiktoken:NAME``. ``size`` and ``overlap`` (in ``unit``: ``tokens``, ``words`` or ``chars``)
    are what the chunks were made with, to check against; None: not stated.
    """
    from .diagnose import inspect_chunks, load_chunks, load_sources

    if isinstance(chunks, (str, os.PathLike)):
        chunks = load_chunks(chunks)
    given = [] if sources is None else _listed(sources)
    paths = [s for s in given if not isinstance(s, Document)]
    docs = [s for s in given if isinstance(s, Document)] + (load_sources(paths) if paths else [])
    return inspect_chunks(chunks, sources=docs, model=model, size=size, overlap=overlap, unit=unit)


def _listed(items: Any) -> list[Any]:
    """One path or ``Document``, or a sequence of them, as a list."""
    return [items] if isinstance(items, (str, os.PathLike, Document)) else list(items)
