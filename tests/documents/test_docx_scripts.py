"""The DOCX names a font per script for every run, as Word picks them: Latin from the layout, CJK in
``w:eastAsia``, and the complex scripts (Arabic, Hebrew, Devanagari, Tamil, Thai) in ``w:cs`` with their
language, bold as ``w:bCs``, and right to left marked on the run (``w:rtl``) and on a paragraph that
starts right to left (``w:bidi``): issue 22, point 7. Every shipped template, read back as XML."""
from __future__ import annotations

import io

import docx
import pytest
from docx.oxml.ns import qn

from app.documents import Source, render, templating

pytestmark = pytest.mark.documents  # no database or queue: CI runs these in one pass (.ci/run)

TEMPLATES = templating.load_seed_templates()
CONTENT = {
    "personalInfo": {"name": "ليلى حداد", "email": "layla@example.com", "phone": "+971 4 555 0100",
                     "address": "دبي", "summary": "वरिष्ठ सॉफ्टवेयर अभियंता, दस वर्षों का अनुभव।"},
    "workExperience": [{"company": "חברת ענן", "position": "مهندسة برمجيات", "startDate": "2019-03", "endDate": "",
                        "description": "ทีมพัฒนาระบบชำระเงิน"}],
    "education": [{"school": "சென்னை பல்கலைக்கழகம்", "degree": "BSc", "startDate": "2010-09",
                   "endDate": "2014-06"}],
    "skills": ["Python", "PostgreSQL"],
    "projects": [],
}
# A piece of each script, and what its runs must say: (w:cs font, w:lang w:bidi, right to left)
EXPECTED = {
    "ليلى": ("Arial", "ar-SA", True),
    "ענן": ("Arial", "he-IL", True),
    "अभियंता": ("Nirmala UI", "hi-IN", False),
    "சென்னை": ("Nirmala UI", "ta-IN", False),
    "ชำระเงิน": ("Leelawadee UI", "th-TH", False),
}


def _runs(document):
    body = document.element.body
    for run in body.iter(qn("w:r")):
        text = "".join(t.text or "" for t in run.iter(qn("w:t")))
        yield run, text


def _paragraph_of(run):
    parent = run.getparent()
    while parent is not None and parent.tag != qn("w:p"):
        parent = parent.getparent()
    return parent


@pytest.mark.parametrize("template", TEMPLATES, ids=[t["name"] for t in TEMPLATES])
def test_each_script_has_its_font_language_and_direction(template):
    data = render("docx", Source(html_template=template["html_template"], css=template["css_styles"],
                                 title="سيرة ذاتية", content=CONTENT, visible=None))
    document = docx.Document(io.BytesIO(data))
    found = set()
    for run, text in _runs(document):
        for piece, (font, lang, rtl) in EXPECTED.items():
            if piece not in text:
                continue
            found.add(piece)
            rpr = run.find(qn("w:rPr"))
            fonts = rpr.find(qn("w:rFonts"))
            assert fonts.get(qn("w:cs")) == font and fonts.get(qn("w:hint")) == "cs", text
            assert rpr.find(qn("w:lang")).get(qn("w:bidi")) == lang, text
            assert (rpr.find(qn("w:rtl")) is not None) == rtl, text
            if rpr.find(qn("w:b")) is not None:       # bold text is bold in the complex script's terms too
                assert rpr.find(qn("w:bCs")) is not None, text
        if text.startswith("ليلى"):                  # the name: a paragraph that starts right to left
            assert _paragraph_of(run).find(qn("w:pPr")).find(qn("w:bidi")) is not None
        if "layla@example.com" in text:
            assert run.find(qn("w:rPr")) is None or run.find(qn("w:rPr")).find(qn("w:rtl")) is None
    assert found == set(EXPECTED)


@pytest.mark.parametrize("template", TEMPLATES, ids=[t["name"] for t in TEMPLATES])
def test_a_traditional_chinese_resume_names_traditional_faces_tagged_zh_tw(template):
    """The resume's language decides the Chinese faces: a Traditional Chinese one (zh-Hant, set or read
    from its text) is drawn in Microsoft JhengHei or PMingLiU and tagged zh-TW, as its PDF uses the TC
    cut; a Simplified one keeps Microsoft YaHei or SimSun and zh-CN."""
    for language, fonts, tag in (("zh-Hant", {"Microsoft JhengHei", "PMingLiU"}, "zh-TW"),
                                 ("zh-Hans", {"Microsoft YaHei", "SimSun"}, "zh-CN")):
        content = {"personalInfo": {"name": "陳志明", "summary": "軟體工程師，負責設計與開發支付系統。"},
                   "skills": ["分散式系統"], "language": language}
        source = Source(html_template=template["html_template"], css=template["css_styles"], title="履歷",
                        content=content, visible={})
        document = docx.Document(io.BytesIO(render("docx", source)))
        for run in document.element.body.iter(qn("w:r")):
            text = "".join(t.text or "" for t in run.iter(qn("w:t")))
            if not any("\u4e00" <= c <= "\u9fff" for c in text):
                continue
            fonts_of = run.find(qn("w:rPr")).find(qn("w:rFonts"))
            assert fonts_of.get(qn("w:eastAsia")) in fonts, (language, text)
            assert run.find(qn("w:rPr")).find(qn("w:lang")).get(qn("w:eastAsia")) == tag, (language, text)
