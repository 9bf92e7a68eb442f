"""Whatever a person types prints (issue 31 point 1 and 2): any Unicode text in any field yields every
document in every template; emoji and symbols are drawn, not dropped; the bullets Word pastes from its
symbol fonts are the characters they show; a character no face has is drawn as a box and named."""
from __future__ import annotations

import copy
import io
import json
import re
import zipfile

import pypdfium2
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from app.documents import FORMATS, Options, Source, html_document, render, templating
from app.documents.fonts import scripts
from tests.documents.every_section import EVERY_SECTION

pytestmark = pytest.mark.documents

TEMPLATES = templating.load_seed_templates()
BY_NAME = {t["name"]: t for t in TEMPLATES}
SYMBOLS = "🚀 ✅ 🔹 ★ ☎ ✉ ✓ ◆ → ≥ ∑ ♫"


def _source(template: dict, content: dict, title: str = "Resume") -> Source:
    return Source(html_template=template["html_template"], css=template["css_styles"], title=title,
                  content=content, visible={})


def _text_layer(data: bytes) -> str:
    pdf = pypdfium2.PdfDocument(data)
    return "".join(pdf[index].get_textpage().get_text_range() for index in range(len(pdf)))


def _with_summary(summary: str) -> dict:
    return {"personalInfo": {"name": "Ada Lovelace", "email": "ada@example.com", "summary": summary},
            "workExperience": [{"company": "Analytical Engines", "position": "Engineer", "startDate": "2020-01",
                                "endDate": "", "description": "\uf0b7 Shipped the notes\n\uf0d8 Then G"}]}


@pytest.mark.parametrize("template", TEMPLATES, ids=[t["name"] for t in TEMPLATES])
def test_an_emoji_an_arrow_or_a_word_bullet_prints_in_every_template_and_format(template):
    """Each of them once failed every PDF (500 EXPORT_FAILED): the fallback cut had no glyph for it."""
    content = _with_summary("Backend developer 🐱 shipping APIs. Go ➔ fast. \uf0b7 " + SYMBOLS)
    documents = {fmt: render(fmt, _source(template, content)) for fmt in FORMATS}
    assert all(documents.values())
    text = _text_layer(documents["pdf"])
    assert "Backend developer 🐱 shipping APIs." in text
    assert "➔" in text
    for symbol in SYMBOLS.split():  # drawn with a glyph of its own: the box reads as U+FFFD
        assert symbol in text, symbol
    assert "\ufffd" not in text
    assert "\uf0b7" not in text and "• Shipped the notes" in text.replace("\r\n", " ")


def test_emoji_sequences_print_as_one_glyph_and_read_back_as_typed():
    sequences = ["👨\u200d👩\u200d👧", "👍🏽", "🇯🇵", "1\ufe0f\u20e3", "❤\ufe0f", "🏴\U000e0067\U000e0062\U000e0073"
                 "\U000e0063\U000e0074\U000e007f"]
    data = render("pdf", _source(BY_NAME["Horizon"], _with_summary(" ".join(sequences))))
    pdf = pypdfium2.PdfDocument(data)
    page = pdf[0].get_textpage()
    text = page.get_text_range()
    for sequence in sequences:
        assert sequence in text, sequence
    # One glyph each: the family is one picture, not three people and two joiners.
    start = text.index(sequences[0])
    boxes = {tuple(round(v) for v in page.get_charbox(index)) for index in range(start, start + len(sequences[0]))}
    assert len(boxes) == 1


def test_word_and_wps_bullets_are_the_characters_they_show_in_every_format():
    content = _with_summary("\uf0a7 SQL \uf076 Go \uf0fc Done")
    source = _source(BY_NAME["Plainsight"], content)
    assert "▪ SQL ❖ Go ✓ Done" in _text_layer(render("pdf", source))
    assert "▪ SQL ❖ Go ✓ Done" in render("txt", source).decode()
    assert "▪ SQL ❖ Go ✓ Done" in re.sub(r"<[^>]+>", "", render("html", source).decode())
    document = zipfile.ZipFile(io.BytesIO(render("docx", source))).read("word/document.xml").decode()
    assert "▪ SQL ❖ Go ✓ Done" in document and "\uf0a7" not in document
    assert "▪ SQL ❖ Go ✓ Done" in json.loads(render("json", source))["basics"]["summary"]


def test_a_character_no_face_has_is_a_box_and_the_document_names_it():
    content = _with_summary("Private \ue123 unassigned \u0378 and the G clef 𝄞")
    source = _source(BY_NAME["Heritage"], content)
    _html, marks = scripts.mark_runs(html_document(source, Options(), None))
    assert marks.missing == "\ue123\u0378𝄞"
    text = _text_layer(render("pdf", source))
    assert "Private \ufffd unassigned \ufffd and the G clef \ufffd" in text  # boxes, read as U+FFFD


# Characters a person may paste, weighted towards the ones that broke documents: every plane, emoji
# sequences, variation selectors, private use, unassigned code points, controls, bidi controls, marks.
SPECIAL = ["\u0000", "\u0001", "\u001f", "\u007f", "\u0085", "\u200b", "\u200c", "\u200d", "\u200e", "\u200f",
           "\u202a", "\u202e", "\u2066", "\u2069", "\u061c", "\ufe0e", "\ufe0f", "\U000e0100", "\U000e0041",
           "\ue000", "\uf0b7", "\U000f0000", "\U0010fffd", "\ufffe", "\uffff", "\u0378", "\u0301", "\u064b",
           "\u0e49", "\u094d", "👨\u200d👩\u200d👧", "👍🏽", "🇯🇵", "1\ufe0f\u20e3", "\u2028", "\u2029", "\t", "\r",
           "\n", "\u00ad", "\ufeff", "𝕏", "𒀀", "ᚠ", "\U00020000", "\U0003134a", "ﷺ", "لا", "क्ष", "ก่", "ி"]
ANY_TEXT = st.lists(st.one_of(st.characters(exclude_categories=("Cs",)), st.sampled_from(SPECIAL)),
                    max_size=30).map("".join)
FIELDS = [("personalInfo", "name"), ("personalInfo", "summary"), ("personalInfo", "email"),
          ("personalInfo", "label"), ("workExperience", "company"), ("workExperience", "position"),
          ("workExperience", "description"), ("education", "school"), ("projects", "name"),
          ("skillGroups", "name"), ("languages", "language"), ("awards", "title")]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(template=st.sampled_from(TEMPLATES), texts=st.lists(ANY_TEXT, min_size=len(FIELDS), max_size=len(FIELDS)),
       skills=st.lists(ANY_TEXT.filter(str.strip), max_size=4), title=ANY_TEXT)
def test_any_text_in_any_field_yields_every_document(template, texts, skills, title):
    content = copy.deepcopy(EVERY_SECTION)
    for (section, field), text in zip(FIELDS, texts):
        target = content[section] if section == "personalInfo" else content[section][0]
        target[field] = text
    content["skills"] = skills
    source = _source(template, content, title)
    documents = {fmt: render(fmt, source) for fmt in FORMATS}  # each drawn once: the PDF is most of the time
    assert all(documents.values())
    assert len(pypdfium2.PdfDocument(documents["pdf"])) >= 1
