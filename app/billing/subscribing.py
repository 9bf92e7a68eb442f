"""Subscribing: FREE to PREMIUM with a first payment, and the card holder's answer when it needs one."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal

from flask_babel import lazy_gettext
from sqlalchemy import select, update

from app.billing.coupons import redeem, usable_coupon
from app.billing.models import Coupon, PaymentIntent, Subscription
from app.billing.plans import add_months, display_name, plan_for
from app.billing.shared import (CANCELED, cancel_waiting_payments, coupon_by_id, enterprise_is_not_self_serve,
                                keep_card, lock, paying, plan_by_id, price_of, record_change)
from app.common.models import utcnow
from app.errors import ApiError, InvalidField
from app.extensions import db
from app.integrations import payments
from app.integrations.payments import REQUIRES_ACTION, SUCCEEDED, Card, PaymentDeclined
from app.messages import N_
from app.users.models import User

PAYMENT_ACTION_LIFETIME = timedelta(hours=23)  # an unanswered authentication address then expires


@dataclass(frozen=True)
class SubscribeResult:
    subscription_id: str
    status: str  # ACTIVE, or INCOMPLETE while the card holder's authentication is awaited
    client_secret: str
    requires_action: bool
    next_action: dict | None  # {"type": "redirect_to_url", "url": ...}


@dataclass(frozen=True)
class PendingPayment:
    amount: Decimal
    currency: str
    plan_name: str
    card: Card | None
    expires_at: datetime


@dataclass(frozen=True)
class PaymentOutcome:
    completed: bool
    message: str  # a msgid; ``values`` fill its places (the page says it in the reader's language)
    values: dict = field(default_factory=dict)


def free_subscription(start: datetime) -> Subscription:
    """A new user's subscription: FREE and ACTIVE, its first monthly period from ``start`` (the caller attaches
    it to the user and commits)."""
    return Subscription(type="FREE", status="ACTIVE", current_period_start=start,
                        current_period_end=add_months(start, 1))


def open_free_subscription(user: User, start: datetime) -> None:
    """Give a new user (in the session, not committed) its FREE subscription from ``start``."""
    user.subscription = free_subscription(start)


def subscribe(user: User, data: dict) -> SubscribeResult:
    """Move a FREE user to PREMIUM, paying its first month with ``paymentMethodId`` less ``couponCode``.

    Commits once. When the charge succeeds: ACTIVE PREMIUM, a new monthly period from now, the card on file,
    the coupon kept for later renewals, ``user.subscription_changed``. When the card needs its holder's
    authentication: INCOMPLETE with the address to send them to; nothing changes until they answer there
    (``complete_payment``). Raises PLAN_NOT_FOUND; VALIDATION_ERROR on planId (enterprise, free, or a paid
    plan already), couponCode (unknown, expired, used up) or paymentMethodId (unknown); PAYMENT_FAILED
    (declined; ``details.declineCode``).
    """
    plan = plan_by_id(data["planId"])
    if plan.type == "ENTERPRISE":
        raise enterprise_is_not_self_serve()
    if plan.type == "FREE":
        raise InvalidField("planId", "Free needs no subscription: to leave Premium, cancel it with PUT.")
    sub = lock(user.id)
    if sub.status == "PAST_DUE":
        raise InvalidField("planId", "Your %(plan)s payment is past due: give another card with "
                                     "PUT /api/account/subscription (action update_payment_method).",
                           values={"plan": display_name(plan_for(sub.type))})
    if sub.type != "FREE":
        raise InvalidField("planId", "You already have the %(plan)s plan: change it with "
                                     "PUT /api/account/subscription (action upgrade, downgrade or reactivate).",
                           values={"plan": display_name(plan_for(sub.type))}, reason="subscribed")
    coupon = usable_coupon(data["couponCode"]) if data.get("couponCode") else None
    user_id, email, sub_id = user.id, user.email, sub.id
    provider = payments.provider()
    amount = price_of(plan, coupon)
    with paying():
        card = provider.card(data["paymentMethodId"])
        if coupon is not None and not redeem(coupon):
            raise InvalidField("couponCode", "This coupon has been used up.")
        intent = provider.create_intent(amount=amount, currency=plan.currency, payment_method_id=card.id,
                                        description=f"{plan.name} subscription, first month")
        confirmed = provider.confirm_intent(intent.id, payment_method_id=card.id, off_session=False)
    payment = PaymentIntent(user_id=user_id, provider_id=intent.id, plan_type=plan.type, amount=amount,
                            currency=plan.currency, status=confirmed.status, payment_method_id=card.id,
                            coupon_id=coupon.id if coupon else None, created_at=utcnow())
    if confirmed.status == REQUIRES_ACTION:
        # Nothing changes until the holder answers: give back the lock and the redemption (it is counted
        # when the payment succeeds), and keep only the waiting payment, superseding older ones.
        db.session.rollback()
        cancel_waiting_payments(user_id)
        db.session.add(payment)
        db.session.commit()
        return SubscribeResult(subscription_id=sub_id, status="INCOMPLETE", client_secret=intent.client_secret,
                               requires_action=True,
                               next_action={"type": "redirect_to_url", "url": confirmed.next_action_url})
    payment.completed_at = utcnow()
    db.session.add(payment)
    cancel_waiting_payments(user_id)
    _start_premium(sub, email, card, coupon)
    db.session.commit()
    return SubscribeResult(subscription_id=sub_id, status="ACTIVE", client_secret=intent.client_secret,
                           requires_action=False, next_action=None)


def pending_payment(token: str) -> PendingPayment:
    """The payment an authentication address is for, while it waits. Raises TOKEN_INVALID (unknown,
    tampered, answered) and TOKEN_EXPIRED (after PAYMENT_ACTION_LIFETIME; the payment is then canceled)."""
    row = _waiting_payment(token)
    try:
        card = payments.provider().card(row.payment_method_id)
    except payments.PaymentError:
        card = None
    return PendingPayment(amount=row.amount, currency=row.currency, plan_name=plan_for(row.plan_type).name,
                          card=card, expires_at=row.created_at + PAYMENT_ACTION_LIFETIME)


def complete_payment(token: str, *, approved: bool) -> PaymentOutcome:
    """The card holder's answer at an authentication address; each address answers once.

    Commits once. Approved: the provider charges, the payment succeeds and the user gets ACTIVE PREMIUM as
    a subscribe would have given it (``user.subscription_changed``), unless they got a paid plan meanwhile
    (then the payment is canceled, nothing charged). Refused: the payment is canceled. Raises TOKEN_INVALID
    (unknown, tampered or already answered) and TOKEN_EXPIRED.
    """
    provider = payments.provider()
    row = _waiting_payment(token)
    sub = lock(row.user_id)
    # The answer claims the payment: a racing answer waits for our lock, then finds nothing to claim.
    claimed = db.session.execute(update(PaymentIntent).where(PaymentIntent.id == row.id,
                                                             PaymentIntent.status == REQUIRES_ACTION)
                                 .values(status=CANCELED, completed_at=utcnow()))
    if claimed.rowcount != 1:
        raise _answered()
    if sub.type != "FREE":
        provider.cancel_intent(row.provider_id)
        db.session.commit()
        return PaymentOutcome(False, N_("You already have the %(plan)s plan: this payment was canceled and nothing "
                                        "was charged."), {"plan": display_name(plan_for(sub.type))})
    try:
        provider.complete_action(row.provider_id, approved=approved)
    except PaymentDeclined as exc:
        db.session.commit()
        return PaymentOutcome(False, N_("%(reason)s Nothing was charged and your plan is unchanged."),
                              {"reason": lazy_gettext(exc.message)})
    row.status, row.completed_at = SUCCEEDED, utcnow()
    coupon = coupon_by_id(row.coupon_id)
    if coupon is not None:
        # Counted even past its limit: the discount was promised when this payment started.
        db.session.execute(update(Coupon).where(Coupon.id == coupon.id)
                           .values(times_redeemed=Coupon.times_redeemed + 1))
    try:
        card = provider.card(row.payment_method_id)
    except payments.PaymentError:
        card = Card(id=row.payment_method_id, brand="unknown", last4="", exp_month=0, exp_year=0)
    email = db.session.scalar(select(User.email).where(User.id == row.user_id))
    _start_premium(sub, email, card, coupon)
    db.session.commit()
    return PaymentOutcome(True, N_("Payment complete: you now have the %(plan)s plan."),
                          {"plan": display_name(plan_for("PREMIUM"))})


def _waiting_payment(token: str) -> PaymentIntent:
    try:
        provider_id = payments.provider().action_intent_id(token)
    except payments.InvalidActionToken:
        raise ApiError("TOKEN_INVALID", "This payment address is not valid.") from None
    row = db.session.scalar(select(PaymentIntent).where(PaymentIntent.provider_id == provider_id))
    if row is None or row.status != REQUIRES_ACTION:
        raise _answered()
    if row.created_at + PAYMENT_ACTION_LIFETIME <= utcnow():
        db.session.execute(update(PaymentIntent).where(PaymentIntent.id == row.id,
                                                       PaymentIntent.status == REQUIRES_ACTION)
                           .values(status=CANCELED, completed_at=utcnow()))
        db.session.commit()
        raise ApiError("TOKEN_EXPIRED", "This payment address has expired and nothing was charged: "
                                        "subscribe again.")
    return row


def _answered() -> ApiError:
    return ApiError("TOKEN_INVALID", "This payment is not waiting for confirmation (it was answered, canceled "
                                     "or replaced by a newer one).")


def _start_premium(sub: Subscription, email: str, card: Card, coupon: Coupon | None) -> None:
    """PREMIUM from now: a new monthly period (usage starts again), the card on file, the coupon for renewals."""
    now = utcnow()
    previous = sub.type
    sub.type, sub.status = "PREMIUM", "ACTIVE"
    sub.current_period_start, sub.current_period_end = now, add_months(now, 1)
    sub.cancel_at_period_end, sub.pending_type = False, None
    sub.coupon_id = coupon.id if coupon else None
    sub.api_requests_used = 0
    keep_card(sub, card)
    record_change(sub, email, previous, "subscribed")
