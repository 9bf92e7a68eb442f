"""Usage against the plan's limits: this period's counts, and metering API (bearer) requests."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import update

from app.account.models import User
from app.billing.models import Subscription
from app.billing.plans import UNLIMITED, plan_for
from app.errors import ApiError
from app.extensions import db


@dataclass(frozen=True)
class Usage:
    """This period's usage against the plan's limits (-1 = unlimited); it resets on ``reset_date``."""

    resumes_created: int
    resumes_limit: int
    api_requests_used: int
    api_requests_limit: int
    storage_used: int
    storage_limit: int
    reset_date: datetime


def usage_of(user: User) -> Usage:
    """Live counts: live resumes, Bearer requests this period, bytes of stored exports."""
    plan, subscription = plan_for(user.subscription_type), user.subscription
    return Usage(resumes_created=user.live_resumes, resumes_limit=plan.resumes_limit,
                 api_requests_used=subscription.api_requests_used, api_requests_limit=plan.api_requests_limit,
                 storage_used=user.storage_used, storage_limit=plan.storage_limit,
                 reset_date=subscription.current_period_end)


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
