"""The account as its owner sees it (``GET``/``PUT /api/account``): the person's profile from
``app.users``, the plan and live usage from ``app.billing``. Owns no table: its security and linked
identities are auth's (``app.auth.credentials``, ``app.auth.identities``)."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from app.billing import service as billing
from app.billing.service import Usage
from app.users import service as users
from app.users.models import User


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
        usage=billing.usage_of(user), preferences=users.preferences_of(user),
        created_at=user.created_at, updated_at=user.updated_at, last_login_at=user.last_login_at)


def update_profile(user: User, data: dict) -> Account:
    """Apply ``name``, ``avatar`` and ``preferences`` (merged key by key) through ``app.users``: one
    commit, with a ``user.profile_updated`` event naming the changed fields when anything changed."""
    users.update_profile(user, data)
    return account_of(user)
