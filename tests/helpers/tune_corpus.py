"""A small corpus to tune on (six documents, a question per section) and the space searched."""
from __future__ import annotations

import json
import random
from pathlib import Path

from seamcut.evaluate.questions import Question

WORDS = ("river valley farmer seed rain soil harvest market price water canal village tractor "
         "fertiliser season cattle milk wheat barley orchard storage grain truck loan credit").split()
TOPICS = ["kelp", "quinoa", "sorghum", "millet", "cassava", "teff", "lentil", "sesame", "jute",
          "saffron", "indigo", "vanilla", "cardamom", "cumin", "fennel", "mustard", "taro", "yam"]

SPACE = {"modes": ["vector", "text"], "strategies": {"recursive": {"size": [32, 256], "overlap": 0}}}


def make_corpus(folder: Path) -> tuple[Path, list[Question]]:
    """Six documents of three sections each; a question per section whose answer is the whole
    paragraph under it (its first 45 words)."""
    rng = random.Random(7)
    docs = folder / "docs"
    docs.mkdir()
    questions = []
    for d in range(6):
        parts = [f"# Crop notes {d}\n"]
        for s in range(3):
            topic = TOPICS[3 * d + s]
            words = [rng.choice(WORDS) for _ in range(60)]
            words[0:3] = [f"The", topic, "notes:"]
            paragraph = " ".join(words) + "."
            parts.append(f"## {topic.title()} growing\n\n{paragraph}\n")
            questions.append(Question(f"d{d}s{s}", f"What do the notes say about {topic} growing?",
                                      (" ".join(words[:45]),), source=f"doc{d}.md"))
        (docs / f"doc{d}.md").write_text("\n".join(parts), encoding="utf-8")
    return docs, questions


def without_timings(data: dict) -> dict:
    """A tune result's JSON without what differs between equal runs (seconds, tokens embedded)."""
    data = json.loads(json.dumps(data))
    for row in data["rounds"] + data["log"] + data["points"] + data["pareto"]:
        row.pop("seconds", None)
        row.pop("embedded_tokens", None)  # the second run embeds nothing: the cache
        row.pop("chunking_tokens", None)
    data.pop("cost")
    return data
