"""Reading a subscription: its plan, this period's usage, the card on file and the next charge."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from app.billing.models import Coupon, Subscription
from app.billing.plans import PLANS, Plan, plan_for
from app.billing.shared import coupon_by_id, payments_of, price_of, subscription_of
from app.billing.usage import Usage, usage_of
from app.integrations.payments import REQUIRES_CONFIRMATION, Card
from app.users.models import User


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
    pending_type: str | None  # what a scheduled downgrade makes it at current_period_end


def overview(user: User) -> Overview:
    """The user's subscription with its plan, this period's usage against the plan's limits, the card on
    file and the next charge (null when nothing will be charged at the period end)."""
    sub = subscription_of(user.id)
    plan = plan_for(sub.type)
    usage = usage_of(user)
    return Overview(id=sub.id, type=sub.type, status=sub.status, current_period_start=sub.current_period_start,
                    current_period_end=sub.current_period_end, cancel_at_period_end=sub.cancel_at_period_end,
                    trial_end=sub.trial_end, plan=plan, usage=usage, payment_method=_card_on_file(sub),
                    next_billing=_next_billing(sub), pending_type=sub.pending_type)


def _card_on_file(sub: Subscription) -> Card | None:
    if not sub.payment_method_id:
        return None
    return Card(id=sub.payment_method_id, brand=sub.payment_method_brand, last4=sub.payment_method_last4,
                exp_month=sub.payment_method_exp_month, exp_year=sub.payment_method_exp_year,
                type=sub.payment_method_type or "card")


def _next_billing(sub: Subscription) -> NextBilling | None:
    """The charge at the period end: the renewal of a plan that stays paid, plus prorations waiting for it."""
    renews_as = None if sub.cancel_at_period_end else (sub.pending_type or sub.type)
    return next_billing(sub.user_id, renews_as, coupon_by_id(sub.coupon_id), sub.current_period_end)


def next_billing(user_id: str, renews_as: str | None, coupon: Coupon | None, date: datetime,
                 extra: Decimal = Decimal(0)) -> NextBilling | None:
    """What is charged at ``date`` when the plan renews as ``renews_as`` (None: it ends): a Premium month less
    the coupon, the prorations already owed and ``extra``; None when that is nothing."""
    amount = price_of(PLANS["PREMIUM"], coupon) if renews_as == "PREMIUM" else Decimal(0)
    amount += extra + sum((row.amount for row in payments_of(user_id, REQUIRES_CONFIRMATION)), Decimal(0))
    if amount <= 0:
        return None
    return NextBilling(date=date, amount=amount, currency=PLANS["PREMIUM"].currency)
