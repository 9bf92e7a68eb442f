"""The errors of the contract: every failure leaves as ``{"error", "code", "details"}``.

Services raise ``ApiError`` (or a subclass) with a contract code; the status is
looked up from ``STATUS``, so one code always has one status. This module imports
nothing of the app but ``N_``, so that any layer may raise these; ``app.common.error_responses``
renders them (and every other failure) into the envelope, a page or a form's redirect.
"""
from __future__ import annotations

from marshmallow import ValidationError as SchemaValidationError

from app.messages import N_

STATUS = {
    # contract
    "EMAIL_ALREADY_EXISTS": 400,
    "INVALID_CREDENTIALS": 401,
    "EMAIL_NOT_VERIFIED": 403,
    "TOKEN_EXPIRED": 403,
    "TOKEN_INVALID": 403,
    "USER_NOT_FOUND": 404,
    "WEAK_PASSWORD": 422,
    "INVALID_PASSWORD": 400,
    "RESUME_NOT_FOUND": 404,
    "RESUME_NOT_OWNED": 403,
    "RESUME_CONFLICT": 409,  # a save made from a copy older than the resume (If-Match names another version)
    "INVALID_TEMPLATE": 400,
    "CONTENT_TOO_LARGE": 413,
    "EXPORT_FAILED": 500,
    "SHARE_LIMIT_EXCEEDED": 429,
    "SUBSCRIPTION_NOT_FOUND": 404,
    "PAYMENT_FAILED": 402,
    "PLAN_NOT_FOUND": 404,
    "SUBSCRIPTION_LIMIT_EXCEEDED": 429,
    # decisions §2
    "VALIDATION_ERROR": 400,
    "UNAUTHENTICATED": 401,
    "TWO_FACTOR_REQUIRED": 401,
    "INVALID_TWO_FACTOR_CODE": 401,
    "FORBIDDEN": 403,
    "NOT_FOUND": 404,
    "METHOD_NOT_ALLOWED": 405,
    "UNSUPPORTED_MEDIA_TYPE": 415,
    "WEBHOOK_NOT_FOUND": 404,
    "WEBHOOK_LIMIT_EXCEEDED": 429,
    "WEBHOOK_DISABLED": 409,  # resend or recover on a webhook that is switched off
    "SHARE_NOT_FOUND": 404,
    "DOWNLOAD_LINK_INVALID": 403,
    "DOWNLOAD_LINK_EXPIRED": 410,
    "STORAGE_UNAVAILABLE": 503,
    "LAST_SIGN_IN_METHOD": 409,  # unlinking the account's only way to sign in
    "IDENTITY_IN_USE": 409,  # linking a provider account already linked to another user
    "PROVIDER_ALREADY_LINKED": 409,  # linking a second account of a provider the user has linked one of
    "PASSKEY_INVALID": 400,  # a new passkey's answer that does not verify (details.reason), or a spent challenge
    "PASSKEY_REJECTED": 401,  # a passkey sign-in that does not verify (details.reason), or a spent challenge
    "REAUTHENTICATION_REQUIRED": 403,  # a security change from a session not re-authenticated lately (details)
    "SESSION_REQUIRED": 403,  # a security change with a bearer token: only a browser session may make it
    "TWO_FACTOR_SETUP_IN_ANOTHER_SESSION": 409,  # confirming a two-factor set-up another session started
    "IDEMPOTENCY_KEY_REUSED": 409,  # an Idempotency-Key sent again with another request (app.common.idempotency)
    "IDEMPOTENCY_KEY_IN_USE": 409,  # an Idempotency-Key whose first request is still running
    "IMPORT_UNREADABLE": 422,  # an imported file of a known kind that cannot be read (details.reason)
    "PREVIEW_TOO_HEAVY": 422,  # a preview whose render took longer than PREVIEW_TIMEOUT (details.seconds)
    "PLAN_UPGRADE_REQUIRED": 403,  # a feature the plan does not include (AI features on FREE)
    "AI_NOT_CONFIGURED": 503,  # AI writing without AI_BASE_URL / AI_MODEL
    "AI_PROVIDER_FAILED": 502,  # the model provider failed, timed out or answered something unusable
    "SHARE_EXPIRED": 410,
    "SHARE_PASSWORD_REQUIRED": 401,
    "INVALID_SHARE_PASSWORD": 403,
    "COMMENTS_DISABLED": 403,
    "RATE_LIMITED": 429,
    "INTERNAL_ERROR": 500,
    "SERVICE_UNAVAILABLE": 503,
}

# Werkzeug's HTTP errors (raised by routing, the body reader, Flask-Limiter) by status
# (``app.common.error_responses``).
HTTP_CODES = {
    400: ("VALIDATION_ERROR", N_("The request is malformed.")),
    401: ("UNAUTHENTICATED", N_("Authentication required.")),
    403: ("FORBIDDEN", N_("This request is not allowed.")),
    404: ("NOT_FOUND", N_("No such resource.")),
    405: ("METHOD_NOT_ALLOWED", N_("This method is not allowed for this address.")),
    413: ("CONTENT_TOO_LARGE", N_("The request body is larger than 1 MiB.")),
    415: ("UNSUPPORTED_MEDIA_TYPE", N_("Send the body as application/json.")),
    429: ("RATE_LIMITED", N_("Too many requests; retry after the time given in Retry-After.")),
}


class ApiError(Exception):
    """An error the client can act on: a contract code, a message, optional details."""

    code = "INTERNAL_ERROR"
    message = N_("Something went wrong.")

    def __init__(self, code: str | None = None, message: str | None = None, details: dict | None = None,
                 headers: dict | None = None, values: dict | None = None):
        self.code = code or self.code
        if self.code not in STATUS:
            raise ValueError(f"unknown error code {self.code}")
        # ``message`` is a msgid of the catalogue; ``values`` fill its ``%(name)s`` places (after translation,
        # app.common.wording.said). ``self.message`` is the English text.
        self.template = message or self.message
        self.values = values or {}
        self.message = self.template % english(self.values) if self.values else self.template
        self.details = details
        self.headers = headers or {}
        super().__init__(self.code, self.message)

    @property
    def status(self) -> int:
        return STATUS[self.code]


def english(values: dict) -> dict:
    """Numbers as English writes them (12,000); the translated message uses the reader's way."""
    return {name: f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else value
            for name, value in values.items()}


class InvalidField(ApiError):
    """400 VALIDATION_ERROR naming one field (and, where a client acts on which refusal it is, a
    ``details.reason``)."""

    code = "VALIDATION_ERROR"

    def __init__(self, field: str, message: str, values: dict | None = None, reason: str | None = None):
        details = {"field": field, **({"reason": reason} if reason else {})}
        super().__init__(message=f"{field}: {message}", details=details, values=values)


class Unauthenticated(ApiError):
    code = "UNAUTHENTICATED"
    message = N_("Sign in to use this endpoint.")


class NotFound(ApiError):
    code = "NOT_FOUND"
    message = N_("No such resource.")


class ServiceUnavailable(ApiError):
    """503: the database (or the job queue's Redis) cannot be reached right now; the same request may be
    sent again."""

    code = "SERVICE_UNAVAILABLE"
    message = N_("The service is briefly unavailable. Retry after the number of seconds in Retry-After.")
    retry_after = 5  # seconds: a restarting database is usually back, and the pool reconnects per request

    def __init__(self):
        super().__init__(headers={"Retry-After": str(self.retry_after)})


def flatten_messages(messages, prefix: str = "") -> dict[str, str]:
    """marshmallow's nested messages as ``{"a.b.0.c": "message"}``."""
    flat: dict[str, str] = {}
    if isinstance(messages, dict):
        for key, value in messages.items():
            name = prefix if key == "_schema" else (f"{prefix}.{key}" if prefix else str(key))
            flat.update(flatten_messages(value, name))
    elif isinstance(messages, list) and messages and all(isinstance(m, str) for m in messages):
        flat[prefix or "body"] = " ".join(messages)
    elif isinstance(messages, list):
        for item in messages:
            flat.update(flatten_messages(item, prefix))
    else:
        flat[prefix or "body"] = str(messages)
    return flat


def from_schema_error(exc: SchemaValidationError) -> ApiError:
    """A marshmallow error as 400 VALIDATION_ERROR; ``details.field`` is the first field."""
    flat = flatten_messages(exc.messages)
    field, message = next(iter(flat.items()))
    error = InvalidField(field, message)
    if len(flat) > 1:
        error.details["errors"] = flat
    return error
