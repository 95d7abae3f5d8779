"""The command line's one error path: an expected failure (a ``SeamcutError``) is one line and
exit status 2; anything else is a bug: its traceback, a line that says so, exit status 70."""
from __future__ import annotations

import pytest
import typer
from typer.testing import CliRunner

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
