"""Whatever a person types, in the editor (issue 31): Arabic typed into a field runs right to left and a
comma-separated field splits at the Arabic comma; a character no font draws is named under the preview
and with the export, which still succeeds; an export that fails says why. In both languages."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LANGUAGES
from tests.browser.editing import field, make_resume, open_editor, read, saved

pytestmark = pytest.mark.browser

UNDRAWN = {"en": "Some characters print as a box", "zh-cn": "有些字符会印成方框"}


@pytest.mark.parametrize("language", LANGUAGES)
def test_arabic_runs_right_to_left_and_lists_split_at_the_arabic_comma(open_as, language):
    page = open_as(language=language)
    resume_id = make_resume(page)
    open_editor(page, resume_id)
    summary = field(page, "contentJson.personalInfo.summary")
    summary.fill("مهندسة برمجيات")
    assert summary.evaluate("element => getComputedStyle(element).direction") == "rtl"
    name = field(page, "contentJson.personalInfo.name")
    name.fill("Ada Lovelace")
    assert name.evaluate("element => getComputedStyle(element).direction") == "ltr"
    page.get_by_role("button", name="Add skill group" if language == "en" else "添加技能组").click()
    field(page, "contentJson.skillGroups.0.keywords").fill("بايثون، Go؛ Java，Rust")
    saved(page)
    assert read(page, resume_id)["contentJson"]["skillGroups"][0]["keywords"] == ["بايثون", "Go", "Java", "Rust"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_character_no_font_draws_is_named_and_the_pdf_is_still_made(open_as, language):
    page = open_as(language=language)
    resume_id = make_resume(page, contentJson={"personalInfo": {"name": "Ada", "summary": "Rocket 🚀 and \ue123"}})
    open_editor(page, resume_id)
    note = page.locator("#preview-undrawn")
    expect(note).to_be_visible()
    expect(note).to_contain_text(UNDRAWN[language])
    expect(note).to_contain_text("U+E123")
    expect(note).not_to_contain_text("1F680")  # the rocket is drawn
    page.locator('button[data-format="pdf"]').click()
    result = page.locator("#export-result .notice")
    expect(result).to_contain_text("U+E123")
    field(page, "contentJson.personalInfo.summary").fill("Rocket 🚀 only")
    saved(page)
    expect(note).to_be_hidden()
    assert not page.script_errors
