"""Undo and redo in the resume editor (issue 25 point 1), in a real browser, in English and Chinese: each kind
of change (typing, an entry added, removed and moved, a section moved and removed, a heading renamed, the
template switched, an AI suggestion applied, a version restored) is undone and redone by keys and by the
toolbar's buttons, which are off when there is nothing to undo or redo; a burst of typing in one field is
one step; an undo after the autosave is saved again (read back through the API), with If-Match; a failed
save loses nothing; "Removed … — Undo" brings a removed entry back. Screenshots in /tmp/shots."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.ai.fake_openai import SUMMARY
from tests.browser.conftest import LANGUAGES
from tests.browser.editing import field, make_resume, open_editor, read, saved
from tests.browser.test_dashboard import set_plan

SHOTS = Path("/tmp/shots")
SHOTS.mkdir(exist_ok=True)
WORDS = {"en": {"undo": "Undo", "redo": "Redo", "removed": "Removed", "saved": "Saved"},
         "zh-cn": {"undo": "撤销", "redo": "重做", "removed": "已删除", "saved": "已保存"}}
WORK = [{"company": f"Company {n}", "position": f"Engineer {n}"} for n in (1, 2)]
UNDO, REDO = "Control+z", "Control+Shift+z"


def _companies(page) -> list[str]:
    return page.locator('[data-list="workExperience"] > li [data-name="company"]').evaluate_all(
        "inputs => inputs.map(i => i.value)")


def _sections(page) -> list[str]:
    return page.locator("#body-sections > [data-section]").evaluate_all("els => els.map(e => e.dataset.section)")


def _defaults(page) -> list[str]:
    return page.locator("#body-sections").evaluate("box => box.dataset.defaults.split(' ')")


def _focused(page) -> str | None:
    return page.evaluate("document.activeElement.dataset.field || document.activeElement.dataset.add || null")


def _puts(page) -> list[dict]:
    found = []
    page.on("request", lambda r: r.method == "PUT" and "/api/resumes/" in r.url and found.append(r.headers))
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_typing_is_undone_a_burst_at_a_time_by_keys_and_buttons_and_saved_again(open_as, language):
    words = WORDS[language]
    page = open_as(language=language)
    resume_id = make_resume(page)
    puts = _puts(page)
    open_editor(page, resume_id)
    undo, redo = page.locator("#undo"), page.locator("#redo")
    expect(undo).to_have_text(f"↶ {words['undo']}")
    expect(redo).to_have_text(f"↷ {words['redo']}")
    expect(undo).to_be_disabled()  # nothing to undo yet
    expect(redo).to_be_disabled()
    title = field(page, "title")
    title.click()
    page.keyboard.press("End")
    page.keyboard.type(" one")  # a burst: one step
    page.wait_for_timeout(1300)  # a pause: the next keystrokes are another step
    page.keyboard.type(" two")
    expect(undo).to_be_enabled()
    page.locator(".editor-head").screenshot(path=str(SHOTS / f"undo-toolbar-{language}.png"))
    saved(page)
    assert read(page, resume_id)["title"] == "My resume one two"

    page.keyboard.press(UNDO)  # in the field: the editor's step, not the field's own undo
    expect(title).to_have_value("My resume one")
    assert _focused(page) == "title"
    expect(redo).to_be_enabled()
    page.keyboard.press(UNDO)
    expect(title).to_have_value("My resume")
    expect(undo).to_be_disabled()
    page.keyboard.press(UNDO)  # nothing more to undo
    expect(title).to_have_value("My resume")
    page.keyboard.press(REDO)
    expect(title).to_have_value("My resume one")
    page.keyboard.press("Control+y")
    expect(title).to_have_value("My resume one two")
    expect(redo).to_be_disabled()
    undo.click()
    expect(title).to_have_value("My resume one")
    expect(undo).to_be_focused()
    undo.click()
    expect(undo).to_be_disabled()
    expect(redo).to_be_focused()  # the focus is not lost when Undo goes off
    redo.click()
    expect(title).to_have_value("My resume one")

    # the undone state is saved through the autosave, made from the version the tab has
    expect(page.locator("#save-state")).to_have_text(words["saved"], timeout=30_000)
    saved(page)
    assert read(page, resume_id)["title"] == "My resume one"
    assert puts and all(headers.get("if-match") for headers in puts)
    # typing after an undo starts a new step and drops what could be redone
    title.click()
    page.keyboard.press("End")
    page.keyboard.type("!")
    expect(redo).to_be_disabled()
    page.keyboard.press(UNDO)
    expect(title).to_have_value("My resume one")
    assert page.script_errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_entries_sections_headings_and_the_template(open_as, language):
    words = WORDS[language]
    page = open_as(language=language)
    templates = page.request.get("/api/templates").json()["data"]
    other = [t for t in templates if t["tier"] == "basic"][1]
    content = {"workExperience": WORK, "customSections": [{"title": "Talks", "items": [{"title": "On engines"}]}]}
    resume_id = make_resume(page, contentJson=content)
    first = read(page, resume_id)
    open_editor(page, resume_id)
    notice = page.locator("#undo-notice")

    # add: undone from the new entry's field, the focus goes to the Add button; redone, back to the entry
    page.locator('[data-add="workExperience"]').click()
    expect(page.locator('[data-list="workExperience"] > li')).to_have_count(3)
    assert _focused(page) == "contentJson.workExperience.2.position"
    page.keyboard.press(UNDO)
    expect(page.locator('[data-list="workExperience"] > li')).to_have_count(2)
    assert _focused(page) == "workExperience"
    page.keyboard.press(REDO)
    expect(page.locator('[data-list="workExperience"] > li')).to_have_count(3)
    assert _focused(page) == "contentJson.workExperience.2.position"
    page.keyboard.press(UNDO)

    # remove: the notice says what went, and its Undo brings it back at its place
    page.locator('[data-list="workExperience"] > li').first.locator('[data-action="remove"]').click()
    assert _companies(page) == ["Company 2"]
    expect(notice).to_contain_text(f"{words['removed']} ")
    expect(notice).to_contain_text("(Engineer 1 · Company 1)")
    expect(notice.get_by_role("button")).to_have_text(words["undo"])
    notice.screenshot(path=str(SHOTS / f"undo-notice-{language}.png"))
    page.screenshot(path=str(SHOTS / f"undo-notice-page-{language}.png"))
    notice.get_by_role("button").click()
    assert _companies(page) == ["Company 1", "Company 2"]
    expect(notice).to_be_empty()
    assert _focused(page) == "contentJson.workExperience.0.position"

    # move an entry, then a section, by their buttons; each is undone by the toolbar
    page.locator('[data-list="workExperience"] > li').first.locator('[data-action="down"]').click()
    assert _companies(page) == ["Company 2", "Company 1"]
    page.locator('[data-section="languages"] [data-move-section="up"]').click()
    assert _sections(page).index("languages") == _defaults(page).index("languages") - 1
    page.locator("#undo").click()
    assert _sections(page) == _defaults(page)
    page.locator("#undo").click()
    assert _companies(page) == ["Company 1", "Company 2"]

    # a custom section removed, and brought back with its items by the keys
    page.locator('[data-list="customSections"] > li').first.locator('[data-action="remove"]').first.click()
    expect(page.locator('[data-list="customSections"] > li')).to_have_count(0)
    expect(notice).to_contain_text("(Talks)")
    page.keyboard.press(UNDO)
    expect(field(page, "contentJson.customSections.0.title")).to_have_value("Talks")
    expect(field(page, "contentJson.customSections.0.items.0.title")).to_have_value("On engines")

    # a heading renamed and the template switched: a step each
    heading = field(page, "contentJson.sectionTitles.workExperience")
    heading.fill("Jobs")
    field(page, "templateId").select_option(other["id"])
    page.keyboard.press(UNDO)
    expect(field(page, "templateId")).to_have_value(first["templateId"])
    expect(heading).to_have_value("Jobs")
    page.keyboard.press(UNDO)
    expect(heading).to_have_value("")
    page.keyboard.press(REDO)
    page.keyboard.press(REDO)
    expect(field(page, "templateId")).to_have_value(other["id"])
    saved(page)
    data = read(page, resume_id)
    assert data["templateId"] == other["id"] and data["contentJson"]["sectionTitles"]["workExperience"] == "Jobs"
    assert [job["company"] for job in data["contentJson"]["workExperience"]] == ["Company 1", "Company 2"]
    assert [s["title"] for s in data["contentJson"]["customSections"]] == ["Talks"]
    assert not data["contentJson"].get("sectionOrder")
    page.keyboard.press(UNDO)
    page.keyboard.press(UNDO)
    saved(page)
    data = read(page, resume_id)
    assert data["templateId"] == first["templateId"]
    assert not (data["contentJson"].get("sectionTitles") or {}).get("workExperience")
    assert page.script_errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_applied_ai_suggestion_and_a_restored_version_are_undone(open_as, live, make_user, language):
    user = make_user()
    set_plan(live[1], user, "PREMIUM")
    page = open_as(user, language=language)
    resume_id = make_resume(page, title="Version one", contentJson={"personalInfo": {"summary": "Mathematician."}})
    assert page.request.put(f"/api/resumes/{resume_id}", data={"title": "Version two"}).ok  # keeps a version
    open_editor(page, resume_id)
    summary = field(page, "contentJson.personalInfo.summary")
    summary.fill("Mathematician and writer.")  # typed, then the AI's text applied: two steps
    page.locator('button[data-ai="summary"]').click()
    review = page.locator('[data-review="text"]')
    expect(review).to_have_value(SUMMARY)
    review.press("End")
    review.press_sequentially(" More.")
    review.press(UNDO)  # a text box that is not the resume's: the browser's own undo, the editor's is left
    expect(summary).to_have_value("Mathematician and writer.")
    expect(page.locator("#redo")).to_be_disabled()
    review.fill(SUMMARY)
    page.locator('[data-review="apply"]').click()
    expect(summary).to_have_value(SUMMARY)
    saved(page)
    assert read(page, resume_id)["contentJson"]["personalInfo"]["summary"] == SUMMARY
    page.keyboard.press(UNDO)  # the focus is in the summary, where Apply put it
    expect(summary).to_have_value("Mathematician and writer.")
    saved(page)
    assert read(page, resume_id)["contentJson"]["personalInfo"]["summary"] == "Mathematician and writer."
    page.keyboard.press(REDO)
    expect(summary).to_have_value(SUMMARY)

    # a version restored, then undone: the editor and the server are as before the restore
    page.locator("#history-toggle").click()
    page.locator("#history-list > li button").last.click()
    expect(page.locator("#history-title")).to_have_text("Version one")
    page.locator("#history-restore").click()
    expect(field(page, "title")).to_have_value("Version one")
    expect(summary).to_have_value("Mathematician.")
    saved(page)
    page.locator("#undo").click()
    expect(field(page, "title")).to_have_value("Version two")
    expect(summary).to_have_value(SUMMARY)
    saved(page)
    data = read(page, resume_id)
    assert data["title"] == "Version two" and data["contentJson"]["personalInfo"]["summary"] == SUMMARY
    page.locator("#redo").click()
    expect(field(page, "title")).to_have_value("Version one")
    saved(page)
    assert read(page, resume_id)["title"] == "Version one"
    assert page.script_errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_failed_save_loses_nothing(open_as, language):
    page = open_as(language=language)
    resume_id = make_resume(page, contentJson={"personalInfo": {"name": "Ada"}})
    open_editor(page, resume_id)
    path = f"**/api/resumes/{resume_id}"
    page.route(path, lambda route: route.abort() if route.request.method == "PUT" else route.continue_())
    name = field(page, "contentJson.personalInfo.name")
    name.fill("Ada Lovelace")
    expect(page.locator("#save-state")).to_have_attribute("data-state", "retrying", timeout=30_000)
    field(page, "title").fill("Notes")
    page.keyboard.press(UNDO)
    page.keyboard.press(UNDO)
    expect(name).to_have_value("Ada")
    expect(field(page, "title")).to_have_value("My resume")
    page.keyboard.press(REDO)
    page.keyboard.press(REDO)
    expect(name).to_have_value("Ada Lovelace")
    expect(field(page, "title")).to_have_value("Notes")
    page.unroute(path)
    saved(page)
    data = read(page, resume_id)
    assert data["title"] == "Notes" and data["contentJson"]["personalInfo"]["name"] == "Ada Lovelace"
    page.locator("#undo").click()  # the history outlives the failure
    expect(field(page, "title")).to_have_value("My resume")
    saved(page)
    assert read(page, resume_id)["title"] == "My resume"
    assert page.script_errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_project_entries_saved_alone_are_undone_through_the_whole_content(open_as, language):
    page = open_as(language=language)
    resume_id = make_resume(page, contentJson={"projects": [{"name": "Engine"}, {"name": "Loom"}]})
    ids = [p["id"] for p in read(page, resume_id)["contentJson"]["projects"]]
    open_editor(page, resume_id)

    def projects() -> list[tuple[str, str]]:
        return [(p["name"], p.get("id")) for p in read(page, resume_id)["contentJson"]["projects"]]

    page.locator('[data-list="projects"] > li').first.locator('[data-action="remove"]').click()  # DELETE
    saved(page)
    assert projects() == [("Loom", ids[1])]
    page.locator("#undo").click()  # (the notice may be gone by now)
    expect(field(page, "contentJson.projects.0.name")).to_have_value("Engine")
    saved(page)
    assert projects() == [("Engine", ids[0]), ("Loom", ids[1])]  # back, with its id
    # added and typed into (POST, then PUT of the entry), undone at once while those may be under way
    page.locator('[data-add="projects"]').click()
    page.keyboard.type("Mill")
    page.keyboard.press(UNDO)
    page.keyboard.press(UNDO)
    expect(page.locator('[data-list="projects"] > li')).to_have_count(2)
    saved(page)
    assert projects() == [("Engine", ids[0]), ("Loom", ids[1])]
    field(page, "contentJson.projects.1.name").fill("Loom II")  # saved alone again, by its id
    saved(page)
    assert projects() == [("Engine", ids[0]), ("Loom II", ids[1])]
    page.keyboard.press(UNDO)
    expect(field(page, "contentJson.projects.1.name")).to_have_value("Loom")
    page.keyboard.press(REDO)
    page.keyboard.press(REDO)  # the new step dropped what could be redone (the project added)
    expect(page.locator('[data-list="projects"] > li')).to_have_count(2)
    expect(field(page, "contentJson.projects.1.name")).to_have_value("Loom II")
    saved(page)
    assert projects() == [("Engine", ids[0]), ("Loom II", ids[1])]
    assert page.script_errors == []
