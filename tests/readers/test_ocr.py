"""OCR reader: Tesseract through pytesseract (tests skip where Tesseract is not installed).

CER (character error rate) is a plain Levenshtein distance on NFC text with whitespace collapsed,
divided by the reference length.
"""
from __future__ import annotations

import shutil
import subprocess
import unicodedata
from pathlib import Path

import pytest

from seamcut.errors import InputError, MissingError

from tests.helpers.data import DATA
from tests.helpers.levenshtein import levenshtein

pytest.importorskip("pytesseract")
PIL = pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

from seamcut.readers import ocr  # noqa: E402
from seamcut.readers.ocr import (LINE_HEIGHT, OcrPage, line_height, ocr_page, ocr_pages,  # noqa: E402
                                 page_language, read_image, reading_scale)

if shutil.which("tesseract") is None:
    pytest.skip("tesseract is not installed (scripts/setup.sh)", allow_module_level=True)

OCR_PDF = DATA / "pdfs" / "docling" / "ocr" / "ocr_test.pdf"
OCR_TRUTH = DATA / "pdfs" / "docling" / "ocr" / "groundtruth" / "ocr_test.nemotron_ocr.full_page.md"

HINDI = ("सोयाबीन की फसल के लिए सलाह\n\n"
         "सोयाबीन की बुवाई जून के आखिरी हफ्ते से जुलाई के पहले हफ्ते तक करें। बुवाई से पहले बीज "
         "का उपचार 3 ग्राम फफूंदनाशक प्रति किलो बीज की दर से करें। कतारों के बीच 45 सेंटीमीटर की "
         "दूरी रखें।\n\n"
         "तना मक्खी और गर्डल बीटल सोयाबीन के मुख्य कीट हैं। पत्तियों पर छेद दिखें तो कृषि विभाग से "
         "सलाह लें। छिड़काव शाम के समय करें और दस दिन बाद फिर से खेत देखें।\n")
MARATHI = ("संत्रा बागेसाठी सल्ला\n\n"
           "संत्र्याच्या झाडांना उन्हाळ्यात आठवड्यातून दोन वेळा पाणी द्या. फळगळ थांबवण्यासाठी "
           "झाडाखाली आच्छादन करा. सिट्रस सायला कीड दिसल्यास 2 मिली प्रति लिटर या प्रमाणात "
           "फवारणी करा.\n\n"
           "फवारणी संध्याकाळी करा आणि सात दिवसांनी पुन्हा बाग तपासा. अधिक माहितीसाठी कृषी "
           "सहाय्यकांशी संपर्क साधा.\n")


def _norm(text: str) -> str:
    return " ".join(unicodedata.normalize("NFC", text).split())


def cer(hypothesis: str, reference: str) -> float:
    ref = _norm(reference)
    return levenshtein(_norm(hypothesis), ref) / max(1, len(ref))


def test_levenshtein() -> None:
    assert levenshtein("kitten", "sitting") == 3
    assert cer("a  b\nc", "a b c") == 0.0


@pytest.fixture(scope="module")
def english_page() -> tuple[Image.Image, str]:
    if not OCR_PDF.is_file() or not OCR_TRUTH.is_file():
        pytest.skip(f"test data missing: {OCR_PDF}")
    pdfium = pytest.importorskip("pypdfium2")
    pdf = pdfium.PdfDocument(str(OCR_PDF))
    image = pdf[0].render(scale=300 / 72).to_pil()
    pdf.close()
    return image, OCR_TRUTH.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def devanagari_pages(tmp_path_factory) -> dict[str, Image.Image]:
    if shutil.which("pango-view") is None:
        pytest.skip("pango-view is not installed (pango1.0-tools)")
    out = tmp_path_factory.mktemp("deva")
    pages = {}
    for name, text in (("hi", HINDI), ("mr", MARATHI)):
        src, png = out / f"{name}.txt", out / f"{name}.png"
        src.write_text(text, encoding="utf-8")
        subprocess.run(["pango-view", "--font=Noto Sans Devanagari 14", "-q", "--width=600",
                        "--margin=40", "--dpi=200", "-o", str(png), str(src)], check=True)
        pages[name] = Image.open(png).convert("RGB")
    return pages


@pytest.mark.parametrize("turn", [0, 90, 180])
def test_english_scan_cer_and_rotation(english_page, turn: int) -> None:
    image, truth = english_page
    # PIL turns anticlockwise: the page must be turned back by ``turn`` degrees clockwise
    (page,) = ocr_pages([image.rotate(turn, expand=True)], progress=False)
    assert isinstance(page, OcrPage)
    assert page.rotation == turn
    assert page.languages == ["eng"]
    assert cer(page.text, truth) <= 0.05, page.text
    assert page.blocks and all(0 < conf <= 100 for _, conf in page.blocks)
    assert page.text == "\n\n".join(t for t, _ in page.blocks)


def test_hindi_and_marathi_detected(devanagari_pages) -> None:
    pages = ocr_pages([devanagari_pages["hi"], devanagari_pages["mr"]], progress=False)
    hi, mr = pages
    assert hi.languages[0] == "hin" and mr.languages[0] == "mar"
    assert cer(hi.text, HINDI) <= 0.05, hi.text
    assert cer(mr.text, MARATHI) <= 0.05, mr.text
    assert "सिट्रस" in mr.text  # the vowel sign ि in the right place
    assert all(conf > 50 for _, conf in hi.blocks + mr.blocks)


def test_languages_chosen_by_the_user(devanagari_pages) -> None:
    (page,) = ocr_pages([devanagari_pages["mr"].rotate(180)], languages=["mr"], progress=False)
    assert page.languages == ["mar"] and page.rotation == 180
    assert cer(page.text, MARATHI) <= 0.05


def test_blank_image_gives_empty_text() -> None:
    (page,) = ocr_pages([Image.new("RGB", (1200, 1600), "white")], progress=False)
    assert page.text == "" and page.blocks == [] and page.rotation in (0, 180)
    assert ocr_pages([], progress=False) == []


def test_missing_language_data_is_a_clear_error() -> None:
    with pytest.raises(MissingError) as caught:
        ocr_pages([Image.new("RGB", (10, 10), "white")], languages=["zzz", "chi_sim"], progress=False)
    assert str(caught.value).startswith("OCR needs Tesseract's language data zzz")
    assert caught.value.hint == ("apt-get install tesseract-ocr-zzz tesseract-ocr-chi-sim, or run scripts/setup.sh"
                                 if "chi_sim" in caught.value.what else
                                 "apt-get install tesseract-ocr-zzz, or run scripts/setup.sh")


def test_read_image_multipage_tiff(english_page, tmp_path: Path) -> None:
    image, truth = english_page
    tiff = tmp_path / "scan.tiff"
    small = image.convert("L")
    small.save(tiff, save_all=True, append_images=[small.rotate(180), Image.new("L", (800, 1000), 255)])
    doc = read_image(tiff)
    assert doc.metadata["format"] == "image" and doc.metadata["extractor"] == "ocr"
    assert doc.metadata["ocr_rotation"] == [0, 180, 0]
    assert len(doc.page_starts) == 3
    assert [el.page for el in doc.elements] == [1, 2]
    for el in doc.elements:
        assert el.kind == "paragraph" and el.metadata["extractor"] == "ocr"
        assert 0 < el.metadata["ocr_confidence"] <= 100
        assert cer(doc.text[el.start:el.end], truth) <= 0.05


def test_read_image_unreadable(tmp_path: Path) -> None:
    bad = tmp_path / "scan.png"
    bad.write_bytes(b"\x89PNG not really")
    with pytest.raises(InputError, match="scan.png"):
        read_image(bad)
    with pytest.raises(InputError, match="no such file"):
        read_image(tmp_path / "missing.jpg")


# ------------------------------------------------------------------------- the reading scale


def _lines(height: int, gap: int, count: int = 12, width: int = 900) -> Image.Image:
    """A page of ``count`` black bars ``height`` pixels high, ``gap`` pixels apart (text lines
    as the projection sees them), each bar broken into words."""
    from PIL import ImageDraw

    page = Image.new("L", (width, 80 + count * (height + gap)), 255)
    draw = ImageDraw.Draw(page)
    for i in range(count):
        top = 40 + i * (height + gap)
        for x in range(60, width - 100, 90):
            draw.rectangle([x, top, x + 70, top + height - 1], fill=0)
    return page


@pytest.mark.parametrize("height, gap", [(12, 8), (35, 20), (50, 6)])
def test_line_height_is_the_height_of_the_lines_not_of_the_gaps(height: int, gap: int) -> None:
    page = _lines(height, gap)
    assert line_height(page) == height
    # turned a quarter, the lines are measured across; along, they are one block
    assert line_height(page.rotate(90, expand=True), across=True) == height
    assert line_height(page.rotate(90, expand=True)) != height


def test_line_height_ignores_speckle_and_a_blank_page_has_none() -> None:
    import numpy as np

    page = np.asarray(_lines(30, 15)).copy()
    rng = np.random.default_rng(36)
    page[rng.random(page.shape) < 0.004] = 0  # scanner dust: 0.4% of the pixels
    assert line_height(Image.fromarray(page)) == 30
    assert line_height(Image.new("L", (800, 600), 255)) is None
    assert line_height(Image.new("RGB", (800, 600), "white")) is None


def test_line_height_of_a_real_page_follows_its_resolution(english_page) -> None:
    image, _ = english_page  # rendered at 300 dpi
    full = line_height(image)
    half = line_height(image.resize((image.width // 2, image.height // 2)))
    assert full is not None and half is not None
    assert 40 < full < 110  # the page's text is about 20 pt: 83 pixels a line at 300 dpi
    assert half == pytest.approx(full / 2, rel=0.15)


def test_reading_scale_brings_lines_to_the_target_and_never_enlarges() -> None:
    assert reading_scale(4 * LINE_HEIGHT) == pytest.approx(0.25)
    assert reading_scale(LINE_HEIGHT / 2) == 1.0
    assert reading_scale(None) == 1.0


def test_boxes_are_in_pixels_of_the_image_given_though_it_is_read_smaller(english_page) -> None:
    image, _ = english_page
    page = ocr_page(image)
    assert reading_scale(line_height(image)) < 0.5  # read at under half the size given
    boxes = [b for para in page.line_boxes for b in para]
    assert boxes
    for x0, top, x1, bottom in boxes:
        assert 0 <= x0 < x1 <= image.width and 0 <= top < bottom <= image.height
    # a line's box is about as high as the lines measured on the image given
    tallest = max(b[3] - b[1] for b in boxes)
    assert 0.6 * line_height(image) < tallest < 1.6 * line_height(image)


# ------------------------------------------------------------------------- languages in one read


def test_a_devanagari_page_is_read_once_and_labelled_by_its_language(devanagari_pages, monkeypatch) -> None:
    import pytesseract

    reads = []
    real = pytesseract.image_to_data

    def counted(*args, **kwargs):
        reads.append(kwargs.get("lang"))
        return real(*args, **kwargs)

    monkeypatch.setattr(pytesseract, "image_to_data", counted)
    hi = ocr_page(devanagari_pages["hi"])
    mr = ocr_page(devanagari_pages["mr"])
    assert reads == ["mar+hin+eng", "mar+hin+eng"]  # one read a page, both languages in it
    assert hi.languages == ["hin", "mar", "eng"] and mr.languages == ["mar", "hin", "eng"]
    assert cer(hi.text, HINDI) <= 0.05 and cer(mr.text, MARATHI) <= 0.05


def test_page_language_is_the_language_of_most_lines_not_of_the_title() -> None:
    marathi = (Path(__file__).resolve().parents[2] / "examples" / "helpline-src"
               / "orange-notice-mr-scan.truth.txt").read_text(encoding="utf-8")
    assert page_language(marathi) == "mr"  # its title alone is as likely Hindi (0.46) as Marathi (0.50)
    assert page_language(HINDI) == "hi" and page_language(MARATHI) == "mr"
    # an English title over a Hindi or Marathi page: the page is in the language of its body
    assert page_language("Soybean advisory for the kharif season, week 12 (MADE UP)\n" + HINDI) == "hi"
    assert page_language("Orange orchard advisory for the summer, week 12 (MADE UP)\n" + MARATHI) == "mr"
    assert page_language("12 / 3") is None


def test_an_unknown_script_is_read_again_in_the_language_found(monkeypatch) -> None:
    """Where OSD cannot name the script, the page is read in English and Hindi first; a page
    found to be Marathi is read again in the Devanagari languages."""
    reads = []
    monkeypatch.setattr(ocr, "_osd", lambda image: None)
    monkeypatch.setattr(ocr, "_read", lambda image, codes: reads.append(codes) or [
        ocr._Paragraph(MARATHI, 90.0, [(0.0, 0.0, 10.0, 10.0)] * MARATHI.count("\n"))])
    page = ocr_page(Image.new("L", (400, 300), 255))
    assert reads == [["eng", "hin"], ["eng", "hin"], ["mar", "hin", "eng"]]  # 0 and 180 degrees, then Marathi
    assert page.languages == ["mar", "hin", "eng"]
