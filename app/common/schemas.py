"""Base schemas and strict field types shared by every resource."""
from __future__ import annotations

import builtins
import re
from datetime import datetime, timezone

from marshmallow import RAISE, Schema, ValidationError, fields, validate

# What an ``Integer`` column holds on every database we run on (PostgreSQL's ``integer``; SQLite's go on to
# 2**63 - 1): the bounds of any integer an address or a query string may carry (here and common/routing.py).
INTEGER_MIN, INTEGER_MAX = -(2**31), 2**31 - 1


class InputSchema(Schema):
    """Request bodies: unknown (and read-only) fields are refused."""

    class Meta:
        unknown = RAISE


class OutputSchema(Schema):
    class Meta:
        ordered = True


class StrictInteger(fields.Integer):
    """Refuses ``2.5``, ``"2"`` and booleans."""

    def __init__(self, **kwargs):
        super().__init__(strict=True, **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if isinstance(value, bool):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class QueryInteger(fields.Integer):
    """An integer in a query string, always bounded: ``QueryInteger(min=1, max=100, load_default=10)``.

    ASCII digits only, with an optional minus: Python's ``int`` also reads "１", "١", "1_0", "+1" and
    " 1", which would be a second spelling of each number (or a 500, past what the database holds).
    """

    _SHAPE = re.compile(r"-?[0-9]+")

    def __init__(self, *, min: int = INTEGER_MIN, max: int = INTEGER_MAX, **kwargs):
        # (``min`` and ``max`` hide the built-ins, as the Range they make names them)
        super().__init__(validate=validate.Range(builtins.max(min, INTEGER_MIN), builtins.min(max, INTEGER_MAX)),
                         **kwargs)

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, str) or not self._SHAPE.fullmatch(value):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class StrictBoolean(fields.Boolean):
    """Only JSON ``true``/``false``."""

    def _deserialize(self, value, attr, data, **kwargs):
        if not isinstance(value, bool):
            raise self.make_error("invalid")
        return value


class StrictString(fields.String):
    """A string without NUL characters (PostgreSQL refuses them in text) or lone surrogates.

    JSON can carry ``"\\ud800"``, which no database driver or bcrypt can encode as UTF-8.
    """

    def _deserialize(self, value, attr, data, **kwargs):
        result = super()._deserialize(value, attr, data, **kwargs)
        if "\x00" in result:
            raise ValidationError("Must not contain NUL characters.")
        try:
            result.encode("utf-8")
        except UnicodeEncodeError:
            raise ValidationError("Must be valid Unicode text (no lone surrogates).") from None
        return result


def format_timestamp(value: datetime | None) -> str | None:
    """An aware datetime as the API writes it: ``2026-11-01T12:00:00.000Z`` (None stays None)."""
    if value is None:
        return None
    return value.astimezone(timezone.utc).isoformat(timespec="milliseconds")[:-6] + "Z"  # drop "+00:00"


class Timestamp(fields.DateTime):
    """ISO 8601 UTC with a ``Z``: ``2026-11-01T12:00:00.000Z``."""

    def _serialize(self, value, attr, obj, **kwargs):
        return format_timestamp(value)

    def _deserialize(self, value, attr, data, **kwargs):
        result: datetime = super()._deserialize(value, attr, data, **kwargs)
        if result.tzinfo is None:
            raise ValidationError("Give a time zone (e.g. a trailing Z for UTC).")
        return result.astimezone(timezone.utc)


class MessageSchema(OutputSchema):
    """Success envelope without data: ``{"success": true, "message": ...}``."""

    success = fields.Boolean(required=True)
    message = fields.String(required=True)


class ErrorSchema(OutputSchema):
    error = fields.String(required=True, metadata={"description": "Human-readable message."})
    code = fields.String(required=True, metadata={"description": "A code from the contract's Errors list."})
    details = fields.Dict(metadata={"description": "e.g. field, resumeId, limit."})
