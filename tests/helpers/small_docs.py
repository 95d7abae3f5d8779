"""Three small documents to index (English and Hindi: a cotton manual, a soybean booklet, an
orange notice), written as a user's folder."""
from __future__ import annotations

from pathlib import Path


COTTON = """# Cotton manual

## Pests

### Whitefly

Whiteflies suck sap from the underside of cotton leaves. Mix 2 ml per litre of water and spray
in the evening. Wait seven days before spraying again.

### Aphids

Aphids curl young cotton leaves. Mix 3 ml per litre of water.

## Sowing

Sow cotton after the first good rain, 60 cm between rows.
"""

SOYBEAN = """# सोयाबीन पुस्तिका

## बीज उपचार

बुवाई से पहले बीज को 3 ग्राम फफूंदनाशक प्रति किलो बीज से उपचारित करें।

## खरपतवार

बुवाई के 20 दिन बाद निराई करें।
"""

ORANGE = """# Orange notice

The crop insurance scheme for orange growers closes on 31 July 2026. Apply at the bank.
"""


def write_docs(folder: Path) -> None:
    """The three small documents (English, Hindi) under ``folder``/docs."""
    docs = folder / "docs"
    docs.mkdir()
    for name, text in (("cotton.md", COTTON), ("soybean-hi.md", SOYBEAN), ("orange.md", ORANGE)):
        (docs / name).write_text(text, encoding="utf-8")
