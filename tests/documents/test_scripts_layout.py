"""The layout checker over every script (issue 22 point 8): a resume with text in each script the
service prints, in every template. Every character is drawn from a face that has its glyph (checked
where the renderer picks the face), nothing lies outside the page's content box, the text layer holds
every string (what search, copy and an applicant tracking system read), right-to-left text and the
shaped scripts (Devanagari, Tamil, Thai) included, in the order they were typed."""
from __future__ import annotations

import copy
import unicodedata

import pytest

from app.documents import Options, Source, html_document, render, templating
from app.documents.fonts import faces
from tests.documents import layout
from tests.documents.test_documents import FULL

pytestmark = pytest.mark.documents

LINES = {
    "arabic": "مهندسة برمجيات في شركة Google منذ 2019",
    "hebrew": "מהנדסת תוכנה בכירה ב-Google משנת 2019",
    "devanagari": "वरिष्ठ सॉफ़्टवेयर इंजीनियर, क्षत्रिय प्रौद्योगिकी",
    "tamil": "மென்பொருள் பொறியாளர் ஸ்ரீ",
    "thai": "วิศวกรซอฟต์แวร์อาวุโส",
    "greek": "Ελένη Παπαδοπούλου, μηχανικός λογισμικού",
    "cyrillic": "Ирина Кузнецова, инженер-программист",
    "vietnamese": "Nguyễn Thị Hồng Nhung, kỹ sư phần mềm",
    "polish": "Łukasz Żółć, Gdańsk",
    "japanese": "ソフトウェアエンジニア、東京都渋谷区",
    "korean": "소프트웨어 엔지니어, 서울특별시",
    "chinese": "高级软件工程师，负责骨干网络",
}
# The lines that mix directions (an English name and a year inside right-to-left text): each run of one
# direction reads as typed; the order a reader puts a line's runs in is its own (pdfium turns a line
# around by rules of its own). Every other line, the shaped scripts' included, reads whole.
MIXED = ("arabic", "hebrew")


def direction_runs(line: str) -> list[str]:
    """The runs of words of one direction in ``line``, without the punctuation at their edges."""
    runs: list[list[str]] = []
    for word in line.split():
        core = word.strip("-.,:;()")
        rtl = any(unicodedata.bidirectional(char) in ("R", "AL") for char in core)
        for piece in ([core.split("-")[0], core.split("-", 1)[1]] if rtl and "-" in core else [core]):
            direction = any(unicodedata.bidirectional(char) in ("R", "AL") for char in piece)
            if runs and runs[-1][0] == direction:
                runs[-1][1].append(piece)
            else:
                runs.append([direction, [piece]])
    return [" ".join(words) for _direction, words in runs]
CONTENT = copy.deepcopy(FULL)
CONTENT["personalInfo"]["summary"] = "\n".join(LINES.values())
CONTENT["skills"] = [LINES["greek"], LINES["arabic"], LINES["korean"]]
CONTENT["workExperience"][0].update(position=LINES["hebrew"], company=LINES["japanese"])
TEMPLATES = templating.load_seed_templates()


@pytest.mark.parametrize("template", TEMPLATES, ids=[t["name"] for t in TEMPLATES])
def test_every_script_prints_with_its_glyphs_inside_the_page_and_in_the_text_layer(template):
    source = Source(html_template=template["html_template"], css=template["css_styles"], title="Resume",
                    content=CONTENT, visible={})
    assert faces.missing_glyphs(html_document(source, Options(), None)) == {}
    doc = layout.read(render("pdf", source, Options()))
    outside = layout.glyphs_outside(doc, layout.content_box("A4", "normal"))
    assert not outside, [(c.text, tuple(round(v) for v in c.box)) for c in outside[:10]]
    whole = [line for kind, line in LINES.items() if kind not in MIXED]
    assert not layout.missing_strings(doc, whole)
    assert not layout.missing_strings(doc, [run for kind in MIXED for run in direction_runs(LINES[kind])])
