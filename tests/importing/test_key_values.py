"""Profile details printed as key–value lines or table rows, and titles around the name (issue 33):
"Name: …", "Vorname: … / Nachname: …", "Contact: +86 … Email: …" on one line, an icon before each
label, "Date of birth: …" noted rather than taken for an address, "Lebenslauf" above the name, and
"Résumé – <name>"."""
from __future__ import annotations

import io

import pytest
from docx import Document
from docx.shared import Pt
from hypothesis import given, settings, strategies as st

from app.importing import Unreadable, key_values, reading
from app.importing.layout import clean
from tests.resumes.test_import import docx_of
from tests.support import drawn_pdf

pytestmark = pytest.mark.documents  # no database: CI runs these in its first pass

BODY = (("Heading 1", "Experience"), ("Heading 2", "Analyst, Northwind"), ("Normal", "Jan 2019 – Mar 2021"))


def _personal(*paragraphs) -> tuple[dict, list[dict]]:
    found = reading.read_all("docx", docx_of(*paragraphs, *BODY))
    return found.content["personalInfo"], found.unsure


def test_labelled_lines_fill_the_fields_they_name_in_any_of_several_languages():
    personal, notes = _personal(("Normal", "Lebenslauf"), ("Normal", "Vorname: Jana"),
                                ("Normal", "Nachname: Müller"), ("Normal", "Geburtsdatum: 01.02.1990"),
                                ("Normal", "Anschrift: Hauptstraße 5, 10115 Berlin"),
                                ("Normal", "Telefon: +49 30 1234 5678"), ("Normal", "E-Mail: jana@example.org"))
    assert personal["name"] == "Jana Müller"
    assert personal["address"] == "Hauptstraße 5, 10115 Berlin"
    assert (personal["phone"], personal["email"]) == ("+49 30 1234 5678", "jana@example.org")
    assert {"path": "personalInfo", "reason": "unplaced", "text": "Geburtsdatum: 01.02.1990"} in notes


def test_two_labelled_details_on_one_line_are_each_read():
    personal, _ = _personal(("Title", "Xingchen Lin"),
                            ("Normal", "Contact: (+86) 15101669791 Email:lin@example.com"))
    assert (personal["phone"], personal["email"]) == ("(+86) 15101669791", "lin@example.com")


def test_a_name_in_a_key_value_table_row_is_the_name():
    document = Document()
    table = document.add_table(rows=3, cols=2)
    for row, (label, value) in zip(table.rows, [("姓名", "张伟"), ("邮箱", "zhang.wei@example.cn"),
                                                ("出生日期", "1995.03")]):
        row.cells[0].text, row.cells[1].text = label, value
    for style, text in BODY:
        document.add_paragraph(text, style=style)
    out = io.BytesIO()
    document.save(out)
    personal = reading.read_all("docx", out.getvalue()).content["personalInfo"]
    assert personal["name"] == "张伟" and personal["email"] == "zhang.wei@example.cn"


def test_icons_before_labels_on_a_pdfs_details_line():
    def draw(page):
        page.setFont("Helvetica-Bold", 20)
        page.drawString(72, 760, "Boris Lichev")
        page.setFont("Helvetica", 10)
        page.drawString(72, 740, "* Email: boris@example.bg  # Phone: (+359) 879665580  @ Website: vtori.xyz")
        page.drawString(72, 726, "Date of birth: 24/06/2000 Nationality: Bulgarian")
        page.setFont("Helvetica-Bold", 14)
        page.drawString(72, 700, "WORK EXPERIENCE")
        page.setFont("Helvetica", 10)
        page.drawString(72, 684, "Intern, Acibadem City Clinic")
        page.drawString(72, 670, "03/2023 – Current")
    found = reading.read_all("pdf", drawn_pdf(draw))
    personal = found.content["personalInfo"]
    assert (personal["email"], personal["phone"]) == ("boris@example.bg", "(+359) 879665580")
    assert personal["url"] == "https://vtori.xyz"
    assert "address" not in personal  # the date of birth is no address
    assert [note for note in found.unsure if "Date of birth: 24/06/2000" in note["text"]]


@pytest.mark.parametrize(("printed", "name"), [
    ("Résumé – Ada Lovelace", "Ada Lovelace"), ("Ada Lovelace | CV", "Ada Lovelace"),
    ("Curriculum Vitae of Ada Lovelace", "Ada Lovelace"), ("Ada Lovelace", "Ada Lovelace")])
def test_a_name_framed_by_the_documents_title_is_the_name_alone(printed, name):
    personal, _ = _personal(("Title", printed), ("Normal", "ada@example.org"))
    assert personal["name"] == name


def test_the_documents_title_above_the_name_is_not_the_name():
    personal, _ = _personal(("Normal", "CURRICULUM VITAE"), ("Normal", "Ada Lovelace"), ("Normal", "ada@example.org"))
    assert personal["name"] == "Ada Lovelace"


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=120))
def test_any_line_yields_pairs_whose_values_are_in_it(text):
    for field, value in key_values.pairs(text):
        assert field in key_values.LABELS or field in ("email", "phone", "address", "url")
        assert value and value in text
    assert key_values.unframed(text) in text or not text.strip()


def test_a_europass_like_entry_with_an_open_start_and_its_employer_in_body_type():
    """Europass's layout (positions and sizes as a published one prints them): dates in a left column
    ("January 2018 –", then the title), the employer under the title in the body's type, and
    "PERSONAL INFORMATION" left of the name under the document's title."""
    def draw(page):
        page.setFont("Helvetica", 8)
        page.drawString(40, 800, "Curriculum vitae")
        page.drawString(40, 760, "PERSONAL INFORMATION")
        page.setFont("Helvetica", 13)
        page.drawString(188, 760, "Lennart Jern")
        page.setFont("Helvetica", 8)
        page.drawString(188, 744, "lennart@example.fi")
        page.setFont("Helvetica", 10)
        page.drawString(40, 610, "WORK EXPERIENCE")
        for top, (period, title, employer, text) in zip((584,), [
                ("January 2018 – ", "Software Engineer", "Elastisys",
                 "Kubernetes administration and migrations to Kubernetes for customers of every size.")]):
            page.setFont("Helvetica", 8)
            page.setFillColorRGB(0.05, 0.25, 0.58)   # the left column's blue
            page.drawRightString(177, top, period)
            page.setFont("Helvetica", 11)
            page.drawString(188, top, title)
            page.setFont("Helvetica", 8)
            page.setFillColorRGB(0, 0, 0)
            page.drawString(188, top - 14, employer)
            for line in range(3):
                page.drawString(188, top - 28 - 11 * line, text)
    content = reading.read_all("pdf", drawn_pdf(draw)).content
    assert content["personalInfo"]["name"] == "Lennart Jern"
    assert "Curriculum vitae" not in content["personalInfo"].values()
    [job] = content["workExperience"]
    assert (job["position"], job["company"], job["startDate"]) == ("Software Engineer", "Elastisys", "2018-01")
    assert not job.get("endDate") and job["description"].startswith("Kubernetes administration")


def test_numbered_headings_and_a_tex_bullet_with_no_unicode_mapping():
    """A LaTeX article's sections are numbered ("2 Opleiding"); its bullet, with no Unicode mapping in
    the font, reads as a C1 control character, which is no text."""
    def draw(page):
        page.setFont("Helvetica-Bold", 16)
        page.drawString(72, 780, "Sam Vermeulen")
        page.setFont("Helvetica", 10)
        page.drawString(72, 764, "sam@example.be")
        page.setFont("Helvetica-Bold", 14)
        page.drawString(72, 730, "2 Opleiding")
        page.setFont("Helvetica", 10)
        page.drawString(80, 712, "\x88  2011-2015: Informatica, Universiteit Gent")
        page.setFont("Helvetica-Bold", 14)
        page.drawString(72, 690, "3 Studentenervaringen")
        page.setFont("Helvetica", 10)
        page.drawString(80, 672, "\x88  2016: stage bij Amplidata Gent")
    content = reading.read_all("pdf", drawn_pdf(draw)).content
    assert content["sectionOrder"][:2] == ["education", "workExperience"]
    school = content["education"][0]
    assert (school["degree"], school["school"], school["startDate"]) == ("Informatica", "Universiteit Gent", "2011-01")


@pytest.mark.parametrize("align", ["left", "centre"])
def test_a_name_set_large_over_two_lines_is_one_name(align):
    def draw(page):
        page.setFont("Helvetica-Bold", 36)
        for top, word in ((780, "Gregorio"), (742, "Bujor")):
            if align == "left":
                page.drawString(40, top, word)
            else:
                page.drawCentredString(150, top, word)
        page.setFont("Helvetica", 18)
        page.drawString(40, 700, "Desarrollador Full-Stack")
        page.setFont("Helvetica", 10)
        page.drawString(40, 680, "goyo@example.es")
        page.setFont("Helvetica-Bold", 14)
        page.drawString(40, 640, "Experiencia")
        page.setFont("Helvetica", 10)
        page.drawString(40, 622, "Desarrollador, Acme · 2019 – 2021")
    personal = reading.read_all("pdf", drawn_pdf(draw)).content["personalInfo"]
    assert personal["name"] == "Gregorio Bujor"


def test_a_name_on_the_line_of_the_contact_details_is_the_name_alone():
    personal, _ = _personal(("Normal", "Banele Madikane | 071 8984 206 | banele@example.co.za"))
    assert (personal["name"], personal["phone"], personal["email"]) == (
        "Banele Madikane", "071 8984 206", "banele@example.co.za")


def test_a_numbered_heading_style_and_entries_titled_in_two_looks():
    """LibreOffice's outline numbering on Heading 2 (a heading, not a list item), the first job titled in
    Heading 3 and the others in bold body type, each with a line of dates under its title."""
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    document = Document()
    document.add_paragraph("Dan Edens", style="Title")
    document.add_paragraph("dan@example.com")
    heading = document.add_paragraph("Work Experience", style="Heading 2")
    numbering = OxmlElement("w:numPr")
    for tag in ("w:ilvl", "w:numId"):
        value = OxmlElement(tag)
        value.set(qn("w:val"), "0" if tag == "w:ilvl" else "1")
        numbering.append(value)
    heading._p.get_or_add_pPr().append(numbering)
    document.add_paragraph("Minim - QA Automation Engineer", style="Heading 3")
    document.add_paragraph("09/2022 - 09/2023")
    for text in ("Automated testing of firmware.", "Bug reporting and regression testing."):
        document.add_paragraph(text, style="List Bullet")
    for title, period in (("Geo Instruments - Project Coordinator", "06/2018 - 09/2022"),
                          ("AMEC Earth & Environmental - Laboratory Technician", "03/2013 - 03/2014")):
        document.add_paragraph().add_run(title).bold = True
        document.add_paragraph(period)
        document.add_paragraph("Installed monitoring equipment.", style="List Bullet")
    out = io.BytesIO()
    document.save(out)
    jobs = reading.read_all("docx", out.getvalue()).content["workExperience"]
    assert [(job["company"], job["position"], job["startDate"]) for job in jobs] == [
        ("Minim", "QA Automation Engineer", "2022-09"), ("Geo Instruments", "Project Coordinator", "2018-06"),
        ("AMEC Earth & Environmental", "Laboratory Technician", "2013-03")]


def test_a_name_with_its_title_and_details_run_together_with_spaces():
    personal, _ = _personal(("Normal", "Карпухин Никита, Unity разработчик"),
                            ("Normal", "Россия, Москва, Telegram: https://t.me/Krpfsh  +7(977)314-11-79"),
                            ("Normal", "E-mail: nik@example.com  GitHub: https://github.com/Krpfsh"))
    assert (personal["name"], personal["label"]) == ("Карпухин Никита", "Unity разработчик")
    assert (personal["phone"], personal["email"]) == ("+7(977)314-11-79", "nik@example.com")
    assert {p["network"] for p in personal["profiles"]} == {"Telegram", "GitHub"}


def test_a_german_tabular_cv_prints_the_employer_first_and_the_title_under_it():
    """Dates in a column of their own ("1 - 2/2013": two months of one year), the employer (with its place)
    on the first line and the title under it; a title no word tells apart follows the section's other
    entries."""
    def draw(page):
        page.setFont("Helvetica-Bold", 16)
        page.drawString(72, 790, "Lebenslauf")
        page.setFont("Helvetica", 10)
        page.drawString(72, 766, "Name:")
        page.drawString(180, 766, "Jörg Teichmann")
        page.drawString(72, 752, "E-Mail:")
        page.drawString(180, 752, "joerg@example.de")
        page.setFont("Helvetica-Bold", 13)
        page.drawString(72, 720, "Beruflicher Werdegang")
        top = 700
        for period, employer, title in (("12/2014 – 3/2015", "FAB Bertelmann Technologie Dresden", "Programmierer"),
                                        ("1 - 2/2013", "Wesser Werbung, Stuttgart", "Mitgliederwerber"),
                                        ("5 - 11/2012", "TechniSat Digital GmbH, Dresden", "Entwicklungsingenieur")):
            page.setFont("Helvetica", 10)
            page.drawRightString(225, top, period)   # as printed: the dates right-aligned in their column
            page.drawString(234, top, employer)
            page.setFont("Helvetica-Oblique", 10)
            page.drawString(234, top - 13, title)
            top -= 32
    content = reading.read_all("pdf", drawn_pdf(draw)).content
    assert content["personalInfo"]["name"] == "Jörg Teichmann"
    assert [(job["company"], job["position"], job["startDate"]) for job in content["workExperience"]] == [
        ("FAB Bertelmann Technologie Dresden", "Programmierer", "2014-12"),
        ("Wesser Werbung", "Mitgliederwerber", "2013-01"), ("TechniSat Digital GmbH", "Entwicklungsingenieur", "2012-05")]


@pytest.mark.parametrize(("head", "position", "company", "location"), [
    ("Software Developer, CMGd Atlanta, GA", "Software Developer", "CMGd", "Atlanta, GA"),
    ("Software Engineer, IDEAL Technology\tOrlando, FL", "Software Engineer", "IDEAL Technology", "Orlando, FL"),
    ("Data Analyst, Acme Corp New York, NY", "Data Analyst", "Acme Corp", "New York, NY"),
])
def test_a_us_city_and_state_after_the_employer_is_the_location(head, position, company, location):
    found = reading.read_all("docx", docx_of(("Title", "Greg Meno"), ("Normal", "greg@example.com"),
                                             ("Heading 1", "Experience"), ("Heading 2", head),
                                             ("Normal", "6/2010 – 6/2012"), ("Normal", "Built the CMS.")))
    job = found.content["workExperience"][0]
    assert (job["position"], job["company"], job["location"]) == (position, company, location)


def test_a_name_set_large_after_text_boxes_anchored_before_it_is_the_name():
    """Word's text boxes come first in the file when anchored to the first paragraph: the header holds
    a sidebar's lines, and the name, set in 36 pt, comes later in the body."""
    document = Document()
    document.add_paragraph("200%")
    document.add_paragraph("Pasión")
    document.add_paragraph("Habilidades", style="Heading 1")
    document.add_paragraph("HTML", style="List Bullet")
    document.add_paragraph("Datos personales", style="Heading 1")
    name = document.add_paragraph().add_run("Rody Castro Cuello")
    name.font.size = Pt(36)
    document.add_paragraph("rody@example.do")
    out = io.BytesIO()
    document.save(out)
    assert reading.read_all("docx", out.getvalue()).content["personalInfo"]["name"] == "Rody Castro Cuello"



def test_a_c1_control_character_is_no_text():
    """pdfTeX's glyphs with no Unicode mapping (a bullet, an icon before a phone number) read as C1
    control characters: dropped, not taken for a list's marker (which hid contact lines from the header)."""
    assert clean("\x88  2011-2015: Informatica") == "2011-2015: Informatica"
    assert clean("\x83 +420 777 123 456 \x84 jana@example.cz") == "+420 777 123 456 jana@example.cz"


def test_a_title_styled_line_of_contact_details_alone_names_no_one():
    personal, notes = _personal(("Title", "ada@example.org | +44 20 7946 0000"))
    assert (personal["email"], personal["phone"]) == ("ada@example.org", "+44 20 7946 0000")
    assert "name" not in personal and {"path": "personalInfo.name", "reason": "not_found", "text": ""} in notes


_LINE = st.one_of(st.text(max_size=60), st.sampled_from([
    "ada@example.org | +44 20 7946 0000", "Name: Ada", "Vorname: Jana", "Lebenslauf", "Résumé – Ada", "3 - 4/2014",
    "January 2018 – Engineer", "Contact: (+86) 151 0166 9791 Email: a@b.cn", "2 Opleiding", "Atlanta, GA"]))


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["Title", "Normal", "Heading 1", "Heading 2", "List Bullet"]), _LINE),
                min_size=1, max_size=12))
def test_any_document_of_such_lines_is_read_without_an_error(paragraphs):
    """Whatever the lines and their styles, the reading answers a content or says the file holds no text."""
    paragraphs = [(style, "".join(ch for ch in text if ch.isprintable())) for style, text in paragraphs]
    try:
        found = reading.read_all("docx", docx_of(*paragraphs))
    except Unreadable as error:
        assert error.reason == "no_text"
    else:
        assert isinstance(found.content.get("personalInfo", {}), dict)
