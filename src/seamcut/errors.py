"""seamcut's expected failures: each names what it is about and the reason.

``SeamcutError`` is their base: the command line prints such an error's message in one line and
exits 2 (``read``: 1); any other exception is a bug in seamcut, and the command line prints its
traceback and says so.
"""
from __future__ import annotations


class SeamcutError(Exception):
    """An expected failure (bad input, a setting that cannot be used, an index another process
    holds, a service that refused): ``str()`` says what and why."""


class InputError(SeamcutError):
    """A file that cannot be read as a document; ``str()`` names the file and the reason."""

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason


class ConfigError(SeamcutError, ValueError):
    """A setting, option, spec or settings file that cannot be used (a ``ValueError`` too, for
    callers that catch those)."""
