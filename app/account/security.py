"""Account security: changing the password and the two-factor setting; metering API (bearer) requests.

Each public function is one use case and commits once.
"""
from __future__ import annotations

from sqlalchemy import update

from app.account.models import Subscription, User
from app.account.plans import UNLIMITED, plan_for
from app.auth import service as auth
from app.auth import two_factor
from app.auth.passwords import check_password, hash_password
from app.errors import ApiError
from app.extensions import db


def update_security(user: User, *, current_password: str, new_password: str | None = None,
                    two_factor_enabled: bool | None = None, keep_session: str | None = None) -> dict:
    """Change the password and/or the two-factor setting of ``user``, after checking its current password.

    A new password ends every other session of the user (the one of cookie value
    ``keep_session`` stays signed in; None ends them all), every access token and
    every refresh token. Turning two-factor on makes a new secret and ten backup
    codes, returned once (``otpauthUri``, ``backupCodes``); turning it off deletes
    them; asking for the state it is already in changes nothing. Commits.
    Raises INVALID_PASSWORD (details.field currentPassword), then WEAK_PASSWORD
    (details.field newPassword).
    """
    if not check_password(current_password, user.password_hash):
        raise ApiError("INVALID_PASSWORD", "The current password is incorrect.", {"field": "currentPassword"})
    result: dict = {"passwordUpdated": False, "backupCodes": []}
    if new_password is not None:
        auth.check_password_rule(new_password, field="newPassword")
        user.password_hash = hash_password(new_password)
        auth.end_other_sessions(user, keep=keep_session)
        result["passwordUpdated"] = True
    if two_factor_enabled is True and not user.two_factor_enabled:
        result["otpauthUri"], result["backupCodes"] = two_factor.enable(user)
    elif two_factor_enabled is False and user.two_factor_enabled:
        two_factor.disable(user)
    result["twoFactorEnabled"] = user.two_factor_enabled
    db.session.commit()
    return result


def count_api_request(user: User) -> None:
    """Count one bearer-token request against the plan's API request limit. Commits.

    A single conditional update, so racing requests cannot pass the limit
    between them. The count is reset by the subscription's period roll-over.
    Raises SUBSCRIPTION_LIMIT_EXCEEDED (details: limit, resource "apiRequests").
    """
    limit = plan_for(user.subscription_type).api_requests_limit
    counting = (update(Subscription).where(Subscription.user_id == user.id)
                # A request is not a change of the subscription: its updated_at stays.
                .values(api_requests_used=Subscription.api_requests_used + 1, updated_at=Subscription.updated_at)
                .execution_options(synchronize_session=False))
    if limit != UNLIMITED:
        counting = counting.where(Subscription.api_requests_used < limit)
    counted = db.session.execute(counting).rowcount
    db.session.commit()
    if not counted:
        raise ApiError("SUBSCRIPTION_LIMIT_EXCEEDED",
                       "Your plan's API requests for this period are used up; they reset with the period "
                       "(see usage.resetDate of the subscription).", {"limit": limit, "resource": "apiRequests"})
