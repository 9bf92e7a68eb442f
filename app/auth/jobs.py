"""Mail jobs. Each re-reads the user, so a stale job does nothing harmful."""
from __future__ import annotations

from flask import current_app

from app.account.models import User
from app.auth import service
from app.auth.models import OneTimeToken
from app.extensions import db
from app.integrations import mail


def _mail_link(user: User, purpose: str, page: str, subject: str, template: str, **context) -> None:
    token = service.issue_token(user, purpose)
    link = f"{current_app.config['BASE_URL']}/{page}?token={token}"
    mail.send_template(user.email, subject, template, user=user, link=link, **context)


def send_verification_email(user_id: str) -> bool:
    """Issue a verification token and mail its link; nothing for a verified or deleted user.

    Raises when the mail cannot be sent (RQ retries the job).
    """
    user = db.session.get(User, user_id)
    if user is None or user.email_verified:
        return False
    hours = int(current_app.config["VERIFY_TOKEN_LIFETIME"].total_seconds() // 3600)
    _mail_link(user, OneTimeToken.VERIFY_EMAIL, "verify-email", "Verify your email address", "verify_email",
               hours=hours)
    return True


def send_password_reset_email(user_id: str) -> bool:
    """Issue a reset token and mail its link; nothing for a deleted user. Raises on mail failure."""
    user = db.session.get(User, user_id)
    if user is None:
        return False
    minutes = int(current_app.config["RESET_TOKEN_LIFETIME"].total_seconds() // 60)
    _mail_link(user, OneTimeToken.RESET_PASSWORD, "reset-password", "Reset your password", "reset_password",
               minutes=minutes)
    return True
