"""Entries written as one line of prose: "2010 – 2013: Bachelor … bei Katholische Universität", "Seit
Februar 2014: Master an der Universität Bern" (a Word CV's plain paragraphs, issue 33)."""
from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import example, given, settings, strategies as st

from app.importing import dates, reading, structure
from app.importing.furniture import PAGE_NUMBER
from tests.resumes.test_import import docx_of
from tests.support import drawn_pdf


def test_a_degree_and_its_school_in_one_sentence_are_told_apart_by_the_word_between_them():
    content = reading.read_all("docx", docx_of(
        ("Normal", "Mafalda Bertani"), ("Normal", "mafalda@example.ch"),
        ("Heading 1", "Ausbildung"),
        ("Normal", "2010 - 2013: Bachelor Fremdsprachen bei Katholische Universität Mailand."),
        ("Normal", "Seit Februar 2014: Master an der Universität Bern."),
        ("Normal", "2005 - 2009: Licenciatura en Informática"),
    )).content
    assert [{k: school.get(k) for k in ("school", "degree", "startDate", "endDate")}
            for school in content["education"]] == [
        {"school": "Katholische Universität Mailand", "degree": "Bachelor Fremdsprachen", "startDate": "2010-01",
         "endDate": "2013-01"},
        {"school": "Universität Bern", "degree": "Master", "startDate": "2014-02", "endDate": None},
        # "en" before a field, not a school: one part, kept whole
        {"school": None, "degree": "Licenciatura en Informática", "startDate": "2005-01", "endDate": "2009-01"}]


@pytest.mark.parametrize(("text", "start"), [
    ("Seit Februar 2014", "2014-02"), ("since March 2020", "2020-03"), ("depuis janvier 2019", "2019-01"),
    ("desde marzo de 2018", "2018-03")])
def test_since_a_month_written_in_words_is_an_open_period(text, start):
    period = dates.find_period(text)
    assert (period.start, period.end, period.present) == (start, "", True)


def _line(text: str, level: int | None = None) -> dict:
    return {"page": 1, "x0": 0, "x1": 0, "top": 0, "bottom": 0, "base": 0, "w1": None, "style": "", "level": level,
            "bullet": False, "para": True,
            "cells": [[{"t": text, "size": 10, "font": "Arial", "bold": level is not None, "italic": False,
                        "colour": ""}]]}


_TEXT = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc", "Zl", "Zp")), min_size=1, max_size=30)


@settings(max_examples=200, deadline=None)
@given(_TEXT, st.sampled_from(["at", "bei", "an der", "presso", "en la", "à"]), _TEXT)
@example("0", "at", "0000000")  # seven digits after a word: the entry was taken for a footer's phone number
@example("0", "at", "0\uf900")
def test_no_word_of_a_one_line_school_entry_is_lost(first, connector, second):
    line = f"2010 - 2014: {first} {connector} {second}"
    content = structure.parse([_line("Ada Lovelace", 0), _line("Education", 1), _line(line)])
    kept = " ".join(str(value) for record in content.get("education", []) for value in record.values())
    kept += " ".join(str(item) for section in content.get("customSections", []) for item in section.get("items", []))
    # as typed: the import keeps text in NFC, so a CJK compatibility ideograph (U+F900) comes back canonical
    for word in re.findall(r"\w{2,}", unicodedata.normalize("NFC", f"{first} {second}")):
        if word not in {"2010", "2014"}:
            assert word in kept


def test_a_pages_number_is_no_part_of_the_resume():
    """A LinkedIn export's footer "Page 1 of 2" under "Education" was read as the school."""
    def draw(page):
        page.setFont("Helvetica-Bold", 24)
        page.drawString(220, 800, "Milan Milunovic")
        page.setFont("Helvetica", 10)
        page.drawString(40, 780, "milan@example.rs")
        page.setFont("Helvetica", 16)
        page.drawString(220, 120, "Education")
        page.setFont("Helvetica", 12)
        page.drawString(220, 95, "Racunarski fakultet")
        page.setFont("Helvetica", 9)
        page.drawString(380, 30, "Page 1 of 2")
        page.showPage()
        page.setFont("Helvetica", 10.5)
        page.drawString(220, 800, "Bachelor's degree, Computer Science · (2016 - 2020)")
        page.setFont("Helvetica", 9)
        page.drawString(380, 30, "Page 2 of 2")
    content = reading.read_all("pdf", drawn_pdf(draw)).content
    assert content["education"] == [{"school": "Racunarski fakultet", "degree": "Bachelor's degree, Computer Science",
                                     "startDate": "2016-01", "endDate": "2020-01"}]
    assert "Page" not in str(content)


@pytest.mark.parametrize(("text", "numbers"), [
    ("Page 1 of 2", True), ("2/3", True), ("- 2 -", True), ("Seite 1 von 2", True), ("第 1 页", True),
    ("Página 2 de 3", True), ("2020", False), ("Python 3", False), ("Page Design", False)])
def test_what_reads_as_a_page_number(text, numbers):
    assert bool(PAGE_NUMBER.match(text) and re.search(r"\d", text)) == numbers
