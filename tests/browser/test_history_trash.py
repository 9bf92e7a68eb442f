"""Version history in the editor, the trash and "Duplicate" on the dashboard, in a real browser: a
person edits, opens the history, previews and restores an earlier version (what was typed is saved
first, or the person is asked); deletes a resume, finds it in the trash and restores it; duplicates
one; and meets the plan's limit on a restore and a copy, explained with the upgrade link."""
from __future__ import annotations

from pathlib import Path

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


def test_edit_then_restore_an_earlier_version(open_as):
    page = open_as()
    resume_id = make_resume(page, "Version one", contentJson=FIRST)
    _open_editor(page, resume_id)
    _field(page, "title").fill("Version two")
    _field(page, "contentJson.personalInfo.name").fill("Ada Lovelace")
    page.get_by_role("button", name="Remove: Language 1").click()
    _saved(page)

    page.locator("#history-toggle").click()
    versions = page.locator("#history-list > li")
    expect(versions).to_have_count(1)
    expect(versions.first).to_contain_text("Version one")
    expect(versions.first).to_contain_text("Replaced by an edit")
    versions.first.get_by_role("button").click()
    preview = page.locator("#history-preview")
    expect(preview.locator("#history-title")).to_have_text("Version one")
    expect(preview.locator(".history-person")).to_have_text("Ada")
    expect(preview.locator("h4")).to_have_text(["Work experience", "Languages"])
    expect(preview.locator("li")).to_have_text(["Engineer · Acme", "English · Native"])
    page.locator(".side-history").screenshot(path="/tmp/shots/history.png")

    # typed just before the restore: saved first, so the state the restore replaces keeps it
    _field(page, "contentJson.personalInfo.summary").fill("Typed just before the restore.")
    page.get_by_role("button", name="Restore this version").click()
    expect(page.locator("#history-state")).to_have_text("Version restored: the editor shows it now.")
    expect(_field(page, "title")).to_have_value("Version one")
    expect(_field(page, "contentJson.personalInfo.name")).to_have_value("Ada")
    expect(_field(page, "contentJson.personalInfo.summary")).to_have_value("")
    expect(_field(page, "contentJson.languages.0.language")).to_have_value("English")
    expect(page).to_have_title("Edit resume: Version one · Resume Service")
    _saved(page)
    data = api(page, "GET", f"/api/resumes/{resume_id}")["data"]
    assert data["title"] == "Version one" and data["contentJson"]["languages"] == FIRST["languages"]
    newest, oldest = _versions(page, resume_id)
    assert newest["cause"] == "restore" and newest["title"] == "Version two" and oldest["title"] == "Version one"
    replaced = api(page, "GET", f"/api/resumes/{resume_id}/versions/{newest['id']}")["data"]
    assert replaced["contentJson"]["personalInfo"]["summary"] == "Typed just before the restore."
    expect(versions).to_have_count(2)
    expect(preview).to_be_hidden()

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
