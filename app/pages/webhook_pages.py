"""``/webhooks``: a person's webhooks, in the browser.

The page is a shell; ``static/js/webhooks/page.js`` and its siblings fetch and change everything through
``/api/webhooks`` with the session cookie, so the API's validation (a bad URL, an unknown event),
its limit of 10 per account and its refusal of private addresses apply here exactly as they do to
any other client. Webhooks are open to every plan (the API does not gate them), so the page offers
no upgrade.

The event checklist comes from the service's own list of subscribable types, so a type added there
appears here without a second list to keep in step; each has a translated description.
"""
from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_login import current_user

from app.pages.shell import render_page, signed_in_page
from app.pages.views import bp
from app.webhooks.service import MAX_WEBHOOKS, SUBSCRIBABLE

EVENT_DESCRIPTIONS = {
    "resume.created": _l("A resume was created"),
    "resume.updated": _l("A resume was changed"),
    "resume.deleted": _l("A resume was deleted"),
    "resume.shared": _l("A resume's sharing changed"),
    "resume.exported": _l("A resume was exported"),
    "user.registered": _l("The account was registered"),
    "user.profile_updated": _l("The profile was updated"),
    "user.subscription_changed": _l("The subscription changed"),
    "ai.analysis_completed": _l("An AI analysis finished"),
    "ai.content_generated": _l("AI content was generated"),
}

# What the scripts show (translated through this area's catalogue).
STRINGS = (
    "Active", "Disabled", "Enable", "Disable", "Edit", "Delete", "Send test", "Delivery log",
    "No webhooks yet. Add one above.", "{n} of {max} webhooks",
    "Webhook added.", "Webhook updated.", "Webhook enabled.", "Webhook disabled.", "Webhook deleted.",
    "Sending a test event…", "Test delivered: HTTP {status} in {ms} ms.",
    "Test not delivered: {error}", "The next attempt is at {time}.",
    "Delivered", "Failed", "Pending", "Retrying", "{n} ms", "No deliveries yet.",
    "Delivery log of {url}", "Show more", "Loading…", "Copied.", "Copy failed: select the text and copy it.",
    "Choose at least one event.", "Enter a web address that starts with http:// or https://.",
    "This field is required.", "The secret needs at least 16 characters.",
    "This address cannot receive webhooks: {reason}",
    "You already have the most webhooks an account can have ({max}).",
    "This webhook no longer exists. The list was refreshed.",
    "Delete the webhook to {url}? Its delivery log is deleted with it.",
    "Events of {url}", "Actions for {url}",
    # Rotation, the service's own disabling, resend and recover (issue 17).
    "Rotate secret", "Re-enable", "Disabled: the endpoint answered 410 Gone",
    "Disabled: every delivery failed for 5 days", "Since {time}.", "The previous secret also signs until {time}.",
    "Webhook re-enabled: new events are delivered again. To re-send what failed meanwhile, use Recover failed "
    "deliveries in its delivery log.",
    "Rotate the signing secret of {url}? For 24 hours each delivery is signed with both the new and the current "
    "secret, so your server can switch over without missing one.",
    "The new signing secret of {url}. Copy it now and put it on your server: it is shown here only once.",
    "The previous secret stops signing deliveries at {time}.",
    "Resend", "Re-send of the delivery of {time}", "Re-send of an earlier delivery",
    "Sent again: the new delivery of {event} is at the top of the log.",
    "This webhook is disabled, so nothing can be sent to it. Re-enable it first.",
    "This delivery is no longer in the log. The log was refreshed.",
    "Enter a date and time.", "Choose a time that has passed.",
    "The log does not reach that far back. Choose a later time.",
    "No deliveries failed since then: nothing was re-sent.", "1 delivery re-sent.", "{n} deliveries re-sent.",
)


@bp.get("/webhooks")
@signed_in_page
def webhooks_page():
    events = [{"type": name, "description": EVENT_DESCRIPTIONS.get(name, "")} for name in SUBSCRIBABLE]
    timezone = (current_user.preferences or {}).get("timezone") or "UTC"
    return render_page("pages/webhooks.html", strings=STRINGS, events=events, max_webhooks=MAX_WEBHOOKS,
                       timezone=timezone)
