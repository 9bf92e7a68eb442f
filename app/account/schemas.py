"""What goes over the wire for the account profile."""
from __future__ import annotations

import zoneinfo

from marshmallow import ValidationError, fields, validate, validates

from app.account.models import LANGUAGES, THEMES
from app.common.schemas import InputSchema, OutputSchema, StrictBoolean, StrictString, Timestamp



class TimeZone(StrictString):
    """An IANA time zone name (``Asia/Shanghai``), from the bundled tz database."""

    def _deserialize(self, value, attr, data, **kwargs):
        value = super()._deserialize(value, attr, data, **kwargs)
        if value not in _zones():
            raise ValidationError("Not an IANA time zone name (e.g. Europe/Paris).")
        return value


def _zones() -> set[str]:
    global _ZONES
    if _ZONES is None:
        _ZONES = zoneinfo.available_timezones()
    return _ZONES


_ZONES: set[str] | None = None


class PreferencesSchema(InputSchema):
    language = StrictString(validate=validate.OneOf(LANGUAGES))
    timezone = TimeZone()
    theme = StrictString(validate=validate.OneOf(THEMES))
    emailNotifications = StrictBoolean()
    marketingEmails = StrictBoolean()


class AccountUpdateSchema(InputSchema):
    name = StrictString(validate=validate.Length(min=1, max=100))
    avatar = StrictString(allow_none=True, validate=validate.Length(max=2048),
                          metadata={"description": "an http(s) URL, or null to remove it"})
    preferences = fields.Nested(PreferencesSchema, metadata={"description": "merged key by key"})

    @validates("name")
    def _name_not_blank(self, value, **kwargs):
        if not value.strip():
            raise ValidationError("Must not be blank.")

    @validates("avatar")
    def _avatar_is_web_address(self, value, **kwargs):
        if value is not None:
            validate.URL(schemes={"http", "https"}, require_tld=False, error="Must be an http(s) URL.")(value)


class PreferencesOutputSchema(OutputSchema):
    language = fields.String(required=True)
    timezone = fields.String(required=True)
    theme = fields.String(required=True)
    emailNotifications = fields.Boolean(required=True)
    marketingEmails = fields.Boolean(required=True)


class AccountSchema(OutputSchema):
    """The account as the contract lists it; counts are live (``service.Account``)."""

    id = fields.String(required=True)
    email = fields.String(required=True)
    name = fields.String(required=True)
    avatar = fields.String(required=True, allow_none=True)
    emailVerified = fields.Boolean(required=True, attribute="email_verified")
    emailVerifiedAt = Timestamp(required=True, allow_none=True, attribute="email_verified_at")
    subscriptionType = fields.String(required=True, attribute="subscription_type")
    subscriptionStatus = fields.String(required=True, attribute="subscription_status")
    subscriptionExpiresAt = Timestamp(required=True, allow_none=True, attribute="subscription_expires_at",
                                      metadata={"description": "end of the current period"})
    resumesCreated = fields.Integer(required=True, attribute="usage.resumes_created",
                                    metadata={"description": "live (not deleted) resumes"})
    resumesLimit = fields.Integer(required=True, attribute="usage.resumes_limit",
                                  metadata={"description": "-1: unlimited"})
    apiRequestsUsed = fields.Integer(required=True, attribute="usage.api_requests_used")
    apiRequestsLimit = fields.Integer(required=True, attribute="usage.api_requests_limit")
    storageUsed = fields.Integer(required=True, attribute="usage.storage_used", metadata={"description": "bytes"})
    storageLimit = fields.Integer(required=True, attribute="usage.storage_limit", metadata={"description": "bytes"})
    preferences = fields.Nested(PreferencesOutputSchema, required=True)
    createdAt = Timestamp(required=True, attribute="created_at")
    updatedAt = Timestamp(required=True, attribute="updated_at")
    lastLoginAt = Timestamp(required=True, allow_none=True, attribute="last_login_at")
