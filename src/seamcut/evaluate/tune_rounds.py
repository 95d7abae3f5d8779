"""The rounds of a ``seamcut tune`` search: each chunking's index built (grown from its last
round's, or taken from the journal where an earlier run finished it), searched in every mode and
judged; the cut between halving rounds; and the index's size in bytes."""
from __future__ import annotations

import json
import math
import shutil
import time
from pathlib import Path
from typing import Any, Sequence

from ..errors import ConfigError
from ..index import Index
from ..ground.progress import Steps
from ..strategies.spec import StrategySpec
from .indexes import (Digests, code_version, different_files, index_files, inputs_digest, missing_files,
                      plain_options)
from .judge import Outcome, StrategyResult, chunk_tokens, judge
from .options import Judging, Ready
from .questions import Question
from .significance import compare_hits
from .space import Candidate
from .tune_journal import Journal, Spent
from .tune_judged import _Judged, _row, _split, quality, winner


class _Search:
    """Builds the rounds' indexes and judges candidates on them, keeping the log."""

    def __init__(self, indexing: Ready, k: int, deadline: float | None, journal: Journal) -> None:
        """``indexing``: how every build is done (its engine: where, replaced by the one of a
        ``series`` for the search); ``k``: results per question; ``deadline``: when the search's
        time runs out (``time.perf_counter()`` seconds; None: never)."""
        self.indexing, self.k = indexing, k
        self.filters = "none"  # how each question's search is filtered (``filtering.FILTERS``)
        self.work, self.embedder = Path(indexing.workdir), indexing.embedder
        self.journal = journal
        self.progress, self.deadline = indexing.build.progress, deadline
        self.folders: dict[str, Path] = {}        # chunking label -> its last round's index folder
        self.log: list[dict[str, Any]] = []
        self.rounds: list[dict[str, Any]] = []
        self.failures: list[str] = []
        self.index_tokens: dict[str, int] = {}    # chunking label -> tokens of its full index
        self.every = 0                            # how many files the corpus has
        self.rate: float | None = None            # seconds per candidate and question, last round
        self.judged: list[_Judged] = []           # every candidate judged, a log row each
        self.cut_tokens = 0                       # model tokens strategies embedded while cutting
        self.chunking_tokens: dict[tuple[int, str], int] = {}  # (round, chunking) -> tokens its build embedded
        self.versus_tokens = 0                    # the final round's tokens for chunkings only the defaults brought
        self.warnings: list[str] = []              # rounds whose candidates were judged on different files
        self.missing: dict[str, list[str]] = {}    # chunking label -> the files its last build lacks

    def embedded_tokens(self) -> int:
        """The model tokens embedded so far: the chunks' and queries' (this process's embedder)
        and the sentences ``semantic`` embedded in the cutting workers."""
        return getattr(self.embedder, "computed_tokens", 0) + self.cut_tokens

    def record(self) -> None:
        """The work so far, in the journal."""
        self.journal.progress(self.embedded_tokens())

    def out_of_time(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline

    def too_slow(self, alive: list[Candidate], asked: list[Question], rounds_left: int) -> bool:
        """Whether the rounds left (each about as costly as this one would be) would overrun."""
        if self.deadline is None or self.rate is None:
            return False
        estimate = self.rate * len(alive) * len(asked) * rounds_left
        return time.perf_counter() + estimate > self.deadline

    def round(self, number: int, candidates: list[Candidate], docs: list[str], asked: list[Question],
              held: list[Question]) -> tuple[list[_Judged], bool]:
        """Every candidate judged on ``asked`` (and ``held``) over the files ``docs``; whether
        the round was finished (False: the time limit ran out)."""
        t0 = time.perf_counter()
        tokens0 = self.embedded_tokens()
        carried = Spent()  # what earlier runs of this search spent on this round
        chunkings: dict[str, list[Candidate]] = {}
        for c in candidates:
            chunkings.setdefault(c.spec.label, []).append(c)
        digests = Digests(docs)
        judged: list[_Judged] = []
        done = True
        with Steps(len(chunkings), f"round {number}: {len(candidates)} candidates, {len(docs)} documents, "
                                   f"{len(asked)} questions", self.progress) as bar:
            for label, group in chunkings.items():
                if self.out_of_time() and (judged or self.judged):  # one chunking at least
                    done = False
                    break
                piece = f"round {number}: {label}"
                earlier = self.journal.carried(piece)
                kept = self._kept(piece, group, docs, asked, held, digests)
                if kept is not None:  # an earlier run finished it: its results, nothing built
                    judged += kept
                    self.chunking_tokens[(number, label)] = earlier.tokens
                else:
                    self.journal.start(piece, self.embedded_tokens())
                    done_here, results = self._chunking(group[0].spec, group, docs, asked, held, digests,
                                                        earlier.seconds)
                    judged += done_here
                    self.chunking_tokens[(number, label)] = self.journal.done(self.embedded_tokens(), results).tokens
                carried = Spent(carried.tokens + earlier.tokens, carried.seconds + earlier.seconds)
                bar.advance(label=label)
        seconds = time.perf_counter() - t0 + carried.seconds
        self._same_files(number, docs, judged)
        if judged:
            self.rate = seconds / (len(judged) * max(1, len(asked) + len(held)))
        self.rounds.append({"round": number, "documents": len(docs), "questions": len(asked),
                            "candidates": len(candidates), "kept": len(judged),  # until the cut
                            "seconds": round(seconds, 3),
                            "embedded_tokens": self.embedded_tokens() - tokens0 + carried.tokens})
        for j in judged:
            j.row = {"round": number, **_row(j, len(docs)),
                     "chunking_tokens": self.chunking_tokens.get((number, j.candidate.spec.label), 0),
                     "kept": True, "dropped": None}
            self.log.append(j.row)
            self.judged.append(j)
        return judged, done

    def _chunking(self, spec: StrategySpec, group: list[Candidate], docs: list[str],
                  asked: list[Question], held: list[Question], digests: Digests,
                  earlier: float = 0.0) -> tuple[list[_Judged], dict[str, Any]]:
        """One chunking's index over ``docs`` (grown from its last round's), searched in each
        mode of ``group``; ``earlier``: seconds earlier runs of the search spent on it. Returns
        the candidates judged and what the journal keeps of them (``_kept`` reads it)."""
        t0 = time.perf_counter() - earlier
        folder = self.work / "index" / spec.slug / _docset(docs)
        last = self.folders.get(spec.label)
        if last is not None and last != folder and last.is_dir() and not folder.exists():
            # grown, not rebuilt: only the added files are indexed; copied whole or not at all
            partial = folder.with_name(folder.name + ".copying")
            shutil.rmtree(partial, ignore_errors=True)
            shutil.copytree(last, partial)
            partial.rename(folder)
        index, report, _ = index_files(folder, spec, docs, self.indexing, digests)
        self.folders[spec.label] = folder
        self.cut_tokens += report.cut_tokens
        for f in map(str, report.failures):
            if f not in self.failures:
                self.failures.append(f)
        if not index.files:
            raise ConfigError(f"no documents read for {spec.label}: "
                              + ("; ".join(self.failures[:5]) or ", ".join(docs[:5])))
        sizes = chunk_tokens(index)
        size = index_bytes(index)
        if len(docs) == self.every:  # an index of the whole corpus: what `seamcut index` would embed
            self.index_tokens[spec.label] = sum(sizes)
        build = (time.perf_counter() - t0) / len(group)
        out = []
        for c in group:
            t1 = time.perf_counter()
            res = judge(c.label, plain_options(spec.options), index, [*asked, *held],
                        Judging(self.k, c.mode, filters=[self.filters]), report, False, sizes)
            res.name = c.label  # one way of filtering for the whole search: the candidate's label
            out.append(_split(c, res, len(asked), held, size, build + time.perf_counter() - t1, folder,
                              len(index.files)))
        self.missing[spec.label] = missing_files(index, docs)
        results = {"check": self._check(docs, digests), "folder": str(folder), "files": len(index.files),
                   "index_bytes": size, "chunks": len(sizes),
                   "index_tokens": self.index_tokens.get(spec.label) if len(docs) == self.every else None,
                   "failures": [str(f) for f in report.failures], "missing": self.missing[spec.label],
                   "candidates": [{"label": j.label, "seconds": j.seconds,
                                   "outcomes": [o.record() for o in [*j.tune.outcomes,
                                                                     *(j.held.outcomes if j.held else [])]]}
                                  for j in out]}
        return out, results

    def _check(self, docs: list[str], digests: Digests) -> str:
        """What a piece's results hold for: the files' bytes, the reading inputs (options,
        catalog fields) and all of seamcut's code, the judging included."""
        import hashlib
        h = hashlib.sha256(inputs_digest(docs, self.indexing.build.read_options, self.indexing.build.catalog).encode())
        h.update(json.dumps(sorted(digests.all().items())).encode("utf-8", "surrogatepass"))
        h.update(code_version(judging=True).encode())
        return h.hexdigest()[:32]

    def _kept(self, piece: str, group: list[Candidate], docs: list[str], asked: list[Question],
              held: list[Question], digests: Digests) -> list[_Judged] | None:
        """The candidates of ``piece`` as an earlier run of the search left them in the journal,
        where it did for the same files, inputs and code (None: build and judge them)."""
        kept = self.journal.result(piece)
        if kept is None or [c["label"] for c in kept["candidates"]] != [c.label for c in group] \
                or kept["check"] != self._check(docs, digests):
            return None
        spec = group[0].spec
        folder = Path(kept["folder"])
        self.folders[spec.label] = folder  # grown from in the next round where it is still there
        if kept["index_tokens"] is not None:
            self.index_tokens[spec.label] = int(kept["index_tokens"])
        self.failures += [f for f in kept["failures"] if f not in self.failures]
        self.missing[spec.label] = list(kept["missing"])
        out = []
        for c, got in zip(group, kept["candidates"]):
            res = StrategyResult(c.label, plain_options(spec.options), int(kept["chunks"]), [], 0.0, 0.0, 0.0,
                                 outcomes=[Outcome.from_record(q, o) for q, o in zip([*asked, *held], got["outcomes"],
                                                                                   strict=True)])
            out.append(_split(c, res, len(asked), held, int(kept["index_bytes"]), float(got["seconds"]), folder,
                              int(kept["files"])))
        return out

    def _same_files(self, number: int, docs: list[str], judged: list[_Judged]) -> None:
        """A warning where the round's chunkings hold different files (a file read for one and
        failed for another): their scores are then not over the same documents."""
        built = {j.candidate.spec.label for j in judged}
        uneven = different_files({label: m for label, m in self.missing.items() if label in built}, len(docs))
        if uneven:
            self.warnings.append(f"round {number}: the chunkings were {uneven}")

    def cut(self, judged: list[_Judged], budget: int, eta: int) -> list[Candidate]:
        """The candidates that go on, chosen by chunking (a round pays for its chunkings' builds,
        not for the modes searched in them): chunkings ranked by their best candidate by
        ``quality``, the best 1/``eta`` kept with every mode, less any whose best the leader beats
        by more than noise on hits within ``budget`` tokens (paired, on the same questions); and
        the chunking the judge would take now (``winner``: of those tied with the leader within
        noise, the cheaper and simpler), kept wherever its place is, so a noisy lead never cuts
        what a tie would choose. The log says of each candidate dropped by whom, the p-value and
        why, and of a chunking kept on the tie what it won it on."""
        ordered = sorted(judged, key=lambda j: quality(j.tune, self.k, budget), reverse=True)
        leader = ordered[0]
        best: dict[str, _Judged] = {}  # chunking label -> its best candidate, best chunking first
        for j in ordered:
            best.setdefault(j.candidate.spec.label, j)
        keep = math.ceil(len(best) / eta)
        why_out: dict[str, str] = {}  # chunking label -> why it goes
        for place, (chunking, j) in enumerate(best.items()):
            if j is leader:
                continue
            test = compare_hits(leader.label, leader.tune.hits_within(budget), j.label, j.tune.hits_within(budget))
            if test.significant and test.best_hits > test.other_hits:
                why_out[chunking] = (f"its best mode, {j.candidate.mode}, has fewer hits within {budget} tokens than "
                                     f"the leader by more than noise ({test.other_hits} against {test.best_hits} "
                                     f"of {len(j.tune.outcomes)})")
            elif place >= keep:
                why_out[chunking] = (f"its chunking is place {place + 1} of {len(best)} by its best mode's hits "
                                     f"within {budget} tokens, then MRR, then fewest tokens; the best {keep} "
                                     f"chunkings (1/{eta}) go on")
        tie = winner(list(best.values()), self.k, budget)
        on_tie = next(c for c, j in best.items() if j.label == tie.chosen)
        if on_tie in why_out:  # out by its place only: a chunking the leader beats is not tied
            del why_out[on_tie]
            self.rounds[-1]["kept_on_tie"] = {"chunking": on_tie, "leader": tie.leader, "why": tie.why}
        for j in judged:
            chunking = j.candidate.spec.label
            if chunking not in why_out:
                continue
            test = compare_hits(leader.label, leader.tune.hits_within(budget), j.label, j.tune.hits_within(budget))
            if test.significant and test.best_hits > test.other_hits:
                why = (f"fewer hits within {budget} tokens than the leader by more than noise "
                       f"({test.other_hits} against {test.best_hits} of {len(j.tune.outcomes)})")
            else:
                why = why_out[chunking]
            j.row.update(kept=False, dropped={"by": leader.label, "p_value": test.p_value, "reason": why})
        kept = [j.candidate for j in judged if j.candidate.spec.label not in why_out]
        self.rounds[-1]["kept"] = len(kept)
        return kept


def _docset(docs: Sequence[str]) -> str:
    """A folder name for a set of files: how many, and a digest of their paths."""
    import hashlib
    digest = hashlib.sha256("\n".join(sorted(docs)).encode("utf-8", "surrogatepass")).hexdigest()[:10]
    return f"{len(docs)}-files-{digest}"


def index_bytes(index: Index) -> int:
    """What an index holds, in bytes: its chunk vectors (float32) and the UTF-8 text of its chunks
    and parents; the same for the same chunks however the folder was written (on-disk sizes
    depend on the write history)."""
    import pyarrow.compute as pc

    total = 0
    view = index.store.view()
    for name in ("chunks", "parents"):
        if name not in view:
            continue
        texts = view.columns(name, ["text"]).column("text")
        total += int(pc.sum(pc.binary_length(texts)).as_py() or 0)
        if name == "chunks":
            vector = view.tables[name].schema.field("vector").type
            total += len(texts) * 4 * int(getattr(vector, "list_size", 0) or 0)
    return total
