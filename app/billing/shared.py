"""What billing's use cases share: the locked subscription row, prices, payments owed and their events.

Money moves through ``app.integrations.payments.provider()``. Every payment is a
``payment_intents`` row (the provider's id, the amount, a status):

- ``requires_confirmation``: owed and not charged yet: an upgrade's proration waiting for the next
  renewal, or a renewal between its claim and its charge;
- ``requires_action``: waiting for the card holder's authentication (a subscribe whose card needs it);
- ``requires_payment_method``: declined and still owed (the subscription is PAST_DUE);
- ``succeeded``; ``canceled``: abandoned, superseded or written off (no longer owed).

A request that changes a subscription first takes its row's write lock (``lock``: a no-op update), so
two racing requests for one subscription (two subscribes, two confirmations) run one after the other and
the second sees what the first did: nobody pays twice. Period ends (``apply_period_ends``, a periodic job)
claim each subscription with an update conditional on what they read (period end, type, status, pending
changes) and only then charge, so overlapping runs charge once and never undo a change committed between
their read and their claim.
"""
from __future__ import annotations

from contextlib import contextmanager
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy import select, update

from app.billing.models import Coupon, PaymentIntent, Subscription
from app.billing.plans import PLANS, Plan
from app.common.models import utcnow
from app.common.schemas import format_timestamp
from app.errors import ApiError, InvalidField
from app.events.outbox import record_event
from app.extensions import db
from app.integrations import payments
from app.integrations.payments import (REQUIRES_ACTION, REQUIRES_CONFIRMATION, SUCCEEDED, Card, PaymentDeclined,
                                       UnknownPaymentMethod)

PLANS_BY_ID = {plan.id: plan for plan in PLANS.values()}

REQUIRES_PAYMENT_METHOD = "requires_payment_method"
CANCELED = "canceled"
OWED = (REQUIRES_CONFIRMATION, REQUIRES_PAYMENT_METHOD)

CENT = Decimal("0.01")


def subscription_of(user_id: str) -> Subscription:
    """The user's subscription row, re-read from the database (every user has one)."""
    return db.session.execute(select(Subscription).where(Subscription.user_id == user_id)
                              .execution_options(populate_existing=True)).scalar_one()


def lock(user_id: str) -> Subscription:
    """The user's subscription, read after taking its row's write lock for this transaction (a no-op update):
    racing requests for it queue here, and each reads what the one before committed."""
    db.session.execute(update(Subscription).where(Subscription.user_id == user_id).values(updated_at=utcnow()),
                       execution_options={"synchronize_session": False})
    return subscription_of(user_id)


def plan_by_id(plan_id: str) -> Plan:
    """The plan a client names by id (``premium``); raises PLAN_NOT_FOUND."""
    plan = PLANS_BY_ID.get(plan_id)
    if plan is None:
        raise ApiError("PLAN_NOT_FOUND", "There is no such plan: the plans are free, premium and enterprise.")
    return plan


def enterprise_is_not_self_serve() -> InvalidField:
    return InvalidField("planId", "Enterprise is not self-serve: contact sales, and an operator will grant it.")


def price_of(plan: Plan, coupon: Coupon | None) -> Decimal:
    """The plan's monthly price less the coupon's percent, to the cent (half up)."""
    price = Decimal(str(plan.price or 0))
    if coupon is not None:
        price = price * (100 - coupon.percent_off) / 100
    return price.quantize(CENT, ROUND_HALF_UP)


def coupon_by_id(coupon_id: str | None) -> Coupon | None:
    return db.session.get(Coupon, coupon_id) if coupon_id else None


def payments_of(user_id: str, *statuses: str) -> list[PaymentIntent]:
    return list(db.session.scalars(select(PaymentIntent).where(PaymentIntent.user_id == user_id,
                                                               PaymentIntent.status.in_(statuses))))


def cancel_waiting_payments(user_id: str) -> None:
    """Payments waiting for authentication are superseded (their addresses stop working)."""
    provider = payments.provider()
    for row in payments_of(user_id, REQUIRES_ACTION):
        provider.cancel_intent(row.provider_id)
        row.status, row.completed_at = CANCELED, utcnow()


def keep_card(sub: Subscription, card: Card) -> None:
    sub.payment_method_id, sub.payment_method_type = card.id, card.type
    sub.payment_method_brand, sub.payment_method_last4 = card.brand, card.last4
    sub.payment_method_exp_month, sub.payment_method_exp_year = card.exp_month, card.exp_year


@contextmanager
def paying():
    """The provider's refusals as API errors."""
    try:
        yield
    except UnknownPaymentMethod:
        raise InvalidField("paymentMethodId", "There is no such payment method.") from None
    except PaymentDeclined as exc:
        raise payment_failed(exc) from None


def payment_failed(exc: PaymentDeclined) -> ApiError:
    return ApiError("PAYMENT_FAILED", exc.message, {"declineCode": exc.decline_code})


def settle(user_id: str, card_id: str | None, *, write_off: bool) -> PaymentDeclined | None:
    """Charge the user's owed payments to ``card_id`` off session, oldest first, until one is declined.

    Returns the decline, or None when all succeeded. From the declined one on, payments stay owed
    (``requires_payment_method``), or with ``write_off`` are canceled. Does not commit.
    """
    provider, now = payments.provider(), utcnow()
    owed = db.session.scalars(select(PaymentIntent).where(PaymentIntent.user_id == user_id,
                                                          PaymentIntent.status.in_(OWED))
                              .order_by(PaymentIntent.created_at)).all()
    for index, row in enumerate(owed):
        try:
            if not card_id:
                raise PaymentDeclined("no_payment_method", "There is no card on file.")
            provider.confirm_intent(row.provider_id, payment_method_id=card_id, off_session=True)
        except (PaymentDeclined, UnknownPaymentMethod) as exc:
            declined = exc if isinstance(exc, PaymentDeclined) else PaymentDeclined("generic_decline")
            for unpaid in owed[index:]:
                unpaid.status = CANCELED if write_off else REQUIRES_PAYMENT_METHOD
                if write_off:
                    unpaid.completed_at = now
            return declined
        row.status, row.completed_at, row.payment_method_id = SUCCEEDED, now, card_id
    return None


def write_off(user_id: str, *statuses: str) -> None:
    """Cancel the user's payments in ``statuses``: no longer owed. Does not commit."""
    db.session.execute(update(PaymentIntent).where(PaymentIntent.user_id == user_id,
                                                   PaymentIntent.status.in_(statuses))
                       .values(status=CANCELED, completed_at=utcnow()),
                       execution_options={"synchronize_session": False})


def record_change(sub: Subscription, email: str, previous_type: str, reason: str) -> None:
    record_subscription_changed(sub.user_id, email, sub.id, previous_type, sub.type, sub.current_period_end, reason)


def record_subscription_changed(user_id: str, email: str, sub_id: str, previous_type: str, current_type: str,
                                period_end: datetime, reason: str) -> None:
    """``user.subscription_changed`` in the caller's transaction (docs/api-decisions.md, Subscriptions)."""
    record_event("user.subscription_changed", user_id, {
        "user": {"id": user_id, "email": email},
        "subscription": {"id": sub_id, "previous_type": previous_type, "current_type": current_type,
                         "current_period_end": format_timestamp(period_end),
                         "changed_at": format_timestamp(utcnow()), "reason": reason},
    })
