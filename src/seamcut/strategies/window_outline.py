"""A window of a larger document (``Window``) and the outline a strategy reads its chunks' heading
paths and languages from (``outline_of``). A window is what a strategy chunks when a long document
is chunked a window at a time (``long_documents.py``); its heading paths and languages come from
the whole document's outline, so they are what the same spans have in a whole run."""
from __future__ import annotations

from dataclasses import dataclass, field

from ..model import Document
from ..outline import Outline


@dataclass(frozen=True, slots=True)
class Window(Document):
    """``text[offset:offset + len(text)]`` of a larger document, with that document's ``id``,
    its elements and page starts shifted by ``-offset`` (an element that crosses a border cut at
    it, as a plain block), and ``outline``: the outline of the whole document."""

    offset: int = 0
    outline: Outline | None = field(default=None, compare=False, repr=False)


class _ShiftedOutline(Outline):
    """The whole document's outline asked at a window's offsets."""

    def __init__(self, window: Window) -> None:  # noqa: super().__init__ would work it out again
        self.document = window
        self._whole = window.outline
        self._offset = window.offset

    def path_at(self, pos: int) -> tuple[str, ...]:
        return self._whole.path_at(pos + self._offset)

    def language_of(self, start: int, end: int) -> str | None:
        return self._whole.language_of(start + self._offset, end + self._offset)


def outline_of(doc: Document) -> Outline:
    """The outline that gives ``doc``'s chunks their heading paths and languages: the whole
    document's where ``doc`` is a ``Window`` of it."""
    if isinstance(doc, Window) and doc.outline is not None:
        return _ShiftedOutline(doc)
    return Outline(doc)
