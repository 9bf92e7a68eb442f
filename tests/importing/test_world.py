"""What resumes people publish use and the importer now reads (issue 33): headings, months and ongoing
periods in more languages, headings as plurals, compounds or after an icon, TeX accents drawn apart from
their letter, compatibility characters, and the report's notes on what was guessed (with the page, the
field it may be swapped with, and bullets run together). Measured on the world corpus by bench/import.py;
these are the rules, one by one."""
from __future__ import annotations


import pytest
from hypothesis import given, settings, strategies as st

from app.importing import dates, reading, words
from app.importing.layout import clean
from tests.resumes.test_import import docx_of
from tests.support import drawn_pdf

pytestmark = pytest.mark.documents  # no database: CI runs these in its first pass


@pytest.mark.parametrize(("heading", "section"), [
    ("Beruflicher Werdegang", "workExperience"), ("ARBEITSERFAHRUNG", "workExperience"),
    ("Schulausbildung", "education"), ("IT-Kenntnisse", "skills"), ("Sprachkenntnisse", "languages"),
    ("Parcours professionnel", "workExperience"), ("Centres d'intérêt", "interests"),
    ("Formação Acadêmica", "education"), ("Esperienze lavorative", "workExperience"), ("Werkervaring", "workExperience"),
    ("Doświadczenie zawodowe", "workExperience"), ("İş Deneyimi", "workExperience"), ("Опыт работы", "workExperience"),
    ("Образование", "education"), ("職務経歴", "workExperience"), ("技術スキル", "skills"), ("경력 사항", "workExperience"),
    ("Kinh nghiệm làm việc", "workExperience"), ("Pengalaman Kerja", "workExperience"), ("Educations", "education"),
    ("🛠 Skills", "skills"), ("ć Experience", "workExperience"), ("Work Experiences", "workExperience"),
])
def test_headings_people_write_in_many_languages(heading, section):
    assert words.section_of(heading) == section


@pytest.mark.parametrize("text", ["Résumé", "Curriculum Vitae", "Jane Doe", "Acme GmbH", "Python, Go"])
def test_words_that_are_no_heading_stay_none(text):
    assert words.section_of(text) is None


@pytest.mark.parametrize(("text", "start", "end"), [
    ("Dezember 2024 – Februar 2026", "2024-12", "2026-02"), ("10/2019 – heute", "2019-10", ""),
    ("janvier 2019 - aujourd’hui", "2019-01", ""), ("março de 2019 – atual", "2019-03", ""),
    ("сентябрь 2019 – н.в.", "2019-09", ""), ("января 2020 — по настоящее время", "2020-01", ""),
    ("2019年4月～2021年3月", "2019-04", "2021-03"), ("Okt. 2019 - Dez. 2020", "2019-10", "2020-12"),
    ("seit 03/2020", "2020-03", ""), ("depuis 2020", "2020-01", ""), ("gennaio 2018 – oggi", "2018-01", ""),
    ("2019 bis 2021", "2019-01", "2021-01"), ("maart 2017 - heden", "2017-03", ""),
])
def test_months_and_ongoing_periods_in_other_languages(text, start, end):
    period = dates.find_period(text)
    assert period is not None and (period.start, period.end) == (start, end)


def test_a_lone_year_without_since_is_no_date():
    assert dates.find_period("Software Engineer 2021") is None


def test_compatibility_characters_become_what_was_typed():
    assert clean("⽊村 ﬁnance ＡＢＣ１２３ ｘ＠ｙ.com，好") == "木村 finance ABC123 x@y.com，好"  # full-width comma kept


def test_an_accent_drawn_apart_from_its_letter_joins_it():
    """pdfTeX's OT1 fonts draw "ü" as "u" and a "¨" over it, sometimes at the end of the page's text."""
    def draw(page):
        page.setFont("Helvetica-Bold", 20)
        page.drawString(72, 760, "Jana Muller")
        page.setFont("Helvetica", 11)
        page.drawString(72, 740, "jana@example.org")
        page.setFont("Helvetica-Bold", 14)
        page.drawString(72, 700, "Experience")
        page.setFont("Helvetica", 11)
        page.drawString(72, 680, "Engineer, Fraunhofer Institut fur Solare Energiesysteme")
        page.drawString(72, 666, "2019 – 2021")
        u = 72 + page.stringWidth("Engineer, Fraunhofer Institut f", "Helvetica", 11)
        page.drawString(u + 0.6, 680, "\u00a8")       # drawn last, over the "u" of "fur"
        name_u = 72 + page.stringWidth("Jana M", "Helvetica-Bold", 20)
        page.setFont("Helvetica-Bold", 20)
        page.drawString(name_u + 2, 760, "\u00a8")
    content = reading.read_all("pdf", drawn_pdf(draw)).content
    assert content["personalInfo"]["name"] == "Jana Müller"
    assert "Fraunhofer Institut für Solare Energiesysteme" in content["workExperience"][0]["company"]


def test_the_report_notes_what_was_guessed_with_its_page_and_what_it_may_be_swapped_with():
    data = docx_of(("Title", "Ada Byron"), ("Normal", "ada@example.org"),
                   ("Heading 1", "Experience"), ("Heading 2", "Analyst, Northwind, London"),
                   ("Normal", "Jan 2019 – Mar 2021"), ("Normal", "The ledger team."),
                   ("List Bullet", "Built the ledger • Cut costs by a third"), ("List Bullet", "Hired two"))
    found = reading.read_all("docx", data)
    notes = {note["path"]: note for note in found.unsure}
    job = found.content["workExperience"][0]
    assert (job["company"], job["location"]) == ("Northwind", "London")
    assert notes["workExperience.0.location"]["swap"] == "workExperience.0.company"
    assert notes["workExperience.0.highlights.0"]["reason"] == "merged"
    assert notes["workExperience.0.highlights.0"]["parts"] == ["Built the ledger", "Cut costs by a third"]
    assert all(note.get("page", 1) == 1 for note in found.unsure)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_any_heading_text_is_a_section_or_none(text):
    assert words.section_of(text) in (None, *words.HEADINGS)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=60))
def test_any_text_gives_a_period_whose_end_is_not_before_its_start(text):
    period = dates.find_period(text)
    if period is not None and period.start and period.end:
        assert period.end >= period.start
