"""Artifacts: what a PDF's producer marks as no part of the document's content. A running header
or footer is marked content ``/Artifact <</Type /Pagination /Subtype /Footer>> BDC ... EMC`` (Word
writes ``/Attached [/Bottom]`` too, LibreOffice the Type and Subtype); its text is furniture on
any page, whatever its size or position.

pdfium reads a mark's name and which keys its properties have, not the value of a key that is a
name (``FPDFPageObjMark_GetParamStringValue`` takes strings only), so ``/Type /Pagination`` cannot
be told from ``/Type /Layout``. The keys tell instead: ``Subtype`` is defined for pagination
artifacts only, ``Attached`` (the page edges the artifact hangs on) for pagination and full-page
background artifacts; a bare ``/Artifact`` or one with a Type alone is left to the layout.
"""
from __future__ import annotations

import ctypes

_NAME = "Artifact"
#: property keys that only a pagination (or full-page background) artifact has
_PAGINATION_KEYS = (b"Subtype", b"Attached")


class ArtifactReader:
    """Whether a pdfium page object is drawn inside a pagination artifact (``pagination``)."""

    def __init__(self) -> None:
        import pypdfium2.raw as raw

        self.raw = raw
        self.buf = (ctypes.c_ushort * 16)()
        self.got = ctypes.c_ulong()

    def pagination(self, obj) -> bool:
        """True where one of ``obj``'s marked-content marks is an ``/Artifact`` with a
        ``Subtype`` or ``Attached`` key."""
        raw = self.raw
        for j in range(max(0, raw.FPDFPageObj_CountMarks(obj))):
            mark = raw.FPDFPageObj_GetMark(obj, j)
            if mark and self._name(mark) == _NAME and any(
                    raw.FPDFPageObjMark_GetParamValueType(mark, k) != raw.FPDF_OBJECT_UNKNOWN
                    for k in _PAGINATION_KEYS):
                return True
        return False

    def _name(self, mark) -> str:
        """The mark's name (its tag: Artifact, Span, P, ...); "" where longer than the buffer."""
        if not self.raw.FPDFPageObjMark_GetName(mark, self.buf, ctypes.sizeof(self.buf),
                                                ctypes.byref(self.got)):
            return ""
        n = self.got.value  # bytes, the terminating NUL included
        if not 2 <= n <= ctypes.sizeof(self.buf):
            return ""
        return bytes(self.buf)[:n - 2].decode("utf-16-le", "replace")
