"""Mail jobs. Each re-reads the user, so a stale job does nothing harmful.

A mail is written in its recipient's language (``preferences.language``), not the language of the
request that queued it: the job may run later, in a worker, with no request at all.
"""
from __future__ import annotations

from flask import current_app
from flask_babel import force_locale, lazy_gettext

from app.auth import reauthentication, service
from app.auth.models import OneTimeToken, Passkey
from app.extensions import db
from app.i18n import LOCALES
from app.integrations import mail
from app.users.models import User


def _mail_link(user: User, purpose: str, page: str, subject: str, template: str, **context) -> None:
    token = service.issue_token(user, purpose)
    link = f"{current_app.config['BASE_URL']}/{page}?token={token}"
    locale = LOCALES.get((user.preferences or {}).get("language"), "en")
    with force_locale(locale):  # the subject is lazy: translated here, in the recipient's language
        mail.send_template(user.email, str(subject), template, user=user, link=link, **context)


def send_verification_email(user_id: str) -> bool:
    """Issue a verification token and mail its link; nothing for a verified or deleted user.

    Raises when the mail cannot be sent (RQ retries the job).
    """
    user = db.session.get(User, user_id)
    if user is None or user.email_verified:
        return False
    hours = int(current_app.config["VERIFY_TOKEN_LIFETIME"].total_seconds() // 3600)
    _mail_link(user, OneTimeToken.VERIFY_EMAIL, "verify-email", lazy_gettext("Verify your email address"),
               "verify_email", hours=hours)
    return True


def send_password_reset_email(user_id: str) -> bool:
    """Issue a reset token and mail its link; nothing for a deleted user. Raises on mail failure."""
    user = db.session.get(User, user_id)
    if user is None:
        return False
    minutes = int(current_app.config["RESET_TOKEN_LIFETIME"].total_seconds() // 60)
    _mail_link(user, OneTimeToken.RESET_PASSWORD, "reset-password", lazy_gettext("Reset your password"),
               "reset_password", minutes=minutes)
    return True


def _mail_passkey(passkey_id: str, subject, template: str) -> bool:
    passkey = db.session.get(Passkey, passkey_id)
    if passkey is None:  # the account was deleted meanwhile
        return False
    user = passkey.user
    locale = LOCALES.get((user.preferences or {}).get("language"), "en")
    with force_locale(locale):
        mail.send_template(user.email, str(subject), template, user=user, passkey=passkey,
                           link=f"{current_app.config['BASE_URL']}/account#passkeys")
    return True


def send_passkey_added_email(passkey_id: str) -> bool:
    """Tell the account a passkey was added to it (and how to remove one it did not add)."""
    return _mail_passkey(passkey_id, lazy_gettext("A passkey was added to your account"), "passkey_added")


def send_passkey_removed_email(passkey_id: str) -> bool:
    """Tell the account a passkey was removed from it."""
    return _mail_passkey(passkey_id, lazy_gettext("A passkey was removed from your account"), "passkey_removed")


def send_passkey_taken_back_email(passkey_id: str) -> bool:
    """Tell the account that a passkey added lately by a session that was then signed out (a password change
    or reset) was taken back, and how to add it again if it was theirs."""
    return _mail_passkey(passkey_id, lazy_gettext("A passkey was removed when your sessions were signed out"),
                         "passkey_taken_back")


def send_reauthentication_code(user_id: str) -> bool:
    """Issue a re-authentication code and mail it; nothing for a deleted user or one with a password (it
    re-authenticates with it). Raises on mail failure (RQ retries: a new code is mailed, the old one spent)."""
    user = db.session.get(User, user_id)
    if user is None or user.password_hash is not None:
        return False
    code = reauthentication.issue_code(user)
    minutes = int(current_app.config["REAUTHENTICATION_CODE_LIFETIME"].total_seconds() // 60)
    locale = LOCALES.get((user.preferences or {}).get("language"), "en")
    with force_locale(locale):
        mail.send_template(user.email, str(lazy_gettext("Your code to confirm it is you")), "reauthentication_code",
                           user=user, code=f"{code[:4]} {code[4:]}", minutes=minutes)
    return True
