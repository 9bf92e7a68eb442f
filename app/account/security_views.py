"""Account security endpoints (password, two-factor), on the account blueprint."""
from __future__ import annotations

from flask_limiter.util import get_remote_address
from flask_login import current_user, login_required

from app.account import security, security_schemas
from app.account.views import bp
from app.auth import sessions as auth_sessions
from app.common.http import json_body, ok
from app.common.openapi import api_doc
from app.common.ratelimit import configured, counting_failures, failed
from app.extensions import limiter


def _user_key() -> str:
    return f"user:{current_user.id}" if current_user.is_authenticated else get_remote_address()


@bp.put("/account/security")
@login_required
# Wrong current passwords per user, like failed sign-ins; the per-user request limit still applies.
@limiter.limit(configured("CURRENT_PASSWORD"), key_func=_user_key, deduct_when=failed("current_password_failed"),
               scope="current-password", override_defaults=False)
@api_doc("Change your password and/or two-factor sign-in (needs currentPassword)", tags=["account"], auth=True,
         body=security_schemas.SecurityUpdateSchema,
         responses={200: ("What changed; backupCodes and otpauthUri when two-factor was just turned on",
                          security_schemas.SecurityResultSchema)})
def update_security():
    data = json_body(security_schemas.SecurityUpdateSchema())
    with counting_failures("current_password_failed", "INVALID_PASSWORD"):
        result = security.update_security(current_user, **data,
                                          keep_session=auth_sessions.session_cookie_in_use())
    return ok(security_schemas.SecurityResultSchema().dump(result), message=_message(result))


def _message(result: dict) -> str:
    said = []
    if result["passwordUpdated"]:
        said.append("Your password has been changed; your other sessions and API tokens are signed out.")
    if result["backupCodes"]:
        said.append("Two-factor sign-in is on: add the account to your authenticator app and keep the backup "
                    "codes somewhere safe (they are shown only once).")
    return " ".join(said) or "Your security settings have been saved."
