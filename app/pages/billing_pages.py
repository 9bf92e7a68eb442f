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
from app.messages import N_
from app.pages.shell import render_page, signed_in_page
from app.pages.views import bp


AI_FEATURE = N_("AI features")  # the plans' feature that needs AI writing set up on the server
AI_UNAVAILABLE = N_("AI writing is not available on this server (the analysis against a job is).")
# How the sandbox's decline codes read in a card's name.
DECLINE_NAMES = {"insufficient_funds": N_("Declined card: insufficient funds"),
                 "expired_card": N_("Declined card: expired")}


def plan_name(plan: Plan) -> str:
    """A plan's name, translated (with a context: "Premium" is a template's tier too)."""
    names = {"FREE": pgettext("plan", "Free"), "PREMIUM": pgettext("plan", "Premium"),
             "ENTERPRISE": pgettext("plan", "Enterprise")}
    return names.get(plan.type, plan.name)


def _plan(plan: Plan, ai_writing: bool = True) -> dict:
    """A plan as the page shows it: each line a {"text", "note"}; the note says a feature is not available on
    this server (AI writing without AI_BASE_URL / AI_MODEL: the analysis against a job still works)."""
    def limit(value: int, unlimited: str, limited: str, **values) -> str:
        return _(unlimited) if value == UNLIMITED else _(limited, **values)

    def feature(name: str) -> dict:
        unavailable = name == AI_FEATURE and not ai_writing
        return {"text": _(name), "note": _(AI_UNAVAILABLE) if unavailable else None}

    lines = [{"text": text, "note": None} for text in (
        limit(plan.resumes_limit, N_("Unlimited resumes"), N_("Up to %(n)s resumes"), n=plan.resumes_limit),
        limit(plan.shares_limit, N_("Unlimited share links"), N_("Up to %(n)s shared resumes"), n=plan.shares_limit),
        limit(plan.storage_limit, N_("Unlimited storage"), N_("%(n)s MB of storage"),
              n=plan.storage_limit // (1024 * 1024)),
        limit(plan.api_requests_limit, N_("Unlimited API requests"), N_("%(n)s API requests a month"),
              n=plan.api_requests_limit),
    )] + [feature(name) for name in plan.features]
    return {"id": plan.id, "type": plan.type, "name": plan_name(plan), "price": plan.price,
            "currency": plan.currency, "lines": lines}


def names() -> dict[str, str]:
    """Plan and status names for the scripts. With a context (``msgctxt``), since other areas' catalogues
    translate the bare words differently ("Premium" as a template's tier, "Active" as a webhook's state)."""
    return {**{plan.type: plan_name(plan) for plan in PLANS.values()},
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
    return render_page("pages/billing.html", scripts="account", timezone=timezone, names=names(),
                       plans=[_plan(plan, provider.configured(current_app.config)) for plan in PLANS.values()],
                       test_cards=sandbox_cards())
