"""Account endpoints: the profile, its security (password, two-factor and its set-up), linked sign-in
identities and passkeys.
The subscription's are billing's (``app.billing.views``)."""
from __future__ import annotations

from flask import Blueprint
from flask_limiter.util import get_remote_address
from flask_login import current_user, login_required

from app.account import schemas, service
from app.auth import credentials, identities, passkeys, sudo
from app.auth import schemas as auth_schemas
from app.auth.sudo import sudo_required
from app.common.http import json_body, ok
from app.common.openapi import api_doc
from app.common.ratelimit import configured, counting_failures, failed
from app.extensions import limiter
from app.messages import N_

bp = Blueprint("account", __name__, url_prefix="/api")


@bp.get("/account")
@login_required
@api_doc("Your account: profile, preferences, plan limits and live usage", tags=["account"], auth=True,
         responses={200: ("Account", schemas.AccountSchema)})
def get_account():
    return ok(schemas.AccountSchema().dump(service.account_of(current_user)))


@bp.put("/account")
@login_required
@api_doc("Change your name, avatar or preferences (preferences are merged key by key)", tags=["account"],
         auth=True, body=schemas.AccountUpdateSchema, responses={200: ("Updated account", schemas.AccountSchema)})
def update_account():
    account = service.update_profile(current_user, json_body(schemas.AccountUpdateSchema()))
    return ok(schemas.AccountSchema().dump(account), message=N_("Account updated."))


def _user_key() -> str:
    return f"user:{current_user.id}" if current_user.is_authenticated else get_remote_address()


def _current_password_limit():
    """Wrong current passwords per user, like failed sign-ins: one counter for the security update and
    the two-factor set-up; the per-user request limit still applies."""
    return limiter.shared_limit(configured("CURRENT_PASSWORD"), scope="current-password", key_func=_user_key,
                                deduct_when=failed("current_password_failed"), override_defaults=False)


SUDO = (" A security change: a browser session that signed in or re-authenticated lately (403 SESSION_REQUIRED "
        "with a bearer token, 403 REAUTHENTICATION_REQUIRED past SUDO_LIFETIME: POST /api/auth/reauthenticate).")


@bp.put("/account/security")
@login_required
@_current_password_limit()
@sudo_required
@api_doc("Change your password and/or two-factor sign-in (needs currentPassword)." + SUDO, tags=["account"],
         auth=True, body=schemas.SecurityUpdateSchema,
         responses={200: ("What changed; backupCodes and otpauthUri when two-factor was just turned on",
                          schemas.SecurityResultSchema)})
def update_security():
    data = json_body(schemas.SecurityUpdateSchema())
    with counting_failures("current_password_failed", "INVALID_PASSWORD"):
        result = credentials.update_security(current_user, **data, session=sudo.current())
    return ok(schemas.SecurityResultSchema().dump(result), message=_message(result))


def _message(result: dict) -> str:
    said = []
    if result["passwordUpdated"]:
        said.append(N_("Your password has been changed; your other sessions and API tokens are signed out."))
    if result["backupCodes"]:
        said.append(N_("Two-factor sign-in is on: add the account to your authenticator app and keep the backup "
                       "codes somewhere safe (this session shows them until you dismiss them)."))
    return " ".join(said) or N_("Your security settings have been saved.")


@bp.post("/account/two-factor/setup")
@login_required
@_current_password_limit()
@sudo_required
@api_doc("Start a two-factor set-up (needs currentPassword): a new key for the authenticator app, kept until "
         "expiresAt and shown to this session only; two-factor stays off, and sign-in asks for no code, until this "
         "session confirms a code of it." + SUDO,
         tags=["account"], auth=True, body=schemas.TwoFactorSetupSchema,
         responses={200: ("The set-up waiting for its first code", schemas.TwoFactorSetupResultSchema)})
def start_two_factor_setup():
    data = json_body(schemas.TwoFactorSetupSchema())
    with counting_failures("current_password_failed", "INVALID_PASSWORD"):
        secret, uri, until = credentials.start_two_factor_setup(current_user, **data, session=sudo.current())
    result = {"twoFactorEnabled": False, "otpauthUri": uri, "secret": secret, "expiresAt": until}
    return ok(schemas.TwoFactorSetupResultSchema().dump(result),
              message=N_("Add the account to your authenticator app, then confirm with a code from it: two-factor "
                         "sign-in turns on then."))


@bp.post("/account/two-factor/confirm")
@login_required
# Wrong codes per user, as at sign-in; the per-user request limit still applies.
@limiter.limit(configured("TWO_FACTOR"), key_func=_user_key, deduct_when=failed("two_factor_failed"),
               scope="two-factor-confirm", override_defaults=False)
@sudo_required
@api_doc("Confirm a two-factor set-up with a code from the authenticator app (the code is spent); a set-up "
         "started with POST /api/account/two-factor/setup turns two-factor on here. Only the session that started "
         "the set-up may confirm it (409 TWO_FACTOR_SETUP_IN_ANOTHER_SESSION)." + SUDO,
         tags=["account"], auth=True, body=schemas.TwoFactorConfirmSchema,
         responses={200: ("Confirmed: the authenticator app holds the secret; backupCodes when two-factor was "
                          "just turned on", schemas.TwoFactorConfirmedSchema)})
def confirm_two_factor():
    code = json_body(schemas.TwoFactorConfirmSchema())["code"]
    with counting_failures("two_factor_failed", "INVALID_TWO_FACTOR_CODE"):
        codes = credentials.confirm_two_factor(current_user, code, sudo.current())
    result = {"twoFactorEnabled": True, "confirmed": True, "backupCodes": codes}
    message = (N_("Two-factor sign-in is on: keep the backup codes somewhere safe (this session shows them until "
                  "you dismiss them).") if codes else N_("Two-factor sign-in is set up."))
    return ok(schemas.TwoFactorConfirmedSchema().dump(result), message=message)


@bp.post("/account/two-factor/backup-codes")
@login_required
@sudo_required
@api_doc("Make ten new backup codes: every older one stops working (400 VALIDATION_ERROR when two-factor is "
         "off)." + SUDO, tags=["account"], auth=True,
         responses={201: ("The new codes, shown by this session until dismissed", schemas.BackupCodesSchema)})
def regenerate_backup_codes():
    codes = credentials.regenerate_backup_codes(current_user, sudo.current())
    return ok(schemas.BackupCodesSchema().dump({"backupCodes": codes}), status=201,
              message=N_("New backup codes: the old ones no longer work. Keep these somewhere safe."))


@bp.post("/account/two-factor/backup-codes/dismiss")
@login_required
@api_doc("\"I have saved them\": this session stops showing the backup codes made in it (403 SESSION_REQUIRED "
         "with a bearer token)", tags=["account"], auth=True, responses={200: ("Dismissed", None)})
def dismiss_backup_codes():
    credentials.dismiss_backup_codes(current_user, sudo.browser_session())
    return ok(message=N_("The backup codes are no longer shown."))


@bp.get("/account/identities")
@login_required
@api_doc("The provider accounts (GitHub, Google) that sign you in, and the providers offered for linking",
         tags=["account"], auth=True, responses={200: ("Linked identities", schemas.IdentitiesSchema)})
def list_identities():
    return ok(schemas.IdentitiesSchema().dump(identities.identities_of(current_user)))


@bp.delete("/account/identities/<provider>")
@login_required
@api_doc("Unlink a provider account (409 LAST_SIGN_IN_METHOD when it is your only way to sign in)",
         tags=["account"], auth=True, responses={200: ("The identities left", schemas.IdentitiesSchema)})
def unlink_identity(provider: str):
    remaining = identities.unlink_identity(current_user, provider)
    return ok(schemas.IdentitiesSchema().dump(remaining), message=N_("The account is no longer linked."))


# -- Passkeys (app/auth/passkeys.py; decisions "Passkeys") ----------------------------------------------

def _passkeys() -> dict:
    return schemas.PasskeysSchema().dump({"passkeys": passkeys.passkeys_of(current_user)})


@bp.get("/account/passkeys")
@login_required
@api_doc("Your passkeys: each signs you in from /login with nothing typed", tags=["account"], auth=True,
         responses={200: ("Passkeys", schemas.PasskeysSchema)})
def list_passkeys():
    return ok(_passkeys())


@bp.post("/account/passkey/options")  # not under passkeys/, where it would be a passkey id
@login_required
@sudo_required
@api_doc("Start adding a passkey: the options of navigator.credentials.create (a discoverable credential with "
         "user verification; your passkeys excluded), with a single-use challenge." + SUDO, tags=["account"], auth=True,
         responses={200: ("The creation options", auth_schemas.PasskeyOptionsSchema)})
def passkey_registration_options():
    return ok(auth_schemas.PasskeyOptionsSchema().dump({"publicKey": passkeys.registration_options(current_user)}))


@bp.post("/account/passkeys")
@login_required
@sudo_required
@api_doc("Add a passkey: the credential navigator.credentials.create answered (400 PASSKEY_INVALID with "
         "details.reason challenge, verification or duplicate); the account is mailed." + SUDO, tags=["account"],
         auth=True, body=schemas.PasskeyCreateSchema, responses={201: ("The passkey added", schemas.PasskeySchema)})
def add_passkey():
    data = json_body(schemas.PasskeyCreateSchema())
    passkey = passkeys.add_passkey(current_user, data["credential"], data.get("name"), session_id=sudo.current().id)
    return ok(schemas.PasskeySchema().dump(passkey), status=201, message=N_("Passkey added."))


@bp.put("/account/passkeys/<passkey_id>")
@login_required
@api_doc("Rename a passkey", tags=["account"], auth=True, body=schemas.PasskeyRenameSchema,
         responses={200: ("The passkey", schemas.PasskeySchema)})
def rename_passkey(passkey_id: str):
    name = json_body(schemas.PasskeyRenameSchema())["name"]
    return ok(schemas.PasskeySchema().dump(passkeys.rename_passkey(current_user, passkey_id, name)),
              message=N_("Passkey renamed."))


@bp.delete("/account/passkeys/<passkey_id>")
@login_required
@api_doc("Remove a passkey (409 LAST_SIGN_IN_METHOD when it is your only way to sign in); the account is mailed",
         tags=["account"], auth=True, responses={200: ("The passkeys left", schemas.PasskeysSchema)})
def remove_passkey(passkey_id: str):
    left = passkeys.remove_passkey(current_user, passkey_id)
    return ok(schemas.PasskeysSchema().dump({"passkeys": left}), message=N_("Passkey removed."))
