"""The dashboard in a real browser: where sign-in lands, the list of resumes (filter, pages), the
plan's usage, "New resume" through the template picker, and delete (to the trash) with a confirmation.
Import, duplicate and the trash: test_import_dialog.py and test_history_trash.py.

Resumes are made through the JSON API with the page's own session (``page.request``), so what the
page shows is checked against what the API holds.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect
from sqlalchemy import update

from tests.browser.conftest import LANGUAGES, THEMES

HORIZON, HERITAGE = "741210da74ccb3737c4e58fd", "f10802e28e05c6ef9dad160e"  # basic templates
MERIDIAN, CANVAS = "27f015d4626ed7a744df6bac", "af1baa43b9215a8400262090"  # premium templates
JOB = "Backend engineer: Python, PostgreSQL, Flask, REST APIs, Docker, observability."
CONTENT = {"personalInfo": {"name": "Ada Lovelace", "email": "ada@example.com", "summary": "Python and Flask."},
           "workExperience": [{"company": "Acme", "position": "Backend engineer", "startDate": "2020-01",
                               "description": "Built REST APIs with Flask and PostgreSQL; ran Docker."}],
           "skills": ["Python", "Flask", "PostgreSQL", "Docker"]}
EDITOR_URL = re.compile(r"/resumes/([0-9a-f]+)/edit$")


def api(page, method: str, path: str, body: dict | None = None) -> dict:
    response = page.request.fetch(path, method=method, data=body)
    assert response.ok, response.text()
    return response.json()


def make_resume(page, title: str, template: str = HORIZON, status: str | None = None, **fields) -> str:
    resume_id = api(page, "POST", "/api/resumes", {"title": title, "templateId": template, **fields})["data"]["id"]
    if status:
        api(page, "PUT", f"/api/resumes/{resume_id}", {"status": status})
    return resume_id


def resumes_in_api(page) -> list[dict]:
    return api(page, "GET", "/api/resumes?limit=100")["data"]


def templates_in_api(page) -> list[dict]:
    return api(page, "GET", "/api/templates")["data"]


def row(page, title: str):
    return page.locator("#resume-rows tr", has_text=title)


def set_storage_used(app, user: dict, used: int) -> None:
    from app.users.models import User
    from app.extensions import db

    with app.app_context():
        db.session.execute(update(User).where(User.id == user["id"]).values(storage_used=used))
        db.session.commit()


def set_plan(app, user: dict, plan: str) -> None:
    from app.billing.models import Subscription
    from app.extensions import db

    with app.app_context():
        db.session.execute(update(Subscription).where(Subscription.user_id == user["id"]).values(type=plan))
        db.session.commit()


def test_the_list_shows_each_resume_filters_by_status_and_pages(open_as, live, make_user):
    user = make_user()
    page = open_as(user)
    make_resume(page, "Backend engineer", HORIZON, "PUBLISHED", targetJobDescription=JOB, contentJson=CONTENT)
    make_resume(page, "Data analyst", HERITAGE)
    make_resume(page, "Old teaching CV", HORIZON, "ARCHIVED")
    make_resume(page, "Site reliability", HERITAGE, "PUBLISHED")
    shared = make_resume(page, "Product manager", HORIZON)
    token = api(page, "POST", f"/api/resumes/{shared}/share", {"isEnabled": True})["data"]["token"]
    for _ in range(2):
        api(page, "GET", f"/api/share/{token}")
    set_storage_used(live[1], user, 1_258_291)  # 1.2 MB

    page.goto("/dashboard")
    expect(page.locator("#resume-rows tr")).to_have_count(5)
    expect(page.locator(".who")).to_have_text(user["name"])
    listed = {item["title"]: item for item in resumes_in_api(page)}
    first = row(page, "Backend engineer")
    expect(first.locator(".template-name")).to_have_text("Horizon")
    expect(first.locator(".status")).to_have_text("Published")
    assert listed["Backend engineer"]["atsScore"] is not None
    expect(first.locator(".score")).to_have_text(str(listed["Backend engineer"]["atsScore"]))
    expect(row(page, "Data analyst").locator(".score")).to_have_text("No score yet")
    expect(first.locator(".share")).to_have_text("Not shared")
    expect(first.locator(".last-view")).to_be_hidden()
    expect(first.locator("time")).to_have_attribute("datetime", listed["Backend engineer"]["updatedAt"])
    expect(first.locator("time")).to_have_text(re.compile(r"^[A-Z][a-z]{2} \d{1,2}, \d{4}"))
    expect(row(page, "Data analyst").locator(".template-name")).to_have_text("Heritage")
    expect(row(page, "Data analyst").locator(".status")).to_have_text("Draft")
    expect(row(page, "Product manager").locator(".share-state")).to_have_text("Shared · 2 views")
    expect(row(page, "Product manager").locator(".last-view")).to_have_text(re.compile(r"^Last viewed \w{3} \d"))
    expect(first.locator("a.title")).to_have_attribute("href", f"/resumes/{listed['Backend engineer']['id']}/edit")
    expect(page.locator("#list-count")).to_have_text("5 resumes")

    # Plan usage: the FREE plan's 5 resumes are used, 1.2 of its 10 MB.
    expect(page.locator("#plan-name")).to_have_text("Free plan")
    expect(page.locator("#resumes-usage")).to_have_text("5 of 5")
    expect(page.locator("#storage-usage")).to_have_text("1.2 of 10 MB")
    expect(page.locator("#limit-note")).to_be_visible()
    expect(page.locator("#upgrade-link")).to_have_attribute("href", "/billing")

    page.get_by_label("Status").select_option("PUBLISHED")
    expect(page.locator("#resume-rows tr")).to_have_count(2)
    expect(page.locator("#resume-rows .status")).to_have_text(["Published", "Published"])
    expect(page.locator("#pager")).to_be_hidden()  # one page: no pager
    assert page.url.endswith("/dashboard?status=PUBLISHED")
    page.get_by_label("Status").select_option("ARCHIVED")
    expect(page.locator("#resume-rows tr")).to_have_count(1)
    expect(row(page, "Old teaching CV")).to_be_visible()

    page.goto("/dashboard?limit=2")  # pages of two: 3 pages, newest first
    expect(page.locator("#page-label")).to_have_text("Page 1 of 3")
    expect(page.get_by_role("button", name="Previous")).to_be_disabled()
    expect(page.locator("#resume-rows a.title")).to_have_text(["Product manager", "Site reliability"])
    page.get_by_role("button", name="Next").click()
    expect(page.locator("#page-label")).to_have_text("Page 2 of 3")
    expect(page.locator("#resume-rows a.title")).to_have_text(["Old teaching CV", "Data analyst"])
    page.get_by_role("button", name="Next").click()
    expect(page.locator("#resume-rows a.title")).to_have_text(["Backend engineer"])
    expect(page.get_by_role("button", name="Next")).to_be_disabled()
    assert page.url.endswith("/dashboard?page=3&limit=2")
    page.reload()  # the page is in the address
    expect(page.locator("#resume-rows a.title")).to_have_text(["Backend engineer"])
    assert page.script_errors == []


def test_a_new_resume_is_made_from_a_template_in_the_picker(open_as):
    page = open_as()
    page.goto("/dashboard")
    expect(page.get_by_role("heading", name="No resumes yet")).to_be_visible()
    expect(page.locator("#resumes-usage")).to_have_text("0 of 5")
    page.get_by_role("button", name="New resume").first.click()
    picker = page.get_by_role("dialog", name="Choose a template")
    expect(picker).to_be_visible()
    cards = picker.locator(".template-card")
    templates = templates_in_api(page)
    assert len(templates) >= 4
    expect(cards.locator("h3")).to_have_text([template["name"] for template in templates])
    horizon = cards.filter(has_text="Horizon")
    expect(horizon.locator(".badge")).to_have_text(["Modern", "Basic"])
    expect(horizon.get_by_role("img", name="Preview of the Horizon template")).to_have_attribute(
        "src", f"/api/templates/{HORIZON}/thumbnail")
    for image in cards.locator("img").all():  # every thumbnail is a picture that loaded
        image.scroll_into_view_if_needed()
        expect(image).to_have_js_property("complete", True)
        assert image.evaluate("img => img.naturalWidth") == 300

    picker.get_by_label("Title").fill("Staff engineer")
    picker.get_by_role("button", name="Use Horizon").click()
    page.wait_for_url(EDITOR_URL)
    resume_id = EDITOR_URL.search(page.url).group(1)
    [created] = resumes_in_api(page)
    assert (created["id"], created["title"], created["status"], created["templateId"]) == (
        resume_id, "Staff engineer", "DRAFT", HORIZON)
    assert page.script_errors == []


def test_premium_templates_offer_the_upgrade_on_the_free_plan(open_as, live, make_user):
    user = make_user()
    page = open_as(user)
    page.goto("/dashboard")
    page.get_by_role("button", name="New resume").first.click()
    picker = page.get_by_role("dialog", name="Choose a template")
    meridian = picker.locator(".template-card", has_text="Meridian")
    expect(meridian.locator(".badge")).to_have_text(["Professional", "Premium"])
    upgrade = meridian.get_by_role("link", name="Upgrade to use Meridian")
    expect(upgrade).to_have_attribute("href", "/billing")
    expect(meridian.get_by_role("button")).to_have_count(0)
    expect(picker.get_by_role("link", name="Upgrade to use Canvas")).to_be_visible()
    upgrade.click()
    page.wait_for_url("**/billing")
    assert resumes_in_api(page) == []

    set_plan(live[1], user, "PREMIUM")  # on Premium the same template is chosen like any other
    page.goto("/dashboard")
    page.get_by_role("button", name="New resume").first.click()
    expect(page.locator("#plan-name")).to_have_text("Premium plan")
    expect(page.locator("#resumes-usage")).to_have_text("0 (no limit)")
    page.get_by_role("button", name="Use Meridian").click()
    page.wait_for_url(EDITOR_URL)
    assert [r["templateId"] for r in resumes_in_api(page)] == [MERIDIAN]


def test_a_full_plan_is_explained_in_words_in_the_picker(open_as):
    page = open_as()
    for n in range(5):
        make_resume(page, f"Resume {n}")
    page.goto("/dashboard")
    page.get_by_role("button", name="New resume").first.click()
    page.get_by_role("button", name="Use Heritage").click()
    expect(page.locator("#picker-state")).to_have_text(
        "Your plan allows 5 resumes. Delete one, or upgrade for more.")
    assert page.url.endswith("/dashboard") and len(resumes_in_api(page)) == 5
    assert page.script_errors == []


def test_delete_asks_first_and_cancel_keeps_the_resume(open_as):
    page = open_as()
    make_resume(page, "Keep me")
    make_resume(page, "Remove me")
    page.goto("/dashboard")
    expect(page.locator("#resumes-usage")).to_have_text("2 of 5")

    page.get_by_role("button", name="Delete Remove me").click()
    confirm = page.get_by_role("dialog", name="Delete this resume?")
    expect(confirm).to_contain_text("“Remove me” goes to the trash: you can restore it there for 30 days")
    confirm.get_by_role("button", name="Cancel").click()
    expect(confirm).to_be_hidden()
    expect(page.locator("#resume-rows tr")).to_have_count(2)
    assert len(resumes_in_api(page)) == 2

    page.get_by_role("button", name="Delete Remove me").click()
    page.keyboard.press("Escape")  # Escape is a cancel too
    expect(confirm).to_be_hidden()
    assert len(resumes_in_api(page)) == 2

    page.get_by_role("button", name="Delete Remove me").click()
    confirm.get_by_role("button", name="Delete").click()
    expect(page.locator("#resume-rows tr")).to_have_count(1)
    expect(row(page, "Keep me")).to_be_visible()
    expect(page.locator("#toast")).to_have_text("Resume moved to the trash.")
    expect(page.locator("#resumes-usage")).to_have_text("1 of 5")
    assert [r["title"] for r in resumes_in_api(page)] == ["Keep me"]

    page.get_by_role("button", name="Delete Keep me").click()
    confirm.get_by_role("button", name="Delete").click()
    expect(page.get_by_role("heading", name="No resumes yet")).to_be_visible()
    assert page.script_errors == []


def test_the_picker_by_keyboard_opens_tabs_through_templates_and_closes_with_escape(open_as):
    page = open_as()
    page.goto("/dashboard")
    new = page.locator("#new-resume")
    expect(page.locator("#resumes-usage")).to_have_text("0 of 5")
    for _ in range(10):  # from the top of the page, as a keyboard user gets there
        page.keyboard.press("Tab")
        if new.evaluate("el => el === document.activeElement"):
            break
    expect(new).to_be_focused()
    page.keyboard.press("Enter")
    picker = page.get_by_role("dialog", name="Choose a template")
    expect(picker).to_be_visible()
    templates = templates_in_api(page)
    expect(picker.locator(".template-card")).to_have_count(len(templates))
    reached = []
    for _ in range(len(templates) + 3):  # the close button, the title, then every template in order
        page.keyboard.press("Tab")
        reached.append(page.evaluate("document.activeElement.getAttribute('aria-label') || document.activeElement.id"))
    assert [name for name in reached if name.startswith(("Use ", "Upgrade"))] == [
        f"Upgrade to use {t['name']}" if t["tier"] == "premium" else f"Use {t['name']}" for t in templates]
    focused_ring = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert focused_ring != "none"
    page.keyboard.press("Escape")
    expect(picker).to_be_hidden()
    expect(new).to_be_focused()
    page.keyboard.press("Enter")
    expect(picker).to_be_visible()
    picker.get_by_role("button", name="Use Horizon").focus()
    page.keyboard.press("Enter")
    page.wait_for_url(EDITOR_URL)
    assert page.script_errors == []


@pytest.mark.parametrize("language,theme", [(lang, theme) for lang in LANGUAGES for theme in THEMES
                                            if (lang, theme) != ("en", "light")])
def test_the_dashboard_in_each_language_and_theme(open_as, language, theme):
    page = open_as(language=language, theme=theme)
    make_resume(page, "<b>Résumé</b> 简历", HORIZON, "PUBLISHED")
    page.goto("/dashboard")
    zh = language == "zh-cn"
    expect(page.locator("html")).to_have_attribute("data-theme", theme)
    expect(page.locator("h1")).to_have_text("我的简历" if zh else "Your resumes")
    item = row(page, "<b>Résumé</b> 简历")  # shown as typed, never as markup
    expect(item.locator(".status")).to_have_text("已发布" if zh else "Published")
    expect(item.locator(".share")).to_have_text("未分享" if zh else "Not shared")
    expect(item.locator("time")).to_have_text(re.compile(r"\d{4}年\d{1,2}月\d{1,2}日" if zh else r"\d{4}"))
    expect(page.locator("#resumes-usage")).to_have_text("1 / 5" if zh else "1 of 5")
    expect(page.locator("#plan-name")).to_have_text("免费版" if zh else "Free plan")
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert background == ("rgb(17, 24, 39)" if theme == "dark" else "rgb(245, 247, 250)")
    page.locator("#new-resume").click()
    picker = page.get_by_role("dialog", name="选择模板" if zh else "Choose a template")
    meridian = picker.locator(".template-card", has_text="Meridian")
    expect(meridian.locator(".badge")).to_have_text(["专业", "高级版"] if zh else ["Professional", "Premium"])
    expect(meridian.get_by_role("link")).to_have_text("升级" if zh else "Upgrade")
    page.keyboard.press("Escape")
    page.get_by_role("button", name="删除“<b>Résumé</b> 简历”" if zh else "Delete <b>Résumé</b> 简历").click()
    expect(page.locator("#confirm-text")).to_contain_text("回收站" if zh else "30 days")
    assert page.script_errors == []


@pytest.mark.parametrize("theme", THEMES)
def test_the_dashboard_fits_375_pixels(open_as, theme):
    page = open_as(theme=theme, width=375)
    for n, status in enumerate(["DRAFT", "PUBLISHED", "ARCHIVED"]):
        make_resume(page, f"A rather long resume title number {n} for a narrow screen", HORIZON, status)
    page.goto("/dashboard?limit=2")
    expect(page.locator("#resume-rows tr")).to_have_count(2)
    expect(page.locator("#pager")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.locator("#new-resume").click()
    expect(page.locator(".template-card")).to_have_count(len(templates_in_api(page)))
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    dialog_box = page.locator("#picker").bounding_box()
    assert dialog_box["x"] >= 0 and dialog_box["x"] + dialog_box["width"] <= 375
    assert page.script_errors == []


def test_signed_out_visitors_go_to_sign_in_and_resumes_is_the_dashboard(client, login, make_user):
    response = client.get("/dashboard")
    assert response.status_code == 302 and response.headers["Location"] == "/login?callbackUrl=%2Fdashboard"
    login(make_user())
    assert client.get("/").headers["Location"] == "/dashboard"
    assert client.get("/resumes").headers["Location"] == "/dashboard"
    assert client.get("/resumes?status=DRAFT&page=2").headers["Location"] == "/dashboard?status=DRAFT&page=2"
    page = client.get("/dashboard")
    assert page.status_code == 200 and 'src="/static/js/dashboard/page.js"' in page.get_data(as_text=True)
