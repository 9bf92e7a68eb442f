"""The resume's language and its renamed headings, set in the editor in a real browser (issue 22 point
6): saved in contentJson, and the documents print them: the headings and dates in German, one heading
in the user's own words."""
from __future__ import annotations

from tests.browser.editing import field, make_resume, open_editor, read, saved


def test_the_language_and_a_renamed_heading_are_saved_and_printed(open_as):
    page = open_as()
    resume_id = make_resume(page, contentJson={
        "personalInfo": {"name": "Lena Vogel", "summary": "Backend engineer."},
        "workExperience": [{"company": "Zalando", "position": "Engineer", "startDate": "2019-03", "endDate": ""}],
        "projects": [{"name": "Ledger", "description": "A tidy ledger."}]})
    open_editor(page, resume_id)
    language = field(page, "contentJson.language")
    assert language.input_value() == ""  # none set: the one the text is in
    language.select_option("de")
    field(page, "contentJson.sectionTitles.projects").fill("Meine Projekte")
    saved(page)
    content = read(page, resume_id)["contentJson"]
    assert content["language"] == "de" and content["sectionTitles"] == {"projects": "Meine Projekte"}

    export = page.request.post(f"/api/resumes/{resume_id}/export", data={"format": "html"})
    assert export.status == 201, export.text()
    html = page.request.get(export.json()["data"]["downloadUrl"]).text()
    assert '<html lang="de">' in html
    for words in ("Berufserfahrung", "Meine Projekte", "Profil", "März 2019 – heute"):
        assert words in html, words
    assert "Experience" not in html and "Present" not in html

    page.reload()  # and the editor shows them again
    open_editor(page, resume_id)
    assert field(page, "contentJson.language").input_value() == "de"
    assert field(page, "contentJson.sectionTitles.projects").input_value() == "Meine Projekte"
    assert page.script_errors == []


def test_the_share_page_draws_arabic_and_chinese_with_the_apps_own_fonts(open_as, tmp_path):
    """Issue 22 point 4: a reader without the fonts installed sees the text (Chromium here has none for
    Arabic or CJK unless the page brings them)."""
    page = open_as()
    resume_id = make_resume(page, contentJson={
        "personalInfo": {"name": "ليلى حداد", "summary": "مهندسة برمجيات في شركة Google منذ 2019. 软件工程师。"}})
    share = page.request.post(f"/api/resumes/{resume_id}/share", data={})
    assert share.status == 201, share.text()
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.goto(f"/share/{share.json()['data']['token']}")
    page.evaluate("document.fonts.ready")
    loaded = page.evaluate("""() => [...document.fonts].filter(f => f.status === 'loaded').map(f => f.family)""")
    assert {'"Noto Sans Arabic"', '"Noto Sans CJK SC"'} <= set(loaded) or {
        "Noto Sans Arabic", "Noto Sans CJK SC"} <= set(loaded), loaded
    summary = page.locator(".shared-resume .pdf-arabic").first
    assert "Noto Sans Arabic" in summary.evaluate("e => getComputedStyle(e).fontFamily")
    assert page.locator(".shared-resume").get_attribute("dir") == "rtl"
    page.screenshot(path=str(tmp_path / "share-ar.png"))
    assert not [e for e in errors if "Content Security Policy" in e or "font" in e.lower()], errors
