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



@bp.get("/webhooks")
@signed_in_page
def webhooks_page():
    events = [{"type": name, "description": EVENT_DESCRIPTIONS.get(name, "")} for name in SUBSCRIBABLE]
    timezone = (current_user.preferences or {}).get("timezone") or "UTC"
    return render_page("pages/webhooks.html", scripts="webhooks", events=events, max_webhooks=MAX_WEBHOOKS,
                       timezone=timezone)
