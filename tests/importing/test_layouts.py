"""Layouts of other generators read into the right fields (issue 23 point 1): a title and employer
joined by a dash, jobs a sidebar's text box pushed under Skills, a school's dates inside its degree line,
skills listed under a section of another name, and a header whose details a middle dot joins. Measured
on real documents by bench/import.py; these are the rules, one by one."""
from __future__ import annotations

import io

import pytest
from docx import Document

from app.importing import reading
from tests.resumes.test_import import docx_of

pytestmark = pytest.mark.documents  # no database: CI runs these in its first pass


def test_title_and_employer_joined_by_a_dash():
    content = reading.read_all("docx", docx_of(
        ("Title", "Clarence Taylor"), ("Heading 1", "Experience"),
        ("Heading 2", "Senior Web Developer — Intelitec Solutions"), ("Normal", "Mar 2013 – Present"),
        ("Heading 2", "研究实习生—英伟达研究院"), ("Normal", "2022.05 – 2022.08"))).content
    assert [(j["position"], j["company"]) for j in content["workExperience"]] == \
        [("Senior Web Developer", "Intelitec Solutions"), ("研究实习生", "英伟达研究院")]


def test_jobs_a_text_box_pushed_under_skills_go_back_to_experience():
    """Word text boxes come in the order they were anchored: "Experience", the sidebar's name and
    contact details and its "Skills", then the jobs."""
    content = reading.read_all("docx", docx_of(
        ("Heading 1", "EXPERIENCE"), ("Normal", "Clarence Taylor"), ("Normal", "Web Developer"),
        ("Normal", "3542 Berry Street · (317) 585-8468 · name@email.com"),
        ("Heading 1", "Skills"), ("Normal", "HTML5"), ("Normal", "CSS3"),
        ("Normal", "Senior Web Developer — Intelitec Solutions"), ("Normal", "Mar 2013 – Present"),
        ("List Bullet", "Bring to the table win-win survival strategies."),
        ("Normal", "Web Developer — Intelitec Solutions"), ("Normal", "Dec 2011 – Mar 2013"))).content
    personal = content["personalInfo"]
    assert (personal["name"], personal["label"], personal["email"], personal["phone"]) == \
        ("Clarence Taylor", "Web Developer", "name@email.com", "(317) 585-8468")
    assert content["skills"] == ["HTML5", "CSS3"]
    assert [(j["position"], j["startDate"]) for j in content["workExperience"]] == \
        [("Senior Web Developer", "2013-03"), ("Web Developer", "2011-12")]


def test_a_schools_dates_inside_its_degree_line():
    content = reading.read_all("docx", docx_of(
        ("Title", "Clarence Taylor"), ("Heading 1", "Education"), ("Heading 2", "University of Colorado Boulder"),
        ("Normal", "Bachelor of Science, Computer Science - Web Development Track, Aug 2006 – May 2010"))).content
    [school] = content["education"]
    assert (school["startDate"], school["endDate"]) == ("2006-08", "2010-05")
    assert "Aug" not in str(school)


def test_skills_listed_under_a_section_of_another_name():
    """pandoc's sample: "Programming Languages" as an item of "Technical Experience", its lines naming
    each language before a colon, or listing them after "Basic knowledge of"."""
    document = Document()
    document.add_paragraph("Johnny Coder", style="Title")
    for text, style, term in (("Experience", "Heading 2", False), ("Developer, Acme", "Normal", True),
                              ("Technical Experience", "Heading 2", False), ("My Cool Side Project", "Normal", True),
                              ("A definition list can be used to have named items.", "Normal", False),
                              ("Programming Languages", "Normal", True),
                              ("first-lang: Here, we have an itemization.", "Normal", False),
                              ("second-lang: Description of your experience with second-lang.", "Normal", False),
                              ("Basic knowledge of C, x86 assembly, forth, Common Lisp", "Normal", False)):
        document.add_paragraph(style=style).add_run(text).italic = term
    out = io.BytesIO()
    document.save(out)
    content = reading.read_all("docx", out.getvalue()).content
    assert content["skillGroups"] == [{"name": "Programming Languages", "keywords": [
        "first-lang", "second-lang", "C", "x86 assembly", "forth", "Common Lisp"]}]
    assert [item["title"] for item in content["customSections"][0]["items"]] == ["My Cool Side Project"]


def test_a_header_joined_by_unspaced_middle_dots_and_a_country_code():
    content = reading.read_all("docx", docx_of(
        ("Title", "张伟"), ("Normal", "上海·(+86) 138-0013-8000·zhang.wei@email.com·rendercv.com"),
        ("Heading 1", "工作经历"), ("Heading 2", "联合创始人兼首席技术官—Nexus AI"), ("Normal", "2023.06 – 至今"))).content
    personal = content["personalInfo"]
    assert (personal["address"], personal["phone"], personal["email"], personal["url"]) == \
        ("上海", "(+86) 138-0013-8000", "zhang.wei@email.com", "https://rendercv.com")
