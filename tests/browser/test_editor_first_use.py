"""What a first-time user tripped over in the editor (issue 25 point 4), in a real browser: the toolbar (save state,
undo, redo) stays in view down to the end of the long form, 375 px wide too; a refused save is said at the field in
the form's words and in the page's language, the toolbar says it was not saved and takes the focus to the field,
and the preview does not claim to show it; entries are headed by what they hold, as it is typed; "Jump to preview"
and "Back to the form" by pointer and keyboard; skills have one input (groups), and an older resume's plain list
of skills is shown and saved without loss. Screenshots in /tmp/shots."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.editing import field, make_resume, open_editor, read, saved

SHOTS = Path("/tmp/shots")
SHOTS.mkdir(exist_ok=True)
WORK = [{"position": "Analyst", "company": "Initech"}, {},
        {"position": "Engineer", "company": "Acme", "startDate": "2020-01", "description": "Built things. " * 40}]
WORDS = {
    "en": {"before": "End of Experience 3 (Engineer · Acme): it cannot be before the start.",
           "refused": "End of Experience 3 (Engineer · Acme): use the form YYYY-MM, like 2024-03.",
           "failed": "Could not save: correct the marked field.", "saved": "Saved", "empty": "Experience 2",
           "behind": "The preview shows the last saved version: your latest change is not saved.",
           "updated": "Preview updated.", "jump": "Jump to preview", "back": "Back to the form",
           "plain": "Skills without a group"},
    "zh-cn": {"before": "工作经历 3 (Engineer · Acme)的“结束”：不能早于开始时间。",
              "refused": "工作经历 3 (Engineer · Acme)的“结束”：请按 YYYY-MM 格式填写，例如 2024-03。",
              "failed": "无法保存：请修改标出的字段。", "saved": "已保存", "empty": "工作经历 2",
              "behind": "预览显示的是上次保存的版本：你最新的修改尚未保存。",
              "updated": "预览已更新。", "jump": "跳到预览", "back": "回到表单", "plain": "未分组的技能"},
}


def _in_view(locator) -> bool:
    return locator.evaluate("e => { const r = e.getBoundingClientRect(); "
                            "return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight; }")


def _focused(page) -> str:
    return page.evaluate("document.activeElement.dataset.field || document.activeElement.id")


@pytest.mark.parametrize(("language", "width"), [("en", 1440), ("zh-cn", 375)])
def test_a_refused_save_is_said_where_the_user_looks(open_as, language, width):
    words = WORDS[language]
    page = open_as(language=language, theme="dark" if language == "zh-cn" else "light", width=width)
    resume_id = make_resume(page, contentJson={"workExperience": WORK, "skills": ["COBOL"]})
    open_editor(page, resume_id)
    state, note = page.locator("#save-state"), page.locator("#preview-state")
    expect(note).to_have_text(words["updated"], timeout=30_000)
    titles = page.locator('[data-list="workExperience"] > li > .entry-bar .entry-title')
    expect(titles).to_have_text(["Analyst · Initech", words["empty"], "Engineer · Acme"])  # the empty one: its number
    expect(page.locator("#plain-skills .entry-title")).to_have_text(words["plain"])
    # the heading follows the typing
    field(page, "contentJson.workExperience.1.company").fill("Globex")
    expect(titles.nth(1)).to_have_text("Globex")
    field(page, "contentJson.workExperience.1.position").fill("Lead")
    expect(titles.nth(1)).to_have_text("Lead · Globex")
    saved(page)

    # a refused value: in words at the field, "not saved" in the toolbar, and the preview does not claim it
    end = field(page, "contentJson.workExperience.2.endDate")
    end.fill("2019-05")
    error = page.locator(".field-error")
    expect(error).to_have_text(words["before"])
    # a browser without a month picker (Safari's is a text box): a date typed in another form
    end.evaluate("input => { input.type = 'text'; }")
    end.fill("2024/03")
    expect(error).to_have_text(words["refused"])
    expect(end).to_have_attribute("aria-invalid", "true")
    expect(state).to_have_attribute("data-state", "failed")
    expect(state).to_have_text(words["failed"])
    expect(note).to_have_text(words["behind"])
    page.screenshot(path=str(SHOTS / f"first-use-refused-{language}-{width}.png"))
    # the toolbar is in view at the end of the long form, and its state takes the focus back to the field
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(100)
    assert page.evaluate("window.scrollY") > 2000
    assert _in_view(state) and _in_view(page.locator("#undo")) and _in_view(page.locator("#jump"))
    page.screenshot(path=str(SHOTS / f"first-use-bottom-{language}-{width}.png"))
    state.get_by_role("button").click()
    assert _focused(page) == "contentJson.workExperience.2.endDate"
    assert _in_view(end)
    expect(end).to_have_value("2024/03")  # nothing typed is lost
    assert read(page, resume_id)["contentJson"]["workExperience"][2].get("endDate", "") == ""

    # to the preview and back: by pointer, then by keyboard
    jump = page.locator("#jump")
    expect(jump).to_have_text(words["jump"])
    jump.click()
    assert _focused(page) == "preview-panel"
    assert page.locator("#preview-panel").evaluate("e => Math.abs(e.getBoundingClientRect().top) < 200")
    expect(jump).to_have_text(words["back"])
    page.screenshot(path=str(SHOTS / f"first-use-preview-{language}-{width}.png"))
    jump.focus()
    page.keyboard.press("Enter")
    assert _focused(page) == "contentJson.workExperience.2.endDate"  # where the person was
    assert _in_view(end)
    expect(jump).to_have_text(words["jump"])
    page.keyboard.press("Shift+Tab")  # from the form, back up to the toolbar's link by keyboard
    while _focused(page) != "jump":
        page.keyboard.press("Shift+Tab")
    page.keyboard.press("Enter")
    assert _focused(page) == "preview-panel"

    # corrected: saved, and the preview is the latest again
    end.fill("2024-03")
    saved(page)
    expect(error).to_have_count(0)
    expect(note).to_have_text(words["updated"], timeout=30_000)
    assert read(page, resume_id)["contentJson"]["workExperience"][2]["endDate"] == "2024-03"
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert page.script_errors == []


def test_skills_have_one_input_and_an_older_resumes_list_is_kept(open_as):
    page = open_as()
    fresh = make_resume(page)
    open_editor(page, fresh)
    skills = page.locator('[data-section="skills"]')
    expect(skills.locator("textarea:visible")).to_have_count(0)  # no one-per-line box beside the groups
    expect(field(page, "contentJson.skills")).to_be_hidden()
    page.get_by_role("button", name="Add skill group").click()
    field(page, "contentJson.skillGroups.0.keywords").fill("Python, SQL")
    expect(skills.locator("li .entry-title")).to_have_text("Python, SQL")  # a group without a name: its skills
    field(page, "contentJson.skillGroups.0.name").fill("Backend")
    expect(skills.locator("li .entry-title")).to_have_text("Backend")
    saved(page)
    content = read(page, fresh)["contentJson"]
    assert content["skillGroups"] == [{"keywords": ["Python", "SQL"], "name": "Backend"}] and content["skills"] == []

    # a resume whose skills were typed in the removed one-per-line box (or imported so): shown, kept, editable
    old = make_resume(page, contentJson={"skills": ["Python", "SQL, PostgreSQL"],
                                         "skillGroups": [{"name": "Languages", "keywords": ["Go"]}]})
    open_editor(page, old)
    plain = field(page, "contentJson.skills")
    expect(page.locator("#plain-skills")).to_be_visible()
    expect(plain).to_have_value("Python\nSQL, PostgreSQL")
    field(page, "contentJson.skillGroups.0.keywords").fill("Go, Rust")
    saved(page)
    content = read(page, old)["contentJson"]
    assert content["skills"] == ["Python", "SQL, PostgreSQL"]  # untouched by a save of the rest
    assert content["skillGroups"] == [{"name": "Languages", "keywords": ["Go", "Rust"]}]
    plain.fill("Python\nSQL, PostgreSQL\nCOBOL")
    saved(page)
    assert read(page, old)["contentJson"]["skills"] == ["Python", "SQL, PostgreSQL", "COBOL"]
    page.locator('[data-section="skills"]').screenshot(path=str(SHOTS / "first-use-skills.png"))
    open_editor(page, old)
    expect(plain).to_have_value("Python\nSQL, PostgreSQL\nCOBOL")
    assert page.script_errors == []
