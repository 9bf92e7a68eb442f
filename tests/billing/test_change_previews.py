"""POST /api/account/subscription/preview: what a change would cost and when it would take effect, worked out
by the same quote the change applies, with nothing changed and nothing charged."""
from decimal import Decimal

import pytest

from tests.billing import test_subscriptions
from tests.billing.test_subscriptions import (DAY, PREMIUM_PRICE, assert_error, change, payments_of, set_subscription,
                                              subscribe, subscription_of, timestamp)

clock, user = test_subscriptions.clock, test_subscriptions.user  # the same fixtures: a frozen clock, a signed-in user


def preview(client, action, **body):
    return client.post("/api/account/subscription/preview", json={"action": action, **body})


def mid_period(query, user_id, clock):
    """10 of the period's 30 days used: a proration of 20/30 of the price."""
    set_subscription(query, user_id, current_period_start=clock.now() - 10 * DAY,
                     current_period_end=clock.now() + 20 * DAY)


@pytest.mark.parametrize("behavior,proration,due_now,next_amount", [
    ("create_prorations", 19.99, 0.0, 49.98),
    ("always_invoice", 19.99, 19.99, PREMIUM_PRICE),
    ("none", 0.0, PREMIUM_PRICE, PREMIUM_PRICE),
])
def test_an_upgrade_preview_shows_the_proration_and_the_charges(client, user, query, clock, behavior, proration,
                                                                due_now, next_amount):
    mid_period(query, user["id"], clock)

    response = preview(client, "upgrade", planId="premium", paymentMethodId="pm_card_visa",
                       prorationBehavior=behavior)

    data = response.get_json()["data"]
    assert response.status_code == 200, data
    assert list(data) == ["action", "planId", "prorationAmount", "amountDueNow", "currency", "effectiveDate",
                          "nextBilling"]
    assert (data["action"], data["planId"], data["currency"]) == ("upgrade", "premium", "USD")
    assert (data["prorationAmount"], data["amountDueNow"]) == (proration, due_now)
    assert timestamp(data["effectiveDate"]) == clock.now()
    assert data["nextBilling"]["amount"] == next_amount
    expected_end = clock.now() + 20 * DAY if behavior != "none" else None
    if expected_end is not None:
        assert timestamp(data["nextBilling"]["date"]) == expected_end
    assert subscription_of(client)["type"] == "FREE" and payments_of(query, user["id"]) == []


def test_the_previewed_upgrade_is_what_the_upgrade_charges(client, user, query, clock):
    mid_period(query, user["id"], clock)
    body = {"planId": "premium", "paymentMethodId": "pm_card_visa", "prorationBehavior": "always_invoice"}
    shown = preview(client, "upgrade", **body).get_json()["data"]

    done = change(client, "upgrade", **body).get_json()["data"]

    assert (done["prorationAmount"], done["effectiveDate"]) == (shown["prorationAmount"], shown["effectiveDate"])
    assert payments_of(query, user["id"]) == [("succeeded", Decimal(str(shown["amountDueNow"])))]
    assert subscription_of(client)["nextBilling"] == shown["nextBilling"]


@pytest.mark.parametrize("action,plan_id", [("downgrade", "free"), ("cancel", None)])
def test_a_downgrade_or_cancel_preview_takes_effect_at_the_period_end_with_nothing_to_pay(client, user, action,
                                                                                          plan_id):
    subscribe(client)
    before = subscription_of(client)

    data = preview(client, action, **({"planId": plan_id} if plan_id else {})).get_json()["data"]

    assert data["effectiveDate"] == before["currentPeriodEnd"]
    assert (data["planId"], data["prorationAmount"], data["amountDueNow"], data["nextBilling"]) == ("free", 0, 0,
                                                                                                    None)
    assert subscription_of(client) == before  # nothing was scheduled


def test_a_reactivate_preview_shows_the_renewal_it_brings_back(client, user):
    subscribe(client)
    change(client, "cancel")

    data = preview(client, "reactivate").get_json()["data"]

    assert data["planId"] == "premium" and data["amountDueNow"] == 0
    assert data["nextBilling"]["amount"] == PREMIUM_PRICE
    assert subscription_of(client)["cancelAtPeriodEnd"] is True


@pytest.mark.parametrize("body,status,code,field", [
    ({"action": "upgrade", "planId": "enterprise", "paymentMethodId": "pm_card_visa"}, 400, "VALIDATION_ERROR",
     "planId"),
    ({"action": "upgrade", "planId": "premium"}, 400, "VALIDATION_ERROR", "paymentMethodId"),
    ({"action": "upgrade", "planId": "platinum"}, 404, "PLAN_NOT_FOUND", None),
    ({"action": "cancel"}, 404, "SUBSCRIPTION_NOT_FOUND", None),
    ({"action": "downgrade", "planId": "free"}, 404, "SUBSCRIPTION_NOT_FOUND", None),
    ({"action": "cancel", "planId": "free"}, 400, "VALIDATION_ERROR", "planId"),
])
def test_a_preview_refuses_what_the_change_refuses(client, user, body, status, code, field):
    assert_error(client.post("/api/account/subscription/preview", json=body), status, code, field)
    assert_error(client.put("/api/account/subscription", json=body), status, code, field)


def test_a_preview_needs_a_session(client):
    assert_error(preview(client, "cancel"), 401, "UNAUTHENTICATED")


def test_the_subscription_names_a_scheduled_downgrade(client, user):
    subscribe(client)
    assert subscription_of(client)["pendingType"] is None

    change(client, "downgrade", planId="free")

    assert subscription_of(client)["pendingType"] == "FREE"
    change(client, "reactivate")
    assert subscription_of(client)["pendingType"] is None
