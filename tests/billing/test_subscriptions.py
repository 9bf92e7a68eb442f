"""GET/POST/PUT /api/account/subscription, the payment authentication page, period ends, coupons and the
operator commands, against the sandbox payment provider."""
import threading
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from urllib.parse import urlsplit

import pytest
from sqlalchemy import select, update

from tests.support import wait_until

from app.billing import service as subscriptions
from app.billing.models import Coupon, PaymentIntent, Subscription
from app.billing.plans import add_months
from app.common.models import Clock
from app.events.models import Event
from app.queue import PERIODIC

PREMIUM_PRICE = 29.99


class FrozenClock(Clock):
    """The app's clock stopped at ``moment`` (``advance`` still moves it)."""

    def __init__(self, moment: datetime):
        super().__init__()
        self.moment = moment

    def now(self) -> datetime:
        return self.moment + self.offset


@pytest.fixture
def clock(app):
    saved = app.extensions["clock"]
    frozen = app.extensions["clock"] = FrozenClock(datetime.now(timezone.utc).replace(microsecond=0))
    yield frozen
    app.extensions["clock"] = saved


@pytest.fixture
def user(make_user, login):
    created = make_user()
    login(created)
    return created


# Helpers -------------------------------------------------------------------------------
def subscribe(client, payment_method_id="pm_card_visa", plan_id="premium", **extra):
    return client.post("/api/account/subscription", json={"planId": plan_id, "paymentMethodId": payment_method_id,
                                                          **extra})


def change(client, action, **body):
    return client.put("/api/account/subscription", json={"action": action, **body})


def subscription_of(client) -> dict:
    response = client.get("/api/account/subscription")
    assert response.status_code == 200, response.get_json()
    return response.get_json()["data"]


def stored(query, user_id) -> Subscription:
    return query(lambda s: s.scalar(select(Subscription).where(Subscription.user_id == user_id)))


def set_subscription(query, user_id, **values):
    def run(session):
        session.execute(update(Subscription).where(Subscription.user_id == user_id).values(**values))
        session.commit()

    query(run)


def payments_of(query, user_id) -> list[tuple[str, Decimal]]:
    """(status, amount) of the user's payment intents, sorted."""
    rows = query(lambda s: s.execute(select(PaymentIntent.status, PaymentIntent.amount)
                                     .where(PaymentIntent.user_id == user_id)).all())
    return sorted((status, Decimal(amount)) for status, amount in rows)


def changes_of(query, user_id) -> list[dict]:
    """The data of the user's ``user.subscription_changed`` events, oldest first."""
    rows = query(lambda s: s.scalars(select(Event).where(Event.user_id == user_id,
                                                         Event.type == "user.subscription_changed")
                                     .order_by(Event.created_at)).all())
    return [row.data for row in rows]


def run_period_ends(app) -> int:
    with app.app_context():
        return subscriptions.apply_period_ends()


def past_period_end(query, clock, user_id, seconds=1):
    """Move the clock just past the subscription's current period end."""
    end = stored(query, user_id).current_period_end
    clock.advance(seconds=(end - clock.now()).total_seconds() + seconds)


def timestamp(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def authentication_path(response) -> str:
    return urlsplit(response.get_json()["data"]["nextAction"]["url"]).path


def create_coupon(app, code="SPRING20", percent_off=20, **kwargs):
    with app.app_context():
        return subscriptions.create_coupon(code, percent_off, **kwargs).id


def assert_error(response, status, code, field=None):
    body = response.get_json()
    assert response.status_code == status, body
    assert body["code"] == code
    if field is not None:
        assert body["details"]["field"] == field


# GET ------------------------------------------------------------------------------------
def test_a_new_account_has_a_free_active_subscription_with_monthly_periods(client, user, query):
    data = subscription_of(client)

    assert list(data) == ["id", "type", "status", "currentPeriodStart", "currentPeriodEnd", "cancelAtPeriodEnd",
                          "trialEnd", "plan", "usage", "paymentMethod", "nextBilling", "pendingType"]
    assert (data["type"], data["status"], data["cancelAtPeriodEnd"], data["trialEnd"]) == ("FREE", "ACTIVE", False,
                                                                                           None)
    assert timestamp(data["currentPeriodEnd"]) == add_months(timestamp(data["currentPeriodStart"]), 1)
    assert data["plan"] == {"id": "free", "name": "Free", "price": 0.0, "currency": "USD", "interval": "month",
                            "features": ["Basic templates"]}
    assert data["usage"] == {"resumesCreated": 0, "resumesLimit": 5, "apiRequestsUsed": 0, "apiRequestsLimit": 100,
                             "storageUsed": 0, "storageLimit": 10485760, "resetDate": data["currentPeriodEnd"]}
    assert data["paymentMethod"] is None and data["nextBilling"] is None
    assert data["id"] == stored(query, user["id"]).id


def test_usage_reports_live_resumes_stored_bytes_and_this_periods_api_requests(client, user, query):
    from app.users.models import User

    def use(session):
        session.execute(update(User).where(User.id == user["id"]).values(live_resumes=3, storage_used=12345))
        session.execute(update(Subscription).where(Subscription.user_id == user["id"]).values(api_requests_used=42))
        session.commit()

    query(use)
    usage = subscription_of(client)["usage"]

    assert (usage["resumesCreated"], usage["storageUsed"], usage["apiRequestsUsed"]) == (3, 12345, 42)


@pytest.mark.parametrize("method", ["get", "post", "put"])
def test_the_subscription_endpoints_need_a_session(client, method):
    response = getattr(client, method)("/api/account/subscription", json={} if method != "get" else None)
    assert_error(response, 401, "UNAUTHENTICATED")


# POST: subscribing ---------------------------------------------------------------------
@pytest.mark.parametrize("payment_method_id,brand,last4", [
    ("pm_card_visa", "visa", "4242"),
    ("pm_card_mastercard", "mastercard", "4444"),
])
def test_subscribing_with_a_good_card_starts_premium_now(client, user, query, clock, payment_method_id, brand,
                                                         last4):
    response = subscribe(client, payment_method_id)

    assert response.status_code == 201, response.get_json()
    result = response.get_json()["data"]
    assert list(result) == ["subscriptionId", "status", "clientSecret", "requiresAction", "nextAction"]
    assert (result["status"], result["requiresAction"], result["nextAction"]) == ("ACTIVE", False, None)
    assert result["clientSecret"].startswith("pi_") and "_secret_" in result["clientSecret"]

    data = subscription_of(client)
    assert (data["id"], data["type"], data["status"]) == (result["subscriptionId"], "PREMIUM", "ACTIVE")
    assert timestamp(data["currentPeriodStart"]) == clock.now()
    assert timestamp(data["currentPeriodEnd"]) == add_months(clock.now(), 1)
    assert data["paymentMethod"] == {"type": "card", "last4": last4, "brand": brand, "expiryMonth": 12,
                                     "expiryYear": clock.now().year + 3}
    assert data["nextBilling"] == {"date": data["currentPeriodEnd"], "amount": PREMIUM_PRICE, "currency": "USD"}
    assert data["plan"]["id"] == "premium" and data["plan"]["price"] == PREMIUM_PRICE
    assert data["plan"]["features"] == ["All templates", "AI features"]
    assert data["usage"]["resumesLimit"] == -1 and data["usage"]["apiRequestsLimit"] == 1000
    assert data["usage"]["storageLimit"] == 104857600
    assert payments_of(query, user["id"]) == [("succeeded", Decimal("29.99"))]
    assert result["clientSecret"].startswith(query(lambda s: s.scalar(select(PaymentIntent.provider_id))) + "_")


@pytest.mark.parametrize("payment_method_id", ["pm_card_chargeDeclined", "pm_card_visa_chargeDeclined"])
def test_a_declined_card_gives_payment_failed_and_changes_nothing(client, user, query, payment_method_id):
    response = subscribe(client, payment_method_id)

    assert_error(response, 402, "PAYMENT_FAILED")
    assert response.get_json()["details"] == {"declineCode": "generic_decline"}
    assert subscription_of(client)["type"] == "FREE" and subscription_of(client)["paymentMethod"] is None
    assert payments_of(query, user["id"]) == [] and changes_of(query, user["id"]) == []


def test_an_unknown_payment_method_is_a_validation_error(client, user):
    assert_error(subscribe(client, "pm_card_doesNotExist"), 400, "VALIDATION_ERROR", "paymentMethodId")


def test_enterprise_is_not_self_serve(client, user):
    assert_error(subscribe(client, plan_id="enterprise"), 400, "VALIDATION_ERROR", "planId")


def test_subscribing_to_free_is_refused(client, user):
    assert_error(subscribe(client, plan_id="free"), 400, "VALIDATION_ERROR", "planId")


@pytest.mark.parametrize("plan_id", ["gold", "PREMIUM", "premium "])
def test_an_unknown_plan_is_not_found(client, user, plan_id):
    assert_error(subscribe(client, plan_id=plan_id), 404, "PLAN_NOT_FOUND")


def test_subscribing_again_on_a_paid_plan_is_refused_and_charges_nothing(client, user, query):
    subscribe(client)

    response = subscribe(client, "pm_card_mastercard")

    assert_error(response, 400, "VALIDATION_ERROR", "planId")
    assert "PUT" in response.get_json()["error"]
    # what a client keys on in any language (the billing page says "change it below")
    assert response.get_json()["details"] == {"field": "planId", "reason": "subscribed"}
    assert payments_of(query, user["id"]) == [("succeeded", Decimal("29.99"))]


@pytest.mark.parametrize("body,field", [
    ({}, "planId"),
    ({"planId": "premium"}, "paymentMethodId"),
    ({"planId": 1, "paymentMethodId": "pm_card_visa"}, "planId"),
    ({"planId": "premium", "paymentMethodId": ""}, "paymentMethodId"),
    ({"planId": "premium", "paymentMethodId": "pm_card_visa", "couponCode": 20}, "couponCode"),
    ({"planId": "premium", "paymentMethodId": "pm_card_visa", "trialDays": 7}, "trialDays"),
])
def test_malformed_subscribe_bodies_name_the_field(client, user, body, field):
    assert_error(client.post("/api/account/subscription", json=body), 400, "VALIDATION_ERROR", field)


def test_racing_subscribes_charge_once(app, user, query):
    other = app.test_client()
    other.post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    clients = [app.test_client(), other]
    clients[0].post("/api/auth/signin", json={"email": user["email"], "password": user["password"]})
    statuses = []
    barrier = threading.Barrier(2)

    def run(c):
        barrier.wait()
        statuses.append(subscribe(c).status_code)

    threads = [threading.Thread(target=run, args=(c,)) for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(statuses) == [201, 400]
    assert payments_of(query, user["id"]) == [("succeeded", Decimal("29.99"))]
    assert len(changes_of(query, user["id"])) == 1


# The card holder's authentication (3-D Secure) ------------------------------------------
def test_a_card_that_needs_authentication_waits_for_its_holder(app, client, user, query):
    response = subscribe(client, "pm_card_authenticationRequired")

    assert response.status_code == 201, response.get_json()
    result = response.get_json()["data"]
    assert (result["status"], result["requiresAction"]) == ("INCOMPLETE", True)
    assert result["nextAction"]["type"] == "redirect_to_url"
    assert result["nextAction"]["url"].startswith(app.config["BASE_URL"] + "/payments/authenticate/")
    assert subscription_of(client)["type"] == "FREE"
    assert payments_of(query, user["id"]) == [("requires_action", Decimal("29.99"))]
    assert changes_of(query, user["id"]) == []


def test_the_authentication_page_shows_the_payment_and_a_post_completes_it(app, user, client, query):
    path = authentication_path(subscribe(client, "pm_card_authenticationRequired"))
    browser = app.test_client()  # the holder's browser needs no session: the address is the credential

    page = browser.get(path)
    assert page.status_code == 200 and page.mimetype == "text/html"
    html = page.get_data(as_text=True)
    assert "29.99 USD" in html and "ending in 3184" in html and 'method="post"' in html
    assert payments_of(query, user["id"]) == [("requires_action", Decimal("29.99"))]  # opening spends nothing

    done = browser.post(path, data={"outcome": "complete"})

    assert done.status_code == 200 and "Payment complete" in done.get_data(as_text=True)
    data = subscription_of(client)
    assert (data["type"], data["status"]) == ("PREMIUM", "ACTIVE")
    assert (data["paymentMethod"]["brand"], data["paymentMethod"]["last4"]) == ("visa", "3184")
    assert payments_of(query, user["id"]) == [("succeeded", Decimal("29.99"))]
    assert [c["subscription"]["current_type"] for c in changes_of(query, user["id"])] == ["PREMIUM"]


def test_an_authentication_address_answers_once(app, client, user, query):
    path = authentication_path(subscribe(client, "pm_card_authenticationRequired"))
    client.post(path)

    again = client.post(path, data={"outcome": "complete"})

    assert again.status_code == 403 and "not waiting" in again.get_data(as_text=True)
    assert client.get(path).status_code == 403
    assert payments_of(query, user["id"]) == [("succeeded", Decimal("29.99"))]
    assert len(changes_of(query, user["id"])) == 1


def test_a_failed_authentication_cancels_the_payment_and_keeps_free(client, user, query):
    path = authentication_path(subscribe(client, "pm_card_authenticationRequired"))

    failed = client.post(path, data={"outcome": "fail"})

    assert failed.status_code == 200 and "Payment not completed" in failed.get_data(as_text=True)
    assert subscription_of(client)["type"] == "FREE"
    assert payments_of(query, user["id"]) == [("canceled", Decimal("29.99"))]
    assert client.post(path).status_code == 403


def test_a_cross_site_form_post_to_the_authentication_page_is_refused(client, user, query):
    path = authentication_path(subscribe(client, "pm_card_authenticationRequired"))

    refused = client.post(path, data={"outcome": "complete"}, headers={"Origin": "https://evil.example"})

    assert refused.status_code == 403
    assert payments_of(query, user["id"]) == [("requires_action", Decimal("29.99"))]
    same_site = client.post(path, data={"outcome": "complete"}, headers={"Origin": "http://localhost:5000"})
    assert same_site.status_code == 200 and subscription_of(client)["type"] == "PREMIUM"


@pytest.mark.parametrize("token", ["made-up", "InBpXzEyMyI.AAAAAAAAAAAAAAAAAAAAAAAAAAA"])
def test_a_made_up_authentication_address_is_refused(client, token):
    assert client.get(f"/payments/authenticate/{token}").status_code == 403
    assert client.post(f"/payments/authenticate/{token}").status_code == 403


def test_an_unanswered_authentication_address_expires(client, user, query, clock):
    path = authentication_path(subscribe(client, "pm_card_authenticationRequired"))
    clock.advance(hours=23, seconds=1)

    expired = client.post(path)

    assert expired.status_code == 403 and "expired" in expired.get_data(as_text=True)
    assert payments_of(query, user["id"]) == [("canceled", Decimal("29.99"))]
    assert subscription_of(client)["type"] == "FREE"


def test_a_newer_subscribe_supersedes_a_waiting_one(client, user, query):
    path = authentication_path(subscribe(client, "pm_card_authenticationRequired"))
    assert subscribe(client, "pm_card_visa").status_code == 201

    assert client.post(path).status_code == 403
    assert payments_of(query, user["id"]) == [("canceled", Decimal("29.99")), ("succeeded", Decimal("29.99"))]


def test_an_unknown_outcome_on_the_authentication_page_changes_nothing(client, user, query):
    path = authentication_path(subscribe(client, "pm_card_authenticationRequired"))

    assert client.post(path, data={"outcome": "maybe"}).status_code == 400
    assert payments_of(query, user["id"]) == [("requires_action", Decimal("29.99"))]


# Coupons --------------------------------------------------------------------------------
def test_a_coupon_takes_its_percent_off_every_premium_charge(app, client, user, query, clock):
    coupon_id = create_coupon(app, "SPRING20", 20)

    response = subscribe(client, couponCode="spring20")  # codes are matched without regard to case

    assert response.status_code == 201, response.get_json()
    assert payments_of(query, user["id"]) == [("succeeded", Decimal("23.99"))]  # 29.99 × 0.8 = 23.992
    assert subscription_of(client)["nextBilling"]["amount"] == 23.99
    assert query(lambda s: s.get(Coupon, coupon_id).times_redeemed) == 1

    past_period_end(query, clock, user["id"])
    run_period_ends(app)
    assert payments_of(query, user["id"]) == [("succeeded", Decimal("23.99"))] * 2


def test_a_full_discount_coupon_subscribes_for_nothing(app, client, user, query):
    create_coupon(app, "FREEMONTH", 100)

    assert subscribe(client, couponCode="FREEMONTH").status_code == 201
    assert payments_of(query, user["id"]) == [("succeeded", Decimal("0.00"))]
    assert subscription_of(client)["nextBilling"] is None


@pytest.mark.parametrize("problem", ["unknown", "expired", "used up"])
def test_a_coupon_that_cannot_be_redeemed_is_a_validation_error(app, client, user, query, clock, problem):
    if problem == "expired":
        create_coupon(app, "SPRING20", 20, expires_at=clock.now() + timedelta(hours=1))
        clock.advance(hours=1)
    elif problem == "used up":
        coupon_id = create_coupon(app, "SPRING20", 20, max_redemptions=1)
        query(lambda s: (s.get(Coupon, coupon_id).__setattr__("times_redeemed", 1), s.commit()))

    response = subscribe(client, couponCode="SPRING20")

    assert_error(response, 400, "VALIDATION_ERROR", "couponCode")
    assert subscription_of(client)["type"] == "FREE" and payments_of(query, user["id"]) == []


def test_a_declined_subscribe_does_not_use_up_a_redemption(app, client, user, query):
    coupon_id = create_coupon(app, "ONCE", 50, max_redemptions=1)

    assert subscribe(client, "pm_card_chargeDeclined", couponCode="ONCE").status_code == 402
    assert query(lambda s: s.get(Coupon, coupon_id).times_redeemed) == 0
    assert subscribe(client, couponCode="ONCE").status_code == 201
    assert query(lambda s: s.get(Coupon, coupon_id).times_redeemed) == 1


def test_a_payment_waiting_for_authentication_keeps_its_discount_and_counts_when_it_succeeds(app, client, user,
                                                                                             query):
    coupon_id = create_coupon(app, "HALF", 50, max_redemptions=1)
    path = authentication_path(subscribe(client, "pm_card_authenticationRequired", couponCode="HALF"))
    assert query(lambda s: s.get(Coupon, coupon_id).times_redeemed) == 0

    assert "15.00 USD" in client.get(path).get_data(as_text=True)  # 29.99 × 0.5 = 14.995, half up
    client.post(path)

    assert payments_of(query, user["id"]) == [("succeeded", Decimal("15.00"))]
    assert query(lambda s: s.get(Coupon, coupon_id).times_redeemed) == 1


# PUT: changing ------------------------------------------------------------------------------
DAY = timedelta(days=1)

# action, prorationBehavior, prorationAmount, effective ("now" or "period end")
PRORATION_TABLE = [
    ("upgrade", "create_prorations", 19.99, "now"),  # 29.99 × 20/30 days unused = 19.993
    ("upgrade", "always_invoice", 19.99, "now"),
    ("upgrade", "none", 0, "now"),
    *[("downgrade", behavior, 0, "period end") for behavior in subscriptions.PRORATION_BEHAVIORS],
    *[("cancel", behavior, 0, "period end") for behavior in subscriptions.PRORATION_BEHAVIORS],
    *[("reactivate", behavior, 0, "now") for behavior in subscriptions.PRORATION_BEHAVIORS],
    *[("update_payment_method", behavior, 0, "now") for behavior in subscriptions.PRORATION_BEHAVIORS],
]
BODIES = {"upgrade": {"planId": "premium", "paymentMethodId": "pm_card_visa"}, "downgrade": {"planId": "free"},
          "cancel": {}, "reactivate": {}, "update_payment_method": {"paymentMethodId": "pm_card_mastercard"}}


@pytest.mark.parametrize("action,behavior,amount,effective", PRORATION_TABLE)
def test_proration_and_effective_date_of_each_action_and_behavior(client, user, query, clock, action, behavior,
                                                                  amount, effective):
    if action != "upgrade":
        subscribe(client)
    start, end = clock.now() - 10 * DAY, clock.now() + 20 * DAY
    set_subscription(query, user["id"], current_period_start=start, current_period_end=end)

    response = change(client, action, prorationBehavior=behavior, **BODIES[action])

    assert response.status_code == 200, response.get_json()
    result = response.get_json()["data"]
    assert list(result) == ["subscriptionId", "status", "prorationAmount", "effectiveDate"]
    assert result["prorationAmount"] == amount and result["status"] == "ACTIVE"
    assert timestamp(result["effectiveDate"]) == (clock.now() if effective == "now" else end)


@pytest.mark.parametrize("days_used,amount", [(0, 29.99), (1, 28.99), (15, 15.0), (25, 5.0), (29, 1.0), (30, 0)])
def test_an_upgrade_prorates_the_unused_part_of_the_period_to_the_cent(client, user, query, clock, days_used,
                                                                       amount):
    set_subscription(query, user["id"], current_period_start=clock.now() - days_used * DAY,
                     current_period_end=clock.now() + (30 - days_used) * DAY)

    response = change(client, "upgrade", planId="premium", paymentMethodId="pm_card_visa")

    assert response.get_json()["data"]["prorationAmount"] == amount


def test_create_prorations_keeps_the_period_and_bills_the_proration_with_the_renewal(app, client, user, query,
                                                                                     clock):
    start, end = clock.now() - 10 * DAY, clock.now() + 20 * DAY
    set_subscription(query, user["id"], current_period_start=start, current_period_end=end)

    change(client, "upgrade", planId="premium", paymentMethodId="pm_card_visa")

    data = subscription_of(client)
    assert (data["type"], data["status"]) == ("PREMIUM", "ACTIVE")
    assert (timestamp(data["currentPeriodStart"]), timestamp(data["currentPeriodEnd"])) == (start, end)
    assert payments_of(query, user["id"]) == [("requires_confirmation", Decimal("19.99"))]
    assert data["nextBilling"] == {"date": data["currentPeriodEnd"], "amount": 49.98, "currency": "USD"}

    past_period_end(query, clock, user["id"])
    run_period_ends(app)

    assert payments_of(query, user["id"]) == [("succeeded", Decimal("19.99")), ("succeeded", Decimal("29.99"))]
    assert stored(query, user["id"]).status == "ACTIVE"


def test_always_invoice_charges_the_proration_now(client, user, query, clock):
    set_subscription(query, user["id"], current_period_start=clock.now() - 10 * DAY,
                     current_period_end=clock.now() + 20 * DAY)

    change(client, "upgrade", planId="premium", paymentMethodId="pm_card_visa", prorationBehavior="always_invoice")

    assert payments_of(query, user["id"]) == [("succeeded", Decimal("19.99"))]
    assert subscription_of(client)["nextBilling"]["amount"] == PREMIUM_PRICE


def test_no_proration_starts_a_new_period_now_at_the_full_price(client, user, query, clock):
    set_subscription(query, user["id"], current_period_start=clock.now() - 10 * DAY,
                     current_period_end=clock.now() + 20 * DAY, api_requests_used=70)

    change(client, "upgrade", planId="premium", paymentMethodId="pm_card_visa", prorationBehavior="none")

    data = subscription_of(client)
    assert timestamp(data["currentPeriodStart"]) == clock.now()
    assert timestamp(data["currentPeriodEnd"]) == add_months(clock.now(), 1)
    assert data["usage"]["apiRequestsUsed"] == 0
    assert payments_of(query, user["id"]) == [("succeeded", Decimal("29.99"))]


def test_an_upgrade_uses_the_card_kept_on_file_after_a_cancellation(app, client, user, login, query, clock):
    subscribe(client, "pm_card_mastercard")
    change(client, "cancel")
    past_period_end(query, clock, user["id"])
    run_period_ends(app)
    login(user)  # the session would have expired
    assert subscription_of(client)["type"] == "FREE"
    assert subscription_of(client)["paymentMethod"]["last4"] == "4444"

    response = change(client, "upgrade", planId="premium", prorationBehavior="always_invoice")

    assert response.status_code == 200, response.get_json()
    assert subscription_of(client)["type"] == "PREMIUM"


def test_an_upgrade_without_a_card_names_paymentMethodId(client, user):
    assert_error(change(client, "upgrade", planId="premium"), 400, "VALIDATION_ERROR", "paymentMethodId")


def test_an_upgrade_with_a_declined_card_changes_nothing(client, user, query):
    response = change(client, "upgrade", planId="premium", paymentMethodId="pm_card_chargeDeclined",
                      prorationBehavior="always_invoice")

    assert_error(response, 402, "PAYMENT_FAILED")
    assert subscription_of(client)["type"] == "FREE" and payments_of(query, user["id"]) == []


def test_an_upgrade_cannot_ask_for_authentication(client, user, query):
    response = change(client, "upgrade", planId="premium", paymentMethodId="pm_card_authenticationRequired",
                      prorationBehavior="always_invoice")

    assert_error(response, 402, "PAYMENT_FAILED")
    assert response.get_json()["details"] == {"declineCode": "authentication_required"}


@pytest.mark.parametrize("start,plan_id,status,code", [
    ("FREE", "enterprise", 400, "VALIDATION_ERROR"),
    ("FREE", "free", 400, "VALIDATION_ERROR"),
    ("FREE", "platinum", 404, "PLAN_NOT_FOUND"),
    ("PREMIUM", "enterprise", 400, "VALIDATION_ERROR"),
    ("PREMIUM", "premium", 400, "VALIDATION_ERROR"),
    ("PREMIUM", "free", 400, "VALIDATION_ERROR"),
])
def test_upgrades_that_are_not_self_serve_upgrades_are_refused(client, user, start, plan_id, status, code):
    if start == "PREMIUM":
        subscribe(client)

    response = change(client, "upgrade", planId=plan_id, paymentMethodId="pm_card_visa")

    assert_error(response, status, code, "planId" if status == 400 else None)
    assert subscription_of(client)["type"] == start


@pytest.mark.parametrize("action", ["downgrade", "cancel", "reactivate", "update_payment_method"])
def test_actions_that_need_a_paid_plan_are_not_found_on_free(client, user, action):
    assert_error(change(client, action, **BODIES[action]), 404, "SUBSCRIPTION_NOT_FOUND")


@pytest.mark.parametrize("body,field", [
    ({"action": "pause"}, "action"),
    ({}, "action"),
    ({"action": "upgrade"}, "planId"),
    ({"action": "downgrade"}, "planId"),
    ({"action": "update_payment_method"}, "paymentMethodId"),
    ({"action": "cancel", "planId": "free"}, "planId"),
    ({"action": "downgrade", "planId": "free", "paymentMethodId": "pm_card_visa"}, "paymentMethodId"),
    ({"action": "cancel", "prorationBehavior": "sometimes"}, "prorationBehavior"),
    ({"action": "cancel", "prorationBehavior": None}, "prorationBehavior"),
    ({"action": "cancel", "effectiveDate": "2030-01-01T00:00:00Z"}, "effectiveDate"),
])
def test_malformed_change_bodies_name_the_field(client, user, body, field):
    subscribe(client)
    assert_error(client.put("/api/account/subscription", json=body), 400, "VALIDATION_ERROR", field)


def test_a_downgrade_waits_for_the_period_end_and_reactivate_undoes_it(client, user, query):
    subscribe(client)
    end = subscription_of(client)["currentPeriodEnd"]

    response = change(client, "downgrade", planId="free")

    assert response.get_json()["data"]["effectiveDate"] == end
    assert subscription_of(client)["type"] == "PREMIUM" and subscription_of(client)["nextBilling"] is None
    assert stored(query, user["id"]).pending_type == "FREE"
    change(client, "reactivate")
    assert stored(query, user["id"]).pending_type is None
    assert subscription_of(client)["nextBilling"]["amount"] == PREMIUM_PRICE


@pytest.mark.parametrize("plan_id,status,code", [("premium", 400, "VALIDATION_ERROR"),
                                                 ("enterprise", 400, "VALIDATION_ERROR"),
                                                 ("basic", 404, "PLAN_NOT_FOUND")])
def test_a_downgrade_must_name_a_lower_plan(client, user, plan_id, status, code):
    subscribe(client)
    assert_error(change(client, "downgrade", planId=plan_id), status, code)


def test_cancel_sets_cancel_at_period_end_and_reactivate_clears_it(client, user):
    subscribe(client)

    cancel = change(client, "cancel").get_json()["data"]

    data = subscription_of(client)
    assert data["cancelAtPeriodEnd"] is True and data["type"] == "PREMIUM" and data["nextBilling"] is None
    assert cancel["effectiveDate"] == data["currentPeriodEnd"]
    assert change(client, "cancel").status_code == 200  # cancelling again changes nothing
    change(client, "reactivate")
    assert subscription_of(client)["cancelAtPeriodEnd"] is False


def test_update_payment_method_keeps_the_new_card(client, user):
    subscribe(client, "pm_card_visa")

    assert change(client, "update_payment_method", paymentMethodId="pm_card_mastercard").status_code == 200
    assert subscription_of(client)["paymentMethod"]["brand"] == "mastercard"


@pytest.mark.parametrize("payment_method_id,status,code", [("pm_card_chargeDeclined", 402, "PAYMENT_FAILED"),
                                                           ("pm_card_nope", 400, "VALIDATION_ERROR")])
def test_update_payment_method_refuses_a_card_that_cannot_pay(client, user, payment_method_id, status, code):
    subscribe(client, "pm_card_visa")

    assert_error(change(client, "update_payment_method", paymentMethodId=payment_method_id), status, code)
    assert subscription_of(client)["paymentMethod"]["last4"] == "4242"


def test_changes_that_keep_the_type_emit_no_event(client, user, query):
    subscribe(client)
    for action in ("cancel", "reactivate", "downgrade", "reactivate", "update_payment_method"):
        assert change(client, action, **BODIES[action]).status_code == 200

    assert [c["subscription"]["reason"] for c in changes_of(query, user["id"])] == ["subscribed"]


# Events -----------------------------------------------------------------------------------
def test_each_change_of_type_records_a_subscription_changed_event(client, user, query, clock):
    subscribe(client)
    data = subscription_of(client)

    [event] = changes_of(query, user["id"])

    assert event == {"user": {"id": user["id"], "email": user["email"]},
                     "subscription": {"id": data["id"], "previous_type": "FREE", "current_type": "PREMIUM",
                                      "current_period_end": data["currentPeriodEnd"],
                                      "changed_at": data["currentPeriodStart"], "reason": "subscribed"}}


# Period ends (the periodic job) ------------------------------------------------------
def test_a_premium_renewal_charges_the_card_and_starts_the_next_period(app, client, user, query, clock):
    subscribe(client)
    before = stored(query, user["id"])
    set_subscription(query, user["id"], api_requests_used=420)
    past_period_end(query, clock, user["id"])

    run_period_ends(app)

    after = stored(query, user["id"])
    assert (after.type, after.status, after.api_requests_used) == ("PREMIUM", "ACTIVE", 0)
    assert after.current_period_start == before.current_period_end
    assert after.current_period_end == add_months(before.current_period_end, 1)
    assert payments_of(query, user["id"]) == [("succeeded", Decimal("29.99"))] * 2
    assert len(changes_of(query, user["id"])) == 1  # a renewal keeps the type


def test_a_free_period_end_only_starts_the_next_period_and_resets_usage(app, user, query, clock):
    before = stored(query, user["id"])
    set_subscription(query, user["id"], api_requests_used=99)
    past_period_end(query, clock, user["id"])

    run_period_ends(app)

    after = stored(query, user["id"])
    assert (after.type, after.status, after.api_requests_used) == ("FREE", "ACTIVE", 0)
    assert after.current_period_start == before.current_period_end
    assert payments_of(query, user["id"]) == [] and changes_of(query, user["id"]) == []


def test_periods_missed_while_no_job_ran_are_skipped_not_charged(app, client, user, query, clock):
    subscribe(client)
    first_end = stored(query, user["id"]).current_period_end
    clock.advance(days=75)

    run_period_ends(app)

    after = stored(query, user["id"])
    assert after.current_period_start <= clock.now() < after.current_period_end
    assert after.current_period_start in {add_months(first_end, months) for months in (1, 2)}  # 75 days later
    assert payments_of(query, user["id"]) == [("succeeded", Decimal("29.99"))] * 2


@pytest.mark.parametrize("action,reason", [("downgrade", "downgraded"), ("cancel", "canceled")])
def test_a_scheduled_downgrade_or_cancel_gives_free_at_the_period_end(app, client, user, query, clock, action,
                                                                      reason):
    create_coupon(app, "SPRING20", 20)
    subscribe(client, couponCode="SPRING20")
    change(client, action, **BODIES[action])
    end = stored(query, user["id"]).current_period_end
    past_period_end(query, clock, user["id"])

    run_period_ends(app)

    after = stored(query, user["id"])
    assert (after.type, after.status, after.cancel_at_period_end, after.pending_type) == ("FREE", "ACTIVE", False,
                                                                                          None)
    assert after.coupon_id is None and after.payment_method_id == "pm_card_visa"  # the card stays on file
    assert after.current_period_start == end and after.api_requests_used == 0
    assert payments_of(query, user["id"]) == [("succeeded", Decimal("23.99"))]  # no renewal
    last = changes_of(query, user["id"])[-1]["subscription"]
    assert (last["previous_type"], last["current_type"], last["reason"]) == ("PREMIUM", "FREE", reason)


def test_a_declined_renewal_makes_the_subscription_past_due(app, client, user, login, query, clock):
    path = authentication_path(subscribe(client, "pm_card_authenticationRequired"))
    client.post(path)  # a card that needs its holder for every payment: renewals (off session) are declined
    past_period_end(query, clock, user["id"])

    run_period_ends(app)

    login(user)
    data = subscription_of(client)
    assert (data["type"], data["status"], data["usage"]["apiRequestsUsed"]) == ("PREMIUM", "PAST_DUE", 0)
    assert payments_of(query, user["id"]) == [("requires_payment_method", Decimal("29.99")),
                                              ("succeeded", Decimal("29.99"))]
    refused = subscribe(client, "pm_card_visa")
    assert_error(refused, 400, "VALIDATION_ERROR", "planId")
    assert "update_payment_method" in refused.get_json()["error"]

    fixed = change(client, "update_payment_method", paymentMethodId="pm_card_visa")

    assert fixed.status_code == 200 and fixed.get_json()["data"]["status"] == "ACTIVE"
    assert payments_of(query, user["id"]) == [("succeeded", Decimal("29.99"))] * 2


def test_a_past_due_subscription_stays_past_due_when_the_new_card_is_declined_too(app, client, user, login, query,
                                                                                  clock):
    client.post(authentication_path(subscribe(client, "pm_card_authenticationRequired")))
    past_period_end(query, clock, user["id"])
    run_period_ends(app)
    login(user)

    response = change(client, "update_payment_method", paymentMethodId="pm_card_authenticationRequired")

    assert_error(response, 402, "PAYMENT_FAILED")
    assert subscription_of(client)["status"] == "PAST_DUE"


def test_a_past_due_subscription_falls_back_to_free_after_the_grace(app, client, user, query, clock):
    client.post(authentication_path(subscribe(client, "pm_card_authenticationRequired")))
    past_period_end(query, clock, user["id"])
    run_period_ends(app)
    clock.advance(days=6)
    run_period_ends(app)
    assert stored(query, user["id"]).status == "PAST_DUE"

    clock.advance(days=1)
    run_period_ends(app)

    after = stored(query, user["id"])
    assert (after.type, after.status) == ("FREE", "ACTIVE")
    assert payments_of(query, user["id"]) == [("canceled", Decimal("29.99")), ("succeeded", Decimal("29.99"))]
    last = changes_of(query, user["id"])[-1]["subscription"]
    assert (last["previous_type"], last["current_type"], last["reason"]) == ("PREMIUM", "FREE", "payment_failed")


def test_running_the_period_ends_twice_at_once_charges_once(app, client, user, query, clock):
    subscribe(client)
    past_period_end(query, clock, user["id"])
    barrier = threading.Barrier(2)

    def run():
        barrier.wait()
        run_period_ends(app)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    run_period_ends(app)  # and once more afterwards

    assert payments_of(query, user["id"]) == [("succeeded", Decimal("29.99"))] * 2
    assert stored(query, user["id"]).status == "ACTIVE"


def test_the_period_end_job_is_registered_and_runs_on_the_queue(app, user, query):
    queue, func, setting = PERIODIC["apply-subscription-period-ends"]
    assert func == "app.billing.jobs.apply_subscription_period_ends" and setting == "SUBSCRIPTION_PERIOD_INTERVAL"
    past = datetime.now(timezone.utc) - timedelta(seconds=5)
    set_subscription(query, user["id"], current_period_start=past - timedelta(days=30), current_period_end=past)
    jobs = app.extensions["jobs"]
    jobs.connection.delete("periodic:apply-subscription-period-ends")

    with app.app_context():
        jobs.enqueue_due_periodic_jobs()

    assert 0 < jobs.connection.ttl("periodic:apply-subscription-period-ends") <= 60
    wait_until(lambda: stored(query, user["id"]).current_period_end > past)


# Operators ---------------------------------------------------------------------------------
def cli(app, *args):
    return app.test_cli_runner().invoke(args=list(args))


def test_grant_enterprise_gives_an_active_enterprise_plan_and_records_it(app, client, user, query):
    result = cli(app, "grant-enterprise", user["email"].upper())

    assert result.exit_code == 0, result.output
    assert "ENTERPRISE" in result.output
    data = subscription_of(client)
    assert (data["type"], data["status"], data["nextBilling"]) == ("ENTERPRISE", "ACTIVE", None)
    assert data["plan"]["id"] == "enterprise" and data["plan"]["price"] is None
    assert data["usage"]["apiRequestsLimit"] == -1 and data["usage"]["storageLimit"] == -1
    [event] = changes_of(query, user["id"])
    assert (event["subscription"]["previous_type"], event["subscription"]["current_type"],
            event["subscription"]["reason"]) == ("FREE", "ENTERPRISE", "granted")

    again = cli(app, "grant-enterprise", user["email"])
    assert again.exit_code == 0 and "already" in again.output
    assert len(changes_of(query, user["id"])) == 1
    assert_error(subscribe(client), 400, "VALIDATION_ERROR", "planId")


def test_grant_enterprise_refuses_an_unknown_email(app):
    result = cli(app, "grant-enterprise", "nobody@example.com")

    assert result.exit_code != 0 and "nobody@example.com" in result.output


def test_an_enterprise_plan_renews_for_nothing_and_can_be_downgraded_to_premium(app, client, user, login, query,
                                                                                clock):
    subscribe(client)
    cli(app, "grant-enterprise", user["email"])
    past_period_end(query, clock, user["id"])
    run_period_ends(app)
    assert payments_of(query, user["id"]) == [("succeeded", Decimal("29.99"))]
    login(user)

    assert change(client, "downgrade", planId="premium").status_code == 200
    past_period_end(query, clock, user["id"])
    run_period_ends(app)

    after = stored(query, user["id"])
    assert (after.type, after.status) == ("PREMIUM", "ACTIVE")
    assert payments_of(query, user["id"]) == [("succeeded", Decimal("29.99"))] * 2


def test_coupons_create_makes_a_coupon_that_subscribers_can_use(app, client, user, query):
    result = cli(app, "coupons", "create", "launch-25", "--percent-off", "25", "--max-redemptions", "100",
                 "--expires-at", "2099-01-01T00:00:00Z")

    assert result.exit_code == 0, result.output
    assert "LAUNCH-25" in result.output and "25%" in result.output
    coupon = query(lambda s: s.scalar(select(Coupon).where(Coupon.code == "LAUNCH-25")))
    assert (coupon.percent_off, coupon.max_redemptions, coupon.times_redeemed) == (25, 100, 0)
    assert coupon.expires_at == datetime(2099, 1, 1, tzinfo=timezone.utc)
    assert subscribe(client, couponCode="launch-25").status_code == 201
    assert payments_of(query, user["id"]) == [("succeeded", Decimal("22.49"))]  # 29.99 × 0.75 = 22.4925


def test_coupons_create_refuses_a_code_already_taken(app):
    assert cli(app, "coupons", "create", "SPRING", "--percent-off", "10").exit_code == 0

    result = cli(app, "coupons", "create", "spring", "--percent-off", "15")

    assert result.exit_code != 0 and "already exists" in result.output


@pytest.mark.parametrize("args", [
    ["SPRING"],
    ["SPRING", "--percent-off", "0"],
    ["SPRING", "--percent-off", "101"],
    ["SPRING", "--percent-off", "10", "--max-redemptions", "0"],
    ["SPRING", "--percent-off", "10", "--expires-at", "next tuesday"],
    ["SPRING", "--percent-off", "10", "--expires-at", "2001-01-01T00:00:00Z"],
    ["SPRING 2", "--percent-off", "10"],
])
def test_coupons_create_refuses_bad_options(app, query, args):
    result = cli(app, "coupons", "create", *args)

    assert result.exit_code != 0
    assert query(lambda s: s.scalar(select(Coupon.id))) is None
