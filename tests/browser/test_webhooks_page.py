"""The webhooks page in Chromium, against a real receiver on loopback (the test environment allows
private targets): create, test, the delivery log, edit, disable, delete, errors at their fields;
secret rotation, a webhook the service disabled (410, days of failures) and re-enabled, resend and
recover; in English and Chinese, light and dark, and 375 px wide."""
from __future__ import annotations

import hashlib
import hmac
import json
import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect
from sqlalchemy import update

from app.common.models import utcnow
from app.extensions import db
from app.webhooks.models import Webhook
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


# Rotation, resend, recover and the service's own disabling (issue 17) -------------------------------
def set_timezone(page, zone: str) -> None:
    api(page, "PUT", "/api/account", {"preferences": {"timezone": zone}})


def shown_time(timestamp: str, zone: str) -> re.Pattern:
    """The page's medium date and time (en) of ``timestamp`` in ``zone``, e.g. "Mar 1, 2026, 6:05:09 PM"."""
    moment = datetime.fromisoformat(timestamp.replace("Z", "+00:00")).astimezone(ZoneInfo(zone))
    hour = moment.hour % 12 or 12
    return re.escape(f"{moment:%b} {moment.day}, {moment.year}, {hour}:{moment:%M:%S}") + r"\s" + f"{moment:%p}"


def signed_with(secret: str, request: dict) -> bool:
    headers = request["headers"]
    expected = hmac.new(secret.encode(), headers["x-service-timestamp"].encode() + b"." + request["body"],
                        hashlib.sha256).hexdigest()
    return hmac.compare_digest(headers["x-service-signature"], f"sha256={expected}")


def update_resume(page) -> None:
    """A resume.updated event of the page's user."""
    template = api(page, "GET", "/api/templates")[0]["id"]
    resume = api(page, "POST", "/api/resumes", {"title": "Backend engineer", "templateId": template})
    api(page, "PUT", f"/api/resumes/{resume['id']}", {"title": "Staff engineer"})


def test_rotate_the_secret(open_as, receiver, live):
    page = open_as()
    zone = "Asia/Shanghai"  # the page shows times in the person's zone, not the browser's
    set_timezone(page, zone)
    webhook = api(page, "POST", "/api/webhooks", {"url": receiver.url, "events": ["resume.updated"]})
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live[0])
    page.goto("/webhooks")
    row = row_of(page, receiver.url)
    expect(row.locator(".wh-previous")).to_have_count(0)
    rotate = row.get_by_role("button", name=re.compile("^Rotate secret"))

    # It asks first; cancelling (Escape) changes nothing and gives the focus back.
    rotate.focus()
    page.keyboard.press("Enter")
    dialog = page.locator("#rotate-dialog")
    expect(dialog).to_contain_text(f"Rotate the signing secret of {receiver.url}? For 24 hours")
    field = dialog.get_by_label(re.compile("^New signing secret"))
    expect(field).to_be_focused()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    expect(rotate).to_be_focused()
    assert api(page, "GET", "/api/webhooks")[0]["secret"] == webhook["secret"]

    # A secret of the person's own that is too short: said at the field.
    page.keyboard.press("Enter")
    page.keyboard.type("short")
    page.keyboard.press("Enter")
    expect(dialog.locator("#error-secret")).to_have_text("The secret needs at least 16 characters.")
    expect(field).to_have_attribute("aria-invalid", "true")

    # Left empty: the service generates one, shown once with when the old one stops signing.
    field.fill("")
    page.keyboard.press("Enter")
    expect(dialog).to_be_hidden()
    box = page.locator("#rotated-secret")
    expect(box).to_have_attribute("role", "status")
    expect(box).to_contain_text(f"The new signing secret of {receiver.url}.")
    value = page.locator("#rotated-secret-value")
    expect(value).to_have_text(re.compile(r"^whsec_\S{40,}$"))
    [rotated] = api(page, "GET", "/api/webhooks")
    assert rotated["secret"] == value.inner_text() != webhook["secret"]
    until = shown_time(rotated["previousSecretExpiresAt"], zone)
    expect(page.locator("#rotated-secret-expiry")).to_have_text(
        re.compile(f"^The previous secret stops signing deliveries at {until}\\.$"))
    expect(row.locator(".wh-previous")).to_have_text(re.compile(f"^The previous secret also signs until {until}\\.$"))
    expect(page.locator("#copy-rotated-secret")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#toast")).to_have_text("Copied.")
    assert page.evaluate("navigator.clipboard.readText()") == rotated["secret"]
    page.screenshot(path="/tmp/shots/webhooks-rotated.png", full_page=True)

    # Deliveries are signed with the new secret, and carry both signatures while the old one lasts.
    update_resume(page)
    [delivery] = receiver.wait_for(1)
    assert signed_with(rotated["secret"], delivery)
    assert len(delivery["headers"]["webhook-signature"].split(" ")) == 2
    page.locator("#hide-rotated-secret").click()
    expect(box).to_be_hidden()
    expect(rotate).to_be_focused()

    # A secret of the person's own.
    rotate.click()
    field.fill("my-own-secret-of-24-chars")
    dialog.get_by_role("button", name="Rotate secret").click()
    expect(value).to_have_text("my-own-secret-of-24-chars")
    assert api(page, "GET", "/api/webhooks")[0]["secret"] == "my-own-secret-of-24-chars"
    assert page.script_errors == []


def test_a_410_disables_it_and_what_failed_is_sent_again(open_as):
    gone = Receiver(statuses=[410])  # the endpoint is gone once; it answers 200 after that
    try:
        page = open_as()
        webhook = api(page, "POST", "/api/webhooks", {"url": gone.url, "events": ["resume.updated"]})
        update_resume(page)
        wait_until(lambda: api(page, "GET", "/api/webhooks")[0]["disabledReason"] == "gone")
        page.goto("/webhooks")
        row = row_of(page, gone.url)
        status = row.locator("td").nth(2)
        expect(status).to_contain_text("Disabled: the endpoint answered 410 Gone")
        expect(status).to_contain_text(re.compile(r"Since .+\."))
        reenable = row.get_by_role("button", name=re.compile("^Re-enable"))
        expect(reenable).to_be_visible()

        # The log shows the 410; while disabled, resend and recover are refused, in words.
        [first_id] = [entry["id"] for entry in api(page, "GET", f"/api/webhooks/{webhook['id']}/logs")]
        row.get_by_role("button", name=re.compile("^Delivery log")).click()
        original = page.locator(f'#log-rows tr[data-id="{first_id}"]')
        expect(original).to_have_attribute("data-outcome", "failed")
        expect(original.locator("td").nth(2)).to_have_text("410")
        original.get_by_role("button", name=re.compile("^Resend")).click()
        result = page.locator("#test-result")
        expect(result).to_have_text("This webhook is disabled, so nothing can be sent to it. Re-enable it first.")
        expect(result).to_have_attribute("role", "status")
        page.get_by_role("button", name="Recover failed deliveries").click()
        expect(result).to_have_text("This webhook is disabled, so nothing can be sent to it. Re-enable it first.")
        page.screenshot(path="/tmp/shots/webhooks-disabled-gone.png", full_page=True)

        # Re-enabled: recover re-sends the failed delivery (once), and the log marks the copy.
        reenable.click()
        expect(status).to_have_text("Active")
        expect(row.get_by_role("button", name=re.compile("^Disable"))).to_be_focused()
        expect(page.locator("#toast")).to_contain_text("Webhook re-enabled: new events are delivered again.")
        assert api(page, "GET", "/api/webhooks")[0]["disabledReason"] is None
        page.get_by_role("button", name="Recover failed deliveries").click()
        expect(result).to_have_text("1 delivery re-sent.")
        copy = page.locator(f'#log-rows tr[data-resend-of="{first_id}"]')
        expect(copy).to_have_count(1)
        expect(page.locator("#log-rows tr").first).to_have_attribute("data-resend-of", first_id)
        expect(copy.locator("td").first).to_contain_text(re.compile(r"^resume\.updatedRe-send of the delivery of .+"))
        expect(copy).to_have_attribute("data-outcome", "ok")  # its first attempt shows without Refresh
        gone.wait_for(2)
        wait_until(lambda: api(page, "GET", f"/api/webhooks/{webhook['id']}/logs")[0].get("delivered_at"))
        page.get_by_role("button", name="Recover failed deliveries").click()
        expect(result).to_have_text("No deliveries failed since then: nothing was re-sent.")
        expect(page.locator("#log-rows tr")).to_have_count(2)

        # Resend any entry: the new one appears at the top, as a re-send of it, and its outcome follows
        # (the log is read again; the focus stays on the button pressed).
        original.get_by_role("button", name=re.compile("^Resend")).click()
        expect(result).to_have_text("Sent again: the new delivery of resume.updated is at the top of the log.")
        expect(page.locator("#log-rows tr")).to_have_count(3)
        newest = page.locator("#log-rows tr").first
        expect(newest).to_have_attribute("data-resend-of", first_id)
        expect(newest).to_have_attribute("data-outcome", "ok")
        expect(original.get_by_role("button", name=re.compile("^Resend"))).to_be_focused()
        page.locator("#log-panel").screenshot(path="/tmp/shots/webhooks-resent.png")
        gone.wait_for(3)
        assert [json.loads(r["body"])["type"] for r in gone.requests] == ["resume.updated"] * 3

        # Deleting it deletes its log, the re-sends included.
        row.get_by_role("button", name=re.compile("^Delete")).click()
        page.locator("#delete-confirm").click()
        expect(row).to_have_count(0)
        assert api(page, "GET", "/api/webhooks") == []
        assert page.script_errors == []
    finally:
        gone.close()


def test_recover_asks_for_a_past_time(open_as, receiver):
    page = open_as()
    set_timezone(page, "Asia/Shanghai")  # the time typed is the person's zone's (UTC+8), as shown
    webhook = api(page, "POST", "/api/webhooks", {"url": receiver.url, "events": ["resume.updated"]})
    page.goto("/webhooks")
    row_of(page, receiver.url).get_by_role("button", name=re.compile("^Delivery log")).click()
    since = page.get_by_label("Failed since")
    expect(since).to_have_attribute("aria-describedby", "recover-hint")
    expect(page.locator("#recover-hint")).to_contain_text("In your time zone, Asia/Shanghai.")
    since.fill("2999-01-01T10:00")
    page.get_by_role("button", name="Recover failed deliveries").click()
    expect(page.locator("#error-since")).to_have_text("Choose a time that has passed.")
    expect(since).to_have_attribute("aria-invalid", "true")
    expect(since).to_be_focused()

    # Older than the log keeps: the API refuses it, the page says so in words at the field.
    since.fill("2001-01-01T10:00")
    page.keyboard.press("Enter")
    expect(page.locator("#error-since")).to_have_text("The log does not reach that far back. Choose a later time.")

    # Nothing failed: nothing re-sent. Two minutes ago in Shanghai: read as UTC, it would be 8 h ahead.
    since.fill((datetime.now(ZoneInfo("Asia/Shanghai")) - timedelta(minutes=2)).strftime("%Y-%m-%dT%H:%M"))
    page.keyboard.press("Enter")
    expect(page.locator("#test-result")).to_have_text("No deliveries failed since then: nothing was re-sent.")
    expect(page.locator("#error-since")).to_have_count(0)
    assert api(page, "GET", f"/api/webhooks/{webhook['id']}/logs") == []
    assert page.script_errors == []


def _until_held(page, held: dict, name: str) -> None:
    """Until the route handler has held the request ``name``: Playwright's sync API runs a handler only while
    the test is inside one of its calls, so the wait is one (a plain sleep never lets it run: CI saw the
    resend's request arrive after its click returned, and a 15 s poll in Python wait for nothing)."""
    for _ in range(600):
        if name in held:
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"the {name} request was never sent")


def test_a_resend_pressed_while_a_recovery_runs_keeps_the_focus(open_as, receiver):
    """Two slow requests at once: the recovery that ends first does not take the focus back from the
    Resend pressed meanwhile (each request holds its answer here until the test lets it go)."""
    page = open_as()
    webhook = api(page, "POST", "/api/webhooks", {"url": receiver.url, "events": ["resume.updated"]})
    update_resume(page)
    wait_until(lambda: api(page, "GET", f"/api/webhooks/{webhook['id']}/logs"))
    page.goto("/webhooks")
    row_of(page, receiver.url).get_by_role("button", name=re.compile("^Delivery log")).click()
    resend = page.locator("#log-rows tr").first.get_by_role("button", name=re.compile("^Resend"))
    expect(resend).to_be_visible()
    held = {}
    page.route(re.compile(r"/(recover|resend)$"), lambda route: held.__setitem__(route.request.url.split("/")[-1],
                                                                                 route))
    page.get_by_role("button", name="Recover failed deliveries").click()
    _until_held(page, held, "recover")
    resend.click()
    _until_held(page, held, "resend")
    with page.expect_response(re.compile(r"/logs\?limit=")) as reread:  # the recovery reads the log again
        held.pop("recover").continue_()
    reread.value.finished()
    expect(page.locator("#test-result")).to_have_text("No deliveries failed since then: nothing was re-sent.")
    page.evaluate("() => new Promise((done) => setTimeout(done, 100))")  # the recovery's last step has run
    held.pop("resend").continue_()
    expect(page.locator("#test-result")).to_have_text(
        "Sent again: the new delivery of resume.updated is at the top of the log.")
    expect(page.locator("#log-rows tr")).to_have_count(2)
    expect(page.locator("#log-rows tr").nth(1).get_by_role("button", name=re.compile("^Resend"))).to_be_focused()
    assert page.script_errors == []


def test_failing_for_days_in_chinese_on_a_narrow_screen(open_as, make_user, live):
    user = make_user()
    page = open_as(user, language="zh-cn", theme="dark", width=375)
    receiver_url = "http://127.0.0.1:9/hooks/" + "a-rather-long-path-segment/" * 3
    webhook = api(page, "POST", "/api/webhooks", {"url": receiver_url, "events": ["resume.updated"]})
    with live[1].app_context():  # five days of failures, as the service leaves them
        db.session.execute(update(Webhook).where(Webhook.id == webhook["id"]).values(
            active=False, disabled_reason="failing", disabled_at=utcnow() - timedelta(hours=2)))
        db.session.commit()
    page.goto("/webhooks")
    row = row_of(page, receiver_url)
    expect(row.locator("td").nth(2)).to_contain_text("已停用：连续 5 天所有投递均失败")
    expect(row.get_by_role("button", name=re.compile("^重新启用"))).to_be_visible()
    row.get_by_role("button", name=re.compile("^投递日志")).click()
    expect(page.get_by_role("button", name="恢复失败的投递")).to_be_visible()
    expect(page.get_by_label("失败起始时间")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path="/tmp/shots/webhooks-failing-375-zh-dark.png", full_page=True)

    row.get_by_role("button", name=re.compile("^轮换密钥")).click()
    dialog = page.locator("#rotate-dialog")
    expect(dialog).to_contain_text(f"轮换 {receiver_url} 的签名密钥？")
    box = dialog.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375
    dialog.get_by_role("button", name="轮换密钥").click()
    expect(page.locator("#rotated-secret-expiry")).to_have_text(re.compile(r"^旧密钥将于 .+ 停止为投递签名。$"))
    expect(row.locator(".wh-previous")).to_have_text(re.compile(r"^旧密钥在 .+ 之前仍会同时签名。$"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.screenshot(path="/tmp/shots/webhooks-rotated-375-zh-dark.png", full_page=True)

    row.get_by_role("button", name=re.compile("^重新启用")).click()
    expect(row.locator("td").nth(2)).to_have_text(re.compile("^已启用旧密钥在"))
    assert api(page, "GET", "/api/webhooks")[0]["disabledReason"] is None
    assert page.script_errors == []
