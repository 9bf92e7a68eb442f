"""What goes over the wire for the account: the profile (GET, PUT /api/account) and its security
(PUT /api/account/security, the two-factor set-up and its confirmation), the provider accounts
linked to it and its passkeys."""
from __future__ import annotations

import re
import zoneinfo

from marshmallow import ValidationError, fields, post_load, validate, validates, validates_schema

from app.auth.oauth import PROVIDERS
from app.auth.schemas import Name, Password, credential_field
from app.common.schemas import InputSchema, OutputSchema, StrictBoolean, StrictString, Timestamp
from app.users.models import LANGUAGES, THEMES


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


# Security ---------------------------------------------------------------------------
class SecurityUpdateSchema(InputSchema):
    """``currentPassword`` always; a new password (with its confirmation) and/or the two-factor setting.

    An empty or null ``newPassword`` means "keep the password" (a settings form sends every field).
    """

    # Empty is as good as missing: never right, and it should not count as a wrong attempt.
    currentPassword = Password(required=True, validate=validate.Length(min=1, max=4096))
    newPassword = Password(allow_none=True, validate=validate.Length(max=4096))
    confirmPassword = Password(allow_none=True, validate=validate.Length(max=4096))
    twoFactorEnabled = StrictBoolean(allow_none=True)

    @validates_schema
    def check_fields(self, data, **kwargs):
        new, confirm = data.get("newPassword") or None, data.get("confirmPassword") or None
        if new is not None and confirm != new:
            raise ValidationError("Must equal newPassword.", "confirmPassword")
        if new is None and confirm is not None:
            raise ValidationError("Enter the new password as well as its confirmation.", "newPassword")
        if new is None and data.get("twoFactorEnabled") is None:
            raise ValidationError("Nothing to change: give newPassword (with confirmPassword) or "
                                  "twoFactorEnabled.", "body")

    @post_load
    def to_arguments(self, data, **kwargs):
        return {"current_password": data["currentPassword"], "new_password": data.get("newPassword") or None,
                "two_factor_enabled": data.get("twoFactorEnabled")}


class SecurityResultSchema(OutputSchema):
    passwordUpdated = fields.Boolean(required=True)
    twoFactorEnabled = fields.Boolean(required=True)
    backupCodes = fields.List(fields.String(), required=True,
                              metadata={"description": "Ten single-use codes, only when two-factor was just "
                                                       "turned on (shown once); empty otherwise."})
    otpauthUri = fields.String(metadata={"description": "Only when two-factor was just turned on: the otpauth:// "
                                                        "URI for an authenticator app (as a QR code)."})


class TwoFactorSetupSchema(InputSchema):
    """``currentPassword``, as for every change of the account's security."""

    currentPassword = Password(required=True, validate=validate.Length(min=1, max=4096))

    @post_load
    def to_arguments(self, data, **kwargs):
        return {"current_password": data["currentPassword"]}


class TwoFactorSetupResultSchema(OutputSchema):
    twoFactorEnabled = fields.Boolean(required=True,
                                      metadata={"description": "still false: it turns on at the confirmation"})
    otpauthUri = fields.String(required=True,
                               metadata={"description": "the otpauth:// URI for an authenticator app (as a QR code)"})
    secret = fields.String(required=True, metadata={"description": "the same key in base32, to type in"})
    expiresAt = Timestamp(required=True, metadata={"description": "confirm before this, or start again"})


class TwoFactorConfirmSchema(InputSchema):
    """A code from the authenticator app just set up: six digits (spaces, as apps show them, ignored)."""

    code = StrictString(required=True, validate=validate.Length(min=1, max=20))

    @validates("code")
    def _six_digits(self, value, **kwargs):
        if not re.fullmatch(r"\d{6}", re.sub(r"\s+", "", value)):
            raise ValidationError("Enter the 6-digit code from your authenticator app.")


class TwoFactorConfirmedSchema(OutputSchema):
    twoFactorEnabled = fields.Boolean(required=True)
    confirmed = fields.Boolean(required=True)
    backupCodes = fields.List(fields.String(), required=True,
                              metadata={"description": "Ten single-use codes when this confirmation turned "
                                                       "two-factor on (a set-up started with POST "
                                                       "/api/account/two-factor/setup; shown once); empty when "
                                                       "it was on already (PUT /api/account/security gave them)."})


class BackupCodesSchema(OutputSchema):
    backupCodes = fields.List(fields.String(), required=True, metadata={
        "description": "Ten new single-use codes; every older one stops working. This session shows them again "
                       "(the account page) until POST /api/account/two-factor/backup-codes/dismiss."})


# Linked identities --------------------------------------------------------------------
class IdentitySchema(OutputSchema):
    provider = fields.String(required=True, metadata={"description": "github or google"})
    label = fields.Function(lambda identity: PROVIDERS.get(identity.provider, identity.provider), required=True,
                            metadata={"description": "the provider's name to show (GitHub)"})
    email = fields.String(required=True, allow_none=True,
                          metadata={"description": "the provider's verified email at the last sign-in"})
    linkedAt = Timestamp(required=True, attribute="created_at")


class IdentitiesSchema(OutputSchema):
    identities = fields.List(fields.Nested(IdentitySchema), required=True)
    hasPassword = fields.Boolean(required=True, attribute="has_password",
                                 metadata={"description": "whether a password signs the account in too"})
    providers = fields.List(fields.String(), required=True,
                            metadata={"description": "the providers this service offers for signing in and "
                                                     "linking (GET /api/auth/signin/<provider>)"})


# Passkeys -----------------------------------------------------------------------------------------
class PasskeyCreateSchema(InputSchema):
    credential = credential_field(required=True)
    name = Name(allow_none=True, validate=validate.Length(max=64),
                metadata={"description": "empty or absent: \"Passkey N\""})


class PasskeyRenameSchema(InputSchema):
    name = Name(required=True, validate=validate.Length(min=1, max=64))


class PasskeySchema(OutputSchema):
    id = fields.String(required=True)
    name = fields.String(required=True)
    createdAt = Timestamp(required=True, attribute="created_at")
    lastUsedAt = Timestamp(required=True, allow_none=True, attribute="last_used_at",
                           metadata={"description": "the last sign-in with it"})
    backedUp = fields.Boolean(required=True, attribute="backed_up",
                              metadata={"description": "synced by its provider (usable on the person's other "
                                                       "devices)"})


class PasskeysSchema(OutputSchema):
    passkeys = fields.List(fields.Nested(PasskeySchema), required=True)
