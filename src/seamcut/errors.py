"""Errors that name the input and the reason."""
from __future__ import annotations


class InputError(Exception):
    """A file that cannot be read as a document; ``str()`` names the file and the reason."""

    def __init__(self, path: object, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = str(path)
        self.reason = reason
