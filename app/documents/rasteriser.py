"""A PDF's pages as PNG pictures, and their text, through PDFium (pypdfium2): the one rasteriser of the
editor's preview, the template picker's pictures, the templates' thumbnails and the import's pages.

Each page is drawn ``supersample`` times the width asked for and scaled down to it (a small picture
keeps its text legible), then put in a palette of 256 colours without dithering: a page is paper, ink
and an accent with their anti-aliasing, so a palette keeps it near 50 KB at 800 pixels instead of
~220 KB in RGB. Two ways to choose the palette, measured on the eight templates (2026-12-06): median
cut (``exact``) keeps every colour (a mean difference of 0.01-0.10 of 255 from the page as drawn) in
55-280 ms at 800 pixels; the fast octree takes 20-60 ms but shifts a tinted page's colours (0.8-3.7 of
255: Meridian's sidebar). A picture that is drawn once and kept (a thumbnail, an imported page) is
exact; the editor's preview and the template picker, drawn while a person waits after each save, are
fast. PDFium may be used by one thread
of a process at a time: every call here holds ``PDFIUM_LOCK``, which a caller may also hold around a
render and a cache check (it is re-entrant).
"""
from __future__ import annotations

import io
import threading

PDFIUM_LOCK = threading.RLock()
COLOURS = 256


def pages_as_png(pdf: bytes, width: int, *, first: int = 0, count: int | None = 1, height: int | None = None,
                 supersample: int = 1, exact: bool = False) -> list[bytes]:
    """Pages ``first`` to ``first + count`` (``count`` None: to the last; past the last: as many as there
    are) as opaque PNGs ``width`` pixels wide and ``height`` high (None: the page's proportion), their
    palette chosen by median cut when ``exact``, else by the fast octree."""
    import pypdfium2  # on use: only the processes that draw pictures load PDFium
    from PIL import Image

    pictures = []
    with PDFIUM_LOCK:
        document = pypdfium2.PdfDocument(pdf)
        try:
            last = len(document) if count is None else min(len(document), first + count)
            for index in range(first, last):
                page = document[index]
                image = page.render(scale=width * supersample / page.get_width()).to_pil().convert("RGB")
                page.close()
                size = (width, height or round(image.height * width / image.width))
                if image.size != size:  # drawn larger, or PDFium's rounding of the height
                    image = image.resize(size, Image.Resampling.LANCZOS)
                method = Image.Quantize.MEDIANCUT if exact else Image.Quantize.FASTOCTREE
                image = image.quantize(colors=COLOURS, method=method, dither=Image.Dither.NONE)
                out = io.BytesIO()
                image.save(out, "PNG", compress_level=6)
                pictures.append(out.getvalue())
        finally:
            document.close()
    return pictures


def page_texts(pdf: bytes) -> list[str]:
    """Each page's text as PDFium reads it, in reading order (a few ms a page)."""
    import pypdfium2

    texts = []
    with PDFIUM_LOCK:
        document = pypdfium2.PdfDocument(pdf)
        try:
            for page in document:
                textpage = page.get_textpage()
                texts.append(textpage.get_text_bounded().replace("\r\n", "\n").strip())
                textpage.close()
                page.close()
        finally:
            document.close()
    return texts
