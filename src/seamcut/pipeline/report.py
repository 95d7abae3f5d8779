"""A build's report: what ``build_index`` did, stage by stage (``STAGES``), and its copy in the
index folder (``REPORT_FILE``), saved after each batch so that a stopped build's next run
carries its work on."""
from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from .corpus import Failure

#: the stages a build's report accounts for, in the order they run
STAGES = ("read text", "read OCR", "cut", "embed", "write", "text index")


@dataclass
class Stage:
    """One stage's work: ``items`` (files, texts or rows), ``pages``, model ``tokens``; ``cpu``:
    the CPU seconds it spent (in the reading workers, Tesseract included; in the model's worker
    processes and the embedding thread; in the writing thread; in LanceDB building the text
    index); ``busy``: the wall-clock seconds its thread was at work (embedding, writing)."""
    name: str
    items: int = 0
    pages: int = 0
    tokens: int = 0
    cpu: float = 0.0
    busy: float = 0.0

    def per_cpu_second(self, what: str) -> float | None:
        """``pages`` or ``tokens`` per CPU second: the stage's rate on one core of its own."""
        n = getattr(self, what)
        return n / self.cpu if self.cpu > 0 and n else None


@dataclass
class BuildReport:
    """What ``build_index`` did. ``recovered``: documents a killed run had half written (removed,
    then written again); ``seconds``: wall-clock time of the whole build; ``runs``: how many runs
    it took (a build stopped before its end and resumed by the next run counts the work of each:
    ``merged``); ``warnings``: what reading the files said (a file whose content is not what its
    name says); ``held``: per file, the chunks the model's maximum input held below the size
    (``seamcut.strategies.held``); ``cut_tokens``: the model tokens the strategy itself had
    embedded while it cut (``semantic``'s sentences; those found in the embedding cache not
    counted), apart from the chunks' own vectors."""
    added: list[str] = field(default_factory=list)
    replaced: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    failures: list[Failure] = field(default_factory=list)
    recovered: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)  # files taken out (``BuildOptions.prune``)
    chunks: int = 0
    parents: int = 0
    embedded: int = 0
    pages: int = 0
    tokens: int = 0
    seconds: float = 0.0
    cores: int = 1
    stages: dict[str, Stage] = field(default_factory=dict)
    runs: int = 1
    warnings: list[str] = field(default_factory=list)
    held: list[str] = field(default_factory=list)
    cut_tokens: int = 0

    def stage(self, name: str) -> Stage:
        return self.stages.setdefault(name, Stage(name))

    @property
    def cpu(self) -> float:
        """CPU seconds of every stage together."""
        return sum(st.cpu for st in self.stages.values())

    @property
    def from_cache(self) -> float | None:
        """The share of the chunk vectors written that the model did not compute: found in the
        embedding cache, or a text repeated within a batch (None: nothing written)."""
        return 1.0 - self.embedded / self.chunks if self.chunks else None

    def seconds_of(self, *names: str, busy: bool = False) -> float:
        """The CPU seconds (``busy``: the busy seconds) of the stages named."""
        return sum((st.busy if busy else st.cpu) for n, st in self.stages.items() if n in names)

    @property
    def chunk_seconds(self) -> float:
        """The CPU seconds cutting took (``Index.update``'s report had it; kept for its users)."""
        return self.seconds_of("cut")

    @property
    def embed_seconds(self) -> float:
        """The seconds embedding was at work (kept for ``Index.update``'s users)."""
        return self.seconds_of("embed", busy=True)

    @property
    def write_seconds(self) -> float:
        """The seconds writing and the text index took (kept for ``Index.update``'s users)."""
        return self.seconds_of("write", "text index", busy=True)

    @property
    def efficiency(self) -> float | None:
        """How well the stages shared the cores: their CPU time spread over ``cores``, against the
        wall-clock time of the build (1.0: no core ever idle)."""
        return self.cpu / (self.cores * self.seconds) if self.seconds > 0 else None

    def to_dict(self) -> dict[str, Any]:
        """The report as plain data (``seamcut index --stats``)."""
        d = asdict(self)
        d["failures"] = [str(f) for f in self.failures]
        d["stages"] = list(d["stages"].values())
        d["cpu"], d["efficiency"] = self.cpu, self.efficiency
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "BuildReport":
        """A report from ``to_dict``'s data (failures kept as their messages)."""
        plain = {k: d[k] for k in ("added", "replaced", "unchanged", "recovered", "chunks", "parents",
                                   "embedded", "pages", "tokens", "seconds", "cores", "runs", "warnings", "held",
                                   "cut_tokens")
                 if k in d}
        stages = {st["name"]: Stage(**st) for st in d.get("stages", [])}
        failures = [Failure("", str(f)) for f in d.get("failures", [])]
        return cls(**plain, stages=stages, failures=failures)

    def merged(self, earlier: "BuildReport") -> "BuildReport":
        """This run's report with that of the earlier, stopped run(s) of the same build: work and
        seconds added; files the earlier runs wrote count as written, not as unchanged; failures
        are this run's (it tried those files again)."""
        done = set(earlier.added) | set(earlier.replaced)
        stages = {n: Stage(n) for n in (*earlier.stages, *self.stages)}
        for part in (earlier, self):
            for n, st in part.stages.items():
                total = stages[n]
                for f in ("items", "pages", "tokens", "cpu", "busy"):
                    setattr(total, f, getattr(total, f) + getattr(st, f))
        return BuildReport(
            added=earlier.added + self.added, replaced=earlier.replaced + self.replaced,
            unchanged=[u for u in self.unchanged if u not in done], failures=list(self.failures),
            recovered=earlier.recovered + self.recovered,
            warnings=earlier.warnings + self.warnings, held=earlier.held + self.held,
            **{f: getattr(earlier, f) + getattr(self, f)
               for f in ("chunks", "parents", "embedded", "pages", "tokens", "seconds", "runs", "cut_tokens")},
            cores=self.cores, stages=stages)


#: the report of an index's last build, in its folder: ``{"finished": bool, "report": ...}``,
#: saved after each batch written, so that a stopped build's next run carries its work on
REPORT_FILE = "seamcut-build.json"


def saved_report(folder: str | Path) -> tuple[BuildReport | None, bool]:
    """The report of the last build of the index at ``folder`` and whether that build finished
    (None: none saved, or unreadable)."""
    try:
        d = json.loads((Path(folder) / REPORT_FILE).read_text(encoding="utf-8"))
        return BuildReport.from_dict(d["report"]), bool(d["finished"])
    except (OSError, ValueError, KeyError, TypeError):
        return None, False


def save_report(folder: Path, report: BuildReport, finished: bool) -> None:
    """``report`` saved in the index ``folder`` (``finished``: the build's last save), atomically."""
    tmp = folder / (REPORT_FILE + ".tmp")
    tmp.write_text(json.dumps({"finished": finished, "report": report.to_dict()}), encoding="utf-8")
    tmp.replace(folder / REPORT_FILE)
