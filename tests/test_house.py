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
    assert "seamcut.evaluate.tune" in graph["seamcut.checks"]  # in a function only
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


# -- every expected failure is a SeamcutError (issue 52) ------------------------------------------

#: what src/ never raises: an expected failure is a SeamcutError (ConfigError is a ValueError,
#: ConfigTypeError a TypeError too), a bug path an AssertionError (seamcut.errors says so)
RAW = {"ValueError", "TypeError", "RuntimeError"}


def raw_raises(tree: ast.AST) -> list[int]:
    """The lines of ``tree`` that raise a plain ValueError, TypeError or RuntimeError (the class
    or a call of it; a re-raise, ``raise``, and a name bound to a caught exception are not)."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
            name = exc.id if isinstance(exc, ast.Name) else exc.attr if isinstance(exc, ast.Attribute) else None
            if name in RAW:
                lines.append(node.lineno)
    return lines


def test_no_plain_value_type_or_runtime_error_is_raised_in_src() -> None:
    found = {f"{path.relative_to(SRC)}:{line}" for path, _ in _modules().values()
             for line in raw_raises(ast.parse(path.read_text(encoding="utf-8")))}
    assert not found, ("a plain ValueError, TypeError or RuntimeError raised (raise a SeamcutError: "
                       f"ConfigError, ConfigTypeError, InputError, MissingError; a bug: AssertionError): {sorted(found)}")


@pytest.mark.parametrize("source, lines", [
    ("raise ValueError('x')", [1]),
    ("raise TypeError", [1]),
    ("import builtins\nraise builtins.RuntimeError('x')", [2]),
    ("try:\n    pass\nexcept ValueError as exc:\n    raise", []),
    ("raise ConfigError('x')\nraise AssertionError('cannot happen')", []),
    ("s = 'raise ValueError(1)'  # raise TypeError", []),
])
def test_raw_raises_are_found_in_code_only(source: str, lines: list[int]) -> None:
    assert raw_raises(ast.parse(source)) == lines


# -- no public function over 8 parameters (issue 52 point 3) --------------------------------------

MOST_PARAMETERS = 8

#: public functions allowed over the limit (none left: the embedders', the index's, the
#: integrations' and the view's take option objects, their old keywords gathered into them)
OVER_THE_LIMIT: set[str] = set()


def parameter_counts(tree: ast.AST) -> dict[str, int]:
    """The parameters of each public function of a module, by name (``Class.method`` for a
    method): those not named with a ``_`` (a class's ``__init__`` counts: its call is the
    class's), at the module's top or in a public class; ``self``/``cls`` left out, keyword-only
    ones and ``*args``/``**kwargs`` (one each) counted."""
    counts = {}

    def visit(node: ast.AST, owner: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef) and owner is None and not child.name.startswith("_"):
                visit(child, child.name)
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) and \
                    (not child.name.startswith("_") or (owner and child.name == "__init__")):
                a = child.args
                names = [p.arg for p in (*a.posonlyargs, *a.args, *a.kwonlyargs)]
                if owner and names[:1] in (["self"], ["cls"]):
                    names = names[1:]
                counts[f"{owner}.{child.name}" if owner else child.name] = \
                    len(names) + (a.vararg is not None) + (a.kwarg is not None)

    visit(tree, None)
    return counts


def test_no_public_function_takes_more_than_8_parameters() -> None:
    """compare and tune take option objects (``seamcut.evaluate.options``), not 16-20 loose
    arguments; so does whatever else is public, but for the ones listed above."""
    over = {}
    for path, _ in _modules().values():
        rel = path.relative_to(SRC)
        if any(part.startswith("_") and part != "__init__.py" for part in rel.parts):
            continue
        for name, n in parameter_counts(ast.parse(path.read_text(encoding="utf-8"))).items():
            if n > MOST_PARAMETERS:
                over[f"{rel.as_posix()}:{name}"] = n
    assert set(over) <= OVER_THE_LIMIT, f"public functions over {MOST_PARAMETERS} parameters: " \
                                        f"{ {k: v for k, v in over.items() if k not in OVER_THE_LIMIT} }"
    assert not OVER_THE_LIMIT - set(over), f"allowed but no longer over: {sorted(OVER_THE_LIMIT - set(over))}"


def test_parameters_are_counted_as_a_caller_gives_them() -> None:
    source = ("def f(a, b=1, *c, d, **e): pass\n"
              "def _private(a, b, c, d, e, f, g, h, i): pass\n"
              "class K:\n    def __init__(self, a): pass\n    def m(self, a, *, b): pass\n"
              "    @classmethod\n    def c(cls): pass\n    def _hidden(self, a): pass\n"
              "class _Private:\n    def m(self, a): pass\n"
              "def outer(a):\n    def inner(a, b, c, d, e, f, g, h, i): pass\n")
    assert parameter_counts(ast.parse(source)) == {"f": 5, "K.__init__": 1, "K.m": 2, "K.c": 0, "outer": 1}
