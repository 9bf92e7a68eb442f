"""What goes over the wire for the auth endpoints."""
from marshmallow import EXCLUDE, ValidationError, fields, post_load, validate, validates_schema

from app.common.schemas import InputSchema, OutputSchema, StrictString, Timestamp


class EmailField(StrictString, fields.Email):
    """An email address, trimmed and lower-cased; no NUL or lone surrogates."""

    def __init__(self, **kwargs):
        super().__init__(validate=validate.Length(max=254), **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, str):
            value = value.strip().lower()
        return super()._deserialize(value, attr, data, **kwargs)


class Password(StrictString):
    """A password: any string here (the rule is checked by the service, as 422 WEAK_PASSWORD)."""

    def __init__(self, **kwargs):
        super().__init__(metadata={"format": "password", "writeOnly": True}, **kwargs)


class Name(StrictString):
    def _deserialize(self, value, attr, data, **kwargs):
        return super()._deserialize(value, attr, data, **kwargs).strip()


class RegisterSchema(InputSchema):
    email = EmailField(required=True)
    password = Password(required=True)
    name = Name(required=True, validate=validate.Length(min=1, max=100))


class EmailOnlySchema(InputSchema):
    email = EmailField(required=True)


class TokenSchema(InputSchema):
    token = StrictString(required=True, validate=validate.Length(min=1, max=512))


class ResetPasswordSchema(TokenSchema):
    password = Password(required=True)


class SignInSchema(InputSchema):
    email = EmailField(required=True)
    password = Password(required=True, validate=validate.Length(max=4096))
    callbackUrl = StrictString(validate=validate.Length(max=2048), allow_none=True)
    code = StrictString(validate=validate.Length(max=64), allow_none=True)

    @post_load
    def drop_empty(self, data, **kwargs):
        # An empty optional field is an absent one; an empty password is a wrong one (it stays).
        return {k: v for k, v in data.items() if k not in ("callbackUrl", "code") or v not in (None, "")}


class SignInFormSchema(SignInSchema):
    """The browser form: other fields (a submit button's name, ...) are ignored."""

    class Meta:
        unknown = EXCLUDE


class RegisteredUserSchema(OutputSchema):
    id = fields.String(required=True)
    email = fields.String(required=True)
    name = fields.String(required=True)
    emailVerified = fields.Boolean(required=True, attribute="email_verified")
    createdAt = Timestamp(required=True, attribute="created_at")


class SessionUserSchema(OutputSchema):
    id = fields.String(required=True)
    email = fields.String(required=True)
    name = fields.String(required=True)
    image = fields.String(required=True, allow_none=True, attribute="avatar")
    subscriptionType = fields.String(required=True, attribute="subscription_type",
                                     validate=validate.OneOf(["FREE", "PREMIUM", "ENTERPRISE"]))


class SessionSchema(OutputSchema):
    """The session object; ``{}`` when nobody is signed in."""

    user = fields.Nested(SessionUserSchema)
    expires = Timestamp()


class SignInResultSchema(SessionSchema):
    url = fields.String(required=True, metadata={"description": "The same-origin callback address."})


GRANT_FIELDS = {"password": ("email", "password"), "refresh_token": ("refresh_token",)}


class TokenRequestSchema(InputSchema):
    """POST /api/auth/token: ``grant_type`` password (email, password, code) or refresh_token."""

    grant_type = StrictString(required=True, validate=validate.OneOf(list(GRANT_FIELDS)))
    email = EmailField()
    password = Password(validate=validate.Length(max=4096))
    code = StrictString(validate=validate.Length(max=64), allow_none=True,
                        metadata={"description": "With two-factor on: a TOTP or backup code."})
    refresh_token = StrictString(validate=validate.Length(min=1, max=512))

    @validates_schema
    def fields_of_the_grant(self, data, **kwargs):
        missing = [name for name in GRANT_FIELDS[data["grant_type"]] if data.get(name) is None]
        if missing:
            raise ValidationError({name: ["Missing data for required field."] for name in missing})

    @post_load
    def drop_empty_code(self, data, **kwargs):
        return {k: v for k, v in data.items() if k != "code" or v not in (None, "")}


class TokenRequestFormSchema(TokenRequestSchema):
    """The same as a form post (RFC 6749): other parameters (client_id, scope, ...) are ignored."""

    class Meta:
        unknown = EXCLUDE


class TokenResponseSchema(OutputSchema):
    """RFC 6749 §5.1, not in the envelope (as OAuth clients expect)."""

    access_token = fields.String(required=True, metadata={"description": "An HS256 JWT, valid expires_in seconds."})
    token_type = fields.String(required=True, validate=validate.OneOf(["Bearer"]))
    expires_in = fields.Integer(required=True, metadata={"description": "Seconds: 3600."})
    refresh_token = fields.String(required=True, metadata={
        "description": "Single use: exchange it for the next pair with grant_type=refresh_token."})


class OAuthSignInQuerySchema(InputSchema):
    """GET /api/auth/signin/<provider> (documentation only: the view reads ``callbackUrl`` itself)."""

    callbackUrl = fields.String(metadata={"description": "Where to land once signed in: a path or an address on "
                                                         "this site (anything else becomes /)."})


class OAuthCallbackQuerySchema(InputSchema):
    """What a provider sends back (documentation only: authlib reads it; other parameters are ignored)."""

    code = fields.String(metadata={"description": "The authorization code."})
    state = fields.String(metadata={"description": "The state sent with the authorization request."})
    error = fields.String(metadata={"description": "Set instead of code when the person refused (access_denied)."})
    error_description = fields.String()


# Passkeys (app/auth/passkeys.py; decisions "Passkeys") -----------------------------------------------
def credential_field(**kwargs) -> fields.Dict:
    """A WebAuthn credential as JSON (what ``PublicKeyCredential.toJSON()`` gives: id, rawId, type and its
    response's fields in base64url); py_webauthn reads and checks it."""
    return fields.Dict(keys=fields.String(), metadata={
        "description": "The PublicKeyCredential in its JSON form (base64url fields), as toJSON() gives it."},
        **kwargs)


class PasskeyOptionsSchema(OutputSchema):
    publicKey = fields.Dict(required=True, metadata={
        "description": "The options of navigator.credentials.create/get in their JSON form (base64url byte "
                       "fields): the challenge is single use and expires (timeout, in milliseconds)."})


class PasskeySignInSchema(InputSchema):
    credential = credential_field(required=True)
    callbackUrl = StrictString(validate=validate.Length(max=2048), allow_none=True)


# Sudo mode: re-authenticating a browser session (app/auth/reauthentication.py; decisions "Sudo mode") ----------
PROOFS = {"password": "password", "code": "code", "emailCode": "email_code", "credential": "credential"}


class ReauthenticateSchema(InputSchema):
    """One proof of who you are: the password, a two-factor code, a code mailed by POST
    /api/auth/reauthenticate/code (accounts without a password), or a passkey's assertion."""

    password = Password(validate=validate.Length(min=1, max=4096))
    code = StrictString(validate=validate.Length(min=1, max=64),
                        metadata={"description": "a TOTP code from the authenticator app, or a backup code"})
    emailCode = StrictString(validate=validate.Length(min=1, max=32),
                             metadata={"description": "the code mailed by POST /api/auth/reauthenticate/code"})
    credential = credential_field()  # navigator.credentials.get's answer to POST .../reauthenticate/passkey/options

    @validates_schema
    def one_proof(self, data, **kwargs):
        if len([name for name in PROOFS if data.get(name) is not None]) != 1:
            raise ValidationError("Give one of password, code, emailCode or credential.", "body")

    @post_load
    def to_arguments(self, data, **kwargs):
        return {PROOFS[name]: value for name, value in data.items() if value is not None}


class SudoStatusSchema(OutputSchema):
    recent = fields.Boolean(required=True, metadata={
        "description": "whether this session may make security changes now (it signed in or re-authenticated "
                       "lately)"})
    expiresAt = Timestamp(required=True, allow_none=True, attribute="expires_at",
                          metadata={"description": "until when it may; null when it may not now"})
    methods = fields.List(fields.String(validate=validate.OneOf(["password", "passkey", "totp", "email"])),
                          required=True, metadata={"description": "how this account re-authenticates"})
