"""Webhook endpoints: HTTP only."""
from __future__ import annotations

from flask import Blueprint, request
from flask_login import current_user, login_required
from werkzeug.routing import BaseConverter

from app.common.http import json_body, ok
from app.common.idempotency import idempotent
from app.common.openapi import api_doc
from app.webhooks import catalogue, schemas, service
from app.messages import N_

bp = Blueprint("webhooks", __name__, url_prefix="/api")


class WebhookIdConverter(BaseConverter):
    """``/api/webhooks/<webhook:webhook_id>``: any segment but ``event-types`` (the catalogue), so that
    ``PUT /api/webhooks/event-types`` is 405 with ``Allow: GET`` rather than a look-up of a webhook."""

    regex = r"(?!event-types\Z)[^/]+"


bp.record_once(lambda state: state.app.url_map.converters.setdefault("webhook", WebhookIdConverter))


@bp.post("/webhooks")
@login_required
@api_doc("Register a webhook (at most 10; a secret is generated when none is given)", tags=["webhooks"], auth=True,
         body=schemas.WebhookInputSchema, responses={201: ("The registration", schemas.WebhookSchema)},
         callbacks=schemas.DELIVERY_CALLBACK)
@idempotent
def create_webhook():
    webhook = service.create_webhook(current_user, json_body(schemas.WebhookInputSchema()))
    return ok(schemas.WebhookSchema().dump(webhook), status=201, message=N_("Webhook registered."))


@bp.get("/webhooks")
@login_required
@api_doc("Your webhooks", tags=["webhooks"], auth=True,
         responses={200: ("Registrations", schemas.WebhookSchema(many=True))})
def list_webhooks():
    return ok(schemas.WebhookSchema(many=True).dump(service.list_webhooks(current_user)))


@bp.get("/webhooks/event-types")
@api_doc("The event catalogue: each event type, what causes it, and the JSON Schema of its data (public: it "
         "describes the service, not an account)", tags=["webhooks"],
         responses={200: ("Event types", schemas.EventTypeSchema(many=True))})
def event_types():
    return ok(schemas.EventTypeSchema(many=True).dump(catalogue.event_types()))


@bp.put("/webhooks/<webhook:webhook_id>")
@login_required
@api_doc("Change a webhook (fields left out stay)", tags=["webhooks"], auth=True,
         body=schemas.WebhookInputSchema, responses={200: ("The registration", schemas.WebhookSchema)})
def update_webhook(webhook_id: str):
    data = json_body(schemas.WebhookInputSchema(partial=True))
    return ok(schemas.WebhookSchema().dump(service.update_webhook(current_user, webhook_id, data)),
              message=N_("Webhook updated."))


@bp.delete("/webhooks/<webhook:webhook_id>")
@login_required
@api_doc("Delete a webhook and its delivery log", tags=["webhooks"], auth=True, responses={200: ("Deleted", None)})
def delete_webhook(webhook_id: str):
    service.delete_webhook(current_user, webhook_id)
    return ok(message=N_("Webhook deleted."))


@bp.post("/webhooks/<webhook_id>/test")
@login_required
@api_doc("Send a webhook.test event now; answers its log entry after the first attempt", tags=["webhooks"],
         auth=True, responses={200: ("The test delivery's log entry", schemas.DeliverySchema)})
def test_webhook(webhook_id: str):
    delivery = service.send_test(current_user, webhook_id)
    return ok(schemas.DeliverySchema().dump(delivery), message=N_("Test event sent."))


@bp.get("/webhooks/<webhook_id>/logs")
@login_required
@api_doc("The webhook's delivery log, newest first", tags=["webhooks"], auth=True, query=schemas.LogQuerySchema,
         responses={200: ("Delivery log entries", schemas.DeliverySchema(many=True))})
def webhook_logs(webhook_id: str):
    query = schemas.LogQuerySchema().load(request.args.to_dict())
    return ok(schemas.DeliverySchema(many=True).dump(service.delivery_log(current_user, webhook_id,
                                                                          query["limit"])))


@bp.post("/webhooks/<webhook_id>/rotate-secret")
@login_required
@api_doc("Rotate the webhook's secret (the body and its secret are optional: one is generated); for 24 hours "
         "deliveries carry the old secret's signature too", tags=["webhooks"], auth=True,
         body=schemas.RotateSecretInputSchema, responses={200: ("The new secret", schemas.RotatedSecretSchema)})
def rotate_secret(webhook_id: str):
    data = json_body(schemas.RotateSecretInputSchema()) if request.content_length else {}
    webhook = service.rotate_secret(current_user, webhook_id, data.get("secret"))
    return ok(schemas.RotatedSecretSchema().dump(webhook), message=N_("Secret rotated."))


@bp.post("/webhooks/<webhook_id>/logs/<log_id>/resend")
@login_required
@api_doc("Send the event of a delivery log entry again now; answers the new entry (resend_of names the "
         "original)", tags=["webhooks"], auth=True,
         responses={202: ("The re-send's log entry", schemas.DeliverySchema)})
def resend_delivery(webhook_id: str, log_id: str):
    delivery = service.resend(current_user, webhook_id, log_id)
    return ok(schemas.DeliverySchema().dump(delivery), status=202, message=N_("Event sent again."))


@bp.post("/webhooks/<webhook_id>/recover")
@login_required
@api_doc("Send again every delivery that failed since a time (once per event)", tags=["webhooks"], auth=True,
         body=schemas.RecoverInputSchema, responses={202: ("How many were re-sent", schemas.RecoveredSchema)})
def recover_deliveries(webhook_id: str):
    since = json_body(schemas.RecoverInputSchema())["since"]
    count = service.recover(current_user, webhook_id, since)
    return ok(schemas.RecoveredSchema().dump({"count": count}), status=202, message=N_("Failed deliveries re-sent."))
