"""CJK and mixed lines break as print breaks them (app/documents/pdf/linebreak.py, fonts/scripts.py).

Each test renders a real PDF with paragraphs in a narrow box, so many lines break, and reads the
lines back from the text layer (pdfium): nothing is lost, no line starts with closing punctuation
or ends with opening punctuation, Latin words and numbers stay whole, long URLs break after a
separator, and no glyph crosses the box's right edge.
"""
from __future__ import annotations

import copy
import unicodedata

import pytest

from tests.documents import layout
from tests.documents.test_documents import FULL

from app.documents import Options, Source, pdf, render, templating
from app.documents.fonts import scripts
from app.documents.pdf import linebreak
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


# Thai writes no space between the words of a phrase: a line ends between two words, which a dictionary
# finds (PyThaiNLP), never inside one. The words checked are listed by hand, not by that dictionary.
THAI = ("วิศวกรซอฟต์แวร์ที่มีประสบการณ์ทำงานด้านการพัฒนาระบบชำระเงินมากกว่าแปดปี "
        "เชี่ยวชาญการออกแบบสถาปัตยกรรมไมโครเซอร์วิสและฐานข้อมูลขนาดใหญ่ "
        "นำทีมย้ายระบบจากเซิร์ฟเวอร์ภายในองค์กรขึ้นสู่คลาวด์โดยไม่มีการหยุดให้บริการ",
        "ผู้จัดการโครงการที่รับผิดชอบงบประมาณและกำหนดการของทีมพัฒนาผลิตภัณฑ์ทั้งหมดในสำนักงานกรุงเทพมหานคร")
THAI_WORDS = ("วิศวกร", "ซอฟต์แวร์", "ประสบการณ์", "ทำงาน", "การพัฒนา", "ระบบ", "ชำระเงิน", "มากกว่า",
              "เชี่ยวชาญ", "ออกแบบ", "สถาปัตยกรรม", "เซอร์วิส", "ข้อมูล", "ขนาด", "เซิร์ฟเวอร์", "ภายใน",
              "องค์กร", "คลาวด์", "บริการ", "ผู้จัดการ", "โครงการ", "รับผิดชอบ", "งบประมาณ", "กำหนดการ",
              "ผลิตภัณฑ์", "ทั้งหมด", "สำนักงาน", "กรุงเทพมหานคร")


def _letters(text: str) -> str:
    """Thai as its letters: decomposed (ำ is ํ + า, as the shaper draws it), without vowel and tone marks
    (the text layer may give a mark out of place) or spaces."""
    return "".join(c for c in unicodedata.normalize("NFKD", text)
                   if not c.isspace() and unicodedata.category(c) != "Mn")


def test_thai_lines_end_between_words_and_keep_every_letter():
    found = [_letters(segment.text) for segment in layout.read(render_pdf(document(*THAI))).segments]
    assert len(found) > 12, found  # the box is narrow: the text really wrapped
    text = "".join(found)
    assert text == "".join(_letters(paragraph) for paragraph in THAI)
    ends = {sum(len(line) for line in found[:count]) for count in range(1, len(found))}
    split = [(word, text[at - 8:at] + "|" + text[at:at + 8])
             for word in map(_letters, THAI_WORDS)
             for start in [i for i in range(len(text)) if text.startswith(word, i)]
             for at in ends if start < at < start + len(word)]
    assert not split, split


def test_thai_in_these_lines_is_still_shaped_and_drawn_whole():
    """Each line's Thai is shaped once the line is decided: ำ is drawn (as ํ and า, which the font cut
    once lacked: a box), and the tone mark of ที่ stands above its vowel rather than on it."""
    doc = layout.read(render_pdf(document(THAI[0], "ที่ทำงาน")))
    assert unicodedata.normalize("NFKD", "ทำงาน") in unicodedata.normalize("NFKD", doc.text)
    assert "\ufffd" not in doc.text and not any(ord(c) < 32 and c not in "\r\n\t\f" for c in doc.text)
    short = next(segment for segment in doc.segments if _letters(segment.text) == _letters("ที่ทำงาน"))
    vowel = next(c for c in short.chars if c.text == "\u0e35")
    tone = next(c for c in short.chars if c.text == "\u0e48")
    assert tone.box[1] > vowel.box[1] + 0.5, (vowel.box, tone.box)


def test_devanagari_in_a_block_broken_as_cjk_is_shaped_as_elsewhere():
    """A block with Chinese in it is laid out by the CJK line breaker; its Hindi words were once set
    letter by letter there (virama showing), wider than the same words in a block of their own."""
    hindi = "वरिष्ठ क्षत्रिय"
    doc = layout.read(render_pdf(document(hindi, "负责 " + hindi)))

    def width(segment) -> float:
        chars = [c for c in segment.chars if "\u0900" <= c.text[:1] <= "\u097f"]
        return max(c.box[2] for c in chars) - min(c.box[0] for c in chars)
    alone, mixed = (s for s in doc.segments if any("\u0900" <= c.text[:1] <= "\u097f" for c in s.chars))
    assert abs(width(alone) - width(mixed)) < 0.5, (width(alone), width(mixed))


def _consecutive(lines: list[str], text: str) -> list[str]:
    """The run of ``lines`` that makes up ``text``, one after another (empty when there is none)."""
    for first in range(len(lines)):
        run, joined = [], ""
        for line in lines[first:]:
            if not text.startswith(joined + line):
                break
            run.append(line)
            joined += line
            if joined == text:
                return run
    return []


THAI_RESUME = copy.deepcopy(FULL)
THAI_RESUME["personalInfo"].update(name="สมศรี ใจดี", address="กรุงเทพมหานคร", summary=THAI[0])
THAI_RESUME["workExperience"][0].update(position="วิศวกรซอฟต์แวร์อาวุโส", company="บริษัท ดาวเหนือ เทคโนโลยี",
                                        description=THAI[1])


@pytest.mark.parametrize("template", templating.load_seed_templates(), ids=lambda t: t["name"])
def test_a_thai_resume_prints_thai_headings_and_dates_and_breaks_its_lines_between_words(template):
    """No language set: it is read from the text (Thai), so headings and dates are Thai too."""
    source = Source(html_template=template["html_template"], css=template["css_styles"], title="Resume",
                    content=THAI_RESUME, visible={})
    doc = layout.read(render("pdf", source, Options()))
    assert not layout.glyphs_outside(doc, layout.content_box("A4", "normal"))
    text = _letters(doc.text)
    for words in ("ประสบการณ์ทำงาน", "ประวัติการศึกษา", "มี.ค. 2021", "ปัจจุบัน", "สมศรี"):
        assert _letters(words) in text, words
    found = [_letters(segment.text) for segment in doc.segments]
    for paragraph in THAI:  # each of its lines ends between two words
        letters = _letters(paragraph)
        lines = _consecutive(found, letters)
        assert lines, (letters, found)
        ends = {sum(len(line) for line in lines[:count]) for count in range(1, len(lines))}
        assert not [(word, at) for word in map(_letters, THAI_WORDS)
                    for start in [i for i in range(len(letters)) if letters.startswith(word, i)]
                    for at in ends if start < at < start + len(word)]


def test_a_date_in_a_nowrap_cell_too_narrow_for_it_breaks_at_its_space_not_inside_a_number():
    """Jinghua's dates column is ``white-space: nowrap`` and 118 px wide: "2017年4月 – 2019年10月" did not
    fit, and its emergency cut fell between the 1 and the 0 of October (the importer then read 2019-01)."""
    html = ("<html><head><meta charset='utf-8'><style>@page { size: A4; margin: 72pt; }"
            "td.date { width: 118px; white-space: nowrap; font-size: 9pt; }</style></head><body><table><tr>"
            "<td>北京启明星辰软件有限公司 资深软件工程师</td><td class='date'>2017年4月 – 2019年10月</td>"
            "</tr></table></body></html>")
    found = [line.replace("\xa0", "").replace(" ", "") for line in lines(render_pdf(html))]
    # the dash goes with either date: the spaces around it are kept (a nowrap text's edge spaces were lost)
    assert any(line.endswith("2019年10月") for line in found) and any(line.startswith("2017年4月") for line in found), found
    assert not any(line.endswith(("2019年1", "2019年")) for line in found), found
