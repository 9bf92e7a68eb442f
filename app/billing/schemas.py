"""What goes over the wire for the subscription (GET, POST and PUT /api/account/subscription)."""
from __future__ import annotations

from marshmallow import ValidationError, fields, validate, validates_schema

from app.billing.changes import ACTIONS, PRORATION_BEHAVIORS
from app.common.schemas import InputSchema, OutputSchema, StrictString, Timestamp
from app.messages import with_values

# Which of the optional fields each action reads; any other is refused, so that a client never believes a
# field did something (``{"action": "cancel", "planId": "free"}`` does not downgrade at once).
ACTION_FIELDS = {
    "upgrade": {"planId": True, "paymentMethodId": False},  # True: required, False: optional
    "downgrade": {"planId": True},
    "cancel": {},
    "reactivate": {},
    "update_payment_method": {"paymentMethodId": True},
}


def _id(description: str, **kwargs):
    return StrictString(validate=validate.Length(min=1, max=64), metadata={"description": description}, **kwargs)


# In --------------------------------------------------------------------------------
class SubscribeSchema(InputSchema):
    planId = _id("premium (enterprise is granted by an operator)", required=True)
    paymentMethodId = _id("A card from the payment provider, e.g. pm_card_visa in the sandbox", required=True)
    couponCode = _id("Optional percent-off coupon (any case)", allow_none=True)


class SubscriptionChangeSchema(InputSchema):
    action = StrictString(required=True, validate=validate.OneOf(ACTIONS))
    planId = _id("For upgrade and downgrade")
    prorationBehavior = StrictString(load_default="create_prorations", validate=validate.OneOf(PRORATION_BEHAVIORS))
    paymentMethodId = _id("For update_payment_method; optional for upgrade (else the card on file)")

    @validates_schema
    def fields_of_the_action(self, data, **kwargs):
        accepted = ACTION_FIELDS[data["action"]]
        for field in ("planId", "paymentMethodId"):
            if field not in accepted and field in data:
                raise ValidationError(with_values("Not used by %(action)s.", action=data["action"]), field_name=field)
            if accepted.get(field) and field not in data:
                raise ValidationError(with_values("Required for %(action)s.", action=data["action"]), field_name=field)


# Out -------------------------------------------------------------------------------
class PlanSchema(OutputSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    price = fields.Float(required=True, allow_none=True,
                         metadata={"description": "Per interval; null for enterprise (priced by sales)"})
    currency = fields.String(required=True)
    interval = fields.String(required=True)
    features = fields.List(fields.String(), required=True)


class UsageSchema(OutputSchema):
    resumesCreated = fields.Integer(required=True, attribute="resumes_created")
    resumesLimit = fields.Integer(required=True, attribute="resumes_limit", metadata={"description": "-1: unlimited"})
    apiRequestsUsed = fields.Integer(required=True, attribute="api_requests_used")
    apiRequestsLimit = fields.Integer(required=True, attribute="api_requests_limit")
    storageUsed = fields.Integer(required=True, attribute="storage_used", metadata={"description": "Bytes"})
    storageLimit = fields.Integer(required=True, attribute="storage_limit", metadata={"description": "Bytes"})
    resetDate = Timestamp(required=True, attribute="reset_date",
                          metadata={"description": "When apiRequestsUsed starts again: currentPeriodEnd"})


class PaymentMethodSchema(OutputSchema):
    type = fields.String(required=True)
    last4 = fields.String(required=True)
    brand = fields.String(required=True)
    expiryMonth = fields.Integer(required=True, attribute="exp_month")
    expiryYear = fields.Integer(required=True, attribute="exp_year")


class NextBillingSchema(OutputSchema):
    date = Timestamp(required=True)
    amount = fields.Float(required=True)
    currency = fields.String(required=True)


class SubscriptionSchema(OutputSchema):
    id = fields.String(required=True)
    type = fields.String(required=True, metadata={"description": "FREE, PREMIUM or ENTERPRISE"})
    status = fields.String(required=True, metadata={"description": "ACTIVE or PAST_DUE (a renewal was declined)"})
    currentPeriodStart = Timestamp(required=True, attribute="current_period_start")
    currentPeriodEnd = Timestamp(required=True, attribute="current_period_end")
    cancelAtPeriodEnd = fields.Boolean(required=True, attribute="cancel_at_period_end")
    trialEnd = Timestamp(required=True, allow_none=True, attribute="trial_end")
    plan = fields.Nested(PlanSchema, required=True)
    usage = fields.Nested(UsageSchema, required=True)
    paymentMethod = fields.Nested(PaymentMethodSchema, required=True, allow_none=True, attribute="payment_method")
    nextBilling = fields.Nested(NextBillingSchema, required=True, allow_none=True, attribute="next_billing",
                                metadata={"description": "The charge at currentPeriodEnd; null when there is none"})
    pendingType = fields.String(required=True, allow_none=True, attribute="pending_type",
                                metadata={"description": "FREE or PREMIUM: what a scheduled downgrade makes the "
                                                         "subscription at currentPeriodEnd; null when none is"})


class NextActionSchema(OutputSchema):
    type = fields.String(required=True, metadata={"description": "redirect_to_url"})
    url = fields.String(required=True, metadata={"description": "Send the card holder there to authenticate"})


class SubscribeResultSchema(OutputSchema):
    subscriptionId = fields.String(required=True, attribute="subscription_id")
    status = fields.String(required=True, metadata={"description": "ACTIVE, or INCOMPLETE until the card holder "
                                                                   "authenticates at nextAction.url"})
    clientSecret = fields.String(required=True, attribute="client_secret")
    requiresAction = fields.Boolean(required=True, attribute="requires_action")
    nextAction = fields.Nested(NextActionSchema, required=True, allow_none=True, attribute="next_action")


class SubscriptionChangeResultSchema(OutputSchema):
    subscriptionId = fields.String(required=True, attribute="subscription_id")
    status = fields.String(required=True)
    prorationAmount = fields.Float(required=True, attribute="proration_amount")
    effectiveDate = Timestamp(required=True, attribute="effective_date")


class ChangePreviewSchema(OutputSchema):
    action = fields.String(required=True)
    planId = fields.String(required=True, attribute="plan.id",
                           metadata={"description": "The plan once the change has taken effect"})
    prorationAmount = fields.Float(required=True, attribute="proration_amount")
    amountDueNow = fields.Float(required=True, attribute="amount_due_now",
                                metadata={"description": "Charged to the card when the change is made"})
    currency = fields.String(required=True)
    effectiveDate = Timestamp(required=True, attribute="effective_date")
    nextBilling = fields.Nested(NextBillingSchema, required=True, allow_none=True, attribute="next_billing",
                                metadata={"description": "The charge at the end of the period after the change; "
                                                         "null when there is none"})
