"""A collection of bad files, made by code: every kind a reader must turn into text or a clear error.

Each ``kind_*`` function writes its files into a folder and returns their paths. Nothing large is
committed: bombs are a few KiB to a few MiB on disk and inflate to ``scale`` times their base size
when read (``scale=1``: small-but-real, for the test suite; the benchmark passes a larger one).
``make_all(folder, scale)`` writes every kind and returns ``{kind: [paths]}``.

The 92 damaged PDFs of qpdf's test suite (``tests/data/badpdf``) are one kind among them,
copied in as they are.
"""
from __future__ import annotations

import io
import shutil
import struct
import zipfile
import zlib
from pathlib import Path
from typing import Callable

from .data import DATA

BADPDF = DATA / "badpdf"
MiB = 2**20

# -- PDF building ---------------------------------------------------------------------------


def huge_text(path: Path, megabytes: int = 200) -> Path:
    """``megabytes`` MB of plain text at ``path``, in paragraphs of 52 kB: its text alone is over
    a 500 MiB memory cap once read and cut. (The reader labels each paragraph's language, about
    0.3 ms each: 1 kB paragraphs took most of a minute to read before the cutting passed the cap;
    these take seconds.)"""
    paragraph = ("A line of a very long log, written again and again. " * 1000 + "\n\n").encode()
    with open(path, "wb") as fh:
        for _ in range(megabytes * 2**20 // len(paragraph)):
            fh.write(paragraph)
    return path


def pdf_file(objects: list[bytes], trailer: bytes = b"") -> bytes:
    """A PDF with ``objects`` as objects 1, 2, ... (1: the catalog) and a correct xref table."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for n, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n%s\nendobj\n" % (n, body)
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % o for o in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R %s>>\nstartxref\n%d\n%%%%EOF\n" % (
        len(objects) + 1, trailer, xref)
    return bytes(out)


def stream(data: bytes, extra: bytes = b"") -> bytes:
    """A stream object holding ``data`` as it is (``extra``: more dictionary entries)."""
    return b"<< /Length %d %s>>\nstream\n%s\nendstream" % (len(data), extra, data)


HELVETICA = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
TEXT = b"BT /F1 12 Tf 72 700 Td (A readable line of text on a page.) Tj ET"


def one_page(content: bytes = TEXT, font: bytes = HELVETICA, media: bytes = b"[0 0 612 792]",
             resources: bytes = b"<< /Font << /F1 4 0 R >> >>", extra: tuple[bytes, ...] = ()) -> bytes:
    """A one-page PDF: catalog 1, pages 2, page 3, font 4, contents 5, then ``extra`` (6, ...)."""
    return pdf_file([b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                     b"<< /Type /Page /Parent 2 0 R /MediaBox %s /Resources %s /Contents 5 0 R >>"
                     % (media, resources), font, content if content.startswith(b"<<") else stream(content),
                     *extra])


def many_pages(n: int, text: bool = False) -> bytes:
    """A PDF of ``n`` pages: empty (sharing one empty content stream) or each with its own line
    of text."""
    first = 4 if not text else 3
    kids = b" ".join(b"%d 0 R" % (first + k * (2 if text else 1)) for k in range(n))
    objs = [b"<< /Type /Catalog /Pages 2 0 R >>", b"<< /Type /Pages /Kids [%s] /Count %d >>" % (kids, n)]
    page = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R "
            b">> >> /Contents %d 0 R >>")
    if not text:
        objs.append(stream(b""))
        objs += [page % (3, 3)] * n  # no font is used: object 3 is the empty stream
    else:
        font = 3 + 2 * n
        for k in range(n):
            objs += [page % (font, first + 2 * k + 1),
                     stream(b"BT /F1 12 Tf 72 %d Td (%s) Tj ET" % (700 - k % 300, _sentence(k)))]
        objs.append(HELVETICA)
    return pdf_file(objs)


_WORDS = (b"river seed monsoon field harvest loan scheme water soil crop market price rain pest "
          b"tractor village grain storage").split()


def _sentence(k: int) -> bytes:
    """Words picked by ``k``'s digits: a line that differs from page to page."""
    picks = [_WORDS[(k // 18 ** j + j * 7) % len(_WORDS)] for j in range(8)]
    return b" ".join(picks).capitalize() + b"."


def deflate_rounds(size: int, unit: bytes, rounds: int) -> bytes:
    """``unit`` repeated to ``size`` bytes deflated ``rounds`` times, a round at a time through
    streaming compressors (each round's output, small, is held; the inflated bytes never are)."""
    comp = zlib.compressobj(9)
    block = unit * max(1, MiB // len(unit))
    parts, left = [], size
    while left > 0:
        piece = block[:left]
        parts.append(comp.compress(piece))
        left -= len(piece)
    parts.append(comp.flush())
    data = b"".join(parts)
    for _ in range(rounds - 1):
        data = zlib.compress(data, 9)
    return data


# -- small helpers --------------------------------------------------------------------------


def _write(folder: Path, name: str, data: bytes) -> Path:
    path = folder / name
    path.write_bytes(data)
    return path


def good_docx(paragraphs: int = 3) -> bytes:
    """A small, good Word document made by python-docx."""
    import docx

    d = docx.Document()
    d.add_heading("A heading", level=1)
    for k in range(paragraphs):
        d.add_paragraph(f"Paragraph {k + 1} of a good document, with some words in it.")
    out = io.BytesIO()
    d.save(out)
    return out.getvalue()


def docx_with(document_xml: bytes | None = None, *, big_part: tuple[str, int, bytes] | None = None) -> bytes:
    """A good .docx with ``word/document.xml`` replaced by ``document_xml``, or with one part
    replaced by ``big_part`` = (name, inflated size, repeated unit) streamed in (a zip bomb)."""
    src = zipfile.ZipFile(io.BytesIO(good_docx()))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for info in src.infolist():
            if info.filename == "word/document.xml" and document_xml is not None:
                z.writestr(info.filename, document_xml)
            elif big_part and info.filename == big_part[0]:
                name, size, unit = big_part
                head, tail = _DOC_HEAD + b"<w:p><w:r><w:t>", b"</w:t></w:r></w:p>" + _DOC_TAIL
                entry = zipfile.ZipInfo(name)
                entry.compress_type = zipfile.ZIP_DEFLATED
                with z.open(entry, "w", force_zip64=True) as fh:
                    fh.write(head)
                    block, left = unit * (MiB // len(unit)), size
                    while left > 0:
                        fh.write(block[:left])
                        left -= len(block)
                    fh.write(tail)
            else:
                z.writestr(info, src.read(info.filename))
    return out.getvalue()


_DOC_HEAD = (b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:document xmlns:w='
             b'"http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>')
_DOC_TAIL = b"</w:body></w:document>"


def png(width: int, height: int, idat: bytes, color_type: int = 0, depth: int = 8) -> bytes:
    """A PNG of the given header and (already deflated) image data."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", idat) + chunk(b"IEND", b"")


# -- the kinds ------------------------------------------------------------------------------


def kind_badpdf(folder: Path, scale: int = 1) -> list[Path]:
    """qpdf's 92 damaged PDFs (broken xrefs, loops, bad streams and encryption), copied in."""
    out = []
    for src in sorted(BADPDF.glob("*.pdf")):
        out.append(Path(shutil.copy(src, folder / f"qpdf-{src.name}")))
    return out


def kind_truncated(folder: Path, scale: int = 1) -> list[Path]:
    """A good PDF and a good .docx cut short: at half, before the end marker, after the header."""
    pdf, word = many_pages(3, text=True), good_docx()
    return [_write(folder, "truncated-half.pdf", pdf[: len(pdf) // 2]),
            _write(folder, "truncated-no-eof.pdf", pdf[: pdf.rindex(b"%%EOF")]),
            _write(folder, "truncated-header-only.pdf", pdf[:16]),
            _write(folder, "truncated-xref-cut.pdf", pdf[: pdf.rindex(b"xref") + 20] + b"\n%%EOF\n"),
            _write(folder, "truncated-half.docx", word[: len(word) // 2]),
            _write(folder, "truncated-tail.docx", word[:-200])]


def kind_zero_bytes(folder: Path, scale: int = 1) -> list[Path]:
    """Empty files under every name seamcut reads."""
    return [_write(folder, f"empty{suffix}", b"")
            for suffix in (".pdf", ".docx", ".html", ".md", ".txt", ".png")]


def kind_wrong_extension(folder: Path, scale: int = 1) -> list[Path]:
    """Content under another format's name, both ways."""
    text = b"Plain words in a text file that someone named as another format.\n"
    html = b"<!doctype html><html><body><h1>Title</h1><p>A paragraph of a web page.</p></body></html>"
    pdf = one_page()
    return [_write(folder, "text-named.pdf", text), _write(folder, "pdf-named.txt", pdf),
            _write(folder, "docx-named.html", good_docx()), _write(folder, "pdf-named.docx", pdf),
            _write(folder, "html-named.md", html), _write(folder, "text-named.docx", text),
            _write(folder, "png-named.txt", png(2, 2, zlib.compress(b"\0\0\0\0\0\0"))),
            _write(folder, "zip-named.docx", _plain_zip())]


def _plain_zip() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("notes.txt", "not a Word document")
    return out.getvalue()


def kind_pdf_bomb(folder: Path, scale: int = 1) -> list[Path]:
    """PDF decompression bombs: a content stream of text operators deflated twice inflating to
    ``40 MiB * scale`` (1.16 million text objects a scale), a stream of zeros (never drawn)
    inflating to ``32 MiB * scale``, an image XObject whose pixels inflate to 400 MB, a stream
    deflated ten times."""
    ops = b"BT /F1 12 Tf 72 700 Td (bomb) Tj ET\n"
    content = deflate_rounds(40 * MiB * scale, ops, 2)
    zeros = deflate_rounds(32 * MiB * scale, b"\0", 2)
    side = 20_000
    pixels = deflate_rounds(side * side, b"\0", 2)
    image = (b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
             b"/BitsPerComponent 8 /Length %d /Filter [/FlateDecode /FlateDecode] >>\nstream\n%s\n"
             b"endstream" % (side, side, len(pixels), pixels))
    ten = zlib.compress(b"BT /F1 12 Tf 72 700 Td (ten rounds) Tj ET")
    for _ in range(9):
        ten = zlib.compress(ten)
    return [
        _write(folder, "bomb-content-ops.pdf", one_page(stream(content, b"/Filter [/FlateDecode /FlateDecode] "))),
        _write(folder, "bomb-unused-zeros.pdf", one_page(extra=(stream(zeros, b"/Filter [/FlateDecode "
                                                                             b"/FlateDecode] "),))),
        _write(folder, "bomb-image-pixels.pdf", one_page(
            b"q 612 0 0 792 0 0 cm /Im1 Do Q", resources=b"<< /XObject << /Im1 6 0 R >> >>",
            extra=(image,))),
        _write(folder, "bomb-ten-rounds.pdf", one_page(stream(ten, b"/Filter [%s] " % (b"/FlateDecode " * 10)))),
    ]


def kind_png_bomb(folder: Path, scale: int = 1) -> list[Path]:
    """PNG bombs: 14,000 x 14,000 gray pixels (196 MB) in about 200 KiB; a header claiming
    2^31 - 1 pixels a side; a PNG whose pixel data is cut short."""
    side = 14_000
    row = b"\0" + b"\xff" * side
    comp = zlib.compressobj(9)
    idat = b"".join(comp.compress(row) for _ in range(side)) + comp.flush()
    return [_write(folder, "bomb-14k.png", png(side, side, idat)),
            _write(folder, "bomb-huge-header.png", png(2**31 - 1, 2**31 - 1, zlib.compress(b"\0" * 64))),
            _write(folder, "png-cut.png", png(200, 200, zlib.compress(b"\0" * 201 * 200))[:300])]


def kind_docx_bomb(folder: Path, scale: int = 1) -> list[Path]:
    """Zip bombs as .docx: ``word/document.xml`` of one text run inflating to ``48 MiB * scale``
    (scale 32 is the issue's 1.5 GB), and a .docx whose entry header lies about its size."""
    bomb = docx_with(big_part=("word/document.xml", 48 * MiB * scale, b"a"))
    liar = bytearray(docx_with(big_part=("word/document.xml", 8 * MiB, b"b")))
    return [_write(folder, "bomb-document-xml.docx", bomb), _write(folder, "bomb-lying-size.docx",
                                                                   _lie_about_sizes(bytes(liar)))]


def _lie_about_sizes(data: bytes) -> bytes:
    """The zip with ``word/document.xml``'s declared uncompressed size set to 1 KiB in its
    central directory (the ratio check must not trust it)."""
    buf = bytearray(data)
    name = b"word/document.xml"
    pos = buf.find(b"PK\x01\x02")
    while pos != -1:
        n = struct.unpack_from("<H", buf, pos + 28)[0]
        if buf[pos + 46: pos + 46 + n] == name:
            if struct.unpack_from("<I", buf, pos + 24)[0] != 0xFFFFFFFF:
                struct.pack_into("<I", buf, pos + 24, 1024)
        pos = buf.find(b"PK\x01\x02", pos + 4)
    return bytes(buf)


def kind_docx_malformed(folder: Path, scale: int = 1) -> list[Path]:
    """Word documents whose XML is broken: not well-formed, nested 100,000 deep, an entity
    expansion bomb, a missing body, no document part at all, a part that is not XML."""
    deep = _DOC_HEAD + b"<w:p><w:r>" + b"<w:x>" * 100_000 + b"</w:x>" * 100_000 + b"</w:r></w:p>" + _DOC_TAIL
    laughs = (b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa">'
              + b"".join(b'<!ENTITY %s "%s">' % (bytes([98 + k]), (b"&%s;" % bytes([97 + k])) * 10)
                         for k in range(8))
              + b']><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main">'
                b"<w:body><w:p><w:r><w:t>&i;</w:t></w:r></w:p></w:body></w:document>")
    no_part = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(good_docx())) as src, zipfile.ZipFile(no_part, "w") as z:
        for info in src.infolist():
            if info.filename != "word/document.xml":
                z.writestr(info, src.read(info.filename))
    return [
        _write(folder, "docx-not-well-formed.docx", docx_with(_DOC_HEAD + b"<w:p><w:r><w:t>open")),
        _write(folder, "docx-deep-xml.docx", docx_with(deep)),
        _write(folder, "docx-entity-bomb.docx", docx_with(laughs)),
        _write(folder, "docx-no-body.docx", docx_with(b'<?xml version="1.0"?><w:document xmlns:w='
                                                      b'"http://schemas.openxmlformats.org/'
                                                      b'wordprocessingml/2006/main"/>')),
        _write(folder, "docx-binary-part.docx", docx_with(b"\x00\xff\xfe garbage")),
        _write(folder, "docx-wrong-namespace.docx", docx_with(b"<document><body><p>text</p></body></document>")),
        _write(folder, "docx-no-document-part.docx", no_part.getvalue()),
    ]


def kind_huge_pages(folder: Path, scale: int = 1) -> list[Path]:
    """Huge page counts and sizes: 20,000 empty pages (``2,000 * scale``, at most 20,000, with
    text), a page
    200 in x 200 in with text, the same page with only a drawn rectangle (OCR renders it), a
    MediaBox of 10^9 points, a MediaBox that is inverted or zero."""
    big = b"[0 0 14400 14400]"
    return [
        _write(folder, "pages-20000-empty.pdf", many_pages(20_000)),
        _write(folder, f"pages-{min(2000 * scale, 20_000)}-text.pdf", many_pages(min(2000 * scale, 20_000), text=True)),
        _write(folder, "page-200in-text.pdf", one_page(media=big)),
        _write(folder, "page-200in-drawing.pdf", one_page(b"0 0 1 rg 10 10 14000 14000 re f", media=big)),
        _write(folder, "page-1e9pt.pdf", one_page(media=b"[0 0 1000000000 1000000000]")),
        _write(folder, "page-inverted-box.pdf", one_page(media=b"[612 792 0 0]")),
        _write(folder, "page-zero-box.pdf", one_page(media=b"[0 0 0 0]")),
    ]


_BAD_CMAPS = {
    "surrogates": b"1 beginbfrange <00> <FF> <D800> endbfrange",
    "nul-and-controls": b"1 beginbfrange <00> <FF> <0000> endbfrange",
    "garbage": b"\x00\xff begincmap 7 beginbfchar <41> endbfchar <<<< ]]]] endcmap",
    "huge-range": b"1 beginbfrange <0000> <FFFF> <0041> endbfrange",
    "noncharacters": b"1 beginbfrange <00> <FF> <FFFE> endbfrange",
}


def kind_broken_fonts(folder: Path, scale: int = 1) -> list[Path]:
    """Fonts and ToUnicode CMaps that lie or are broken: mapping to surrogates, NUL, nothing,
    garbage; an embedded font program that is noise; a Type0 font with no descendant."""
    out = []
    for name, body in _BAD_CMAPS.items():
        cmap = (b"/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /B def "
                b"1 begincodespacerange <00> <FF> endcodespacerange %s endcmap CMapName currentdict "
                b"/CMap defineresource pop end end" % body)
        font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>"
        out.append(_write(folder, f"font-cmap-{name}.pdf", one_page(font=font, extra=(stream(cmap),))))
    noise = bytes((k * 7919) % 251 for k in range(20_000))
    embedded = (b"<< /Type /Font /Subtype /TrueType /BaseFont /Noise /FirstChar 32 /LastChar 126 "
                b"/FontDescriptor 6 0 R >>")
    out.append(_write(folder, "font-noise-program.pdf", one_page(font=embedded, extra=(
        b"<< /Type /FontDescriptor /FontName /Noise /Flags 32 /FontBBox [0 0 1000 1000] /ItalicAngle 0 "
        b"/Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 7 0 R >>", stream(noise)))))
    out.append(_write(folder, "font-type0-no-descendant.pdf", one_page(
        b"BT /F1 12 Tf 72 700 Td <00410042> Tj ET",
        font=b"<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H >>")))
    out.append(_write(folder, "font-missing.pdf", one_page(resources=b"<< >>")))
    return out


def kind_image_only(folder: Path, scale: int = 1) -> list[Path]:
    """PDFs with images and no text layer: a blank image, a broken JPEG, an image whose data is
    cut short; and a blank scan as PNG."""
    def image_page(data: bytes, extra: bytes, w: int = 100, h: int = 100) -> bytes:
        image = (b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
                 b"/BitsPerComponent 8 /Length %d %s>>\nstream\n%s\nendstream" % (w, h, len(data), extra, data))
        return one_page(b"q 500 0 0 500 50 150 cm /Im1 Do Q", resources=b"<< /XObject << /Im1 6 0 R >> >>",
                        extra=(image,))
    return [
        _write(folder, "image-only-blank.pdf", image_page(zlib.compress(b"\xff" * 10_000), b"/Filter /FlateDecode ")),
        _write(folder, "image-only-bad-jpeg.pdf", image_page(b"\xff\xd8\xff\xe0 not a jpeg", b"/Filter /DCTDecode ")),
        _write(folder, "image-only-short-data.pdf", image_page(b"\x80" * 10, b"")),
        _write(folder, "scan-blank.png", png(50, 50, zlib.compress((b"\0" + b"\xff" * 50) * 50))),
    ]


def kind_text_encodings(folder: Path, scale: int = 1) -> list[Path]:
    """Text that is not UTF-8 or holds NULs: Latin-1, UTF-16 without a BOM, NULs early and late,
    a lone surrogate in CESU form, a BOM and nothing else, invalid bytes in HTML and Markdown."""
    latin = "Café crème, déjà vu: naïve façade.\n".encode("latin-1")
    return [
        _write(folder, "latin1.txt", latin),
        _write(folder, "utf16-no-bom.txt", "Text in UTF-16 with no byte-order mark.\n".encode("utf-16-le")),
        _write(folder, "nul-early.txt", b"some\x00text\x00with\x00nuls\n" * 10),
        _write(folder, "nul-late.txt", b"a clean start of a text file.\n" * 400 + b"\x00" * 64 + b"end\n"),
        _write(folder, "surrogate.txt", b"a lone surrogate \xed\xa0\x80 in CESU-8\n"),
        _write(folder, "bom-only.txt", b"\xef\xbb\xbf"),
        _write(folder, "utf16-bom-odd.txt", b"\xff\xfeA\x00B\x00C"),
        _write(folder, "latin1.html", b"<html><body><p>" + latin + b"</p></body></html>"),
        _write(folder, "latin1.md", b"# Titre\n\n" + latin),
        _write(folder, "controls.txt", bytes(range(1, 32)) * 50 + b"\n"),
    ]


def kind_long_line(folder: Path, scale: int = 1) -> list[Path]:
    """One line of 50 MB of words as text, and of ``10 MB * scale`` (at most 50 MB) as Markdown
    and HTML; one 'word' of as many bytes with no space."""
    def words(size: int) -> bytes:
        return (b"lorem ipsum dolor sit amet " * (size // 27 + 1))[:size]
    size = min(10**7 * scale, 50 * 10**6)
    return [_write(folder, "long-line.txt", words(50 * 10**6)),
            _write(folder, "long-line.md", words(size)),
            _write(folder, "long-line.html", b"<html><body><p>" + words(size) + b"</p></body></html>"),
            _write(folder, "long-word.txt", b"x" * size)]


def kind_deep_html(folder: Path, scale: int = 1) -> list[Path]:
    """HTML nested 100,000 deep: ``div``s, inline ``span``s inside a paragraph, list items in
    lists, table cells in tables, never-closed ``b`` tags; 200,000 tags never closed by ``>``,
    200,000 ``<`` in text."""
    n = 100_000
    return [
        _write(folder, "deep-div.html", b"<html><body>" + b"<div>" * n + b"deep text" + b"</div>" * n + b"</body></html>"),
        _write(folder, "deep-span.html", b"<html><body><p>" + b"<span>" * n + b"deep text" + b"</span>" * n + b"</p></body></html>"),
        _write(folder, "deep-list.html", b"<html><body>" + b"<ul><li>item " * (n // 2) + b"</li></ul>" * (n // 2) + b"</body></html>"),
        _write(folder, "deep-table.html", b"<html><body>" + b"<table><tr><td>cell " * (n // 4) + b"</td></tr></table>" * (n // 4) + b"</body></html>"),
        _write(folder, "unclosed-b.html", b"<html><body><p>" + b"<b>bold " * n + b"</p></body></html>"),
        # tags never closed by ">" (a depth count scanning to the next ">" was quadratic), and
        # "<" in text
        _write(folder, "open-tags.html", b"<html><body>" + b"<a x" * (2 * n) + b" text"),
        _write(folder, "less-than-signs.html", b"<html><body><p>" + b"a < b " * (2 * n) + b"</p></body></html>"),
    ]


def kind_deep_markdown(folder: Path, scale: int = 1) -> list[Path]:
    """Markdown nested ``20,000 * scale`` deep (at most 100,000): block quotes, list items,
    emphasis, brackets, backticks; and a list indented 2,000 levels."""
    n = min(20_000 * scale, 100_000)
    return [
        _write(folder, "deep-quotes.md", b"> " * n + b"deep quote\n"),
        _write(folder, "deep-list.md", b"".join(b"  " * k + b"- item\n" for k in range(2000))),
        _write(folder, "deep-list-inline.md", b"- " * n + b"item\n"),
        _write(folder, "deep-emphasis.md", b"*" * n + b"text" + b"*" * n + b"\n"),
        _write(folder, "deep-brackets.md", b"[" * n + b"link" + b"](x)" * 10 + b"\n"),
        _write(folder, "many-backticks.md", b"`" * n + b"\n" + b"text " * 1000 + b"\n"),
    ]


KINDS: dict[str, Callable[[Path, int], list[Path]]] = {
    name[len("kind_"):].replace("_", "-"): fn for name, fn in sorted(globals().items())
    if name.startswith("kind_") and callable(fn)}


def make_all(folder: str | Path, scale: int = 1, kinds: list[str] | None = None) -> dict[str, list[Path]]:
    """Write every kind (or those named in ``kinds``) into ``folder``; returns the paths by kind."""
    root = Path(folder)
    root.mkdir(parents=True, exist_ok=True)
    return {kind: KINDS[kind](root, scale) for kind in (kinds or KINDS)}

