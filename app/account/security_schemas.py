"""What goes over the wire for PUT /api/account/security."""
from marshmallow import ValidationError, fields, post_load, validate, validates_schema

from app.auth.schemas import Password
from app.common.schemas import InputSchema, OutputSchema, StrictBoolean


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
