"""Plans and their limits: the one place every limit is read from (-1 = unlimited); periods are monthly."""
from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import datetime

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
                 features=("Basic templates",)),
    "PREMIUM": Plan("premium", "PREMIUM", "Premium", 29.99, "USD", "month", resumes_limit=UNLIMITED,
                    shares_limit=UNLIMITED, templates_access="all", ai_features=True, api_requests_limit=1000,
                    storage_limit=100 * 1024 * 1024, features=("All templates", "AI features")),
    "ENTERPRISE": Plan("enterprise", "ENTERPRISE", "Enterprise", None, "USD", "month", resumes_limit=UNLIMITED,
                       shares_limit=UNLIMITED, templates_access="all", ai_features=True,
                       api_requests_limit=UNLIMITED, storage_limit=UNLIMITED,
                       features=("All templates", "AI features", "Team collaboration", "API access",
                                 "Custom branding")),
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
