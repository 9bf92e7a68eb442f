"""The event catalogue: each event type a webhook may receive, what causes it, and the JSON Schema
(draft 2020-12) of its ``data``, written from what the ``record_event`` calls record (their modules
are named in each entry). ``GET /api/webhooks/event-types`` answers it; the tests validate every
recorded event against it, so that a change to an event's data shows up as a failing test here.
"""
from __future__ import annotations

from app.ai.generation import KINDS
from app.resumes.models import STATUSES
from app.users.models import LANGUAGES
from app.webhooks.service import SUBSCRIBABLE, TEST_EVENT

DIALECT = "https://json-schema.org/draft/2020-12/schema"
ID = {"type": "string", "minLength": 1}
TIMESTAMP = {"type": "string", "format": "date-time",
             "pattern": r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$",
             "description": "UTC, milliseconds: 2026-11-01T12:00:00.000Z"}
SCORE = {"type": "integer", "minimum": 0, "maximum": 100}


def _object(properties: dict, description: str | None = None) -> dict:
    """An object with exactly these properties, all present (the events always write every key)."""
    schema = {"type": "object", "properties": properties, "required": list(properties),
              "additionalProperties": False}
    if description:
        schema["description"] = description
    return schema


def _nullable(schema: dict) -> dict:
    return {**schema, "type": [schema["type"], "null"]}


def _data(**objects: dict) -> dict:
    return {"$schema": DIALECT, **_object(objects)}


RESUME_SUMMARY = {"id": ID, "title": {"type": "string"}, "status": {"type": "string", "enum": list(STATUSES)},
                  "user_id": ID, "template_id": ID}
USER_OF = _object({"id": ID, "email": {"type": "string", "format": "email"}})

# type: (description, schema of data), in the order of EVENT_TYPES.
CATALOGUE: dict[str, tuple[str, dict]] = {
    "resume.created": (  # app/resumes/service.py
        "A resume was created, duplicated, or restored from the trash (same id, original created_at).",
        _data(resume=_object({**RESUME_SUMMARY, "created_at": TIMESTAMP}))),
    "resume.updated": (  # app/resumes/service.py
        "A field of a resume changed (project entries included); changed_fields names the API fields given.",
        _data(resume=_object({**RESUME_SUMMARY, "updated_at": TIMESTAMP, "changed_fields": {
            "type": "array", "items": {"type": "string", "enum": [
                "title", "status", "templateId", "contentJson", "sectionsVisibility", "targetJobDescription"]},
            "uniqueItems": True}}))),
    "resume.deleted": (  # app/resumes/service.py
        "A resume was deleted (moved to the trash).",
        _data(resume=_object({"id": ID, "user_id": ID, "deleted_at": TIMESTAMP}))),
    "resume.shared": (  # app/resumes/shares.py
        "A share link was created enabled, or a disabled one was enabled.",
        _data(resume=_object({"id": ID, "user_id": ID}),
              share=_object({"id": ID, "share_url": {"type": "string", "format": "uri"},
                             "is_enabled": {"const": True}, "has_password": {"type": "boolean"},
                             "expires_at": _nullable(TIMESTAMP)}))),
    "resume.exported": (  # app/resumes/exports.py
        "An export of a resume was stored and can be downloaded until expires_at.",
        _data(resume=_object({"id": ID, "user_id": ID}),
              export=_object({"format": {"type": "string"}, "filename": {"type": "string"},
                              "file_size": {"type": "integer", "minimum": 0}, "expires_at": TIMESTAMP}))),
    "user.registered": (  # app/users/service.py
        "An account was created (with a password or through a sign-in provider).",
        _data(user=_object({"id": ID, "email": {"type": "string", "format": "email"}, "name": {"type": "string"},
                            "created_at": TIMESTAMP}))),
    "user.profile_updated": (  # app/users/service.py
        "The name, the avatar or a preference changed; changed_fields names them (preferences.<key>).",
        _data(user=_object({"id": ID, "email": {"type": "string", "format": "email"}, "name": {"type": "string"},
                            "changed_fields": {"type": "array", "minItems": 1, "items": {
                                "type": "string", "pattern": r"^(name|avatar|preferences\.[A-Za-z0-9_]+)$"}}}))),
    "user.subscription_changed": (  # app/billing/shared.py
        "The subscription's type changed (a purchase, an upgrade, a grant, a downgrade or an expiry).",
        _data(user=USER_OF, subscription=_object({
            "id": ID, "previous_type": {"type": "string"}, "current_type": {"type": "string"},
            "current_period_end": _nullable(TIMESTAMP), "changed_at": TIMESTAMP,
            "reason": {"type": "string", "description": "why it changed, e.g. subscribed, upgraded, granted"}}))),
    "ai.content_generated": (  # app/ai/generation.py
        "AI writing answered text for a resume (the resume itself is not changed).",
        _data(generation=_object({"resume_id": ID, "user_id": ID, "kind": {"type": "string", "enum": list(KINDS)},
                                  "model": {"type": "string"}, "language": {"type": "string", "enum": list(LANGUAGES)},
                                  "characters": {"type": "integer", "minimum": 0}, "generated_at": TIMESTAMP}))),
    "ai.analysis_completed": (  # app/ai/analysis.py
        "An analysis of a resume against a job description answered (scores as answered).",
        _data(analysis=_object({"resume_id": ID, "overall_score": SCORE, "keyword_match_score": SCORE,
                                "format_score": SCORE, "content_score": SCORE,
                                "suggestions_count": {"type": "integer", "minimum": 0}}))),
    TEST_EVENT: (  # app/webhooks/service.py send_test
        "Sent only by POST /api/webhooks/<id>/test, to the webhook tested (not subscribable).",
        _data(webhook=_object({"id": ID, "url": {"type": "string", "format": "uri"}}),
              message={"type": "string"})),
}


def event_types() -> list[dict]:
    """The catalogue as the API answers it: the subscribable types, then webhook.test."""
    return [{"type": name, "description": CATALOGUE[name][0], "schema": CATALOGUE[name][1]}
            for name in (*SUBSCRIBABLE, TEST_EVENT)]


def schema_of(event_type: str) -> dict:
    return CATALOGUE[event_type][1]
