"""The person's own data: adding a user, finding one by email, the profile (name, avatar, preferences).

Credentials are auth's (``app.auth``), the subscription and the usage counters billing's
(``app.billing``); a new account with all of them is ``app.auth.registration.new_user``.
"""
from __future__ import annotations

from datetime import datetime

from app.common.models import new_id, utcnow
from app.common.schemas import format_timestamp
from app.events.outbox import record_event
from app.extensions import db
from app.users.models import DEFAULT_PREFERENCES, User


def add_user(*, email: str, name: str, password_hash: str | None, verified: bool = False,
             now: datetime | None = None, preferences: dict | None = None) -> User:
    """A user added to the session with a ``user.registered`` event (the caller attaches the
    subscription and commits)."""
    now = now or utcnow()
    user = User(id=new_id(), email=email, name=name, password_hash=password_hash, created_at=now, updated_at=now,
                email_verified_at=now if verified else None, preferences=preferences or {})
    db.session.add(user)
    record_event("user.registered", user.id, {"user": {"id": user.id, "email": email, "name": name,
                                                       "created_at": format_timestamp(now)}})
    return user


def find_by_email(email: str) -> User | None:
    return db.session.scalar(db.select(User).where(User.email == email.strip().lower()))


def default_avatar(user: User, url: str) -> None:
    """``url`` (a sign-in provider's picture) becomes the avatar of a user who has none (no commit, no
    event: the sign-in that brings it is not a profile change)."""
    if not user.avatar:
        user.avatar = url


def preferences_of(user: User) -> dict:
    """The stored preferences over the defaults."""
    return DEFAULT_PREFERENCES | (user.preferences or {})


def update_profile(user: User, data: dict) -> list[str]:
    """Apply ``name``, ``avatar`` and ``preferences`` (merged key by key); returns the changed fields
    (``preferences.<key>`` for a preference). Commits once, with a ``user.profile_updated`` event
    naming them when anything changed."""
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
    return changed
