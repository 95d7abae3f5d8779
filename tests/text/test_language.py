"""Language detection on what readers really produce."""
from seamcut.text.language import detect


def test_lone_surrogates_do_not_stop_detection():
    # pdfium hands out private-use characters as unpaired UTF-16 halves (docling's normal_4pages.pdf)
    text = "\udb82\udc54 이슈와 논점 \udb82\udc55 은 국회의원의 입법활동을 지원하기 위해 최신 정보를 제공합니다\n"
    assert detect(text) == "ko"


def test_a_text_too_short_to_tell_is_undetermined_never_a_guess(tmp_path):
    """A one-line page ("I Am A Footer", scored 0.18 English) and a dose line (0.40 Italian) are
    ``und``, the document and every element; a paragraph of English is still ``en``."""
    import seamcut
    from seamcut.text.language import UNDETERMINED

    for name, text in (("footer.txt", "I Am A Footer xx\n"), ("dose.txt", "Apply 2 ml per litre of water\n")):
        path = tmp_path / name
        path.write_text(text, encoding="utf-8")
        doc = seamcut.read(path)
        assert doc.language == UNDETERMINED == "und", (name, doc.language)
        assert {e.language for e in doc.elements} == {"und"}, name
    path = tmp_path / "long.txt"
    path.write_text("Whitefly control in cotton fields: spray neem oil at five ml per litre of water "
                    "in the evening, and repeat after ten days if the pest is still seen.\n", encoding="utf-8")
    assert seamcut.read(path).language == "en"


def test_a_long_text_of_short_elements_is_labelled_as_a_whole():
    """Table rows are never labelled on their own; their document's whole text is long enough to
    be, at the document's lower bar, and the rows take its label."""
    from seamcut.model import Document, Element
    from seamcut.text.language import label

    lines = ["Sowing date", "Seed rate per acre", "Spacing between rows", "Fertiliser dose",
             "Irrigation schedule", "Weeding after sowing", "Pest watch weekly", "Harvest and storage"]
    text, elements, at = "", [], 0
    for line in lines:
        elements.append(Element("table", at, at + len(line)))
        text += line + "\n"
        at = len(text)
    doc = label(Document(text=text, source="lines.txt", elements=tuple(elements)))
    assert doc.language == "en" and all(e.language == "en" for e in doc.elements)
