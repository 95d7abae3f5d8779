"""Words cut in two by a change of style (seamcut.readers.pdf.words): read with no space between
where they touch on one baseline, apart where one is raised (a footnote mark) or a gap is left.

On real pages: a 10-Q of Microsoft (tagged: "$" and "7.5" are in two marked-content runs with no
gap), one of Apple ("2022" at 7.2 pt, its "." at 8.1 pt), and IBM's redbook sample in the docling
PDFs ("Center" and its raised footnote mark "1").
"""
from __future__ import annotations

from pathlib import Path

import pytest

from seamcut.readers.pdf.words import Word, pdfium_words, words_text

from tests.helpers.data import DATA, filing_page


def _page_text(path: Path, index: int) -> str:
    import pypdfium2 as pdfium

    doc = pdfium.PdfDocument(str(path))
    try:
        page = doc[index]
        return words_text(pdfium_words(page, page.get_textpage(), mcid=True))
    finally:
        doc.close()


def test_words_text_puts_no_space_before_a_glued_word() -> None:
    words = [Word("of", 0, 0, 8, 9, size=9), Word("$", 10, 0, 15, 9, size=9),
             Word("7.5", 15, 0, 27, 9, size=9, glued=True), Word("billion", 30, 0, 50, 9, size=9)]
    assert words_text(words) == "of $7.5 billion"
    assert words_text(words[2:]) == "7.5 billion"  # a glued word first has nothing to glue to


@pytest.mark.parametrize("page, want, not_want", [
    (("2023 Q3 MSFT", 21), "not yet commenced of $7.5 billion", "$ 7.5"),
    (("2022 Q3 AAPL", 1), "as of July 15, 2022.", "2022 ."),
    ((DATA / "pdfs" / "docling" / "redp5110_sampled.pdf", 4), "Center 1", "Center1"),
])
def test_words_cut_by_style_read_as_the_page_shows_them(page: tuple[str | Path, int], want: str,
                                                          not_want: str) -> None:
    text = _page_text(*(filing_page(*page) if isinstance(page[0], str) else page))
    assert want in text
    assert not_want not in text


def test_a_table_keeps_its_dollar_column_apart() -> None:
    # the "$" of a financial table's cell stands well left of its figure: two words, a space between
    text = _page_text(*filing_page("2023 Q3 MSFT", 21))
    assert "$ 15,435" in text and "$15,435" not in text


def _drawn(tmp_path: Path, runs: list[tuple[float, float, str]], font: bytes) -> tuple[str, str]:
    """(seamcut's text, pdfium's own) of a page drawing each ``(x, y, text)`` as a text object
    of its own, at 12 pt in the standard ``font``."""
    import pypdfium2 as pdfium

    from tests.helpers.badfiles import one_page

    content = b" ".join(b"BT /F1 12 Tf %.2f %.2f Td (%s) Tj ET" % (x, y, t.encode()) for x, y, t in runs)
    path = tmp_path / "drawn.pdf"
    path.write_bytes(one_page(content, font=b"<< /Type /Font /Subtype /Type1 /BaseFont /%s >>" % font))
    doc = pdfium.PdfDocument(str(path))
    try:
        page = doc[0]
        textpage = page.get_textpage()
        chars: list[dict] = []
        text = words_text(pdfium_words(page, textpage, chars))
        assert "".join(c["text"] for c in chars).replace(" ", "") == text.replace(" ", "")
        return text, textpage.get_text_range()
    finally:
        doc.close()


def test_a_kerned_double_letter_pdfium_took_for_an_overprint_is_read(tmp_path: Path) -> None:
    # two "f"s as two objects 2.5 pt apart (an italic f is wider than its advance): pdfium keeps one
    text, pdfium_text = _drawn(tmp_path, [(72, 700, "E"), (80, 700, "f"), (82.5, 700, "f"),
                                          (85, 700, "ect of the rate")], b"Times-Italic")
    assert pdfium_text == "Ef ect of the rate"
    assert text == "Effect of the rate"


def test_an_overprint_for_fake_bold_is_read_once(tmp_path: Path) -> None:
    runs = [(72, 700, "Bold"), (72.3, 700, "Bold"), (100, 700, "type"), (72, 680, "f"), (72.2, 680, "f"),
            (76, 680, "or"), (72, 660, "x"), (95, 660, "x")]  # the last "x" a word of its own, far off
    text, pdfium_text = _drawn(tmp_path, runs, b"Helvetica")
    assert pdfium_text == "Bold type\r\nfor\r\nx x"
    assert text == "Bold type for x x"


def test_amazons_italic_ff_is_read_as_the_page_shows_it() -> None:
    text = _page_text(*filing_page("2023 Q3 AMZN", 29))
    assert "Effect of Foreign Exchange Rates" in text
    assert "Ef ect" not in text
