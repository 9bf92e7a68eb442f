"""Plan changes: upgrades with proration, downgrades and cancellations for the period end, reactivation,
another card; and the operator's grant of ENTERPRISE."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy import select

from app.billing.models import PaymentIntent, Subscription
from app.billing.plans import add_months, display_name, plan_for
from app.billing.shared import (CENT, OWED, cancel_waiting_payments, enterprise_is_not_self_serve, keep_card, lock,
                                payment_failed, paying, plan_by_id, price_of, record_change, settle, write_off)
from app.common.models import utcnow
from app.errors import ApiError, InvalidField
from app.extensions import db
from app.integrations import payments
from app.integrations.payments import REQUIRES_ACTION, REQUIRES_CONFIRMATION, SUCCEEDED
from app.users.models import User

ACTIONS = ("upgrade", "downgrade", "cancel", "reactivate", "update_payment_method")
PRORATION_BEHAVIORS = ("create_prorations", "none", "always_invoice")
RANK = {"FREE": 0, "PREMIUM": 1, "ENTERPRISE": 2}

_MICROSECOND = timedelta(microseconds=1)


@dataclass(frozen=True)
class ChangeResult:
    subscription_id: str
    status: str
    proration_amount: Decimal
    effective_date: datetime


@dataclass(frozen=True)
class Quote:
    """What a change does, worked out before anything is charged or written: ``preview`` shows it and
    ``change`` applies it, so the amounts a person confirms are the amounts the change uses."""

    action: str
    plan_type: str  # the plan once the change has taken effect
    proration_amount: Decimal
    amount_due_now: Decimal
    effective_date: datetime
    period_end: datetime  # the end of the period after the change (a new one for an upgrade with "none")
    payment_method_id: str | None  # the card an upgrade is paid with


def change(user: User, data: dict) -> ChangeResult:
    """Apply ``data["action"]``: upgrade, downgrade, cancel, reactivate or update_payment_method.

    Commits once. Actions other than upgrade need a paid plan (SUBSCRIPTION_NOT_FOUND on FREE). The schema
    has checked which of planId and paymentMethodId each action takes.
    """
    sub = lock(user.id)
    return _ACTIONS[data["action"]](user, sub, data, quote(sub, data, utcnow()))


def quote(sub: Subscription, data: dict, now: datetime) -> Quote:
    """What ``data`` would do to ``sub`` at ``now``, raising what ``change`` raises before it asks the provider
    (PLAN_NOT_FOUND, SUBSCRIPTION_NOT_FOUND, VALIDATION_ERROR); the card itself is only checked by ``change``.

    Upgrade: ``prorationBehavior`` ``create_prorations`` keeps the period and owes the price difference for its
    unused part, charged with the renewal at its end; ``always_invoice`` charges that same amount now;
    ``none`` prorates nothing: a new period starts now and its full price is charged now. Downgrades and
    cancellations take effect at the period end, with nothing prorated (0 whatever ``prorationBehavior``);
    reactivating and changing the card take effect now.
    """
    action = data["action"]
    if action == "upgrade":
        return _quote_upgrade(sub, data, now)
    if sub.type == "FREE":
        raise ApiError("SUBSCRIPTION_NOT_FOUND", "You have no paid subscription to change: subscribe with "
                                                 "POST /api/account/subscription.")
    end, card = sub.current_period_end, sub.payment_method_id
    if action == "downgrade":
        target, current = plan_by_id(data["planId"]), plan_for(sub.type)
        if RANK[target.type] >= RANK[sub.type]:
            names = {"target": display_name(target), "current": display_name(current)}
            if RANK[target.type] > RANK[sub.type]:
                raise InvalidField("planId", "%(target)s is not below your %(current)s plan: use upgrade.", values=names)
            raise InvalidField("planId", "%(target)s is not below your %(current)s plan.", values=names)
        if target.type == "PREMIUM" and not sub.payment_method_id:
            raise InvalidField("planId", "There is no card on file to pay for Premium: add one with "
                                         "update_payment_method first.")
        return Quote(action, target.type, Decimal(0), Decimal(0), end, end, card)
    if action == "cancel":
        return Quote(action, "FREE", Decimal(0), Decimal(0), end, end, card)
    return Quote(action, sub.type, Decimal(0), Decimal(0), now, end, card)  # reactivate, update_payment_method


def _quote_upgrade(sub: Subscription, data: dict, now: datetime) -> Quote:
    """FREE → PREMIUM at once, paid with ``paymentMethodId`` or the card on file; ENTERPRISE is sales-only."""
    target = plan_by_id(data["planId"])
    if target.type == "ENTERPRISE":
        raise enterprise_is_not_self_serve()
    current = plan_for(sub.type)
    if RANK[target.type] <= RANK[sub.type]:
        names = {"target": display_name(target), "current": display_name(current)}
        if RANK[target.type] < RANK[sub.type]:
            raise InvalidField("planId", "%(target)s is not above your %(current)s plan: use downgrade.", values=names)
        raise InvalidField("planId", "%(target)s is not above your %(current)s plan.", values=names)
    payment_method_id = data.get("paymentMethodId") or sub.payment_method_id
    if not payment_method_id:
        raise InvalidField("paymentMethodId", "There is no card on file: give paymentMethodId.")
    behavior = data["prorationBehavior"]
    full_price = price_of(target, None)
    if behavior == "none":
        return Quote("upgrade", target.type, Decimal(0), full_price, now, add_months(now, 1), payment_method_id)
    proration = _prorate(full_price - price_of(current, None), sub, now)
    due_now = proration if behavior == "always_invoice" else Decimal(0)
    return Quote("upgrade", target.type, proration, due_now, now, sub.current_period_end, payment_method_id)


def _upgrade(user: User, sub: Subscription, data: dict, quote: Quote) -> ChangeResult:
    """Charges made here cannot ask for the holder's authentication (PAYMENT_FAILED ``authentication_required``)."""
    target = plan_for(quote.plan_type)
    provider = payments.provider()
    now, behavior, proration = quote.effective_date, data["prorationBehavior"], quote.proration_amount
    description = f"Upgrade to {target.name}"
    with paying():
        card = provider.card(quote.payment_method_id)
        if quote.amount_due_now > 0:
            intent = provider.charge(amount=quote.amount_due_now, currency=target.currency,
                                     payment_method_id=card.id, description=description, off_session=True)
            db.session.add(PaymentIntent(user_id=user.id, provider_id=intent.id, plan_type=target.type,
                                         amount=quote.amount_due_now, currency=target.currency, status=SUCCEEDED,
                                         payment_method_id=card.id, created_at=now, completed_at=now))
        elif behavior == "create_prorations" and proration > 0:
            intent = provider.create_intent(amount=proration, currency=target.currency, payment_method_id=card.id,
                                            description=f"{description}: proration, billed at the period end")
            db.session.add(PaymentIntent(user_id=user.id, provider_id=intent.id, plan_type=target.type,
                                         amount=proration, currency=target.currency, status=REQUIRES_CONFIRMATION,
                                         payment_method_id=card.id, created_at=now))
    previous = sub.type
    sub.type, sub.status, sub.coupon_id = target.type, "ACTIVE", None
    sub.cancel_at_period_end, sub.pending_type = False, None
    if behavior == "none":
        sub.current_period_start, sub.current_period_end, sub.api_requests_used = now, quote.period_end, 0
    keep_card(sub, card)
    cancel_waiting_payments(user.id)
    record_change(sub, user.email, previous, "upgraded")
    result = ChangeResult(sub.id, sub.status, proration, now)
    db.session.commit()
    return result


def _downgrade(user: User, sub: Subscription, data: dict, quote: Quote) -> ChangeResult:
    """Schedule a lower plan for the period end (``pending_type``); the current plan runs until then.
    Replaces a scheduled cancellation."""
    sub.pending_type, sub.cancel_at_period_end = quote.plan_type, False
    return _commit(sub, quote)


def _cancel(user: User, sub: Subscription, data: dict, quote: Quote) -> ChangeResult:
    """Schedule the fall back to FREE for the period end; the plan runs until then (nothing is prorated).
    Replaces a scheduled downgrade; cancelling again changes nothing."""
    sub.cancel_at_period_end, sub.pending_type = True, None
    return _commit(sub, quote)


def _reactivate(user: User, sub: Subscription, data: dict, quote: Quote) -> ChangeResult:
    """Undo what is scheduled for the period end (a cancellation or a downgrade): the plan renews as it is.
    With nothing scheduled it changes nothing."""
    sub.cancel_at_period_end, sub.pending_type = False, None
    return _commit(sub, quote)


def _update_payment_method(user: User, sub: Subscription, data: dict, quote: Quote) -> ChangeResult:
    """Put another card on file (checked by the provider: a declined card gives PAYMENT_FAILED). A PAST_DUE
    subscription's owed payments are charged to it at once; when they succeed it is ACTIVE again, and when
    one is declined the card is not kept (payments that succeeded before it stay paid)."""
    with paying():
        card = payments.provider().card(data["paymentMethodId"])
    if sub.status == "PAST_DUE":
        declined = settle(user.id, card.id, write_off=False)
        if declined is not None:
            db.session.commit()
            raise payment_failed(declined)
        sub.status = "ACTIVE"
    keep_card(sub, card)
    return _commit(sub, quote)


_ACTIONS = {"upgrade": _upgrade, "downgrade": _downgrade, "cancel": _cancel, "reactivate": _reactivate,
            "update_payment_method": _update_payment_method}


def _commit(sub: Subscription, quote: Quote) -> ChangeResult:
    result = ChangeResult(sub.id, sub.status, quote.proration_amount, quote.effective_date)
    db.session.commit()
    return result


def _prorate(difference: Decimal, sub: Subscription, now: datetime) -> Decimal:
    """``difference`` × the unused fraction of the current period, to the cent."""
    total = sub.current_period_end - sub.current_period_start
    unused = min(max(sub.current_period_end - now, timedelta(0)), total)
    if total <= timedelta(0):
        return Decimal(0)
    return (difference * (unused // _MICROSECOND) / (total // _MICROSECOND)).quantize(CENT, ROUND_HALF_UP)


def grant_enterprise(email: str) -> tuple[Subscription, bool]:
    """Give the user ENTERPRISE (ACTIVE, a new monthly period from now, renewing at no charge: sales bills
    it). Commits once; returns the subscription and whether its type changed (``user.subscription_changed``).
    What a self-serve plan still owed or waited for is canceled; scheduled changes are dropped. Raises
    USER_NOT_FOUND."""
    user = db.session.scalar(select(User).where(User.email == email.strip().lower()))
    if user is None:
        raise ApiError("USER_NOT_FOUND", "No account has the email %(email)s.", values={"email": email.strip().lower()})
    sub = lock(user.id)
    previous = sub.type
    if previous != "ENTERPRISE":
        now = utcnow()
        sub.current_period_start, sub.current_period_end, sub.api_requests_used = now, add_months(now, 1), 0
    sub.type, sub.status, sub.coupon_id = "ENTERPRISE", "ACTIVE", None
    sub.cancel_at_period_end, sub.pending_type = False, None
    write_off(user.id, *OWED, REQUIRES_ACTION)
    if previous != "ENTERPRISE":
        record_change(sub, user.email, previous, "granted")
    db.session.commit()
    return sub, previous != "ENTERPRISE"
