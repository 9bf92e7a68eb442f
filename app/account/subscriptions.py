"""Subscriptions: the plan and its usage, subscribing, plan changes, payment authentication and period ends.

Money moves through ``app.integrations.payments.provider()``. Every payment is a
``payment_intents`` row (the provider's id, the amount, a status):

- ``requires_confirmation``: owed and not charged yet: an upgrade's proration waiting for the next
  renewal, or a renewal between its claim and its charge;
- ``requires_action``: waiting for the card holder's authentication (a subscribe whose card needs it);
- ``requires_payment_method``: declined and still owed (the subscription is PAST_DUE);
- ``succeeded``; ``canceled``: abandoned, superseded or written off (no longer owed).

A request that changes a subscription first takes its row's write lock (``_lock``: a no-op update), so
two racing requests for one subscription (two subscribes, two confirmations) run one after the other and
the second sees what the first did: nobody pays twice. Period ends (``apply_period_ends``, a periodic job)
claim each subscription with an update conditional on what they read (period end, type, status, pending
changes) and only then charge, so overlapping runs charge once and never undo a change committed between
their read and their claim.
"""
from __future__ import annotations

import logging
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal

from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from app.account.models import Coupon, PaymentIntent, Subscription, User
from app.account.plans import PLANS, Plan, plan_for
from app.account.service import Usage, add_months, find_by_email, usage_of
from app.common.models import utcnow
from app.common.schemas import format_timestamp
from app.errors import ApiError, InvalidField
from app.extensions import db
from app.integrations import payments
from app.integrations.payments import (REQUIRES_ACTION, REQUIRES_CONFIRMATION, SUCCEEDED, Card, PaymentDeclined,
                                       UnknownPaymentMethod)
from app.webhooks.service import record_event

log = logging.getLogger(__name__)

ACTIONS = ("upgrade", "downgrade", "cancel", "reactivate", "update_payment_method")
PRORATION_BEHAVIORS = ("create_prorations", "none", "always_invoice")
RANK = {"FREE": 0, "PREMIUM": 1, "ENTERPRISE": 2}
PLANS_BY_ID = {plan.id: plan for plan in PLANS.values()}

REQUIRES_PAYMENT_METHOD = "requires_payment_method"
CANCELED = "canceled"
OWED = (REQUIRES_CONFIRMATION, REQUIRES_PAYMENT_METHOD)

# Product rules (docs/api-decisions.md, Subscriptions).
PAYMENT_ACTION_LIFETIME = timedelta(hours=23)  # an unanswered authentication address then expires
PAST_DUE_GRACE = timedelta(days=7)  # a PAST_DUE subscription falls back to FREE this long into its period

CENT = Decimal("0.01")
_MICROSECOND = timedelta(microseconds=1)


# What the use cases answer ------------------------------------------------------------
@dataclass(frozen=True)
class NextBilling:
    date: datetime
    amount: Decimal
    currency: str


@dataclass(frozen=True)
class Overview:
    id: str
    type: str
    status: str
    current_period_start: datetime
    current_period_end: datetime
    cancel_at_period_end: bool
    trial_end: datetime | None
    plan: Plan
    usage: Usage
    payment_method: Card | None
    next_billing: NextBilling | None


@dataclass(frozen=True)
class SubscribeResult:
    subscription_id: str
    status: str  # ACTIVE, or INCOMPLETE while the card holder's authentication is awaited
    client_secret: str
    requires_action: bool
    next_action: dict | None  # {"type": "redirect_to_url", "url": ...}


@dataclass(frozen=True)
class ChangeResult:
    subscription_id: str
    status: str
    proration_amount: Decimal
    effective_date: datetime


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
    message: str


# Reading -------------------------------------------------------------------------------
def overview(user: User) -> Overview:
    """The user's subscription with its plan, this period's usage against the plan's limits, the card on
    file and the next charge (null when nothing will be charged at the period end)."""
    sub = _subscription(user.id)
    plan = plan_for(sub.type)
    usage = usage_of(user)
    return Overview(id=sub.id, type=sub.type, status=sub.status, current_period_start=sub.current_period_start,
                    current_period_end=sub.current_period_end, cancel_at_period_end=sub.cancel_at_period_end,
                    trial_end=sub.trial_end, plan=plan, usage=usage, payment_method=_card_on_file(sub),
                    next_billing=_next_billing(sub))


def _card_on_file(sub: Subscription) -> Card | None:
    if not sub.payment_method_id:
        return None
    return Card(id=sub.payment_method_id, brand=sub.payment_method_brand, last4=sub.payment_method_last4,
                exp_month=sub.payment_method_exp_month, exp_year=sub.payment_method_exp_year,
                type=sub.payment_method_type or "card")


def _next_billing(sub: Subscription) -> NextBilling | None:
    """The charge at the period end: the renewal of a plan that stays paid, plus prorations waiting for it."""
    renews_as = None if sub.cancel_at_period_end else (sub.pending_type or sub.type)
    amount = _price(PLANS["PREMIUM"], _coupon(sub.coupon_id)) if renews_as == "PREMIUM" else Decimal(0)
    amount += sum((row.amount for row in _payments(sub.user_id, REQUIRES_CONFIRMATION)), Decimal(0))
    if amount <= 0:
        return None
    return NextBilling(date=sub.current_period_end, amount=amount, currency=PLANS["PREMIUM"].currency)


# Subscribing ---------------------------------------------------------------------------
def subscribe(user: User, data: dict) -> SubscribeResult:
    """Move a FREE user to PREMIUM, paying its first month with ``paymentMethodId`` less ``couponCode``.

    Commits once. When the charge succeeds: ACTIVE PREMIUM, a new monthly period from now, the card on file,
    the coupon kept for later renewals, ``user.subscription_changed``. When the card needs its holder's
    authentication: INCOMPLETE with the address to send them to; nothing changes until they answer there
    (``complete_payment``). Raises PLAN_NOT_FOUND; VALIDATION_ERROR on planId (enterprise, free, or a paid
    plan already), couponCode (unknown, expired, used up) or paymentMethodId (unknown); PAYMENT_FAILED
    (declined; ``details.declineCode``).
    """
    plan = _plan(data["planId"])
    if plan.type == "ENTERPRISE":
        raise _enterprise_is_not_self_serve()
    if plan.type == "FREE":
        raise InvalidField("planId", "Free needs no subscription: to leave Premium, cancel it with PUT.")
    sub = _lock(user.id)
    if sub.status == "PAST_DUE":
        raise InvalidField("planId", f"Your {plan_for(sub.type).name} payment is past due: give another card with "
                                     "PUT /api/account/subscription (action update_payment_method).")
    if sub.type != "FREE":
        raise InvalidField("planId", f"You already have the {plan_for(sub.type).name} plan: change it with "
                                     "PUT /api/account/subscription (action upgrade, downgrade or reactivate).")
    coupon = _usable_coupon(data["couponCode"]) if data.get("couponCode") else None
    user_id, email, sub_id = user.id, user.email, sub.id
    provider = payments.provider()
    amount = _price(plan, coupon)
    with _paying():
        card = provider.card(data["paymentMethodId"])
        if coupon is not None and not _redeem(coupon):
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
        _cancel_waiting_payments(user_id)
        db.session.add(payment)
        db.session.commit()
        return SubscribeResult(subscription_id=sub_id, status="INCOMPLETE", client_secret=intent.client_secret,
                               requires_action=True,
                               next_action={"type": "redirect_to_url", "url": confirmed.next_action_url})
    payment.completed_at = utcnow()
    db.session.add(payment)
    _cancel_waiting_payments(user_id)
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
    sub = _lock(row.user_id)
    # The answer claims the payment: a racing answer waits for our lock, then finds nothing to claim.
    claimed = db.session.execute(update(PaymentIntent).where(PaymentIntent.id == row.id,
                                                             PaymentIntent.status == REQUIRES_ACTION)
                                 .values(status=CANCELED, completed_at=utcnow()))
    if claimed.rowcount != 1:
        raise _answered()
    if sub.type != "FREE":
        provider.cancel_intent(row.provider_id)
        db.session.commit()
        return PaymentOutcome(False, f"You already have the {plan_for(sub.type).name} plan: this payment was "
                                     "canceled and nothing was charged.")
    try:
        provider.complete_action(row.provider_id, approved=approved)
    except PaymentDeclined as exc:
        db.session.commit()
        return PaymentOutcome(False, f"{exc.message} Nothing was charged and your plan is unchanged.")
    row.status, row.completed_at = SUCCEEDED, utcnow()
    coupon = _coupon(row.coupon_id)
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
    return PaymentOutcome(True, f"Payment complete: you now have the {plan_for('PREMIUM').name} plan.")


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
    _keep_card(sub, card)
    _record_change(sub, email, previous, "subscribed")


# Changing ------------------------------------------------------------------------------
def change(user: User, data: dict) -> ChangeResult:
    """Apply ``data["action"]``: upgrade, downgrade, cancel, reactivate or update_payment_method.

    Commits once. Actions other than upgrade need a paid plan (SUBSCRIPTION_NOT_FOUND on FREE). The schema
    has checked which of planId and paymentMethodId each action takes.
    """
    return _ACTIONS[data["action"]](user, data)


def _upgrade(user: User, data: dict) -> ChangeResult:
    """FREE → PREMIUM at once, paid with ``paymentMethodId`` or the card on file; ENTERPRISE is sales-only.

    ``prorationBehavior``: ``create_prorations`` keeps the period and owes the Premium price for its unused
    part, charged with the renewal at its end; ``always_invoice`` charges that same amount now;
    ``none`` prorates nothing: a new period starts now and its full price is charged now. Charges made here
    cannot ask for the holder's authentication (PAYMENT_FAILED ``authentication_required``).
    """
    sub = _lock(user.id)
    target = _plan(data["planId"])
    if target.type == "ENTERPRISE":
        raise _enterprise_is_not_self_serve()
    current = plan_for(sub.type)
    if RANK[target.type] <= RANK[sub.type]:
        raise InvalidField("planId", f"{target.name} is not above your {current.name} plan"
                                     f"{': use downgrade' if RANK[target.type] < RANK[sub.type] else ''}.")
    payment_method_id = data.get("paymentMethodId") or sub.payment_method_id
    if not payment_method_id:
        raise InvalidField("paymentMethodId", "There is no card on file: give paymentMethodId.")
    provider = payments.provider()
    now, behavior = utcnow(), data["prorationBehavior"]
    full_price = _price(target, None)
    proration = Decimal(0) if behavior == "none" else _prorate(full_price - _price(current, None), sub, now)
    charge_now = {"none": full_price, "always_invoice": proration, "create_prorations": Decimal(0)}[behavior]
    description = f"Upgrade to {target.name}"
    with _paying():
        card = provider.card(payment_method_id)
        if charge_now > 0:
            intent = provider.charge(amount=charge_now, currency=target.currency, payment_method_id=card.id,
                                     description=description, off_session=True)
            db.session.add(PaymentIntent(user_id=user.id, provider_id=intent.id, plan_type=target.type,
                                         amount=charge_now, currency=target.currency, status=SUCCEEDED,
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
        sub.current_period_start, sub.current_period_end, sub.api_requests_used = now, add_months(now, 1), 0
    _keep_card(sub, card)
    _cancel_waiting_payments(user.id)
    _record_change(sub, user.email, previous, "upgraded")
    result = ChangeResult(sub.id, sub.status, proration, now)
    db.session.commit()
    return result


def _downgrade(user: User, data: dict) -> ChangeResult:
    """Schedule a lower plan for the period end (``pending_type``); the current plan runs until then, so
    nothing is prorated (0 whatever ``prorationBehavior``). Replaces a scheduled cancellation."""
    sub = _paid(user)
    target = _plan(data["planId"])
    current = plan_for(sub.type)
    if RANK[target.type] >= RANK[sub.type]:
        raise InvalidField("planId", f"{target.name} is not below your {current.name} plan"
                                     f"{': use upgrade' if RANK[target.type] > RANK[sub.type] else ''}.")
    if target.type == "PREMIUM" and not sub.payment_method_id:
        raise InvalidField("planId", "There is no card on file to pay for Premium: add one with "
                                     "update_payment_method first.")
    sub.pending_type, sub.cancel_at_period_end = target.type, False
    return _commit(sub, Decimal(0), sub.current_period_end)


def _cancel(user: User, data: dict) -> ChangeResult:
    """Schedule the fall back to FREE for the period end; the plan runs until then (nothing is prorated).
    Replaces a scheduled downgrade; cancelling again changes nothing."""
    sub = _paid(user)
    sub.cancel_at_period_end, sub.pending_type = True, None
    return _commit(sub, Decimal(0), sub.current_period_end)


def _reactivate(user: User, data: dict) -> ChangeResult:
    """Undo what is scheduled for the period end (a cancellation or a downgrade): the plan renews as it is.
    With nothing scheduled it changes nothing."""
    sub = _paid(user)
    sub.cancel_at_period_end, sub.pending_type = False, None
    return _commit(sub, Decimal(0), utcnow())


def _update_payment_method(user: User, data: dict) -> ChangeResult:
    """Put another card on file (checked by the provider: a declined card gives PAYMENT_FAILED). A PAST_DUE
    subscription's owed payments are charged to it at once; when they succeed it is ACTIVE again, and when
    one is declined the card is not kept (payments that succeeded before it stay paid)."""
    sub = _paid(user)
    with _paying():
        card = payments.provider().card(data["paymentMethodId"])
    if sub.status == "PAST_DUE":
        declined = _settle(user.id, card.id, write_off=False)
        if declined is not None:
            db.session.commit()
            raise _payment_failed(declined)
        sub.status = "ACTIVE"
    _keep_card(sub, card)
    return _commit(sub, Decimal(0), utcnow())


_ACTIONS = {"upgrade": _upgrade, "downgrade": _downgrade, "cancel": _cancel, "reactivate": _reactivate,
            "update_payment_method": _update_payment_method}


def _paid(user: User) -> Subscription:
    sub = _lock(user.id)
    if sub.type == "FREE":
        raise ApiError("SUBSCRIPTION_NOT_FOUND", "You have no paid subscription to change: subscribe with "
                                                 "POST /api/account/subscription.")
    return sub


def _commit(sub: Subscription, proration: Decimal, effective: datetime) -> ChangeResult:
    result = ChangeResult(sub.id, sub.status, proration, effective)
    db.session.commit()
    return result


def _prorate(difference: Decimal, sub: Subscription, now: datetime) -> Decimal:
    """``difference`` × the unused fraction of the current period, to the cent."""
    total = sub.current_period_end - sub.current_period_start
    unused = min(max(sub.current_period_end - now, timedelta(0)), total)
    if total <= timedelta(0):
        return Decimal(0)
    return (difference * (unused // _MICROSECOND) / (total // _MICROSECOND)).quantize(CENT, ROUND_HALF_UP)


# Period ends (the periodic job) ----------------------------------------------------
def apply_period_ends(batch: int = 100) -> int:
    """Roll every subscription whose period has ended into its next one, then end PAST_DUE subscriptions
    whose grace has run out. Commits per subscription; returns how many it changed.

    At a period end: a scheduled cancellation or downgrade to FREE gives FREE (ACTIVE, the card kept, the
    coupon dropped); a scheduled downgrade to PREMIUM, or a PREMIUM renewal, charges the card off session
    (with prorations owed since), ACTIVE when it succeeds and PAST_DUE when it is declined; a PREMIUM
    subscription still PAST_DUE gives FREE; FREE and ENTERPRISE just start the next period. Each period end
    sets ``api_requests_used`` to 0; periods missed while no job ran are skipped, not charged. A change of
    type records ``user.subscription_changed``. Safe to run twice at once: each subscription is claimed by
    an update conditional on what was read.
    """
    changed, skipped = 0, set()
    while True:
        query = select(Subscription.id).where(Subscription.current_period_end <= utcnow())
        if skipped:
            query = query.where(Subscription.id.not_in(skipped))
        due = db.session.scalars(query.order_by(Subscription.current_period_end).limit(batch)).all()
        db.session.rollback()
        if not due:
            break
        for sub_id in due:
            try:
                rolled = _roll_over(sub_id)
            except Exception:  # one broken subscription must not stop the others; the next run retries it
                log.exception("period end of subscription %s failed", sub_id)
                db.session.rollback()
                rolled = False
            if rolled:
                changed += 1
            else:
                skipped.add(sub_id)
    return changed + _end_overdue()


def _roll_over(sub_id: str, attempts: int = 3) -> bool:
    """One subscription's period end; False when it is not due (any more) or kept changing under us."""
    provider = payments.provider()
    for _ in range(attempts):
        now = utcnow()
        sub = db.session.get(Subscription, sub_id, populate_existing=True)
        if sub is None or sub.current_period_end > now:
            return False
        previous = sub.type
        if sub.type != "FREE" and (sub.cancel_at_period_end or sub.pending_type == "FREE"):
            new_type, reason = "FREE", "canceled" if sub.cancel_at_period_end else "downgraded"
        elif sub.type == "PREMIUM" and sub.status == "PAST_DUE":
            new_type, reason = "FREE", "payment_failed"  # a whole period unpaid (the grace usually ends it sooner)
        elif sub.pending_type:
            new_type, reason = sub.pending_type, "downgraded"
        else:
            new_type, reason = sub.type, "renewed"
        coupon = _coupon(sub.coupon_id) if new_type == "PREMIUM" else None
        renewal = _price(PLANS["PREMIUM"], coupon) if new_type == "PREMIUM" else Decimal(0)
        intent = None
        if renewal > 0:
            try:  # created before the claim (nothing is charged yet), so that the claim can record it
                intent = provider.create_intent(amount=renewal, currency=PLANS["PREMIUM"].currency,
                                                payment_method_id=sub.payment_method_id or "",
                                                description="Premium subscription, renewal")
            except payments.PaymentError as exc:  # no usable card to renew with
                log.warning("subscription %s cannot renew: %r", sub_id, exc)
                new_type, reason, coupon, renewal = "FREE", "payment_failed", None, Decimal(0)
        owed = bool(_payments(sub.user_id, REQUIRES_CONFIRMATION))
        charging = new_type == "PREMIUM" and (renewal > 0 or owed)
        start, end = _next_period(sub.current_period_end, now)
        # PAST_DUE until the charge succeeds: a crash between claim and charge leaves it owed, not free.
        claim = update(Subscription).where(
            Subscription.id == sub.id, Subscription.current_period_end == sub.current_period_end,
            Subscription.type == sub.type, Subscription.status == sub.status,
            Subscription.cancel_at_period_end == sub.cancel_at_period_end,
            Subscription.pending_type.is_(None) if sub.pending_type is None
            else Subscription.pending_type == sub.pending_type,
        ).values(type=new_type, status="PAST_DUE" if charging else "ACTIVE", current_period_start=start,
                 current_period_end=end, api_requests_used=0, cancel_at_period_end=False, pending_type=None,
                 coupon_id=coupon.id if coupon else None, updated_at=now)
        if db.session.execute(claim, execution_options={"synchronize_session": False}).rowcount != 1:
            db.session.rollback()
            if intent is not None:
                provider.cancel_intent(intent.id)
            continue
        if intent is not None:
            db.session.add(PaymentIntent(user_id=sub.user_id, provider_id=intent.id, plan_type=new_type,
                                         amount=renewal, currency=PLANS["PREMIUM"].currency,
                                         status=REQUIRES_CONFIRMATION, payment_method_id=sub.payment_method_id,
                                         coupon_id=coupon.id if coupon else None, created_at=now))
        if new_type == "FREE":
            _write_off(sub.user_id, REQUIRES_PAYMENT_METHOD)
        if new_type != previous:
            email = db.session.scalar(select(User.email).where(User.id == sub.user_id))
            _record(sub.user_id, email, sub.id, previous, new_type, end, reason)
        user_id, card_id = sub.user_id, sub.payment_method_id
        db.session.commit()
        if charging or (new_type == "FREE" and owed):
            # A renewal that is declined stays owed (PAST_DUE); the last bill of a plan that ends (prorations
            # it still owes) is tried once and written off when declined.
            declined = _settle(user_id, card_id, write_off=new_type == "FREE")
            if declined is not None:
                log.info("period end of subscription %s: payment declined (%s)", sub_id, declined.decline_code)
            elif charging:
                db.session.execute(update(Subscription).where(Subscription.id == sub_id,
                                                              Subscription.current_period_end == end,
                                                              Subscription.status == "PAST_DUE")
                                   .values(status="ACTIVE", updated_at=utcnow()),
                                   execution_options={"synchronize_session": False})
            db.session.commit()
        return True
    return False


def _end_overdue() -> int:
    """PAST_DUE subscriptions PAST_DUE_GRACE into their period fall back to FREE (what they owe is written
    off); the period and its usage go on."""
    ended = 0
    overdue = db.session.scalars(select(Subscription.id).where(
        Subscription.status == "PAST_DUE", Subscription.current_period_start <= utcnow() - PAST_DUE_GRACE)).all()
    for sub_id in overdue:
        sub = db.session.get(Subscription, sub_id, populate_existing=True)
        if sub is None or sub.status != "PAST_DUE":
            continue
        done = db.session.execute(update(Subscription).where(
            Subscription.id == sub.id, Subscription.status == "PAST_DUE", Subscription.type == sub.type,
            Subscription.current_period_end == sub.current_period_end,
        ).values(type="FREE", status="ACTIVE", coupon_id=None, pending_type=None, cancel_at_period_end=False,
                 updated_at=utcnow()), execution_options={"synchronize_session": False})
        if done.rowcount != 1:
            db.session.rollback()
            continue
        _write_off(sub.user_id, *OWED)
        if sub.type != "FREE":
            email = db.session.scalar(select(User.email).where(User.id == sub.user_id))
            _record(sub.user_id, email, sub.id, sub.type, "FREE", sub.current_period_end, "payment_failed")
        db.session.commit()
        ended += 1
    return ended


def _next_period(end: datetime, now: datetime) -> tuple[datetime, datetime]:
    """The monthly period after the one ending at ``end`` that contains ``now``."""
    start, next_end = end, add_months(end, 1)
    while next_end <= now:
        start, next_end = next_end, add_months(next_end, 1)
    return start, next_end


def _settle(user_id: str, card_id: str | None, *, write_off: bool) -> PaymentDeclined | None:
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


def _write_off(user_id: str, *statuses: str) -> None:
    db.session.execute(update(PaymentIntent).where(PaymentIntent.user_id == user_id,
                                                   PaymentIntent.status.in_(statuses))
                       .values(status=CANCELED, completed_at=utcnow()),
                       execution_options={"synchronize_session": False})


# Operators (CLI) -------------------------------------------------------------------------
def grant_enterprise(email: str) -> tuple[Subscription, bool]:
    """Give the user ENTERPRISE (ACTIVE, a new monthly period from now, renewing at no charge: sales bills
    it). Commits once; returns the subscription and whether its type changed (``user.subscription_changed``).
    What a self-serve plan still owed or waited for is canceled; scheduled changes are dropped. Raises
    USER_NOT_FOUND."""
    user = find_by_email(email)
    if user is None:
        raise ApiError("USER_NOT_FOUND", f"No account has the email {email.strip().lower()}.")
    sub = _lock(user.id)
    previous = sub.type
    if previous != "ENTERPRISE":
        now = utcnow()
        sub.current_period_start, sub.current_period_end, sub.api_requests_used = now, add_months(now, 1), 0
    sub.type, sub.status, sub.coupon_id = "ENTERPRISE", "ACTIVE", None
    sub.cancel_at_period_end, sub.pending_type = False, None
    _write_off(user.id, *OWED, REQUIRES_ACTION)
    if previous != "ENTERPRISE":
        _record_change(sub, user.email, previous, "granted")
    db.session.commit()
    return sub, previous != "ENTERPRISE"


def create_coupon(code: str, percent_off: int, *, max_redemptions: int | None = None,
                  expires_at: datetime | None = None) -> Coupon:
    """A percent-off coupon; codes are kept upper-case (and matched without regard to case). Commits once.
    Raises VALIDATION_ERROR (code, percentOff, maxRedemptions, expiresAt; a code already taken)."""
    code = code.strip().upper()
    if not code or len(code) > 64 or not all(c.isascii() and (c.isalnum() or c in "-_") for c in code):
        raise InvalidField("code", "Use 1 to 64 letters, digits, '-' or '_'.")
    if not 1 <= percent_off <= 100:
        raise InvalidField("percentOff", "Must be from 1 to 100.")
    if max_redemptions is not None and max_redemptions < 1:
        raise InvalidField("maxRedemptions", "Must be at least 1.")
    if expires_at is not None and (expires_at.tzinfo is None or expires_at <= utcnow()):
        raise InvalidField("expiresAt", "Must be a moment in the future, with a time zone.")
    taken = InvalidField("code", f"A coupon with the code {code} already exists.")
    if db.session.scalar(select(Coupon.id).where(Coupon.code == code)) is not None:
        raise taken
    coupon = Coupon(code=code, percent_off=percent_off, max_redemptions=max_redemptions, expires_at=expires_at,
                    created_at=utcnow())
    db.session.add(coupon)
    try:
        db.session.commit()
    except IntegrityError:  # created by someone else since our check
        db.session.rollback()
        raise taken from None
    return coupon


# Shared pieces ---------------------------------------------------------------------------
def _subscription(user_id: str) -> Subscription:
    return db.session.execute(select(Subscription).where(Subscription.user_id == user_id)
                              .execution_options(populate_existing=True)).scalar_one()


def _lock(user_id: str) -> Subscription:
    """The user's subscription, read after taking its row's write lock for this transaction (a no-op update):
    racing requests for it queue here, and each reads what the one before committed."""
    db.session.execute(update(Subscription).where(Subscription.user_id == user_id).values(updated_at=utcnow()),
                       execution_options={"synchronize_session": False})
    return _subscription(user_id)


def _plan(plan_id: str) -> Plan:
    plan = PLANS_BY_ID.get(plan_id)
    if plan is None:
        raise ApiError("PLAN_NOT_FOUND", "There is no such plan: the plans are free, premium and enterprise.")
    return plan


def _enterprise_is_not_self_serve() -> InvalidField:
    return InvalidField("planId", "Enterprise is not self-serve: contact sales, and an operator will grant it.")


def _price(plan: Plan, coupon: Coupon | None) -> Decimal:
    """The plan's monthly price less the coupon's percent, to the cent (half up)."""
    price = Decimal(str(plan.price or 0))
    if coupon is not None:
        price = price * (100 - coupon.percent_off) / 100
    return price.quantize(CENT, ROUND_HALF_UP)


def _coupon(coupon_id: str | None) -> Coupon | None:
    return db.session.get(Coupon, coupon_id) if coupon_id else None


def _usable_coupon(code: str) -> Coupon:
    coupon = db.session.scalar(select(Coupon).where(Coupon.code == code.strip().upper()))
    if coupon is None:
        raise InvalidField("couponCode", "There is no such coupon.")
    if coupon.expires_at is not None and coupon.expires_at <= utcnow():
        raise InvalidField("couponCode", "This coupon has expired.")
    if coupon.max_redemptions is not None and coupon.times_redeemed >= coupon.max_redemptions:
        raise InvalidField("couponCode", "This coupon has been used up.")
    return coupon


def _redeem(coupon: Coupon) -> bool:
    """Count a redemption unless that passes the coupon's limit (racing subscribes cannot both take the last)."""
    counting = update(Coupon).where(Coupon.id == coupon.id).values(times_redeemed=Coupon.times_redeemed + 1)
    if coupon.max_redemptions is not None:
        counting = counting.where(Coupon.times_redeemed < coupon.max_redemptions)
    return db.session.execute(counting, execution_options={"synchronize_session": False}).rowcount == 1


def _payments(user_id: str, *statuses: str) -> list[PaymentIntent]:
    return list(db.session.scalars(select(PaymentIntent).where(PaymentIntent.user_id == user_id,
                                                               PaymentIntent.status.in_(statuses))))


def _cancel_waiting_payments(user_id: str) -> None:
    """Payments waiting for authentication are superseded (their addresses stop working)."""
    provider = payments.provider()
    for row in _payments(user_id, REQUIRES_ACTION):
        provider.cancel_intent(row.provider_id)
        row.status, row.completed_at = CANCELED, utcnow()


def _keep_card(sub: Subscription, card: Card) -> None:
    sub.payment_method_id, sub.payment_method_type = card.id, card.type
    sub.payment_method_brand, sub.payment_method_last4 = card.brand, card.last4
    sub.payment_method_exp_month, sub.payment_method_exp_year = card.exp_month, card.exp_year


@contextmanager
def _paying():
    """The provider's refusals as API errors."""
    try:
        yield
    except UnknownPaymentMethod:
        raise InvalidField("paymentMethodId", "There is no such payment method.") from None
    except PaymentDeclined as exc:
        raise _payment_failed(exc) from None


def _payment_failed(exc: PaymentDeclined) -> ApiError:
    return ApiError("PAYMENT_FAILED", exc.message, {"declineCode": exc.decline_code})


def _record_change(sub: Subscription, email: str, previous_type: str, reason: str) -> None:
    _record(sub.user_id, email, sub.id, previous_type, sub.type, sub.current_period_end, reason)


def _record(user_id: str, email: str, sub_id: str, previous_type: str, current_type: str, period_end: datetime,
            reason: str) -> None:
    """``user.subscription_changed`` in the caller's transaction (docs/api-decisions.md, Subscriptions)."""
    record_event("user.subscription_changed", user_id, {
        "user": {"id": user_id, "email": email},
        "subscription": {"id": sub_id, "previous_type": previous_type, "current_type": current_type,
                         "current_period_end": format_timestamp(period_end),
                         "changed_at": format_timestamp(utcnow()), "reason": reason},
    })
