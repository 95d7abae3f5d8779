"""``python -m seamcut.cli``: the ``seamcut`` command."""
from . import app

app()
