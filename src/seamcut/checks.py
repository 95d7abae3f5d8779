"""``seamcut.compare``, ``seamcut.tune`` and ``seamcut.inspect``: a chunking checked against
evidence, your questions or the chunks themselves. The top layer beside ``report`` and ``integrations``: it
joins reading, chunking, the index, evaluation and diagnosis, each imported when first called."""
from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Sequence, Union

from .errors import ConfigError
from .model import Document

if TYPE_CHECKING:
    from .diagnose import Inspection
    from .evaluate import CompareResult, Question
    from .evaluate.options import Indexing, Judging, TuneOptions
    from .evaluate.questions_check import QuestionsReport
    from .evaluate.tune_result import TuneResult
    from .pipeline.corpus import Corpus
    from .pipeline.options import BuildOptions
    from .strategies.spec import StrategySpec

PathLike = Union[str, "os.PathLike[str]"]


def compare(documents: "PathLike | Sequence[PathLike] | Sequence[Document] | Corpus",
            questions: "PathLike | Sequence[Question]",
            strategies: "Sequence[str | StrategySpec] | None" = None, *,
            indexing: "Indexing | None" = None, judging: "Judging | None" = None,
            named_source: bool = False, **keywords: Any) -> "CompareResult":
    """Run chunking strategies on the same documents and questions and judge them: hits at ``k``,
    MRR, chunk counts and sizes, build time and its stages, tokens per question, span scores
    where the questions carry reference spans, and whether the best strategy's lead over each
    other one is more than noise (``seamcut.evaluate.compare``; ``seamcut compare`` on the
    command line).

    ``documents``: files or folders, indexed as ``seamcut index`` does (read and cut in worker
    processes, parsed once for all strategies and cached; the files that fail are listed in the
    result's ``failures``); or ``Document``s or a ``seamcut.pipeline.corpus.Corpus``, cut in this
    process. ``questions``: a test set file (YAML, JSONL or CSV) or ``Question``s.
    ``strategies``: names or variants (``"parent-child:parents=blocks"``) or ``StrategySpec``s,
    each parsed once, here; None: every strategy. ``named_source``: a question that names its
    ``source`` is answered only by a chunk of that document (``Question.source_only``; the
    guide's hit@k counts the answer text in any document).

    How the indexes are built: ``indexing`` (``seamcut.evaluate.options.Indexing``: embedder,
    workdir, model, ``BuildOptions``, engine); how they are judged: ``judging`` (``Judging``:
    ``k``, ``mode``, ``budgets``). Or, in their place or over their fields, these keywords
    (``COMPARE_KEYWORDS``):

    * ``size``, ``overlap`` (in ``unit``: ``tokens`` of the model, ``words`` or ``chars``) and
      ``unit``: for every strategy (a spec's own option wins); None: each strategy's default.
    * ``k`` (results per question, default 4), ``mode`` (``hybrid``, ``vector`` or ``text``),
      ``budgets`` (tokens sent to the model per question at which every strategy is also scored,
      "best" at the first; None: 256, 512, 1,024, 2,048 and the median of the strategies' tokens
      per question at ``k``, "best" at the median), ``filters`` (the ways each question's search
      is filtered, each a row of its own: ``none``, ``where``, the test set's ``where``, and
      ``question``, filters read from the question; None: ``none``, and ``where`` where a
      question carries one): ``Judging``'s.
    * ``model`` (``default``, multilingual-e5-small, or a sentence-transformers folder, with an
      embedding cache shared by every strategy), ``embedder`` (overrides it; for files,
      ``model`` must name the same model: the workers load it for ``semantic``), ``workdir``
      (where the indexes go, ``workdir/index/NAME``, kept for the next run, which reuses each
      one built as asked from the same files; None: a temporary folder): ``Indexing``'s.
    * ``read_options`` (``ReadOptions``), ``catalog``, ``limits`` (``Limits``: workers, seconds
      and MiB per file) and ``progress`` (shown on stderr, default True): ``BuildOptions``'.
    * ``engine``: where files are indexed, ``local`` (this machine's worker processes, the
      default) or ``ray`` (Ray Data: the cluster at ``address``, else a local cluster, ``gpus``
      per embedding actor; needs ``pip install 'seamcut[ray]'``), or an engine object
      (``seamcut.pipeline.LocalEngine``, ``RayEngine``).

    Raises ``ConfigError`` (a ``ValueError``) for an unknown strategy or option, a malformed
    test set, a budget that is not a positive number of tokens, or no document read; a keyword
    not among ``COMPARE_KEYWORDS`` is a ``TypeError``. A question naming a file that is not among the
    documents goes on, unusable (``wrong_source`` in the result's ``questions_check``), as every
    question the check finds unusable does.
    """
    from .evaluate import compare as compare_strategies
    from .evaluate.options import Judging
    from .pipeline.corpus import Corpus
    from .strategies import REGISTRY
    from .strategies.spec import run_sizes

    _known("compare", keywords, COMPARE_KEYWORDS)
    sizes = run_sizes(*(keywords.pop(key, None) for key in ("size", "overlap", "unit")))
    specs = [_spec(s).with_defaults(sizes) for s in (strategies or list(REGISTRY))]
    how = _fields(judging or Judging(), keywords)  # a bad budget stops before any work
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
    built = _indexing(indexing, keywords)
    checked = _checked(asked, items if in_memory else None, items, built.build)
    built.engine.check()  # before any work: Ray missing is one line saying how to install it
    result = compare_strategies(items, asked, specs, built, how,
                   documents.hashes if isinstance(documents, Corpus) else None)
    if isinstance(documents, Corpus):
        result.failures = [str(f) for f in documents.failures] + result.failures
    result.questions_check = checked
    return result


def tune(documents: "PathLike | Sequence[PathLike]", questions: "PathLike | Sequence[Question]", *,
         options: "TuneOptions | None" = None, indexing: "Indexing | None" = None,
         named_source: bool = False, **keywords: Any) -> "TuneResult":
    """Search a space of chunkings and search modes for the one that serves ``questions`` best
    over ``documents`` (files or folders), by successive halving on a tune part of the questions,
    the winner also scored on the held-out part (``seamcut.evaluate.tune``; ``seamcut tune`` on
    the command line). ``named_source``: as ``compare`` takes it.

    How it searches: ``options`` (``seamcut.evaluate.options.TuneOptions``); how its indexes are
    built, and where: ``indexing`` (``Indexing``, as ``compare`` takes it: an ``engine`` among
    its fields). Or, in their place or over their fields, these keywords (``TUNE_KEYWORDS``):

    * ``space``: a YAML file or a ``Space`` (None: the default space, every strategy with its
      defaults and variants); ``minutes``: the wall-clock time allowed (None: no limit);
      ``k``: results per question (default 4); ``held_out``: the share of the questions held
      out (seeded by ``seed``); ``eta``: each round's growth and cut (default 3); ``budget``: the
      tokens sent to the model per question "best" is judged at, as ``compare``'s ``budgets``
      (None: the median of the first round's candidates at ``k``); ``exhaustive``: every
      candidate on everything, in one round; ``finalists``: the last halving round's best that
      reach the final round (default 3); ``versus``: the chunking specs the winner is tested
      against (searched hybrid, judged in the final round on everything; None: every
      strategy's defaults; empty: none, and none of their cost); ``filters``: how each question's
      search is filtered, ``none``, ``where`` (the test set's) or ``question`` (read from it;
      None: ``where`` where a question carries one): ``TuneOptions``'.
    * ``model``, ``embedder``, ``workdir`` (where the indexes go, kept so the next run only
      searches; None: a temporary folder), ``read_options``, ``catalog``, ``limits``,
      ``progress``, ``engine`` (with ``address`` and ``gpus``): as ``compare`` takes them.

    Raises ``ConfigError`` as ``compare`` does, and for a bad space file or spec.
    """
    from .evaluate.options import TuneOptions
    from .evaluate.space import load_space
    from .evaluate.tune import tune as search

    _known("tune", keywords, TUNE_KEYWORDS)
    space = keywords.get("space")
    if isinstance(space, (str, os.PathLike)):
        keywords["space"] = load_space(space)
    if keywords.get("versus") is not None:
        keywords["versus"] = list(keywords["versus"])
    how = _fields(options or TuneOptions(), keywords)
    asked = _asked(questions, named_source)
    items = _listed(documents)
    _files(items)
    built = _indexing(indexing, keywords)
    checked = _checked(asked, None, items, built.build)
    built.engine.check()
    result = search(items, asked, built, how)
    result.questions_check = checked
    return result


#: the keywords ``compare`` gathers into its option objects (beside size, overlap and unit)
_BUILD_KEYWORDS = ("read_options", "catalog", "limits", "progress")
_INDEXING_KEYWORDS = ("model", "embedder", "workdir", "engine", "address", "gpus")
COMPARE_KEYWORDS = ("size", "overlap", "unit", "k", "mode", "budgets", "filters", *_INDEXING_KEYWORDS, *_BUILD_KEYWORDS)
TUNE_KEYWORDS = ("space", "minutes", "k", "budget", "seed", "held_out", "eta", "exhaustive", "finalists",
                 "versus", "filters", *_INDEXING_KEYWORDS, *_BUILD_KEYWORDS)


def _known(name: str, keywords: dict[str, Any], known: Sequence[str]) -> None:
    """``ConfigTypeError`` for a keyword ``name`` does not take, as Python's own would say."""
    from .renamed import refuse_unknown
    refuse_unknown(name, keywords, known)


def _fields(given: Any, keywords: dict[str, Any]) -> Any:
    """The option object ``given`` with those of ``keywords`` that name its fields over its own
    (a keyword given as None is not given: ``read_options=None`` leaves the object's)."""
    import dataclasses
    names = {f.name for f in dataclasses.fields(given)}
    return dataclasses.replace(given, **{k: v for k, v in keywords.items() if k in names and v is not None})


def _indexing(given: "Indexing | None", keywords: dict[str, Any]) -> "Indexing":
    """How the indexes are built: ``given`` (or the defaults), with the keywords over it; an
    engine named (``local``, ``ray``, with ``address`` and ``gpus``) made here."""
    from .evaluate.options import Indexing
    from .pipeline.engine import engine_from
    ours = dict(keywords)
    address, gpus = ours.pop("address", None), ours.pop("gpus", 0)
    if isinstance(ours.get("engine"), str):  # an engine object: address and gpus unused
        ours["engine"] = engine_from(ours["engine"], address, gpus)
    built = _fields(given or Indexing(), ours)
    return _fields(built, {"build": _fields(built.build, ours)})


def _spec(strategy: "str | StrategySpec") -> "StrategySpec":
    """A strategy as its ``StrategySpec``: parsed where it is words (the one parse of a call)."""
    from .peers import parse_contestant
    return parse_contestant(strategy) if isinstance(strategy, str) else strategy


def _checked(asked: Sequence["Question"], documents: "Sequence[Document] | None", files: Sequence[Any],
             build: "BuildOptions") -> "QuestionsReport":
    """The test set checked against the documents before anything is judged (``seamcut
    questions check``): ``documents`` where they are in memory, else ``files`` read as the build
    reads them (``build``), into the parsed-document cache the build then reads from."""
    from .evaluate.questions_check import check_questions
    from .pipeline.corpus import read_corpus
    if documents is None:
        documents = read_corpus(files, options=build.read_options, catalog=build.catalog,
                                limits=build.limits, progress=build.progress).documents
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
