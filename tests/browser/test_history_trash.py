"""Version history in the editor, the trash and "Duplicate" on the dashboard, in a real browser: a
person edits, opens the history, picks an earlier version, sees what changed since it (each field
with its old and new text) and the whole version, and restores it (what was typed is saved first, or
the person is asked); deletes a resume, finds it in the trash and restores it; duplicates
one; and meets the plan's limit on a restore and a copy, explained with the upgrade link."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.editing import field as _field
from tests.browser.editing import open_editor as _open_editor
from tests.browser.editing import saved as _saved

HORIZON = "741210da74ccb3737c4e58fd"  # a basic template
FIRST = {"personalInfo": {"name": "Ada"}, "languages": [{"language": "English", "fluency": "Native"}],
         "workExperience": [{"company": "Acme", "position": "Engineer"}]}


Path("/tmp/shots").mkdir(exist_ok=True)


def api(page, method: str, path: str, body: dict | None = None, status: int = 200) -> dict:
    response = page.request.fetch(path, method=method, data=body)
    assert response.status == status, response.text()
    return response.json()


def make_resume(page, title: str, **fields) -> str:
    return api(page, "POST", "/api/resumes", {"title": title, "templateId": HORIZON, **fields}, 201)["data"]["id"]


def _versions(page, resume_id: str) -> list[dict]:
    return api(page, "GET", f"/api/resumes/{resume_id}/versions")["data"]


# What the history shows of the version "Version one" once the resume was edited, in each language.
SEEN = {
    "en": {
        "cause": "Replaced by an edit",
        "changed": "Changed since this version (4)",
        "changes": ["Title: “Version one” → “Version two”", "Name: “Ada” → “Ada Lovelace”",
                    "Experience 1 · Position: “Engineer” → “Senior engineer”",
                    "Language 1 removed: “English · Native”"],
        "whole": "Show the whole version", "hide": "Hide the whole version",
        "headings": ["Personal information", "Work experience", "Languages"],
        "fields": ["Title", "Template", "Name", "Position", "Company", "Language", "Fluency"],
        "restore": "Restore this version", "restored": "Version restored: the editor shows it now.",
        "same": "Nothing has changed since this version: restoring it would change nothing.",
    },
    "zh-cn": {
        "cause": "因编辑而被替换",
        "changed": "此版本之后的改动（4 处）",
        "changes": ["标题：“Version one” → “Version two”", "姓名：“Ada” → “Ada Lovelace”",
                    "工作经历 1 · 职位：“Engineer” → “Senior engineer”",
                    "删除了语言 1：“English · Native”"],
        "whole": "显示此版本的全部内容", "hide": "收起此版本的全部内容",
        "headings": ["个人信息", "工作经历", "语言"],
        "fields": ["标题", "模板", "姓名", "职位", "公司", "语言", "熟练程度"],
        "restore": "恢复此版本", "restored": "版本已恢复，编辑器中显示的就是它。",
        "same": "此版本之后没有任何改动：恢复它不会改变任何内容。",
    },
}


@pytest.mark.parametrize("language", ["en", "zh-cn"])
def test_edit_then_see_what_changed_and_restore_an_earlier_version(open_as, language):
    seen = SEEN[language]
    page = open_as(language=language, theme="dark" if language == "zh-cn" else "light")
    resume_id = make_resume(page, "Version one", contentJson=FIRST)
    _open_editor(page, resume_id)
    _field(page, "title").fill("Version two")
    _field(page, "contentJson.personalInfo.name").fill("Ada Lovelace")
    _field(page, "contentJson.workExperience.0.position").fill("Senior engineer")
    page.locator('[data-list="languages"] [data-action="remove"]').first.click()
    _saved(page)

    page.locator("#history-toggle").click()
    versions = page.locator("#history-list > li")
    expect(versions).to_have_count(1)
    expect(versions.first).to_contain_text("Version one")
    expect(versions.first).to_contain_text(seen["cause"])
    versions.first.get_by_role("button").click()
    preview = page.locator("#history-preview")
    expect(preview.locator("#history-title")).to_have_text("Version one")
    # what changed since it, field by field, the version's text first: only the changes, the whole on demand
    expect(preview.locator("#history-changes-title")).to_have_text(seen["changed"])
    changes = preview.locator("#history-changes > li")
    expect(changes).to_have_text(seen["changes"])
    expect(changes.nth(2).locator("del")).to_have_text("“Engineer”")
    expect(changes.nth(2).locator("ins")).to_have_text("“Senior engineer”")
    whole = preview.locator("#history-whole")
    expect(whole).to_be_hidden()
    page.locator(".side-history").screenshot(path=f"/tmp/shots/history-changes-{language}.png")
    toggle = preview.locator("#history-whole-toggle")
    expect(toggle).to_have_text(seen["whole"])
    toggle.click()
    expect(toggle).to_have_attribute("aria-expanded", "true")
    expect(toggle).to_have_text(seen["hide"])
    expect(whole.locator("h4")).to_have_text(seen["headings"])
    expect(whole.locator("dt")).to_have_text(seen["fields"])
    expect(whole.locator("dd")).to_have_text(["Version one", "Horizon", "Ada", "Engineer", "Acme", "English", "Native"])
    page.locator(".side-history").screenshot(path=f"/tmp/shots/history-whole-{language}.png")

    # typed just before the restore: shown among the changes once saved, and saved before the restore
    _field(page, "contentJson.personalInfo.summary").fill("Typed just before the restore.")
    _saved(page)
    expect(changes).to_have_count(5)
    page.get_by_role("button", name=seen["restore"]).click()
    expect(page.locator("#history-state")).to_have_text(seen["restored"])
    expect(_field(page, "title")).to_have_value("Version one")
    expect(_field(page, "contentJson.personalInfo.name")).to_have_value("Ada")
    expect(_field(page, "contentJson.personalInfo.summary")).to_have_value("")
    expect(_field(page, "contentJson.workExperience.0.position")).to_have_value("Engineer")
    expect(_field(page, "contentJson.languages.0.language")).to_have_value("English")
    expect(page.locator("#undo")).to_be_enabled()  # the restore is a step of the undo (test_editor_undo.py)
    _saved(page)
    data = api(page, "GET", f"/api/resumes/{resume_id}")["data"]
    assert data["title"] == "Version one" and data["contentJson"]["languages"] == FIRST["languages"]
    newest, oldest = _versions(page, resume_id)
    assert newest["cause"] == "restore" and newest["title"] == "Version two" and oldest["title"] == "Version one"
    replaced = api(page, "GET", f"/api/resumes/{resume_id}/versions/{newest['id']}")["data"]
    assert replaced["contentJson"]["personalInfo"]["summary"] == "Typed just before the restore."
    expect(versions).to_have_count(2)
    expect(preview).to_be_hidden()
    versions.last.get_by_role("button").click()  # the version restored: the same as the resume now
    expect(preview.locator("#history-changes-title")).to_have_text(seen["same"])
    expect(changes).to_have_count(0)

    # the editor goes on saving the restored resume
    _field(page, "contentJson.personalInfo.name").fill("Ada King")
    _saved(page)
    assert api(page, "GET", f"/api/resumes/{resume_id}")["data"]["contentJson"]["personalInfo"]["name"] == "Ada King"
    assert page.script_errors == []


def test_a_restore_asks_before_losing_what_could_not_be_saved(open_as):
    page = open_as()
    resume_id = make_resume(page, "Version one", contentJson=FIRST)
    api(page, "PUT", f"/api/resumes/{resume_id}", {"title": "Version two"})  # keeps "Version one" as a version
    _open_editor(page, resume_id)
    page.locator("#history-toggle").click()
    page.locator("#history-list > li button").first.click()
    expect(page.locator("#history-title")).to_have_text("Version one")
    page.route(f"**/api/resumes/{resume_id}", lambda route: route.abort() if route.request.method == "PUT"
               else route.continue_())  # the save cannot get through
    _field(page, "contentJson.personalInfo.name").fill("Unsaved name")
    asked = []

    def answer(dialog, accept):
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", lambda dialog: answer(dialog, False))
    page.get_by_role("button", name="Restore this version").click()
    expect(page.get_by_role("button", name="Restore this version")).to_be_enabled()
    assert asked == ["Your latest changes could not be saved. Restore this version anyway and lose them?"]
    expect(_field(page, "contentJson.personalInfo.name")).to_have_value("Unsaved name")  # kept: not restored
    assert api(page, "GET", f"/api/resumes/{resume_id}")["data"]["title"] == "Version two"

    page.once("dialog", lambda dialog: answer(dialog, True))
    page.get_by_role("button", name="Restore this version").click()
    expect(_field(page, "title")).to_have_value("Version one")
    expect(_field(page, "contentJson.personalInfo.name")).to_have_value("Ada")
    assert len(asked) == 2
    page.unroute(f"**/api/resumes/{resume_id}")
    _saved(page)
    assert api(page, "GET", f"/api/resumes/{resume_id}")["data"]["title"] == "Version one"
    assert page.script_errors == []


def test_delete_find_it_in_the_trash_and_restore_it(open_as):
    page = open_as()
    make_resume(page, "Keep me")
    gone = make_resume(page, "Bring me back", contentJson=FIRST)
    page.goto("/dashboard")
    page.get_by_role("button", name="Delete Bring me back").click()
    confirm = page.get_by_role("dialog", name="Delete this resume?")
    expect(confirm).to_contain_text("goes to the trash: you can restore it there for 30 days")
    confirm.get_by_role("button", name="Delete").click()
    expect(page.locator("#resume-rows tr")).to_have_count(1)
    expect(page.locator("#resumes-usage")).to_have_text("1 of 5")

    page.get_by_role("link", name="Trash").click()
    page.wait_for_url("**/dashboard?view=trash")
    expect(page.get_by_role("heading", name="Trash")).to_be_visible()
    rows = page.locator("#resume-rows tr")
    expect(rows).to_have_count(1)
    expect(rows.first.locator(".title")).to_have_text("Bring me back")
    page.screenshot(path="/tmp/shots/trash.png", full_page=True)
    expect(rows.first.locator(".template-name")).to_have_text("Horizon")
    [item] = api(page, "GET", "/api/resumes/trash")["data"]
    expect(rows.first.locator("time.purged")).to_have_attribute("datetime", item["purgeAt"])
    page.get_by_role("button", name="Restore Bring me back").click()
    note = page.locator("#dash-note")
    expect(note).to_contain_text("“Bring me back” is back in your resumes.")
    expect(page.get_by_role("heading", name="The trash is empty")).to_be_visible()
    expect(page.locator("#resumes-usage")).to_have_text("2 of 5")
    assert api(page, "GET", "/api/resumes/trash")["data"] == []
    assert api(page, "GET", f"/api/resumes/{gone}")["data"]["contentJson"]["languages"] == FIRST["languages"]
    note.get_by_role("link", name="Open in the editor").click()
    page.wait_for_url(f"**/resumes/{gone}/edit")
    assert page.script_errors == []


def test_a_restore_past_the_plans_limit_is_explained(open_as):
    page = open_as()
    deleted = make_resume(page, "In the trash")
    api(page, "DELETE", f"/api/resumes/{deleted}")
    for n in range(5):
        make_resume(page, f"Live {n}")
    page.goto("/dashboard?view=trash")
    page.get_by_role("button", name="Restore In the trash").click()
    note = page.locator("#dash-note")
    expect(note).to_contain_text("Your plan allows 5 resumes, so this one cannot be restored. "
                                 "Delete one, or upgrade for more.")
    expect(note.get_by_role("link", name="Upgrade")).to_have_attribute("href", "/billing")
    expect(page.locator("#resume-rows tr")).to_have_count(1)
    expect(page.get_by_role("button", name="Restore In the trash")).to_be_enabled()
    assert page.script_errors == []


def test_duplicate_a_resume_and_meet_the_limit(open_as):
    page = open_as()
    original = make_resume(page, "Original", contentJson=FIRST)
    page.goto("/dashboard")
    page.get_by_role("button", name="Duplicate Original").click()
    note = page.locator("#dash-note")
    expect(note).to_contain_text("Copy made: “Original (copy)”.")
    expect(page.locator("#resume-rows tr")).to_have_count(2)
    page.screenshot(path="/tmp/shots/dashboard-duplicate.png", full_page=True)
    expect(page.locator("#resumes-usage")).to_have_text("2 of 5")
    copy = next(r for r in api(page, "GET", "/api/resumes")["data"] if r["id"] != original)
    assert copy["title"] == "Original (copy)" and copy["status"] == "DRAFT"
    assert api(page, "GET", f"/api/resumes/{copy['id']}")["data"]["contentJson"]["languages"] == FIRST["languages"]
    expect(note.get_by_role("link", name="Open in the editor")).to_have_attribute(
        "href", f"/resumes/{copy['id']}/edit")

    for n in range(3):
        make_resume(page, f"More {n}")
    page.reload()
    page.get_by_role("button", name="Duplicate Original", exact=True).click()
    expect(note).to_contain_text("Your plan allows 5 resumes, so this one cannot be copied. "
                                 "Delete one, or upgrade for more.")
    expect(note.get_by_role("link", name="Upgrade")).to_have_attribute("href", "/billing")
    assert len(api(page, "GET", "/api/resumes")["data"]) == 5
    assert page.script_errors == []


def test_an_entry_is_named_in_the_history_as_its_heading_names_it(open_as):
    """The history names an entry by the fields the section registry heads it with ("degree|studyType|area
    school": a school entry with no degree is its type of study and school), as the editor does."""
    page = open_as(language="en")
    resume_id = make_resume(page, "Schools", contentJson={
        "personalInfo": {"name": "Ada"},
        "education": [{"school": "Delft", "studyType": "Bachelor", "area": "Physics"}]})
    _open_editor(page, resume_id)
    expect(page.locator('[data-list="education"] > li h3').first).to_contain_text("Bachelor · Delft")
    page.locator('[data-list="education"] [data-action="remove"]').first.click()
    _saved(page)
    page.locator("#history-toggle").click()
    page.locator("#history-list > li").first.get_by_role("button").click()
    expect(page.locator("#history-changes > li")).to_have_text(["Education 1 removed: “Bachelor · Delft”"])
