"""Sections read by what they hold and where they stand: a heading in words no lexicon has, a heading
centred over its column, a Chinese heading named by its last word (issue 33)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from app.importing import dates, reading, section_kinds, words
from app.importing.layout import blocks as make_blocks
from tests.support import drawn_pdf


def _skills(content: dict) -> set[str]:
    """Every skill read, listed or in a group."""
    grouped = {skill for group in content.get("skillGroups", []) for skill in group["keywords"]}
    return set(content.get("skills", [])) | grouped


def _slovak(page, *, named_work: bool = False) -> None:
    page.setFont("Helvetica-Bold", 22)
    page.drawString(60, 790, "Jana Nováková")
    page.setFont("Helvetica", 10)
    page.drawString(60, 770, "jana@example.sk")
    y = 730
    for heading, entries in (("WORK EXPERIENCE" if named_work else "PRACOVNÉ SKÚSENOSTI",
                              (("Softvérová testerka", "Acme s.r.o.", "Február 2025 - doteraz"),
                               ("Asistentka predaja", "Knihy pre každého s.r.o.", "Február 2024 - Máj 2024"))),
                             ("VZDELANIE", (("Univerzita Komenského", "Bakalár informatiky", "2016 - 2020"),)),
                             ("BRIGÁDY", (("Vývojárka", "Beta s.r.o.", "2014 - 2016"),))):
        page.setFont("Helvetica-Bold", 13)
        page.drawString(60, y, heading)
        y -= 24
        for first, second, when in entries:
            page.setFont("Helvetica-Bold", 10)
            page.drawString(60, y, first)
            page.setFont("Helvetica", 10)
            page.drawString(60, y - 13, second)
            page.drawString(60, y - 26, when)
            y -= 46
        y -= 10


def test_sections_whose_headings_no_language_names_are_read_by_their_dated_entries():
    found = reading.read_all("pdf", drawn_pdf(_slovak))
    jobs, schools = found.content["workExperience"], found.content["education"]
    assert [(job["position"], job["company"], job["startDate"], job.get("endDate")) for job in jobs] == [
        ("Softvérová testerka", "Acme s.r.o.", "2025-02", None),
        ("Asistentka predaja", "Knihy pre každého s.r.o.", "2024-02", "2024-05")]
    assert schools[0]["school"] == "Univerzita Komenského" and schools[0]["startDate"] == "2016-01"
    # each section so read is in the report, named as printed; the second section of jobs stays one of its own
    by_content = [note for note in found.unsure if note["reason"] == "by_content"]
    assert [(note["path"], note["text"]) for note in by_content] == [
        ("workExperience", "PRACOVNÉ SKÚSENOSTI"), ("education", "VZDELANIE")]
    assert [section["title"] for section in found.content["customSections"]] == ["BRIGÁDY"]


def test_a_section_read_by_its_entries_never_takes_the_place_of_one_named_by_its_heading():
    found = reading.read_all("pdf", drawn_pdf(lambda page: _slovak(page, named_work=True)))
    assert [job["company"] for job in found.content["workExperience"]] == ["Acme s.r.o.", "Knihy pre každého s.r.o."]
    assert [section["title"] for section in found.content["customSections"]] == ["BRIGÁDY"]
    assert [note["path"] for note in found.unsure if note["reason"] == "by_content"] == ["education"]


def test_a_sidebar_heading_centred_over_its_items_heads_them():
    def draw(page):
        page.setFont("Helvetica-Bold", 24)
        page.drawString(40, 790, "Jana Nováková")
        page.setFont("Helvetica", 10)
        page.drawString(40, 770, "jana@example.sk")
        page.setFont("Helvetica-Bold", 12)
        page.drawString(120, 720, "WORK EXPERIENCE")          # centred over the main column (40-330)
        page.drawString(445, 730, "SKILLS")                   # centred over the sidebar (400-530), higher
        page.setFont("Helvetica-Bold", 10)
        page.drawString(40, 690, "Software Tester")
        page.setFont("Helvetica", 10)
        page.drawString(40, 676, "Acme s.r.o. / Bratislava / 02/2025 - 06/2025")
        page.drawString(40, 662, "Static analysis of specifications and writing test scenarios for the team.")
        skills = ("Jira Atlassian", "SQL", "Test automation with Selenium", "Analytical thinking")
        for index, skill in enumerate(skills):
            page.drawString(400, 690 - 16 * index, skill)
    content = reading.read_all("pdf", drawn_pdf(draw)).content
    assert [job["position"] for job in content["workExperience"]] == ["Software Tester"]
    assert "Jira Atlassian" not in str(content["workExperience"])
    assert {"Jira Atlassian", "SQL"} <= _skills(content)


@pytest.mark.parametrize(("heading", "key"), [
    ("相关技能", "skills"), ("掌握技能", "skills"), ("个人技能", "skills"), ("数据科学进修证书", None),
    ("学术会议", None), ("技能概述", None), ("论文发表情况", None)])
def test_a_chinese_heading_is_named_by_its_last_word(heading, key):
    assert words.section_of(heading) == key


@pytest.mark.parametrize(("text", "start", "end"), [
    ("FEBRUÁR 2025 - DOTERAZ", "2025-02", ""), ("Apríl 2025 - Apríl 2025", "2025-04", "2025-04"),
    ("NOVEMBER 2023 - JANUÁR 2024", "2023-11", "2024-01")])
def test_slovak_months_and_present(text, start, end):
    period = dates.find_period(text)
    assert (period.start, period.end) == (start, end)


def _line(text: str, bold: bool = False) -> dict:
    return {"page": 1, "x0": 0, "x1": 0, "top": 0, "bottom": 0, "base": 0, "w1": None, "style": "", "level": None,
            "bullet": False, "para": True,
            "cells": [[{"t": text, "size": 10, "font": "Arial", "bold": bold, "italic": False, "colour": ""}]]}


_WORD = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1, max_size=20)
_ENTRY = st.tuples(_WORD, _WORD, st.sampled_from(["2019 - 2021", "03/2018 - heute", "", "Jan 2020 – Present"]))


@settings(max_examples=150, deadline=None)
@given(st.lists(_ENTRY, min_size=1, max_size=5))
def test_a_section_is_given_a_kind_only_by_words_of_that_kind(entries):
    lines = [line for first, second, when in entries
             for line in (_line(first, bold=True), _line(second), *([_line(when)] if when else []))]
    kind = section_kinds.kind_of(make_blocks(lines), None)
    heads = " ".join(f"{first} {second}" for first, second, _when in entries)
    assert kind in (None, "workExperience", "education")
    if kind == "education":
        assert words.schooling(heads) > 0
    if kind == "workExperience":
        assert words.working(heads) > 0


def test_a_known_word_in_an_entrys_own_look_beside_a_margin_of_headings_is_no_heading():
    """JSON Resume's "even" theme: headings right-aligned in a margin, level with each section's first
    entry; "Courses" in a look of its own under a school, in the entries' column (read as a heading
    since "courses" named the certificates, it took every section after it)."""
    def draw(page):
        page.setFont("Helvetica-Bold", 24)
        page.drawString(196, 800, "Richard Hendriks")
        page.setFont("Helvetica", 10)
        page.drawString(196, 780, "richard@example.com")
        y = 740
        for heading, entry in (("Work", ("Senior Developer", "Pied Piper", "2016-12 - 2019-01")),
                               ("Education", ("Stanford University", "Bachelor of Science", "2010-09 - 2014-06"))):
            page.setFont("Helvetica", 20)
            page.drawRightString(174, y, heading)
            page.setFont("Helvetica-Bold", 16)
            page.drawString(196, y, entry[0])
            page.setFont("Helvetica", 10)
            page.drawString(196, y - 16, entry[1])
            page.drawString(196, y - 30, entry[2])
            y -= 70
        page.setFont("Helvetica", 13)
        page.drawString(196, y + 26, "Courses")
        page.setFont("Helvetica", 10)
        page.drawString(196, y + 12, "DB1101 - Basic SQL")
        page.setFont("Helvetica", 20)
        page.drawRightString(174, y - 20, "Skills")
        page.setFont("Helvetica-Bold", 16)
        page.drawString(196, y - 20, "Backend")
        page.setFont("Helvetica", 10)
        page.drawString(196, y - 36, "Python, Go, PostgreSQL")
    content = reading.read_all("pdf", drawn_pdf(draw)).content
    assert content["education"][0]["school"] == "Stanford University"
    assert "certificates" not in content
    assert {"Python", "Go", "PostgreSQL"} <= _skills(content)


def test_in_a_document_set_all_in_bold_bold_sets_no_heading_apart():
    """"Microsoft Print to PDF" marks every font bold: a line in the body's look naming a section
    ("Languages" over a skill list) must not make every line of that look a heading."""
    def draw(page):
        page.setFont("Helvetica-Bold", 18)
        page.drawString(60, 800, "AKSHAY S")
        page.setFont("Helvetica-Bold", 11)
        page.drawString(60, 780, "akshay@example.in")
        y = 740
        for text in ("EDUCATION", "Bachelor of Engineering", "Rajalakshmi Institute of Technology", "2016 - 2020",
                     "SKILLS", "Languages", "C Programming, Python", "Development Tools", "Git, Eclipse",
                     "INTERNSHIP", "Trainee", "Bharat Sanchar Nigam Limited", "June 2019 - July 2019",
                     "Monitored the telecom network of the regional office and wrote its weekly reports."):
            page.drawString(60, y, text)
            y -= 16
    content = reading.read_all("pdf", drawn_pdf(draw)).content
    assert {"Bachelor of Engineering", "Rajalakshmi Institute of Technology"} <= {
        value for school in content["education"] for value in school.values()}
    assert "Bharat Sanchar Nigam Limited" in str(content["workExperience"])
    assert {"C Programming", "Python", "Git", "Eclipse"} <= _skills(content)
    assert "customSections" not in content


def test_a_sidebars_one_heading_in_a_smaller_look_stays_a_heading():
    def draw(page):
        page.setFont("Helvetica-Bold", 24)
        page.drawString(40, 800, "Leila Haddad")
        page.setFont("Helvetica", 10)
        page.drawString(40, 782, "leila@example.jo")
        y = 740
        for heading, lines in (("WORK EXPERIENCE", ("Senior Engineer", "Najm Technology", "2019 - 2023")),
                               ("EDUCATION", ("University of Jordan", "MSc Computer Science", "2015 - 2017")),
                               ("PROJECTS", ("Ledger", "A double-entry bookkeeping service.", "2021"))):
            page.setFont("Helvetica-Bold", 16)
            page.drawString(40, y, heading)
            page.setFont("Helvetica", 10)
            for offset, text in enumerate(lines):
                page.drawString(40, y - 20 - 14 * offset, text)
            y -= 90
        page.setFont("Helvetica-Bold", 12)
        page.drawString(420, 740, "SKILLS")
        page.setFont("Helvetica", 10)
        for offset, skill in enumerate(("Python", "PostgreSQL", "Kubernetes")):
            page.drawString(420, 720 - 14 * offset, skill)
    content = reading.read_all("pdf", drawn_pdf(draw)).content
    assert {"Python", "PostgreSQL", "Kubernetes"} <= _skills(content)
