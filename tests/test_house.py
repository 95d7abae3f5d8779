"""The shape of the house (issue 37): no import circle in ``src/``, no module over 500 lines, and
test modules that share code through ``tests/helpers/`` only.

Imports are read from the source (``ast``), those inside functions included: a circle hidden
behind a lazy import is still a circle. Only imports under ``if TYPE_CHECKING:`` are left out,
as they never run.
"""
from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
TESTS = Path(__file__).resolve().parent
MOST_LINES = 500


def _modules() -> dict[str, tuple[Path, list[str]]]:
    """Every module under src/ by dotted name, with its file and the package it is in."""
    found = {}
    for f in sorted(SRC.rglob("*.py")):
        parts = list(f.relative_to(SRC).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
            package = parts
        else:
            package = parts[:-1]
        found[".".join(parts)] = (f, package)
    return found


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imported(tree: ast.AST, package: list[str], modules: dict) -> set[str]:
    """The modules of src/ that ``tree`` imports (``from . import x`` names module x when x is one)."""
    out: set[str] = set()
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                name = ".".join(base + ([node.module] if node.module else []))
            else:
                name = node.module or ""
            for alias in node.names:
                out.add(f"{name}.{alias.name}" if f"{name}.{alias.name}" in modules else name)
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        stack.extend(ast.iter_child_nodes(node))
    return {m for m in out if m in modules}


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of src/ it imports."""
    modules = _modules()
    return {name: _imported(ast.parse(path.read_text(encoding="utf-8")), package, modules) - {name}
            for name, (path, package) in modules.items()}


def a_circle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle of ``graph`` (its modules, the first repeated at the end), or []."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as exc:
        return list(exc.args[1])
    return []


def test_the_graph_sees_relative_lazy_and_package_imports() -> None:
    graph = import_graph()
    assert "seamcut.index.settings" in graph["seamcut.index.lock"]  # from .settings import ...
    assert "seamcut.embed" in graph["seamcut.checks"]  # in a function only
    assert "seamcut.readers" not in graph["seamcut"]  # under TYPE_CHECKING only
    assert len(graph) > 100


def test_no_import_circle_in_src() -> None:
    circle = a_circle(import_graph())
    assert not circle, "an import circle: " + " -> ".join(circle)


def test_no_module_over_500_lines() -> None:
    long = {str(p.relative_to(SRC)): n for p, _ in _modules().values()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MOST_LINES}
    assert not long, f"modules over {MOST_LINES} lines: {long}"


@pytest.mark.parametrize("source, circle", [
    ("a: from . import b\nb: from .a import x", True),
    ("a: from . import b\nb: import os", False),
    ("a: from .b import f\nb: from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .a import A", False),
    ("a: def f():\n    from .b import g\nb: from .a import f", True),
])
def test_a_circle_is_found_where_there_is_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, source: str,
                                               circle: bool) -> None:
    pkg = tmp_path / "p"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    current = None
    for line in source.split("\n"):
        if line[:3] in ("a: ", "b: "):
            current = pkg / f"{line[0]}.py"
            line = line[3:]
        with current.open("a") as fh:
            fh.write(line + "\n")
    monkeypatch.setitem(globals(), "SRC", tmp_path)
    assert bool(a_circle(import_graph())) is circle


def _imported_test_modules(path: Path) -> set[str]:
    """The modules under tests/ that ``path`` imports, by dotted name (``tests.x.y``)."""
    package = list(path.relative_to(TESTS.parent).with_suffix("").parts[:-1])
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            name = ".".join(base + ([node.module] if node.module else []))
            if node.module:
                out.add(name)
            else:  # from . import x: module x
                out.update(f"{name}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return {m for m in out if m == "tests" or m.startswith("tests.")}


def test_test_modules_share_code_through_helpers_only() -> None:
    """A test module imports shared code from ``tests.helpers`` (fixtures come from a conftest),
    never from another test module or from a conftest."""
    wrong = {str(p.relative_to(TESTS)): sorted(bad) for p in sorted(TESTS.rglob("*.py"))
             if (bad := {m for m in _imported_test_modules(p)
                         if not (m == "tests.helpers" or m.startswith("tests.helpers."))})}
    assert not wrong, f"test code imported from outside tests/helpers: {wrong}"


#: folders of tests/ that are not a package of src/seamcut: shared test code, whole-tool robustness
#: checks (bad files, fuzzing), stored snapshots, the real documents the tests read
NOT_PACKAGES = {"helpers", "robustness", "snapshots", "data", "__pycache__"}


def test_tests_are_laid_out_like_src() -> None:
    """Each folder of tests/ holds the tests of the src/seamcut package of its name; the tests
    left at the top are about the whole tool (the API, the docs, the guide's demos, snapshots)."""
    packages = {p.name for p in (SRC / "seamcut").iterdir() if (p / "__init__.py").is_file()}
    folders = {p.name for p in TESTS.iterdir() if p.is_dir()} - NOT_PACKAGES
    assert folders <= packages, f"test folders with no package of that name: {sorted(folders - packages)}"
    top = {p.stem.removeprefix("test_") for p in TESTS.glob("test_*.py")}
    assert not top & packages, f"tests of a package left at the top: {sorted(top & packages)}"
