"""The ``seamcut tune`` report page, drawn from tune's JSON dict alone: a realistic dict made here by
the contract (a successive-halving search over a real space of strategy specs, per-question hits
drawn at random with a fixed seed, the paired tests by the real ``compare_hits``), and the edge
cases the page must survive; and the page opened in a real browser."""
from __future__ import annotations

import copy
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from seamcut.evaluate.significance import compare_hits
from seamcut.report.html import esc
from seamcut.report.tune_html import render_tune, write_tune_report
from seamcut.strategies.spec import parse_spec

CHROMIUM = "/usr/bin/chromium"
SCREENSHOT = Path("/tmp/tune-report.png")

CHUNKINGS = ["structure", "structure:size=512", "structure:size=128:overlap=16", "structure:merge_siblings=true",
             "recursive", "recursive:size=128:overlap=16", "recursive:size=256:overlap=32",
             "recursive:size=512:overlap=64", "recursive:within_paragraph=true", "parent-child",
             "parent-child:parents=blocks:size=48:parent_size=224", "parent-child:size=64:parent_size=512",
             "semantic", "semantic:threshold=gradient", "sentence", "sentence:size=150",
             "paragraph", "paragraph:size=512", "fixed", "fixed:size=256:overlap=32",
             "fixed:size=128:overlap=0"]
MODES = ["vector", "text", "hybrid"]
DEFAULTS = ["structure @hybrid", "recursive @hybrid"]
MODE_GAIN = {"vector": 0.0, "text": -0.08, "hybrid": 0.05}
DOC_TOKENS = 6000  # a document's tokens (about 12 pages)


def _tokens_sent(spec: str, k: int) -> float:
    """Tokens a candidate sends per question at top k: k times its chunk size (parents for
    parent-child), 0.7 to 0.9 of the size filled (as the strategy packs; the same for every mode)."""
    s = parse_spec(spec)
    size = s.options.get("size", 100 if s.name == "parent-child" else 300)
    if s.name == "parent-child":
        size = s.options.get("parent_size", 800) * (0.4 if s.options.get("parents") == "blocks" else 0.7)
    return round(k * size * random.Random(spec).uniform(0.7, 0.9), 1)


class _Candidate:
    """A candidate's made-up true quality, and its hits drawn per question."""

    def __init__(self, spec: str, mode: str, k: int, budget: int, rng: random.Random):
        self.spec, self.mode, self.label, self.k = spec, mode, f"{spec} @{mode}", k
        self.tokens = _tokens_sent(spec, k)
        at_k = min(0.95, 0.45 + 0.12 * (self.tokens / 1000) ** 0.5 * 3 + MODE_GAIN[mode] + rng.uniform(-.06, .06))
        self.p_at_k = max(0.05, at_k)
        self.p_within = max(0.05, self.p_at_k * min(1.0, (budget / self.tokens) ** 0.5))
        self.chunk_tokens = self.tokens / k
        self.chunks_per_doc = max(4, round(DOC_TOKENS / self.chunk_tokens))
        self.rng = rng

    def score(self, questions: int, documents: int, round_: int) -> tuple[dict[str, Any], list[bool]]:
        """A log row for ``questions`` questions over ``documents`` documents, and the hits within
        the budget per question (for the paired tests)."""
        ranks = [self.rng.randint(1, self.k) if self.rng.random() < self.p_at_k else None for _ in range(questions)]
        within = [r is not None and self.rng.random() < self.p_within / self.p_at_k for r in ranks]
        hits = sum(r is not None for r in ranks)
        chunks = self.chunks_per_doc * documents
        row = {"round": round_, "label": self.label, "spec": self.spec, "mode": self.mode,
               "documents": documents, "questions": questions, "hits": hits,
               "hit_rate": hits / questions, "hits_at_1": sum(r == 1 for r in ranks),
               "mrr": sum(1 / r for r in ranks if r) / questions, "budget_hits": sum(within),
               "budget_hit_rate": sum(within) / questions, "tokens_per_question": self.tokens,
               # a 384-float vector and about 4 bytes of text per token a chunk
               "chunks": chunks, "index_bytes": round(chunks * (1536 + 4 * self.chunk_tokens)),
               "kept": True, "dropped": None, "seconds": round(0.05 * chunks / 10 + 0.3, 2)}
        return row, within


def _front(points: list[dict]) -> list[dict]:
    """The points no other beats at once on hit rate and MRR (up) and tokens and bytes (down)."""
    def beats(a: dict, b: dict) -> bool:
        ge = (a["hit_rate"] >= b["hit_rate"] and a["mrr"] >= b["mrr"]
              and a["tokens_per_question"] <= b["tokens_per_question"] and a["index_bytes"] <= b["index_bytes"])
        return ge and (a["hit_rate"], a["mrr"], -a["tokens_per_question"], -a["index_bytes"]) != (
            b["hit_rate"], b["mrr"], -b["tokens_per_question"], -b["index_bytes"])
    return [p for p in points if not any(beats(o, p) for o in points if o is not p)]


def _summary(p: dict[str, Any], command: str) -> dict[str, Any]:
    return {"label": p["label"], "spec": p["spec"], "mode": p["mode"], "command": command, "search": p["mode"],
            "tune_hit_rate": p["hit_rate"], "held_out_hit_rate": p["held_out_hit_rate"],
            "tune_mrr": p["mrr"], "held_out_mrr": p["held_out_mrr"],
            "tune_budget_hit_rate": p["budget_hit_rate"], "held_out_budget_hit_rate": p["held_out_budget_hit_rate"],
            "tokens_per_question": p["tokens_per_question"], "index_bytes": p["index_bytes"]}


def tune_data(chunkings: list[str] = CHUNKINGS, modes: list[str] = MODES, *, tune: int = 28, held_out: int = 12,
              documents: int = 11, k: int = 4, budget: int = 740, keep: float = 1 / 3, final: int = 8,
              defaults: list[str] = DEFAULTS, seed: int = 0) -> dict[str, Any]:
    """A tune run's JSON dict by the contract: successive halving over ``chunkings`` x ``modes``
    (rounds on a growing share of documents and questions, a third kept each time until ``final``
    or fewer are left, the defaults always carried to the end), the final round scored on the
    held-out questions too, the front, the winner (best within the budget, then MRR) and the
    paired test of the winner against each default on the held-out questions."""
    rng = random.Random(seed)
    cands = {c.label: c for c in (_Candidate(s, m, k, budget, rng) for s in chunkings for m in modes)}
    alive, log, rounds, number = list(cands), [], [], 0
    while True:
        number += 1
        last = len(alive) <= final + len(defaults)
        docs = documents if last else max(1, documents * number // 3)
        qs = tune if last else max(2, tune * number // 3)
        scored = {label: cands[label].score(qs, docs, number) for label in alive}
        order = sorted(alive, key=lambda lb: (-scored[lb][0]["budget_hits"], -scored[lb][0]["mrr"]))
        kept = order if last else [lb for lb in order if lb not in defaults][:max(final, round(len(order) * keep))]
        kept += [d for d in defaults if d in alive and d not in kept]
        for label in alive:
            row, within = scored[label]
            if label not in kept:
                c = compare_hits(order[0], scored[order[0]][1], label, within)
                row["kept"] = False
                row["dropped"] = {"by": order[0], "p_value": c.p_value,
                                  "reason": f"fewer hits within {budget} tokens than {order[0]} "
                                            f"({c.other_hits} against {c.best_hits} of {qs})"}
            log.append(row)
        rounds.append({"round": number, "documents": docs, "questions": qs, "candidates": len(alive),
                       "kept": len(kept), "seconds": round(sum(scored[lb][0]["seconds"] for lb in alive), 1),
                       # a chunking's texts are embedded once for its modes, half of them cached already
                       "embedded_tokens": len({cands[lb].spec for lb in alive}) * docs * DOC_TOKENS // 2})
        alive = kept
        if last:
            break
    points, held = [], {}
    for row in (r for r in log if r["round"] == number):
        c = cands[row["label"]]
        p = dict(row, default=row["label"] in defaults)
        if held_out:
            h, held[row["label"]] = c.score(held_out, documents, number)
            p.update(held_out_hit_rate=h["hit_rate"], held_out_mrr=h["mrr"],
                     held_out_budget_hit_rate=h["budget_hit_rate"])
        else:
            p.update(held_out_hit_rate=None, held_out_mrr=None, held_out_budget_hit_rate=None)
        points.append(p)
    best = max(points, key=lambda p: (p["budget_hit_rate"], p["mrr"])) if points else None

    def command(p: dict) -> str:
        return f"seamcut index DOCS --strategy '{p['spec']}'"

    winner = _summary(best, command(best)) if best else None
    default_rows = []
    for p in points:
        if p["default"]:
            d = _summary(p, command(p))
            d["comparison"] = (compare_hits(best["label"], held[best["label"]], p["label"],
                                            held[p["label"]]).to_dict() if held_out else None)
            default_rows.append(d)
    seconds = sum(r["seconds"] for r in rounds)
    embedded = sum(r["embedded_tokens"] for r in rounds)
    return {"k": k, "model": "default", "seed": seed, "budget": budget,
            "questions": {"tune": tune, "held_out": held_out, "no_answer": 2},
            "documents": documents,
            "space": {"chunkings": list(chunkings), "modes": list(modes), "candidates": len(cands)},
            "rounds": rounds, "log": log, "points": points, "pareto": _front(points), "winner": winner,
            "defaults": default_rows,
            "cost": {"seconds": seconds, "embedded_tokens": embedded, "index_tokens": documents * DOC_TOKENS,
                     "index_equivalents": embedded / (documents * DOC_TOKENS), "stopped_early": None}}


def _images(html: str) -> int:
    return len(re.findall(r'src="data:image/png;base64,[A-Za-z0-9+/=]{100,}"', html))


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return tune_data()


def test_fixture_is_a_real_search(data):
    """The fixture itself keeps to the contract: rounds narrow the candidates, the front is a
    subset of the points, the defaults reach the final round."""
    assert data["space"]["candidates"] == len(CHUNKINGS) * len(MODES) == data["rounds"][0]["candidates"]
    sizes = [r["candidates"] for r in data["rounds"]]
    assert sizes == sorted(sizes, reverse=True)
    assert len(data["rounds"]) >= 3 and any(r["dropped"] for r in data["log"])
    assert 1 <= len(data["pareto"]) <= len(data["points"]) <= 8 + len(DEFAULTS)
    assert {d["label"] for d in data["defaults"]} == set(DEFAULTS)


def test_full_page(data):
    html = render_tune(data)
    for p in data["points"] + data["log"]:
        assert esc(p["label"]) in html
    w = data["winner"]
    assert esc(w["command"]) in html and w["command"] not in html  # the quotes are escaped
    assert f"Winner: {esc(w['label'])}" in html
    assert _images(html) == 3  # tokens sent, index size, rounds
    assert html.count("<details") == len(data["rounds"])
    for r in (r for r in data["log"] if r["dropped"]):
        assert esc(f"dropped by {r['dropped']['by']} (p = {r['dropped']['p_value']:.3g}): "
                   f"{r['dropped']['reason']}") in html
    assert "Stopped early" not in html and "it finished the whole search" in html
    assert f"T = {data['budget']} tokens" in html


def test_the_page_says_plainly_whether_the_winner_beats_each_default(data):
    html = render_tune(data)
    for d in data["defaults"]:
        c = d["comparison"]
        if d["label"] == data["winner"]["label"]:
            expected = f"The winner is the default {d['label']}."
        elif c["significant"] and c["ci"][0] > 0:
            expected = f"The winner beats {d['label']}"
        elif c["best_hits"] == c["other_hits"] and c["only_best"] == c["only_other"]:
            expected = f"The winner ties {d['label']}"
        else:
            expected = f"The winner is not shown better than {d['label']}"
        assert esc(expected) in html
    worse = copy.deepcopy(data)
    other = next(d for d in worse["defaults"] if d["label"] != worse["winner"]["label"])
    other["comparison"].update(significant=True, p_value=0.004, ci=[-0.3, -0.1])
    assert f"The winner is WORSE than {other['label']}" in render_tune(worse)


def test_a_saved_json_redraws_the_same_page(data, tmp_path):
    saved = tmp_path / "tune.json"
    saved.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "sub" / "tune.html"
    assert write_tune_report(json.loads(saved.read_text(encoding="utf-8")), out) is None
    assert out.read_text(encoding="utf-8") == render_tune(data)


def test_one_point_only():
    one = tune_data(["recursive:size=256:overlap=32"], ["hybrid"], defaults=[])
    assert len(one["points"]) == len(one["pareto"]) == len(one["rounds"]) == 1
    html = render_tune(one)
    assert esc(one["winner"]["label"]) in html and _images(html) == 3


def test_a_wide_range_of_tokens_and_sizes(data):
    """Tokens per question from 40 to 8,000 and indexes from 10 kB to 3 GB (log axes) still draw."""
    wide = copy.deepcopy(data)
    for i, p in enumerate(wide["points"]):
        p["tokens_per_question"] = 40.0 * 1.8 ** i
        p["index_bytes"] = 10_000 * 4 ** i
    wide["pareto"] = [p for p in wide["points"] if p["label"] in {q["label"] for q in data["pareto"]}]
    html = render_tune(wide)
    assert _images(html) == 3
    assert f"{max(p['index_bytes'] for p in wide['points']) / 1e6:,.1f}" in html  # MB


def test_no_defaults():
    html = render_tune(tune_data(CHUNKINGS[:4], defaults=[]))
    assert "No default strategies to compare the winner with" in html
    assert "Does it beat the defaults?" not in html


def test_stopped_early_is_a_visible_warning(data):
    stopped = copy.deepcopy(data)
    stopped["cost"]["stopped_early"] = ("the time limit of 2 minutes was spent in round 2: "
                                        "round 3 (8 candidates on all documents) was not run <now>")
    html = render_tune(stopped)
    assert 'class="bad">Stopped early: the time limit of 2 minutes' in html
    assert esc("<now>") in html and "<now>" not in html
    assert "it finished the whole search" not in html


def test_chunkings_judged_on_different_files_is_a_visible_warning(data):
    uneven = copy.deepcopy(data)
    uneven["warnings"] = ["round 1: the chunkings were judged on different files, of 9: fixed: 8 (a<b>.pdf missing); "
                          "the others on 9"]
    html = render_tune(uneven)
    assert 'class="bad">Not like with like: round 1: the chunkings were judged on different files' in html
    assert esc("a<b>.pdf") in html and "a<b>.pdf" not in html
    assert "Not like with like" not in render_tune(data)


def test_a_file_that_could_not_be_read_is_named_on_the_page(data):
    failed = copy.deepcopy(data)
    failed["failures"] = ["docs/<scan>.pdf: needed more than 1536 MiB of memory (stopped; see --memory-cap)"]
    html = render_tune(failed)
    assert f'class="bad">Not read: {esc(failed["failures"][0])}' in html and "<scan>" not in html
    assert "Not read:" not in render_tune(data)


def test_empty_log():
    empty = tune_data(CHUNKINGS[:2], ["vector"], defaults=[])
    empty.update(rounds=[], log=[], points=[], pareto=[], winner=None, defaults=[])
    empty["cost"]["stopped_early"] = "the time limit was spent before the first round ended"
    html = render_tune(empty)
    assert "The search log is empty" in html and "No winner" in html
    assert _images(html) == 0


def test_no_held_out_questions():
    none = tune_data(CHUNKINGS[:6], held_out=0)
    html = render_tune(none)
    assert "No questions were held out" in html
    assert "not compared (no held-out questions or no winner)" in html
    assert _images(html) == 3


def test_long_labels_are_escaped():
    long = "recursive:size=256:overlap=32" + ":x=" + "<b>&\"'" * 40
    weird = tune_data(["structure"], ["hybrid", "vector"], defaults=[])
    for row in weird["log"] + weird["points"] + weird["pareto"]:
        row["label"] = row["spec"] = long + " @" + row["mode"]
    weird["winner"].update(label=long + " @hybrid", spec=long, command=f"seamcut index DOCS --strategy '{long}'")
    html = render_tune(weird)
    assert "<b>&" not in html and esc(long) in html
    assert esc(weird["winner"]["command"]) in html


@pytest.mark.skipif(not Path(CHROMIUM).exists(), reason=f"no chromium at {CHROMIUM}")
def test_the_page_loads_in_a_browser(data, tmp_path):
    """Debian's chromium opens the file from disk: no console errors, every plot decoded; the page
    is kept as a screenshot at /tmp/tune-report.png for a person to look at."""
    sync_api = pytest.importorskip("playwright.sync_api")
    out = tmp_path / "tune.html"
    write_tune_report(data, out)
    errors: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        try:
            tab = browser.new_page(viewport={"width": 1200, "height": 900})
            tab.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            tab.on("pageerror", lambda e: errors.append(str(e)))
            tab.goto(out.as_uri())
            widths = tab.eval_on_selector_all("img", "els => els.map(e => e.complete ? e.naturalWidth : 0)")
            tab.click("details summary")  # the first round's log opened
            tab.screenshot(path=str(SCREENSHOT), full_page=True)
        finally:
            browser.close()
    assert errors == []
    assert len(widths) == 3 and all(w > 300 for w in widths)
    assert SCREENSHOT.stat().st_size > 10_000



def test_a_resumed_search_says_its_cost_is_all_its_runs(data):
    resumed = copy.deepcopy(data)
    resumed["cost"]["runs"] = 3
    assert "in 3 runs (stopped and resumed; the cost is theirs together)" in render_tune(resumed)
    assert "stopped and resumed" not in render_tune(data)
