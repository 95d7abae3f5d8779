"""Fixed-size chunking: every N units, with overlap, wherever that lands."""
from __future__ import annotations

from ..model import Chunk, Document
from ..text import is_blank
from .size_limit import SizeLimit, room
from .chunks import as_document, make_chunks
from .config import SizeConfig
from .context import Contexts
from .pieces import merge, no_barrier, unit_pieces
from .window_outline import outline_of


def fixed(document: Document | str, config: SizeConfig = SizeConfig()) -> list[Chunk]:
    """Cut every ``size`` units, each chunk starting ``size - overlap`` units after the last.

    The guide's semantics: 300/50 on a 1,000-unit text gives chunks starting at units 0, 250, 500
    and 750 holding 300, 300, 300 and 250 units, and never a last chunk made only of overlap. In
    tokens, ``size`` includes the tokens the model adds, so each chunk holds ``size`` minus those.
    Bodies are exact source text from the end of the unit before (so whitespace before the first
    unit opens the chunk) to the last character of their last unit. A chunk that a real count finds over the limit (a tokenizer that counts a
    cut word differently) gives up units from its end. With a ``context``, a chunk holds ``size``
    less the room of its context.
    """
    doc = as_document(document)
    if is_blank(doc.text):
        return []
    limit = SizeLimit(doc.text, config)
    ctx = Contexts(doc, config, limit, outline_of(doc))
    reserve, overlap = ctx.reserve()
    text = doc.text
    ends = limit.unit_measure.ends
    n_units = len(ends)
    # SizeLimit checked that size beats overlap; beside a context, Contexts.overlap did
    per_chunk = config.size - limit.unit_measure.overhead

    spans = [] if n_units else [(0, len(text))]
    i, last = 0, max(n_units - overlap, 1)
    while i < last and n_units:
        a = 0 if i == 0 else int(ends[i - 1])  # whitespace before a unit opens its chunk
        k = min(max(1, per_chunk - room(reserve, a)), n_units - i)
        while k > 1 and not limit.confirm(a, int(ends[i + k - 1]), reserve):
            k -= 1
        # the last chunk takes the text after the last unit too (characters a tokenizer drops)
        e = int(ends[i + k - 1])
        if i + k >= n_units or e >= int(ends[-1]):
            e = len(text)
        if is_blank(text, a, e):  # units of only whitespace make no chunk
            pass
        elif k == 1 and not limit.confirm(a, e, reserve):  # one word over the model's input: cut it
            spans.extend(merge(limit, unit_pieces(limit, a, e, 0, reserve), no_barrier, reserve))
        else:
            spans.append((a, e))
        if e == len(text):  # (units sharing one end cannot be parted)
            break
        i += max(1, k - overlap)
    return make_chunks(doc, ctx.drafts(spans), limit, "fixed", config.fingerprint("fixed", limit.token_sizer),
                       ctx.outline)
