"""The lines of one block joined into a paragraph, with words hyphenated across a line break
joined again."""
from __future__ import annotations

import re
from typing import Sequence

#: first halves of hyphenated compounds whose hyphen stays when a line breaks after it
COMPOUND_PREFIXES = frozenset("""
self well non co multi anti ex pre post semi cross high low long short full half all one two
three four five six ten first second third built user high-level so quasi mid part right left
state time cost data real""".split())

_HYPHENS = "-\u2010\u2011"


def join_lines(lines: Sequence[str]) -> str:
    """Join the lines of one block into a paragraph; words hyphenated across a line break are
    joined ("fertil-" + "izer" -> "fertilizer") unless the next line starts with an uppercase
    letter or digit, or the first half is a known compound prefix ("self-" + "locking")."""
    out = ""
    for raw in lines:
        line = " ".join(raw.replace("\u00ad\n", "").split())
        if not line:
            continue
        if not out:
            out = line
            continue
        if out.endswith("\u00ad"):
            out = out[:-1] + line
            continue
        if out[-1] in _HYPHENS and len(out) >= 3 and out[-2].isalpha():
            m = re.search(r"(\w+)[-\u2010\u2011]$", out)
            first = m.group(1).lower() if m else ""
            nxt = line[0]
            if nxt.islower() and first not in COMPOUND_PREFIXES and len(first) >= 2:
                out = out[:-1] + line
            else:
                out = out + line
            continue
        out = out + " " + line
    return out

