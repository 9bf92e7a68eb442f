"""The import report says what the importer was unsure of beside the page it came from, with one-click fixes,
and never grows past one screen (issue 33 point 3), in a real browser, in English and Chinese.

A real PDF is imported through the API (its pages are the report's pictures); the resume's content and the
report's notes are then set as the importer would leave them: notes with the page they came from, a `swap`
path (the header's headline and address mixed up; an employer and a location), an "order" note without one
(job title and employer: Swap is offered all the same), a bullet that was two ("merged", with its `parts`).
Swap and Split change the form, are each one step of the editor's undo, and are saved (read back through the
API). With 40 notes the panel stays within the window, the first groups open and the rest behind "N more".
Screenshots in /tmp/shots."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from tests.browser.editing import field, open_editor, read, saved
from tests.resumes.test_import import pdf_of

SHOTS = Path("/tmp/shots")
CONTENT = {
    "personalInfo": {"name": "Ada Lovelace", "email": "ada@example.com", "phone": "", "summary": "",
                     "label": "London, United Kingdom", "address": "Analyst"},
    "workExperience": [
        {"position": "Harbor Lights", "company": "Bluebird", "startDate": "2020-01",
         "highlights": ["Wrote the first published program.",
                        "Led a team of five Ran the weekly design review", "Kept it running."]},
        {"position": "Engineer", "company": "Senior", "location": "Acme"},
    ],
    "education": [{"school": "BSc Mathematics", "degree": "University of London"}],
}
MERGED = "Led a team of five Ran the weekly design review"
PARTS = ["Led a team of five", "Ran the weekly design review"]
NOTES = [
    {"path": "personalInfo.headline", "reason": "order", "text": "London, United Kingdom", "page": 1,
     "swap": "personalInfo.address"},
    {"path": "workExperience.0.position", "reason": "order", "text": "Harbor Lights", "page": 1},
    {"path": "workExperience.0.highlights.1", "reason": "merged", "text": MERGED, "parts": PARTS, "page": 2},
    {"path": "workExperience.1.company", "reason": "order", "text": "Senior", "page": 2,
     "swap": "workExperience.1.location"},
    {"path": "workExperience.1.startDate", "reason": "no_dates", "text": ""},
    {"path": "education.0.degree", "reason": "order", "text": "University of London", "page": 2},
    {"path": "workExperience.1.position", "reason": "ai", "text": "Engineer"},
]
WORDS = {
    "en": {"heading": "From your file", "swap": "Swap Position and Company", "back": "Swap back Position and Company",
           "split": "Split in two", "join": "Join again", "swapped": "Swapped.", "undo": "Undo", "redo": "Redo",
           "page": "Page 2 of ada.pdf", "more": "1 more", "group": "Experience 1: Harbor Lights · Bluebird",
           "headline": "Swap Headline and Address", "location": "Swap Company and Location",
           "school": "Swap Degree and School"},
    "zh-cn": {"heading": "来自你的文件", "swap": "交换职位和公司", "back": "换回职位和公司",
              "split": "拆成两条", "join": "重新合并", "swapped": "已交换。", "undo": "撤销", "redo": "重做",
              "page": "ada.pdf 第 2 页", "more": "另外 1 项", "group": "工作经历 1：Harbor Lights · Bluebird",
              "headline": "交换头衔和地址", "location": "交换公司和地点", "school": "交换学位和学校"},
}


def imported(page, live, content: dict, notes: list[dict]) -> str:
    """A resume imported from a real two-page PDF, then given ``content`` and a report of ``notes``."""
    _url, app = live
    pdf = pdf_of("Ada Lovelace", "ada@example.com", "Experience", "Harbor Lights, Bluebird", pages=2)
    answer = page.request.post("/api/resumes/import", multipart={
        "file": {"name": "ada.pdf", "mimeType": "application/pdf", "buffer": pdf}})
    assert answer.status == 201, answer.text()
    resume_id = answer.json()["data"]["resume"]["id"]
    assert answer.json()["data"]["report"]["pages"] == 2
    put = page.request.put(f"/api/resumes/{resume_id}", data={"contentJson": content})
    assert put.ok, put.text()
    from app.extensions import db
    from app.resumes.models import ResumeImport

    with app.app_context():
        row = db.session.get(ResumeImport, resume_id)
        row.report = {**row.report, "cut": [], "dropped": [], "unsure": notes}
        db.session.commit()
    return resume_id


def values(page, *paths: str) -> list[str]:
    return [field(page, f"contentJson.{path}").input_value() for path in paths]


@pytest.mark.parametrize("language, theme", [("en", "light"), ("zh-cn", "dark")])
def test_swap_and_split_fix_the_form_in_one_undo_step_each_and_are_saved(open_as, live, language, theme):
    words = WORDS[language]
    page = open_as(language=language, theme=theme)
    resume_id = imported(page, live, CONTENT, NOTES)
    open_editor(page, resume_id)
    panel = page.get_by_role("region", name=words["heading"])
    expect(panel).to_be_visible()
    # grouped by entry, in the form's order: the personal information, the two jobs, the school
    groups = panel.locator(".report-group-toggle")
    expect(groups).to_have_count(4)
    expect(groups.nth(1)).to_contain_text(words["group"])
    # the first note from a page shows that page, with its text
    picture = panel.locator(".report-page img")
    expect(picture).to_have_attribute("src", f"/api/resumes/{resume_id}/import-report/pages/1")
    expect(panel.locator(".report-page-quote")).to_have_text("London, United Kingdom")

    # Swap: job title and employer exchanged, the note handled, the focus kept on its button
    swap = panel.get_by_role("button", name=words["swap"], exact=True)
    swap.click()
    assert values(page, "workExperience.0.position", "workExperience.0.company") == ["Bluebird", "Harbor Lights"]
    back = panel.get_by_role("button", name=words["back"], exact=True)
    expect(back).to_be_focused()
    job = panel.locator(".report-note", has=page.get_by_role("button", name=words["back"], exact=True))
    expect(job).to_have_class(re.compile(r"\bis-done\b"))
    expect(job).to_contain_text(words["swapped"])
    # one undo restores both fields, and the Swap is offered again
    page.locator("#undo").click()
    assert values(page, "workExperience.0.position", "workExperience.0.company") == ["Harbor Lights", "Bluebird"]
    expect(panel.get_by_role("button", name=words["swap"], exact=True)).to_be_visible()
    page.locator("#redo").click()
    assert values(page, "workExperience.0.position", "workExperience.0.company") == ["Bluebird", "Harbor Lights"]
    expect(back).to_be_visible()

    # Split: the bullet becomes its two parts; one undo joins them again; the note's page is shown
    highlights = "workExperience.0.highlights"
    split = panel.get_by_role("button", name=words["split"], exact=True)
    split.click()
    expect(field(page, f"contentJson.{highlights}")).to_have_value(
        "Wrote the first published program.\n" + "\n".join(PARTS) + "\nKept it running.")
    expect(panel.get_by_role("button", name=words["join"], exact=True)).to_be_focused()
    expect(picture).to_have_attribute("src", f"/api/resumes/{resume_id}/import-report/pages/2")
    expect(panel.locator(".report-page-quote")).to_have_text(MERGED)
    expect(panel.get_by_role("link", name=f"{words['page']}", exact=False)).to_be_visible()
    page.keyboard.press("Control+z")
    expect(field(page, f"contentJson.{highlights}")).to_have_value(
        f"Wrote the first published program.\n{MERGED}\nKept it running.")
    page.keyboard.press("Control+Shift+z")
    expect(field(page, f"contentJson.{highlights}")).to_have_value(
        "Wrote the first published program.\n" + "\n".join(PARTS) + "\nKept it running.")

    # the header's headline and address (the importer's "headline" is the form's label), and, in the second job,
    # employer and location: the group's title follows the form
    panel.get_by_role("button", name=words["headline"], exact=True).click()
    assert values(page, "personalInfo.label", "personalInfo.address") == ["Analyst", "London, United Kingdom"]
    panel.get_by_role("button", name=words["location"], exact=True).click()
    assert values(page, "workExperience.1.company", "workExperience.1.location") == ["Acme", "Senior"]
    expect(groups.nth(2)).to_contain_text("Engineer · Acme")
    # the school's note is behind "1 more"
    more = panel.get_by_role("button", name=words["more"])
    expect(more).to_have_attribute("aria-expanded", "false")
    more.click()
    groups.nth(3).click()
    expect(groups.nth(3)).to_have_attribute("aria-expanded", "true")
    panel.get_by_role("button", name=words["school"], exact=True).click()
    assert values(page, "education.0.degree", "education.0.school") == ["BSc Mathematics", "University of London"]

    saved(page)
    content = read(page, resume_id)["contentJson"]
    assert (content["workExperience"][0]["position"], content["workExperience"][0]["company"]) == \
        ("Bluebird", "Harbor Lights")
    assert content["workExperience"][0]["highlights"] == ["Wrote the first published program.", *PARTS,
                                                          "Kept it running."]
    assert (content["personalInfo"]["label"], content["personalInfo"]["address"]) == \
        ("Analyst", "London, United Kingdom")
    assert (content["workExperience"][1]["company"], content["workExperience"][1]["location"]) == ("Acme", "Senior")
    assert (content["education"][0]["degree"], content["education"][0]["school"]) == \
        ("BSc Mathematics", "University of London")
    # seen again after a reload, the swaps and the split are known as done from the form's values
    page.reload()
    expect(panel.get_by_role("button", name=words["back"], exact=True)).to_be_visible()
    expect(panel.get_by_role("button", name=words["join"], exact=True)).to_be_visible()
    expect(panel.locator(".report-note.is-done")).to_have_count(5)

    violations = [v for v in Axe().run(page, context="#import-report").response["violations"]
                  if v["impact"] in {"serious", "critical"}]
    assert violations == [], violations
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"import-report-fixes-{language}.png"))
    panel.screenshot(path=str(SHOTS / f"import-report-panel-{language}.png"))
    assert page.script_errors == []


def test_forty_notes_stay_within_the_window_the_rest_behind_n_more(open_as, live):
    page = open_as(width=1280)
    work = [{"position": f"Engineer {n}", "company": f"Company {n}", "highlights": [f"Did {n} Then more {n}"]}
            for n in range(13)]
    notes = [{"path": "personalInfo", "reason": "unplaced", "text": "Difference Engine Society", "page": 1}]
    for n in range(13):
        notes += [{"path": f"workExperience.{n}.position", "reason": "order", "text": f"Engineer {n}", "page": 1},
                  {"path": f"workExperience.{n}.startDate", "reason": "no_dates", "text": ""},
                  {"path": f"workExperience.{n}.highlights.0", "reason": "merged", "text": f"Did {n} Then more {n}",
                   "parts": [f"Did {n}", f"Then more {n}"], "page": 2}]
    work[12]["highlights"] = ["Did 12 • Then more 12 • And a third 12"]  # three run together (the importer's
    notes[-1].update(text=work[12]["highlights"][0], parts=["Did 12", " Then more 12 ", "And a third 12"])  # parts)
    assert len(notes) == 40
    resume_id = imported(page, live, {"personalInfo": {"name": "Ada"}, "workExperience": work}, notes)
    open_editor(page, resume_id)
    panel = page.get_by_role("region", name="From your file")
    expect(panel).to_be_visible()
    height = page.viewport_size["height"]
    toggles = panel.locator(".report-group-toggle:visible")
    expect(toggles).to_have_count(3)  # the others are behind "N more"
    expect(panel.locator('.report-group-toggle[aria-expanded="true"]')).to_have_count(3)
    more = panel.locator(".report-more")
    expect(more).to_have_accessible_name("33 more")
    assert panel.bounding_box()["height"] <= height
    assert panel.evaluate("p => p.getBoundingClientRect().bottom") <= height  # in view, not below it
    more.click()
    expect(more).to_have_attribute("aria-expanded", "true")
    expect(more).to_have_text("Show fewer")
    expect(toggles).to_have_count(14)
    expect(panel.locator('.report-group-toggle[aria-expanded="true"]')).to_have_count(3)
    toggles.nth(13).click()  # a group opened from the rest: the notes scroll inside the panel
    last = panel.get_by_role("button", name="Swap Position and Company").last
    last.scroll_into_view_if_needed()
    last.click()
    expect(field(page, "contentJson.workExperience.12.position")).to_have_value("Company 12")
    panel.get_by_role("button", name="Split in two").last.click()
    expect(field(page, "contentJson.workExperience.12.highlights")).to_have_value("Did 12\nThen more 12\nAnd a third 12")
    assert panel.bounding_box()["height"] <= height
    expect(panel.get_by_role("button", name="Done: hide this report")).to_be_in_viewport()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "import-report-forty.png"))
    assert page.script_errors == []
