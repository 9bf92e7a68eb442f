"""The subscription page ``/billing``: the plans, the person's own plan, and every change to it.

The plans (prices, limits, features) come from the one place they are defined, ``app.billing.plans``,
translated here. Everything about the person's subscription is read and changed by
``static/js/account/billing.js`` through the JSON API with the session cookie: ``GET /api/account/subscription``,
``POST`` it to subscribe, ``POST .../preview`` to show what a change costs and when it takes effect
before the person confirms it, ``PUT`` to make the change. So the API's validation and events apply.

With the sandbox payment provider (test mode: no money moves) the card field offers the sandbox's test
cards by what they do ("Visa — succeeds", "Card that needs authentication", "Declined card: ..."), read
from the provider's own table, so the page can never offer a card the provider does not know. A card
that needs its holder's authentication sends them to the provider's page (``app.pages.payments``);
the page shows the outcome when they come back.
"""
from __future__ import annotations

from flask import current_app
from flask_babel import gettext as _
from flask_babel import pgettext
from flask_login import current_user

from app.ai import provider
from app.billing.plans import PLANS, UNLIMITED, Plan
from app.integrations import payments
from app.pages.shell import render_page, signed_in_page
from app.pages.views import bp

# Every message the billing scripts show (i18n.page_strings translates them into the page).
STRINGS = (
    "Priced by our sales team",
    "{amount} / month", "{amount} on {date}", "Nothing is scheduled to be charged.",
    "{start} to {end}", "{brand} ending in {last4}, expires {month}/{year}", "No card on file",
    "Your subscription is canceled: {plan} stays until {date}, then you are on Free.",
    "A downgrade is scheduled: your plan becomes {plan} on {date}.",
    "Your last payment was declined. Give another card by {date} to keep {plan}.",
    # the subscribe dialog
    "Charged now", "Takes effect", "Then", "Prorated amount", "Today ({date})", "{amount} on {date}, then monthly",
    "Working it out…", "Subscribe and pay", "Pay and upgrade",
    "Sending you to your bank to confirm the payment…",
    # the change dialog
    "Downgrade to {plan}?", "Cancel your subscription?", "Reactivate {plan}?",
    "You keep {current} until {date}; then your plan becomes {plan}. Nothing is refunded for the rest of the "
    "period.",
    "{current} stays until {date}; then you are on Free and nothing more is charged.",
    "What was scheduled for {date} is undone: your {plan} plan renews as it is.",
    "Schedule the downgrade", "Cancel subscription", "Reactivate",
    "Next billing", "No further charge",
    # outcomes
    "You now have Premium. Thank you!", "Your payment was confirmed: you now have Premium.",
    "The payment was not completed: your plan is unchanged.",
    "Downgrade scheduled for {date}.", "Your subscription ends on {date}.", "Your plan renews as it is.",
    "Your card has been changed.",
    # errors in words
    "The card was declined.", "The card has insufficient funds.", "The card has expired.",
    "This card asks its holder to confirm every payment, which only works when you start a new period "
    "today. Choose that, or use another card.",
    "The card holder did not complete the authentication.",
    "Payment failed: {reason} Nothing was charged.",
    "Choose a card.", "There is no such card.", "This coupon does not exist, has expired or is used up.",
    "You already have a paid plan: change it below.",
    "You have no paid subscription to change.",
)

AI_FEATURE = "AI features"  # the plans' feature that needs AI writing set up on the server
AI_UNAVAILABLE = "AI writing is not available on this server (the analysis against a job is)."
# How the sandbox's decline codes read in a card's name.
DECLINE_NAMES = {"insufficient_funds": "Declined card: insufficient funds", "expired_card": "Declined card: expired"}


def _plan(plan: Plan, ai_writing: bool = True) -> dict:
    """A plan as the page shows it: each line a {"text", "note"}; the note says a feature is not available on
    this server (AI writing without AI_BASE_URL / AI_MODEL: the analysis against a job still works)."""
    def limit(value: int, unlimited: str, limited: str, **values) -> str:
        return _(unlimited) if value == UNLIMITED else _(limited, **values)

    def feature(name: str) -> dict:
        unavailable = name == AI_FEATURE and not ai_writing
        return {"text": _(name), "note": _(AI_UNAVAILABLE) if unavailable else None}

    lines = [{"text": text, "note": None} for text in (
        limit(plan.resumes_limit, "Unlimited resumes", "Up to %(n)s resumes", n=plan.resumes_limit),
        limit(plan.shares_limit, "Unlimited share links", "Up to %(n)s shared resumes", n=plan.shares_limit),
        limit(plan.storage_limit, "Unlimited storage", "%(n)s MB of storage",
              n=plan.storage_limit // (1024 * 1024)),
        limit(plan.api_requests_limit, "Unlimited API requests", "%(n)s API requests a month",
              n=plan.api_requests_limit),
    )] + [feature(name) for name in plan.features]
    return {"id": plan.id, "type": plan.type, "name": pgettext("plan", plan.name), "price": plan.price,
            "currency": plan.currency, "lines": lines}


def names() -> dict[str, str]:
    """Plan and status names for the scripts. With a context (``msgctxt``), since other areas' catalogues
    translate the bare words differently ("Premium" as a template's tier, "Active" as a webhook's state)."""
    return {**{plan.type: pgettext("plan", plan.name) for plan in PLANS.values()},
            "ACTIVE": pgettext("subscription status", "Active"),
            "PAST_DUE": pgettext("subscription status", "Past due")}


def sandbox_cards() -> list[dict]:
    """The sandbox's test cards, one of each behaviour, named by what they do; none with a real provider."""
    if not isinstance(payments.provider(), payments.SandboxProvider):
        return []
    cards, seen = [], set()
    for payment_method_id, card in payments.TEST_CARDS.items():
        behaviour = (card.brand, card.last4, card.decline_code, card.needs_authentication)
        if behaviour in seen:
            continue
        seen.add(behaviour)
        if card.needs_authentication:
            name = _("Card that needs authentication")
        elif card.decline_code:
            name = _(DECLINE_NAMES[card.decline_code]) if card.decline_code in DECLINE_NAMES else _("Declined card")
        else:
            name = _("%(brand)s — succeeds", brand=card.brand.capitalize())
        cards.append({"id": payment_method_id,
                      "label": _("%(name)s, ending in %(last4)s", name=name, last4=card.last4)})
    return cards


@bp.get("/billing")
@signed_in_page
def billing():
    timezone = (current_user.preferences or {}).get("timezone") or "UTC"
    return render_page("pages/billing.html", strings=STRINGS, timezone=timezone, names=names(),
                       plans=[_plan(plan, provider.configured(current_app.config)) for plan in PLANS.values()],
                       test_cards=sandbox_cards())
