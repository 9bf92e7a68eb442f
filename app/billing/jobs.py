"""Billing jobs: plain entry points for RQ that call the services."""
from __future__ import annotations

from app.billing import service


def apply_subscription_period_ends() -> int:
    """Periodic: renew, downgrade or end the subscriptions whose period has ended, reset their API usage,
    and end PAST_DUE subscriptions whose grace has run out. Returns how many changed."""
    return service.apply_period_ends()
