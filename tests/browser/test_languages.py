"""The interface in Arabic (right to left) and French, in Chromium: the pages mirror (the editor's form on
the right and its preview on the left, the arrows pointing the reading way), the language is switched on a
public page and in the account, and each page is screenshotted (/tmp/shots/lang-*.png) to be looked at."""
from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from tests.browser.editing import make_resume, open_editor
from tests.browser.test_side import TWO_PAGES
from tests.support import said

SHOTS = Path("/tmp/shots")


def test_arabic_pages_run_right_to_left(open_as):
    SHOTS.mkdir(exist_ok=True)
    page = open_as(language="ar")
    resume_id = make_resume(page, title="مهندسة منصات", contentJson=TWO_PAGES)
    page.goto("/dashboard")
    expect(page.locator("html")).to_have_attribute("dir", "rtl")
    expect(page.locator("html")).to_have_attribute("lang", "ar")
    expect(page.get_by_role("heading", name=said("ar", "Your resumes"))).to_be_visible()
    expect(page.locator("#resume-rows tr")).to_have_count(1)
    page.screenshot(path=str(SHOTS / "lang-ar-dashboard.png"), full_page=True)

    open_editor(page, resume_id)
    expect(page.locator("#preview-pages")).to_have_attribute("data-state", "ready", timeout=30_000)
    form, preview = page.locator("#editor-form").bounding_box(), page.locator("#preview-panel").bounding_box()
    assert form["x"] > preview["x"], (form, preview)  # side by side, the form first in the reading order
    back = page.locator("#editor-bar a[href='/dashboard'] .mirrored")
    assert page.evaluate("(e) => getComputedStyle(e).transform", back.element_handle()) != "none"
    page.screenshot(path=str(SHOTS / "lang-ar-editor.png"))

    page.goto("/account")
    expect(page.locator("#language")).to_have_value("ar")
    page.screenshot(path=str(SHOTS / "lang-ar-account.png"), full_page=True)
    page.locator("#language").select_option("fr")  # the account's language, switched: the page follows
    page.locator("#preferences-form button[type=submit]").click()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("html")).to_have_attribute("dir", "ltr")
    expect(page.get_by_role("button", name=said("fr", "Save preferences"))).to_be_visible()
    assert page.script_errors == []


def test_a_visitor_switches_a_public_page_to_french_and_signs_up_in_it(browser, live, mailbox):
    SHOTS.mkdir(exist_ok=True)
    url, _app = live
    context = browser.new_context(base_url=url, locale="en-US")
    try:
        page = context.new_page()
        page.goto("/register")
        expect(page.locator("html")).to_have_attribute("lang", "en")
        page.get_by_role("navigation", name="Language").get_by_role("link", name="Français").click()
        expect(page.locator("html")).to_have_attribute("lang", "fr")
        expect(page).to_have_url(f"{url}/register")
        page.screenshot(path=str(SHOTS / "lang-fr-register.png"), full_page=True)
        current = page.get_by_role("navigation", name=said("fr", "Language")).get_by_role("link", name="Français")
        expect(current).to_have_attribute("aria-current", "true")
        page.get_by_label(said("fr", "Name")).fill("Amélie Poulain")
        page.get_by_label(said("fr", "Email")).fill("amelie.p@example.com")
        page.get_by_label(said("fr", "Password")).fill("montmartre 2001")
        page.locator("form button[type=submit]").click()
        mail = mailbox.wait_for("amelie.p@example.com")
        assert mail["Subject"] == said("fr", "Verify your email address")
    finally:
        context.close()
