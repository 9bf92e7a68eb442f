"""What goes over the wire for webhooks and their delivery log."""
from __future__ import annotations

from marshmallow import fields, post_dump, validate

from app.common.schemas import InputSchema, OutputSchema, StrictBoolean, StrictString, Timestamp
from app.webhooks.service import SUBSCRIBABLE


class WebhookInputSchema(InputSchema):
    url = StrictString(required=True, validate=[
        validate.Length(max=2048), validate.URL(schemes={"http", "https"}, require_tld=False,
                                                error="Must be an http(s) URL.")])
    events = fields.List(StrictString(validate=validate.OneOf(SUBSCRIBABLE)), required=True,
                         validate=validate.Length(min=1, max=len(SUBSCRIBABLE)))
    secret = StrictString(validate=validate.Length(min=16, max=255),
                          metadata={"description": "at least 16 characters; generated when left out"})
    active = StrictBoolean()


class WebhookSchema(OutputSchema):
    id = fields.String(required=True)
    url = fields.String(required=True)
    events = fields.List(fields.String(), required=True)
    secret = fields.String(required=True)
    active = fields.Boolean(required=True)
    createdAt = Timestamp(required=True, attribute="created_at")


class EventTypeSchema(OutputSchema):
    """An entry of the event catalogue (app/webhooks/catalogue.py)."""

    type = fields.String(required=True)
    description = fields.String(required=True)
    schema = fields.Dict(required=True, metadata={"description": "the JSON Schema (draft 2020-12) of the "
                                                                 "event's data"})


class LogQuerySchema(InputSchema):
    """Query string of the delivery log (values arrive as strings)."""

    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=100))


class DeliverySchema(OutputSchema):
    """A delivery log entry; ``delivered_at`` only on delivered entries, ``last_attempt_at`` and
    ``error`` only on failed ones."""

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

    @post_dump(pass_original=True)
    def _present_where_they_apply(self, data, delivery, **kwargs):
        if delivery.delivered_at is None:
            data.pop("delivered_at", None)
        if delivery.delivered_at is not None or delivery.attempts == 0:
            data.pop("last_attempt_at", None)
            data.pop("error", None)
        if delivery.attempts == 0:
            data["next_retry_at"] = None  # the first attempt is due, not a retry
        return data
