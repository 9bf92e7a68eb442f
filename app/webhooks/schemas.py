"""What goes over the wire for webhooks and their delivery log."""
from __future__ import annotations

from marshmallow import fields, post_dump, validate

from app.common.models import utcnow
from app.common.schemas import InputSchema, OutputSchema, QueryInteger, StrictBoolean, StrictString, Timestamp
from app.webhooks.delivery import DISABLED_FAILING, DISABLED_GONE
from app.webhooks.service import SUBSCRIBABLE


def secret_field() -> StrictString:
    return StrictString(validate=validate.Length(min=16, max=255),
                        metadata={"description": "at least 16 characters; generated when left out"})


class WebhookInputSchema(InputSchema):
    url = StrictString(required=True, validate=[
        validate.Length(max=2048), validate.URL(schemes={"http", "https"}, require_tld=False,
                                                error="Must be an http(s) URL.")])
    events = fields.List(StrictString(validate=validate.OneOf(SUBSCRIBABLE)), required=True,
                         validate=validate.Length(min=1, max=len(SUBSCRIBABLE)))
    secret = secret_field()
    active = StrictBoolean(metadata={"description": "true also clears disabledReason and disabledAt"})


class RotateSecretInputSchema(InputSchema):
    """The optional body of a rotation."""

    secret = secret_field()


class RotatedSecretSchema(OutputSchema):
    secret = fields.String(required=True, metadata={"description": "the new secret"})
    previousSecretExpiresAt = Timestamp(required=True, attribute="previous_secret_expires_at", metadata={
        "description": "until then deliveries carry the old secret's signature too (webhook-signature)"})


class RecoverInputSchema(InputSchema):
    since = Timestamp(required=True, metadata={"description": "ISO 8601 with a time zone; not in the future, "
                                                              "at most the log's retention (30 days) back"})


class RecoveredSchema(OutputSchema):
    count = fields.Integer(required=True, metadata={"description": "failed deliveries re-sent"})


class WebhookSchema(OutputSchema):
    id = fields.String(required=True)
    url = fields.String(required=True)
    events = fields.List(fields.String(), required=True)
    secret = fields.String(required=True)
    active = fields.Boolean(required=True)
    createdAt = Timestamp(required=True, attribute="created_at")
    previousSecretExpiresAt = Timestamp(required=True, allow_none=True, attribute="previous_secret_expires_at",
                                        metadata={"description": "while a rotated-out secret still signs"})
    disabledReason = fields.String(required=True, allow_none=True, attribute="disabled_reason",
                                   validate=validate.OneOf([DISABLED_GONE, DISABLED_FAILING]), metadata={
                                       "description": "set when the service disabled the webhook: gone (the "
                                                      "receiver answered 410), failing (every attempt failed "
                                                      "for 5 days)"})
    disabledAt = Timestamp(required=True, allow_none=True, attribute="disabled_at")

    @post_dump(pass_original=True)
    def _previous_secret_while_it_signs(self, data, webhook, **kwargs):
        expires = webhook.previous_secret_expires_at
        if expires is None or expires <= utcnow():
            data["previousSecretExpiresAt"] = None
        return data


class EventTypeSchema(OutputSchema):
    """An entry of the event catalogue (app/webhooks/catalogue.py)."""

    type = fields.String(required=True)
    description = fields.String(required=True)
    schema = fields.Dict(required=True, metadata={"description": "the JSON Schema (draft 2020-12) of the "
                                                                 "event's data"})


class LogQuerySchema(InputSchema):
    """Query string of the delivery log (values arrive as strings)."""

    limit = QueryInteger(min=1, max=100, load_default=50)


class DeliverySchema(OutputSchema):
    """A delivery log entry; ``delivered_at`` only on delivered entries, ``last_attempt_at`` and
    ``error`` only on failed ones, ``resend_of`` only on re-sends."""

    id = fields.String(required=True)
    event_id = fields.String(required=True)
    event_type = fields.String(required=True)
    url = fields.String(required=True)
    status_code = fields.Integer(required=True, allow_none=True)
    response_time = fields.Integer(required=True, allow_none=True, metadata={"description": "milliseconds"})
    attempts = fields.Integer(required=True)
    delivered_at = Timestamp()
    last_attempt_at = Timestamp()
    next_retry_at = Timestamp(required=True, allow_none=True)
    error = fields.String()
    resend_of = fields.String(metadata={"description": "on a re-send only: the id of the entry it re-sends"})

    @post_dump(pass_original=True)
    def _present_where_they_apply(self, data, delivery, **kwargs):
        if delivery.delivered_at is None:
            data.pop("delivered_at", None)
        if delivery.delivered_at is not None or delivery.attempts == 0:
            data.pop("last_attempt_at", None)
            data.pop("error", None)
        if delivery.attempts == 0:
            data["next_retry_at"] = None  # the first attempt is due, not a retry
        if delivery.resend_of is None:
            data.pop("resend_of", None)
        return data


def _header(name: str, description: str, pattern: str | None = None) -> dict:
    schema = {"type": "string"} if pattern is None else {"type": "string", "pattern": pattern}
    return {"name": name, "in": "header", "required": True, "description": description, "schema": schema}


# A delivery, as OpenAPI 3.0 describes requests the service makes later: a callback of the registration
# (docs/webhooks.md has the receiver's side in full).
DELIVERY_CALLBACK = {"delivery": {"{$request.body#/url}": {"post": {
    "summary": "A delivery: an event of a subscribed type, posted to the webhook's url",
    "description": "Answer 200, 201, 202 or 204 within 30 seconds; anything else is a failed attempt, retried after "
                   "1, 2 and 4 seconds. A 410 disables the webhook. Both signatures cover the raw body.",
    "parameters": [
        _header("X-Service-Timestamp", "when it was signed, in Unix seconds", r"^\d+$"),
        _header("X-Service-Signature", "sha256= and the hex HMAC-SHA256, keyed with the secret string, of "
                                       "<X-Service-Timestamp>.<raw body>; the new secret's after a rotation",
                r"^sha256=[0-9a-f]{64}$"),
        _header("webhook-id", "Standard Webhooks: the event id, the same on every attempt"),
        _header("webhook-timestamp", "Standard Webhooks: the same Unix seconds as X-Service-Timestamp", r"^\d+$"),
        _header("webhook-signature", "Standard Webhooks: v1, and the base64 HMAC-SHA256 of <webhook-id>."
                                     "<webhook-timestamp>.<raw body>, keyed with the base64-decoded bytes of a "
                                     "whsec_ secret, else the secret's UTF-8 bytes; for 24 hours after a rotation "
                                     "two of them, space-separated (the new secret's first, then the old one's)",
                r"^v1,[A-Za-z0-9+/]+=*( v1,[A-Za-z0-9+/]+=*)?$"),
        _header("User-Agent", "ResumeService-Webhooks/1.0"),
    ],
    "requestBody": {"required": True, "content": {"application/json": {"schema": {
        "type": "object", "required": ["id", "type", "created", "data", "api_version"], "properties": {
            "id": {"type": "string", "description": "the event id (de-duplicate by it)"},
            "type": {"type": "string", "description": "see GET /api/webhooks/event-types"},
            "created": {"type": "string", "format": "date-time"},
            "data": {"type": "object", "description": "the JSON Schema of each type's data is in the catalogue"},
            "api_version": {"type": "string"}}}}}},
    "responses": {"200": {"description": "Received (201, 202 and 204 too)"},
                  "410": {"description": "Gone: the webhook is disabled at once and its owner mailed"},
                  "default": {"description": "A failed attempt: retried while attempts are left"}},
}}}}
