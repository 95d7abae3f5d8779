"""Language detection on what readers really produce."""
from seamcut.text.language import detect


def test_lone_surrogates_do_not_stop_detection():
    # pdfium hands out private-use characters as unpaired UTF-16 halves (docling's normal_4pages.pdf)
    text = "\udb82\udc54 이슈와 논점 \udb82\udc55 은 국회의원의 입법활동을 지원하기 위해 최신 정보를 제공합니다\n"
    assert detect(text) == "ko"
