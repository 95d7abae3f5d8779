"""The plan of a ``seamcut tune`` search, known before anything is read or embedded: the questions
split into a tune and a held-out part, the chunkings the model cannot take left out, the
defaults the winner is tested against, and the halving rounds' questions and documents
(``plan`` says what they would cost, in corpus builds)."""
from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from ..errors import ConfigError
from .filtering import default_filters
from ..readers import expand
from ..strategies import REGISTRY
from ..peers import parse_contestant
from ..strategies.spec import StrategySpec
from .questions import Question, source_matches
from .options import TuneOptions
from .space import Candidate, Space, default_space, over_model

#: the fewest tune questions a halving round is judged on (or all, where there are fewer)
MIN_QUESTIONS = 8


def split_questions(questions: Sequence[Question], held_out: float, seed: int
                    ) -> tuple[list[Question], list[Question]]:
    """The questions split once into a tune part and a held-out part (``held_out``: the share
    held out, 0 <= held_out < 1), stratified by the language of the question text: the
    ``round(n * held_out)`` held out are shared among the languages in proportion (largest
    remainders first), each language's drawn by its own seeded shuffle; each part in the given
    order."""
    from ..text.language import detect

    if not 0 <= held_out < 1:
        raise ConfigError(f"held-out share must be at least 0 and below 1; got {held_out!r}")
    groups: dict[str, list[int]] = {}
    for i, q in enumerate(questions):
        groups.setdefault(detect(q.question) or "", []).append(i)
    total = min(round(len(questions) * held_out), len(questions) - 1)
    quota = {lang: len(m) * held_out for lang, m in groups.items()}
    counts = {lang: math.floor(v) for lang, v in quota.items()}
    for lang in sorted(quota, key=lambda g: (counts[g] - quota[g], g))[:max(0, total - sum(counts.values()))]:
        counts[lang] += 1
    held: set[int] = set()
    for language in sorted(groups):
        members = groups[language]
        random.Random(f"{seed}:{language}").shuffle(members)
        held.update(members[:counts[language]])
    return ([q for i, q in enumerate(questions) if i not in held],
            [q for i, q in enumerate(questions) if i in held])


def _over_model(specs: Sequence[StrategySpec], model: str) -> dict[str, str]:
    """The chunkings among ``specs`` that ``model`` cannot take (``space.over_model``), by label."""
    left_out: dict[str, str] = {}
    for spec in specs:
        why = None if spec.label in left_out else over_model(spec, model)
        if why:
            left_out[spec.label] = why
    return left_out


def default_candidates(names: Sequence[str | StrategySpec] | None = None) -> list[Candidate]:
    """Strategies with their defaults, searched hybrid: what the winner is tested against
    (``names``, specs or their words, each parsed once here; None: every registered strategy)."""
    return [Candidate(parse_contestant(name) if isinstance(name, str) else name, "hybrid")
            for name in (REGISTRY if names is None else names)]


@dataclass
class _Plan:
    """The rounds' sizes: tune questions and documents per halving round (nested prefixes of
    seeded orders), then the final round on everything."""
    questions: list[Question]          # the tune questions in their seeded order
    documents: list[str]               # every file in a seeded order
    halving: int                       # halving rounds before the final one
    eta: int = 3

    def round_questions(self, r: int) -> list[Question]:
        """Tune questions of halving round ``r`` (1-based): a 1/eta^(rounds left) share, at least
        ``MIN_QUESTIONS``."""
        share = self.share(r)
        n = max(min(MIN_QUESTIONS, len(self.questions)), math.ceil(len(self.questions) * share))
        return self.questions[:n]

    def share(self, r: int) -> float:
        """The share of questions and documents round ``r`` sees: 1/eta per round left."""
        return float(self.eta) ** -(self.halving - r + 1)

    def round_documents(self, r: int, asked: Sequence[Question]) -> list[str]:
        """The files that hold ``asked``'s answers and a share of the others (all files where a
        question names no file: its answer could be anywhere)."""
        named = [s for q in asked for s in [q.source, *(sp.source for sp in q.spans)] if s]
        if any(not (q.source or q.spans) for q in asked):
            return sorted(self.documents)
        holding = {d for d in self.documents if any(source_matches(s, d) for s in named)}
        n = math.ceil(len(self.documents) * self.share(r))
        return sorted(holding | set(self.documents[:n]))


@dataclass
class _SetUp:
    """What a search is planned from: the space (less what the model cannot take), the
    defaults, the files, the split questions, the candidates and the rounds' sizes."""
    space: Space
    versus: list[Candidate]
    left_out: dict[str, str]
    paths: list[str]
    tune_qs: list[Question]
    held_qs: list[Question]
    candidates: list[Candidate]
    plan: _Plan
    filters: str = "none"  # how each question's search is filtered (``filtering.FILTERS``)


def _set_up(documents: Sequence[str | Path], questions: Sequence[Question], options: TuneOptions,
            model: str) -> _SetUp:
    """The search's inputs checked and its rounds planned (``tune``'s arguments; ``model``: the
    embedding model's spec, whose maximum input some chunkings may be over)."""
    space, seed, eta = options.space or default_space(), options.seed, options.eta
    if eta < 2:
        raise ConfigError(f"eta must be at least 2; got {eta}")
    versus = default_candidates(options.versus)  # an unknown name stops before any work
    left_out = _over_model([*space.chunkings, *(c.spec for c in versus)], model)
    if left_out:
        space = dataclasses.replace(space, chunkings=tuple(s for s in space.chunkings if s.label not in left_out))
        versus = [c for c in versus if c.spec.label not in left_out]
        if not space.chunkings:
            raise ConfigError("no chunking of the space fits the model: "
                              + "; ".join(f"{label}: {why}" for label, why in left_out.items()))
    paths = [str(f) for f in expand(list(documents))]
    if not paths:
        raise ConfigError(f"no documents to tune on in {', '.join(map(str, documents))}")
    answerable = [q for q in questions if q.answerable]
    tune_qs, held_qs = split_questions(answerable, options.held_out, seed)
    if not tune_qs:
        raise ConfigError("no answerable question to tune on")
    order = list(tune_qs)
    random.Random(f"{seed}:questions").shuffle(order)
    files = sorted(paths)
    random.Random(f"{seed}:documents").shuffle(files)
    candidates = space.candidates()
    halving = 0 if options.exhaustive else _halving_rounds(len(candidates), len(tune_qs), options.finalists, eta)
    filters = options.filters or default_filters(answerable)[-1]
    return _SetUp(space, versus, left_out, paths, tune_qs, held_qs, candidates, _Plan(order, files, halving, eta),
                  filters)


def plan(documents: Sequence[str | Path], questions: Sequence[Question], options: TuneOptions = TuneOptions(),
         model: str = "default") -> dict[str, Any]:
    """The rounds ``tune`` with these ``options`` and embedding ``model`` would run, known before anything is read or
    embedded: per round the tune questions, the documents (the same lists ``tune`` takes) and
    the candidates, and what the builds cost in **corpus builds**: one is every document cut
    and embedded once by one chunking, about one ``seamcut index`` (chunkings of smaller
    chunks or more overlap embed more tokens a document, so it is an estimate).

    A cut keeps the best 1/``eta`` chunkings (every mode of each), fewer where the paired test
    drops some, so each round after the first is a range: ``high`` when none is dropped,
    ``low`` when only the leader's chunking is left; a round after the first builds only the
    documents it adds (an index grows from its last round's). The final round's ``search`` is
    the chunkings of its best ``finalists`` (grown), ``versus`` the defaults the winner is
    tested against: a whole build each, but those in the space may be among the searched
    (``low``)."""
    setup = _set_up(documents, questions, options, model)
    p, every, eta, finalists = setup.plan, len(setup.paths), options.eta, options.finalists
    modes, chunkings = len(setup.space.modes), len(setup.space.chunkings)
    rounds: list[dict[str, Any]] = []
    most, built = chunkings, 0  # chunkings judged at most, documents built
    for r in range(1, p.halving + 1):
        asked = p.round_questions(r)
        docs = len(p.round_documents(r, asked))
        grown = (docs - built) / every
        fewest = most if r == 1 else 1
        rounds.append({"round": r, "questions": len(asked), "documents": docs, "candidates": most * modes,
                       "chunkings": [fewest, most], "low": round(fewest * grown, 3), "high": round(most * grown, 3)})
        built, most = docs, math.ceil(most / eta)
    grown = (every - built) / every
    space_labels = {s.label for s in setup.space.chunkings}
    defaults_all = {c.spec.label for c in setup.versus}
    outside, inside = len(defaults_all - space_labels), len(defaults_all & space_labels)
    if p.halving:
        searched = [1, min(finalists, most)]
        search = [searched[0] * grown, searched[1] * grown]
        # a default of the space was judged in round 1 at least: its index grows from there
        rest = 1 - rounds[0]["documents"] / every
        versus = [outside + max(0, inside - searched[1]) * rest, outside + inside * rest]
    else:  # every candidate on everything, in one round: the defaults of the space among them
        searched, search = [chunkings, chunkings], [float(chunkings)] * 2
        versus = [float(outside)] * 2
    final = {"round": p.halving + 1, "questions": len(setup.tune_qs), "held_out": len(setup.held_qs),
             "documents": every, "chunkings": searched, "search": [round(x, 3) for x in search],
             "defaults": len(defaults_all), "versus": [round(x, 3) for x in versus]}
    low = sum(r["low"] for r in rounds) + search[0]
    high = sum(r["high"] for r in rounds) + search[1]
    return {"documents": every, "questions": {"tune": len(setup.tune_qs), "held_out": len(setup.held_qs)},
            "candidates": len(setup.candidates), "chunkings": chunkings, "rounds": rounds, "final": final,
            "search": [round(low, 2), round(high, 2)],
            "total": [round(low + versus[0], 2), round(high + versus[1], 2)],
            "left_out": setup.left_out}


def _halving_rounds(n: int, questions: int, finalists: int, eta: int) -> int:
    """How many halving rounds: the cuts by ``eta`` that bring ``n`` candidates down to
    ``finalists``, but no more than the rounds whose questions still grow by ``eta`` from
    ``MIN_QUESTIONS`` (a round on the same questions as the one before would only repeat it)."""
    cuts = 0
    while n > max(1, finalists):
        n = math.ceil(n / eta)
        cuts += 1
    growing = 1
    while questions >= MIN_QUESTIONS * eta ** growing:
        growing += 1
    return min(cuts, growing)
