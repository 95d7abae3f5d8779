"""Running headers and footers as the PDF's producer marks them: text inside a pagination artifact
(``/Artifact <</Type /Pagination /Subtype /Footer>> BDC ... EMC``, as Word and LibreOffice write
it) is furniture on a one-page document too, whatever its size or position (issue 38 point 5)."""
from __future__ import annotations

from pathlib import Path

import pytest

from seamcut.readers.pdf import read_pdf
from tests.helpers.badfiles import HELVETICA, pdf_file, stream

#: five 11 pt body lines, y 700 down to 620 (A4-ish letter page, 792 pt tall)
BODY = b"".join(b"BT /F1 11 Tf 72 %d Td (Paragraph %d: whitefly eggs hatch in about a week.) Tj ET\n"
                % (700 - 20 * i, i) for i in range(5))
PAGINATION = b"<</Type /Pagination /Subtype /%s>>"


def _line(text: bytes, y: int, size: int) -> bytes:
    return b"BT /F1 %d Tf 72 %d Td (%s) Tj ET" % (size, y, text)


def _marked(content: bytes, props: bytes | None) -> bytes:
    """``content`` inside ``/Artifact props BDC ... EMC``; as it is where ``props`` is None."""
    return content if props is None else b"/Artifact %s BDC %s EMC" % (props, content)


def _page(tmp_path: Path, header: bytes | None, footer: bytes | None, body: bytes = BODY,
          resources: bytes = b"<< /Font << /F1 4 0 R >> >>", tagged: bool = True) -> Path:
    """One page: an 18 pt header at the top (larger than the body: a title by its size) and an
    11 pt footer at y 120, 500 pt below the body, outside the bottom band (not furniture by
    position), each marked with ``header``/``footer`` (artifact properties; None: unmarked). The
    catalog says the document is tagged (``/MarkInfo``): artifacts are looked for in tagged PDFs
    only."""
    content = b"\n".join([_marked(_line(b"Cotton Growers Handbook", 750, 18), header), body,
                          _marked(_line(b"I Am A Footer", 120, 11), footer)])
    p = tmp_path / "one.pdf"
    mark = b"/MarkInfo << /Marked true >>" if tagged else b""
    p.write_bytes(pdf_file([b"<< /Type /Catalog /Pages 2 0 R %s >>" % mark,
                            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources %s "
                            b"/Contents 5 0 R >>" % resources, HELVETICA, stream(content)]))
    return p


def _furniture(doc) -> list[tuple[str, str]]:
    return [(f["kind"], f["text"]) for f in doc.metadata.get("furniture", [])]


def test_header_and_footer_in_pagination_artifacts_are_furniture(tmp_path):
    doc = read_pdf(_page(tmp_path, PAGINATION % b"Header", PAGINATION % b"Footer"))
    assert "Cotton Growers Handbook" not in doc.text and "I Am A Footer" not in doc.text
    assert _furniture(doc) == [("page_header", "Cotton Growers Handbook"), ("page_footer", "I Am A Footer")]
    assert "Paragraph 4: whitefly eggs hatch" in doc.text


def test_unmarked_they_are_read_as_today(tmp_path):
    doc = read_pdf(_page(tmp_path, None, None))
    assert "Cotton Growers Handbook" in doc.text and "I Am A Footer" in doc.text
    assert _furniture(doc) == []


@pytest.mark.parametrize("props", [b"<</Attached [/Bottom] /Type /Pagination>>",  # Word's keys
                                   b"/Props1"])  # a named property list in the page's resources
def test_other_ways_of_writing_a_pagination_artifact(tmp_path, props):
    res = b"<< /Font << /F1 4 0 R >> /Properties << /Props1 << /Type /Pagination /Subtype /Footer >> >> >>"
    doc = read_pdf(_page(tmp_path, None, props, resources=res))
    assert ("page_footer", "I Am A Footer") in _furniture(doc) and "I Am A Footer" not in doc.text


@pytest.mark.parametrize("props", [b"<</Type /Layout>>", b"<<>>"])
def test_an_artifact_not_known_as_pagination_is_left_to_the_layout(tmp_path, props):
    """pdfium gives a mark's keys, not a name's value: ``/Type /Layout`` cannot be told from
    ``/Type /Pagination`` without a Subtype or Attached key, so such text is read as before."""
    doc = read_pdf(_page(tmp_path, None, props))
    assert "I Am A Footer" in doc.text


def test_body_text_beside_a_marked_footer_stays_text(tmp_path):
    """Only the words inside the artifact are furniture: a body line drawn in the same place
    outside it is not, nor is a block only part of which is marked."""
    body = BODY + b"\n" + _line(b"Spray neem oil in the evening.", 100, 11)
    doc = read_pdf(_page(tmp_path, None, PAGINATION % b"Footer", body=body))
    assert "Spray neem oil in the evening." in doc.text
    assert "Paragraph 0: whitefly eggs hatch" in doc.text


def test_an_untagged_pdf_is_not_searched_for_artifacts(tmp_path):
    """Artifacts belong to tagged PDFs: in a file whose catalog does not say it is tagged, the
    marks are not read (one call less per text object) and the layout decides."""
    assert "I Am A Footer" in read_pdf(_page(tmp_path, None, PAGINATION % b"Footer", tagged=False)).text
