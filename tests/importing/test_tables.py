"""Tables with a header row read one record a row, each column as its header names it (issue 33)."""
from __future__ import annotations

import io

import pytest
from docx import Document
from hypothesis import given, settings, strategies as st

from app.importing import reading, tables
from tests.support import drawn_pdf

pytestmark = pytest.mark.documents  # no database: CI runs these in its first pass


def _docx_with_table(heading: str, rows: list[list[object]]) -> bytes:
    """A DOCX: a name, an e-mail, ``heading`` and a table of ``rows`` (a cell given as a list is
    several paragraphs, one starting with "• " set as a bullet)."""
    document = Document()
    document.add_paragraph("Jana Müller", style="Title")
    document.add_paragraph("jana@example.org")
    document.add_paragraph(heading, style="Heading 1")
    table = document.add_table(rows=len(rows), cols=len(rows[0]))
    for row, values in zip(table.rows, rows):
        for cell, value in zip(row.cells, values):
            paragraphs = value if isinstance(value, list) else [value]
            cell.text = paragraphs[0]
            for text in paragraphs[1:]:
                cell.add_paragraph(text[2:], style="List Bullet") if text.startswith("• ") \
                    else cell.add_paragraph(text)
    document.add_paragraph("Skills", style="Heading 1")
    document.add_paragraph("Python, SQL")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_a_docx_education_table_reads_one_school_a_row_by_its_columns():
    data = _docx_with_table("Education", [["School", "Period", "Degree"],
                                          ["TU Dresden", "10/2012 – 09/2015", "Master Informatik"],
                                          ["HTW Berlin", "2009 – 2012", "Bachelor Wirtschaftsinformatik"]])
    found = reading.read_all("docx", data)
    assert found.content["education"] == [
        {"school": "TU Dresden", "degree": "Master Informatik", "startDate": "2012-10", "endDate": "2015-09"},
        {"school": "HTW Berlin", "degree": "Bachelor Wirtschaftsinformatik", "startDate": "2009-01",
         "endDate": "2012-01"}]
    # the years alone are asked about; the header row is no heading nor a record
    assert {"path": "education.1.startDate", "reason": "year_only", "text": "2009-01"} in found.unsure
    assert found.content["skills"] == ["Python", "SQL"]


def test_a_docx_work_table_in_chinese_keeps_each_cells_paragraphs_and_bullets_in_its_row():
    data = _docx_with_table("工作经历", [
        ["时间", "公司", "职位", "工作内容"],
        ["2019.07 – 至今", "北京字节跳动科技有限公司", "高级工程师",
         ["负责推荐系统的后端服务。", "• 设计并上线特征平台", "• 将延迟降低 40%"]],
        ["2016.07 – 2019.06", ["腾讯科技（深圳）有限公司", "深圳"], "工程师", "开发广告投放系统。"]])
    jobs = reading.read_all("docx", data).content["workExperience"]
    assert [(job["company"], job["position"], job["startDate"], job.get("endDate")) for job in jobs] == [
        ("北京字节跳动科技有限公司", "高级工程师", "2019-07", None),
        ("腾讯科技（深圳）有限公司 深圳", "工程师", "2016-07", "2019-06")]
    assert jobs[0]["description"] == "负责推荐系统的后端服务。"
    assert jobs[0]["highlights"] == ["设计并上线特征平台", "将延迟降低 40%"]
    assert jobs[1]["description"] == "开发广告投放系统。"


def test_a_table_with_from_and_to_columns_reads_each_end_of_the_period():
    data = _docx_with_table("Berufserfahrung", [["Von", "Bis", "Arbeitgeber", "Position"],
                                                ["03/2018", "heute", "clockwork GbR", "Programmierer"],
                                                ["01/2015", "02/2018", "Muster AG", "Werkstudent"]])
    jobs = reading.read_all("docx", data).content["workExperience"]
    assert [(j["company"], j["position"], j["startDate"], j.get("endDate")) for j in jobs] == [
        ("clockwork GbR", "Programmierer", "2018-03", None), ("Muster AG", "Werkstudent", "2015-01", "2018-02")]


def test_a_pdf_table_with_a_header_row_and_a_wrapped_cell():
    def draw(page):
        page.setFont("Helvetica-Bold", 20)
        page.drawString(72, 780, "Jana Muller")
        page.setFont("Helvetica", 10)
        page.drawString(72, 762, "jana@example.org")
        page.setFont("Helvetica-Bold", 14)
        page.drawString(72, 730, "WORK EXPERIENCE")
        page.setFont("Helvetica-Bold", 10)
        for x, text in ((72, "Company"), (240, "Position"), (400, "Period")):
            page.drawString(x, 710, text)
        page.setFont("Helvetica", 10)
        for y, row in ((694, ("Northwind Payments Ltd", "Data Analyst", "Jan 2019 - Mar 2021")),
                       (664, ("Contoso", "Intern", "Jun 2018 - Aug 2018"))):
            for x, text in zip((72, 240, 400), row):
                page.drawString(x, y, text)
        page.drawString(72, 680, "London")           # the first row's company cell, wrapped
        page.setFont("Helvetica-Bold", 14)
        page.drawString(72, 630, "SKILLS")
        page.setFont("Helvetica", 10)
        page.drawString(72, 614, "Python, SQL, Excel")
    jobs = reading.read_all("pdf", drawn_pdf(draw)).content["workExperience"]
    assert [(j["company"], j["position"], j["startDate"], j["endDate"]) for j in jobs] == [
        ("Northwind Payments Ltd London", "Data Analyst", "2019-01", "2021-03"),
        ("Contoso", "Intern", "2018-06", "2018-08")]


@pytest.mark.parametrize("texts", [["School", "Period", "Degree"], ["公司", "职位", "时间"],
                                   ["Zeitraum", "Arbeitgeber", "Position"], ["Dates / Period:", "Employer"]])
def test_header_rows_in_several_languages(texts):
    assert tables.header_roles(texts) is not None


@pytest.mark.parametrize("texts", [["Python", "Go"], ["Northwind", "Analyst", "2019 – 2021"], ["School"],
                                   ["Date", "Date"], ["Name", "Ada Lovelace"]])
def test_lines_that_are_not_header_rows(texts):
    assert tables.header_roles(texts) is None


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.text(st.characters(exclude_categories=("Cs", "Cc")), max_size=20), min_size=3, max_size=3),
                min_size=1, max_size=4))
def test_any_rows_under_a_header_row_import_without_an_error(rows):
    data = _docx_with_table("Experience", [["Company", "Position", "Dates"], *rows])
    found = reading.read_all("docx", data)
    assert found.content["personalInfo"]["email"] == "jana@example.org"


def _cid_font(name: str) -> None:
    """Register one of reportlab's built-in CJK fonts (the reader's, not embedded) for drawing."""
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont

    pdfmetrics.registerFont(UnicodeCIDFont(name))


def _rirekisho(page):
    """A JIS-style 履歴書 drawn as a grid form: labels above their values, then year | month | event rows."""
    page.setFont("HeiseiMin-W3", 16)
    page.drawString(54, 800, "履歴書")
    page.setFont("HeiseiMin-W3", 10)
    page.drawString(260, 800, "2022年 7月 1日 現在")
    page.drawString(59, 770, "ふりがな")
    page.drawString(116, 770, "やまだ はなこ")
    page.drawString(59, 750, "氏名")
    page.setFont("HeiseiMin-W3", 18)
    page.drawString(116, 730, "山田 花子")
    page.setFont("HeiseiMin-W3", 10)
    page.drawString(59, 700, "TEL. 080-1234-5678")
    page.drawString(300, 700, "MAIL. hanako@example.jp")
    page.drawString(73, 670, "年")
    page.drawString(118, 670, "月")
    page.drawString(264, 670, "学歴・職歴")
    page.drawString(334, 652, "学歴")
    rows = [("平成24", "3", "東京都立青山高等学校 卒業"), ("2012", "4", "京都大学工学部 入学"),
            ("2016", "3", "京都大学工学部 卒業"), ("2016", "4", "株式会社サンプル 入社"),
            ("2018", "10", "開発部に配属"), ("2021", "6", "株式会社サンプル 退職"), ("2021", "7", "合同会社テスト 入社")]
    y = 634
    for index, (year, month, what) in enumerate(rows):
        if index == 3:
            page.drawString(334, y, "職歴")
            y -= 18
        page.drawString(60, y, year)
        page.drawString(112, y, month)
        page.drawString(149, y, what)
        y -= 18
    page.drawString(149, y, "現在に至る")
    page.drawString(519, y - 18, "以上")


def test_a_rirekisho_reads_its_dated_rows_as_schools_and_jobs_and_its_form_labels():
    _cid_font("HeiseiMin-W3")
    found = reading.read_all("pdf", drawn_pdf(_rirekisho))
    content = found.content
    assert content["personalInfo"]["name"] == "山田 花子"      # under 氏名, not the form's date nor its ふりがな
    assert "label" not in content["personalInfo"]
    assert content["education"] == [
        {"school": "東京都立青山高等学校", "endDate": "2012-03"},
        {"school": "京都大学工学部", "startDate": "2012-04", "endDate": "2016-03"}]
    assert content["workExperience"] == [
        {"company": "株式会社サンプル", "startDate": "2016-04", "endDate": "2021-06", "description": "開発部に配属"},
        {"company": "合同会社テスト", "startDate": "2021-07"}]
    assert {"path": "personalInfo", "reason": "unplaced", "text": "ふりがな やまだ はなこ"} in [
        {key: note[key] for key in ("path", "reason", "text")} for note in found.unsure]


@pytest.mark.parametrize("text", ["履歴書 2022年 7月 1日 現在", "Lebenslauf, Stand: 01.03.2020"])
def test_a_title_with_the_day_it_was_written_is_no_name(text):
    from app.importing import key_values

    assert key_values.is_title(text)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(1900, 2100), st.integers(1, 12),
                          st.text(st.characters(exclude_categories=("Cs", "Cc", "Zs", "Zl", "Zp")), min_size=1,
                                  max_size=12),
                          st.sampled_from(["入学", "卒業", "入社", "退職", "合格", "配属", ""])), max_size=8))
def test_any_dated_rows_make_records_whose_dates_are_their_rows(rows):
    from app.importing import history_rows
    from app.importing.layout import Block, Fragment

    blocks = [Block([[Fragment(f"{year}")], [Fragment(f"{month}")], [Fragment(f"{name} {event}")]])
              for year, month, name, event in rows]
    found, rest = history_rows.take(blocks)
    written = {f"{year:04d}-{month:02d}" for year, month, _name, _event in rows}
    for records in found.values():
        for record in records:
            assert {record.get(k) for k in ("startDate", "endDate", "date")} - {None} <= written
    assert len(rest) <= len(blocks)


def test_section_names_stacked_in_a_margin_and_drawn_last_head_their_sections():
    _cid_font("STSong-Light")

    def draw(page):
        page.setFont("STSong-Light", 20)
        page.drawString(240, 800, "个人简历")
        page.setFont("STSong-Light", 10)
        page.drawString(122, 760, "\uf06c 姓名：邓书珊")
        page.drawString(122, 742, "\uf06c 邮箱：shan@example.cn")
        page.drawString(122, 680, "\uf06c")
        page.drawString(142, 680, "南京农业大学")
        page.drawString(250, 680, "计算机科学与技术")
        page.drawString(460, 680, "2013.09 - 2017.06")
        page.drawString(122, 630, "\uf06c")
        page.drawString(142, 630, "数据库：Oracle，MySQL")
        page.setFont("STSong-Light", 13)       # the margin's labels, drawn after the body
        for top, text in ((700, "教育"), (685, "背景"), (650, "专业"), (635, "技能")):
            page.drawString(92, top, text)
    content = reading.read_all("pdf", drawn_pdf(draw)).content
    assert content["education"] == [{"school": "南京农业大学", "degree": "计算机科学与技术", "startDate": "2013-09",
                                     "endDate": "2017-06"}]
    assert content["skillGroups"] == [{"name": "数据库", "keywords": ["Oracle", "MySQL"]}]
    assert content["personalInfo"]["name"] == "邓书珊"


@pytest.mark.parametrize(("text", "start", "end"), [
    ("01/10/2021 bis 31/03/2022", "2021-10", "2022-03"), ("01.10.2021 - 31.03.2022", "2021-10", "2022-03"),
    ("2021-10-01 – 2022-03-31", "2021-10", "2022-03"), ("03/31/2022 - 04/15/2023", "2022-03", "2023-04"),
    ("seit 01.03.2020", "2020-03", "")])
def test_dates_written_with_their_day_are_read_to_the_month(text, start, end):
    from app.importing import dates

    period = dates.find_period(text)
    assert (period.start, period.end) == (start, end)


def test_two_columns_headed_on_one_line_read_each_column_under_its_heading():
    def draw(page):
        page.setFont("Helvetica-Bold", 24)
        page.drawString(180, 780, "Anna Schmidt")
        page.setFont("Helvetica", 11)
        page.drawString(30, 750, "anna@example.de")
        page.setFont("Helvetica-Bold", 16)
        page.drawString(58, 700, "BILDUNG")            # each heading centred over its column
        page.drawString(350, 700, "BERUFSERFAHRUNG")
        for x, lines in ((308, ("01/10/2021 bis 31/03/2022", "Werkstudent", "Muster GmbH")),   # drawn first
                         (38, ("10/2016 - 07/2020", "Bachelor of Engineering", "Hochschule Kempten"))):
            for y, text, font in zip((670, 656, 642), lines, ("Helvetica", "Helvetica-Bold", "Helvetica")):
                page.setFont(font, 11)
                page.drawString(x, y, text)
    content = reading.read_all("pdf", drawn_pdf(draw)).content
    work, education = str(content["workExperience"]), str(content["education"])
    assert "Werkstudent" in work and "Muster GmbH" in work and "Hochschule" not in work
    assert content["workExperience"][0]["startDate"] == "2021-10"
    assert "Hochschule Kempten" in education and "Muster" not in education
    assert content["education"][0]["startDate"] == "2016-10"
