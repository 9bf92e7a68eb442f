"""Who may use the AI features: the plan's ``aiFeatures``; and the checks every use of the model makes."""
from __future__ import annotations

from flask import current_app

from app.ai import provider
from app.billing.plans import PLANS, display_name, plan_for
from app.billing.usage import count_api_request
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


def writing_settings(user: User, *, already_counted: bool) -> provider.Settings:
    """The provider's settings for a use of the model by ``user``, after the checks every use makes, in this
    order: the configuration (AI_NOT_CONFIGURED: upgrading would not help), the plan (PLAN_UPGRADE_REQUIRED),
    the API request count (SUBSCRIPTION_LIMIT_EXCEEDED; skipped when the request was already counted as a
    bearer request). Does not commit."""
    settings = provider.settings_from(current_app.config)
    if settings is None:
        raise ApiError("AI_NOT_CONFIGURED", "AI writing is not configured on this server: the operator sets "
                                            "AI_BASE_URL and AI_MODEL (any OpenAI-compatible service).")
    require_ai_features(user)
    if not already_counted:
        count_api_request(user)
    return settings
