"""DOCX layouts per template, read back with python-docx as Word would read them.

Each shipped design has a Word layout of its own (fonts, header, headings, columns);
any other template gets a single-column one from its CSS. Whatever the layout,
every string of the resume is in the body's paragraphs, in the resume's sectionOrder
(a column keeps its sections), CJK runs name an East Asian font, and the page
follows the options.
"""
from __future__ import annotations

import copy
import io

import docx
import pytest
from docx.enum.text import WD_ALIGN_PARAGRAPH
from docx.oxml.ns import qn

from tests.documents import samples

from app.content.sections import BODY_SECTIONS
from app.documents import templating
from app.documents import MARGINS, Options, Source, render
from app.documents.docx import profiles as docx_profiles

pytestmark = pytest.mark.documents  # no database or queue: CI runs these in one pass (.ci/run)

TEMPLATES = templating.load_seed_templates()
BY_NAME = {t["name"]: t for t in TEMPLATES}
SHIPPED = ("Horizon", "Heritage", "Meridian", "Canvas")
CJK_FONTS = {"Microsoft YaHei", "SimSun", "SimHei", "DengXian", "KaiTi", "FangSong"}

RESUME = {
    "personalInfo": {"name": "Ada Quill", "email": "ada.quill@example.com", "phone": "+44 20 7946 0958",
                     "address": "12 Harbour Lane, Bristol", "summary": "Backend engineer who likes tidy ledgers."},
    "workExperience": [
        {"company": "Gearbox Ltd", "position": "Staff Engineer", "startDate": "2021-03", "endDate": "",
         "description": "Owned the billing platform.\nCut the invoice run to 40 minutes."},
        {"company": "Loomworks", "position": "Developer", "startDate": "2016-09", "endDate": "2021-02",
         "description": "Shipped the reporting engine."}],
    "education": [{"school": "Riverside University", "degree": "MSc Distributed Computing",
                   "startDate": "2014-10", "endDate": "2015-07"}],
    "skills": ["Erlang", "PostgreSQL", "Terraform"],
    "projects": [{"id": "p1", "name": "Tallyho", "description": "A double-entry bookkeeping kit.",
                  "technologies": ["Rustlang", "SQLite"], "url": "https://tallyho.example.org/kit",
                  "startDate": "2019-05", "endDate": "2020-11", "highlights": ["Adopted by 40 shops"]}],
}
# Strings found once only, by group: where each group sits in a document's text gives its order.
GROUP_WORDS = {
    "name": ["Ada Quill"],
    "contact": ["ada.quill@example.com", "+44 20 7946 0958", "Harbour Lane"],
    "summary": ["tidy ledgers"],
    "workExperience": ["Gearbox Ltd", "Staff Engineer", "billing platform", "Loomworks", "Sep 2016"],
    "education": ["Riverside University", "Distributed Computing", "Oct 2014"],
    "skills": ["Erlang", "Terraform"],
    "projects": ["Tallyho", "tallyho.example.org/kit", "bookkeeping kit", "Adopted by 40 shops", "Rustlang",
                 "May 2019"],
}
# The body sections follow the resume's sectionOrder (RESUME has none: the default order); a
# two-column design keeps its sidebar's sections there, in that order.
DEFAULT_ORDER = tuple(key for key in BODY_SECTIONS if key in GROUP_WORDS)
CHINESE = copy.deepcopy(RESUME)
CHINESE["personalInfo"].update(name="张伟", summary="十年后端经验，熟悉 PostgreSQL 与 Kafka。")
CHINESE["workExperience"][0].update(position="高级软件工程师", company="字节跳动 ByteDance")


def source(template: dict, content=RESUME, visible=None, html=None, css=None) -> Source:
    return Source(html_template=html or template["html_template"], css=css or template["css_styles"],
                  title="My resume", content=content, visible=visible or {})


def document(template: dict, content=RESUME, options=Options(), **kw):
    return docx.Document(io.BytesIO(render("docx", source(template, content, **kw), options)))


def body_text(doc) -> str:
    """The body's paragraphs as a reader gets them, chips' no-break spaces as spaces."""
    return "\n".join(p.text for p in doc.paragraphs).replace("\u00a0", " ")


def style_chain(style):
    while style is not None:
        yield style
        style = style.base_style


def effective(paragraph, run, attr: str):
    """A run's font attribute (name, bold...) as Word resolves it: the run's, else its styles'."""
    value = getattr(run.font, attr)
    for style in style_chain(paragraph.style):
        if value is not None:
            break
        value = getattr(style.font, attr)
    return value


def paragraph(doc, text: str, style: str | None = None):
    return next(p for p in doc.paragraphs if p.text.startswith(text) and (style is None or p.style.name == style))


def ppr_child(par, tag: str):
    ppr = par._p.pPr
    return None if ppr is None else ppr.find(qn(f"w:{tag}"))


# --- each design its own layout --------------------------------------------------------------------

def test_each_shipped_template_has_its_own_design_fonts_and_headings():
    looks = {}
    for name in SHIPPED:
        template = BY_NAME[name]
        assert docx_profiles.design_of(template["html_template"]) == name.lower()
        doc = document(template)
        heading = doc.styles["Heading 1"]
        borders = heading.element.pPr.find(qn("w:pBdr"))
        looks[name] = (doc.styles["Normal"].font.name, heading.font.size.pt, heading.font.all_caps,
                       heading.font.small_caps, None if borders is None else tuple(b.tag for b in borders))
    assert {name: look[0] for name, look in looks.items()} == {
        "Horizon": "Arial", "Heritage": "Georgia", "Meridian": "Calibri", "Canvas": "Trebuchet MS"}
    assert len(set(looks.values())) == len(SHIPPED), looks
    assert looks["Horizon"][2] and looks["Heritage"][3]          # spaced capitals; small capitals


def test_heritage_is_a_centred_serif_with_small_caps_and_rules():
    doc = document(BY_NAME["Heritage"])
    title = doc.styles["Title"]
    assert title.font.small_caps and not title.font.bold
    assert title.paragraph_format.alignment == WD_ALIGN_PARAGRAPH.CENTER
    contact = paragraph(doc, "12 Harbour Lane")
    assert contact.alignment == WD_ALIGN_PARAGRAPH.CENTER and contact.runs[0].italic
    assert ppr_child(contact, "pBdr").find(qn("w:bottom")).get(qn("w:val")) == "double"
    # The organisation leads, the dates right-aligned on the same line, the role below in italics.
    head = paragraph(doc, "Gearbox Ltd", "Heading 2")
    assert head.text == "Gearbox Ltd\tMar 2021 – Present"
    assert [t.alignment for t in head.paragraph_format.tab_stops] == [2]      # WD_TAB_ALIGNMENT.RIGHT
    assert paragraph(doc, "Staff Engineer").runs[0].italic
    assert [p.text for p in doc.paragraphs if p.style.name == "Heading 1"] == [
        "Summary", "Professional Experience", "Education", "Skills", "Selected Projects"]
    assert paragraph(doc, "Erlang").text == "Erlang · PostgreSQL · Terraform"


def test_meridian_has_a_shaded_sidebar_beside_the_main_column():
    options = Options(page_size="A4", margin="normal")
    doc = document(BY_NAME["Meridian"], options=options)
    content_twips = (210 - 2 * templating.MARGINS_MM["normal"]) / 25.4 * 1440
    paragraphs = doc.paragraphs
    framed = [p for p in paragraphs if ppr_child(p, "framePr") is not None]
    side = docx_profiles.template_sidebar(BY_NAME["Meridian"]["html_template"])     # the template's side_keys
    titles = dict(docx_profiles.template_sections(BY_NAME["Meridian"]["html_template"]))
    assert "skills" in side and "workExperience" not in side
    assert [p.text for p in framed if p.style.name == "Sidebar Heading"] == [
        "Contact", *[titles[k] for k in DEFAULT_ORDER if k in side]]
    assert {"ada.quill@example.com", "• Erlang"} <= {p.text for p in framed}
    widths = {int(ppr_child(p, "framePr").get(qn("w:w"))) for p in framed}
    assert len(widths) == 1 and abs(widths.pop() / content_twips - 0.31) < 0.01      # one frame, 31%
    assert {ppr_child(p, "shd").get(qn("w:fill")) for p in framed} == {"F1F4F8"}
    # The main column follows the frame, indented past it on every page.
    last = max(i for i, p in enumerate(paragraphs) if ppr_child(p, "framePr") is not None)
    assert len(framed) == last + 1 - paragraphs.index(framed[0])          # one unbroken run of them
    main = paragraphs[last + 1:]
    assert main[0].text == "Work Experience" and "Adopted by 40 shops" in [p.text for p in main]
    assert all(p.paragraph_format.left_indent.twips > 0.31 * content_twips for p in main if p.text)
    assert paragraph(doc, "Staff Engineer", "Heading 2").text == "Staff Engineer\tMar 2021 – Present"
    assert paragraph(doc, "STACK").text == "STACK  Rustlang / SQLite"


def test_canvas_hangs_dates_in_a_timeline_and_shows_skills_as_accent_chips():
    doc = document(BY_NAME["Canvas"])
    accent = templating.template_accent(BY_NAME["Canvas"]["css_styles"]).lstrip("#").upper()
    head = paragraph(doc, "Mar 2021", "Heading 2")
    assert head.text == "Mar 2021 – Present\tStaff Engineer"
    assert head.runs[0].font.all_caps and str(head.runs[0].font.color.rgb) == accent
    fmt = head.paragraph_format
    assert fmt.first_line_indent == -fmt.left_indent                    # the dates hang in the left column
    rule = ppr_child(paragraph(doc, "Owned the billing"), "pBdr").find(qn("w:left"))
    assert rule.get(qn("w:color")) == "E4E0E8"                          # the timeline's line
    chips = [r for r in paragraph(doc, "\u00a0Erlang").runs if r.text.strip()]
    assert [r.text.strip() for r in chips] == ["Erlang", "PostgreSQL", "Terraform"]
    assert {r._r.rPr.find(qn("w:shd")).get(qn("w:fill")) for r in chips} == {accent}
    summary = paragraph(doc, "Backend engineer")
    assert ppr_child(summary, "shd").get(qn("w:fill")) == "F7F5F2"
    marker = doc.styles["Heading 1"].element.pPr.find(qn("w:pBdr")).find(qn("w:left"))
    assert marker.get(qn("w:color")) == accent


def test_horizon_names_in_the_accent_over_a_short_rule_with_outlined_skills():
    doc = document(BY_NAME["Horizon"])
    accent = templating.template_accent(BY_NAME["Horizon"]["css_styles"]).lstrip("#").upper()
    texts = [p.text for p in doc.paragraphs]
    rule = doc.paragraphs[texts.index("Ada Quill") + 2]
    assert rule.text == "" and ppr_child(rule, "pBdr").find(qn("w:top")).get(qn("w:color")) == accent
    chips = [r for r in paragraph(doc, "\u00a0Erlang").runs if r.text.strip()]
    assert all(r._r.rPr.find(qn("w:bdr")) is not None for r in chips)
    assert paragraph(doc, "Mar 2021").text == "Mar 2021 – Present"       # dates under the entry


# --- every template: content, order, fonts, page ---------------------------------------------------

def expected_order(template: dict, order=DEFAULT_ORDER) -> tuple[str, ...]:
    """The groups in the order a document of ``template`` shows them for a resume in ``order``."""
    profile = docx_profiles.profile_for(template["html_template"], template["css_styles"])
    if profile.layout != "columns":
        return ("name", "contact", "summary", *order)
    side = [key for key in order if key in profile.sidebar]
    head = ("name", "summary", "contact") if "contact" in profile.sidebar else ("name", "contact", "summary")
    return (*head, *side, *[key for key in order if key not in side])


def test_the_shipped_designs_orders():
    assert expected_order(BY_NAME["Horizon"]) == ("name", "contact", "summary", "workExperience", "education",
                                                  "skills", "projects")
    # The sidebar (contact, then the template's side_keys) is read whole before the main column.
    side = docx_profiles.template_sidebar(BY_NAME["Meridian"]["html_template"])
    assert expected_order(BY_NAME["Meridian"]) == (
        "name", "summary", "contact", *[k for k in DEFAULT_ORDER if k in side],
        *[k for k in DEFAULT_ORDER if k not in side])


@pytest.mark.parametrize("order", [DEFAULT_ORDER, ("projects", "skills", "education", "workExperience")],
                         ids=["default", "reversed"])
@pytest.mark.parametrize("template", TEMPLATES, ids=[t["name"] for t in TEMPLATES])
def test_every_section_is_present_in_the_resumes_order(template, order):
    text = body_text(document(template, {**RESUME, "sectionOrder": list(order)}))
    spans = []
    for group in expected_order(template, order):
        positions = [text.find(word) for word in GROUP_WORDS[group]]
        assert -1 not in positions, (group, GROUP_WORDS[group], text)
        spans.append((group, min(positions), max(positions)))
    for (before, _, end), (after, start, _) in zip(spans, spans[1:]):
        assert end < start, f"{before} runs into {after}"


@pytest.mark.parametrize("key", samples.SAMPLES, ids=["-".join(k) for k in samples.SAMPLES])
@pytest.mark.parametrize("template", TEMPLATES, ids=[t["name"] for t in TEMPLATES])
def test_every_string_of_realistic_resumes_is_in_the_body(template, key):
    text = " ".join(body_text(document(template, samples.SAMPLES[key])).split())
    missing = [s for s in samples.content_strings(samples.SAMPLES[key]) if " ".join(s.split()) not in text]
    assert missing == []


@pytest.mark.parametrize("template", TEMPLATES, ids=[t["name"] for t in TEMPLATES])
def test_hidden_sections_are_absent(template):
    text = body_text(document(template, visible={"skills": False, "projects": False}))
    assert "Erlang" not in text and "Tallyho" not in text and "Gearbox Ltd" in text


@pytest.mark.parametrize("template", TEMPLATES, ids=[t["name"] for t in TEMPLATES])
def test_cjk_runs_name_an_east_asian_font_and_latin_runs_keep_the_layouts(template):
    doc = document(template, CHINESE)
    latin = doc.styles["Normal"].font.name
    cjk_runs = latin_runs = 0
    for par in doc.paragraphs:
        for run in par.runs:
            if not run.text.strip():
                continue
            fonts = run._r.rPr.find(qn("w:rFonts")) if run._r.rPr is not None else None
            if any("\u4e00" <= c <= "\u9fff" for c in run.text):
                cjk_runs += 1
                assert fonts.get(qn("w:eastAsia")) in CJK_FONTS, run.text
                assert fonts.get(qn("w:hint")) == "eastAsia"
                assert run._r.rPr.find(qn("w:lang")).get(qn("w:eastAsia")) == "zh-CN"
                assert not any("a" <= c.lower() <= "z" for c in run.text), run.text   # split by script
            else:
                latin_runs += 1
                assert effective(par, run, "name") == latin, run.text
    assert cjk_runs >= 4 and latin_runs > 10
    # Bold Chinese stays bold: the entry titles' CJK runs are bold (through their style).
    heads = [p for p in doc.paragraphs if p.style.name == "Heading 2" and p.text.startswith(("字节", "高级", "Mar"))]

    def dates(run) -> bool:  # a head's dates ("2021年3月 – 至今") are not bold
        return set(run.text) <= set("0123456789年月至今 –-\t")

    runs = [(h, r) for h in heads for r in h.runs
            if any("\u4e00" <= c <= "\u9fff" for c in r.text) and not dates(r)]
    assert runs and all(effective(h, r, "bold") is True for h, r in runs)
    for name in ("Normal", "Title", "Heading 1", "Heading 2", "List Bullet"):
        fonts = doc.styles[name].element.rPr.rFonts
        assert fonts.get(qn("w:eastAsia")) in CJK_FONTS and fonts.get(qn("w:ascii")) == latin


def test_serif_designs_pair_with_a_song_face_and_sans_with_yahei():
    fonts = {name: document(BY_NAME[name], CHINESE).styles["Normal"].element.rPr.rFonts.get(qn("w:eastAsia"))
             for name in SHIPPED}
    assert fonts == {"Horizon": "Microsoft YaHei", "Heritage": "SimSun", "Meridian": "Microsoft YaHei",
                     "Canvas": "Microsoft YaHei"}


@pytest.mark.parametrize("page_size, mm", [("A4", (210, 297)), ("Letter", (215.9, 279.4))])
@pytest.mark.parametrize("template", TEMPLATES, ids=[t["name"] for t in TEMPLATES])
def test_page_size_and_margins_follow_the_options(template, page_size, mm):
    for margin in MARGINS:
        section = document(template, options=Options(page_size=page_size, margin=margin)).sections[0]
        assert (round(section.page_width.mm, 1), round(section.page_height.mm, 1)) == mm
        assert {round(m.mm, 1) for m in (section.left_margin, section.right_margin, section.top_margin,
                                         section.bottom_margin)} == {templating.MARGINS_MM[margin]}
        content = section.page_width - section.left_margin - section.right_margin
        for par in document(template, options=Options(page_size=page_size, margin=margin)).paragraphs:
            for stop in par.paragraph_format.tab_stops:      # right-aligned dates end at the margin
                assert stop.position <= content


# --- templates without a design of their own -------------------------------------------------------

SERIF_CSS = """
/* Testonly: an ATS-friendly serif layout */
body { font-family: "Palatino", "Book Antiqua", serif; font-size: 11pt; color: #202020; }
.accent-text { color: #225588; }
.header { text-align: center; }
.name { font-size: 22pt; font-weight: normal; font-variant: small-caps; }
h2.section-title { font-size: 12pt; text-transform: uppercase; letter-spacing: 1px; border-bottom: 1px solid #999999; }
"""


def test_an_unknown_template_gets_a_single_column_layout_from_its_css():
    horizon = BY_NAME["Horizon"]
    html = horizon["html_template"].replace('class="resume horizon', 'class="resume testonly')
    html = html.replace('section_title(key, "Experience")', '"Where I Worked"')
    doc = document(horizon, html=html, css=SERIF_CSS)
    normal, title, heading = (doc.styles[n] for n in ("Normal", "Title", "Heading 1"))
    assert normal.font.name == "Palatino Linotype" and normal.font.size.pt == 11
    assert normal.element.rPr.rFonts.get(qn("w:eastAsia")) == "SimSun"          # a serif design
    assert title.paragraph_format.alignment == WD_ALIGN_PARAGRAPH.CENTER and title.font.small_caps
    assert title.font.size.pt == 22 and not title.font.bold
    assert heading.font.all_caps and heading.font.size.pt == 12
    assert heading.element.pPr.find(qn("w:pBdr")).find(qn("w:bottom")).get(qn("w:color")) == "999999"
    assert str(paragraph(doc, "Ada Quill").runs[0].font.color.rgb) == "225588"
    # Titles from the HTML, order from the resume; entries as title left, dates right (the "ruled" layout).
    assert [p.text for p in doc.paragraphs if p.style.name == "Heading 1"] == [
        "Profile", "Where I Worked", "Education", "Skills", "Projects"]
    assert paragraph(doc, "Staff Engineer", "Heading 2").text == "Staff Engineer\tMar 2021 – Present"
    assert not [p for p in doc.paragraphs if ppr_child(p, "framePr") is not None]


def test_section_titles_in_chinese_carry_over_from_the_template():
    heritage = BY_NAME["Heritage"]
    html = heritage["html_template"].replace('class="resume heritage', 'class="resume testonly')
    html = html.replace('"Professional Experience"', '"工作经历"')
    html = html.replace('section_title(key, "Skills")', 'section_title(key, "专业技能")')
    doc = document(heritage, CHINESE, html=html)
    headings = [p for p in doc.paragraphs if p.style.name == "Heading 1"]
    assert [p.text for p in headings] == ["Summary", "工作经历", "Education", "专业技能", "Selected Projects"]
    assert headings[1].runs[0]._r.rPr.find(qn("w:rFonts")).get(qn("w:eastAsia")) == "SimSun"


def test_a_template_without_css_or_markers_still_exports():
    doc = document(BY_NAME["Horizon"], html="<div>{{ content.personalInfo.name }}</div>", css="/* none */")
    text = body_text(doc)
    for words in GROUP_WORDS.values():
        for word in words:
            assert word in text
