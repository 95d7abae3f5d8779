"""Never silent (issue 36, point 5): a tune whose round builds a single chunking over many files
keeps writing lines, the round's and the build's, while the reading workers are replaced.

The 9k tune's log stopped for its last 30 minutes: its final round had one chunking, and then
(a) the round's ``Steps(1, ...)`` drew nothing (a single step was not drawn) and (b) tune built
the chunking with its progress off, so nothing at all ticked. Its last line, round 4's "1/2",
was printed two seconds before round 4 ended and read as a hang in round 4's second build.

Here, off a terminal (stderr a plain stream), lines every 0.02 s, workers replaced every two
files: each file a worker hands back is held until two more lines of the round and two more of
the build have been written since the file before it. Nothing is timed: a wait only ends early
when the lines come, and only a ticker that stopped makes one run out (after 20 s)."""
from __future__ import annotations

import hashlib
import io
import os
import sys
import time

import numpy as np

import seamcut.pipeline.flow as flow
import seamcut.pipeline.local as local_engine
import seamcut.ground.processes as processes
import seamcut.ground.progress as progress
from seamcut.pipeline.stages import cut_file as _real_cut_file
from seamcut.pipeline.corpus import Limits
from seamcut.embed import Embedder
from seamcut.evaluate.questions import Question
from seamcut.evaluate.options import Indexing, TuneOptions
from seamcut.evaluate.space import parse_space
from seamcut.pipeline.options import BuildOptions
from seamcut.evaluate.tune import tune
from seamcut.tokens import load_sizer

FILES = 8
TOPICS = ["kelp", "quinoa", "sorghum", "millet", "cassava", "teff", "lentil", "sesame"]
WAIT_S = 20.0  # generous: with a line every 0.02 s, two lines take 0.04 s


def cut_and_tell(job):
    """``cut_file`` in a reading worker, the worker's pid on the answer (run there by pickle)."""
    out = _real_cut_file(job)
    out.worker_pid = os.getpid()
    return out


class _Hashed(Embedder):
    """Vectors from the texts' hashes: no model, no CPU to speak of."""
    name = "test:hashed"
    dim = 16
    max_input_tokens = 512

    def __init__(self) -> None:
        super().__init__()
        self.sizer = load_sizer(None)

    def _embed(self, texts, kind):
        rows = [np.frombuffer(hashlib.sha256(f"{kind}:{t}".encode()).digest()[:16], dtype=np.uint8)
                for t in texts]
        return np.asarray(rows, dtype=np.float32) + 1.0


class _Log(io.StringIO):
    """stderr as a log file or a pipe is: not a terminal."""

    def isatty(self) -> bool:
        return False

    def count(self, prefix: str) -> int:
        return sum(line.startswith(prefix) for line in self.getvalue().splitlines())


def test_a_long_build_under_a_one_chunking_round_keeps_printing_while_workers_are_replaced(
        tmp_path, monkeypatch):
    docs = tmp_path / "docs"
    docs.mkdir()
    questions = []
    for d, topic in enumerate(TOPICS[:FILES]):
        para = f"The {topic} notes: sow after the first rain, and water the seedlings every third day."
        (docs / f"doc{d}.md").write_text(f"# Notes {d}\n\n## {topic.title()}\n\n{para}\n", encoding="utf-8")
        questions.append(Question(f"q{d}", f"When is {topic} sown?", ("sow after the first rain",),
                                  source=f"doc{d}.md"))

    log = _Log()
    monkeypatch.setattr(sys, "stderr", log)
    monkeypatch.setattr(progress, "EVERY", 0.02)
    monkeypatch.setattr(processes, "TASKS_PER_WORKER", 2)
    monkeypatch.setattr(local_engine, "cut_file", cut_and_tell)  # what cutting_pool's workers run

    round_line, build_line = "round 1: 1 candidates", "indexing recursive"
    seen: list[tuple[int | None, bool]] = []  # per file handed back: its worker, and whether lines came
    account = flow.account_read

    def paced(report, got):
        """Each file handed back waits for two more lines of each bar than the file before it saw."""
        if not seen or seen[-1][1]:  # once a wait ran out, the others do not wait again
            want = paced.counts[0] + 2, paced.counts[1] + 2
            deadline = time.monotonic() + WAIT_S
            while True:
                now = log.count(round_line), log.count(build_line)
                if (now[0] >= want[0] and now[1] >= want[1]) or time.monotonic() > deadline:
                    break
                time.sleep(0.01)
            seen.append((getattr(got, "worker_pid", None), now[0] >= want[0] and now[1] >= want[1]))
            paced.counts = now
        else:
            seen.append((getattr(got, "worker_pid", None), False))
        account(report, got)
    paced.counts = (0, 0)
    monkeypatch.setattr(flow, "account_read", paced)

    space = parse_space({"modes": ["vector"], "strategies": {"recursive": {"size": [64], "overlap": 0}}})
    result = tune([docs], questions, Indexing(_Hashed(), tmp_path / "work",
                                              build=BuildOptions(limits=Limits(workers=1), progress=True)),
                  TuneOptions(space=space, exhaustive=True, versus=[]))

    assert result is not None
    assert len(seen) == FILES, seen
    workers = [pid for pid, _ in seen]
    assert None not in workers
    # two files per worker: every file after the first pair came from a fresh worker
    assert len(set(workers)) >= FILES // 2, workers
    assert all(ok for _, ok in seen), (seen, log.getvalue()[-2000:])
    lines = log.getvalue().splitlines()
    assert any(x.startswith(round_line) and ": 0/1," in x for x in lines)
    assert any(x.startswith(build_line) and f"/{FILES} files" in x for x in lines)
    # where the round ended is said once it is over: its last line is 1/1, not the 0/1 of the build
    assert [x for x in lines if x.startswith(round_line)][-1].split(": ")[-1].startswith("1/1, ")
