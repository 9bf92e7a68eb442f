"""Passkeys (WebAuthn): adding, naming, listing and removing a user's passkeys, and signing in with one.

Every check of an attestation or an assertion is py_webauthn's (``verify_registration_response``,
``verify_authentication_response``: the challenge, the origin, the relying party id, user presence and
verification, the signature, the signature counter); this module keeps the state around them.

- The relying party id is ``BASE_URL``'s host and the only origin accepted is ``BASE_URL``'s origin.
- Passkeys are discoverable credentials (resident keys) with user verification required, so that
  ``/login`` signs in with nothing typed, and a passkey is possession plus a PIN or biometric: it
  satisfies two-factor sign-in on its own (docs/api-decisions.md, "Passkeys").
- A challenge is made for one ceremony, stored as its SHA-256 (``PasskeyChallenge``), bound to the user
  for a registration, refused after ``WEBAUTHN_CHALLENGE_LIFETIME``, and spent by one conditional update
  that is committed before the answer is verified: an answer sent twice (a replay) or one that failed
  finds it spent.
- The counter: an assertion whose counter does not exceed the stored one (when either is non-zero) is
  refused by py_webauthn; the new one is stored by a conditional update on the old, so two sign-ins
  racing with the same counter cannot both pass.
- Adding and removing a passkey mail the account (through the outbox). A removed passkey keeps its row
  (``removed_at``), so the job can name it; it never signs in again.
- A passkey names the session that added it (``session_id``): when a password change or reset ends that
  session within ``RECENT_PASSKEY_WINDOW`` of the add, the passkey is taken back (``take_back_recent``),
  so that a stolen session cannot leave a passkey behind as a way back in.
- A signed-in session re-authenticates (sudo mode, ``app.auth.sudo``) with an assertion of one of its own
  user's passkeys: ``authentication_options(user)`` and ``authenticate(credential, user)``.
"""
from __future__ import annotations

import hashlib
import logging
import secrets
from urllib.parse import urlsplit

from flask import current_app
from sqlalchemy import func, update
from sqlalchemy.exc import IntegrityError
from webauthn import (
    base64url_to_bytes, generate_authentication_options, generate_registration_options, verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    bytes_to_base64url, options_to_json_dict, parse_authentication_credential_json, parse_client_data_json,
    parse_registration_credential_json,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria, PublicKeyCredentialDescriptor, ResidentKeyRequirement,
    UserVerificationRequirement,
)

from app.auth.identities import has_another_way_in, lock_user
from app.auth.models import Passkey, PasskeyChallenge
from app.common.models import new_id, plausible_id, utcnow
from app.errors import ApiError
from app.events.mail import queue_mail
from app.extensions import db
from app.messages import N_
from app.users.models import User

log = logging.getLogger(__name__)

ADDED_MAIL_JOB = "app.auth.jobs.send_passkey_added_email"
REMOVED_MAIL_JOB = "app.auth.jobs.send_passkey_removed_email"
TAKEN_BACK_MAIL_JOB = "app.auth.jobs.send_passkey_taken_back_email"


def relying_party() -> tuple[str, str]:
    """The relying party id (BASE_URL's host) and the one origin accepted (BASE_URL's origin)."""
    parts = urlsplit(current_app.config["BASE_URL"])
    return parts.hostname or "localhost", f"{parts.scheme}://{parts.netloc}".lower()


def _timeout_ms() -> int:
    return int(current_app.config["WEBAUTHN_CHALLENGE_LIFETIME"].total_seconds() * 1000)


def _new_challenge(purpose: str, user: User | None) -> bytes:
    challenge = secrets.token_bytes(32)
    db.session.add(PasskeyChallenge(challenge_hash=hashlib.sha256(challenge).hexdigest(), purpose=purpose,
                                    user_id=user.id if user else None,
                                    expires_at=utcnow() + current_app.config["WEBAUTHN_CHALLENGE_LIFETIME"]))
    return challenge


def _spend_challenge(challenge: bytes, purpose: str, user: User | None, error: ApiError) -> None:
    """Spend the live challenge ``challenge`` of ``purpose`` (and ``user``), and commit, so that neither a
    replay nor a retry after a failure finds it again. Raises ``error`` when there is none to spend."""
    now = utcnow()
    spent = db.session.execute(
        update(PasskeyChallenge).where(
            PasskeyChallenge.challenge_hash == hashlib.sha256(challenge).hexdigest(),
            PasskeyChallenge.purpose == purpose, PasskeyChallenge.used_at.is_(None),
            PasskeyChallenge.expires_at > now,
            PasskeyChallenge.user_id == user.id if user else PasskeyChallenge.user_id.is_(None))
        .values(used_at=now).execution_options(synchronize_session=False)).rowcount
    db.session.commit()
    if spent != 1:
        raise ApiError(error.code, "This passkey request has expired or was already used. Try again.",
                       {**error.details, "reason": "challenge"})


def _live(user: User):
    return db.select(Passkey).where(Passkey.user_id == user.id, Passkey.removed_at.is_(None))


def passkeys_of(user: User) -> list[Passkey]:
    return list(db.session.scalars(_live(user).order_by(Passkey.created_at, Passkey.id)))


def _passkey_of(user: User, passkey_id: str) -> Passkey:
    passkey = db.session.scalar(_live(user).where(Passkey.id == passkey_id)) if plausible_id(passkey_id) else None
    if passkey is None:
        raise ApiError("NOT_FOUND", "No such passkey.", {"field": "id"})
    return passkey


# -- adding one (signed in) ---------------------------------------------------------------------------

def registration_options(user: User) -> dict:
    """The options of ``navigator.credentials.create`` for a new passkey of ``user`` (its passkeys are
    excluded, so one authenticator holds one). Commits the challenge. Raises VALIDATION_ERROR when the
    user has ``PASSKEYS_PER_USER`` already."""
    existing = passkeys_of(user)
    if len(existing) >= current_app.config["PASSKEYS_PER_USER"]:
        raise ApiError("VALIDATION_ERROR", "You have as many passkeys as an account may have: remove one first.",
                       {"field": "body"})
    rp_id, _origin = relying_party()
    options = generate_registration_options(
        rp_id=rp_id, rp_name=current_app.config["WEBAUTHN_RP_NAME"], user_id=user.id.encode(),
        user_name=user.email, user_display_name=user.name, challenge=_new_challenge(PasskeyChallenge.REGISTER, user),
        timeout=_timeout_ms(),
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED, require_resident_key=True,
            user_verification=UserVerificationRequirement.REQUIRED),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(passkey.credential_id))
                             for passkey in existing])
    db.session.commit()
    return options_to_json_dict(options)


def add_passkey(user: User, credential: dict, name: str | None = None, *, session_id: str | None = None) -> Passkey:
    """Verify the browser's answer to ``registration_options`` and keep the new passkey (named ``name``,
    else "Passkey N"; added by the session ``session_id``), mailing the account. Commits. Raises
    PASSKEY_INVALID (details.reason: "challenge" for an expired, spent or unknown challenge, "verification"
    for an answer py_webauthn refuses, "duplicate" for a passkey already registered)."""
    invalid = ApiError("PASSKEY_INVALID", "The passkey could not be added.", {"field": "credential"})
    try:
        parsed = parse_registration_credential_json(credential)
        challenge = parse_client_data_json(parsed.response.client_data_json).challenge
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        log.info("passkey registration unreadable: %s", exc)
        raise ApiError(invalid.code, invalid.template, {**invalid.details, "reason": "verification"},
                       values=invalid.values) from None
    _spend_challenge(challenge, PasskeyChallenge.REGISTER, user, invalid)
    rp_id, origin = relying_party()
    try:
        verified = verify_registration_response(credential=parsed, expected_challenge=challenge,
                                                expected_rp_id=rp_id, expected_origin=origin,
                                                require_user_verification=True)
    except WebAuthnException as exc:
        log.info("passkey registration refused: %s", exc)
        raise ApiError(invalid.code, invalid.template, {**invalid.details, "reason": "verification"},
                       values=invalid.values) from None
    lock_user(user)
    count = db.session.scalar(db.select(func.count()).select_from(Passkey).where(Passkey.user_id == user.id))
    passkey = Passkey(id=new_id(), user_id=user.id, credential_id=bytes_to_base64url(verified.credential_id),
                      public_key=verified.credential_public_key, sign_count=verified.sign_count,
                      name=(name or "").strip() or f"Passkey {count + 1}",
                      transports=",".join(t.value for t in parsed.response.transports or [])[:128] or None,
                      backed_up=verified.credential_backed_up, session_id=session_id)
    db.session.add(passkey)
    queue_mail(ADDED_MAIL_JOB, passkey.id)
    try:
        db.session.commit()
    except IntegrityError:
        db.session.rollback()
        raise ApiError(invalid.code, "This passkey is registered already.",
                       {**invalid.details, "reason": "duplicate"}) from None
    return passkey


def rename_passkey(user: User, passkey_id: str, name: str) -> Passkey:
    """Name one of the user's passkeys. Commits. Raises NOT_FOUND."""
    passkey = _passkey_of(user, passkey_id)
    passkey.name = name.strip()
    db.session.commit()
    return passkey


def remove_passkey(user: User, passkey_id: str) -> list[Passkey]:
    """Remove one of the user's passkeys (it signs in no more) and mail the account. Commits; returns the
    passkeys left. Raises NOT_FOUND, LAST_SIGN_IN_METHOD when it is the account's only way in (no
    password, no linked identity, no other passkey)."""
    lock_user(user)
    passkey = _passkey_of(user, passkey_id)
    if not has_another_way_in(user, passkey_id=passkey.id):
        raise ApiError("LAST_SIGN_IN_METHOD",
                       "This is the only way to sign in to your account: set a password (forgot password), "
                       "link an account or add another passkey before removing it.", {"field": "id"})
    passkey.removed_at = utcnow()
    queue_mail(REMOVED_MAIL_JOB, passkey.id)
    db.session.commit()
    return passkeys_of(user)


def take_back_recent(user: User, keep_session_id: str | None) -> int:
    """Remove the passkeys added within ``RECENT_PASSKEY_WINDOW`` by a session of ``user`` other than
    ``keep_session_id`` (the sessions a password change or reset ends, and those ended before it), and mail
    the account about each. Passkeys from before sessions were recorded (no ``session_id``) stay. No
    commit: part of the caller's use case. Returns how many were taken back."""
    now = utcnow()
    recent = _live(user).where(Passkey.session_id.is_not(None),
                               Passkey.created_at > now - current_app.config["RECENT_PASSKEY_WINDOW"])
    if keep_session_id:
        recent = recent.where(Passkey.session_id != keep_session_id)
    taken = list(db.session.scalars(recent))
    for passkey in taken:
        passkey.removed_at = now
        queue_mail(TAKEN_BACK_MAIL_JOB, passkey.id)
    return len(taken)


# -- signing in with one (nobody signed in), or re-authenticating (signed in) ----------------------------

def authentication_options(user: User | None = None) -> dict:
    """The options of ``navigator.credentials.get`` for a sign-in with any passkey of this site (no
    allowCredentials: the browser offers the discoverable ones), or, with ``user``, for a re-authentication
    with one of the user's passkeys (allowCredentials lists them; VALIDATION_ERROR when it has none).
    Commits the challenge."""
    rp_id, _origin = relying_party()
    allowed = None
    if user is not None:
        allowed = [PublicKeyCredentialDescriptor(id=base64url_to_bytes(passkey.credential_id))
                   for passkey in passkeys_of(user)]
        if not allowed:
            raise ApiError("VALIDATION_ERROR", "Your account has no passkey.", {"field": "credential"})
    purpose = PasskeyChallenge.SIGN_IN if user is None else PasskeyChallenge.REAUTHENTICATE
    options = generate_authentication_options(rp_id=rp_id, challenge=_new_challenge(purpose, user),
                                              timeout=_timeout_ms(), allow_credentials=allowed,
                                              user_verification=UserVerificationRequirement.REQUIRED)
    db.session.commit()
    return options_to_json_dict(options)


def authenticate(credential: dict, user: User | None = None) -> User:
    """The user a passkey assertion (the answer to ``authentication_options``) signs in; with ``user``, the
    answer to ``authentication_options(user)``, which must be made with one of that user's passkeys.

    The challenge is spent (committed) first; the new counter and ``last_used_at`` are not committed
    (the caller's session start commits them). Raises PASSKEY_REJECTED (details.reason: "challenge",
    "unknown" for no such passkey, or another user's, "verification" for what py_webauthn refuses: wrong
    origin, relying party, signature, no user verification, a counter that did not increase), then
    EMAIL_NOT_VERIFIED.
    """
    rejected = ApiError("PASSKEY_REJECTED", N_("That passkey did not sign you in.") if user is None
                        else N_("That passkey did not confirm it is you."), {"field": "credential"})

    def reject(reason: str) -> ApiError:
        return ApiError(rejected.code, rejected.template, {**rejected.details, "reason": reason},
                        values=rejected.values)

    try:
        parsed = parse_authentication_credential_json(credential)
        challenge = parse_client_data_json(parsed.response.client_data_json).challenge
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        log.info("passkey assertion unreadable: %s", exc)
        raise reject("verification") from None
    _spend_challenge(challenge, PasskeyChallenge.SIGN_IN if user is None else PasskeyChallenge.REAUTHENTICATE,
                     user, rejected)
    passkey = db.session.scalar(db.select(Passkey).where(
        Passkey.credential_id == bytes_to_base64url(parsed.raw_id), Passkey.removed_at.is_(None)))
    handle = parsed.response.user_handle
    if passkey is None or (handle is not None and handle != passkey.user_id.encode()) or (
            user is not None and passkey.user_id != user.id):
        raise reject("unknown")
    rp_id, origin = relying_party()
    try:
        verified = verify_authentication_response(
            credential=parsed, expected_challenge=challenge, expected_rp_id=rp_id, expected_origin=origin,
            credential_public_key=passkey.public_key, credential_current_sign_count=passkey.sign_count,
            require_user_verification=True)
    except WebAuthnException as exc:
        log.warning("passkey %s refused: %s", passkey.id, exc)
        raise reject("verification") from None
    counted = db.session.execute(
        update(Passkey).where(Passkey.id == passkey.id, Passkey.sign_count == passkey.sign_count)
        .values(sign_count=verified.new_sign_count, last_used_at=utcnow(),
                backed_up=verified.credential_backed_up).execution_options(synchronize_session="fetch")).rowcount
    if counted != 1:  # another sign-in with this passkey's counter went first
        db.session.rollback()
        raise reject("verification")
    user = passkey.user
    if not user.email_verified:
        raise ApiError("EMAIL_NOT_VERIFIED", "Verify your email address first: we sent you a link.",
                       {"field": "email"})
    return user


def prune_challenges(now) -> int:
    """Delete expired and spent challenges (no commit); returns how many."""
    return db.session.execute(db.delete(PasskeyChallenge).where(
        (PasskeyChallenge.expires_at <= now) | PasskeyChallenge.used_at.is_not(None))).rowcount
