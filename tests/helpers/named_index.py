"""An index of files named as a user names them on the command line: up a folder
(``../mydocs/R-data.md``) and below this one (``notes/orange.md``), as the index stores them."""
from __future__ import annotations

from pathlib import Path

import seamcut
from seamcut.index import Index
from seamcut.model import Document
from tests.helpers.small_docs import COTTON, ORANGE

#: the files' sources, as given and stored
SOURCES = ("../mydocs/R-data.md", "notes/orange.md")


def named_index(db: Path) -> Index:
    """The cotton manual as ``../mydocs/R-data.md`` and the orange notice as ``notes/orange.md``,
    cut with the default strategy, in an index at ``db``."""
    ix = Index(db, strategy="structure", options={}, model="default")
    ix.update([Document(text=text, source=source) for source, text in zip(SOURCES, (COTTON, ORANGE))],
              seamcut.chunk)
    return ix
