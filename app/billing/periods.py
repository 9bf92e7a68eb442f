"""Period ends (a periodic job): renewals, scheduled downgrades and cancellations, and the end of the
grace of a PAST_DUE subscription."""
from __future__ import annotations

import logging
from datetime import datetime, timedelta
from decimal import Decimal

from sqlalchemy import select, update

from app.billing.models import PaymentIntent, Subscription
from app.billing.plans import PLANS, add_months
from app.billing.shared import (OWED, REQUIRES_PAYMENT_METHOD, coupon_by_id, payments_of, price_of,
                                record_subscription_changed, settle, write_off)
from app.common.models import utcnow
from app.extensions import db
from app.integrations import payments
from app.integrations.payments import REQUIRES_CONFIRMATION
from app.users.models import User

log = logging.getLogger(__name__)

PAST_DUE_GRACE = timedelta(days=7)  # a PAST_DUE subscription falls back to FREE this long into its period


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
        coupon = coupon_by_id(sub.coupon_id) if new_type == "PREMIUM" else None
        renewal = price_of(PLANS["PREMIUM"], coupon) if new_type == "PREMIUM" else Decimal(0)
        intent = None
        if renewal > 0:
            try:  # created before the claim (nothing is charged yet), so that the claim can record it
                intent = provider.create_intent(amount=renewal, currency=PLANS["PREMIUM"].currency,
                                                payment_method_id=sub.payment_method_id or "",
                                                description="Premium subscription, renewal")
            except payments.PaymentError as exc:  # no usable card to renew with
                log.warning("subscription %s cannot renew: %r", sub_id, exc)
                new_type, reason, coupon, renewal = "FREE", "payment_failed", None, Decimal(0)
        owed = bool(payments_of(sub.user_id, REQUIRES_CONFIRMATION))
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
            write_off(sub.user_id, REQUIRES_PAYMENT_METHOD)
        if new_type != previous:
            email = db.session.scalar(select(User.email).where(User.id == sub.user_id))
            record_subscription_changed(sub.user_id, email, sub.id, previous, new_type, end, reason)
        user_id, card_id = sub.user_id, sub.payment_method_id
        db.session.commit()
        if charging or (new_type == "FREE" and owed):
            # A renewal that is declined stays owed (PAST_DUE); the last bill of a plan that ends (prorations
            # it still owes) is tried once and written off when declined.
            declined = settle(user_id, card_id, write_off=new_type == "FREE")
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
        write_off(sub.user_id, *OWED)
        if sub.type != "FREE":
            email = db.session.scalar(select(User.email).where(User.id == sub.user_id))
            record_subscription_changed(sub.user_id, email, sub.id, sub.type, "FREE", sub.current_period_end,
                                        "payment_failed")
        db.session.commit()
        ended += 1
    return ended


def _next_period(end: datetime, now: datetime) -> tuple[datetime, datetime]:
    """The monthly period after the one ending at ``end`` that contains ``now``."""
    start, next_end = end, add_months(end, 1)
    while next_end <= now:
        start, next_end = next_end, add_months(next_end, 1)
    return start, next_end
