"""The one error path of the command line: an error becomes ``error: MESSAGE`` on standard error
and an exit status (2: the command cannot go on; 1: ``read`` could not read its file)."""
from __future__ import annotations

import functools
from contextlib import contextmanager
from typing import Any, Callable, Iterator, NoReturn

import typer
from rich.markup import escape

from ..errors import InputError
from .render import err

#: what a command stops on with a message instead of a traceback: a file that cannot be read, and
#: a setting that cannot be used (a strategy config, a spec, a test set, an index's settings: all
#: ValueErrors)
ERRORS: tuple[type[BaseException], ...] = (InputError, ValueError)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` on standard error and exit with ``code``."""
    err.print(f"[red]error:[/] {escape(message)}")
    raise typer.Exit(code)


@contextmanager
def on_error(*kinds: type[BaseException], code: int = 2) -> Iterator[None]:
    """Turn an exception of ``kinds`` (default ``ERRORS``) raised inside into ``fail``."""
    try:
        yield
    except (kinds or ERRORS) as exc:
        fail(str(exc), code)


def reported(command: Callable[..., Any], *kinds: type[BaseException]) -> Callable[..., Any]:
    """``command`` with ``on_error(*kinds)`` around it (typer sees the same signature)."""
    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        with on_error(*kinds):
            return command(*args, **kwargs)
    return run
