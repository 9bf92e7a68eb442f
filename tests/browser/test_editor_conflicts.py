"""Two tabs, one resume (issue 24 point 6), in a real browser: a person opens a resume in two tabs, changes
the summary in one and the address in the other (now stale); the stale tab's save is refused, and the
merge dialog shows both changes, each preset to the side that made it, so the merged save keeps both. When
both tabs change the same field, the person chooses, and the version left out is in the history. "Decide
later" holds the autosave until the merge; a project entry saved alone is checked the same way. In
English and Chinese, light and dark (screenshots in /tmp/shots)."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.editing import field, make_resume, open_editor, read, saved

SHOTS = Path("/tmp/shots")
SHOTS.mkdir(exist_ok=True)
WORDS = {  # the form's labels and the dialog's words, as each language shows them
    "en": {"Summary": "Summary", "Address": "Address", "Project": "Project 1 › Project name",
           "Description": "Project 1 › Description", "save": "Save the merged version", "later": "Decide later",
           "mine": "Keep yours", "theirs": "Take the other version", "conflict": "Not saved: changed elsewhere",
           "merge": "Compare and merge", "cause": "Not saved: made from an older copy",
           "choose": "Choose a version for each field changed in both.", "both": "Changed in both: choose one",
           "title": "This resume was changed elsewhere"},
    "zh-cn": {"Summary": "个人简介", "Address": "地址", "Project": "项目 1 › 项目名称",
              "Description": "项目 1 › 描述", "save": "保存合并后的版本", "later": "稍后决定",
              "mine": "保留您的版本", "theirs": "采用另一版本", "conflict": "未保存：已在别处修改",
              "merge": "比较并合并", "cause": "未保存：基于较旧的副本所做",
              "choose": "请为两边都修改过的每个字段选择一个版本。", "both": "两边都有修改：请选择一个",
              "title": "这份简历已在别处修改"},
}
START = {"personalInfo": {"name": "Ada Lovelace", "summary": "Mathematician.", "address": "London"}}


def _two_tabs(open_as, language="en", theme="light", content=START):
    first = open_as(language=language, theme=theme)
    resume_id = make_resume(first, contentJson=content)
    second = first.context.new_page()
    second.script_errors = []
    second.on("pageerror", lambda error: second.script_errors.append(str(error)))
    open_editor(first, resume_id)
    open_editor(second, resume_id)
    return first, second, resume_id


def _fieldset(dialog, name):
    return dialog.locator("fieldset.merge-field").filter(has=dialog.page.locator(".merge-name", has_text=name))


def _versions(page, resume_id):
    listed = page.request.get(f"/api/resumes/{resume_id}/versions").json()["data"]
    return [page.request.get(f"/api/resumes/{resume_id}/versions/{v['id']}").json()["data"] for v in listed]


@pytest.mark.parametrize("language,theme", [("en", "light"), ("zh-cn", "dark")])
def test_changes_to_different_fields_in_two_tabs_are_both_kept(open_as, language, theme):
    words = WORDS[language]
    tab_a, tab_b, resume_id = _two_tabs(open_as, language, theme)
    field(tab_a, "contentJson.personalInfo.summary").fill("Written in tab A.")
    saved(tab_a)

    address = field(tab_b, "contentJson.personalInfo.address")
    address.fill("Typed in tab B")
    dialog = tab_b.locator("dialog#merge")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("heading", name=words["title"])).to_be_visible()
    expect(tab_b.locator("#save-state")).to_have_text(words["conflict"])
    names = dialog.locator(".merge-name")
    expect(names).to_have_text([words["Address"], words["Summary"]])  # in the form's order
    summary, typed = _fieldset(dialog, words["Summary"]), _fieldset(dialog, words["Address"])
    expect(summary.get_by_role("radio", name=words["theirs"])).to_be_checked()       # changed in tab A only
    expect(summary.locator(".merge-value").nth(1)).to_have_text("Written in tab A.")
    expect(summary.locator(".merge-value").nth(0)).to_have_text("Mathematician.")
    expect(typed.get_by_role("radio", name=words["mine"])).to_be_checked()           # changed here only
    expect(typed.locator(".merge-value").nth(0)).to_have_text("Typed in tab B")
    # a modal dialog, labelled, with the focus in it
    assert dialog.evaluate("d => d.matches(':modal') && d.contains(document.activeElement)")
    assert dialog.get_attribute("aria-labelledby") == "merge-title"
    expect(tab_b.get_by_role("button", name=words["save"])).to_be_focused()
    tab_b.screenshot(path=str(SHOTS / f"merge-{language}-{theme}.png"))
    tab_b.set_viewport_size({"width": 375, "height": 740})
    tab_b.screenshot(path=str(SHOTS / f"merge-{language}-{theme}-375.png"))

    tab_b.keyboard.press("Enter")
    expect(dialog).to_be_hidden()
    saved(tab_b)
    expect(address).to_be_focused()                                    # back where the person was typing
    expect(field(tab_b, "contentJson.personalInfo.summary")).to_have_value("Written in tab A.")
    personal = read(tab_b, resume_id)["contentJson"]["personalInfo"]
    assert (personal["summary"], personal["address"]) == ("Written in tab A.", "Typed in tab B")
    assert "conflict" in [v["cause"] for v in _versions(tab_b, resume_id)]

    # tab A is the stale one now: its next save finds tab B's address, taken without a question
    field(tab_a, "contentJson.personalInfo.name").fill("Ada King")
    expect(tab_a.locator("dialog#merge")).to_be_visible()
    expect(tab_a.locator("dialog#merge .merge-name")).to_have_count(2)
    tab_a.get_by_role("button", name=words["save"]).click()
    saved(tab_a)
    expect(field(tab_a, "contentJson.personalInfo.address")).to_have_value("Typed in tab B")
    personal = read(tab_a, resume_id)["contentJson"]["personalInfo"]
    assert (personal["name"], personal["summary"], personal["address"]) == (
        "Ada King", "Written in tab A.", "Typed in tab B")
    assert tab_a.script_errors == [] and tab_b.script_errors == []


@pytest.mark.parametrize("language", ["en", "zh-cn"])
def test_the_same_field_changed_in_both_tabs_is_the_persons_choice(open_as, language):
    words = WORDS[language]
    tab_a, tab_b, resume_id = _two_tabs(open_as, language)
    field(tab_a, "contentJson.personalInfo.summary").fill("Summary from tab A.")
    saved(tab_a)
    field(tab_b, "contentJson.personalInfo.summary").fill("Summary from tab B.")
    dialog = tab_b.locator("dialog#merge")
    expect(dialog).to_be_visible()
    both = _fieldset(dialog, words["Summary"])
    expect(dialog.locator("fieldset.merge-field")).to_have_count(1)
    expect(both.locator(".merge-side")).to_have_text(words["both"])
    expect(both.locator(".merge-value")).to_have_text(["Summary from tab B.", "Summary from tab A."])
    mine = both.get_by_role("radio", name=words["mine"])
    expect(mine).to_be_focused()                                       # nothing chosen for the person
    expect(both.get_by_role("radio", checked=True)).to_have_count(0)
    tab_b.get_by_role("button", name=words["save"]).click()            # not before a choice
    expect(dialog.locator("#merge-error")).to_have_text(words["choose"])
    expect(mine).to_be_focused()
    tab_b.screenshot(path=str(SHOTS / f"merge-both-{language}.png"))
    tab_b.keyboard.press("ArrowDown")                                  # by keyboard: the other version
    expect(both.get_by_role("radio", name=words["theirs"])).to_be_checked()
    tab_b.get_by_role("button", name=words["save"]).click()
    expect(dialog).to_be_hidden()
    saved(tab_b)
    expect(field(tab_b, "contentJson.personalInfo.summary")).to_have_value("Summary from tab A.")
    assert read(tab_b, resume_id)["contentJson"]["personalInfo"]["summary"] == "Summary from tab A."
    kept = [(v["cause"], v["contentJson"]["personalInfo"].get("summary")) for v in _versions(tab_b, resume_id)]
    assert ("conflict", "Summary from tab B.") in kept                 # the one not chosen is in the history

    tab_b.locator("#history-toggle").click()
    expect(tab_b.locator("#history-list > li").filter(has_text=words["cause"])).to_have_count(1)
    assert tab_b.script_errors == []


def test_decide_later_holds_the_autosave_until_the_merge(open_as):
    words = WORDS["en"]
    tab_a, tab_b, resume_id = _two_tabs(open_as)
    field(tab_a, "contentJson.personalInfo.summary").fill("Written in tab A.")
    saved(tab_a)
    field(tab_b, "contentJson.personalInfo.address").fill("Typed in tab B")
    dialog = tab_b.locator("dialog#merge")
    expect(dialog).to_be_visible()
    tab_b.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    reopen = tab_b.get_by_role("button", name=words["merge"])
    expect(reopen).to_be_visible()
    expect(tab_b.locator("#save-state")).to_have_text(words["conflict"])

    puts = []
    tab_b.on("request", lambda r: r.method in ("PUT", "POST", "DELETE") and puts.append(r.url))
    field(tab_b, "contentJson.personalInfo.name").fill("Typed after")   # kept in the tab, not saved yet
    tab_b.wait_for_timeout(1500)                                        # past the autosave's pause
    assert puts == []
    expect(tab_b.locator("#save-state")).to_have_text(words["conflict"])
    assert read(tab_b, resume_id)["contentJson"]["personalInfo"]["name"] == "Ada Lovelace"

    reopen.click()
    expect(dialog).to_be_visible()
    expect(dialog.locator(".merge-name")).to_have_text(["Name", words["Address"], words["Summary"]])
    _fieldset(dialog, "Name").get_by_role("radio", name=words["theirs"]).check()   # what was typed after: left out
    tab_b.get_by_role("button", name=words["save"]).click()
    saved(tab_b)
    expect(reopen).to_be_hidden()
    personal = read(tab_b, resume_id)["contentJson"]["personalInfo"]
    assert (personal["name"], personal["summary"], personal["address"]) == (
        "Ada Lovelace", "Written in tab A.", "Typed in tab B")
    # ... and yet kept: the refused save held the address, and the name typed after it was sent again, kept too
    kept = [(v["cause"], v["contentJson"]["personalInfo"]) for v in _versions(tab_b, resume_id)]
    conflicts = [(p.get("name"), p.get("address")) for cause, p in kept if cause == "conflict"]
    assert conflicts == [("Typed after", "Typed in tab B"), ("Ada Lovelace", "Typed in tab B")]
    assert ("edit", "Written in tab A.") in [(c, p.get("summary")) for c, p in kept]  # tab A's, replaced by the merge
    assert tab_b.script_errors == []


def test_a_project_entry_saved_alone_is_checked_too(open_as):
    words = WORDS["en"]
    tab_a, tab_b, resume_id = _two_tabs(open_as, content={
        "personalInfo": {"name": "Ada"}, "projects": [{"name": "Engine", "description": "Old words."}]})
    field(tab_a, "contentJson.projects.0.name").fill("Analytical Engine")
    saved(tab_a)
    field(tab_b, "contentJson.projects.0.description").fill("New words.")   # PUT .../projects/<id> from B
    dialog = tab_b.locator("dialog#merge")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".merge-name")).to_have_text([words["Project"], words["Description"]])
    tab_b.get_by_role("button", name=words["save"]).click()
    saved(tab_b)
    [project] = read(tab_b, resume_id)["contentJson"]["projects"]
    assert (project["name"], project["description"]) == ("Analytical Engine", "New words.")
    # and tab B goes on saving entries alone, made from the version it saved
    field(tab_b, "contentJson.projects.0.description").fill("Newer words.")
    saved(tab_b)
    assert read(tab_b, resume_id)["contentJson"]["projects"][0]["description"] == "Newer words."
    expect(tab_b.locator("dialog#merge")).to_be_hidden()
    assert tab_b.script_errors == []


def test_fields_are_named_as_the_form_names_them(open_as):
    tab_a, tab_b, resume_id = _two_tabs(open_as, content={
        "personalInfo": {"name": "Ada"}, "skills": ["Python"],
        "workExperience": [{"company": "Acme", "position": "Engineer"}, {"company": "Initech", "position": "Lead"}],
        "customSections": [{"title": "Talks", "items": [{"title": "PyCon"}]}]})
    field(tab_a, "title").fill("Renamed in A")
    field(tab_a, "contentJson.workExperience.1.company").fill("Globex")
    field(tab_a, "contentJson.customSections.0.items.0.title").fill("EuroPython")
    field(tab_a, "sectionsVisibility.skills").uncheck()
    tab_a.locator('[data-section="education"] [data-move-section="up"]').click()
    saved(tab_a)
    field(tab_b, "contentJson.skills").fill("Python\nSQL")
    field(tab_b, "contentJson.sectionTitles.projects").fill("Things I made")
    tab_b.get_by_role("button", name="Add profile").click()
    field(tab_b, "contentJson.personalInfo.profiles.0.network").fill("GitHub")
    dialog = tab_b.locator("dialog#merge")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".merge-name")).to_have_text([
        "Title", "Profiles", "Order of the sections", "Experience 2 › Company", "Skills › Show on the resume", "Skills",
        "Projects › Heading on the resume", "Custom section 1 › Item 1 › Title"])
    order = _fieldset(dialog, "Order of the sections").locator(".merge-value")
    expect(order.first).to_contain_text("Work experience → Education → Skills")        # none kept: the usual one
    expect(order.last).to_contain_text("Education → Work experience → Skills")
    expect(_fieldset(dialog, "Skills › Show").locator(".merge-value")).to_have_text(
        ["Shown on the resume", "Hidden from the resume"])
    expect(_fieldset(dialog, "Profiles").locator(".merge-value").first).to_have_text("GitHub")
    dialog.screenshot(path=str(SHOTS / "merge-names.png"))
    dialog.locator(".merge-fields").evaluate("box => { box.scrollTop = box.scrollHeight; }")
    dialog.screenshot(path=str(SHOTS / "merge-names-end.png"))
    tab_b.get_by_role("button", name="Save the merged version").click()
    saved(tab_b)
    data = read(tab_b, resume_id)
    content = data["contentJson"]
    assert data["title"] == "Renamed in A" and data["sectionsVisibility"]["skills"] is False
    assert content["skills"] == ["Python", "SQL"] and content["sectionTitles"] == {"projects": "Things I made"}
    assert content["personalInfo"]["profiles"] == [{"network": "GitHub"}]
    assert [job["company"] for job in content["workExperience"]] == ["Acme", "Globex"]
    assert content["customSections"][0]["items"][0]["title"] == "EuroPython"
    assert content["sectionOrder"][:2] == ["education", "workExperience"]
    expect(tab_b.locator("#body-sections > section").first).to_have_attribute("data-section", "education")
    expect(field(tab_b, "sectionsVisibility.skills")).not_to_be_checked()
