"""The PDF's fallback fonts, cut per document from the installed font packages (app/documents/fonts/cuts.py):
no build step, a cut kept by its characters, regional CJK forms, and a process that does not keep every
document's faces."""
import os
import subprocess
import sys
from pathlib import Path

import pytest
from fontTools.ttLib import TTFont

from app.documents import pdf
from app.documents.fonts import cuts, faces, scripts
from tests.documents import layout

pytestmark = pytest.mark.documents  # no database or queue: CI runs these in one pass (.ci/run)


@pytest.fixture
def font_dir(tmp_path, monkeypatch):
    directory = tmp_path / "fonts"
    monkeypatch.setenv("PDF_FONT_DIR", str(directory))
    return directory


def test_a_cut_holds_the_documents_characters_and_is_kept_by_them(font_dir):
    face = cuts.face(cuts.SANS, bold=False)
    first = cuts.cut(face, frozenset(map(ord, "Łódź")))
    assert first.parent == font_dir.resolve() and first.is_file()
    font = TTFont(str(first))
    assert {ord(c) for c in "Łódź"} <= set(font.getBestCmap())
    assert "glyf" in font and "fvar" not in font  # static TrueType: what ReportLab embeds
    assert cuts.cut(face, frozenset(map(ord, "Łódź"))) == first  # read again, not cut again
    assert cuts.cut(face, frozenset(map(ord, "Łódźń"))) != first


def test_each_cjk_region_draws_its_own_forms(font_dir):
    """直 and 骨 differ between Simplified and Traditional Chinese: the SC cut maps them to other glyphs."""
    codes = frozenset(map(ord, "直骨"))
    outlines = {}
    for region in ("SC", "TC", "JP"):
        font = TTFont(str(cuts.cut(cuts.face(cuts.CJK[region], bold=False), codes)))
        glyphs = font.getGlyphSet()
        outlines[region] = tuple(_outline(glyphs, font.getBestCmap()[code]) for code in sorted(codes))
    assert outlines["SC"] != outlines["TC"]


def _outline(glyphs, name):
    from fontTools.pens.recordingPen import RecordingPen
    pen = RecordingPen()
    glyphs[name].draw(pen)
    return repr(pen.value)


@pytest.mark.parametrize(("text", "language", "region"), [
    ("软件工程师，负责设计", None, "SC"), ("軟體工程師，負責設計", None, "TC"), ("ソフトウェア開発", None, "JP"),
    ("소프트웨어 개발", None, "KR"), ("工程师", "zh-Hant-TW", "TC"), ("工程", "ja", "JP"), ("工程", "zh-HK", "HK"),
])
def test_the_region_comes_from_the_language_then_the_text(text, language, region):
    assert faces.cjk_region(set(text), language) == region


def test_a_document_in_every_script_prints_on_a_fresh_disk_and_leaves_no_faces_behind(font_dir):
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.ttfonts import TTFont

    def embedded():
        return {name for name, font in pdfmetrics._fonts.items() if isinstance(font, TTFont)}

    before = embedded()
    text = ("مهندس برمجيات في Google", "वरिष्ठ सॉफ़्टवेयर इंजीनियर", "மென்பொருள் பொறியாளர்",
            "วิศวกรซอฟต์แวร์", "מהנדס תוכנה", "软件工程师", "Łódź Ελένη Кирилл")
    html = ("<!doctype html><html><head><style>body { font-family: Helvetica; }</style></head><body>"
            + "".join(f"<p>{line}</p>" for line in text) + "</body></html>")
    data = pdf.render_pdf(html)
    assert list(font_dir.glob("*.ttf"))
    assert embedded() == before
    assert not layout.missing_strings(data, ["مهندس برمجيات في Google", "מהנדס תוכנה", "软件工程师",
                                             "Łódź Ελένη Кирилл", "วิศวกรซอฟต์แวร์"])
    assert faces.missing_glyphs(html) == {}
    # Symbols are drawn by the symbol faces; a private-use or unassigned code by none: it is a box, and
    # the document says which characters those are.
    odd = html.replace("Кирилл", "Кирилл ☃ 𝄞 \ue000 \u0378 ✅")
    assert faces.missing_glyphs(odd) == {}
    assert scripts.mark_runs(odd)[1].missing == "𝄞\ue000\u0378"  # no face here has the G clef


def test_the_old_build_command_still_succeeds_and_builds_nothing(font_dir):
    done = subprocess.run([sys.executable, "-m", "app.documents.fonts"], cwd=Path(__file__).resolve().parents[2],
                          env={**os.environ, "PDF_FONT_DIR": str(font_dir)}, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert "cut on demand" in done.stdout
    assert not list(font_dir.glob("*.ttf"))


def test_a_face_with_tall_metrics_is_cut_to_a_line_height_a_paragraph_can_use(font_dir):
    """Noto Sans Arabic declares 2.1 ems of ascent and descent: every line of an Arabic resume was half
    as tall again as an English one's (Horizon: three pages where two will do)."""
    font = TTFont(str(cuts.cut(cuts.face(cuts.ARABIC, False), frozenset(map(ord, "مهندس")))))
    units = font["head"].unitsPerEm
    assert font["OS/2"].sTypoAscender - font["OS/2"].sTypoDescender <= cuts.MAX_LINE * units
    assert font["hhea"].ascent - font["hhea"].descent <= cuts.MAX_LINE * units
    latin = TTFont(str(cuts.cut(cuts.face(cuts.SANS, False), frozenset(map(ord, "Łódź")))))
    assert (latin["hhea"].ascent, latin["hhea"].descent) == (1069, -293)  # left as it was
