"""The ruling lines of a PDF page, from pypdfium2's path objects, in the shape pdfplumber's table
finder reads (``page.edges``). Units: points, ``top`` from the top of the displayed page."""
from __future__ import annotations

import ctypes
from typing import Any

from .words import display_map

#: an affine matrix (a, b, c, d, e, f) as PDF writes it
_Matrix = tuple[float, float, float, float, float, float]
_IDENTITY: _Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def pdfium_edges(page) -> list[dict[str, Any]]:
    """The horizontal and vertical edges of a pypdfium2 page's paths, as pdfplumber's
    ``page.edges`` has them: every axis-parallel straight segment of a painted path (rectangles
    give their four sides), forms followed."""
    import pypdfium2.raw as raw

    to_display, _ = display_map(page)
    edges: list[dict[str, Any]] = []
    x, y = ctypes.c_float(), ctypes.c_float()
    m = raw.FS_MATRIX()

    def add(p0: tuple[float, float], p1: tuple[float, float]) -> None:
        edge = _edge(to_display(*p0), to_display(*p1))
        if edge is not None:
            edges.append(edge)

    def walk(obj, ctm: _Matrix) -> None:
        kind = raw.FPDFPageObj_GetType(obj)
        if kind not in (raw.FPDF_PAGEOBJ_FORM, raw.FPDF_PAGEOBJ_PATH):
            return
        raw.FPDFPageObj_GetMatrix(obj, m)
        inner = _then((m.a, m.b, m.c, m.d, m.e, m.f), ctm)
        if kind == raw.FPDF_PAGEOBJ_FORM:
            for k in range(raw.FPDFFormObj_CountObjects(obj)):
                walk(raw.FPDFFormObj_GetObject(obj, k), inner)
            return
        a, b, c, d, e, f = inner
        start = prev = None
        for k in range(raw.FPDFPath_CountSegments(obj)):
            seg = raw.FPDFPath_GetPathSegment(obj, k)
            raw.FPDFPathSegment_GetPoint(seg, x, y)
            pt = (a * x.value + c * y.value + e, b * x.value + d * y.value + f)
            t = raw.FPDFPathSegment_GetType(seg)
            if t == raw.FPDF_SEGMENT_MOVETO:
                start = prev = pt
                continue
            if t == raw.FPDF_SEGMENT_LINETO and prev is not None:
                add(prev, pt)
            prev = pt
            if raw.FPDFPathSegment_GetClose(seg) and start is not None:
                add(pt, start)
                prev = start

    for k in range(raw.FPDFPage_CountObjects(page.raw)):
        walk(raw.FPDFPage_GetObject(page.raw, k), _IDENTITY)
    return edges


def _then(a: _Matrix, b: _Matrix) -> _Matrix:
    """The matrix of ``a`` followed by ``b``."""
    return (a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
            a[2] * b[1] + a[3] * b[3], a[4] * b[0] + a[5] * b[2] + b[4],
            a[4] * b[1] + a[5] * b[3] + b[5])


def _edge(p0: tuple[float, float], p1: tuple[float, float]) -> dict[str, Any] | None:
    """The edge from display point ``p0`` to ``p1``; None where it is neither horizontal nor
    vertical (or a point)."""
    (x0, y0), (x1, y1) = p0, p1
    y0, y1 = -y0, -y1  # display "top" grows downwards
    if abs(y0 - y1) < 0.01 and abs(x0 - x1) >= 0.01:
        o = "h"
    elif abs(x0 - x1) < 0.01 and abs(y0 - y1) >= 0.01:
        o = "v"
    else:
        return None
    top, bottom = -max(y0, y1), -min(y0, y1)
    return {"x0": min(x0, x1), "x1": max(x0, x1), "top": top, "bottom": bottom,
            "width": abs(x1 - x0), "height": bottom - top, "orientation": o, "object_type": "line"}
