"""Account use cases: users and their profile."""
from __future__ import annotations

import calendar
from dataclasses import dataclass
from datetime import datetime

from app.account.models import DEFAULT_PREFERENCES, Subscription, User
from app.account.plans import plan_for
from app.common.models import new_id, utcnow
from app.common.schemas import format_timestamp
from app.extensions import db
from app.webhooks.service import record_event


def add_months(moment: datetime, months: int) -> datetime:
    """Same day of month ``months`` later, clamped to the month's last day."""
    month_index = moment.month - 1 + months
    year, month = moment.year + month_index // 12, month_index % 12 + 1
    day = min(moment.day, calendar.monthrange(year, month)[1])
    return moment.replace(year=year, month=month, day=day)


def new_user(*, email: str, name: str, password_hash: str | None, verified: bool = False) -> User:
    """A user with its FREE subscription, added to the session (the caller commits)."""
    now = utcnow()
    user = User(id=new_id(), email=email, name=name, password_hash=password_hash, created_at=now, updated_at=now,
                email_verified_at=now if verified else None)
    user.subscription = Subscription(type="FREE", status="ACTIVE", current_period_start=now,
                                     current_period_end=add_months(now, 1))
    db.session.add(user)
    record_event("user.registered", user.id, {"user": {"id": user.id, "email": email, "name": name,
                                                       "created_at": format_timestamp(now)}})
    return user


def find_by_email(email: str) -> User | None:
    return db.session.scalar(db.select(User).where(User.email == email.strip().lower()))


@dataclass(frozen=True)
class Usage:
    """This period's usage against the plan's limits (-1 = unlimited); it resets on ``reset_date``."""

    resumes_created: int
    resumes_limit: int
    api_requests_used: int
    api_requests_limit: int
    storage_used: int
    storage_limit: int
    reset_date: datetime


def usage_of(user: User) -> Usage:
    """Live counts: live resumes, Bearer requests this period, bytes of stored exports."""
    plan, subscription = plan_for(user.subscription_type), user.subscription
    return Usage(resumes_created=user.live_resumes, resumes_limit=plan.resumes_limit,
                 api_requests_used=subscription.api_requests_used, api_requests_limit=plan.api_requests_limit,
                 storage_used=user.storage_used, storage_limit=plan.storage_limit,
                 reset_date=subscription.current_period_end)


@dataclass(frozen=True)
class Account:
    """A user's account as the API shows it, with live counts and limits from the plan."""

    id: str
    email: str
    name: str
    avatar: str | None
    email_verified: bool
    email_verified_at: datetime | None
    subscription_type: str
    subscription_status: str
    subscription_expires_at: datetime | None
    usage: Usage
    preferences: dict
    created_at: datetime
    updated_at: datetime
    last_login_at: datetime | None


def account_of(user: User) -> Account:
    subscription = user.subscription
    return Account(
        id=user.id, email=user.email, name=user.name, avatar=user.avatar, email_verified=user.email_verified,
        email_verified_at=user.email_verified_at, subscription_type=user.subscription_type,
        subscription_status=subscription.status, subscription_expires_at=subscription.current_period_end,
        usage=usage_of(user), preferences=DEFAULT_PREFERENCES | (user.preferences or {}),
        created_at=user.created_at, updated_at=user.updated_at, last_login_at=user.last_login_at)


def update_profile(user: User, data: dict) -> Account:
    """Apply ``name``, ``avatar`` and ``preferences`` (merged key by key). Commits once, with a
    ``user.profile_updated`` event naming the changed fields when anything changed."""
    changed = [field for field in ("name", "avatar") if field in data and data[field] != getattr(user, field)]
    for field in changed:
        setattr(user, field, data[field])
    stored = user.preferences or {}
    new_preferences = {key: value for key, value in data.get("preferences", {}).items()
                       if (DEFAULT_PREFERENCES | stored).get(key) != value}
    if new_preferences:
        user.preferences = stored | new_preferences  # a new dict: the JSON column sees the change
        changed += [f"preferences.{key}" for key in sorted(new_preferences)]
    if changed:
        record_event("user.profile_updated", user.id,
                     {"user": {"id": user.id, "email": user.email, "name": user.name, "changed_fields": changed}})
    db.session.commit()
    return account_of(user)
