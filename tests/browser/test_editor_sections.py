"""The editor's sections of issue 15 in a real browser: languages and certificates added by keyboard,
the section order moved by keyboard and saved as contentJson.sectionOrder, every new section and field
saved (read back through the API), a custom section's items reordered by drag, an old resume left
as it was stored, and the page in Chinese and 375 px wide."""
from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from tests.browser.editing import field as _field
from tests.browser.editing import make_resume as _resume
from tests.browser.editing import open_editor as _open_editor
from tests.browser.editing import read as _read
from tests.browser.editing import saved as _saved

SHOTS = Path("/tmp/shots")


def _focused(page) -> str | None:
    return page.evaluate("document.activeElement.dataset.field || document.activeElement.getAttribute('aria-label')")


def _sections(page) -> list[str]:
    return page.locator("#body-sections > [data-section]").evaluate_all("els => els.map(e => e.dataset.section)")


def test_a_language_and_a_certificate_by_keyboard_and_the_section_order(open_as):
    page = open_as()
    resume_id = _resume(page, contentJson={"skills": ["Python"]})
    _open_editor(page, resume_id)
    page.get_by_role("button", name="Add language").focus()
    page.keyboard.press("Enter")
    assert _focused(page) == "contentJson.languages.0.language"
    expect(page.locator("#editor-live")).to_have_text("Entry added.")
    page.keyboard.type("English")
    page.keyboard.press("Tab")
    page.keyboard.type("Native speaker")
    page.get_by_role("button", name="Add certificate").focus()
    page.keyboard.press("Enter")
    assert _focused(page) == "contentJson.certificates.0.name"
    page.keyboard.type("AWS Solutions Architect")
    page.keyboard.press("Tab")
    page.keyboard.type("Amazon Web Services")
    _field(page, "contentJson.certificates.0.date").fill("2024-03")
    _field(page, "contentJson.certificates.0.url").focus()
    page.keyboard.type("https://aws.amazon.com/certification/")

    # Languages to the top, by keyboard: the focus stays on the moved section's buttons
    page.get_by_role("button", name="Move up: Languages").focus()
    for _ in range(3):
        page.keyboard.press("Enter")
    assert _focused(page) == "Move up: Languages"
    expect(page.locator("#editor-live")).to_have_text("Section moved to position 2.")
    page.keyboard.press("Enter")  # at the top its Move up is off: the focus goes to Move down
    assert _focused(page) == "Move down: Languages"
    expect(page.locator("#editor-live")).to_have_text("Section moved to position 1.")
    assert _sections(page)[:3] == ["languages", "workExperience", "education"]
    page.get_by_role("button", name="Move down: Certificates").click()  # and by pointer
    _saved(page)

    content = _read(page, resume_id)["contentJson"]
    assert content["languages"] == [{"language": "English", "fluency": "Native speaker"}]
    assert content["certificates"] == [{"name": "AWS Solutions Architect", "issuer": "Amazon Web Services",
                                        "date": "2024-03", "url": "https://aws.amazon.com/certification/"}]
    assert content["sectionOrder"] == ["languages", "workExperience", "education", "skills", "projects",
                                       "awards", "certificates", "volunteer", "publications", "interests",
                                       "references", "customSections"]
    # opened again, the page follows the saved order and shows what was saved
    _open_editor(page, resume_id)
    assert _sections(page)[:1] == ["languages"] and _sections(page)[5:7] == ["awards", "certificates"]
    expect(page.get_by_role("button", name="Move up: Languages")).to_be_disabled()
    expect(_field(page, "contentJson.languages.0.fluency")).to_have_value("Native speaker")
    expect(_field(page, "contentJson.certificates.0.date")).to_have_value("2024-03")
    assert page.script_errors == []


# (the button that adds an entry, or None; {path in contentJson: what to type})
STEPS = (
    (None, {"personalInfo.label": "Backend engineer", "personalInfo.url": "https://ada.example.com"}),
    ("Add profile", {"personalInfo.profiles.0.network": "GitHub", "personalInfo.profiles.0.username": "ada",
                     "personalInfo.profiles.0.url": "https://github.com/ada"}),
    ("Add experience", {"workExperience.0.position": "Analyst", "workExperience.0.location": "London",
                        "workExperience.0.url": "https://engine.example.com",
                        "workExperience.0.highlights": "First program\n\nNotes"}),
    ("Add education", {"education.0.school": "University of London", "education.0.area": "Mathematics",
                       "education.0.studyType": "Bachelor", "education.0.score": "First",
                       "education.0.courses": "Analysis\nAlgebra"}),
    ("Add skill group", {"skillGroups.0.name": "Backend", "skillGroups.0.level": "Expert",
                         "skillGroups.0.keywords": "Python, , SQL"}),
    ("Add award", {"awards.0.title": "Best paper", "awards.0.awarder": "Royal Society", "awards.0.date": "1843-01",
                   "awards.0.summary": "For the notes."}),
    ("Add volunteering", {"volunteer.0.organization": "Code Club", "volunteer.0.position": "Mentor",
                          "volunteer.0.startDate": "2019-01", "volunteer.0.highlights": "Taught 40 children"}),
    ("Add publication", {"publications.0.name": "Sketch of the Analytical Engine",
                         "publications.0.publisher": "Taylor's Scientific Memoirs",
                         "publications.0.releaseDate": "1843-09"}),
    ("Add interest", {"interests.0.name": "Music", "interests.0.keywords": "Harp, Composition"}),
    ("Add reference", {"references.0.name": "Charles Babbage",
                       "references.0.reference": "The Enchantress of Numbers."}),
    ("Add custom section", {"customSections.0.title": "Talks"}),
    ("Add item", {"customSections.0.items.0.title": "On engines", "customSections.0.items.0.date": "1842-06"}),
    ("Add item", {"customSections.0.items.1.title": "On numbers",
                  "customSections.0.items.1.subtitle": "Royal Institution"}),
)


def test_every_new_section_and_field_saves(open_as):
    page = open_as()
    resume_id = _resume(page)
    _open_editor(page, resume_id)
    for add, values in STEPS:
        if add:
            page.get_by_role("button", name=add).click()
        for path, value in values.items():
            _field(page, f"contentJson.{path}").fill(value)
    _field(page, "sectionsVisibility.references").uncheck()
    _saved(page)

    data = _read(page, resume_id)
    content = data["contentJson"]
    assert content["personalInfo"]["label"] == "Backend engineer"
    assert content["personalInfo"]["url"] == "https://ada.example.com"
    assert content["personalInfo"]["profiles"] == [{"network": "GitHub", "username": "ada",
                                                    "url": "https://github.com/ada"}]
    [job] = content["workExperience"]
    assert (job["location"], job["url"], job["highlights"]) == ("London", "https://engine.example.com",
                                                                ["First program", "Notes"])
    [school] = content["education"]
    assert (school["area"], school["studyType"], school["score"], school["courses"]) == (
        "Mathematics", "Bachelor", "First", ["Analysis", "Algebra"])
    assert content["skillGroups"] == [{"name": "Backend", "level": "Expert", "keywords": ["Python", "SQL"]}]
    assert content["awards"] == [{"title": "Best paper", "awarder": "Royal Society", "date": "1843-01",
                                  "summary": "For the notes."}]
    assert content["volunteer"] == [{"organization": "Code Club", "position": "Mentor", "startDate": "2019-01",
                                     "highlights": ["Taught 40 children"]}]
    assert content["publications"] == [{"name": "Sketch of the Analytical Engine",
                                        "publisher": "Taylor's Scientific Memoirs", "releaseDate": "1843-09"}]
    assert content["interests"] == [{"name": "Music", "keywords": ["Harp", "Composition"]}]
    assert content["references"] == [{"name": "Charles Babbage", "reference": "The Enchantress of Numbers."}]
    [talks] = content["customSections"]
    assert talks["id"] and talks["title"] == "Talks"
    assert talks["items"] == [{"title": "On engines", "date": "1842-06"},
                              {"title": "On numbers", "subtitle": "Royal Institution"}]
    assert data["sectionsVisibility"]["references"] is False and data["sectionsVisibility"]["languages"] is True
    # the id the server gave the custom section is kept by the next saves
    _field(page, "contentJson.customSections.0.title").fill("Talks and lectures")
    page.get_by_role("button", name="Move up: Custom section 1 › Item 2").click()
    expect(_field(page, "contentJson.customSections.0.items.0.title")).to_have_value("On numbers")
    _saved(page)
    [again] = _read(page, resume_id)["contentJson"]["customSections"]
    assert again["id"] == talks["id"] and again["title"] == "Talks and lectures"
    assert [item["title"] for item in again["items"]] == ["On numbers", "On engines"]
    # a refused value lands on its field inside a custom section's item
    _field(page, "contentJson.customSections.0.items.0.url").fill("not a link")
    expect(_field(page, "contentJson.customSections.0.items.0.url")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#save-state")).to_have_attribute("data-state", "failed")
    page.get_by_role("button", name="Remove: Custom section 1 › Item 1").click()  # the item with it
    _saved(page)
    assert [i["title"] for i in _read(page, resume_id)["contentJson"]["customSections"][0]["items"]] == ["On engines"]
    assert page.script_errors == []


def test_custom_items_and_sections_reorder_by_drag(open_as):
    page = open_as()
    page.set_viewport_size({"width": 1440, "height": 3400})  # no scrolling mid-drag
    sections = [{"title": f"Section {n}", "items": [{"title": f"Item {n}.{i}"} for i in (1, 2, 3)]} for n in (1, 2)]
    resume_id = _resume(page, contentJson={"customSections": sections, "sectionOrder": ["customSections"]})
    _open_editor(page, resume_id)
    items = page.locator('[data-list="customSections.0.items"] > li')
    items.nth(2).locator(".drag-handle").drag_to(items.nth(0))
    expect(_field(page, "contentJson.customSections.0.items.0.title")).to_have_value("Item 1.3")
    outer = page.locator('[data-list="customSections"] > li')
    outer.nth(1).locator(".entry-bar .drag-handle").first.drag_to(outer.nth(0).locator(".entry-bar").first)
    expect(_field(page, "contentJson.customSections.0.title")).to_have_value("Section 2")
    _saved(page)
    saved = _read(page, resume_id)["contentJson"]["customSections"]
    assert [s["title"] for s in saved] == ["Section 2", "Section 1"]
    assert [i["title"] for i in saved[1]["items"]] == ["Item 1.3", "Item 1.1", "Item 1.2"]
    assert page.script_errors == []


def test_an_old_resume_keeps_its_shape(open_as):
    page = open_as()
    old = {"personalInfo": {"name": "Grace"}, "workExperience": [{"company": "Navy", "position": "Officer"}],
           "skills": ["COBOL"]}
    resume_id = _resume(page, contentJson=old)
    before = _read(page, resume_id)["contentJson"]
    _open_editor(page, resume_id)
    assert _sections(page)[:3] == ["workExperience", "education", "skills"]
    _field(page, "contentJson.personalInfo.name").fill("Grace Hopper")
    _saved(page)
    after = _read(page, resume_id)["contentJson"]
    assert after == {**before, "personalInfo": {**before["personalInfo"], "name": "Grace Hopper"}}
    assert "sectionOrder" not in after and "languages" not in after
    assert page.script_errors == []


def test_the_sections_in_chinese_and_375_pixels_wide(open_as):
    page = open_as(language="zh-cn", theme="dark", width=375)
    resume_id = _resume(page, contentJson={"languages": [{"language": "中文", "fluency": "母语"}],
                                           "customSections": [{"title": "演讲", "items": [{"title": "引擎"}]}]})
    _open_editor(page, resume_id)
    expect(page.locator("#h-languages")).to_have_text("语言")
    expect(page.locator('[data-list="languages"] .entry-title')).to_have_text("中文 · 母语")
    expect(page.get_by_role("button", name="添加证书")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    SHOTS.mkdir(exist_ok=True)
    page.locator('[data-section="customSections"]').screenshot(path=str(SHOTS / "editor-sections-375-zh.png"))
    assert page.script_errors == []


def test_screenshot_of_the_new_sections(open_as):
    page = open_as()
    page.set_viewport_size({"width": 1440, "height": 1800})
    content = {"personalInfo": {"name": "Ada Lovelace", "label": "Analyst", "url": "https://ada.example.com",
                                "profiles": [{"network": "GitHub", "username": "ada",
                                              "url": "https://github.com/ada"}]},
               "skillGroups": [{"name": "Mathematics", "level": "Expert", "keywords": ["Analysis", "Algebra"]}],
               "languages": [{"language": "English", "fluency": "Native speaker"},
                             {"language": "French", "fluency": "Fluent"}],
               "certificates": [{"name": "Engine operator", "issuer": "Babbage & Co", "date": "1843-01"}],
               "customSections": [{"title": "Talks", "items": [{"title": "On engines", "subtitle": "Royal Society",
                                                                "date": "1842-06"}]}],
               "sectionOrder": ["languages", "certificates"]}
    resume_id = _resume(page, contentJson=content)
    _open_editor(page, resume_id)
    SHOTS.mkdir(exist_ok=True)
    page.locator(".editor-main").screenshot(path=str(SHOTS / "editor-sections.png"))
    assert page.script_errors == []
