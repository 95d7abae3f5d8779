"""The one error path of the command line: an expected error becomes ``error: MESSAGE`` on
standard error (one line where that is not a terminal: ``render.print_error``) and an exit
status (2: the command cannot go on; 1: ``read`` could not read its file); any other exception
is a bug: its traceback, a line that says so, and exit status 70 (``EX_SOFTWARE``)."""
from __future__ import annotations

import functools
import sys
import traceback
from contextlib import contextmanager
from typing import Any, Callable, Iterator, NoReturn

import typer
from typer.exceptions import TyperException
from rich.markup import escape

from ..errors import SeamcutError
from .render import print_error

#: what a command stops on with a message instead of a traceback: seamcut's expected failures
#: (a bad option, setting or file raises a SeamcutError naming it; a program, package or device
#: this machine lacks, a MissingError saying how to install it) and what the machine refuses
#: (OSError: a folder that cannot be written, a full disk; the message names the path). A plain
#: ValueError is not among them: from seamcut's own code or a library it is a bug, and shows its
#: traceback
ERRORS: tuple[type[BaseException], ...] = (SeamcutError, OSError)
#: the exit status of a bug (sysexits.h: EX_SOFTWARE)
BUG = 70


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``error: message`` on standard error and exit with ``code``."""
    print_error(f"[red]error:[/] {escape(message)}")
    raise typer.Exit(code)


@contextmanager
def on_error(*kinds: type[BaseException], code: int = 2) -> Iterator[None]:
    """Turn an exception of ``kinds`` (default ``ERRORS``) raised inside into ``fail``."""
    try:
        yield
    except (kinds or ERRORS) as exc:
        fail(str(exc), code)


def reported(command: Callable[..., Any], *kinds: type[BaseException]) -> Callable[..., Any]:
    """``command`` with ``on_error(*kinds)`` around it, and any other exception reported as a bug
    (typer sees the same signature)."""
    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            with on_error(*kinds):
                return command(*args, **kwargs)
        except (typer.Exit, typer.Abort, TyperException):  # how typer ends a command, or a usage error
            raise
        except Exception as exc:  # noqa: BLE001 - anything not expected is a bug, said so
            traceback.print_exc(file=sys.stderr)
            print_error(f"[red]bug:[/] {escape(type(exc).__name__)} is not an error seamcut expects: this "
                        "is a bug in seamcut; please report it with the traceback above")
            raise typer.Exit(BUG) from exc
    return run
