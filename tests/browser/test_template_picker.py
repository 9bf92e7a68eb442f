"""Templates with your own resume (issue 25 point 2), in a real browser: the editor's picker shows every
template drawn from this resume (the resume's own picture addresses, loaded), one click switches the template
(saved; the preview follows), Ctrl+Z switches back, Escape closes the picker and the focus returns to its
button; the editor pre-warms the pictures once its preview is shown; the dashboard shows each resume's first
page beside its title. In English, then in Chinese (the same account, its language changed: the pictures of
that version are drawn already), where the switch and its undo are made."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import served
from tests.browser.editing import make_resume, open_editor, read, saved

WORDS = {"en": {"dialog": "Choose a template", "picture": "Your resume in the", "first": "First page of"},
         "zh-cn": {"dialog": "选择模板", "picture": "你的简历在", "first": "的第一页"}}
CONTENT = {"personalInfo": {"name": "Grace Hopper", "summary": "Compiler pioneer."},
           "workExperience": [{"company": "Remington Rand", "position": "Mathematician", "startDate": "1949-01"}]}
LOADED = "images => images.map(i => i.complete && i.naturalWidth > 0)"
BATCHES = "performance.getEntriesByType('resource').filter((r) => r.name.includes('/template-previews?')).length"
PREWARMED = ("n => performance.getEntriesByType('resource')"
             ".filter((r) => r.name.includes('/template-previews/')).length >= n")


@pytest.fixture
def live(make_app):
    """The app served with the editor's pre-warm on (TEMPLATE_PREWARM; off for the other browser tests)."""
    with served(make_app, TEMPLATE_PREWARM="true") as found:
        yield found


def test_the_picker_draws_every_template_with_the_resume_and_a_switch_is_undone(open_as):
    words = WORDS["en"]
    page = open_as()
    resume_id = make_resume(page, contentJson=CONTENT)
    other_id = make_resume(page, title="Second resume", contentJson=CONTENT)
    templates = page.request.get("/api/templates").json()["data"]
    open_editor(page, resume_id)
    preview = page.locator("#preview-pages")
    expect(preview).to_have_attribute("data-state", "ready")
    before = read(page, resume_id)["templateId"]
    page.wait_for_function(PREWARMED, arg=len(templates))  # once the preview is shown, before the picker opens

    opener = page.locator("#template-picker-open")
    dialog, choices = _open_picker(page, words, resume_id, templates)
    expect(choices.locator('[aria-current="true"]')).to_have_attribute("data-template-id", before)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(opener).to_be_focused()
    resumes = ((resume_id, "My resume"), (other_id, "Second resume"))
    _dashboard_shows_first_pages(page, words, resumes)

    # in Chinese (the same version: its pictures are drawn already), then the switch and its undo
    assert page.request.put("/api/account", data={"preferences": {"language": "zh-cn"}}).ok
    words = WORDS["zh-cn"]
    open_editor(page, resume_id)
    expect(preview).to_have_attribute("data-state", "ready")
    dialog, choices = _open_picker(page, words, resume_id, templates)
    target = next(t for t in templates if t["id"] != before and t["tier"] == "basic")
    shown = preview.get_attribute("data-version")
    choices.locator(f'[data-template-id="{target["id"]}"]').click()  # one click switches
    expect(dialog).to_be_hidden()
    expect(opener).to_be_focused()
    saved(page)
    assert read(page, resume_id)["templateId"] == target["id"]
    expect(preview).not_to_have_attribute("data-version", shown)  # the preview is drawn in the new template

    batches = page.evaluate(BATCHES)
    page.keyboard.press("Control+z")
    saved(page)
    expect(page.locator('#editor-form [data-field="templateId"]')).to_have_value(before)
    assert read(page, resume_id)["templateId"] == before
    # the picker was opened in this page: the new version's pictures are drawn ahead once the preview is shown
    page.wait_for_function(f"n => ({BATCHES}) > n", arg=batches)
    assert page.script_errors == []
    _dashboard_shows_first_pages(page, words, resumes)


def _open_picker(page, words, resume_id, templates):
    page.locator("#template-picker-open").click()
    dialog = page.get_by_role("dialog", name=words["dialog"])
    expect(dialog).to_be_visible()
    choices = page.locator("#template-picker-list")
    expect(choices).to_have_attribute("data-state", "ready")
    images = choices.locator("img")
    expect(images).to_have_count(len(templates))
    sources = images.evaluate_all("images => images.map(i => new URL(i.src).pathname)")
    assert sources == [f"/api/resumes/{resume_id}/template-previews/{t['id']}.png" for t in templates]
    assert all(images.evaluate_all(LOADED))
    assert all(words["picture"] in alt for alt in images.evaluate_all("images => images.map(i => i.alt)"))
    return dialog, choices


def _dashboard_shows_first_pages(page, words, resumes):
    page.goto("/dashboard")
    pictures = page.locator("#resume-rows .first-page")
    expect(pictures).to_have_count(2)
    expect(pictures.first).to_have_js_property("complete", True)
    page.wait_for_function("() => [...document.querySelectorAll('#resume-rows .first-page')]"
                           ".every(i => i.complete && i.naturalWidth > 0)")
    rows = page.locator("#resume-rows tr")
    for resume, title in resumes:
        picture = rows.filter(has_text=title).locator(".first-page")
        assert f"/api/resumes/{resume}/first-page.png" in picture.get_attribute("src")
        alt = picture.get_attribute("alt")
        assert title in alt and words["first"] in alt
