"""Account use cases: users, their profile and the provider accounts linked to sign them in."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import func

from app.account.models import DEFAULT_PREFERENCES, User
from app.auth import oauth
from app.auth.models import OAuthIdentity
from app.billing import service as billing
from app.billing.service import Usage
from app.common.models import new_id, utcnow
from app.common.schemas import format_timestamp
from app.errors import ApiError
from app.extensions import db
from app.webhooks.service import record_event


def new_user(*, email: str, name: str, password_hash: str | None, verified: bool = False) -> User:
    """A user with its FREE subscription, added to the session (the caller commits)."""
    now = utcnow()
    user = User(id=new_id(), email=email, name=name, password_hash=password_hash, created_at=now, updated_at=now,
                email_verified_at=now if verified else None)
    user.subscription = billing.free_subscription(now)
    db.session.add(user)
    record_event("user.registered", user.id, {"user": {"id": user.id, "email": email, "name": name,
                                                       "created_at": format_timestamp(now)}})
    return user


def find_by_email(email: str) -> User | None:
    return db.session.scalar(db.select(User).where(User.email == email.strip().lower()))


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
        usage=billing.usage_of(user), preferences=DEFAULT_PREFERENCES | (user.preferences or {}),
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


# Linked sign-in identities (OAuth) ------------------------------------------------------------
# A user with no password and one identity would be locked out by unlinking it: refused with
# LAST_SIGN_IN_METHOD (409: the request is fine, the account's state forbids it).


@dataclass(frozen=True)
class Identities:
    """The provider accounts that sign a user in, whether a password does too, and the providers
    this app offers for linking (``oauth.configured_providers``)."""

    identities: list[OAuthIdentity]
    has_password: bool
    providers: list[str]


def identities_of(user: User) -> Identities:
    linked = db.session.scalars(db.select(OAuthIdentity).where(OAuthIdentity.user_id == user.id)
                                .order_by(OAuthIdentity.created_at, OAuthIdentity.id)).all()
    return Identities(list(linked), user.password_hash is not None, oauth.configured_providers())


def unlink_identity(user: User, provider: str) -> Identities:
    """Unlink the user's ``provider`` account (it no longer signs the user in). Commits.

    Raises NOT_FOUND when none is linked, LAST_SIGN_IN_METHOD when it is the account's only way in
    (no password, no other identity): a forgot-password mail sets a password first.
    """
    # The user's row is the lock: two unlinks racing for a password-less account's two identities
    # must not both pass (PostgreSQL; SQLite has one writer and the delete below is one statement).
    db.session.execute(db.select(User.id).where(User.id == user.id).with_for_update())
    identity = db.session.scalar(db.select(OAuthIdentity).where(OAuthIdentity.user_id == user.id,
                                                                OAuthIdentity.provider == provider))
    if identity is None:
        raise ApiError("NOT_FOUND", "No account of this provider is linked.", {"field": "provider"})
    others = db.session.scalar(db.select(func.count()).select_from(OAuthIdentity).where(
        OAuthIdentity.user_id == user.id, OAuthIdentity.id != identity.id))
    if user.password_hash is None and not others:
        raise ApiError("LAST_SIGN_IN_METHOD",
                       "This is the only way to sign in to your account: set a password (forgot password) "
                       "or link another account before unlinking it.", {"field": "provider", "provider": provider})
    db.session.execute(db.delete(OAuthIdentity).where(OAuthIdentity.id == identity.id))
    db.session.commit()
    return identities_of(user)
