"""Who may use the AI features: the plan's ``aiFeatures``."""
from __future__ import annotations

from app.billing.plans import PLANS, plan_for
from app.errors import ApiError
from app.users.models import User

UPGRADE_PATH = "/billing"


def may_use_ai(user: User) -> bool:
    """Whether the user's plan has AI features."""
    return plan_for(user.subscription_type).ai_features


def require_ai_features(user: User) -> None:
    """Raises 403 PLAN_UPGRADE_REQUIRED on a plan without AI features; the details name the plans
    that have them and where to upgrade."""
    if may_use_ai(user):
        return
    plans = [plan.type for plan in PLANS.values() if plan.ai_features]
    raise ApiError("PLAN_UPGRADE_REQUIRED",
                   f"AI features are part of the {' and '.join(plans)} plans. Upgrade at {UPGRADE_PATH} "
                   "(or POST /api/account/subscription) to use them.",
                   {"feature": "aiFeatures", "plans": plans, "upgradeUrl": UPGRADE_PATH})
