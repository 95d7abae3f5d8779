"""`seamcut serve` under load (issue 39 point 3): loopback only, every loop bounded in count and time.

    .venv/bin/python benchmarks/serve/serve.py --sample 10          # the scale corpus's structure index, every 10th file
    .venv/bin/python benchmarks/serve/serve.py --db DIR --questions Q.yaml --corpus FOLDER

1. **Floor**: ``Index.search`` (hybrid, top 4) in one process per core, the questions in turn,
   for ``--seconds``: searches per second with nothing between the question and the index.
2. **Service**: ``seamcut serve DB --workers`` two a core (``--workers``); for each of
   ``--clients`` (1, 10, 50, 200) that many clients at once, each asking and waiting for its
   answer in turn, for ``--seconds``: answers per second, p50/p95/p99 latency, errors; the
   throughput as a share of the floor. The clients are wrk's (a load generator in C, Debian's
   ``wrk``; its CPU seconds are recorded), or Python's (httpx, one asyncio process) where wrk is
   missing or ``--python-client`` says so.
3. **Updates under load**: 10 clients while ``seamcut index --prune`` adds ``--churn`` documents
   and removes as many, and publishes: errors, the states the answers came from (each must be one
   the index published), and a question only the new documents answer, found after the publish.
4. **kill -9 under load**, then a restart: the index opens and answers.

The load generator runs on the same cores as the service (a 2-core machine here): the throughput
is what the machine does with both, stated beside the floor. The updates and the kill use the
Python clients (each answer's state is read). Writes
``results/YYYY-MM-DD.json``, ``.md`` and ``.png``.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing as mp
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path[:0] = [str(HERE.parent / "common"), str(HERE.parent / "scale")]

import record  # noqa: E402
from scale import hard_link  # noqa: E402

MAX_REQUESTS = 200_000  # per level: the loops end on time or on this count, whichever comes first


def cores() -> int:
    return len(os.sched_getaffinity(0))


def _floor_worker(db: str, questions: list[str], seconds: float, out: Any) -> None:
    os.environ["OMP_NUM_THREADS"] = "1"
    from seamcut.index import Index
    ix = Index(db)
    for q in questions[:2]:
        ix.search(q, 4)  # the model and the vectors loaded before the clock starts
    n, end = 0, time.monotonic() + seconds
    while time.monotonic() < end and n < MAX_REQUESTS:
        ix.search(questions[n % len(questions)], 4)
        n += 1
    out.put(n)


def floor(db: Path, questions: list[str], seconds: float) -> dict[str, float]:
    """Searches per second with one process per core, ``Index.search`` called directly."""
    ctx = mp.get_context("spawn")
    out = ctx.Queue()
    procs = [ctx.Process(target=_floor_worker, args=(str(db), questions[i::cores()] or questions, seconds, out))
             for i in range(cores())]
    for p in procs:
        p.start()
    counts = [out.get(timeout=seconds + 600) for _ in procs]
    for p in procs:
        p.join()
    return {"processes": len(procs), "searches": sum(counts), "per_second": sum(counts) / seconds}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_service(db: Path, port: int, workers: int) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-m", "seamcut.cli", "serve", str(db), "--port", str(port),
                             "--workers", str(workers)], env={**os.environ, "OMP_NUM_THREADS": "1"},
                            stderr=subprocess.DEVNULL, start_new_session=True)
    wait_healthy(port, proc)
    return proc


def wait_healthy(port: int, proc: subprocess.Popen, limit: float = 300) -> float:
    import httpx
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        if proc.poll() is not None:
            sys.exit(f"the service exited with {proc.returncode}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/health", timeout=2).status_code == 200:
                return time.monotonic() - t0
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    sys.exit(f"the service did not answer in {limit} s")


async def _load(port: int, clients: int, questions: list[str], seconds: float,
                until: Any = None) -> dict[str, Any]:
    """``clients`` asking in turn for ``seconds`` (or, with ``until``, till it says so, within
    ``seconds``)."""
    import httpx
    latencies: list[float] = []
    errors: dict[str, int] = {}
    states: set[str] = set()
    end = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=60, limits=limits) as http:
        async def client(i: int) -> None:
            n = i
            while time.monotonic() < end and len(latencies) < MAX_REQUESTS and not (until and until()):
                t0 = time.perf_counter()
                try:
                    r = await http.post("/search", json={"query": questions[n % len(questions)], "k": 4})
                    if r.status_code == 200:
                        latencies.append(time.perf_counter() - t0)
                        states.add(r.json()["state"])
                    else:
                        errors[str(r.status_code)] = errors.get(str(r.status_code), 0) + 1
                except httpx.HTTPError as exc:
                    errors[type(exc).__name__] = errors.get(type(exc).__name__, 0) + 1
                n += clients
        t0 = time.monotonic()
        await asyncio.gather(*(client(i) for i in range(clients)))
        wall = time.monotonic() - t0
    q = statistics.quantiles(latencies, n=100) if len(latencies) >= 2 else [float("nan")] * 99
    return {"clients": clients, "answers": len(latencies), "per_second": len(latencies) / wall,
            "p50_ms": q[49] * 1000, "p95_ms": q[94] * 1000, "p99_ms": q[98] * 1000,
            "errors": errors, "states": sorted(states), "seconds": wall}


def load(port: int, clients: int, questions: list[str], seconds: float) -> dict[str, Any]:
    return asyncio.run(_load(port, clients, questions, seconds))


# wrk's script: the questions in turn, one request body each; at the end one JSON line of the
# counts and the latency percentiles (microseconds)
WRK_SCRIPT = """
local bodies = {%s}
local i = 0
request = function()
  i = i + 1
  return wrk.format("POST", "/search", {["Content-Type"] = "application/json"}, bodies[(i %% #bodies) + 1])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK {"requests": %%d, "us": %%d, "non2xx": %%d, "socket": %%d, '
    .. '"p50": %%d, "p95": %%d, "p99": %%d}\\n', summary.requests, summary.duration, e.status,
    e.connect + e.read + e.write + e.timeout, latency:percentile(50), latency:percentile(95),
    latency:percentile(99)))
end
"""


def wrk_load(port: int, clients: int, questions: list[str], seconds: float, script: Path) -> dict[str, Any]:
    """``clients`` connections of wrk (a load generator in C, one thread), each asking and
    waiting for its answer in turn, for ``seconds``; the CPU seconds wrk used beside them."""
    import resource
    bodies = ",".join("[==[" + json.dumps({"query": q, "k": 4}, ensure_ascii=False) + "]==]" for q in questions)
    script.write_text(WRK_SCRIPT % bodies, encoding="utf-8")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    got = subprocess.run(["wrk", "-t1", f"-c{clients}", f"-d{seconds:g}s", "--timeout", "60s", "-s", str(script),
                          f"http://127.0.0.1:{port}"], capture_output=True, text=True, timeout=seconds + 120)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    line = next((x for x in got.stdout.splitlines() if x.startswith("WRK ")), None)
    if got.returncode != 0 or line is None:
        sys.exit(f"wrk failed: {got.stderr or got.stdout}")
    w = json.loads(line[4:])
    wall = w["us"] / 1e6
    errors = {k: w[k] for k in ("non2xx", "socket") if w[k]}
    return {"clients": clients, "answers": w["requests"] - w["non2xx"], "per_second": (w["requests"] - w["non2xx"]) / wall,
            "p50_ms": w["p50"] / 1000, "p95_ms": w["p95"] / 1000, "p99_ms": w["p99"] / 1000, "errors": errors,
            "seconds": wall, "client": "wrk",
            "client_cpu_seconds": (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)}


def under_updates(db: Path, corpus: Path, extra: list[Path], port: int, questions: list[str]) -> dict[str, Any]:
    """10 clients while ``seamcut index --prune`` adds ``extra`` and removes as many files; the
    states published meanwhile are read from the index folder every 20 ms."""
    from seamcut.index.store import SNAPSHOT_FILE
    snapshot = db / SNAPSHOT_FILE
    published: set[str] = set()

    def note() -> None:
        try:
            published.add(json.loads(snapshot.read_text(encoding="utf-8"))["id"])
        except (OSError, ValueError, KeyError):
            pass
    note()
    removed = sorted(p for p in corpus.iterdir() if p.suffix == ".pdf")[:len(extra)]
    for f in extra:
        hard_link(f, corpus / f.name)
    for f in removed:
        (corpus / f.name).rename(db.parent / f"{f.name}.away")
    log = open(db.parent / "update.log", "w+", encoding="utf-8")
    build = subprocess.Popen([sys.executable, "-m", "seamcut.cli", "index", str(corpus), "--db", str(db), "--prune"],
                             env={**os.environ, "OMP_NUM_THREADS": "1", "COLUMNS": "250"}, stderr=log)
    result: dict[str, Any] = {}

    async def both() -> None:
        # the load lasts while the build runs and 2 s after (at most an hour)
        finished: list[float] = []

        def over() -> bool:
            if not finished and build.poll() is not None:
                finished.append(time.monotonic())
            return bool(finished) and time.monotonic() - finished[0] > 2
        task = asyncio.create_task(_load(port, 10, questions, 3600, until=over))
        while not task.done():
            note()
            await asyncio.sleep(0.02)
        result.update(task.result())
    asyncio.run(both())
    build.wait(timeout=3600)
    log.seek(0)
    err = log.read()
    log.close()
    note()
    result["build_exit"] = build.returncode
    result["build"] = next((x.strip() for x in err.splitlines() if "file(s) added" in x), err.strip()[-300:])
    result["published"] = len(published)
    result["unpublished_answers"] = sorted(set(result["states"]) - published)
    for f in extra:  # put the corpus back as it was
        (corpus / f.name).unlink()
    for f in removed:
        (db.parent / f"{f.name}.away").rename(corpus / f.name)
    return result


def put_back(db: Path, corpus: Path) -> None:
    """The index made the corpus's again (the documents added under load removed, the removed
    ones added), so that the next run's update adds and removes documents too (a run after one
    that left them found nothing to do)."""
    subprocess.run([sys.executable, "-m", "seamcut.cli", "index", str(corpus), "--db", str(db), "--prune"],
                   check=True, env={**os.environ, "OMP_NUM_THREADS": "1"}, stderr=subprocess.DEVNULL)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sample", type=int, default=10, help="every n-th file of the scale corpus")
    ap.add_argument("--db", type=Path, help="an index (default: the slice's structure index, built if missing)")
    ap.add_argument("--corpus", type=Path, help="the folder the index was built from (for the updates)")
    ap.add_argument("--questions", type=Path, help="questions.yaml (default: the scale corpus's)")
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--clients", default="1,10,50,200")
    ap.add_argument("--churn", type=int, default=5, help="documents added and removed under load")
    ap.add_argument("--out", type=Path, default=None, help="results NAME (default results/YYYY-MM-DD)")
    ap.add_argument("--workers", type=int, default=0, help="service processes (default: 2 a core)")
    ap.add_argument("--python-client", action="store_true",
                    help="the load levels from Python (httpx) even where wrk is installed")
    a = ap.parse_args()
    started = record.stamp()
    from scale import FULL_PAGES, make_corpus
    full = make_corpus(FULL_PAGES) if a.db is None or a.questions is None else None
    work = Path(f"/tmp/seamcut-serve-{a.sample}")
    corpus = a.corpus or work / "files"
    db = a.db or work / "index"
    if a.db is None and not (db / "seamcut-index.json").is_file():
        corpus.mkdir(parents=True, exist_ok=True)
        for f in sorted(p for p in full.iterdir() if p.suffix == ".pdf")[::a.sample]:
            if not (corpus / f.name).exists():
                hard_link(f, corpus / f.name)
        subprocess.run([sys.executable, "-m", "seamcut.cli", "index", str(corpus), "--db", str(db)], check=True,
                       env={**os.environ, "OMP_NUM_THREADS": "1"})
    asked = yaml.safe_load((a.questions or full / "questions.yaml").read_text(encoding="utf-8"))
    questions = [q["question"] for q in asked]
    # added under load: files outside the index that questions are asked of, first
    asked_of = {q.get("source") for q in asked if q.get("must_contain")}
    outside = [f for f in sorted(p for p in full.iterdir() if p.suffix == ".pdf")
               if not (corpus / f.name).exists()] if full else []
    extra = sorted(outside, key=lambda f: f.name not in asked_of)[:a.churn]
    out: dict[str, Any] = {"db": str(db), "questions": len(questions), "seconds": a.seconds, "cores": cores()}
    print(f"floor: Index.search in {cores()} processes for {a.seconds:g} s", flush=True)
    out["floor"] = floor(db, questions, a.seconds)
    port = free_port()
    workers = a.workers or 2 * cores()
    out["workers"] = workers
    proc = start_service(db, port, workers)
    out["levels"] = []
    use_wrk = shutil.which("wrk") is not None and not a.python_client
    if not use_wrk:
        print("wrk not found (Debian: apt-get install wrk): the clients are Python's (httpx), on the same cores")
    load(port, 20, questions, min(a.seconds, 10))  # every worker's vectors loaded and its questions seen once
    for n in map(int, a.clients.split(",")):
        got = (wrk_load(port, n, questions, a.seconds, work / "search.lua") if use_wrk
               else {**load(port, n, questions, a.seconds), "client": "httpx"})
        got["of_floor"] = got["per_second"] / out["floor"]["per_second"]
        print(f"{n} clients: {got['per_second']:.1f}/s ({got['of_floor']:.0%} of the floor), p50 "
              f"{got['p50_ms']:.0f} ms, p99 {got['p99_ms']:.0f} ms, errors {got['errors']}", flush=True)
        out["levels"].append(got)
    if extra:
        put_back(db, corpus)  # a run stopped before it put the index back
        out["updates"] = under_updates(db, corpus, extra, port, questions)
        if ": 0 file(s) added" in out["updates"]["build"]:
            sys.exit(f"the update under load added nothing: {out['updates']['build']}")
        print(f"under updates: {out['updates']['per_second']:.1f}/s, errors {out['updates']['errors']}, "
              f"{len(out['updates']['states'])} states answered, unpublished {out['updates']['unpublished_answers']}")
    if extra:
        out["updates"]["new_found"] = new_found(port, asked, extra)
        put_back(db, corpus)
    # kill -9 under load, then a restart
    out["killed"] = killed_under_load(proc, port, questions)
    t0 = time.monotonic()
    proc = start_service(db, port, workers)
    out["restart"] = {"seconds_to_health": time.monotonic() - t0, **load(port, 1, questions, 5)}
    os.killpg(proc.pid, signal.SIGTERM)
    proc.wait(timeout=60)
    name = a.out or record.result_path(HERE, "", "")
    path = record.write_json(name.with_name(name.name + ".json"), out, recorded=started)
    (name.with_name(name.name + ".md")).write_text(table(out), encoding="utf-8")
    plot(out, name.with_name(name.name + ".png"))
    print(table(out))
    print(f"wrote {path}, .md, .png")


def new_found(port: int, asked: list[dict], extra: list[Path]) -> dict[str, bool]:
    """For each question on an added document: whether the service's top 4 now holds a chunk of it."""
    import httpx
    names = {f.name for f in extra}
    found = {}
    for q in asked:
        if q.get("source") in names and q.get("must_contain"):
            r = httpx.post(f"http://127.0.0.1:{port}/search", json={"query": q["question"], "k": 4}, timeout=60)
            found[q["id"]] = any(Path(h["chunk"]["source"]).name == q["source"] for h in r.json()["results"])
    return found


def killed_under_load(proc: subprocess.Popen, port: int, questions: list[str]) -> dict[str, Any]:
    """10 clients for 10 s, the service killed (-9, every process) 3 s in."""
    async def run() -> dict[str, Any]:
        task = asyncio.create_task(_load(port, 10, questions, 10))
        await asyncio.sleep(3)
        os.killpg(proc.pid, signal.SIGKILL)
        return await task
    got = asyncio.run(run())
    proc.wait()
    return {"answers_before": got["answers"], "errors_after": got["errors"]}


def table(out: dict[str, Any]) -> str:
    f = out["floor"]
    client = out["levels"][0].get("client", "httpx") if out["levels"] else "httpx"
    lines = [f"Floor: `Index.search` in {f['processes']} processes: {f['per_second']:.1f} searches/s. "
             f"The service: `seamcut serve --workers {out.get('workers', f['processes'])}`; the clients: "
             + ("wrk (C, one thread; its CPU seconds in the last column)." if client == "wrk"
                else "Python (httpx, one asyncio process) on the same cores."), "",
             "| clients | answers/s | of the floor | p50 ms | p95 ms | p99 ms | errors | client CPU s |",
             "|---|---|---|---|---|---|---|---|"]
    for lv in out["levels"]:
        cpu = lv.get("client_cpu_seconds")
        lines.append(f"| {lv['clients']} | {lv['per_second']:.1f} | {lv['of_floor']:.0%} | {lv['p50_ms']:.0f} | "
                     f"{lv['p95_ms']:.0f} | {lv['p99_ms']:.0f} | {sum(lv['errors'].values())} | "
                     f"{'' if cpu is None else f'{cpu:.1f}'} |")
    u = out.get("updates")
    if u:
        found = u.get("new_found", {})
        lines += ["", f"Under updates (10 clients, `seamcut index --prune` adding and removing documents): "
                      f"{u['per_second']:.1f} answers/s, p99 {u['p99_ms']:.0f} ms, {sum(u['errors'].values())} errors; "
                      f"answers from {len(u['states'])} states, {len(u['unpublished_answers'])} of them never published; "
                      f"questions on the new documents found after: {sum(found.values())} of {len(found)}."]
    k, r = out["killed"], out["restart"]
    lines += ["", f"Killed (-9) under load after {k['answers_before']} answers; restarted, healthy in "
                  f"{r['seconds_to_health']:.1f} s, then {r['answers']} answers in 5 s, {sum(r['errors'].values())} errors."]
    return "\n".join(lines) + "\n"


def plot(out: dict[str, Any], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    levels = out["levels"]
    x = [lv["clients"] for lv in levels]
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4))
    a.plot(x, [lv["per_second"] for lv in levels], "o-", label="seamcut serve")
    a.axhline(out["floor"]["per_second"], color="grey", ls="--", label="Index.search, every core")
    a.set(xscale="log", xlabel="clients at once", ylabel="answers per second", title="throughput", ylim=(0, None))
    a.legend()
    for key in ("p50_ms", "p95_ms", "p99_ms"):
        b.plot(x, [lv[key] for lv in levels], "o-", label=key.split("_")[0])
    b.set(xscale="log", yscale="log", xlabel="clients at once", ylabel="ms", title="latency")
    b.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)


if __name__ == "__main__":
    main()
