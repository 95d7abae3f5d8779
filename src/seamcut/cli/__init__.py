"""The ``seamcut`` command (``seamcut.cli:app``). Thin: each command parses its flags (declared
once in ``options``), calls the library and hands the result to ``render``; every error goes out
through ``errors``."""
from __future__ import annotations

import logging

import typer
from rich.logging import RichHandler

from .. import __version__
from .compare import compare_command
from .documents import chunk_command, read_command
from .errors import ERRORS, reported
from .inspect import inspect_command
from .options import spread_flags
from .questions import check_command, questions_app
from .render import compare_table, document_json, document_markdown, err
from .search import index_command, search_command
from .serve import serve_command
from .tune import tune_command
from .view import view_command

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="RAG chunking that cuts where the document changes, and proves it.")


def _version(value: bool) -> None:
    if value:
        print(f"seamcut {__version__}")
        raise typer.Exit()


@app.callback()
def main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                      help="Print the version and exit."),
         verbose: bool = typer.Option(False, "--verbose", "-v", help="Log what is going on.")) -> None:
    logging.basicConfig(level=logging.INFO if verbose else logging.WARNING, format="%(message)s",
                        handlers=[RichHandler(console=err, show_time=False, show_path=False)])


#: the commands in the order ``--help`` lists them, and what each stops on with a message
COMMANDS = (
    ("chunk", chunk_command, ERRORS),
    ("read", read_command, ERRORS),
    ("inspect", inspect_command, ERRORS),
    ("index", index_command, ERRORS),
    ("search", search_command, ERRORS),
    ("serve", serve_command, ERRORS),
    ("compare", compare_command, ERRORS),
    ("tune", tune_command, ERRORS),
    ("view", view_command, ERRORS),
)
for _name, _command, _errors in COMMANDS:
    app.command(_name)(reported(spread_flags(_command), *_errors))
questions_app.command("check")(reported(spread_flags(check_command), *ERRORS))
app.add_typer(questions_app, name="questions")

__all__ = ["app", "compare_table", "document_json", "document_markdown"]
