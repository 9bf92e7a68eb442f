"""Previewing a plan change before it is made (``POST /api/account/subscription/preview``).

A person confirms an upgrade, downgrade, cancellation or reactivation after seeing what it costs and when
it takes effect. The preview reads the subscription and works the change out with the very ``quote`` the
change applies (``app.billing.changes``), so what is shown is what is charged; it takes no lock, writes
nothing and does not ask the payment provider (a declined card is only known when the change is made).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal

from app.billing.changes import quote
from app.billing.overview import NextBilling, next_billing
from app.billing.plans import Plan, plan_for
from app.billing.shared import coupon_by_id, subscription_of
from app.common.models import utcnow
from app.users.models import User


@dataclass(frozen=True)
class ChangePreview:
    action: str
    plan: Plan  # the plan once the change has taken effect
    proration_amount: Decimal
    amount_due_now: Decimal
    currency: str
    effective_date: datetime
    next_billing: NextBilling | None  # the charge at the end of the period after the change


def preview_change(user: User, data: dict) -> ChangePreview:
    """What ``change(user, data)`` would do now; raises what it raises before asking the provider."""
    sub = subscription_of(user.id)
    changed = quote(sub, data, utcnow())
    action = data["action"]
    if action == "upgrade":  # the coupon goes; a create_prorations proration joins the renewal
        later = changed.proration_amount if data["prorationBehavior"] == "create_prorations" else Decimal(0)
        billing = next_billing(user.id, changed.plan_type, None, changed.period_end, later)
    elif action in ("downgrade", "cancel"):
        renews_as = changed.plan_type if action == "downgrade" else None  # a lower plan: no coupon kept
        billing = next_billing(user.id, renews_as, None, changed.period_end)
    else:  # reactivate (nothing scheduled any more), update_payment_method (the plan renews as before)
        renews_as = sub.type if action == "reactivate" else (
            None if sub.cancel_at_period_end else (sub.pending_type or sub.type))
        billing = next_billing(user.id, renews_as, coupon_by_id(sub.coupon_id), changed.period_end)
    plan = plan_for(changed.plan_type)
    return ChangePreview(action=action, plan=plan, proration_amount=changed.proration_amount,
                         amount_due_now=changed.amount_due_now, currency=plan.currency,
                         effective_date=changed.effective_date, next_billing=billing)
