"""The webhooks page in Chromium, against a real receiver on loopback (the test environment allows
private targets): create, test, the delivery log, edit, disable, delete, errors at their fields;
in English and Chinese, light and dark, and 375 px wide."""
from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LANGUAGES, THEMES
from tests.support import Receiver, wait_until


@pytest.fixture
def receiver():
    server = Receiver()
    yield server
    server.close()


def api(page, method: str, path: str, body: dict | None = None) -> dict:
    """A call with the page's session cookie (set-up and checks the page itself does not make)."""
    response = page.context.request.fetch(path, method=method, data=body)
    assert response.ok, response.text()
    return response.json()["data"]


def row_of(page, url: str):
    return page.locator("#webhook-rows tr", has=page.locator(".wh-url", has_text=url))


def received_types(receiver) -> list[str]:
    return [json.loads(r["body"])["type"] for r in receiver.requests]


def test_create_test_log_edit_disable_delete(open_as, receiver):
    page = open_as()
    page.goto("/webhooks")
    expect(page.get_by_role("heading", name="Webhooks", exact=True)).to_be_visible()
    expect(page.locator("#webhook-empty")).to_be_visible()

    # Create, for resume.updated, with the secret left to the service: it is shown once.
    page.get_by_label("Receiver URL").first.fill(receiver.url)
    page.locator("#create-form").get_by_label("resume.updated").check()
    page.get_by_role("button", name="Add webhook").click()
    row = row_of(page, receiver.url)
    expect(row).to_have_count(1)
    expect(row.locator(".wh-event-list li")).to_have_text(["resume.updated"])
    expect(row.locator("td").nth(2)).to_have_text(re.compile("Active"))
    expect(page.locator("#webhook-count")).to_have_text("1 of 10 webhooks")
    secret = page.locator("#new-secret-value")
    expect(secret).to_have_text(re.compile(r"^whsec_\S{16,}$"))
    [webhook] = api(page, "GET", "/api/webhooks")
    assert webhook["secret"] == secret.inner_text() and webhook["events"] == ["resume.updated"]
    page.screenshot(path="/tmp/webhooks-created.png")
    page.get_by_role("button", name="Done").click()
    expect(page.locator("#new-secret")).to_be_hidden()

    # Send a test: the receiver gets it, the page reports it and the log lists it.
    row.get_by_role("button", name=re.compile("^Send test")).click()
    expect(page.locator("#test-result")).to_have_text(re.compile(r"^Test delivered: HTTP 200 in \d+ ms\.$"))
    assert received_types(receiver) == ["webhook.test"]
    assert receiver.requests[0]["headers"]["x-service-signature"].startswith("sha256=")
    log_row = page.locator('#log-rows tr[data-event="webhook.test"]')
    expect(log_row).to_have_count(1)
    expect(log_row.locator("td").nth(1)).to_have_text(re.compile("Delivered"))
    expect(log_row.locator("td").nth(2)).to_have_text("200")
    expect(log_row.locator("td").nth(3)).to_have_text("1")
    expect(log_row.locator("td").nth(4)).to_have_text(re.compile(r"^\d+ ms$"))
    expect(page.locator("#log-title")).to_have_text(f"Delivery log of {receiver.url}")
    expect(page.get_by_role("button", name="Show more")).to_be_hidden()  # fewer entries than a page

    # A real event of the subscribed type reaches the receiver and the log.
    template = api(page, "GET", "/api/templates")[0]["id"]
    resume = api(page, "POST", "/api/resumes", {"title": "Backend engineer", "templateId": template})
    api(page, "PUT", f"/api/resumes/{resume['id']}", {"title": "Staff engineer"})
    wait_until(lambda: "resume.updated" in received_types(receiver))
    assert "resume.created" not in received_types(receiver)  # not subscribed
    page.get_by_role("button", name="Refresh").click()
    expect(page.locator('#log-rows tr[data-event="resume.updated"]')).to_have_count(1)
    expect(page.locator('#log-rows tr[data-event="resume.updated"]')).to_have_attribute("data-outcome", "ok")

    # Edit the events (PUT): resume.created added.
    row.get_by_role("button", name=re.compile("^Edit")).click()
    dialog = page.locator("#edit-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_label("Receiver URL")).to_have_value(receiver.url)
    expect(dialog.get_by_label("resume.updated")).to_be_checked()
    dialog.get_by_label("resume.created").check()
    dialog.get_by_role("button", name="Save changes").click()
    expect(dialog).to_be_hidden()
    expect(row.locator(".wh-event-list li")).to_have_text(["resume.created", "resume.updated"])
    assert api(page, "GET", "/api/webhooks")[0]["events"] == ["resume.created", "resume.updated"]

    # Disable, then enable again.
    row.get_by_role("button", name=re.compile("^Disable")).click()
    expect(row.locator("td").nth(2)).to_have_text(re.compile("Disabled"))
    assert api(page, "GET", "/api/webhooks")[0]["active"] is False
    expect(row.get_by_role("button", name=re.compile("^Enable"))).to_be_focused()
    row.get_by_role("button", name=re.compile("^Enable")).click()
    expect(row.locator("td").nth(2)).to_have_text(re.compile("Active"))

    # Delete asks first: cancelling keeps it; confirming removes it and its log.
    row.get_by_role("button", name=re.compile("^Delete")).click()
    confirm = page.locator("#delete-dialog")
    expect(confirm).to_contain_text(f"Delete the webhook to {receiver.url}?")
    confirm.get_by_role("button", name="Cancel").click()
    expect(confirm).to_be_hidden()
    expect(row).to_have_count(1)
    row.get_by_role("button", name=re.compile("^Delete")).click()
    confirm.get_by_role("button", name="Delete", exact=True).click()
    expect(row).to_have_count(0)
    expect(page.locator("#webhook-empty")).to_be_visible()
    expect(page.locator("#log-panel")).to_be_hidden()
    assert api(page, "GET", "/api/webhooks") == []
    assert page.script_errors == []


@pytest.mark.parametrize("language,message", [
    ("en", "Enter a web address that starts with http:// or https://."),
    ("zh-cn", "请输入以 http:// 或 https:// 开头的网址。"),
])
def test_errors_show_at_their_fields(open_as, receiver, language, message):
    page = open_as(language=language, theme="dark" if language == "zh-cn" else "light")
    page.goto("/webhooks")
    form = page.locator("#create-form")
    url = form.locator('input[name="url"]')
    url.fill("not a url")
    form.locator('input[value="resume.updated"]').check()
    form.locator('button[type="submit"]').click()
    note = form.locator("#error-url")
    expect(note).to_have_text(message)
    expect(url).to_have_attribute("aria-invalid", "true")
    expect(url).to_have_attribute("aria-describedby", "error-url")
    expect(url).to_be_focused()

    # No event chosen: the error is at the checklist; the URL's error is gone.
    url.fill(receiver.url)
    form.locator('input[value="resume.updated"]').uncheck()
    form.locator('button[type="submit"]').click()
    expect(form.locator("#error-events")).to_be_visible()
    expect(form.locator("#error-url")).to_have_count(0)

    # A secret too short.
    form.locator('input[value="resume.updated"]').check()
    form.locator('input[name="secret"]').fill("short")
    form.locator('button[type="submit"]').click()
    expect(form.locator("#error-secret")).to_be_visible()
    page.screenshot(path=f"/tmp/webhooks-errors-{language}.png")
    assert api(page, "GET", "/api/webhooks") == []
    assert page.script_errors == []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("theme", THEMES)
def test_the_page_in_each_language_and_theme(open_as, receiver, language, theme):
    page = open_as(language=language, theme=theme)
    api(page, "POST", "/api/webhooks", {"url": receiver.url, "events": ["resume.updated"]})
    page.goto("/webhooks")
    zh = language == "zh-cn"
    assert page.locator("html").get_attribute("data-theme") == theme
    expect(page.locator("h1")).to_have_text("Webhook" if zh else "Webhooks")
    row = row_of(page, receiver.url)
    expect(row.locator("td").nth(2)).to_have_text(re.compile("已启用" if zh else "Active"))
    expect(page.locator("#create-form")).to_contain_text("修改了简历" if zh else "A resume was changed")
    row.locator('[data-action="test"]').click()
    expect(page.locator("#test-result")).to_have_text(
        re.compile(r"^测试已送达：HTTP 200，用时 \d+ 毫秒。$" if zh else r"^Test delivered: HTTP 200 in \d+ ms\.$"))
    expect(page.locator('#log-rows tr[data-event="webhook.test"] td').nth(1)).to_have_text(
        re.compile("已送达" if zh else "Delivered"))
    background = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert (background == "rgb(17, 24, 39)") == (theme == "dark")
    page.screenshot(path=f"/tmp/webhooks-{language}-{theme}.png", full_page=True)
    assert page.script_errors == []


def test_keyboard_create_and_delete(open_as, receiver):
    page = open_as()
    page.goto("/webhooks")
    expect(page.locator("#webhook-empty")).to_be_visible()
    page.locator("#create-url").focus()
    page.keyboard.type(receiver.url)
    page.keyboard.press("Tab")
    expect(page.locator("#create-event-1")).to_be_focused()
    page.keyboard.press("Space")
    expect(page.locator("#create-event-1")).to_be_checked()
    page.locator("#create-secret").focus()
    page.keyboard.type("a-secret-of-at-least-16")
    page.keyboard.press("Enter")  # submits the form
    row = row_of(page, receiver.url)
    expect(row).to_have_count(1)
    expect(page.locator("#new-secret")).to_be_hidden()  # a secret the person chose is not shown back

    delete = row.locator('[data-action="delete"]')
    delete.focus()
    page.keyboard.press("Enter")
    expect(page.locator("#delete-dialog")).to_be_visible()
    expect(page.locator("#delete-dialog [data-close]")).to_be_focused()  # the safe choice
    page.keyboard.press("Escape")
    expect(page.locator("#delete-dialog")).to_be_hidden()
    expect(delete).to_be_focused()
    page.keyboard.press("Enter")
    page.keyboard.press("Shift+Tab")
    expect(page.locator("#delete-confirm")).to_be_focused()
    page.keyboard.press("Enter")
    expect(row).to_have_count(0)
    assert page.script_errors == []


def test_narrow_screen(open_as, receiver):
    page = open_as(language="zh-cn", theme="dark", width=375)
    long_url = receiver.url + "hooks/" + "a-rather-long-path-segment/" * 4
    api(page, "POST", "/api/webhooks", {"url": long_url, "events": ["resume.updated", "resume.created",
                                                                    "user.subscription_changed"]})
    page.goto("/webhooks")
    row = row_of(page, long_url)
    row.locator('[data-action="test"]').click()
    expect(page.locator('#log-rows tr[data-event="webhook.test"]')).to_have_count(1)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path="/tmp/webhooks-375-zh-dark.png", full_page=True)
    row.locator('[data-action="edit"]').click()
    expect(page.locator("#edit-dialog")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    box = page.locator("#edit-dialog").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375
    page.screenshot(path="/tmp/webhooks-375-edit.png")
    assert page.script_errors == []


def test_a_failed_test_its_retry_and_more_of_the_log(open_as):
    failing = Receiver(statuses=[500])  # the first post is refused; the retry (after 1 s) is accepted
    try:
        page = open_as()
        webhook = api(page, "POST", "/api/webhooks", {"url": failing.url, "events": ["resume.updated"]})
        page.goto("/webhooks")
        row_of(page, failing.url).locator('[data-action="test"]').click()
        expect(page.locator("#test-result")).to_have_text(
            re.compile(r"^Test not delivered: HTTP 500: .+ The next attempt is at .+\.$"))
        entry = page.locator('#log-rows tr[data-event="webhook.test"]')
        expect(entry).to_have_attribute("data-outcome", "retrying")
        expect(entry.locator("td").nth(2)).to_have_text("500")
        expect(entry.locator("td").nth(6)).not_to_have_text("—")  # the next retry's time
        failing.wait_for(2)
        wait_until(lambda: api(page, "GET", f"/api/webhooks/{webhook['id']}/logs")[0].get("delivered_at"))
        page.get_by_role("button", name="Refresh").click()
        expect(entry).to_have_attribute("data-outcome", "ok")
        expect(entry.locator("td").nth(3)).to_have_text("2")  # attempts
        expect(entry.locator("td").nth(6)).to_have_text("—")

        # The API pages the log by its limit: 20 at first, "Show more" asks for the rest.
        for _ in range(20):
            api(page, "POST", f"/api/webhooks/{webhook['id']}/test")
        page.get_by_role("button", name="Refresh").click()
        expect(page.locator("#log-rows tr")).to_have_count(20)
        page.get_by_role("button", name="Show more").click()
        expect(page.locator("#log-rows tr")).to_have_count(21)
        expect(page.get_by_role("button", name="Show more")).to_be_hidden()
        assert page.script_errors == []
    finally:
        failing.close()
