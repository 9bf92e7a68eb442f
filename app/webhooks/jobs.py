"""Webhook jobs: plain ids in, re-read state, raise on failure (a failed attempt is retried by RQ)."""
from __future__ import annotations

from flask import current_app
from flask_babel import force_locale, lazy_gettext

from app.extensions import db
from app.i18n import LOCALES
from app.integrations import mail
from app.users.models import User
from app.webhooks import service
from app.webhooks.delivery import DISABLED_GONE
from app.webhooks.models import Webhook


def relay() -> int:
    """Dispatch the waiting events and make their first attempts (coalesced: one relay at a time)."""
    return service.relay()


def deliver(delivery_id: str) -> str:
    """One attempt of a delivery; raises when it failed with attempts left, so RQ retries it."""
    return service.deliver(delivery_id)


def sweep() -> dict:
    """Periodic: re-enqueue events and deliveries that a Redis outage or a killed process lost."""
    return service.sweep()


def delete_old_logs() -> int:
    """Periodic: delete the delivery log entries (and events) older than WEBHOOK_LOG_RETENTION."""
    return service.delete_old_logs()


def send_disabled_email(webhook_id: str) -> bool:
    """Tell the owner that the service disabled their webhook, and why, in their language. Nothing
    when the webhook is gone or switched on again meanwhile. Raises on mail failure (RQ retries)."""
    webhook = db.session.get(Webhook, webhook_id)
    if webhook is None or webhook.active or webhook.disabled_reason is None:
        return False
    user = db.session.get(User, webhook.user_id)
    days = current_app.config["WEBHOOK_DISABLE_AFTER"].days
    with force_locale(LOCALES.get((user.preferences or {}).get("language"), "en")):
        if webhook.disabled_reason == DISABLED_GONE:
            reason = lazy_gettext("The endpoint answered 410 Gone: it no longer exists.")
        else:
            reason = lazy_gettext("Every delivery to it failed for %(days)s days.", days=days)
        mail.send_template(user.email, str(lazy_gettext("Your webhook was disabled")), "webhook_disabled",
                           user=user, url=webhook.url, reason=str(reason),
                           link=f"{current_app.config['BASE_URL']}/webhooks")
    return True
