"""An import reads resumes written in Spanish (and the commonest French, German and Portuguese headings),
letter-spaced headings and the dashes other generators put in a date range (issue 23 point 1). Measured
on real documents by bench/import.py; these are the rules, one by one."""
from __future__ import annotations

import pytest

from app.importing import dates, reading, words
from tests.resumes.test_import import docx_of

pytestmark = pytest.mark.documents  # no database: CI runs these in its first pass


@pytest.mark.parametrize(("heading", "section"), [
    ("Experiencia profesional", "workExperience"), ("EXPERIENCIA", "workExperience"), ("Work", "workExperience"),
    ("Formación académica", "education"), ("Educación", "education"), ("Conocimientos técnicos", "skills"),
    ("Idiomas", "languages"), ("Premios y reconocimientos", "awards"), ("Datos de contacto", "contact"),
    ("Sobre mí", "summary"), ("S U M M A RY", "summary"), ("W O R K  E X P E R I E N C E", "workExperience"),
    ("Exp erience", "workExperience"), ("Ski lls", "skills"),
    ("Berufserfahrung", "workExperience"), ("Compétences", "skills"), ("Experiência profissional", "workExperience"),
])
def test_headings_in_other_languages_and_letter_spaced(heading, section):
    assert words.section_of(heading) == section


@pytest.mark.parametrize(("text", "start", "end"), [
    ("ago. 2018 – may. 2021", "2018-08", "2021-05"), ("jun. 2020 – Actualidad", "2020-06", ""),
    ("sept. 2018–may. 2023", "2018-09", "2023-05"), ("enero de 2019 - marzo de 2020", "2019-01", "2020-03"),
    ("May 2022 \u2011 Aug 2022", "2022-05", "2022-08"), ("dic 2015 a feb 2017", "2015-12", "2017-02"),
])
def test_spanish_months_and_the_dashes_of_other_generators(text, start, end):
    period = dates.find_period(text)
    assert period is not None and (period.start, period.end) == (start, end)


def test_spanish_roles_and_employers_are_told_apart():
    assert words.position_score("Técnico de soporte informático") > words.position_score("Universidad Southwestern")
    assert words.degree_score("Licenciatura en Informática") > words.degree_score("Universidad de Princeton")


def test_a_spanish_docx_lands_in_its_fields():
    content = reading.read_all("docx", docx_of(
        ("Title", "Lucía Fernández"), ("Normal", "lucia@example.es | +34 612 345 678"),
        ("Heading 1", "Experiencia profesional"), ("Heading 2", "Ingeniera de software, Banco Sabadell"),
        ("Normal", "mar. 2019 – Actualidad"), ("Normal", "Migró los pagos a PostgreSQL."),
        ("Heading 1", "Formación académica"), ("Heading 2", "Universidad de Granada"),
        ("Normal", "Grado en Ingeniería Informática"), ("Normal", "sept. 2012 – jun. 2016"),
        ("Heading 1", "Conocimientos técnicos"), ("Normal", "Python, Go, PostgreSQL"))).content
    job, school = content["workExperience"][0], content["education"][0]
    assert (job["position"], job["company"], job["startDate"], job.get("endDate", "")) == \
        ("Ingeniera de software", "Banco Sabadell", "2019-03", "")  # Actualidad: still there
    degree = school.get("degree") or school.get("studyType")  # a degree line without a field of study
    assert (school["school"], degree, school["startDate"], school["endDate"]) == \
        ("Universidad de Granada", "Grado en Ingeniería Informática", "2012-09", "2016-06")
    assert content["skills"] == ["Python", "Go", "PostgreSQL"]


def test_a_range_whose_end_a_narrow_column_wrapped_is_read_whole():
    """"2021年6月 –" on one line and "2023年8月" on the next (Jinghua's dates column, A4): one period."""
    first = dates.find_period("2021年6月 –")
    assert dates.opens_range("2021年6月 –", first) and not dates.opens_range("2021年6月", dates.find_period("2021年6月"))
    assert dates.closing("2021-06", "2023年8月").end == "2023-08"
    assert dates.closing("2021-06", "至今").present and dates.closing("2021-06", "Led the team") is None


@pytest.mark.parametrize("text", ["بايثون، Go، Java", "Python，Go，Java", "Python、Go、Java", "Python؛ Go؛ Java",
                                  "Python; Go; Java"])
def test_a_list_splits_at_the_commas_and_semicolons_of_every_script(text):
    """Issue 31: "بايثون، Go" and "Java，Go" stayed one keyword."""
    from app.importing.entries import split_list
    assert len(split_list(text)) == 3
