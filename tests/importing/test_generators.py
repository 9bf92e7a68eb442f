"""What other generators do to a PDF's text, read as the page shows it (issue 23 point 1)."""
from __future__ import annotations

import io

import pytest
from docx import Document
from reportlab.lib.pagesizes import A4
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.cidfonts import UnicodeCIDFont
from reportlab.pdfgen import canvas

from app.importing import reading

pytestmark = pytest.mark.documents  # no database: CI runs these in its first pass


def test_headings_drawn_after_the_text_below_them_still_head_their_sections():
    """Chromium draws a JSON Resume theme's letter-spaced headings after everything else on the page:
    in the order they were drawn, every section ran into the summary."""
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=A4)
    page.setFont("Helvetica", 18)
    page.drawString(72, 780, "Richard Hendriks")
    page.setFont("Helvetica", 10)
    page.drawString(72, 762, "richard.hendriks@example.com")
    page.drawString(72, 720, "Builds compression software.")
    page.drawString(72, 670, "CEO, Pied Piper")
    page.drawString(400, 670, "Dec 2013 - Dec 2014")
    page.drawString(72, 620, "Python, Go, Rust")
    page.setFont("Helvetica-Bold", 11)
    for y, heading in ((736, "SUMMARY"), (686, "WORK EXPERIENCE"), (636, "SKILLS")):
        page.drawString(72, y, heading)  # last, as Chromium draws them
    page.showPage()
    page.save()

    content = reading.read_all("pdf", out.getvalue()).content
    assert content["personalInfo"]["summary"] == "Builds compression software."
    job = content["workExperience"][0]
    assert (job["position"], job["company"]) == ("CEO", "Pied Piper")
    assert (job["startDate"], job["endDate"]) == ("2013-12", "2014-12")
    assert content["skills"] == ["Python", "Go", "Rust"]


def test_a_heading_in_the_margin_level_with_its_first_entry_and_entry_titles_named_like_sections():
    """JSON Resume's "even" theme (and moderncv's margin headings) set "Work" in a wide margin on the
    line of the first job's title: PDFium gives both as one line. And an interest titled "Open Source"
    in the look of every entry title once made all of them headings."""
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=A4)
    page.setFont("Helvetica", 18)
    page.drawString(72, 790, "Richard Hendriks")
    y = 750
    for heading, entries in (("Work", [("Senior Developer", "Pied Piper", "Jan 2019 - Present"),
                                       ("Software Engineer", "Hooli", "Jun 2016 - Dec 2018")]),
                             ("Education", [("BSc Computer Science", "Stanford University", "2012 - 2016")]),
                             ("Interests", [("Open Source", "", ""), ("Rock Climbing", "", "")])):
        page.setFont("Helvetica", 20)
        page.drawString(72, y, heading)
        for index, (title, place, dates) in enumerate(entries):
            page.setFont("Helvetica-Bold", 15)
            page.drawString(200, y, title)
            y -= 18
            for text, font, colour in ((place, "Helvetica-Bold", (0, 0.45, 0.67)),
                                       (dates, "Helvetica", (0.4, 0.4, 0.4))):
                if text:  # as the theme sets them: the employer bold in blue, the dates grey
                    page.setFont(font, 10)
                    page.setFillColorRGB(*colour)
                    page.drawString(200, y, text)
                    page.setFillColorRGB(0, 0, 0)
                    y -= 14
            y -= 10
        y -= 14
    page.showPage()
    page.save()

    content = reading.read_all("pdf", out.getvalue()).content
    jobs = [(job.get("position"), job.get("company")) for job in content["workExperience"]]
    assert jobs == [("Senior Developer", "Pied Piper"), ("Software Engineer", "Hooli")]
    assert content["education"][0]["school"] == "Stanford University"
    assert [item["name"] for item in content["interests"]] == ["Open Source", "Rock Climbing"]
    assert not content.get("projects") and not content.get("customSections")


def test_headings_no_larger_than_the_text_count_when_several_name_sections():
    """A theme's Chinese headings are small and grey, not bold ("简介", "技能", "工作经历"): no look of
    their own says "heading", but three lines of one look, each naming a different section, do."""
    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=A4)
    page.setFont("STSong-Light", 22)
    page.drawString(72, 790, "王晓燕")
    y = 750
    for heading, lines in (("简介", ["十年后端开发经验，熟悉分布式系统。"]),
                           ("工作经历", ["高级后端工程师 at 云帆科技", "负责订单系统的重构。"]),
                           ("技能", ["Python · Go · PostgreSQL"])):
        page.setFont("STSong-Light", 9)
        page.setFillColorRGB(0.5, 0.5, 0.5)
        page.drawString(72, y, heading)
        page.setFillColorRGB(0, 0, 0)
        y -= 16
        for index, text in enumerate(lines):
            page.setFont("STSong-Light", 11 if index == 0 and heading == "工作经历" else 10.5)
            page.drawString(72, y, text)
            y -= 15
        y -= 12
    page.showPage()
    page.save()

    content = reading.read_all("pdf", out.getvalue()).content
    assert content["personalInfo"]["summary"] == "十年后端开发经验，熟悉分布式系统。"
    assert content["workExperience"][0].get("company") == "云帆科技"
    assert content["skills"] == ["Python", "Go", "PostgreSQL"]


def test_an_icon_fonts_glyph_before_a_contact_detail_is_not_part_of_it():
    """moderncv and Awesome-CV draw an icon before each detail; its glyph reads as a letter ("# ", "u ")."""
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=A4)
    page.setFont("Helvetica", 20)
    page.drawString(72, 790, "John Doe")
    page.setFont("Helvetica", 9)
    page.drawString(72, 770, "# john.doe@example.com   |   u +1 415 555 0100   |   ^ johndoe.example.com")
    page.setFont("Helvetica-Bold", 14)
    page.drawString(72, 730, "Experience")
    page.setFont("Helvetica", 10)
    page.drawString(72, 712, "Engineer at Nexus AI, Jan 2020 - Present")
    page.showPage()
    page.save()

    personal = reading.read_all("pdf", out.getvalue()).content["personalInfo"]
    assert personal["email"] == "john.doe@example.com" and personal["phone"] == "+1 415 555 0100"


def test_a_job_sites_docx_with_plain_bold_headings_in_capitals_and_bold_job_titles():
    """A job site's profile export: every line a Normal paragraph, the headings bold capitals, each job's
    title bold too. The titles once became headings of their own (the same look as "WORK EXPERIENCE")."""
    from docx import Document

    document = Document()
    for text, bold in (("Richard Hendriks", True), ("richard@example.com • (912) 555-4321", False),
                       ("WORK EXPERIENCE", True), ("Senior Developer", True), ("Pied Piper", False),
                       ("January 2019 - Present", False), ("• Led the compression platform.", False),
                       ("Software Engineer", True), ("Hooli", False), ("June 2016 - December 2018", False),
                       ("EDUCATION", True), ("Stanford University", True), ("BS Computer Science", False),
                       ("SKILLS", True), ("Python, Go, Kubernetes", False)):
        document.add_paragraph().add_run(text).bold = bold
    out = io.BytesIO()
    document.save(out)

    content = reading.read_all("docx", out.getvalue()).content
    jobs = [(job.get("position"), job.get("startDate")) for job in content["workExperience"]]
    assert jobs == [("Senior Developer", "2019-01"), ("Software Engineer", "2016-06")]
    assert content["education"][0]["school"] == "Stanford University"
    assert content["skills"] == ["Python", "Go", "Kubernetes"] and not content.get("customSections")


def test_indented_headings_chips_and_a_comma_after_the_month():
    """jsonresume-theme-elegant: "ABOUT" and "WORK EXPERIENCE" indented under "BACKGROUND" in its size
    (once read as list items), skills as chips a little more than an em apart, dates as "Mar, 2013"."""
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=A4)
    page.setFont("Helvetica", 20)
    page.drawString(72, 790, "Clarence Taylor")
    page.setFont("Times-Roman", 13.5)
    page.drawString(51, 740, "BACKGROUND")
    page.drawString(92, 715, "ABOUT")
    page.setFont("Helvetica", 10)
    page.drawString(93, 698, "I am experienced in leveraging agile frameworks to provide a robust synopsis.")
    page.setFont("Times-Roman", 13.5)
    page.drawString(92, 670, "WORK EXPERIENCE")
    page.setFont("Helvetica-Bold", 10.5)
    page.drawString(93, 650, "Senior Web Developer, Intelitec Solutions")
    page.setFont("Helvetica", 10)
    page.drawString(92, 636, "Mar, 2013 - Present")
    page.drawString(93, 620, "Bring to the table win-win survival strategies to ensure proactive domination.")
    page.setFont("Times-Roman", 13.5)
    page.drawString(93, 590, "SKILLS")
    page.setFont("Helvetica-Bold", 9.5)
    x = 108
    for chip in ("HTML5", "CSS3", "JavaScript", "Node.js"):
        page.drawString(x, 570, chip)
        x += page.stringWidth(chip, "Helvetica-Bold", 9.5) + 13  # 1.4 em between chips
    page.showPage()
    page.save()

    content = reading.read_all("pdf", out.getvalue()).content
    assert content["personalInfo"]["summary"].startswith("I am experienced")
    job = content["workExperience"][0]
    assert (job["position"], job["company"], job["startDate"], job.get("endDate", "")) == \
        ("Senior Web Developer", "Intelitec Solutions", "2013-03", "")
    assert content["skills"] == ["HTML5", "CSS3", "JavaScript", "Node.js"]


def test_entry_titles_in_the_look_of_a_sidebars_headings():
    """A Chinese DOCX whose sidebar headings are bold body text, like every school's and job's title:
    each title followed by its dates is an entry, not a section of its own."""
    document = Document()
    for text, bold in (("克拉伦斯·泰勒", True), ("name@email.com", False), ("专业技能", True), ("HTML5", False),
                       ("CSS3", False), ("教育背景", True), ("科罗拉多大学博尔德分校", True), ("计算机科学理学学士", False),
                       ("2006.08 – 2010.05", False), ("工作经历", True), ("高级 Web 开发工程师", True),
                       ("Intelitec Solutions 公司  |  2013.03 – 至今", False)):
        document.add_paragraph().add_run(text).bold = bold
    out = io.BytesIO()
    document.save(out)
    content = reading.read_all("docx", out.getvalue()).content
    assert [s["school"] for s in content["education"]] == ["科罗拉多大学博尔德分校"]
    assert content["workExperience"][0]["startDate"] == "2013-03"
    assert "customSections" not in content


def test_a_date_a_narrow_margin_wrapped_over_three_lines():
    """moderncv's classic and casual styles set "Sept 2018–May 2023" right-aligned in a margin too narrow
    for it: "Sept" / "2018–May" / "2023", drawn before the entry beside them."""
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=A4)
    page.setFont("Helvetica", 24)
    page.drawString(60, 780, "John Doe")
    for heading, top, pieces, head in (
            ("Education", 680, ("Sept", "2018–May", "2023"), "PhD in Computer Science, Princeton University"),
            ("Experience", 580, ("June", "2023–present", ""), "Co-Founder & CTO, Nexus AI")):
        page.setFont("Helvetica", 14)
        page.drawString(132, top + 20, heading)
        page.setFont("Helvetica", 11)
        for offset, piece in enumerate(pieces):
            if piece:
                page.drawRightString(125, top - 13.5 * offset, piece)
        page.setFont("Helvetica-Bold", 11)
        page.drawString(132, top, head)
    page.showPage()
    page.save()

    content = reading.read_all("pdf", out.getvalue()).content
    [school] = content["education"]
    assert (school["school"], school["degree"], school["startDate"], school["endDate"]) == \
        ("Princeton University", "PhD in Computer Science", "2018-09", "2023-05")
    [job] = content["workExperience"]
    assert (job["position"], job["company"], job["startDate"], job.get("endDate", "")) == \
        ("Co-Founder & CTO", "Nexus AI", "2023-06", "")


def test_chinese_titles_with_and_without_a_latin_name_start_one_entry_each():
    """XeLaTeX sets the Chinese font a little smaller than the Latin one (8.5 and 10 pt): a title with a
    Latin name in it measured larger, and the next job ran into the one above."""
    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=A4)
    page.setFont("STSong-Light", 12)
    page.drawString(57, 790, "张伟")
    page.setFont("STSong-Light", 10)
    page.drawString(57, 760, "工作经历")
    y = 740
    for title, latin, when in (("联合创始人—", "Nexus AI", "2023.06 – 2024.01"), ("研究实习生—英伟达研究院", "", "2022.05 – 2022.08"),
                               ("研究实习生—谷歌 ", "DeepMind", "2021.05 – 2021.08")):
        page.setFont("STSong-Light", 8.5)
        page.drawString(57, y, title)
        if latin:
            page.setFont("Helvetica", 10)
            page.drawString(57 + page.stringWidth(title, "STSong-Light", 8.5), y, latin)
        page.setFont("Helvetica-Oblique", 10)
        page.drawString(57, y - 16, when)
        page.setFont("STSong-Light", 8.5)
        page.drawString(71, y - 32, "• 搭建基础模型推理平台")
        y -= 60
    page.showPage()
    page.save()

    content = reading.read_all("pdf", out.getvalue()).content
    jobs = content["workExperience"]
    assert [(j["position"], j["company"], j["startDate"]) for j in jobs] == [
        ("联合创始人", "Nexus AI", "2023-06"), ("研究实习生", "英伟达研究院", "2022-05"), ("研究实习生", "谷歌 DeepMind", "2021-05")]
