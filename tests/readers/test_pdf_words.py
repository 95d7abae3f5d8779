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


@pytest.mark.parametrize("name, index, want, not_want", [
    ("docugami-10q/docs/2023 Q3 MSFT.pdf", 21, "not yet commenced of $7.5 billion", "$ 7.5"),
    ("docugami-10q/docs/2022 Q3 AAPL.pdf", 1, "as of July 15, 2022.", "2022 ."),
    ("pdfs/docling/redp5110_sampled.pdf", 4, "Center 1", "Center1"),
])
def test_words_cut_by_style_read_as_the_page_shows_them(data_dir: Path, name: str, index: int, want: str,
                                                          not_want: str) -> None:
    text = _page_text(data_dir / name, index)
    assert want in text
    assert not_want not in text


def test_a_table_keeps_its_dollar_column_apart(data_dir: Path) -> None:
    # the "$" of a financial table's cell stands well left of its figure: two words, a space between
    text = _page_text(data_dir / "docugami-10q/docs/2023 Q3 MSFT.pdf", 21)
    assert "$ 15,435" in text and "$15,435" not in text
