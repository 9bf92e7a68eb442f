"""Usage against the plan's limits: this period's counts, metering API (bearer) requests, and the users'
counters of live resumes and stored bytes, which other rooms change only through these functions."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, update

from app.billing.models import Subscription
from app.billing.plans import UNLIMITED, display_name, plan_for
from app.errors import ApiError
from app.extensions import db
from app.users.models import User


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


# The users' counters (users.live_resumes, users.storage_used) --------------------------------------
# Each change is one conditional update, in the caller's transaction (no commit), so that racing
# requests cannot pass a plan's limit between them.
def count_one_more_resume(user: User) -> None:
    """Add one to the user's live resumes, in a single conditional update: two creates racing for
    the last place of a plan cannot both get it. Raises SUBSCRIPTION_LIMIT_EXCEEDED."""
    plan = plan_for(user.subscription_type)
    counting = update(User).where(User.id == user.id).values(live_resumes=User.live_resumes + 1)
    if plan.resumes_limit != UNLIMITED:
        counting = counting.where(User.live_resumes < plan.resumes_limit)
    if db.session.execute(counting).rowcount != 1:
        raise _resume_limit(plan)


def check_room_for_a_resume(user: User) -> None:
    """Raise SUBSCRIPTION_LIMIT_EXCEEDED when the user's plan has no room for another resume (a look
    before costly work, such as reading an imported file; ``count_one_more_resume`` decides)."""
    plan = plan_for(user.subscription_type)
    if plan.resumes_limit != UNLIMITED and user.live_resumes >= plan.resumes_limit:
        raise _resume_limit(plan)


def _resume_limit(plan) -> ApiError:
    return ApiError("SUBSCRIPTION_LIMIT_EXCEEDED",
                    "The %(plan)s plan allows %(limit)s resumes. Upgrade for more.",
                    {"limit": plan.resumes_limit, "resource": "resumes"},
                    values={"plan": display_name(plan), "limit": plan.resumes_limit})


def count_one_fewer_resume(user_id: str) -> None:
    """A resume of the user's was deleted (moved to the trash)."""
    db.session.execute(update(User).where(User.id == user_id).values(live_resumes=User.live_resumes - 1))


def set_live_resumes(live: ColumnElement) -> None:
    """Set every user's live resumes to ``live``, a count correlated with ``User.id`` (the resume
    service's, after rows were written around it, as a bulk import does)."""
    db.session.execute(update(User).values(live_resumes=live))


def storage_limit(user: User) -> int:
    """The plan's storage limit in bytes (-1: unlimited); raises SUBSCRIPTION_LIMIT_EXCEEDED when the
    user's stored bytes already reach it."""
    limit = plan_for(user.subscription_type).storage_limit
    if limit != UNLIMITED and user.storage_used >= limit:
        raise storage_full(limit)
    return limit


def count_storage(user_id: str, size: int, limit: int) -> None:
    """Add ``size`` bytes to the user's storage in one conditional update (racing exports cannot both
    pass ``limit``). Raises SUBSCRIPTION_LIMIT_EXCEEDED."""
    counting = update(User).where(User.id == user_id).values(storage_used=User.storage_used + size)
    if limit != UNLIMITED:
        counting = counting.where(User.storage_used + size <= limit)
    if db.session.execute(counting).rowcount != 1:
        raise storage_full(limit)


def release_storage(user_id: str, size: int) -> None:
    """Give ``size`` bytes of a deleted file back to the user."""
    db.session.execute(update(User).where(User.id == user_id).values(storage_used=User.storage_used - size))


def storage_full(limit: int) -> ApiError:
    return ApiError("SUBSCRIPTION_LIMIT_EXCEEDED",
                    "This export would pass your plan's storage of %(limit)s bytes. Delete old exports or upgrade.",
                    {"limit": limit, "resource": "storage"}, values={"limit": limit})
