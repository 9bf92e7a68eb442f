"""Account use cases used by other packages (the account API lands with its issue)."""
from __future__ import annotations

import calendar
from datetime import datetime

from app.account.models import Subscription, User
from app.common.models import utcnow
from app.extensions import db


def add_months(moment: datetime, months: int) -> datetime:
    """Same day of month ``months`` later, clamped to the month's last day."""
    month_index = moment.month - 1 + months
    year, month = moment.year + month_index // 12, month_index % 12 + 1
    day = min(moment.day, calendar.monthrange(year, month)[1])
    return moment.replace(year=year, month=month, day=day)


def new_user(*, email: str, name: str, password_hash: str | None, verified: bool = False) -> User:
    """A user with its FREE subscription, added to the session (the caller commits)."""
    now = utcnow()
    user = User(email=email, name=name, password_hash=password_hash,
                email_verified_at=now if verified else None)
    user.subscription = Subscription(type="FREE", status="ACTIVE", current_period_start=now,
                                     current_period_end=add_months(now, 1))
    db.session.add(user)
    return user


def find_by_email(email: str) -> User | None:
    return db.session.scalar(db.select(User).where(User.email == email.strip().lower()))
