"""CJK and mixed lines break as print breaks them (app/resumes/documents/linebreak.py, scripts.py).

Each test renders a real PDF with paragraphs in a narrow box, so many lines break, and reads the
lines back from the text layer (pdfium): nothing is lost, no line starts with closing punctuation
or ends with opening punctuation, Latin words and numbers stay whole, long URLs break after a
separator, and no glyph crosses the box's right edge.
"""
from __future__ import annotations

import pytest

from tests.documents import layout

from app.documents import linebreak, pdf, scripts
from app.documents.pdf import render_pdf

pytestmark = pytest.mark.documents  # no database or queue: CI runs these in one pass (.ci/run)

BOX_LEFT, BOX_WIDTH = 72.0, 120.0  # points: a narrow column, so that lines break often
MIXED = ("负责支付平台的架构设计与性能优化，使用 Python 和 PostgreSQL 重写核心结算服务，吞吐量提升三倍。"
         "主导数据库从 MySQL 迁移到 PostgreSQL（零停机），完成十亿行数据的迁移、校验与回滚演练。"
         "联系电话 13800138000，邮箱 ming.li@example.com。")
URL = "https://github.com/mingli-dev/kubescheduler-plus/blob/main/docs/architecture/overview.md"


def document(*paragraphs: str, css: str = "") -> str:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return ("<!doctype html><html><head><meta charset='utf-8'><style>"
            f"@page {{ size: A4; margin: 72pt {595.28 - BOX_LEFT - BOX_WIDTH}pt 72pt {BOX_LEFT}pt; }}"
            f"body {{ font-family: Helvetica; font-size: 10pt; }} {css}</style></head>"
            f"<body>{body}</body></html>")


def lines(pdf: bytes) -> list[str]:
    return [segment.text for segment in layout.read(pdf).segments]


@pytest.fixture(scope="module")
def mixed_pdf() -> bytes:
    return render_pdf(document(MIXED, URL, "王小明 <b>高级后端工程师</b> at 星河科技"))


def test_every_character_is_kept_in_order(mixed_pdf):
    assert not layout.missing_strings(mixed_pdf, [MIXED, URL, "王小明 高级后端工程师 at 星河科技"])


def test_no_line_starts_with_closing_or_ends_with_opening_punctuation(mixed_pdf):
    found = lines(mixed_pdf)
    assert len(found) > 10, found  # the box is narrow: the text really wrapped
    assert not [line for line in found if line[0] in linebreak.CANNOT_START], found
    assert not [line for line in found if line.rstrip()[-1] in "（《「『【"], found


def test_latin_words_numbers_and_addresses_are_not_split(mixed_pdf):
    assert not layout.broken_words(mixed_pdf, ["PostgreSQL", "Python", "MySQL", "13800138000",
                                               "ming.li@example.com"])


def test_a_long_url_breaks_after_a_separator_and_stays_in_the_box(mixed_pdf):
    url_lines = [line for line in lines(mixed_pdf) if line.strip() and line.strip()[0] in "hgmkbdo/-"]
    assert url_lines
    for line in (line for line in lines(mixed_pdf) if "/" in line):
        assert line.rstrip()[-1] in "/-.:" or line.rstrip().endswith(URL[-10:]), line
    box = (BOX_LEFT - 1, 0, BOX_LEFT + BOX_WIDTH + 1, 842)
    assert not layout.glyphs_outside(mixed_pdf, box)


def test_cjk_runs_and_long_pieces_mark_their_block_and_latin_blocks_stay_as_they_are():
    html, marks = scripts.mark_runs(document("Plain English only.", "负责 <i>PostgreSQL</i>"))
    assert marks.kinds == {"cjk"} and marks.chars["cjk"] == set("负责") and marks.wrapped
    assert '<p class="pdf-cjk-wrap"><span class="pdf-cjk">负责</span> <i>PostgreSQL</i></p>' in html
    assert "<p>Plain English only.</p>" in html
    html, marks = scripts.mark_runs(document("See " + URL))
    assert not marks.kinds and marks.wrapped
    plain = document("Nothing to mark here.")
    html, marks = scripts.mark_runs(plain)
    assert html == plain and not marks


def test_runs_of_each_script_get_their_face_and_a_block_that_starts_right_to_left_is_laid_out_so():
    html, marks = scripts.mark_runs(document("مهندس في Google منذ 2019", "Engineer, مهندس", "वरिष्ठ इंजीनियर"))
    # a run takes the digits and spaces between and after its words: one frag for the bidi algorithm
    assert ('<p class="pdf-joined" dir="rtl"><span class="pdf-arabic">مهندس في</span> Google '
            '<span class="pdf-arabic">منذ 2019</span></p>') in html
    assert '<p class="pdf-joined">Engineer, <span class="pdf-arabic">مهندس</span></p>' in html  # starts LTR
    assert '<p class="pdf-joined"><span class="pdf-devanagari">वरिष्ठ इंजीनियर</span></p>' in html
    assert marks.kinds == {"arabic", "devanagari"} and marks.right_to_left


@pytest.mark.parametrize(("before", "after", "allowed"), [
    ("责", "平", True), ("责", "P", True), ("L", "重", True), (" ", "P", True),
    ("责", "。", False), ("责", "，", False), ("（", "零", False), ("o", "n", False),
    ("1", "3", False), ("\xa0", "P", False), ("P", " ", False), ("3", "月", False), ("年", "3", False),
])
def test_break_opportunities(before, after, allowed):
    assert linebreak.break_allowed(before, after) is allowed


def test_runs_split_by_script_digits_between_cjk_stay_in_the_templates_font():
    assert scripts.split_runs("第1事业部 Łódź’s 提升30%。") == [
        ("第", "cjk"), ("1", None), ("事业部", "cjk"), (" ", None), ("Łódź’s", "latin"), (" ", None),
        ("提升", "cjk"), ("30%", None), ("。", "cjk")]


def test_the_padding_of_an_inline_box_counts_in_a_cjk_lines_width():
    """Atlas's "主修课程" label has padding on its right: the line breaking once measured the line
    without it, and the line's last ideograph stood past the column's edge."""
    label = '<span style="padding-right: 16px; font-weight: bold">主修课程</span>'
    words = "分布式数据库系统设计与实现云计算平台架构"
    data = pdf.render_pdf(document(*(label + " " + words[:cut] + "，" + words * 2 for cut in range(12))))
    box = (BOX_LEFT - 1, 0, BOX_LEFT + BOX_WIDTH + 1, 842)
    assert not layout.glyphs_outside(data, box)
