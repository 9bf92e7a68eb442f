"""The public pages in Chromium, as a visitor who is not signed in uses them: register, the mailed
verification link, sign in and land on the dashboard; a forgotten password reset through the mail; a
wrong password explained in the page's language. The language is the browser's (its Accept-Language,
from the context's locale), the theme the system's (the context's colour scheme): nobody has
preferences yet. In English and Chinese, light and dark, 1440 and 375 px wide, and by keyboard.
"""
from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LANGUAGES, THEMES
from tests.support import PASSWORD, link_token

NEW_PASSWORD = "battery staple 42"
PUBLIC_PAGES = ["/", "/login", "/login?error=INVALID_CREDENTIALS", "/register", "/forgot-password",
                "/resend-verification", "/verify-email?token=abc", "/reset-password?token=abc", "/no-such-page"]
BACKGROUND = {"light": "rgb(245, 247, 250)", "dark": "rgb(17, 24, 39)"}
# What each page says, in each language (the heading of the page).
WORDS = {
    "en": {"home": "Build a resume that gets read", "register": "Create an account", "sign in": "Sign in",
           "create": "Create account", "check": "Check your email", "verify": "Verify my email",
           "verified": "Email verified", "email": "Email", "password": "Password", "name": "Name",
           "wrong": "The email or password is incorrect.", "forgot": "Forgot your password?",
           "mail reset": "Mail me a reset link", "new password": "New password", "change": "Change password",
           "changed": "Password changed", "dashboard": "Your resumes", "lang": "en"},
    "zh-cn": {"home": "写一份让人读下去的简历", "register": "创建账户", "sign in": "登录", "create": "创建账户",
              "check": "请查收邮件", "verify": "验证我的邮箱", "verified": "邮箱已验证", "email": "电子邮箱",
              "password": "密码", "name": "姓名", "wrong": "邮箱或密码不正确。", "forgot": "忘记密码？",
              "mail reset": "给我发送重置链接", "new password": "新密码", "change": "更改密码",
              "changed": "密码已更改", "dashboard": "我的简历", "lang": "zh-CN"},
}


@pytest.fixture
def visit(browser, live):
    """``visit(language="en", theme="light", width=1440)`` -> a page of a visitor who is not signed in."""
    url, _app = live
    contexts = []

    def open_page(language: str = "en", theme: str = "light", width: int = 1440):
        context = browser.new_context(base_url=url, viewport={"width": width, "height": 900},
                                      locale="zh-CN" if language == "zh-cn" else "en-US", color_scheme=theme)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(30_000)
        errors = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.script_errors = errors
        return page

    yield open_page
    for context in contexts:
        context.close()


def heading(page, text: str):
    return page.get_by_role("heading", name=text, exact=True)


def register_and_verify(page, mailbox, base_url: str, words: dict, email: str) -> None:
    """From the home page: register, open the mailed link, press the button; ends on "verified"."""
    page.goto("/")
    expect(heading(page, words["home"])).to_be_visible()
    page.get_by_role("link", name=words["register"]).click()
    expect(heading(page, words["register"])).to_be_visible()
    page.get_by_label(words["name"], exact=True).fill("Ada Lovelace")
    page.get_by_label(words["email"], exact=True).fill(email)
    page.get_by_label(words["password"]).fill(PASSWORD)
    page.get_by_role("button", name=words["create"]).click()
    expect(heading(page, words["check"])).to_be_visible()
    expect(page.locator("main")).to_contain_text(email)

    # With Redis the mail is written by the session's `flask worker`, whose BASE_URL is not this live
    # app's: the link's path and token are what this journey needs (mail hosts: tests/auth).
    token = link_token(mailbox.wait_for(email), "/verify-email")
    page.goto(f"{base_url}/verify-email?token={token}")  # what clicking the mail's link opens
    page.get_by_role("button", name=words["verify"]).click()
    expect(heading(page, words["verified"])).to_be_visible()


def sign_in(page, words: dict, email: str, password: str) -> None:
    page.get_by_label(words["email"], exact=True).fill(email)
    page.get_by_label(words["password"], exact=True).fill(password)
    page.locator("form[action='/api/auth/signin'] button[type=submit]").click()


def test_register_verify_and_sign_in_lands_on_the_dashboard(visit, live, mailbox):
    url, _app = live
    words = WORDS["en"]
    page = visit()
    register_and_verify(page, mailbox, url, words, "ada@example.com")

    page.get_by_role("link", name="Sign in", exact=True).click()
    expect(heading(page, "Sign in")).to_be_visible()
    # By keyboard: Tab from the email field through the form, Enter submits.
    page.get_by_label("Email", exact=True).focus()
    page.keyboard.type("ada@example.com")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.name") == "password"
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")

    page.wait_for_url(re.compile(r"/dashboard$"))
    expect(heading(page, words["dashboard"])).to_be_visible()
    # Signed in, the home page is the dashboard, and signing in again is not asked for.
    page.goto("/")
    page.wait_for_url(re.compile(r"/dashboard$"))
    assert page.script_errors == []


def test_the_whole_journey_in_chinese_in_the_dark(visit, live, mailbox):
    url, _app = live
    words = WORDS["zh-cn"]
    page = visit(language="zh-cn", theme="dark")
    register_and_verify(page, mailbox, url, words, "li@example.com")
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    expect(page.locator("body")).to_have_css("background-color", BACKGROUND["dark"])

    page.get_by_role("link", name="登录", exact=True).click()
    expect(page).to_have_title("登录 · 简历服务")
    sign_in(page, words, "li@example.com", PASSWORD)

    page.wait_for_url(re.compile(r"/dashboard$"))
    # No language chosen yet: the browser's stays, across signing in.
    expect(heading(page, words["dashboard"])).to_be_visible()
    expect(page.locator("html")).to_have_attribute("lang", "zh-CN")
    assert page.script_errors == []


def test_a_signed_out_visitor_is_brought_back_to_the_page_they_asked_for(visit, make_user):
    user = make_user()
    page = visit()
    page.goto("/dashboard")
    page.wait_for_url(re.compile(r"/login\?callbackUrl=%2Fdashboard$"))
    sign_in(page, WORDS["en"], user["email"], user["password"])
    page.wait_for_url(re.compile(r"/dashboard$"))
    assert page.script_errors == []


@pytest.mark.parametrize("language,theme", [("en", "light"), ("zh-cn", "dark")])
def test_a_forgotten_password_is_reset_through_the_mail(visit, live, mailbox, make_user, language, theme):
    url, _app = live
    words = WORDS[language]
    user = make_user()
    page = visit(language=language, theme=theme)
    page.goto("/login")
    page.get_by_role("link", name=words["forgot"]).click()
    expect(heading(page, words["forgot"])).to_be_visible()
    page.get_by_label(words["email"], exact=True).fill(user["email"])
    page.get_by_role("button", name=words["mail reset"]).click()
    expect(heading(page, words["check"])).to_be_visible()

    token = link_token(mailbox.wait_for(user["email"]), "/reset-password")  # the path: see above
    page.goto(f"/reset-password?token={token}")
    # A weak password is refused in the page's language, and the form stays to try again.
    page.get_by_label(words["new password"]).fill("short")
    page.evaluate("document.querySelector('input[name=password]').removeAttribute('minlength')")
    page.get_by_role("button", name=words["change"]).click()
    expect(page.locator(".error")).to_have_text("密码强度太弱。请至少使用 8 个字符。" if language == "zh-cn"
                                                else "The password is too weak. Use at least 8 characters.")
    page.get_by_label(words["new password"]).fill(NEW_PASSWORD)
    page.get_by_role("button", name=words["change"]).click()
    expect(heading(page, words["changed"])).to_be_visible()

    page.get_by_role("link", name=words["sign in"], exact=True).click()
    sign_in(page, words, user["email"], PASSWORD)  # the old one no longer works
    expect(page.locator(".error")).to_have_text(words["wrong"])
    sign_in(page, words, user["email"], NEW_PASSWORD)
    page.wait_for_url(re.compile(r"/dashboard$"))
    expect(page.locator("body")).to_have_css("background-color", BACKGROUND[theme])
    assert page.script_errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_wrong_password_is_explained_in_the_page_language(visit, make_user, language):
    words = WORDS[language]
    user = make_user()
    page = visit(language=language)
    page.goto("/login")
    sign_in(page, words, user["email"], "not the password 1")

    page.wait_for_url(re.compile(r"/login\?error=INVALID_CREDENTIALS"))
    expect(page.get_by_role("alert")).to_have_text(words["wrong"])
    expect(page.get_by_label(words["email"], exact=True)).to_have_attribute("aria-describedby", "login-error")
    assert "INVALID_CREDENTIALS" not in page.locator("main").inner_text()
    # the email typed stays (not through the address), the password is to type again
    assert user["email"] not in page.url
    expect(page.get_by_label(words["email"], exact=True)).to_have_value(user["email"])
    expect(page.get_by_label(words["password"], exact=True)).to_be_focused()
    page.get_by_label(words["password"], exact=True).fill(user["password"])
    page.locator("form[action='/api/auth/signin'] button[type=submit]").click()
    page.wait_for_url(re.compile(r"/dashboard$"))
    # a new visit to the sign-in page, with no error, starts empty
    page.context.clear_cookies()
    page.goto("/login")
    expect(page.get_by_label(words["email"], exact=True)).to_have_value("")
    assert page.script_errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_check_your_email_mails_the_link_again(visit, mailbox, language):
    words = WORDS[language]
    email = f"resend-{language}@example.com"
    page = visit(language=language)
    page.goto("/register")
    page.get_by_label(words["name"], exact=True).fill("Ada Lovelace")
    page.get_by_label(words["email"], exact=True).fill(email)
    page.get_by_label(words["password"]).fill(PASSWORD)
    page.get_by_role("button", name=words["create"]).click()
    expect(heading(page, words["check"])).to_be_visible()
    mailbox.wait_for(email)
    page.screenshot(path=f"/tmp/check-email-{language}.png")

    page.get_by_role("button", name="给我发送新链接" if language == "zh-cn" else "Mail me a new link").click()
    expect(heading(page, words["check"])).to_be_visible()
    link_token(mailbox.wait_for(email, count=2), "/verify-email")  # a second mail, with a link
    assert page.script_errors == []


@pytest.mark.parametrize("language,theme", [(lang, theme) for lang in LANGUAGES for theme in THEMES])
def test_every_public_page_in_each_language_and_theme_fits_375_pixels(visit, language, theme):
    page = visit(language=language, theme=theme, width=375)
    for path in PUBLIC_PAGES:
        page.goto(path)
        expect(page.locator("html")).to_have_attribute("lang", WORDS[language]["lang"])
        assert page.evaluate("document.documentElement.scrollWidth") <= 375, path
        expect(page.locator("body")).to_have_css("background-color", BACKGROUND[theme])
        if language == "zh-cn":  # nothing left in English but the brand's own words and codes
            text = page.locator("main").inner_text()
            assert not re.search(r"\b(the|your|and|Sign|Email|Password)\b", text), (path, text)
    assert page.script_errors == []


@pytest.mark.parametrize("language,theme", [("en", "dark"), ("zh-cn", "light")])
def test_signing_in_with_github_from_the_sign_in_page_lands_on_the_dashboard(browser, oauth_live, language, theme):
    context = browser.new_context(base_url=oauth_live, viewport={"width": 375, "height": 800}, color_scheme=theme,
                                  locale="zh-CN" if language == "zh-cn" else "en-US")
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        page.goto("/login")
        button = page.get_by_role("link", name="使用 GitHub 登录" if language == "zh-cn" else "Sign in with GitHub")
        expect(button).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        button.focus()
        page.keyboard.press("Enter")  # the provider agrees at once and sends the browser back
        page.wait_for_url(re.compile(r"/dashboard$"))
        expect(heading(page, WORDS[language]["dashboard"])).to_be_visible()
        assert errors == []
    finally:
        context.close()


@pytest.mark.parametrize("outcome", ["complete", "fail"])
def test_the_banks_payment_page_speaks_chinese_in_the_dark(open_as, outcome):
    page = open_as(language="zh-cn", theme="dark", width=375)
    started = page.context.request.post("/api/account/subscription", data={
        "planId": "premium", "paymentMethodId": "pm_card_authenticationRequired"})
    assert started.ok, started.text()
    page.goto(started.json()["data"]["nextAction"]["url"])
    expect(heading(page, "确认你的付款")).to_be_visible()
    expect(page.locator("dl.payment")).to_contain_text("高级版，按月")
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.get_by_role("button", name="完成验证" if outcome == "complete" else "验证失败").click()
    if outcome == "complete":
        expect(heading(page, "付款完成")).to_be_visible()
        expect(page.locator("main")).to_contain_text("付款完成：你现在使用的是高级版套餐。")
    else:
        expect(heading(page, "付款未完成")).to_be_visible()
        expect(page.locator("main")).to_contain_text("持卡人未完成验证。未产生任何扣款，你的套餐保持不变。")
    page.get_by_role("link", name="返回你的订阅").click()
    page.wait_for_url(re.compile(r"/billing\?payment="))
    assert page.script_errors == []


def test_the_sign_in_form_by_keyboard_with_a_visible_focus(visit):
    page = visit()
    page.goto("/login")
    order = []
    for _ in range(6):
        page.keyboard.press("Tab")
        order.append(page.evaluate("document.activeElement.name || document.activeElement.textContent.trim()"))
        outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
        assert outline != "none", order[-1]
    assert order == ["Skip to content", "Resume Service", "email", "password", "code", "Sign in"]
    page.keyboard.press("Tab")  # Chromium has WebAuthn: the passkey sign-in is offered next
    assert page.evaluate("document.activeElement.id") == "passkey-signin"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.getAttribute('href')") == "/forgot-password"
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/forgot-password$"))
    assert page.script_errors == []
