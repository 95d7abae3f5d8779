"""seamcut's expected failures: each names what it is about and the reason.

``SeamcutError`` is their base: the command line prints such an error's message in one line and
exits 2 (``read``: 1 for a file it cannot read); any other exception is a bug in seamcut, and the
command line prints its traceback, says so and exits 70.

The rule in ``src/``: an expected failure raises a ``SeamcutError`` (``InputError``: a file;
``ConfigError``: a setting, option or spec; ``MissingError``: a program, package or device this
machine lacks), never a plain ``ValueError``, ``TypeError`` or ``RuntimeError``
(``tests/test_house.py`` holds it). A bug path, an invariant of seamcut's own broken ("cannot
happen"), raises ``AssertionError`` (never ``assert``, which ``python -O`` drops): it is not an
error anyone can mend, and the command line reports it as the bug it is.
"""
from __future__ import annotations

import importlib
from types import ModuleType


class SeamcutError(Exception):
    """An expected failure (bad input, a setting that cannot be used, an index another process
    holds, a service that refused): ``str()`` says what and why."""


class InputError(SeamcutError):
    """A file that cannot be read as a document; ``str()`` names the file and the reason."""

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason

    def __reduce__(self) -> tuple:  # crosses process boundaries as its two fields
        return type(self), (self.path, self.reason)


class ConfigError(SeamcutError, ValueError):
    """A setting, option, spec or settings file that cannot be used (a ``ValueError`` too, for
    callers that catch those)."""


class ConfigTypeError(ConfigError, TypeError):
    """An argument of the wrong kind given to the library (a list where one string goes): a
    ``ConfigError`` that is a ``TypeError`` too, as Python's own functions raise for those."""


class MissingError(SeamcutError, ImportError):
    """A program, package or device this machine lacks: ``what`` is missing, ``needed_by`` needs
    it, and ``hint`` says how to get it (a pip extra, a Debian package). ``str()`` is one line:
    ``<needed_by> needs <what>: <hint>``. An ``ImportError`` too, for callers that catch a
    missing package that way."""

    def __init__(self, what: str, needed_by: str, hint: str) -> None:
        super().__init__(f"{needed_by} needs {what}: {hint}")
        self.what, self.needed_by, self.hint = what, needed_by, hint

    def __reduce__(self) -> tuple:  # crosses process boundaries as its three fields
        return type(self), (self.what, self.needed_by, self.hint)


def require(module: str, needed_by: str, hint: str, what: str | None = None) -> ModuleType:
    """``module`` imported, or ``MissingError`` (``what``: its name as a person knows it; default
    the module's) saying that ``needed_by`` needs it and how to install it (``hint``)."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingError(what or module, needed_by, hint) from exc


__all__ = ["SeamcutError", "InputError", "ConfigError", "ConfigTypeError", "MissingError", "require"]
