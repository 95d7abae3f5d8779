"""Word breaks in Indic PDF text from glyph geometry (seamcut.readers.pdf.glyphs).

The character boxes below are pdfium's, copied from examples/helpline/soybean-manual-hi.pdf and
orange-manual-mr.pdf (Noto Sans Devanagari at 12 pt, set by Pango): points, x to the right.
"""
from __future__ import annotations


import pytest

from seamcut.readers.pdf.glyphs import BREAK_GAP, Char, clusters, gap, is_indic, word_breaks
from tests.helpers.data import HELPLINE

SIZE = 12.0


def chars(*spec: tuple[str, float, float] | str) -> list[Char]:
    """Characters on one line (bottom 157, top 167 points): ``(ch, left, right)`` for a glyph,
    ``"gen"`` for a space pdfium generated, ``" "`` for a space written in the PDF."""
    out = []
    for i, s in enumerate(spec):
        if isinstance(s, str):
            out.append(Char(i, " ", 0.0, 0.0, 0.0, 0.0, 0.0, True, s == "gen"))
        else:
            ch, left, right = s
            out.append(Char(i, ch, left, right, 157.0, 167.0, SIZE, False, False))
    return out


def text(cs: list[Char], breaks: dict[int, bool]) -> str:
    """The characters joined as the PDF reader joins them with ``breaks``."""
    out = ""
    for c in cs:
        if c.space:
            out += " " if breaks.get(c.index) is not False else ""
        else:
            out += (" " if breaks.get(c.index) else "") + c.ch
    return " ".join(out.split())


def test_a_space_pdfium_guessed_after_an_anusvara_is_dropped():
    # "ग्राम फफूं दनाशक": ं's box ends inside its cluster, so pdfium saw a gap before द
    cs = chars(("ग", 209.49, 216.43), ("्", 209.49, 216.43), ("र", 209.49, 216.43),
               ("ा", 216.25, 219.52), ("म", 219.36, 226.70), "gen", ("फ", 229.65, 239.08),
               ("फ", 238.90, 248.34), ("ू", 241.51, 247.23), ("ं", 243.28, 245.49), "gen",
               ("द", 248.16, 254.56), ("न", 254.40, 261.22), ("ा", 261.06, 264.33),
               ("श", 264.16, 272.50), ("क", 272.32, 281.65))
    assert text(cs, word_breaks(cs)) == "ग्राम फफूंदनाशक"


def test_a_missing_space_after_a_candrabindu_is_added():
    # "मात्राएँऔर": ँ hangs past ए, pdfium measured the gap from it and saw none
    cs = chars(("म", 334.64, 342.57), ("ा", 342.39, 346.10), ("त", 345.92, 353.30),
               ("्", 345.92, 353.30), ("र", 345.92, 353.30), ("ा", 353.13, 356.84),
               ("ए", 356.66, 364.12), ("ँ", 359.42, 365.24), ("औ", 367.09, 380.94),
               ("र", 380.77, 386.20))
    breaks = word_breaks(cs)
    assert text(cs, breaks) == "मात्राएँ और"
    assert breaks[8] is True and breaks[7] is False  # before औ; ँ stays with ए


def test_a_mark_that_is_a_share_of_a_ligature_counts_in_its_cluster():
    # "पर्यंत": pdfium splits the र्यं ligature's box into four equal parts; ं is the last
    cs = chars(("प", 129.0, 138.26), ("र", 138.08, 139.88), ("्", 139.88, 141.69),
               ("य", 141.69, 143.49), ("ं", 143.49, 145.29), ("त", 145.04, 152.05))
    assert text(cs, word_breaks(cs)) == "पर्यंत"


def test_punctuation_next_to_devanagari_follows_the_gap():
    # "बुवाई ," -> "बुवाई,"; the gap before the next word stays a break
    cs = chars(("ब", 100.0, 107.0), ("ु", 101.0, 105.0), ("व", 106.8, 113.0),
               ("ा", 112.8, 116.0), ("ई", 115.8, 122.0), "gen", (",", 121.9, 125.0), "gen",
               ("ख", 128.0, 138.9))
    assert text(cs, word_breaks(cs)) == "बुवाई, ख"


def test_a_space_written_in_the_pdf_is_kept():
    cs = chars(("र", 191.73, 196.82), " ", ("3", 196.70, 203.0))
    breaks = word_breaks(cs)
    assert 1 not in breaks and 2 not in breaks
    assert text(cs, breaks) == "र 3"


def test_text_without_indic_letters_is_left_alone():
    cs = chars(("a", 10.0, 16.0), "gen", ("b", 16.2, 22.0), ("c", 30.0, 36.0))
    assert word_breaks(cs) == {}


def test_a_line_change_is_not_decided_here():
    cs = chars(("क", 400.0, 409.0), "gen", ("ख", 56.0, 66.0))
    cs[2].bottom, cs[2].top = 140.0, 150.0  # the next line
    assert word_breaks(cs) == {}


def test_clusters_and_gaps():
    cs = chars(("क", 0.0, 9.0), ("्", 0.0, 9.0), ("ष", 0.0, 9.0), ("ि", 9.0, 12.0),
               ("क", 15.0, 24.0))
    cl = clusters(cs)
    assert [c.chars for c in cl] == [[0, 1, 2, 3], [4]]
    assert gap(cl[0], cl[1]) == pytest.approx(3.0) and 3.0 > BREAK_GAP * SIZE
    assert is_indic("क") and is_indic("ং") and not is_indic("a")


def test_pages_without_indic_text_cost_nothing():
    import pypdfium2 as pdfium

    from seamcut.readers.pdf.glyphs import page_word_breaks

    pdf = pdfium.PdfDocument(str(HELPLINE / "cotton-manual.pdf"))
    try:
        page = pdf[0]
        tp = page.get_textpage()
        assert page_word_breaks(tp) == {}
        tp.close()
        page.close()
    finally:
        pdf.close()


def test_a_consonant_after_a_virama_on_the_next_line_starts_a_new_cluster():
    cs = chars(("क", 400.0, 409.0), ("्", 400.0, 409.0), ("ष", 56.0, 66.0))
    cs[2].bottom, cs[2].top = 140.0, 150.0
    assert [c.chars for c in clusters(cs)] == [[0, 1], [2]]
