"""The editor's side column in a real browser: the preview shows the pages of the exported PDF and
follows each save and the export options; each export format downloads its file and a full storage
is explained; sharing on and off, password, expiry, copying the link, and a comment left on the
share page read by the owner, the visitor thanked by name. In both languages and themes, 375 px wide,
and by keyboard."""
from __future__ import annotations

import copy
import json
import re
from datetime import datetime, timedelta, timezone

import pypdfium2
import pytest
from playwright.sync_api import expect
from sqlalchemy import update

from tests.browser.conftest import LANGUAGES, THEMES

from app.billing.plans import plan_for
from app.pictures import thumbnails
from app.users.models import User

TWO_PAGES = copy.deepcopy(thumbnails.SAMPLE)
TWO_PAGES["workExperience"] = TWO_PAGES["workExperience"] * 3


def make_resume(page, content=TWO_PAGES, title="Platform engineer") -> str:
    templates = page.request.get("/api/templates").json()["data"]
    basic = next(t for t in templates if t["tier"] == "basic")
    created = page.request.post("/api/resumes", data={"title": title, "templateId": basic["id"],
                                                      "contentJson": content})
    assert created.status == 201, created.text()
    return created.json()["data"]["id"]


def open_editor(page, resume_id: str) -> None:
    page.goto(f"/resumes/{resume_id}/edit")
    preview_ready(page)


def preview_ready(page, pages: int | None = None) -> None:
    expect(page.locator("#preview-pages")).to_have_attribute("data-state", "ready", timeout=30_000)
    if pages is not None:
        expect(page.locator("#preview-pages figure")).to_have_count(pages)


def version(page) -> str:
    return page.locator("#preview-pages").get_attribute("data-version")


def exported_page_count(page, resume_id: str) -> int:
    result = page.request.post(f"/api/resumes/{resume_id}/export", data={"format": "pdf"}).json()["data"]
    pdf = page.request.get(result["downloadUrl"]).body()
    document = pypdfium2.PdfDocument(pdf)
    try:
        return len(document)
    finally:
        document.close()


def fits(page, width: int = 375) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= width


# Preview --------------------------------------------------------------------------------------
def test_the_preview_is_the_pdfs_pages_and_follows_each_save(open_as):
    page = open_as()
    resume_id = make_resume(page)
    open_editor(page, resume_id)
    count = exported_page_count(page, resume_id)
    assert count == 2
    preview_ready(page, count)
    figures = page.locator("#preview-pages figure")
    for n in (1, 2):
        figure = figures.nth(n - 1)
        expect(figure.locator("figcaption")).to_have_text(f"Page {n} of 2")
        expect(figure.locator("img")).to_have_attribute("alt", f"Page {n} of 2 of the preview")
        assert figure.locator("img").evaluate("i => i.complete && i.naturalWidth") == 800
    first = version(page)
    before = figures.nth(0).locator("img").get_attribute("src")

    # a save: the preview shows the new version
    page.locator('[data-field="contentJson.personalInfo.name"]').fill("Jordan Ellis-Moreau")
    expect(page.locator("#save-state")).to_have_attribute("data-state", "saved", timeout=30_000)
    expect(page.locator("#preview-pages")).not_to_have_attribute("data-version", first, timeout=30_000)
    preview_ready(page, 2)
    assert figures.nth(0).locator("img").get_attribute("src") != before

    # a save that adds a page: a third image, with its page break
    page.locator('[data-field="contentJson.personalInfo.summary"]').fill("Engineer who ships. " * 240)
    expect(page.locator("#preview-pages figure")).to_have_count(exported_page_count(page, resume_id),
                                                                timeout=30_000)
    expect(figures.nth(0).locator("figcaption")).to_have_text(re.compile(r"Page 1 of [3-9]"))

    # the export options: the preview follows them
    second = version(page)
    page.get_by_label("Page size").select_option("Letter")
    expect(page.locator("#preview-pages")).not_to_have_attribute("data-version", second, timeout=30_000)
    preview_ready(page)
    size = figures.nth(0).locator("img").evaluate("i => [i.naturalWidth, i.naturalHeight]")
    assert size == [800, round(800 * 11 / 8.5)]
    page.reload()  # the options are kept for this resume
    preview_ready(page)
    expect(page.get_by_label("Page size")).to_have_value("Letter")
    assert page.script_errors == []


# Export ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("fmt,label,check", [
    ("pdf", "PDF", lambda data: data.startswith(b"%PDF")),
    ("docx", "Word (DOCX)", lambda data: data.startswith(b"PK")),
    ("html", "HTML", lambda data: b"Jordan Ellis" in data and b"<html" in data.lower()),
    ("txt", "Plain text (TXT)", lambda data: "Jordan Ellis" in data.decode("utf-8")),
    ("json", "JSON Resume", lambda data: "Jordan Ellis" in json.loads(data)["basics"]["name"]),
])
def test_each_format_downloads_its_file(open_as, fmt, label, check, tmp_path):
    page = open_as()
    open_editor(page, make_resume(page))
    with page.expect_download() as download:
        page.get_by_role("button", name=label, exact=True).click()
    file = download.value
    assert file.suggested_filename == f"Platform_engineer.{fmt}"
    path = tmp_path / file.suggested_filename
    file.save_as(path)
    assert check(path.read_bytes())
    expect(page.locator("#export-result .notice")).to_contain_text(f"Platform_engineer.{fmt} is ready")
    expect(page.locator("#export-progress")).to_be_hidden()
    assert page.script_errors == []


def test_progress_shows_while_the_export_renders(open_as):
    page = open_as()
    open_editor(page, make_resume(page))
    # hold the answer back a moment, as a slow render would
    page.route("**/export", lambda route: (page.wait_for_timeout(600), route.continue_()))
    with page.expect_download():
        page.get_by_role("button", name="PDF", exact=True).click()
        expect(page.locator("#export-progress")).to_be_visible()
        expect(page.locator("#export-progress-text")).to_have_text("Rendering PDF…")
        expect(page.get_by_role("button", name="PDF", exact=True)).to_be_disabled()
    expect(page.locator("#export-progress")).to_be_hidden()


def test_a_full_storage_is_explained_in_words(open_as, live, make_user):
    url, app = live
    user = make_user()
    page = open_as(user)
    resume_id = make_resume(page)
    from app.extensions import db

    with app.app_context():
        limit = plan_for(db.session.get(User, user["id"]).subscription_type).storage_limit
        db.session.execute(update(User).where(User.id == user["id"]).values(storage_used=limit))
        db.session.commit()
    open_editor(page, resume_id)
    page.get_by_role("button", name="PDF", exact=True).click()
    error = page.locator("#export-result .error")
    expect(error).to_contain_text("Your storage is full")
    expect(error).to_contain_text("Delete old exports or upgrade your plan.")
    expect(error.get_by_role("link", name="Upgrade")).to_have_attribute("href", "/billing")
    expect(error).to_have_attribute("data-code", "SUBSCRIPTION_LIMIT_EXCEEDED")
    assert page.script_errors == []


# Share ----------------------------------------------------------------------------------------
def test_share_on_password_expiry_copy_and_a_comment_the_owner_reads(open_as, browser, live):
    url, _app = live
    page = open_as()
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
    resume_id = make_resume(page)
    open_editor(page, resume_id)
    expect(page.locator("#share-badge")).to_have_text("Not shared")
    expect(page.locator("#comments")).to_contain_text("No comments yet.")

    page.get_by_label("Anyone with the link can view this resume").check()
    expect(page.locator("#share-badge")).to_have_text("Shared")
    link = page.locator("#share-url")
    expect(link).to_have_value(re.compile(r"/share/[\w-]+$"))
    share_url = link.input_value()
    expect(page.locator("#share-stats")).to_have_text("Views: 0 · Not viewed yet")

    page.get_by_role("button", name="Copy link").click()
    expect(page.locator("#toast")).to_have_text("Link copied.")
    assert page.evaluate("navigator.clipboard.readText()") == share_url

    page.get_by_label("Visitors may leave comments").check()
    expect(page.locator("#toast")).to_have_text("Share settings saved.")
    page.get_by_label("Visitors may download the PDF").check()
    page.get_by_placeholder("New password").fill("open sesame")
    page.get_by_role("button", name="Set password").click()
    expect(page.locator("#share-password-state")).to_have_text("Protected by a password.")
    page.locator("#share-expires").fill("2099-12-31T18:30")
    page.get_by_role("button", name="Set expiry").click()
    expect(page.locator("#share-expiry-state")).to_contain_text("Expires")
    expect(page.locator("#share-expiry-state")).to_contain_text("2099")
    settings = page.request.get(f"/api/resumes/{resume_id}/share").json()["data"]
    assert settings["hasPassword"] and settings["allowComments"] and settings["allowDownload"]
    assert settings["expiresAt"].startswith("2099-12-31")

    # a visitor opens the link, gives the password and comments
    visitor = browser.new_context(base_url=url).new_page()
    visitor.goto(share_url)
    visitor.get_by_label("Password").fill("open sesame")
    visitor.get_by_role("button", name="View resume").click()
    expect(visitor.locator(".shared-resume")).to_contain_text("Jordan Ellis")
    visitor.get_by_label("Your name").fill("Grace <Hopper>")
    visitor.get_by_label("Comment").fill("Strong platform background.\nLet's talk.")
    visitor.get_by_role("button", name="Send").click()
    expect(visitor.locator(".thanks")).to_have_text(
        "Thank you, Grace <Hopper>! Your comment was sent to the owner of this resume.")
    visitor.screenshot(path="/tmp/side-share-thanks.png")
    visitor.reload()  # thanked once
    expect(visitor.locator(".thanks")).to_have_count(0)

    # the owner reads it, and sees the views
    page.get_by_role("button", name="Refresh").click()
    comment = page.locator("#comments li")
    expect(comment).to_have_count(1)
    expect(comment.locator("strong")).to_have_text("Grace <Hopper>")
    expect(comment.locator(".comment-text")).to_have_text("Strong platform background.\nLet's talk.")
    page.reload()
    expect(page.locator("#share-stats")).to_contain_text("Views: 2 · Last viewed")

    # password removed, expiry removed, then sharing off: the link stops working
    page.get_by_role("button", name="Remove the password").click()
    expect(page.locator("#share-password-state")).to_have_text("No password.")
    page.get_by_role("button", name="Never expire").click()
    expect(page.locator("#share-expiry-state")).to_have_text("Never")
    page.get_by_label("Anyone with the link can view this resume").uncheck()
    expect(page.locator("#share-badge")).to_have_text("Sharing is off")
    expect(page.locator("#share-details")).to_be_hidden()
    assert visitor.goto(share_url).status == 404
    visitor.context.close()
    assert page.script_errors == []


def test_older_comments_come_a_page_at_a_time(open_as, live):
    _url, app = live
    page = open_as()
    resume_id = make_resume(page)
    assert page.request.post(f"/api/resumes/{resume_id}/share", data={"allowComments": True}).status == 201
    from app.extensions import db
    from app.resumes.models import Comment

    start = datetime(2026, 1, 1, tzinfo=timezone.utc)
    with app.app_context():
        db.session.add_all([Comment(resume_id=resume_id, name=f"Visitor {i}", text=f"Comment {i}",
                                    created_at=start + timedelta(minutes=i)) for i in range(53)])
        db.session.commit()
    open_editor(page, resume_id)
    comments, more = page.locator("#comments li"), page.locator("#comments-more")
    expect(comments).to_have_count(50)
    expect(comments.first.locator("strong")).to_have_text("Visitor 52")
    expect(more).to_have_text("Show older comments (3 more)")
    more.scroll_into_view_if_needed()
    page.screenshot(path="/tmp/side-older-comments.png")

    more.focus()
    page.keyboard.press("Enter")
    expect(comments).to_have_count(53)
    expect(comments.last.locator("strong")).to_have_text("Visitor 0")
    expect(more).to_be_hidden()

    page.get_by_role("button", name="Refresh").click()  # the newest page again
    expect(comments).to_have_count(50)
    expect(more).to_be_visible()
    assert page.script_errors == []


def test_without_the_clipboard_the_link_is_selected_for_copying(open_as):
    page = open_as()
    # a browser that refuses the clipboard (an insecure origin, a denied permission)
    page.add_init_script("Object.defineProperty(navigator, 'clipboard', {value: {writeText: () => "
                         "Promise.reject(new Error('denied'))}})")
    open_editor(page, make_resume(page))
    page.get_by_label("Anyone with the link can view this resume").check()
    expect(page.locator("#share-details")).to_be_visible()
    page.get_by_role("button", name="Copy link").click()
    expect(page.locator("#toast")).to_contain_text("The link is selected")
    selected = page.locator("#share-url").evaluate("i => i.value.slice(i.selectionStart, i.selectionEnd)")
    assert selected == page.locator("#share-url").input_value() and "/share/" in selected


def test_a_past_expiry_is_refused_at_its_field(open_as):
    page = open_as()
    open_editor(page, make_resume(page))
    page.get_by_label("Anyone with the link can view this resume").check()
    page.locator("#share-expires").fill("2001-01-01T10:00")
    page.get_by_role("button", name="Set expiry").click()
    expect(page.locator("#share-expires")).to_have_attribute("aria-invalid", "true")
    expect(page.locator(".side-share .field-error")).to_contain_text("Must be in the future")


# Languages, themes, narrow screens, keyboard ---------------------------------------------------
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("theme", THEMES)
def test_the_column_in_each_language_and_theme_by_keyboard(open_as, language, theme, tmp_path):
    page = open_as(language=language, theme=theme)
    open_editor(page, make_resume(page))
    zh = language == "zh-cn"
    expect(page.locator("#h-preview")).to_have_text("预览" if zh else "Preview")
    expect(page.locator("#h-export")).to_have_text("导出" if zh else "Export")
    expect(page.locator("#h-share")).to_have_text("分享" if zh else "Share")
    expect(page.locator("#preview-pages figcaption").first).to_have_text("第 1 页，共 2 页" if zh else "Page 1 of 2")
    assert page.evaluate("document.documentElement.dataset.theme") == theme
    # a page stays white paper in the dark theme
    assert page.locator("#preview-pages img").first.evaluate("i => getComputedStyle(i).backgroundColor") \
        == "rgb(255, 255, 255)"

    # keyboard: the TXT export, then sharing on
    page.get_by_role("button", name="纯文本（TXT）" if zh else "Plain text (TXT)").focus()
    with page.expect_download() as download:
        page.keyboard.press("Enter")
    assert download.value.suggested_filename.endswith(".txt")
    share = page.get_by_label("任何拥有链接的人都可以查看此简历" if zh else "Anyone with the link can view this resume")
    share.focus()
    page.keyboard.press("Space")
    expect(page.locator("#share-badge")).to_have_text("已分享" if zh else "Shared")
    page.keyboard.press("Tab")
    expect(page.locator("#share-url")).to_be_focused()
    page.screenshot(path=f"/tmp/side-{language}-{theme}.png", full_page=False)
    assert page.script_errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_column_fits_375_px(open_as, language):
    page = open_as(language=language, width=375)
    open_editor(page, make_resume(page))
    page.get_by_label("任何拥有链接的人都可以查看此简历" if language == "zh-cn"
                      else "Anyone with the link can view this resume").check()
    expect(page.locator("#share-details")).to_be_visible()
    page.locator("#h-preview").scroll_into_view_if_needed()
    box = page.locator("#preview-pages img").first.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375
    assert fits(page)
    page.locator(".side").screenshot(path=f"/tmp/side-375-{language}.png")
    assert page.script_errors == []


def add_comment(app, resume_id: str, name: str) -> None:
    from app.extensions import db
    from app.resumes.models import Comment

    with app.app_context():
        db.session.add(Comment(resume_id=resume_id, name=name, text=f"Hello from {name}"))
        db.session.commit()


def test_new_comments_appear_without_refresh_while_the_tab_is_visible(open_as, live):
    _url, app = live
    page = open_as()
    resume_id = make_resume(page)
    assert page.request.post(f"/api/resumes/{resume_id}/share", data={"allowComments": True}).status == 201
    page.clock.install()
    open_editor(page, resume_id)
    comments = page.locator("#comments li")
    expect(comments).to_have_text(["No comments yet."])

    add_comment(app, resume_id, "Grace")
    page.clock.fast_forward(30_000)  # one poll
    expect(comments.locator("strong")).to_have_text(["Grace"])

    # a hidden tab asks nothing; shown again, it catches up at once
    page.evaluate("""() => {
        Object.defineProperty(document, "hidden", { configurable: true, get: () => true });
        document.dispatchEvent(new Event("visibilitychange"));
    }""")
    add_comment(app, resume_id, "Linus")
    page.clock.fast_forward(60_000)
    page.wait_for_timeout(500)
    expect(comments).to_have_count(1)
    page.evaluate("""() => {
        Object.defineProperty(document, "hidden", { configurable: true, get: () => false });
        document.dispatchEvent(new Event("visibilitychange"));
    }""")
    expect(comments.locator("strong")).to_have_text(["Linus", "Grace"])
    assert page.script_errors == []
