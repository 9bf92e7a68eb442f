"""Linked sign-in identities (OAuth): the provider accounts that sign a user in, and unlinking one.

A user with no password and one identity would be locked out by unlinking it: refused with
LAST_SIGN_IN_METHOD (409: the request is fine, the account's state forbids it).
"""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func

from app.auth import oauth
from app.auth.models import OAuthIdentity
from app.errors import ApiError
from app.extensions import db
from app.users.models import User


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
