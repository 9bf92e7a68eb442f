"""Contact details and dates where other generators put them (issue 23 point 1): a footer, a frame drawn
after the body, icon names in the text, mailto: links, a country code wrapped away from its number,
years without months and dates printed before each entry. Measured on real documents by
bench/import.py; these are the rules, one by one."""
from __future__ import annotations

import io

import pytest
from reportlab.lib.pagesizes import A4
from reportlab.pdfgen import canvas

from app.importing import dates, reading, words
from tests.resumes.test_import import docx_of

pytestmark = pytest.mark.documents  # no database: CI runs these in its first pass


@pytest.mark.parametrize(("text", "kept"), [
    ("email@example.com", "email@example.com"),     # "email" is the address, not its label
    ("MOBILE-ALT 123-456-7890", "MOBILE-ALT 123-456-7890"),
    ("Email: ada@example.com", "ada@example.com"), ("Tel.: 0161 496 0000", "0161 496 0000"),
    ("电话138 0013 8000", "138 0013 8000"), ("电话 Phone 138 0013 8000", "138 0013 8000"),
])
def test_a_label_is_a_word_of_its_own(text, kept):
    assert words.strip_label(text) == kept


@pytest.mark.parametrize(("text", "start", "end", "year_only"), [
    ("2007-2010", "2007-01", "2010-01", True), ("2010-2014 (expected)", "2010-01", "2014-01", True),
    ("2018 – Present", "2018-01", "", True), ("Jun 2014 – 2014", "2014-06", "2014-06", True),
    ("Mar 2021 – Jun 2023", "2021-03", "2023-06", False),
])
def test_a_year_without_its_month_is_its_january_and_said_so(text, start, end, year_only):
    period = dates.find_period(text)
    assert (period.start, period.end, period.year_only) == (start, end, year_only)
    assert dates.is_date_text(text)


def test_contact_details_in_a_footer_icon_names_and_mailto_links():
    content = reading.read_all("docx", docx_of(
        ("Title", "Jake Ryan"),
        ("Heading 1", "Experience"), ("Heading 2", "Software Engineer, Initech"),
        ("Normal", "2019 – 2021"), ("Normal", "Kept the reports flowing."),
        ("Heading 1", "Education"), ("Heading 2", "BSc Computer Science, Southwestern University"),
        ("Normal", "2014-2018"),
        ("Normal", "MOBILE-ALT 123-456-7890 • Envelope mailto:jake@su.edu • GLOBE-AMERICAS github.com/jake"),
    )).content
    personal = content["personalInfo"]
    assert (personal["email"], personal["phone"]) == ("jake@su.edu", "123-456-7890")
    assert personal["profiles"][0]["url"] == "https://github.com/jake"
    # the footer is not left in the last entry, and a years' range is no phone number
    school = content["education"][0]
    assert (school["startDate"], school["endDate"]) == ("2014-01", "2018-01")
    assert "123-456-7890" not in str(content["education"])


def test_a_country_code_wrapped_away_from_its_number():
    content = reading.read_all("docx", docx_of(
        ("Title", "张伟"), ("Normal", "Ȳ (+86)"), ("Normal", "138-0013-8000"), ("Normal", "zhang.wei@email.com"),
        ("Heading 1", "工作经历"), ("Heading 2", "联合创始人, 星河科技"), ("Normal", "2019.03 – 至今"))).content
    assert content["personalInfo"]["phone"] == "(+86) 138-0013-8000"
    assert "label" not in content["personalInfo"]


def test_the_header_of_a_frame_drawn_after_the_body_is_the_header():
    """LibreOffice draws a frame with the name and contact details after the page's body text."""
    out = io.BytesIO()
    page = canvas.Canvas(out, pagesize=A4)
    page.setFont("Helvetica-Bold", 12)
    page.drawString(220, 700, "Experience")
    page.setFont("Helvetica", 10)
    page.drawString(220, 680, "Senior Full Stack Developer")
    page.drawString(450, 680, "Jan 2019 – Present")
    page.setFont("Helvetica-Oblique", 10)
    page.drawString(220, 666, "Pied Piper")
    page.setFont("Helvetica", 22)
    page.drawString(40, 800, "Richard Hendriks")                    # drawn last, standing first
    page.setFont("Helvetica", 10)
    page.drawString(40, 770, "richard.hendriks@mail.com / (912) 555-4321 / San Francisco, California")
    page.showPage()
    page.save()
    content = reading.read_all("pdf", out.getvalue()).content
    personal = content["personalInfo"]
    assert (personal["name"], personal["email"], personal["phone"]) == \
        ("Richard Hendriks", "richard.hendriks@mail.com", "(912) 555-4321")
    assert content["workExperience"][0]["company"] == "Pied Piper"


def test_dates_printed_before_each_entry_and_under_it():
    before = reading.read_all("docx", docx_of(
        ("Title", "Johnny Coder"), ("Heading 2", "Education"),
        ("Normal", "2010-2014 (expected)"), ("Normal", "PhD, Computer Science; Awesome University"),
        ("Normal", "2007-2010"), ("Normal", "BSc, Computer Science; University of HomeTown"))).content
    assert [(s.get("startDate"), s.get("endDate")) for s in before["education"]] == \
        [("2010-01", "2014-01"), ("2007-01", "2010-01")]
    assert not any(s.get("school") == "(expected)" for s in before["education"])
    under = reading.read_all("docx", docx_of(
        ("Title", "Clarence Taylor"), ("Heading 1", "Experience"),
        ("Normal", "Senior Web Developer — Intelitec Solutions"), ("Normal", "Mar 2013 – Present"),
        ("Normal", "Web Developer — Intelitec Solutions"), ("Normal", "Dec 2011 – Mar 2013"))).content
    assert [(j.get("startDate"), j.get("endDate", "")) for j in under["workExperience"]] == \
        [("2013-03", ""), ("2011-12", "2013-03")]


def test_years_without_months_are_reported_to_be_checked():
    found = reading.read_all("docx", docx_of(
        ("Title", "Ada"), ("Normal", "ada@example.com"), ("Heading 1", "Experience"),
        ("Heading 2", "Analyst, Difference Engine Society"), ("Normal", "2001 – 2003")))
    assert {"path": "workExperience.0.startDate", "reason": "year_only", "text": "2001-01"} in found.unsure
