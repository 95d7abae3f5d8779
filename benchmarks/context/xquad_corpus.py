"""XQuAD English as a corpus and a test set for ``context.py`` (issue 38 point 1): each of the 48
Wikipedia articles a Markdown file (``# Title`` and its paragraphs), each of the 1,190 questions
a row whose ``must_contain`` is its answer text and whose ``source`` is its article.

    .venv/bin/python benchmarks/context/xquad_corpus.py [--out out/xquad]
    OMP_NUM_THREADS=1 .venv/bin/python benchmarks/context/context.py --corpus out/xquad/docs \\
        --questions out/xquad/questions.yaml --named-source --pairs --workers 2 \\
        --budget 512,256,1024 --out out/xquad/index --json benchmarks/context/results/YYYY-MM-DD-xquad.json

The files are rebuilt from ``../shared/data/xquad/xquad.en.json`` (CC BY-SA 4.0, google-deepmind/
xquad) and not kept in the repository. An answer is SQuAD's first answer text, as the
paragraph has it.
"""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[2]
SOURCE = REPO.parent / "shared" / "data" / "xquad" / "xquad.en.json"


def write_corpus(source: Path, out: Path) -> tuple[int, int]:
    """Write ``out/docs/<article>.md`` and ``out/questions.yaml``; (articles, questions)."""
    data = json.loads(source.read_text(encoding="utf-8"))["data"]
    docs = out / "docs"
    docs.mkdir(parents=True, exist_ok=True)
    rows = []
    for article in data:
        name = f"{article['title']}.md"
        title = article["title"].replace("_", " ")
        paragraphs = [p["context"].strip() for p in article["paragraphs"]]
        (docs / name).write_text(f"# {title}\n\n" + "\n\n".join(paragraphs) + "\n", encoding="utf-8")
        for p in article["paragraphs"]:
            for qa in p["qas"]:
                rows.append({"id": f"xq-{qa['id']}", "question": qa["question"],
                             "must_contain": [qa["answers"][0]["text"]], "source": name})
    head = "# XQuAD English (CC BY-SA 4.0, google-deepmind/xquad), by benchmarks/context/xquad_corpus.py\n"
    (out / "questions.yaml").write_text(head + yaml.safe_dump(rows, allow_unicode=True, sort_keys=False),
                                        encoding="utf-8")
    return len(data), len(rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--source", type=Path, default=SOURCE)
    ap.add_argument("--out", type=Path, default=REPO / "out" / "xquad")
    args = ap.parse_args()
    articles, questions = write_corpus(args.source, args.out)
    print(f"{articles} articles, {questions} questions in {args.out}")


if __name__ == "__main__":
    main()
