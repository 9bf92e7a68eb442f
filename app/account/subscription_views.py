"""Subscription endpoints, on the account blueprint, and the payment authentication page (pages blueprint).

The page is the sandbox provider's: a card that needs its holder's authentication sends them to
``/payments/authenticate/<token>``. Opening it spends nothing; its form posts the answer (same-origin
form posts only, as every form of the app). The token is the credential, so no session is needed: the
holder may have been sent there from another device or app.
"""
from __future__ import annotations

from flask import render_template, request
from flask_login import current_user, login_required

from app.account import subscription_schemas as schemas
from app.account import subscriptions
from app.account.views import bp
from app.common.http import json_body, ok
from app.common.openapi import api_doc
from app.errors import ApiError
from app.pages.views import bp as pages_bp

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
         tags=["subscription"], auth=True, responses={200: ("Subscription", schemas.SubscriptionSchema)})
def get_subscription():
    return ok(schemas.SubscriptionSchema().dump(subscriptions.overview(current_user)))


@bp.post("/account/subscription")
@login_required
@api_doc("Subscribe to Premium (from Free): pays the first month now, or asks for the card holder's "
         "authentication (INCOMPLETE with nextAction)", tags=["subscription"], auth=True,
         body=schemas.SubscribeSchema, responses={201: ("Subscribed, or waiting for authentication",
                                                        schemas.SubscribeResultSchema)})
def subscribe():
    result = subscriptions.subscribe(current_user, json_body(schemas.SubscribeSchema()))
    message = "Confirm the payment at nextAction.url to finish subscribing." if result.requires_action \
        else "Subscribed."
    return ok(schemas.SubscribeResultSchema().dump(result), status=201, message=message)


@bp.put("/account/subscription")
@login_required
@api_doc("Change the subscription: upgrade, downgrade, cancel, reactivate or update_payment_method",
         tags=["subscription"], auth=True, body=schemas.SubscriptionChangeSchema,
         responses={200: ("Changed", schemas.SubscriptionChangeResultSchema)})
def change_subscription():
    data = json_body(schemas.SubscriptionChangeSchema())
    result = subscriptions.change(current_user, data)
    return ok(schemas.SubscriptionChangeResultSchema().dump(result), message=CHANGE_MESSAGES[data["action"]])


@pages_bp.route("/payments/authenticate/<token>", methods=["GET", "POST"])
def authenticate_payment(token: str):
    if request.method == "GET":
        return render_template("pages/payment_authenticate.html", token=token,
                               payment=subscriptions.pending_payment(token))
    outcome = request.form.get("outcome", "complete")
    if outcome not in ("complete", "fail"):
        raise ApiError("VALIDATION_ERROR", "outcome: choose complete or fail.", {"field": "outcome"})
    result = subscriptions.complete_payment(token, approved=outcome == "complete")
    return render_template("pages/message.html", title="Payment complete" if result.completed
                           else "Payment not completed", message=result.message)
