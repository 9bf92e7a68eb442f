"""Who may use the AI features: the plan's ``aiFeatures``."""
from __future__ import annotations

from app.billing.plans import PLANS, display_name, plan_for
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
    with_ai = [plan for plan in PLANS.values() if plan.ai_features]
    raise ApiError("PLAN_UPGRADE_REQUIRED",
                   "AI features come with these plans: %(plans)s. Upgrade at %(upgrade)s "
                   "(or POST /api/account/subscription) to use them.",
                   {"feature": "aiFeatures", "plans": [plan.type for plan in with_ai], "upgradeUrl": UPGRADE_PATH},
                   values={"plans": ", ".join(str(display_name(plan)) for plan in with_ai), "upgrade": UPGRADE_PATH})
