"""Plans and their limits: the one place every limit is read from (-1 = unlimited); periods are monthly."""
from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import datetime

from flask_babel import lazy_pgettext

from app.messages import N_

UNLIMITED = -1


@dataclass(frozen=True)
class Plan:
    id: str
    type: str
    name: str
    price: float | None
    currency: str
    interval: str
    resumes_limit: int
    shares_limit: int
    templates_access: str  # "basic" or "all"
    ai_features: bool
    api_requests_limit: int
    storage_limit: int
    features: tuple[str, ...]


PLANS = {
    "FREE": Plan("free", "FREE", "Free", 0.0, "USD", "month", resumes_limit=5, shares_limit=3,
                 templates_access="basic", ai_features=False, api_requests_limit=100, storage_limit=10 * 1024 * 1024,
                 features=(N_("Basic templates"),)),
    "PREMIUM": Plan("premium", "PREMIUM", "Premium", 29.99, "USD", "month", resumes_limit=UNLIMITED,
                    shares_limit=UNLIMITED, templates_access="all", ai_features=True, api_requests_limit=1000,
                    storage_limit=100 * 1024 * 1024, features=(N_("All templates"), N_("AI features"))),
    "ENTERPRISE": Plan("enterprise", "ENTERPRISE", "Enterprise", None, "USD", "month", resumes_limit=UNLIMITED,
                       shares_limit=UNLIMITED, templates_access="all", ai_features=True,
                       api_requests_limit=UNLIMITED, storage_limit=UNLIMITED,
                       features=(N_("All templates"), N_("AI features"), N_("Team collaboration"), N_("API access"),
                                 N_("Custom branding"))),
}


def plan_for(subscription_type: str) -> Plan:
    return PLANS[subscription_type]


def within(limit: int, used: int) -> bool:
    """Whether one more is allowed when ``used`` are taken."""
    return limit == UNLIMITED or used < limit


def add_months(moment: datetime, months: int) -> datetime:
    """Same day of month ``months`` later, clamped to the month's last day."""
    month_index = moment.month - 1 + months
    year, month = moment.year + month_index // 12, month_index % 12 + 1
    day = min(moment.day, calendar.monthrange(year, month)[1])
    return moment.replace(year=year, month=month, day=day)


def display_name(plan: Plan):
    """The plan's name in the reader's language, when a message is made (lazy: a service raises it, the
    response translates it). The names are msgids with the context "plan" (``pages/billing_pages.py``)."""
    return lazy_pgettext("plan", plan.name)
