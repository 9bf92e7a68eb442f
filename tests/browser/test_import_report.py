"""After a file import the editor shows, beside the preview, what the import cut, left out or guessed
(issue 23 point 2): each item in words, a button to the field, the text that did not fit with a Copy
button; "Done" hides the report for good. In English and Chinese. The notes' pages, groups and one-click
fixes (issue 33 point 3): test_import_report_fixes.py."""
from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.resumes.test_import import docx_of, pdf_of

SHOTS = Path("/tmp/shots")
SENTENCE = "Led the move of every payment service to a single event log, and kept it running. "
PARAGRAPHS = (
    ("Title", "Ada Lovelace"), ("Normal", "ada@example.com | +44 20 7946 0000"),
    ("Normal", "London, United Kingdom"), ("Normal", "Analyst"), ("Normal", "Difference Engine Society"),
    ("Heading 1", "Summary"), ("Normal", SENTENCE * 70),          # 5,880 characters: the field holds 5,000
    ("Heading 1", "Experience"), ("Heading 2", "Bluebird | Harbor Lights"),
    ("Normal", "Jan 2020 – Mar 2022"), ("Normal", "Wrote the first published program."),
    ("Heading 1", "Tea ceremonies"), ("Normal", "Twice a week, with Charles."),
    ("Heading 1", "Vzdelanie"), ("Heading 2", "Univerzita Komenského"), ("Normal", "Bakalár informatiky"),
    ("Normal", "2016 – 2020"),   # a heading in words we have not learnt: education by its dated school
)
WORDS = {
    "en": {"import": "Import", "dialog": "Import a resume", "open": "Open in the editor", "heading": "From your file",
           "go": "Go to the field", "done": "Done: hide this report", "check": "To check (",
           "order": "Job title and employer were told apart by their order alone: check which is which.",
           "custom": "“Tea ceremonies” is not a section we know: it was kept as a section of its own.",
           "by_content": "“Vzdelanie” is not a section we know: it was read as this section from its dated "
                         "entries. Check it.", "guessed": "Section guessed"},
    "zh-cn": {"import": "导入", "dialog": "导入简历", "open": "在编辑器中打开", "heading": "来自你的文件",
              "go": "转到该字段", "done": "完成：隐藏此报告", "check": "待检查（",
              "order": "职位和雇主仅按顺序区分：请确认哪个是哪个。",
              "custom": "“Tea ceremonies”不是已知的栏目：已作为单独的栏目保留。",
              "by_content": "“Vzdelanie”不是已知的栏目：已根据其带日期的条目判断为此栏目，请核对。",
              "guessed": "栏目为推断"},
}


@pytest.mark.parametrize("language", ["en", "zh-cn"])
def test_the_editor_shows_what_the_import_was_unsure_of_until_it_is_dismissed(open_as, tmp_path, language):
    words = WORDS[language]
    page = open_as(language=language, theme="dark" if language == "zh-cn" else "light")
    file = tmp_path / "ada.docx"
    file.write_bytes(docx_of(*PARAGRAPHS))
    page.goto("/dashboard")
    page.get_by_role("button", name=words["import"], exact=True).click()
    dialog = page.get_by_role("dialog", name=words["dialog"])
    dialog.locator("#import-file").set_input_files(str(file))
    with page.expect_response("**/api/resumes/import") as answer:
        dialog.get_by_role("button", name=words["import"], exact=True).click()
    assert answer.value.status == 201
    report = answer.value.json()["data"]["report"]
    assert [c["path"] for c in report["cut"]] == ["personalInfo.summary"]
    assert {"path": "education", "reason": "by_content", "text": "Vzdelanie"} in report["unsure"]
    expect(dialog.locator("#import-dropped-intro")).to_contain_text(words["check"])
    dialog.get_by_role("link", name=words["open"]).click()

    panel = page.get_by_role("region", name=words["heading"])
    expect(panel).to_be_visible()
    expect(panel).to_contain_text("ada.docx")
    expect(panel).to_contain_text(words["order"])
    expect(panel).to_contain_text(words["custom"])
    guessed = panel.locator("li", has_text=words["by_content"])
    expect(guessed.locator(".report-chip")).to_have_text(words["guessed"])
    expect(page.locator('[data-field="contentJson.education.0.school"]')).to_have_value("Univerzita Komenského")
    rest = panel.locator("textarea").first
    expect(rest).to_have_value(report["cut"][0]["text"])
    summary = page.locator('[data-field="contentJson.personalInfo.summary"]')
    assert len(summary.input_value()) <= 5000 and f"{summary.input_value()} {rest.input_value()}" == \
        (SENTENCE * 70).strip()                                           # nothing of the file lost
    # "Go to the field" of the guessed job title focuses its input.
    item = panel.locator("li", has_text=words["order"])
    item.get_by_role("button", name=words["go"]).click()
    expect(page.locator('[data-field="contentJson.workExperience.0.position"]')).to_be_focused()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"import-report-{language}.png"))

    with page.expect_response(lambda r: r.url.endswith("/import-report") and r.request.method == "DELETE") as gone:
        panel.get_by_role("button", name=words["done"]).click()
    assert gone.value.status == 200
    expect(panel).to_be_hidden()
    page.reload()
    expect(page.locator('[data-field="contentJson.personalInfo.name"]')).to_have_value("Ada Lovelace")
    expect(page.locator("#import-report")).to_be_hidden()
    assert page.script_errors == []


def test_an_imported_pdfs_pages_are_shown_beside_what_to_check(open_as, tmp_path):
    page = open_as()
    file = tmp_path / "grace.pdf"
    file.write_bytes(pdf_of("Grace Hopper", "Experience", "Computer Scientist, US Navy", "1967 - 1986", pages=2))
    page.goto("/dashboard")
    page.get_by_role("button", name="Import", exact=True).click()
    dialog = page.get_by_role("dialog", name="Import a resume")
    dialog.locator("#import-file").set_input_files(str(file))
    dialog.get_by_role("button", name="Import", exact=True).click()
    dialog.get_by_role("link", name="Open in the editor").click()

    panel = page.get_by_role("region", name="From your file")
    picture = panel.get_by_role("img")   # one page at a time, beside the notes
    expect(picture).to_have_count(1)
    expect(picture).to_have_attribute("alt", "Page 1 of grace.pdf")
    page.wait_for_function("() => [...document.querySelectorAll('#import-report .report-page img')]"
                           ".every(img => img.complete && img.naturalWidth === 640)")
    panel.get_by_role("button", name="Next page").click()
    expect(picture).to_have_attribute("alt", "Page 2 of grace.pdf")
    expect(panel.get_by_role("button", name="Previous page")).to_be_focused()  # Next is off on the last page
    expect(panel.get_by_role("link", name="Page 2 of grace.pdf (opens in a new tab)")).to_be_visible()
    SHOTS.mkdir(exist_ok=True)
    panel.screenshot(path=str(SHOTS / "import-report-pages.png"))
    assert page.script_errors == []
