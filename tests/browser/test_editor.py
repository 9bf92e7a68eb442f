"""The resume editor in a real browser: every field saves (read back through the API), entries are
added, removed and reordered by keyboard and by drag, visibility, status and template, the scores
after a job description, the autosave's states (a refused title, a lost request), the prompt before
leaving with unsaved changes; in both languages and themes, and 375 px wide."""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LANGUAGES, THEMES
from tests.browser.editing import field as _field
from tests.browser.editing import make_resume as _resume
from tests.browser.editing import open_editor as _open_editor
from tests.browser.editing import read as _read
from tests.browser.editing import saved as _saved


def _api_calls(page) -> list[str]:
    calls = []
    page.on("request", lambda r: "/api/" in r.url and calls.append(f"{r.method} {r.url.split('/api/', 1)[1]}"))
    return calls


def test_every_field_saves(open_as):
    page = open_as()
    resume_id = _resume(page)
    calls = _api_calls(page)
    _open_editor(page, resume_id)
    _field(page, "title").fill("Backend engineer")
    _field(page, "contentJson.personalInfo.name").fill("Ada Lovelace")
    _field(page, "contentJson.personalInfo.email").fill("ada@example.com")
    _field(page, "contentJson.personalInfo.phone").fill("+44 20 7946 0000")
    _field(page, "contentJson.personalInfo.address").fill("12 St James's Square, London")
    _field(page, "contentJson.personalInfo.summary").fill("Analyst of engines.")
    page.get_by_role("button", name="Add skill group").click()  # skills: groups, the one way to enter them
    _field(page, "contentJson.skillGroups.0.keywords").fill("Python, SQL,, Mathematics")
    page.get_by_role("button", name="Add experience").click()
    _field(page, "contentJson.workExperience.0.position").fill("Analyst")
    _field(page, "contentJson.workExperience.0.company").fill("Analytical Engine Co")
    _field(page, "contentJson.workExperience.0.startDate").fill("2020-01")
    _field(page, "contentJson.workExperience.0.endDate").fill("2023-06")
    _field(page, "contentJson.workExperience.0.description").fill("Wrote the first program.")
    page.get_by_role("button", name="Add education").click()
    _field(page, "contentJson.education.0.school").fill("University of London")
    _field(page, "contentJson.education.0.degree").fill("Mathematics")
    _field(page, "contentJson.education.0.startDate").fill("2015-09")
    _saved(page)
    page.get_by_role("button", name="Add project").click()
    _field(page, "contentJson.projects.0.name").fill("Notes on the engine")
    _field(page, "contentJson.projects.0.url").fill("https://example.com/notes")
    _field(page, "contentJson.projects.0.description").fill("Translation with notes.")
    _field(page, "contentJson.projects.0.technologies").fill("Punched cards, Bernoulli numbers")
    _field(page, "contentJson.projects.0.highlights").fill("Note G\nFirst algorithm")
    _field(page, "contentJson.projects.0.startDate").fill("1842-09")
    _saved(page)
    data = _read(page, resume_id)
    content = data["contentJson"]
    assert data["title"] == "Backend engineer"
    assert content["personalInfo"] == {"name": "Ada Lovelace", "email": "ada@example.com",
                                       "phone": "+44 20 7946 0000", "address": "12 St James's Square, London",
                                       "summary": "Analyst of engines."}
    assert content["skillGroups"] == [{"keywords": ["Python", "SQL", "Mathematics"]}] and content["skills"] == []
    assert content["workExperience"] == [{"position": "Analyst", "company": "Analytical Engine Co",
                                          "startDate": "2020-01", "endDate": "2023-06",
                                          "description": "Wrote the first program."}]
    assert content["education"] == [{"school": "University of London", "degree": "Mathematics",
                                     "startDate": "2015-09", "endDate": ""}]
    [project] = content["projects"]
    assert project["id"] and project["name"] == "Notes on the engine"
    assert project["technologies"] == ["Punched cards", "Bernoulli numbers"]
    assert project["highlights"] == ["Note G", "First algorithm"]
    assert project["url"] == "https://example.com/notes" and project["startDate"] == "1842-09"
    # the project went through the project-entry endpoints: the same entry, listed there (typed faster than
    # the autosave's pause, the whole entry goes in its POST, and no PUT follows)
    assert f"POST resumes/{resume_id}/projects" in calls
    assert page.request.get(f"/api/resumes/{resume_id}/projects").json()["data"] == [project]
    expect(page).to_have_title(re.compile("Backend engineer"))
    # the page shows what was saved when opened again
    _open_editor(page, resume_id)
    expect(_field(page, "contentJson.projects.0.technologies")).to_have_value("Punched cards, Bernoulli numbers")
    expect(_field(page, "contentJson.skillGroups.0.keywords")).to_have_value("Python, SQL, Mathematics")
    assert page.script_errors == []


WORK = [{"company": f"Company {n}", "position": f"Role {n}", "startDate": "", "endDate": "", "description": ""}
        for n in (1, 2, 3)]


def _companies(page, resume_id):
    return [entry["company"] for entry in _read(page, resume_id)["contentJson"]["workExperience"]]


def test_entries_by_keyboard(open_as):
    page = open_as()
    resume_id = _resume(page, contentJson={"workExperience": WORK})
    _open_editor(page, resume_id)
    down = page.get_by_role("button", name="Move down: Experience 1")
    down.focus()
    page.keyboard.press("Enter")
    # the focus stays on the moved entry, now the second
    focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert focused == "Move down: Experience 2 (Role 1 · Company 1)"  # its place, and what it holds
    page.keyboard.press("Enter")  # and on to the last place: its Move down is off, so Move up has the focus
    focused = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert focused == "Move up: Experience 3 (Role 1 · Company 1)"
    expect(page.locator("#editor-live")).to_have_text("Entry moved to position 3.")
    _saved(page)
    assert _companies(page, resume_id) == ["Company 2", "Company 3", "Company 1"]
    # remove the first by keyboard; add one by keyboard and type into it
    page.get_by_role("button", name="Remove: Experience 1").focus()
    page.keyboard.press("Enter")
    page.get_by_role("button", name="Add experience").focus()
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.dataset.field") == "contentJson.workExperience.2.position"
    page.keyboard.type("Role 4")
    _saved(page)
    assert _companies(page, resume_id) == ["Company 3", "Company 1", ""]
    assert _read(page, resume_id)["contentJson"]["workExperience"][2]["position"] == "Role 4"
    assert page.script_errors == []


def test_entries_by_drag(open_as):
    page = open_as()
    calls = _api_calls(page)
    # tall enough that no scrolling happens mid-drag (Chromium drops a drag when the page scrolls under it)
    page.set_viewport_size({"width": 1440, "height": 3400})
    projects = [{"name": f"Project {n}"} for n in (1, 2, 3)]
    resume_id = _resume(page, contentJson={"workExperience": WORK, "projects": projects})
    ids = [p["id"] for p in _read(page, resume_id)["contentJson"]["projects"]]
    _open_editor(page, resume_id)
    entries = page.locator('[data-list="workExperience"] > li')
    entries.nth(2).locator(".drag-handle").drag_to(entries.nth(0))
    expect(_field(page, "contentJson.workExperience.0.company")).to_have_value("Company 3")
    _saved(page)
    assert _companies(page, resume_id) == ["Company 3", "Company 1", "Company 2"]
    projects = page.locator('[data-list="projects"] > li')
    page.locator('[data-list="projects"]').evaluate("list => list.scrollIntoView()")
    projects.nth(0).locator(".drag-handle").drag_to(projects.nth(2))
    expect(_field(page, "contentJson.projects.2.name")).to_have_value("Project 1")
    _saved(page)
    saved = _read(page, resume_id)["contentJson"]["projects"]
    assert [p["name"] for p in saved] == ["Project 2", "Project 3", "Project 1"]
    assert [p["id"] for p in saved] == [ids[1], ids[2], ids[0]]  # the same entries, moved
    # a project removed (the second in the list: "Project 3") goes through DELETE .../projects/<id>
    page.get_by_role("button", name="Remove: Project 2").click()
    expect(projects).to_have_count(2)
    _saved(page)
    assert [p["id"] for p in page.request.get(f"/api/resumes/{resume_id}/projects").json()["data"]] == [ids[1], ids[0]]
    assert f"DELETE resumes/{resume_id}/projects/{ids[2]}" in calls
    assert page.script_errors == []


def test_visibility_status_template_and_scores(open_as):
    page = open_as()
    resume_id = _resume(page, contentJson={"skills": ["Python", "PostgreSQL"]})
    templates = page.request.get("/api/templates").json()["data"]
    other = [t for t in templates if t["tier"] == "basic"][1]
    premium = next(t for t in templates if t["tier"] == "premium")
    _open_editor(page, resume_id)
    before = page.locator("#keyword-score").inner_text()
    _field(page, "sectionsVisibility.skills").uncheck()
    _field(page, "status").select_option("PUBLISHED")
    _field(page, "templateId").select_option(other["id"])
    _field(page, "targetJobDescription").fill("We want Python, PostgreSQL, Kubernetes and Terraform experience.")
    _saved(page)
    data = _read(page, resume_id)
    assert data["sectionsVisibility"]["skills"] is False and data["sectionsVisibility"]["education"] is True
    assert data["status"] == "PUBLISHED" and data["templateId"] == other["id"]
    assert data["targetJobDescription"].startswith("We want Python")
    # the scores on the page are the saved resume's, changed by the job description
    assert data["keywordMatchScore"] is not None
    expect(page.locator("#keyword-score")).to_have_text(f"{data['keywordMatchScore']} / 100")
    expect(page.locator("#ats-score")).to_have_text(f"{data['atsScore']} / 100")
    assert page.locator("#keyword-score").inner_text() != before
    # a premium template on the free plan is refused at the select, which goes back to the saved one
    _field(page, "templateId").select_option(premium["id"])
    expect(page.locator(".field-error")).to_contain_text("Premium")
    expect(_field(page, "templateId")).to_have_value(other["id"])
    assert _read(page, resume_id)["templateId"] == other["id"]
    assert page.script_errors == []


def test_refused_values_are_shown_at_their_field_and_the_rest_saves(open_as):
    page = open_as()
    resume_id = _resume(page, contentJson={"projects": [{"name": "P"}]})
    _open_editor(page, resume_id)
    events = page.evaluate_handle("""() => { const seen = [];
        document.addEventListener("resume:saved", (e) => seen.push(e.detail.title)); return seen; }""")
    _field(page, "title").fill("x" * 201)
    _field(page, "contentJson.personalInfo.name").fill("Grace Hopper")
    error = page.locator(".field-error")
    expect(error).to_have_text("Title: use at most 200 characters (now 201).")
    expect(_field(page, "title")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#save-state")).to_have_attribute("data-state", "failed")
    expect(page.locator("#save-state")).to_have_text("Could not save: correct the marked field.")
    expect(_field(page, "title")).to_have_value("x" * 201)  # the text is kept
    data = _read(page, resume_id)
    assert data["title"] == "My resume" and data["contentJson"]["personalInfo"]["name"] == "Grace Hopper"
    _field(page, "title").fill("Fixed title")
    _saved(page)
    expect(error).to_have_count(0)
    assert _read(page, resume_id)["title"] == "Fixed title"
    assert events.json_value()[-1] == "Fixed title"
    # a project entry's error (from PUT .../projects/<id>) lands on that entry's input
    url = _field(page, "contentJson.projects.0.url")
    url.fill("not a link")
    expect(url).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#save-state")).to_have_attribute("data-state", "failed")
    url.fill("https://example.com")
    _saved(page)
    assert _read(page, resume_id)["contentJson"]["projects"][0]["url"] == "https://example.com"
    assert page.script_errors == []


def test_lost_save_retries_and_says_so(open_as):
    page = open_as()
    resume_id = _resume(page)
    _open_editor(page, resume_id)
    failed = []

    def abort_once(route):
        if route.request.method == "PUT" and not failed:
            failed.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    page.route(f"**/api/resumes/{resume_id}", abort_once)
    _field(page, "contentJson.personalInfo.summary").fill("Kept through a lost request.")
    expect(page.locator("#save-state")).to_have_text("Could not save. Retrying…")
    expect(page.locator("#save-state")).to_have_attribute("data-state", "retrying")
    expect(_field(page, "contentJson.personalInfo.summary")).to_have_value("Kept through a lost request.")
    _saved(page)
    assert failed
    assert _read(page, resume_id)["contentJson"]["personalInfo"]["summary"] == "Kept through a lost request."


def test_leaving_with_unsaved_changes_asks_first(open_as):
    page = open_as()
    resume_id = _resume(page)
    _open_editor(page, resume_id)
    dialogs = []

    def stay(dialog):
        dialogs.append(dialog.type)
        dialog.dismiss()

    page.on("dialog", stay)
    page.route(f"**/api/resumes/{resume_id}", lambda route: route.abort() if route.request.method == "PUT"
               else route.continue_())  # the save cannot get through
    _field(page, "contentJson.personalInfo.name").fill("Unsaved name")
    expect(page.locator("#save-state")).to_have_attribute("data-state", "retrying")
    page.get_by_role("link", name="All resumes").click()
    page.wait_for_timeout(500)
    assert dialogs == ["beforeunload"]
    assert page.url.endswith(f"/resumes/{resume_id}/edit")
    page.unroute(f"**/api/resumes/{resume_id}")
    _saved(page)
    page.get_by_role("link", name="All resumes").click()  # saved: no question
    page.wait_for_url("**/dashboard")
    assert dialogs == ["beforeunload"]


def test_someone_elses_resume_is_not_found(open_as, make_user):
    owner = open_as()
    resume_id = _resume(owner)
    page = open_as(make_user())
    response = page.goto(f"/resumes/{resume_id}/edit")
    assert response.status == 404
    assert page.goto("/resumes/nope/edit").status == 404


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("theme", THEMES)
def test_page_in_each_language_and_theme(open_as, language, theme):
    page = open_as(language=language, theme=theme)
    resume_id = _resume(page, contentJson={"workExperience": WORK[:2], "projects": [{"name": "P"}]})
    _open_editor(page, resume_id)
    expect(page.locator("html")).to_have_attribute("data-theme", theme)
    chinese = language == "zh-cn"
    expect(page.locator("#h-personal")).to_have_text("个人信息" if chinese else "Personal information")
    expect(page.locator('[data-list="workExperience"] .entry-title').first).to_have_text("Role 1 · Company 1")
    _field(page, "contentJson.personalInfo.name").fill("Lin")
    expect(page.locator("#save-state")).to_have_text("已保存" if chinese else "Saved", timeout=30_000)
    page.screenshot(path=f"/tmp/editor/editor-{language}-{theme}-1440.png", full_page=True)
    assert page.script_errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_narrow_screen(open_as, language):
    page = open_as(language=language, theme="dark" if language == "zh-cn" else "light", width=375)
    resume_id = _resume(page, contentJson={"workExperience": WORK[:2], "projects": [{"name": "P"}]})
    _open_editor(page, resume_id)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path=f"/tmp/editor/editor-{language}-375.png")
    page.get_by_role("button", name=re.compile("Move down|下移")).first.click()
    _saved(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    assert page.script_errors == []
