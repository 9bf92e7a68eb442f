"""A resume written right to left lays out right to left (issue 22 point 5): in Arabic, every template
puts its headings and text at the right, a job's dates to the left of its title, the sidebar (Meridian,
Atlas) on the right, and a phone number or an e-mail inside the Arabic keeps its own order."""
from __future__ import annotations

import re

import pytest

from app.documents import Options, Source, render, templating
from bench.export import CONTENT
from tests.documents import layout

pytestmark = pytest.mark.documents

TEMPLATES = {t["name"]: t for t in templating.load_seed_templates()}
ARABIC = CONTENT["ar"]


def _pdf(name: str, content: dict = ARABIC) -> layout.Document:
    template = TEMPLATES[name]
    return layout.read(render("pdf", Source(html_template=template["html_template"], css=template["css_styles"],
                                            title="Resume", content=content, visible={}), Options()))


def _side(title: tuple, dates: tuple) -> str | None:
    """Where a job's dates stand beside its title on their line: "left", "right", or None (another line)."""
    if dates[1] > title[3] or dates[3] < title[1]:
        return None
    return "left" if dates[2] <= title[0] + 1 else "right" if dates[0] >= title[2] - 1 else None


def _box(doc: layout.Document, text: str) -> tuple[float, float, float, float]:
    """The ink box of the first occurrence of ``text`` in the text layer (left, bottom, right, top)."""
    folded = layout.key(text)
    position = doc.key.find(folded)
    assert position >= 0, text
    chars = doc.key_chars[position:position + len(folded)]
    return (min(c.box[0] for c in chars), min(c.box[1] for c in chars), max(c.box[2] for c in chars),
            max(c.box[3] for c in chars))


@pytest.mark.parametrize("name", list(TEMPLATES))
def test_an_arabic_resume_reads_and_lays_out_right_to_left(name):
    doc = _pdf(name)
    assert not layout.missing_strings(doc, ["+1 555 0100", "candidate@example.com", "الخبرة العملية",
                                            "يناير 2010 – حتى الآن"])
    left, _bottom, right, _top = layout.content_box("A4", "normal")
    heading = _box(doc, "الخبرة العملية")
    assert heading[2] > (left + right) / 2, f"the heading is not on the right: {heading}"
    english = _pdf(name, CONTENT["en"])
    ltr = _side(_box(english, "Senior Software Engineer"), _box(english, "Jan 2010"))
    rtl = _side(_box(doc, "مهندسة برمجيات أولى"), _box(doc, "يناير 2010"))
    assert rtl == {"left": "right", "right": "left", None: None}[ltr], (ltr, rtl)  # the dates column mirrored


@pytest.mark.parametrize("name", ["Meridian", "Atlas"])
def test_the_sidebar_is_on_the_right(name):
    doc = _pdf(name)
    skill = _box(doc, "Kubernetes")
    work = _box(doc, "الخبرة العملية")
    assert skill[0] > work[2], f"the sidebar's {skill} is not right of the main column's {work}"


def test_an_arabic_resume_lists_with_the_arabic_comma_in_every_format():
    """The company and its city, skills, keywords: "شركة النجم، عمّان", not an ASCII comma, which faces
    the wrong way in a right-to-left line (issue 31 point 4). A resume in another language keeps its comma."""
    content = {"language": "ar", "personalInfo": {"name": "ليلى حداد"},
               "workExperience": [{"company": "شركة النجم", "location": "عمّان", "position": "مهندسة",
                                   "startDate": "2019-02", "endDate": ""}],
               "skillGroups": [{"name": "لغات", "keywords": ["بايثون", "Go"]}]}
    for name in ("Heritage", "Atlas"):  # a comma of its own; join(", ")
        source = Source(html_template=TEMPLATES[name]["html_template"], css=TEMPLATES[name]["css_styles"],
                        title="Resume", content=content, visible={})
        html = render("html", source).decode()
        assert "شركة النجم، عمّان" in re.sub(r"<[^>]+>", "", html), name
        assert not layout.missing_strings(layout.read(render("pdf", source, Options())), ["شركة النجم، عمّان"])
    text = render("txt", source).decode()
    assert "بايثون، Go" in text
    english = render("txt", Source(html_template="", css="", title="Resume", visible={},
                                   content={**content, "language": "en"})).decode()
    assert "بايثون, Go" in english
