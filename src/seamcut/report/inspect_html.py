"""The ``seamcut inspect --report`` page: one self-contained HTML file (plots as embedded PNGs,
tables as HTML), from an ``Inspection``. Plots need matplotlib; without it the page has the
tables only and says so."""
from __future__ import annotations

from pathlib import Path

from ..diagnose import Inspection
from .html import esc, img, page, png, pyplot, table, write_page

def render(ins: Inspection, title: str = "seamcut inspect") -> str:
    """The report page as a string."""
    parts = [f"<h1>{esc(title)}</h1>", _summary(ins)]
    plots = _plots(ins)
    if plots is None:
        parts.append('<p class="note">matplotlib is not installed: plots left out '
                     "(pip install matplotlib).</p>")
    else:
        parts += [img(alt, b64) for alt, b64 in plots]
    parts.append("<h2>Sizes</h2>")
    parts.append(table(["unit", "min", "median", "max", "mean", "stated limit", "over it"],
                        [[s.unit, s.min, f"{s.median:g}", s.max, f"{s.mean:.1f}",
                          s.limit if s.limit is not None else "–",
                          f"{s.over} ({s.share_over:.0%})" if s.limit else "–"]
                         for s in ins.sizes.values()]))
    parts.append("<h2>Overlap between neighbours</h2>")
    parts.append(f"<p>{len(ins.pairs)} pairs; {_overlap_line(ins)}.</p>")
    missing = {f"{i}–{i + 1}" for i in ins.missing_overlap_pairs}
    parts.append(table(["pair", "chars", "words", "tokens", f"in {ins.unit}", "gap chars", "found by"],
                        [[f"{p.index}–{p.index + 1}", p.overlap_chars, p.overlap_words,
                          p.overlap_tokens, p.overlap_units, p.gap_chars, p.method]
                         for p in ins.pairs], bad=lambda row: row[0] in missing))
    parts.append("<h2>Truncation</h2>")
    if ins.max_input_tokens is None:
        parts.append('<p class="note">The model\'s maximum input is unknown.</p>')
    elif not ins.over_limit:
        parts.append(f'<p class="ok">No chunk is over the maximum input of {ins.max_input_tokens} '
                     "tokens.</p>")
    else:
        parts.append(f'<p class="bad">{len(ins.over_limit)} chunk(s) over the maximum input of '
                     f"{ins.max_input_tokens} tokens; {ins.tokens_lost} tokens in all would never be "
                     "seen by a model that cuts at the limit.</p>")
        parts.append(table(["chunk", "tokens", "limit", "tokens lost"],
                            [[x.index, x.tokens, x.max_input_tokens, x.lost] for x in ins.over_limit]))
    parts.append("<h2>Coverage</h2>")
    cov = ins.coverage
    if cov is None:
        parts.append('<p class="note">No source documents given (--source): coverage not '
                     "checked.</p>")
    else:
        parts.append(f"<p>{cov.uncovered_chars} non-whitespace characters of the sources "
                     f"({cov.source_chars} characters in all) are in no chunk; "
                     f"{cov.foreign_chars} characters of the chunks are not in the sources.</p>")
        if cov.uncovered:
            parts.append(table(["source", "start", "end", "text"],
                                [[s.source, s.start, s.end, s.excerpt] for s in cov.uncovered[:200]],
                                left=(0, 3)))
        if cov.foreign:
            parts.append(table(["chunk", "foreign chars", "placed", "text"],
                                [[f.index, f.chars, "no" if f.unlocated else "ignoring case/spacing",
                                  f.excerpt] for f in cov.foreign[:200]], left=(3,)))
    if ins.traps or ins.notes:
        parts.append("<h2>Tokenizer traps and notes</h2><ul>"
                     + "".join(f'<li class="bad">{esc(t)}</li>' for t in ins.traps)
                     + "".join(f"<li>{esc(n)}</li>" for n in ins.notes) + "</ul>")
    return page(title, parts)


def write(ins: Inspection, path: str | Path, title: str = "seamcut inspect") -> Path:
    """Write the report page to ``path``."""
    return write_page(render(ins, title), path)


def _overlap_line(ins: Inspection) -> str:
    """What the pairs sharing nothing mean: a finding (red) only where overlap was asked for."""
    zero = len(ins.zero_overlap_pairs)
    said = esc(ins.overlap_said())
    if ins.overlap_asked:
        return f'{said}; <span class="{"bad" if zero else "ok"}">{zero} share nothing</span>'
    if ins.overlap_asked is False:
        return f"{said}: {zero} share nothing, as they should"
    return f"{zero} share nothing, not judged: {said}"


def _summary(ins: Inspection) -> str:
    lim = f"maximum input {ins.max_input_tokens} tokens" if ins.max_input_tokens else "maximum input unknown"
    rows = [["chunks", ins.chunks], ["model", f"{ins.model} ({lim})"],
            ["neighbour pairs", len(ins.pairs)], ["pairs sharing nothing", len(ins.zero_overlap_pairs)],
            ["of them where overlap was asked for", len(ins.missing_overlap_pairs)],
            ["chunks over the maximum input", len(ins.over_limit)], ["tokens lost", ins.tokens_lost]]
    if ins.coverage:
        rows += [["uncovered source characters", ins.coverage.uncovered_chars],
                 ["chunk characters not in the sources", ins.coverage.foreign_chars]]
    return table(["", ""], rows, left=(0, 1), header=False)


def _plots(ins: Inspection) -> list[tuple[str, str]] | None:
    plt = pyplot()
    if plt is None:
        return None
    out = []
    tokens = [t for _, _, t in ins.chunk_sizes]
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.4))
    ax = axes[0]
    if tokens:
        top = max(tokens + [ins.max_input_tokens or 0, ins.sizes["tokens"].limit or 0]) * 1.05
        ax.hist(tokens, bins=[top * k / 40 for k in range(41)], color="#4c72b0")
    if ins.max_input_tokens:
        ax.axvline(ins.max_input_tokens, color="#b00020", ls="--", label=f"max input {ins.max_input_tokens}")
    stated = ins.sizes["tokens"].limit
    if stated:
        ax.axvline(stated, color="#555", ls=":", label=f"stated size {stated}")
    ax.set_xlabel("tokens per chunk (model's, special tokens included)")
    ax.set_ylabel("chunks")
    if ins.max_input_tokens or stated:
        ax.legend(fontsize=8)
    ax = axes[1]
    ov = [p.overlap_units if p.overlap_units is not None else p.overlap_chars for p in ins.pairs]
    ax.bar(range(len(ov)), ov, color="#55a868", width=0.9)
    zeros = [i for i, v in enumerate(ov) if v == 0] if ins.overlap_asked else []
    if zeros:  # a bar of height 0 does not show: mark the pairs that share nothing
        ax.scatter(zeros, [0] * len(zeros), marker="x", color="#b00020", zorder=3,
                   label="shares nothing")
    target = ins.overlap_target if ins.overlap_asked else None  # not between units' neighbours
    if target:
        ax.axhline(target, color="#555", ls=":", label=f"configured {target}")
    if target or zeros:
        ax.legend(fontsize=8)
    ax.set_xlabel("neighbour pair")
    ax.set_ylabel(f"shared {ins.unit}")
    fig.tight_layout()
    out.append(("sizes and overlap", png(fig)))
    return out


__all__ = ["render", "write"]
