"""Ruled tables on real filings (seamcut.readers.pdf.tables): a word that a column rule crosses is
read whole, in one cell; a row label whose unruled cell runs over the next row is split between
the two.

Nvidia's 10-Qs set "(In millions)" letter-spaced across three columns' cells of a header row, and
"(In millions, except per share data)" across a cell that spans two header rows; pdfplumber's
table finder cuts such a word where each letter stands: "(In m | illio | ns)". Microsoft's segment
tables leave the label column unruled under a total's double line.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers.data import filing_page
from tests.helpers.pdf_page import page_blocks


def _table_rows(path: Path, index: int) -> list[tuple[str, ...]]:
    """The rows of every ruled table on page ``index`` (0-based) of the PDF at ``path``."""
    return [tuple(r) for b in page_blocks(path, index) if b.rows for r in b.rows]


@pytest.fixture(scope="module")
def nvda_page_11() -> list[tuple[str, ...]]:
    return _table_rows(*filing_page("2022 Q3 NVDA", 10))


def test_a_letter_spaced_header_across_three_cells_is_one_cell(nvda_page_11) -> None:
    cells = [c for r in nvda_page_11 for c in r]
    assert "(In millions)" in cells
    assert not any(c in ("(In m", "illio", "ns)") for c in cells)
    # the row under the dates: the header in the first of the three cells, the others blank
    row = next(r for r in nvda_page_11 if "(In millions)" in r)
    assert [c for c in row if c] == ["(In millions)"]
    assert next(r for r in nvda_page_11 if r[0] == "Cost of revenue")[1:] == (
        "$", "32", "$", "44", "$", "108", "$", "102")


def test_a_word_across_a_cell_spanning_two_rows_is_read_whole(nvda_page_11) -> None:
    cells = [c for r in nvda_page_11 for c in r]
    assert "(In millions, except" in cells
    assert "ept" not in cells and "(In millions, exc" not in cells


def test_a_total_and_the_heading_under_it_are_two_rows() -> None:
    # Microsoft rules off a total's figures with a double line but leaves the label column
    # unruled: "Total" and the next section's heading "Operating Income" stood in one cell
    rows = _table_rows(*filing_page("2023 Q3 MSFT", 26))
    labels = [r[0] for r in rows]
    assert "Total Operating Income" not in labels and "Total\nOperating Income" not in labels
    total = labels.index("Total")
    assert "56,517" in rows[total] and "50,122" in rows[total]
    assert labels[total + 1] == "Operating Income" and not any(rows[total + 1][1:])


def test_figure_columns_ruled_apart_from_their_labels_read_as_one_table() -> None:
    # Intel rules each figure column of its statements on its own and leaves the labels unruled:
    # the four narrow "tables" are left to the layout, which finds the statement as one table
    rows = _table_rows(*filing_page("2022 Q3 INTC", 4))
    by_label = {r[0]: " ".join(r[1:]) for r in rows}
    assert "15,338" in by_label["Net revenue"] and "58,496" in by_label["Net revenue"]
    assert "(175)" in by_label["Operating income (loss)"]
    assert not any(r[0] in ("$", "15,338 8,803") for r in rows)


def test_a_ruled_table_of_figures_with_no_labels_beside_it_stays() -> None:
    # the same test keeps a small ruled table whose labels are inside its rules
    rows = _table_rows(*filing_page("2023 Q3 MSFT", 26))
    assert any(r[0] == "United States (a)" and "28,812" in r for r in rows)
