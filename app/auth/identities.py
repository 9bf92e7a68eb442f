"""Linked sign-in identities (OAuth): the provider accounts that sign a user in, and unlinking one.

A user's ways in are its password, its linked identities and its passkeys (``app.auth.passkeys``):
taking away the last one (unlinking an identity, removing a passkey) is refused with
LAST_SIGN_IN_METHOD (409: the request is fine, the account's state forbids it).
"""
from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import func

from app.auth import oauth
from app.auth.models import OAuthIdentity, Passkey
from app.common.database import lock_row
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
    (no password, no other identity, no passkey): a forgot-password mail sets a password first.
    """
    lock_user(user)
    identity = db.session.scalar(db.select(OAuthIdentity).where(OAuthIdentity.user_id == user.id,
                                                                OAuthIdentity.provider == provider))
    if identity is None:
        raise ApiError("NOT_FOUND", "No account of this provider is linked.", {"field": "provider"})
    if not has_another_way_in(user, identity_id=identity.id):
        raise ApiError("LAST_SIGN_IN_METHOD",
                       "This is the only way to sign in to your account: set a password (forgot password) "
                       "or link another account before unlinking it.", {"field": "provider", "provider": provider})
    db.session.execute(db.delete(OAuthIdentity).where(OAuthIdentity.id == identity.id))
    db.session.commit()
    return identities_of(user)


def lock_user(user: User) -> None:
    """Lock the user's row for the rest of the transaction: two requests racing to take away a
    password-less account's last two ways in must not both pass (a row lock on PostgreSQL, the write
    lock on SQLite)."""
    lock_row(User.id, user.id)


def has_another_way_in(user: User, *, identity_id: str | None = None, passkey_id: str | None = None) -> bool:
    """Whether ``user`` can still sign in without the identity ``identity_id`` or the passkey ``passkey_id``:
    a password, another linked identity, or another passkey not removed."""
    if user.password_hash is not None:
        return True
    identities = db.session.scalar(db.select(func.count()).select_from(OAuthIdentity).where(
        OAuthIdentity.user_id == user.id, OAuthIdentity.id != (identity_id or "")))
    passkeys = db.session.scalar(db.select(func.count()).select_from(Passkey).where(
        Passkey.user_id == user.id, Passkey.removed_at.is_(None), Passkey.id != (passkey_id or "")))
    return bool(identities or passkeys)
