"""Sudo mode's endpoints (``app.auth.sudo``, ``app.auth.reauthentication``): whether this browser session may
make security changes now, and re-authenticating it. HTTP only; every one needs the session cookie (403
SESSION_REQUIRED with a bearer token). Decisions "Sudo mode"."""
from __future__ import annotations

from flask import Blueprint
from flask_limiter.util import get_remote_address
from flask_login import current_user, login_required

from app.auth import passkeys, reauthentication, schemas, sudo
from app.common.http import json_body, ok
from app.common.openapi import api_doc
from app.common.ratelimit import configured, counting_failures, failed
from app.extensions import limiter
from app.messages import N_

bp = Blueprint("reauth", __name__, url_prefix="/api")

WRONG_PROOFS = ("INVALID_PASSWORD", "INVALID_TWO_FACTOR_CODE", "TOKEN_INVALID", "TOKEN_EXPIRED", "PASSKEY_REJECTED")


def _user_key() -> str:
    return f"user:{current_user.id}" if current_user.is_authenticated else get_remote_address()


def _status(session: sudo.BrowserSession, expires_at=None) -> dict:
    expires_at = expires_at or sudo.sudo_until(session)
    return schemas.SudoStatusSchema().dump({"recent": expires_at is not None, "expires_at": expires_at,
                                            "methods": sudo.methods_of(current_user)})


@bp.get("/auth/reauthenticate")
@login_required
@api_doc("Sudo mode: whether this browser session may make security changes now (it signed in or "
         "re-authenticated within SUDO_LIFETIME, 10 minutes), until when, and how the account re-authenticates "
         "(403 SESSION_REQUIRED with a bearer token)", tags=["auth"], auth=True,
         responses={200: ("The session's sudo mode", schemas.SudoStatusSchema)})
def reauthentication_status():
    return ok(_status(sudo.browser_session()))


@bp.post("/auth/reauthenticate")
@login_required
# Wrong proofs per user, and per address with the sign-in failures; right ones are not counted.
@limiter.limit(configured("REAUTHENTICATE"), key_func=_user_key, scope="reauthenticate",
               deduct_when=failed("reauthenticate_failed"), override_defaults=False)
@limiter.shared_limit(configured("SIGNIN_IP"), scope="signin-ip", key_func=get_remote_address,
                      deduct_when=failed("reauthenticate_failed"))
@api_doc("Re-authenticate this browser session with one proof: password, code (TOTP or backup), emailCode (a "
         "code from POST /api/auth/reauthenticate/code) or credential (a passkey's assertion); security changes "
         "are then allowed for SUDO_LIFETIME. 400 INVALID_PASSWORD, 401 INVALID_TWO_FACTOR_CODE, 403 "
         "TOKEN_INVALID or TOKEN_EXPIRED (emailCode), 401 PASSKEY_REJECTED; 403 SESSION_REQUIRED with a bearer "
         "token", tags=["auth"], auth=True, body=schemas.ReauthenticateSchema,
         responses={200: ("Re-authenticated: the session's sudo mode", schemas.SudoStatusSchema)})
def reauthenticate():
    session = sudo.browser_session()
    data = json_body(schemas.ReauthenticateSchema())
    with counting_failures("reauthenticate_failed", *WRONG_PROOFS):
        until = reauthentication.reauthenticate(current_user, session, **data)
    return ok(_status(session, until), message=N_("Confirmed: you can change your security settings now."))


@bp.post("/auth/reauthenticate/passkey/options")
@login_required
@limiter.limit(configured("PASSKEY_OPTIONS"), key_func=_user_key, scope="reauthenticate-passkey-options",
               override_defaults=False)
@api_doc("Start re-authenticating with a passkey: the options of navigator.credentials.get (allowCredentials: "
         "your passkeys; user verification required), with a single-use challenge (400 VALIDATION_ERROR when you "
         "have no passkey)", tags=["auth"], auth=True,
         responses={200: ("The request options", schemas.PasskeyOptionsSchema)})
def reauthentication_passkey_options():
    sudo.browser_session()
    return ok(schemas.PasskeyOptionsSchema().dump({"publicKey": passkeys.authentication_options(current_user)}))


@bp.post("/auth/reauthenticate/code")
@login_required
@limiter.limit(configured("MAIL_EMAIL"), key_func=_user_key, scope="reauthenticate-code", override_defaults=False)
@api_doc("Mail a single-use code to re-authenticate with (emailCode), for an account without a password (400 "
         "VALIDATION_ERROR with one: use the password); only the newest code works, for "
         "REAUTHENTICATION_CODE_LIFETIME (10 minutes)", tags=["auth"], auth=True,
         responses={200: ("The mail is on its way", None)})
def mail_reauthentication_code():
    sudo.browser_session()
    reauthentication.request_code(current_user)
    return ok(message=N_("We mailed you a code. Enter it to confirm it is you."))
