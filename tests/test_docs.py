"""The docs are tested: their Python runs, their links lead somewhere, the README's commands are
the ones CI runs, and the README stays short.

Every ```python block in README.md and docs/*.md runs, in a temporary folder where
``examples/`` is the bundled example, offline, in this one process (so the model loads once). A
block that must not run (it takes minutes) has ``<!-- skip-test: why -->`` on the line before it.
"""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
LINKED = [README, *DOCS, ROOT / "CONTRIBUTING.md"]
README_MAX_LINES = 250

#: benchmark pages the docs link to, which exist once benchmarks/ holds one folder per benchmark
#: (issue 37): checked for real by their own test, which fails until then
BENCHMARK_FOLDERS = ("speed", "parse", "ocr", "embed", "index", "chroma", "tune", "scale", "ray",
                     "badfiles", "view", "devices", "context", "docugami", "serve", "peers", "fields", "filters")
AFTER_BENCHMARK_MOVE = {f"benchmarks/{name}/README.md" for name in BENCHMARK_FOLDERS}

FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<lang>[\w-]*)[ \t]*$")
SKIP = re.compile(r"^\s*<!--\s*skip-test\b.*-->\s*$")
LINK = re.compile(r"!?\[(?:[^\]\[]|\[[^\]]*\])*\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")


def blocks(path: Path, lang: str) -> list[tuple[int, str, bool]]:
    """The fenced blocks of ``lang`` in a Markdown file: (line number, dedented code, skipped),
    ``skipped`` where the last non-blank line before the fence is a skip-test comment."""
    lines = path.read_text(encoding="utf-8").splitlines()
    found, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m or not m["lang"]:
            i = i + 1 if not m else _close(lines, i) + 1
            continue
        end = _close(lines, i)
        indent = len(m["indent"])
        code = "\n".join(line[indent:] for line in lines[i + 1:end]) + "\n"
        before = next((line for line in reversed(lines[:i]) if line.strip()), "")
        if m["lang"] == lang:
            found.append((i + 1, code, bool(SKIP.match(before))))
        i = end + 1
    return found


def _close(lines: list[str], start: int) -> int:
    """The index of the fence that closes the one opened at ``start``."""
    for j in range(start + 1, len(lines)):
        if lines[j].strip() == "```":
            return j
    raise AssertionError(f"unclosed code fence at line {start + 1}")


def prose(path: Path) -> str:
    """The file's text without its fenced blocks (links inside code are not links)."""
    lines, out, i = path.read_text(encoding="utf-8").splitlines(), [], 0
    while i < len(lines):
        if FENCE.match(lines[i]):
            i = _close(lines, i) + 1
            continue
        out.append(lines[i])
        i += 1
    return "\n".join(out)


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"[`*_]|<[^>]+>", "", heading).strip().lower()
    text = "".join(c for c in text if c in " -" or unicodedata.category(c)[0] in "LNM")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {slug(m[1]) for m in re.finditer(r"^#{1,6}\s+(.+?)\s*$", prose(path), re.M)}


def relative_links(path: Path) -> list[tuple[str, Path, str]]:
    """(link as written, the file it names, its #anchor or '') for every relative link."""
    found = []
    for m in LINK.finditer(prose(path)):
        target = m["target"]
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # http:, mailto:, ...
            continue
        file, _, anchor = target.partition("#")
        found.append((target, (path.parent / file).resolve() if file else path, anchor))
    return found


PY_BLOCKS = [pytest.param(path, line, code, skipped, id=f"{path.relative_to(ROOT)}:{line}")
             for path in [README, *DOCS] for line, code, skipped in blocks(path, "python")]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A folder the blocks run in: ``examples/`` is the repository's, ``out/`` is theirs."""
    folder = tmp_path_factory.mktemp("docs")
    (folder / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    return folder


@pytest.mark.parametrize("path, line, code, skipped", PY_BLOCKS)
def test_python_block_runs(path, line, code, skipped, workdir, monkeypatch):
    if skipped:
        pytest.skip(f"{path.name}:{line} is marked skip-test")
    monkeypatch.chdir(workdir)
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        monkeypatch.setenv(name, "1")
    exec(compile(code, f"{path}:{line}", "exec"), {"__name__": f"docs_block_{line}"})


def test_the_docs_have_python_to_run():
    assert sum(not skipped for *_, skipped in (p.values for p in PY_BLOCKS)) >= 6
    assert blocks(README, "python") and not blocks(README, "python")[0][2]


def test_skip_marks_say_why():
    for path in [README, *DOCS]:
        for m in re.finditer(r"<!--\s*skip-test\b(.*?)-->", path.read_text(encoding="utf-8"), re.S):
            assert len(m[1].strip(" :")) > 10, f"{path.name}: a skip-test comment must say why"


@pytest.mark.parametrize("path", LINKED, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_lead_to_files(path):
    broken = []
    for target, file, anchor in relative_links(path):
        if file.is_relative_to(ROOT) and file.relative_to(ROOT).as_posix() in AFTER_BENCHMARK_MOVE:
            continue  # test_benchmark_pages_exist checks these
        if not file.exists():
            broken.append(f"{target}: no {file}")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no heading #{anchor} in {file.name}")
    assert not broken, f"{path.name}: " + "; ".join(broken)


def test_benchmark_pages_exist():
    """The benchmark pages the docs link to, one folder per benchmark (fails until benchmarks/ is
    laid out that way)."""
    linked = {file.relative_to(ROOT).as_posix() for path in LINKED
              for _, file, _ in relative_links(path) if file.is_relative_to(ROOT / "benchmarks")}
    assert linked - {"benchmarks/README.md"} <= AFTER_BENCHMARK_MOVE, \
        "link benchmark material as benchmarks/README.md or benchmarks/<folder>/README.md only"
    missing = sorted(p for p in linked if not (ROOT / p).exists())
    assert not missing, f"linked but missing: {missing}"


def test_no_benchmark_images_embedded():
    for path in LINKED:
        for target, file, _ in relative_links(path):
            assert not (file.is_relative_to(ROOT / "benchmarks") and file.suffix == ".png"), \
                f"{path.name} embeds {target}: link the benchmark's README instead"


def test_readme_test_command_is_the_one_ci_runs():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    command = next(line.strip() for line in ci.splitlines() if "pytest" in line and not line.startswith("#"))
    commands = [code.strip() for _, code, _ in blocks(README, "bash")]
    assert commands[1] == command, (commands[1], command)


def test_readme_main_command_runs_on_the_bundled_example():
    first = blocks(README, "bash")[0][1].strip()
    assert first.startswith("bash scripts/setup.sh && .venv/bin/seamcut compare ")
    for word in first.split():
        if word.startswith("examples/"):
            assert (ROOT / word).exists(), word
    assert (ROOT / "scripts" / "setup.sh").is_file()


def test_readme_is_short():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MAX_LINES, f"README.md has {len(lines)} lines; move detail to docs/"


def test_every_docs_page_is_in_the_index():
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    for page in DOCS:
        if page.name != "README.md":
            assert f"]({page.name})" in index, f"docs/README.md does not list {page.name}"


def test_license_is_the_one_pyproject_declares():
    assert re.search(r'^license = "Apache-2.0"$', (ROOT / "pyproject.toml").read_text(), re.M)
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert "Apache License" in text and "Version 2.0, January 2004" in text
    assert "END OF TERMS AND CONDITIONS" in text
