"""Subscription endpoints (``/api/account/subscription``). The payment authentication page a card holder is
sent to is a page (``app.pages.payments``)."""
from __future__ import annotations

from flask import Blueprint
from flask_login import current_user, login_required

from app.billing import schemas
from app.billing import service
from app.common.http import json_body, ok
from app.common.idempotency import idempotent
from app.common.openapi import api_doc
from app.messages import N_

bp = Blueprint("billing", __name__, url_prefix="/api")

CHANGE_MESSAGES = {
    "upgrade": "Plan upgraded.",
    "downgrade": "Downgrade scheduled for the end of the period.",
    "cancel": "The subscription ends at the end of the period.",
    "reactivate": "The subscription renews as it is.",
    "update_payment_method": "Payment method updated.",
}


@bp.get("/account/subscription")
@login_required
@api_doc("Your subscription: plan, period, usage against the plan's limits, card on file, next charge",
         tags=["subscription"], auth=True, operation="account.get_subscription",
         responses={200: ("Subscription", schemas.SubscriptionSchema)})
def get_subscription():
    return ok(schemas.SubscriptionSchema().dump(service.overview(current_user)))


@bp.post("/account/subscription")
@login_required
@api_doc("Subscribe to Premium (from Free): pays the first month now, or asks for the card holder's "
         "authentication (INCOMPLETE with nextAction)", tags=["subscription"], auth=True,
         operation="account.subscribe",
         body=schemas.SubscribeSchema, responses={201: ("Subscribed, or waiting for authentication",
                                                        schemas.SubscribeResultSchema)})
@idempotent
def subscribe():
    result = service.subscribe(current_user, json_body(schemas.SubscribeSchema()))
    message = N_("Confirm the payment at nextAction.url to finish subscribing.") if result.requires_action \
        else N_("Subscribed.")
    return ok(schemas.SubscribeResultSchema().dump(result), status=201, message=message)


@bp.put("/account/subscription")
@login_required
@api_doc("Change the subscription: upgrade, downgrade, cancel, reactivate or update_payment_method",
         tags=["subscription"], auth=True, operation="account.change_subscription",
         body=schemas.SubscriptionChangeSchema,
         responses={200: ("Changed", schemas.SubscriptionChangeResultSchema)})
def change_subscription():
    data = json_body(schemas.SubscriptionChangeSchema())
    result = service.change(current_user, data)
    return ok(schemas.SubscriptionChangeResultSchema().dump(result), message=CHANGE_MESSAGES[data["action"]])


@bp.post("/account/subscription/preview")
@login_required
@api_doc("What a change (the body of PUT) would cost and when it would take effect: nothing changes and "
         "nothing is charged", tags=["subscription"], auth=True, operation="account.preview_subscription_change",
         body=schemas.SubscriptionChangeSchema,
         responses={200: ("The change, worked out", schemas.ChangePreviewSchema)})
def preview_subscription_change():
    preview = service.preview_change(current_user, json_body(schemas.SubscriptionChangeSchema()))
    return ok(schemas.ChangePreviewSchema().dump(preview))
