"""The command line's one error path: an expected failure (a ``SeamcutError``) is one line and
exit status 2; anything else is a bug: its traceback, a line that says so, exit status 70."""
from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

from tests.helpers.cli import run

import seamcut
from seamcut.cli.errors import BUG, ERRORS, reported
from seamcut.embed import LongInputError
from seamcut.embed.openai_compat import EmbeddingAPIError
from seamcut.evaluate.questions import QuestionsError
from seamcut.evaluate.space import SpaceError
from seamcut.index.disk import DiskFullError
from seamcut.index.lock import IndexBusyError
from seamcut.pipeline.ray_engine import RayMissingError
from seamcut.report.view.serve import QueryError


@pytest.mark.parametrize("kind", [seamcut.InputError, seamcut.ConfigError, QuestionsError, SpaceError,
                                  QueryError, RayMissingError, LongInputError, IndexBusyError, DiskFullError,
                                  EmbeddingAPIError])
def test_seamcuts_own_failures_are_seamcut_errors(kind):
    assert issubclass(kind, seamcut.SeamcutError)
    assert issubclass(kind, ERRORS)


def _app(exc: BaseException) -> typer.Typer:
    def command(name: str) -> None:
        raise exc

    app = typer.Typer()
    app.command()(reported(command, *ERRORS))
    app.command("other")(lambda: None)
    return app


def test_an_expected_failure_is_one_line_and_exit_2():
    r = CliRunner().invoke(_app(seamcut.ConfigError("size must be at least 1; got 0")), ["command", "x"])
    assert r.exit_code == 2
    assert "error: size must be at least 1; got 0" in r.output
    assert "Traceback" not in r.output


def test_anything_else_is_a_bug_with_its_traceback(capsys):
    r = CliRunner().invoke(_app(KeyError("vector")), ["command", "x"])
    assert r.exit_code == BUG == 70
    assert "bug: KeyError is not an error seamcut expects" in r.output
    assert "Traceback" in capsys.readouterr().err + r.output


def test_a_usage_error_raised_in_a_command_stays_a_usage_error():
    r = CliRunner().invoke(_app(typer.BadParameter("--ocr takes auto, always or never")), ["command", "x"])
    assert r.exit_code == 2
    assert "bug:" not in r.output


# -- a plain ValueError is a bug; a user's mistake is a SeamcutError ------------------------------

def test_a_plain_value_error_is_not_an_expected_failure():
    assert not issubclass(ValueError, ERRORS)
    assert issubclass(seamcut.ConfigError, ValueError)  # callers that catch ValueError still do


@pytest.mark.parametrize("exc", [ValueError("row 3 has 2 cells"),
                                 UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte")])
def test_a_value_error_of_a_library_or_our_code_is_a_bug(capsys, exc):
    r = CliRunner().invoke(_app(exc), ["command", "x"])
    assert r.exit_code == BUG
    assert f"bug: {type(exc).__name__} is not an error seamcut expects" in r.output
    assert "Traceback" in capsys.readouterr().err + r.output


def _seamcut(*args: str):
    from seamcut.cli import app
    return CliRunner().invoke(app, [str(a) for a in args])


def _one_error(r, *words: str) -> None:
    """One ``error:`` message holding ``words`` on one line (the runner's output is not a
    terminal), exit 2, no traceback."""
    assert r.exit_code == 2, r.output
    assert r.output.count("error:") == 1 and "Traceback" not in r.output and "bug:" not in r.output, r.output
    line = next(x for x in r.output.splitlines() if "error:" in x)
    for w in words:
        assert w in line, (w, r.output)


@pytest.fixture()
def mistakes(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("# Wheat\n\nSow wheat in November after the rice harvest.\n", encoding="utf-8")
    (tmp_path / "q.yaml").write_text("- question: when to sow wheat?\n  must_contain: November\n",
                                     encoding="utf-8")
    (tmp_path / "broken.yaml").write_text("questions: [\n  - question: x\n", encoding="utf-8")
    (tmp_path / "space.yaml").write_text("strategies: {recursive: [\n", encoding="utf-8")
    (tmp_path / "latin1.yaml").write_bytes("strategies: {recursive: {size: [200]}} # caf\xe9\n".encode("latin-1"))
    (tmp_path / "chunks.json").write_text('[{"text": "a"}, {"id": 2}]', encoding="utf-8")
    (tmp_path / "idx").mkdir()
    (tmp_path / "idx" / "seamcut-index.json").write_text("{oops", encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize("args, words", [
    (("chunk", "{d}/doc.md", "--size", "0"), ("size must be a positive whole number", "got 0")),
    (("chunk", "{d}/doc.md", "--size", "5000"), ("size 5000 tokens is over the model's maximum input of 512",)),
    (("chunk", "{d}/doc.md", "-s", "recursive:size=abc"), ("'recursive:size=abc'", "size must be a whole number")),
    (("chunk", "{d}/doc.md", "-s", "bogus"), ("unknown strategy 'bogus'",)),
    (("compare", "{d}/doc.md", "-q", "{d}/broken.yaml"), ("broken.yaml:2: not valid YAML",)),
    (("compare", "{d}/doc.md", "-q", "{d}/q.yaml", "--budget", "abc"), ("--budget: 'abc' is not a whole number",)),
    (("index", "{d}/doc.md", "--db", "{d}/new", "--model", "{d}/no-such-model"), ("no-such-model", "not a model folder")),
    (("tune", "{d}/doc.md", "-q", "{d}/q.yaml", "--space", "{d}/space.yaml", "--plan"), ("space.yaml:2: not valid YAML",)),
    (("tune", "{d}/doc.md", "-q", "{d}/q.yaml", "--space", "{d}/latin1.yaml", "--plan"), ("latin1.yaml: not UTF-8 text",)),
    (("tune", "{d}/doc.md", "-q", "{d}/q.yaml", "--held-out", "1.5", "--plan"), ("held-out share must be", "got 1.5")),
    (("inspect", "{d}/chunks.json"), ("chunks.json", "no text field")),
    (("inspect", "--explain", "langchain:RecursiveCharacterTextSplitter", "chunk_size=big"),
     ("chunk_size: expected a whole number", "'big'")),
    (("search", "wheat", "--db", "{d}/idx"), ("seamcut-index.json: not an index settings file",)),
])
def test_a_users_mistake_through_the_command_is_one_line_and_exit_2(mistakes, args, words):
    _one_error(_seamcut(*(a.format(d=mistakes) for a in args)), *words)


def test_a_value_error_inside_a_real_command_is_a_bug(mistakes, monkeypatch, capsys):
    import seamcut.strategies.spec as spec

    def broken(text):
        raise ValueError("an invariant of ours broke")
    monkeypatch.setattr(spec, "parse_spec", broken)
    r = _seamcut("chunk", mistakes / "doc.md")
    assert r.exit_code == BUG
    assert "bug: ValueError is not an error seamcut expects" in r.output
    assert "an invariant of ours broke" in capsys.readouterr().err + r.output


def _calls():
    from seamcut.embed import load_embedder, model_on
    from seamcut.evaluate import parse_budgets
    from seamcut.index.search import check_query
    from seamcut.strategies.spec import parse_spec
    from seamcut.tokens import unit_sizer
    return [lambda: seamcut.chunk("some text", strategy="bogus"),
            lambda: seamcut.chunk("some text", size=0),
            lambda: seamcut.chunk("some text", size=100, overlap=100),
            lambda: parse_spec("parent-child:parents=pages"),
            lambda: parse_budgets(["512,-1"]),
            lambda: check_query("hybrid", 0),
            lambda: model_on("some/folder", "cuda"),
            lambda: load_embedder(None, device="gpu"),
            lambda: unit_sizer("lines")]


@pytest.mark.parametrize("n", range(len(_calls())))
def test_a_callers_mistake_in_python_is_a_config_error(n):
    with pytest.raises(seamcut.ConfigError):
        _calls()[n]()


def test_an_error_is_one_line_where_standard_error_is_not_a_terminal(tmp_path):
    """Issue 51 point 4: off a terminal (a log, a pipe, CI) an error was wrapped at 80 columns,
    mid-sentence and mid-path. Now it is one line, as a grep of the log needs it."""
    missing = tmp_path / ("a-folder-with-a-rather-long-name-" * 3) / "chunks-of-the-helpline-example.jsonl"
    r = run("inspect", str(missing), env={"COLUMNS": "80"})
    assert r.returncode == 2
    assert r.stderr == f"error: {missing}: no such file\n"
    r = run("chunk", str(missing.with_suffix(".md")), env={"COLUMNS": "80"})
    assert r.returncode == 1
    assert f"  ✗ {missing.with_suffix('.md')}: no such file\n" in r.stderr


def test_on_a_terminal_an_error_is_wrapped_between_words_only():
    from rich.text import Text
    from seamcut.cli.render import word_lines
    message = ("error: /srv/documents/a-folder-with-a-rather-long-name/chunks.jsonl: not JSON or "
               "JSON lines (Expecting value, line 3)")
    lines = [line.plain for line in word_lines(Text(message), 30)]
    assert " ".join(lines) == message  # cut at spaces only, every word whole
    assert lines[:2] == ["error:", "/srv/documents/a-folder-with-a-rather-long-name/chunks.jsonl:"]
    assert all(len(line) <= 30 for line in lines[2:])


# -- a program, package or device this machine lacks: a MissingError (issue 52 point 5) -----------

def test_a_missing_tesseract_is_one_line_saying_how_to_install_it_not_a_bug(tmp_path):
    """A scan read where no ``tesseract`` is on PATH raised a plain RuntimeError: ``read`` said
    "unexpected RuntimeError" and exit 1, as for a broken file. Now it is the MissingError of
    Tesseract: one line with what to install, exit 2 (the file is not at fault); in a batch the
    file's failure names the same fix."""
    from PIL import Image
    scan = tmp_path / "scan.png"
    Image.new("L", (300, 100), 255).save(scan)
    (tmp_path / "bin").mkdir()
    no_tesseract = {"PATH": str(tmp_path / "bin")}
    hint = "OCR needs Tesseract (no `tesseract` program on PATH): apt-get install tesseract-ocr, or run scripts/setup.sh"
    r = run("read", str(scan), env=no_tesseract)
    assert (r.returncode, r.stderr) == (2, f"error: {hint}\n")
    r = run("chunk", str(scan), env=no_tesseract)
    assert r.returncode == 1 and f"{scan}: {hint}" in r.stderr and "unexpected" not in r.stderr, r.stderr


def test_a_missing_error_says_what_needs_what_and_how_to_get_it_and_crosses_processes():
    import pickle
    exc = seamcut.MissingError("Tesseract", "OCR", "apt-get install tesseract-ocr")
    assert str(exc) == "OCR needs Tesseract: apt-get install tesseract-ocr"
    assert isinstance(exc, ImportError) and issubclass(seamcut.MissingError, ERRORS)
    back = pickle.loads(pickle.dumps(exc))  # from a reading worker
    assert (type(back), back.what, back.needed_by, back.hint, str(back)) == (
        seamcut.MissingError, "Tesseract", "OCR", "apt-get install tesseract-ocr", str(exc))
    r = CliRunner().invoke(_app(exc), ["command", "x"])
    assert r.exit_code == 2 and r.output == f"error: {exc}\n"


def test_ray_missing_is_the_missing_error_of_ray_and_is_caught_as_before(monkeypatch):
    import sys
    from seamcut.pipeline.ray_engine import require_ray
    monkeypatch.setitem(sys.modules, "ray", None)  # what an environment without ray looks like
    with pytest.raises(RayMissingError) as caught:
        require_ray()
    assert isinstance(caught.value, seamcut.MissingError) and isinstance(caught.value, seamcut.ConfigError)
    assert str(caught.value) == "the ray engine needs Ray: pip install 'seamcut[ray]'"
    r = CliRunner().invoke(_app(caught.value), ["command", "x"])
    assert r.exit_code == 2 and r.output == f"error: {caught.value}\n"


def test_a_missing_package_is_a_missing_error_naming_its_extra(monkeypatch):
    import sys
    from seamcut.tokens.tiktoken import TiktokenSizer
    monkeypatch.setitem(sys.modules, "tiktoken", None)
    with pytest.raises(seamcut.MissingError, match=r"^tokenizer 'tiktoken:cl100k_base' needs tiktoken: "
                                                    r"pip install 'seamcut\[tiktoken\]'$"):
        TiktokenSizer()

