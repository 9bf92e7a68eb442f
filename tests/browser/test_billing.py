"""The subscription page in a real browser: subscribing with the sandbox's test cards (one that succeeds,
one that needs its holder's authentication at the provider's page, declined ones), the upgrade within a
period with its proration and effective date shown before confirming, a downgrade scheduled for the
period end, cancel and reactivate; in English and Chinese, light and dark, at 375 px, by keyboard."""
from datetime import datetime, timedelta, timezone

import pytest
from playwright.sync_api import expect
from sqlalchemy import update

from app.billing.models import Subscription
from tests.browser.conftest import LANGUAGES, THEMES

DAY = timedelta(days=1)


def long_date(moment: datetime) -> str:
    """A date as the page writes it in English (dateStyle "long", the user's time zone: UTC)."""
    moment = moment.astimezone(timezone.utc)
    return f"{moment:%B} {moment.day}, {moment.year}"


def timestamp(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def subscription(page) -> dict:
    response = page.request.get("/api/account/subscription")
    assert response.ok, response.text()
    return response.json()["data"]


def subscribe_by_api(page, card="pm_card_visa"):
    response = page.request.post("/api/account/subscription", data={"planId": "premium", "paymentMethodId": card})
    assert response.status == 201, response.text()


def set_period(live, user_id, start, end):
    """10 of 30 days of the current period used, as if the account were ten days old."""
    from app.extensions import db

    with live[1].app_context():
        db.session.execute(update(Subscription).where(Subscription.user_id == user_id)
                           .values(current_period_start=start, current_period_end=end))
        db.session.commit()


def open_billing(open_as, user=None, **kwargs):
    page = open_as(user, **kwargs)
    page.goto("/billing")
    expect(page.locator(".panel.current")).to_have_attribute("aria-busy", "false")
    return page


def summary(page, dialog) -> dict[str, str]:
    """The dialog's summary as {term: value}, once it has been worked out."""
    rows = page.locator(f"#{dialog} .summary > div")
    expect(rows.first).not_to_contain_text("…")
    return {row.locator("dt").inner_text(): row.locator("dd").inner_text() for row in rows.all()}


def narrow_enough(page, width=375) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= width


# Subscribing ---------------------------------------------------------------------------------------------
def test_a_free_user_subscribes_to_premium_with_the_card_that_succeeds(open_as):
    page = open_billing(open_as)
    expect(page.locator("#current-plan")).to_have_text("Free")
    expect(page.locator("#next-billing")).to_have_text("Nothing is scheduled to be charged.")
    premium = page.locator('.plan[data-plan="PREMIUM"]')
    expect(premium.locator(".price")).to_contain_text("$29.99")
    expect(premium).to_contain_text("AI features")
    expect(page.locator('.plan[data-plan="FREE"] .current-badge')).to_be_visible()

    premium.get_by_role("button", name="Upgrade to Premium").click()
    dialog = page.get_by_role("dialog", name="Upgrade to Premium")
    expect(dialog).to_be_visible()
    card = dialog.get_by_label("Card")
    assert "Visa — succeeds, ending in 4242" in card.inner_text()
    assert "Card that needs authentication" in card.inner_text()
    card.select_option("pm_card_visa")
    shown = summary(page, "subscribe-dialog")
    assert shown["Charged now"] == "$29.99" and shown["Takes effect"].startswith("Today")
    dialog.get_by_role("button", name="Subscribe and pay").click()

    expect(page.locator("#billing-notice")).to_have_text("You now have Premium. Thank you!")
    expect(dialog).to_be_hidden()
    expect(page.locator("#current-plan")).to_have_text("Premium")
    data = subscription(page)
    assert data["type"] == "PREMIUM"
    expect(page.locator("#next-billing")).to_have_text(f"$29.99 on {long_date(timestamp(data['currentPeriodEnd']))}")
    expect(page.locator("#card-on-file")).to_contain_text("Visa ending in 4242")
    expect(premium.get_by_role("button", name="Upgrade to Premium")).to_be_hidden()
    expect(page.locator('.plan[data-plan="FREE"]').get_by_role("button", name="Downgrade to Free")).to_be_visible()
    assert page.script_errors == []


@pytest.mark.parametrize("outcome", ["Complete authentication", "Fail authentication"])
def test_a_card_that_needs_authentication_goes_through_the_banks_page_and_back(open_as, outcome):
    page = open_billing(open_as)
    page.get_by_role("button", name="Upgrade to Premium").click()
    dialog = page.get_by_role("dialog", name="Upgrade to Premium")
    dialog.get_by_label("Card").select_option("pm_card_authenticationRequired")
    summary(page, "subscribe-dialog")
    dialog.get_by_role("button", name="Subscribe and pay").click()

    page.wait_for_url("**/payments/authenticate/**")
    expect(page.get_by_role("heading", name="Confirm your payment")).to_be_visible()
    expect(page.locator("dl.payment")).to_contain_text("29.99 USD")
    page.get_by_role("button", name=outcome).click()
    expect(page.get_by_role("heading")).to_have_text("Payment complete" if outcome.startswith("Complete")
                                                     else "Payment not completed")
    page.get_by_role("link", name="Back to your subscription").click()
    page.wait_for_url("**/billing?payment=*")

    notice = page.locator("#billing-notice")
    if outcome.startswith("Complete"):
        expect(notice).to_have_text("Your payment was confirmed: you now have Premium.")
        expect(page.locator("#current-plan")).to_have_text("Premium")
    else:
        expect(notice).to_have_text("The payment was not completed: your plan is unchanged.")
        expect(page.locator("#current-plan")).to_have_text("Free")
    assert page.script_errors == []


@pytest.mark.parametrize("card,reason", [
    ("pm_card_chargeDeclined", "The card was declined."),
    ("pm_card_chargeDeclinedInsufficientFunds", "The card has insufficient funds."),
])
def test_a_declined_card_says_why_and_changes_nothing(open_as, card, reason):
    page = open_billing(open_as)
    page.get_by_role("button", name="Upgrade to Premium").click()
    dialog = page.get_by_role("dialog", name="Upgrade to Premium")
    dialog.get_by_label("Card").select_option(card)
    summary(page, "subscribe-dialog")
    dialog.get_by_role("button", name="Subscribe and pay").click()

    expect(dialog.get_by_role("alert")).to_have_text(f"Payment failed: {reason} Nothing was charged.")
    expect(dialog).to_be_visible()
    assert subscription(page)["type"] == "FREE"
    dialog.get_by_role("button", name="Back").click()
    expect(page.locator("#current-plan")).to_have_text("Free")
    assert page.script_errors == []


# Changing the plan ---------------------------------------------------------------------------------------
def test_an_upgrade_shows_its_proration_and_effective_date_before_it_is_confirmed(open_as, live, make_user):
    user = make_user()
    now = datetime.now(timezone.utc)
    end = now + 20 * DAY
    set_period(live, user["id"], now - 10 * DAY, end)
    page = open_billing(open_as, user)
    page.get_by_role("button", name="Upgrade to Premium").click()
    dialog = page.get_by_role("dialog", name="Upgrade to Premium")
    dialog.get_by_label("Card").select_option("pm_card_mastercard")
    dialog.get_by_label("Keep my billing date and pay only for the rest of this period").check()

    shown = summary(page, "subscribe-dialog")
    assert shown["Prorated amount"] == "$19.99" and shown["Charged now"] == "$19.99"
    assert shown["Takes effect"] == f"Today ({long_date(now)})"
    assert shown["Then"] == f"$29.99 on {long_date(end)}, then monthly"
    expect(dialog.get_by_label("Coupon code")).to_be_hidden()  # coupons come with a new period only
    assert subscription(page)["type"] == "FREE"  # nothing happened before confirming

    dialog.get_by_role("button", name="Pay and upgrade").click()
    expect(page.locator("#current-plan")).to_have_text("Premium")
    expect(page.locator("#next-billing")).to_have_text(f"$29.99 on {long_date(end)}")
    expect(page.locator("#card-on-file")).to_contain_text("Mastercard ending in 4444")
    assert page.script_errors == []


def test_a_downgrade_is_confirmed_with_its_date_and_shown_as_scheduled_for_the_period_end(open_as):
    page = open_as()
    subscribe_by_api(page)
    end = long_date(timestamp(subscription(page)["currentPeriodEnd"]))
    page.goto("/billing")
    page.get_by_role("button", name="Downgrade to Free").click()
    dialog = page.get_by_role("dialog", name="Downgrade to Free?")

    shown = summary(page, "change-dialog")
    assert shown == {"Prorated amount": "$0.00", "Charged now": "$0.00", "Takes effect": end,
                     "Next billing": "No further charge"}
    expect(dialog).to_contain_text(f"You keep Premium until {end}; then your plan becomes Free.")
    assert subscription(page)["pendingType"] is None
    dialog.get_by_role("button", name="Schedule the downgrade").click()

    expect(page.locator("#billing-notice")).to_have_text(f"Downgrade scheduled for {end}.")
    expect(page.locator("#scheduled")).to_have_text(f"A downgrade is scheduled: your plan becomes Free on {end}.")
    expect(page.locator("#current-plan")).to_have_text("Premium")
    expect(page.locator("#next-billing")).to_have_text("Nothing is scheduled to be charged.")
    expect(page.get_by_role("button", name="Downgrade to Free")).to_be_hidden()
    expect(page.get_by_role("button", name="Reactivate")).to_be_visible()
    assert subscription(page)["pendingType"] == "FREE"
    assert page.script_errors == []


def test_cancel_and_reactivate(open_as):
    page = open_as()
    subscribe_by_api(page)
    end = long_date(timestamp(subscription(page)["currentPeriodEnd"]))
    page.goto("/billing")

    page.get_by_role("button", name="Cancel subscription").click()
    dialog = page.get_by_role("dialog", name="Cancel your subscription?")
    assert summary(page, "change-dialog")["Takes effect"] == end
    dialog.get_by_role("button", name="Cancel subscription").click()
    expect(page.locator("#scheduled")).to_have_text(
        f"Your subscription is canceled: Premium stays until {end}, then you are on Free.")
    expect(page.locator("#next-billing")).to_have_text("Nothing is scheduled to be charged.")
    expect(page.get_by_role("button", name="Cancel subscription")).to_be_hidden()
    assert subscription(page)["cancelAtPeriodEnd"] is True

    page.get_by_role("button", name="Reactivate").click()
    dialog = page.get_by_role("dialog", name="Reactivate Premium?")
    assert summary(page, "change-dialog")["Next billing"] == f"$29.99 on {end}"
    dialog.get_by_role("button", name="Reactivate").click()
    expect(page.locator("#billing-notice")).to_have_text("Your plan renews as it is.")
    expect(page.locator("#scheduled")).to_be_hidden()
    expect(page.locator("#next-billing")).to_have_text(f"$29.99 on {end}")
    assert subscription(page)["cancelAtPeriodEnd"] is False
    assert page.script_errors == []


# Languages, themes, widths, keyboard -----------------------------------------------------------------------
ZH = {"heading": "订阅", "free": "免费版", "premium": "高级版", "upgrade": "升级到高级版", "charged": "立即扣款",
      "declined": "付款失败：银行卡被拒绝。未产生任何扣款。"}
OTHER_LOOKS = [(language, theme) for language in LANGUAGES for theme in THEMES if (language, theme) != ("en", "light")]


@pytest.mark.parametrize("language,theme", OTHER_LOOKS)
def test_the_page_in_each_language_and_theme_subscribes_by_keyboard(open_as, language, theme):
    page = open_billing(open_as, language=language, theme=theme)
    assert page.evaluate("document.documentElement.dataset.theme") == theme
    zh = language == "zh-cn"
    expect(page.get_by_role("heading", level=1)).to_have_text(ZH["heading"] if zh else "Subscription")
    expect(page.locator("#current-plan")).to_have_text(ZH["free"] if zh else "Free")
    upgrade = page.get_by_role("button", name=ZH["upgrade"] if zh else "Upgrade to Premium")

    for _ in range(40):  # Tab to the upgrade button, as a keyboard user does
        page.keyboard.press("Tab")
        if upgrade.evaluate("button => button === document.activeElement"):
            break
    else:
        pytest.fail("the upgrade button cannot be reached with Tab")
    page.keyboard.press("Enter")
    dialog = page.locator("#subscribe-dialog")
    expect(dialog).to_be_visible()
    card = dialog.locator("#subscribe-card")
    expect(card).to_be_focused()
    card.select_option("pm_card_chargeDeclined")  # the declined card says so in the page's language
    summary(page, "subscribe-dialog")
    dialog.locator("#subscribe-confirm").focus()
    page.keyboard.press("Enter")
    expect(dialog.get_by_role("alert")).to_have_text(
        ZH["declined"] if zh else "Payment failed: The card was declined. Nothing was charged.")
    card.select_option("pm_card_visa")
    shown = summary(page, "subscribe-dialog")
    assert (ZH["charged"] if zh else "Charged now") in shown
    dialog.locator("#subscribe-confirm").focus()
    page.keyboard.press("Enter")
    expect(page.locator("#current-plan")).to_have_text(ZH["premium"] if zh else "Premium")
    page.keyboard.press("Escape")
    assert page.script_errors == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_page_and_its_dialogs_fit_375_px(open_as, language):
    page = open_as(language=language, width=375)
    subscribe_by_api(page)
    page.goto("/billing")
    expect(page.locator(".panel.current")).to_have_attribute("aria-busy", "false")
    assert narrow_enough(page)
    page.locator("#cancel-plan").click()
    summary(page, "change-dialog")
    assert narrow_enough(page)
    box = page.locator("#change-dialog").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 375
    page.keyboard.press("Escape")
    expect(page.locator("#change-dialog")).to_be_hidden()
    assert page.script_errors == []


def test_the_page_needs_a_session(live, browser):
    context = browser.new_context(base_url=live[0])
    page = context.new_page()
    page.goto("/billing")
    assert "/login?callbackUrl=%2Fbilling" in page.url
    context.close()
