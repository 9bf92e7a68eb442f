"""Account lifecycle: verification, password reset, sign-in, sessions, API tokens (registration is
``registration.py``, imported here so that views and the CLI have one door).

Each public function is one use case and commits at most once. Mails leave
from jobs enqueued after the commit.
"""
from __future__ import annotations

import hmac
from datetime import datetime

from flask import current_app
from sqlalchemy import bindparam, delete, update
from sqlalchemy.exc import IntegrityError

from app.auth import passkeys, tokens, two_factor
from app.auth.models import AuthSession, OAuthIdentity, OneTimeToken, RefreshToken
from app.auth.oauth import Profile
from app.auth.passwords import check_password, hash_password
from app.auth.registration import (  # noqa: F401  (the room's one door)
    check_password_rule, create_verified_user, new_user, register,
)
from app.common.models import utcnow
from app.common.security import hash_token, new_token
from app.errors import ApiError
from app.events.mail import queue_mail
from app.extensions import db
from app.users import service as users
from app.users.models import User


def issue_token(user: User, purpose: str) -> str:
    """A new single-use token for ``user``; returns the raw value (only its hash is stored). Commits."""
    lifetime = current_app.config["VERIFY_TOKEN_LIFETIME" if purpose == OneTimeToken.VERIFY_EMAIL
                                  else "RESET_TOKEN_LIFETIME"]
    raw = new_token()
    db.session.add(OneTimeToken(user_id=user.id, purpose=purpose, token_hash=hash_token(raw),
                                expires_at=utcnow() + lifetime))
    db.session.commit()
    return raw


def _usable_token(raw: str, purpose: str) -> OneTimeToken:
    """The live token with this value. Raises TOKEN_INVALID (unknown, used, other purpose) or TOKEN_EXPIRED."""
    token = db.session.scalar(db.select(OneTimeToken).where(OneTimeToken.token_hash == hash_token(raw)))
    if token is None or token.purpose != purpose or token.used_at is not None:
        raise ApiError("TOKEN_INVALID", "This link is invalid or has already been used.", {"field": "token"})
    if token.expires_at <= utcnow():
        raise ApiError("TOKEN_EXPIRED", "This link has expired. Ask for a new one.", {"field": "token"})
    return token


def verify_email(raw_token: str) -> User:
    """Mark the token's user verified and spend the token. Commits. Raises TOKEN_INVALID, TOKEN_EXPIRED."""
    token = _usable_token(raw_token, OneTimeToken.VERIFY_EMAIL)
    now = utcnow()
    token.used_at = now
    if token.user.email_verified_at is None:
        token.user.email_verified_at = now
    db.session.commit()
    return token.user


def resend_verification(email: str) -> None:
    """Mail a new verification link if an unverified account has this email; silent otherwise."""
    user = users.find_by_email(email)
    if user is not None and not user.email_verified:
        queue_mail("app.auth.jobs.send_verification_email", user.id)
    db.session.commit()


def forgot_password(email: str) -> None:
    """Mail a reset link if an account has this email; silent otherwise."""
    user = users.find_by_email(email)
    if user is not None:
        queue_mail("app.auth.jobs.send_password_reset_email", user.id)
    db.session.commit()


def reset_password(raw_token: str, password: str) -> User:
    """Set a new password through a reset token.

    A weak password leaves the token usable. On success: the token and every
    other reset token of the user are spent, the email counts as verified, and
    every session of the user ends (rows deleted, auth id rotated: access
    tokens die with it) and every refresh token is revoked. Commits.
    Raises TOKEN_INVALID, TOKEN_EXPIRED, WEAK_PASSWORD.
    """
    token = _usable_token(raw_token, OneTimeToken.RESET_PASSWORD)
    check_password_rule(password)
    user, now = token.user, utcnow()
    user.password_hash = hash_password(password)
    user.email_verified_at = user.email_verified_at or now
    db.session.execute(update(OneTimeToken)
                       .where(OneTimeToken.user_id == user.id, OneTimeToken.purpose == OneTimeToken.RESET_PASSWORD,
                              OneTimeToken.used_at.is_(None))
                       .values(used_at=now))
    end_all_sessions(user)
    tokens.revoke_user_tokens(user)
    db.session.commit()
    return user


def end_all_sessions(user: User) -> None:
    """Delete the user's sessions and rotate its auth id, and take back the passkeys those sessions added
    lately (``passkeys.take_back_recent``). No commit: part of a caller's use case."""
    user.rotate_auth_id()
    passkeys.take_back_recent(user, keep_session_id=None)
    db.session.execute(delete(AuthSession).where(AuthSession.user_id == user.id))


def end_other_sessions(user: User, keep: str | None) -> None:
    """End every session of ``user`` but the one of cookie value ``keep`` (None: all of them).

    Rotates the auth id (every other session and every access token dies with it)
    and stamps the kept session with the new id; deletes the other rows, takes back
    the passkeys other sessions added lately (``passkeys.take_back_recent``) and
    revokes every refresh token. No commit: part of a caller's use case.
    """
    user.rotate_auth_id()
    others = delete(AuthSession).where(AuthSession.user_id == user.id)
    kept_id = db.session.scalar(db.select(AuthSession.id).where(
        AuthSession.user_id == user.id, AuthSession.token_hash == hash_token(keep))) if keep else None
    passkeys.take_back_recent(user, keep_session_id=kept_id)
    if keep:
        kept = hash_token(keep)
        db.session.execute(update(AuthSession).where(AuthSession.user_id == user.id, AuthSession.token_hash == kept)
                           .values(auth_id=user.auth_id).execution_options(synchronize_session=False))
        others = others.where(AuthSession.token_hash != kept)
    db.session.execute(others.execution_options(synchronize_session=False))
    tokens.revoke_user_tokens(user)


def authenticate(email: str, password: str, code: str | None = None) -> User:
    """The user with these credentials, in about the same time whether or not the email exists.

    With two-factor on, ``code`` (TOTP or backup code) must be valid too, and is
    spent (no commit: the caller's sign-in or token use case commits it).
    Raises INVALID_CREDENTIALS, then (only after a correct password)
    EMAIL_NOT_VERIFIED, TWO_FACTOR_REQUIRED, INVALID_TWO_FACTOR_CODE.
    """
    user = users.find_by_email(email)
    if not check_password(password, user.password_hash if user else None) or user is None:
        raise ApiError("INVALID_CREDENTIALS", "The email or password is incorrect.")
    if not user.email_verified:
        raise ApiError("EMAIL_NOT_VERIFIED", "Verify your email address first: we sent you a link.",
                       {"field": "email"})
    if user.two_factor_enabled:
        two_factor.check(user, code)
    return user


def start_session(user: User, *, replaces: str | None, ip_address: str | None,
                  user_agent: str | None) -> tuple[AuthSession, str]:
    """A new server-side session for ``user`` (the old one of this browser, if any, is deleted).

    Returns the row and the raw cookie value. Commits.
    """
    auth_session, raw = _add_session(user, replaces=replaces, ip_address=ip_address, user_agent=user_agent)
    db.session.commit()
    return auth_session, raw


def _add_session(user: User, *, replaces: str | None, ip_address: str | None,
                 user_agent: str | None) -> tuple[AuthSession, str]:
    if replaces:
        db.session.execute(delete(AuthSession).where(AuthSession.token_hash == hash_token(replaces)))
    raw = new_token()
    now = utcnow()
    # Signing in is proving who one is: the new session may make security changes for a while (app.auth.sudo).
    auth_session = AuthSession(user_id=user.id, auth_id=user.auth_id, token_hash=hash_token(raw), authenticated_at=now,
                               expires_at=now + current_app.config["SESSION_LIFETIME"],
                               ip_address=(ip_address or "")[:45] or None,
                               user_agent=(user_agent or "")[:255] or None)
    user.last_login_at = now
    db.session.add(auth_session)
    return auth_session, raw


def sign_in_with_provider(profile: Profile, *, replaces: str | None, ip_address: str | None,
                          user_agent: str | None) -> tuple[User, AuthSession, str]:
    """Sign in through an OAuth provider's account, and start a session as ``start_session`` does.

    The user is the one linked to (provider, account id); else the user whose email is the provider's
    verified email, who gets the identity linked; else a new verified user without a password (with a
    FREE subscription and a ``user.registered`` event) linked to it. Linking to a user whose email was
    never verified marks it verified and, since whoever registered it never proved they own the address,
    drops its password and ends its sessions and tokens. The provider's image becomes the avatar of a
    user who has none. Commits once (a race with another callback for the same account or email is
    retried once). Raises EMAIL_NOT_VERIFIED when there is no linked user and the provider does not vouch
    for the email, and TWO_FACTOR_REQUIRED for a user with two-factor on (the provider would skip the code).
    """
    def attempt() -> tuple[User, AuthSession, str]:
        user = _provider_user(profile)
        if profile.image:
            users.default_avatar(user, profile.image)
        auth_session, raw = _add_session(user, replaces=replaces, ip_address=ip_address, user_agent=user_agent)
        db.session.commit()
        return user, auth_session, raw

    try:
        return attempt()
    except IntegrityError:  # another callback linked this account or created this email meanwhile
        db.session.rollback()
        return attempt()  # finds what the other one committed


def _provider_user(profile: Profile) -> User:
    """The user ``profile`` signs in: found by its identity, linked by email, or created (not committed)."""
    identity = db.session.scalar(db.select(OAuthIdentity).where(
        OAuthIdentity.provider == profile.provider, OAuthIdentity.provider_account_id == profile.account_id))
    if identity is not None:
        _refuse_two_factor(identity.user)
        if profile.email and profile.email_verified:
            identity.email = profile.email
        return identity.user
    email = profile.email if profile.email_verified else None
    if not email or len(email) > 254:
        raise ApiError("EMAIL_NOT_VERIFIED", "%(provider)s did not confirm a verified email address.",
                       values={"provider": profile.provider})
    user = users.find_by_email(email)
    if user is None:
        user = new_user(email=email, name=_name_for(profile, email), password_hash=None, verified=True)
    else:
        _refuse_two_factor(user)
        if not user.email_verified:
            # Someone registered this address without proving they own it: the password they chose must
            # not open the account of the person who just did (account pre-hijacking).
            user.email_verified_at = utcnow()
            user.password_hash = None
            end_all_sessions(user)
            tokens.revoke_user_tokens(user)
    if user.id is not None and db.session.scalar(db.select(OAuthIdentity.id).where(
            OAuthIdentity.user_id == user.id, OAuthIdentity.provider == profile.provider)) is not None:
        # Another account of this provider is linked already (one per provider): the verified email signs
        # the user in, and the first account stays the one linked.
        return user
    db.session.add(OAuthIdentity(user_id=user.id, provider=profile.provider, provider_account_id=profile.account_id,
                                 email=email))
    db.session.flush()  # a racing link of the same account fails here, before the session is added
    return user


def check_no_identity_of(user: User, provider: str) -> None:
    """Raise PROVIDER_ALREADY_LINKED when ``user`` has an account of ``provider`` linked: one identity per
    provider, so that unlinking one names it without doubt (docs/api-decisions.md, "OAuth sign-in")."""
    linked = db.session.scalar(db.select(OAuthIdentity.id).where(
        OAuthIdentity.user_id == user.id, OAuthIdentity.provider == provider))
    if linked is not None:
        name = {"github": "GitHub", "google": "Google"}.get(provider, provider)
        raise ApiError("PROVIDER_ALREADY_LINKED",
                       "A %(provider)s account is already linked to yours: unlink it first to link another.",
                       {"field": "provider", "provider": provider}, values={"provider": name})


def link_provider(user: User, profile: Profile) -> OAuthIdentity:
    """Link the provider account of ``profile`` to ``user``, who is signed in and asked for it. Commits.

    Unlike a sign-in, no email has to match: the signed-in user proved who they are, and the provider
    that they hold its account. The provider's verified email is kept on the identity (it may differ from
    the user's). No session starts or ends. Linking an account already linked to ``user`` does nothing.
    Raises IDENTITY_IN_USE when it is linked to another user (who must unlink it first), and
    PROVIDER_ALREADY_LINKED when ``user`` has another account of the provider linked (one per provider).
    """
    def linked() -> OAuthIdentity | None:
        return db.session.scalar(db.select(OAuthIdentity).where(
            OAuthIdentity.provider == profile.provider, OAuthIdentity.provider_account_id == profile.account_id))

    in_use = ApiError("IDENTITY_IN_USE", "This %(provider)s account is linked to another account.",
                      {"field": "provider", "provider": profile.provider}, values={"provider": profile.provider})
    identity = linked()
    if identity is not None:
        if identity.user_id != user.id:
            raise in_use
        return identity
    check_no_identity_of(user, profile.provider)   # another tab may have linked one since this flow began
    email = profile.email if profile.email_verified and profile.email and len(profile.email) <= 254 else None
    identity = OAuthIdentity(user_id=user.id, provider=profile.provider, provider_account_id=profile.account_id,
                             email=email)
    db.session.add(identity)
    try:
        db.session.commit()
    except IntegrityError:  # another callback linked the same provider account meanwhile
        db.session.rollback()
        identity = linked()
        if identity is None or identity.user_id != user.id:
            raise in_use from None
    return identity


def _refuse_two_factor(user: User) -> None:
    if user.two_factor_enabled:
        raise ApiError("TWO_FACTOR_REQUIRED", "This account has two-factor sign-in on: sign in with your "
                                              "password and code.", {"field": "code"})


def _name_for(profile: Profile, email: str) -> str:
    """The profile's name, else the email's local part, as a user name must be (1 to 100 characters)."""
    name = (profile.name or "").strip()[:100].strip() or email.split("@", 1)[0][:100].strip()
    return name or "User"


# Built once: every signed-in request runs it. The user (and its subscription, joined by the
# model) of a session that is not expired and whose auth id the user has not rotated since.
_LIVE_SESSION_USER = (db.select(User, AuthSession.expires_at, AuthSession.id, AuthSession.authenticated_at)
                      .join(AuthSession, AuthSession.user_id == User.id)
                      .where(AuthSession.token_hash == bindparam("token_hash"),
                             AuthSession.auth_id == User.auth_id, AuthSession.expires_at > bindparam("now")))


def load_session(raw: str) -> tuple[User, datetime, str, datetime | None] | None:
    """The user of the live session of a cookie value, when that session expires, its id, and when its owner
    last proved who they are in it (``app.auth.sudo``)."""
    row = db.session.execute(_LIVE_SESSION_USER, {"token_hash": hash_token(raw), "now": utcnow()}).first()
    return None if row is None else (row[0], row[1], row[2], row[3])


def grant_password(user: User) -> dict:
    """API tokens for a user just authenticated (``authenticate``): an access token and the first
    refresh token of a new family, as the token endpoint answers them.

    Commits (with the two-factor code ``authenticate`` spent). Raises ConfigError when SECRET_KEY
    is too short to sign tokens.
    """
    return _grant(user, family_id=None)


def grant_refresh(raw: str) -> dict:
    """Spend a refresh token for a new access token and the next refresh token of its family. Commits.

    Raises TOKEN_INVALID for an unknown, revoked, expired or spent token; a spent
    one (a replay: a copy is in other hands) first revokes its whole family.
    """
    invalid = ApiError("TOKEN_INVALID", "This refresh token is invalid, expired or revoked. Sign in again.",
                       {"field": "refresh_token"})
    token = tokens.find_refresh_token(raw)
    if token is None or token.revoked_at is not None or (token.used_at is None and token.expires_at <= utcnow()):
        raise invalid
    # Spent before, or by a request that raced this one: either way two holders have it.
    if token.used_at is not None or not tokens.spend_refresh_token(token):
        tokens.revoke_family(token.family_id)
        db.session.commit()
        raise invalid
    user = db.session.get(User, token.user_id)
    return _grant(user, family_id=token.family_id)


def _grant(user: User, *, family_id: str | None) -> dict:
    tokens.signing_key()  # before anything is written: a short SECRET_KEY fails the request whole
    result = {"access_token": tokens.issue_access_token(user), "token_type": "Bearer",
              "expires_in": int(current_app.config["ACCESS_TOKEN_LIFETIME"].total_seconds()),
              "refresh_token": tokens.issue_refresh_token(user, family_id)}
    db.session.commit()
    return result


def load_bearer(raw: str) -> tuple[User, datetime] | None:
    """The user of a genuine, unexpired access token whose auth id is still the user's, and its expiry."""
    claims = tokens.read_access_token(raw)
    if claims is None:
        return None
    user = db.session.get(User, claims.user_id)
    if user is None or not hmac.compare_digest(tokens.auth_digest(user), claims.auth_digest):
        return None
    return user, claims.expires_at


def end_session(raw: str) -> None:
    """Delete the session of this cookie value, if any. Commits."""
    db.session.execute(delete(AuthSession).where(AuthSession.token_hash == hash_token(raw)))
    db.session.commit()


def prune_expired(now: datetime | None = None) -> dict[str, int]:
    """Delete expired sessions, expired or spent one-time tokens and passkey challenges, and expired refresh tokens.

    Spent refresh tokens stay until they expire: presenting one revokes its family. Commits; returns counts.
    """
    now = now or utcnow()
    sessions = db.session.execute(delete(AuthSession).where(AuthSession.expires_at <= now)).rowcount
    one_time = db.session.execute(delete(OneTimeToken).where(
        (OneTimeToken.expires_at <= now) | OneTimeToken.used_at.is_not(None))).rowcount
    refresh = db.session.execute(delete(RefreshToken).where(RefreshToken.expires_at <= now)).rowcount
    challenges = passkeys.prune_challenges(now)
    db.session.commit()
    return {"sessions": sessions, "tokens": one_time, "refresh_tokens": refresh, "passkey_challenges": challenges}
