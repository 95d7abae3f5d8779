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

from seamcut.errors import InputError

pytest.importorskip("pytesseract")
PIL = pytest.importorskip("PIL")
from PIL import Image  # noqa: E402

from seamcut.readers.ocr import OcrPage, ocr_pages, read_image  # noqa: E402

if shutil.which("tesseract") is None:
    pytest.skip("tesseract is not installed (scripts/setup.sh)", allow_module_level=True)

DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"
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


def levenshtein(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]


def cer(hypothesis: str, reference: str) -> float:
    ref = _norm(reference)
    return levenshtein(_norm(hypothesis), ref) / max(1, len(ref))


def test_levenshtein() -> None:
    assert levenshtein("kitten", "sitting") == 3
    assert cer("a  b\nc", "a b c") == 0.0


@pytest.fixture(scope="module")
def english_page() -> tuple[Image.Image, str]:
    if not OCR_PDF.is_file() or not OCR_TRUTH.is_file():
        pytest.skip(f"shared data missing: {OCR_PDF}")
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
    with pytest.raises(RuntimeError, match="not installed: run scripts/setup.sh"):
        ocr_pages([Image.new("RGB", (10, 10), "white")], languages=["zzz"], progress=False)


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
