"""The account page's API tokens in Chromium: create one with a name, its value shown once with Copy and
working at POST /api/auth/token, listed with its dates, revoked; in English and Chinese, and 375 px wide."""
from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LANGUAGES

WORDS = {
    "en": {"title": "API tokens", "name": "Name of the new token", "create": "Create a token", "copy": "Copy",
           "copied": "Copied.", "done": "I have copied it", "none": "No API tokens.", "never": "Never used",
           "revoke": "Revoke CI deploys", "revoked": "Token revoked: CI deploys.",
           "empty": "Give the token a name.", "password": "From a password sign-in"},
    "zh-cn": {"title": "API 令牌", "name": "新令牌的名称", "create": "创建令牌", "copy": "复制", "copied": "已复制。",
              "done": "我已复制", "none": "还没有 API 令牌。", "never": "从未使用", "revoke": "撤销 CI deploys",
              "revoked": "已撤销令牌：CI deploys。", "empty": "请为令牌命名。", "password": "来自密码登录"},
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_token_is_created_copied_used_and_revoked(open_as, live, make_user, language):
    url, _app = live
    words = WORDS[language]
    user = make_user()
    page = open_as(user, language=language)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
    page.goto("/account#api-tokens")
    section = page.locator("#api-tokens")
    expect(section.get_by_role("heading", name=words["title"])).to_be_visible()
    expect(section.locator("#token-list li")).to_have_text([words["none"]])

    section.get_by_role("button", name=words["create"]).click()  # no name yet
    expect(section.locator(".field-error")).to_have_text(words["empty"])
    expect(section.get_by_label(words["name"])).to_be_focused()

    section.get_by_label(words["name"]).fill("CI deploys")
    section.get_by_role("button", name=words["create"]).click()
    value = section.locator("#token-value")
    expect(value).to_be_visible()
    raw = value.input_value()
    assert len(raw) > 30
    expect(section.locator("#token-list li strong")).to_have_text(["CI deploys"])
    expect(section.locator("#token-list li")).to_contain_text(words["never"])
    section.scroll_into_view_if_needed()
    page.screenshot(path=f"/tmp/account-tokens-{language}.png", full_page=False)
    section.get_by_role("button", name=words["copy"], exact=True).click()
    expect(page.locator("#toast")).to_have_text(words["copied"])
    assert page.evaluate("navigator.clipboard.readText()") == raw

    # what a program does with it
    exchanged = page.context.request.post("/api/auth/token", data={"grant_type": "refresh_token",
                                                                   "refresh_token": raw})
    assert exchanged.ok, exchanged.text()
    section.get_by_role("button", name=words["done"]).click()
    expect(section.locator("#token-created")).to_be_hidden()
    assert value.input_value() == ""  # the value has left the page
    page.reload()
    expect(section.locator("#token-list li strong")).to_have_text(["CI deploys"])
    expect(section.locator("#token-list li")).not_to_contain_text(words["never"])  # used once now

    page.once("dialog", lambda dialog: dialog.accept())
    section.get_by_role("button", name=words["revoke"]).click()
    expect(page.locator("#toast")).to_have_text(words["revoked"])
    expect(section.locator("#token-list li")).to_have_text([words["none"]])
    following = exchanged.json()["refresh_token"]
    refused = page.context.request.post("/api/auth/token", data={"grant_type": "refresh_token",
                                                                 "refresh_token": following})
    assert refused.status == 403
    assert page.script_errors == []


def test_a_dismissed_revoke_keeps_the_token_and_the_section_fits_375_px(open_as, live, make_user):
    url, _app = live
    user = make_user()
    page = open_as(user, language="zh-cn", width=375)
    granted = page.context.request.post("/api/auth/token", data={"grant_type": "password", "email": user["email"],
                                                                 "password": user["password"]})
    assert granted.ok, granted.text()
    page.goto("/account#api-tokens")
    section = page.locator("#api-tokens")
    expect(section.locator("#token-list li strong")).to_have_text([WORDS["zh-cn"]["password"]])
    page.once("dialog", lambda dialog: dialog.dismiss())
    section.get_by_role("button", name="撤销 " + WORDS["zh-cn"]["password"]).click()
    page.wait_for_timeout(300)
    expect(section.locator("#token-list li strong")).to_have_text([WORDS["zh-cn"]["password"]])
    assert page.evaluate("document.scrollingElement.scrollWidth") <= 375
    section.screenshot(path="/tmp/account-tokens-375-zh.png")
    assert page.script_errors == []
