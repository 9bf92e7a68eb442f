"""The payment authentication page ``/payments/authenticate/<token>`` (registered on the pages blueprint).

The page is the sandbox provider's: a card that needs its holder's authentication sends them here.
Opening it spends nothing; its form posts the answer (same-origin form posts only, as every form of the
app). The token is the credential, so no session is needed: the holder may have been sent here from
another device or app. Its words are in the visitor's language; the outcome the billing service
words is translated sentence by sentence (``views.said``).
"""
from __future__ import annotations

from flask import render_template, request
from flask_babel import gettext

from app.billing import service as billing
from app.common.wording import said
from app.errors import InvalidField
from app.pages.views import bp


@bp.route("/payments/authenticate/<token>", methods=["GET", "POST"])
def authenticate_payment(token: str):
    if request.method == "GET":
        return render_template("pages/payment_authenticate.html", token=token,
                               payment=billing.pending_payment(token))
    outcome = request.form.get("outcome", "complete")
    if outcome not in ("complete", "fail"):
        raise InvalidField("outcome", "choose complete or fail.")
    result = billing.complete_payment(token, approved=outcome == "complete")
    # The way back: the subscription page says what the payment changed (account/billing.js reads ?payment=).
    back = f"/billing?payment={'complete' if result.completed else 'failed'}"
    title = gettext("Payment complete") if result.completed else gettext("Payment not completed")
    return render_template("pages/message.html", title=title, message=said(result.message, values=result.values),
                           next_link=(back, gettext("Back to your subscription")))
