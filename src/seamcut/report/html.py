"""The parts every seamcut HTML report shares: one self-contained page (no network: plots are
PNG images inside the file), tables, and matplotlib figures as base64 PNGs."""
from __future__ import annotations

import base64
import html
import io
import math
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

STYLE = """
body{font-family:system-ui,sans-serif;margin:2em auto;max-width:1100px;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ddd}
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #ccc;padding:3px 8px;
text-align:right}th{background:#f3f3f3}td.l,th.l{text-align:left}.bad{color:#b00020;font-weight:600}
.ok{color:#1b5e20}img{max-width:100%}.note{color:#555}pre{white-space:pre-wrap;background:#f7f7f7;
padding:.5em;border:1px solid #e3e3e3}details{margin:.3em 0}
"""


def esc(v: Any) -> str:
    """``v`` as HTML text (None as nothing)."""
    return html.escape("" if v is None else str(v))


def page(title: str, body: Sequence[str]) -> str:
    """A whole HTML document with seamcut's style."""
    return ("<!doctype html><html><head><meta charset='utf-8'>"
            f"<title>{esc(title)}</title><style>{STYLE}</style></head><body>"
            + "\n".join(body) + "</body></html>")


def write_page(text: str, path: str | Path) -> Path:
    """Write a page, creating its folder."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


def table(head: Sequence[str], rows: Iterable[Sequence[Any]], left: Sequence[int] = (0,),
          bad: Callable[[Sequence[Any]], bool] | None = None, header: bool = True) -> str:
    """An HTML table; columns in ``left`` are left-aligned; rows where ``bad(row)`` is marked;
    ``header=False`` leaves the head row out."""
    cls = lambda i: ' class="l"' if i in left else ""  # noqa: E731
    out = ["<table>" + ("<tr>" + "".join(f"<th{cls(i)}>{esc(h)}</th>" for i, h in enumerate(head))
                        + "</tr>" if header else "")]
    for row in rows:
        mark = ' class="bad"' if bad and bad(row) else ""
        out.append(f"<tr{mark}>" + "".join(f"<td{cls(i)}>{esc(v)}</td>" for i, v in enumerate(row)) + "</tr>")
    return "".join(out) + "</table>"


def png(fig: Any) -> str:
    """A matplotlib figure as base64 PNG (the figure is closed)."""
    import matplotlib.pyplot as plt
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode("ascii")


def img(alt: str, b64: str) -> str:
    """An <img> holding a base64 PNG."""
    return f'<img alt="{esc(alt)}" src="data:image/png;base64,{b64}">'


def pyplot() -> Any:
    """matplotlib.pyplot on the file-only backend, or None where matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return None
    return plt


def as_number(v: Any) -> float | None:
    """A number, or None for a missing one (None, NaN)."""
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return None
    return float(v)
